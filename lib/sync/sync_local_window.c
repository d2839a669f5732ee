/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The in-process lockstep's windows (sync_local.c says what each
 * component gets, and in what order): the lcores' phases, the switch's
 * window begun and ended around them, and the engine's ops (run: the
 * phases and the serial steps; exchange: nothing crosses the process;
 * agree: E from what each lcore noted). One barrier a window: the
 * workers park between phases (sync_park.h) and take each other's last
 * parts when done early (sync_steal.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "sync_local_private.h"
#include "uet_log.h"

/* Run part i of the switch, for the lcore w. */
static void worker_run_part(struct local_worker *w, uint32_t i)
{
	struct uet_component *sw = w->l->conf.sw;
	int64_t r = sw->parts.part_run(sw, i, w->l->window_end_ps);

	if (r >= 0)
		w->ran += r;
	else
		sync_first_failure_note(&w->part_fail, i, (int)r);
}

/* The lcore's share of the NICs: each runs the window. */
static void worker_run_nics(struct local_worker *w)
{
	struct uet_sync_local *l = w->l;
	uint32_t i;

	w->nic_next_ps = UET_TIME_NEVER;
	w->nic_out_min_ps = UET_TIME_NEVER;
	w->nic_sent = 0;
	w->nic_failed = UINT32_MAX;
	for (i = w->first; i < w->first + w->count; i++) {
		struct local_nic *n = &l->nics[i];

		n->out_sent = 0;
		n->out_min_ps = UET_TIME_NEVER;
		local_nic_window(n, l->window_end_ps);
		if (n->error.err != 0 && w->nic_failed == UINT32_MAX)
			w->nic_failed = i;
		if (n->next_event_ps < w->nic_next_ps)
			w->nic_next_ps = n->next_event_ps;
		if (n->out_min_ps < w->nic_out_min_ps)
			w->nic_out_min_ps = n->out_min_ps;
		w->nic_sent += n->out_sent;
	}
}

/* The lcore's run of the switch's parts, then the last parts of the
 * others' runs. */
static void worker_run_parts(struct local_worker *w)
{
	struct uet_sync_local *l = w->l;
	uint32_t i, v;

	w->ran = 0;
	sync_first_failure_reset(&w->part_fail);
	while (sync_steal_front(&w->parts, &i))
		worker_run_part(w, i);
	/* Its own run done: the last parts of the others', the next lcore
	 * first, so that two idle lcores rarely race for one part. In a
	 * window phase an lcore still running its NICs has its parts taken
	 * from the back meanwhile: the NIC phases' imbalance is filled with
	 * switch work. */
	for (v = 1; v < l->n_workers; v++) {
		struct local_worker *o =
			&l->workers[(w - l->workers + v) % l->n_workers];

		while (sync_steal_back(&o->parts, &i)) {
			worker_run_part(w, i);
			w->parts_stolen++;
		}
	}
}

/* The share of a phase, timed: how long each lcore works on NICs and on
 * the switch. */
static void worker_run_timed(struct local_worker *w, enum local_phase phase)
{
	uint64_t t0 = sync_wall_ns(), t1;

	if (phase != LOCAL_PHASE_SWITCH) {
		worker_run_nics(w);
		t1 = sync_wall_ns();
		w->busy_ns[0] += t1 - t0;
		t0 = t1;
	}
	if (phase != LOCAL_PHASE_NICS) {
		worker_run_parts(w);
		w->busy_ns[1] += sync_wall_ns() - t0;
	}
}

static int worker_main(void *arg)
{
	struct local_worker *w = arg;
	struct uet_sync_local *l = w->l;

	RTE_PER_LCORE(local_self) = w;

	for (;;) {
		w->seen_gen =
			sync_park_wait(&l->gen, w->seen_gen, false, &w->spins);
		if (l->phase == LOCAL_PHASE_QUIT)
			return 0;
		worker_run_timed(w, l->phase);
		sync_park_add(&l->done, 1);
	}
}

/* Run a phase on every lcore, the calling one included, and wait. */
static void run_phase(struct uet_sync_local *l, enum local_phase phase)
{
	if (l->n_workers > 1) {
		sync_park_set(&l->done, 0);
		l->phase = phase;
		sync_park_add(&l->gen, 1);
	}
	if (phase != LOCAL_PHASE_QUIT)
		worker_run_timed(&l->workers[0], phase);
	if (l->n_workers > 1 && phase != LOCAL_PHASE_QUIT)
		sync_park_wait(&l->done, l->n_workers - 1, true,
			       &l->workers[0].spins);
}

/*
 * The NICs' frames of the window, in the fixed order the switch takes
 * them: (arrival, port, order on the port). A switch in parts sorts each
 * part's frames itself by the same key, in parallel
 * (lib/fabric/fabric_part.c): it takes them unsorted, in host order, each
 * NIC's in the order it sent them (which that sort keeps for one port).
 */
static int gather_sorted(struct uet_sync_local *l, bool sort)
{
	const uint32_t x = (uint32_t)(l->seq & 1u); /* this window's */
	uint32_t i, total = 0;

	for (i = 0; i < l->conf.n_nics; i++)
		total += uet_xring_count(&l->nics[i].outbox[x]);
	if (total > l->cap_sorted) {
		void *p = realloc(l->sorted, total * sizeof(*l->sorted));

		if (p == NULL)
			return -ENOMEM;
		l->sorted = p;
		p = realloc(l->sort_tmp, total * sizeof(*l->sort_tmp));
		if (p == NULL)
			return -ENOMEM;
		l->sort_tmp = p;
		l->cap_sorted = total;
	}
	/* Each NIC's ring gives its frames as port = the NIC, order = the
	 * place among what it sent in the window. */
	l->n_sorted = 0;
	for (i = 0; i < l->conf.n_nics; i++)
		l->n_sorted += uet_xring_take(&l->nics[i].outbox[x],
					      l->sorted + l->n_sorted,
					      total - l->n_sorted);
	if (sort && l->n_sorted > 1)
		uet_xframe_sort(l->sorted, l->n_sorted, l->sort_tmp);
	return 0;
}

/*
 * The switch takes the frames the NICs sent in the window, once it has run
 * the window itself: they arrive at or after its end, so the switch's
 * window never needed them, and over ports the switch runs its window
 * while the NICs run theirs and takes their frames when every DONE is in
 * (docs/lockstep.md, "Windows"). Taken in the same place here, they join
 * the switch's queues in the same order, so the records are the same.
 */
static int switch_take(struct uet_sync_local *l)
{
	struct uet_component *sw = l->conf.sw;
	uint32_t i;
	int rc;

	if (l->fed)
		return 0; /* the parts take them in the next window */
	rc = gather_sorted(l, sw->parts.n == 0);
	if (rc < 0)
		return local_fail(&l->error, rc,
				  "out of memory for the window's frames");
	for (i = 0; i < l->n_sorted; i++) {
		struct uet_xframe *f = &l->sorted[i];

		rc = sw->deliver(sw, f->port, f->m, f->arrival_ps);
		if (rc < 0) {
			for (i++; i < l->n_sorted; i++)
				rte_pktmbuf_free(l->sorted[i].m);
			l->n_sorted = 0;
			return local_fail(&l->error, rc,
					  "%s refused a frame: %s", sw->name,
					  strerror(-rc));
		}
	}
	l->n_sorted = 0;
	return 0;
}

/* The events the parts ran, or the failure of the first part (in part
 * order, whichever lcore ran it) that failed. */
static int64_t parts_ran(const struct uet_sync_local *l)
{
	struct sync_first_failure first;
	int64_t ran = 0;
	uint32_t i;

	sync_first_failure_reset(&first);
	for (i = 0; i < l->n_workers; i++) {
		const struct local_worker *w = &l->workers[i];

		ran += w->ran;
		sync_first_failure_note(&first, w->part_fail.at,
					w->part_fail.err);
	}
	return first.err < 0 ? first.err : ran;
}

/* Before the switch's phase (or the window's): what sw_out notes per
 * lcore cleared, the parts' window begun and their runs dealt out. */
static int switch_begin(struct uet_sync_local *l)
{
	struct uet_component *sw = l->conf.sw;
	uint32_t i;
	int rc;

	/* What the switch sends the NICs, noted by the lcore that sends it
	 * (sw_out): the serial step after it reads a few words per lcore. */
	for (i = 0; i < l->n_workers; i++) {
		l->workers[i].sw_sent_min_ps = UET_TIME_NEVER;
		l->workers[i].sw_sent = 0;
		l->workers[i].sw_failed = UINT32_MAX;
	}
	if (sw->parts.n == 0)
		return 0;
	rc = sw->parts.window_begin == NULL
		     ? 0
		     : sw->parts.window_begin(sw, l->window_start_ps,
					      l->window_end_ps);
	if (rc < 0)
		return local_fail(&l->error, rc,
				  "%s cannot begin the window at %" PRIu64
				  " ps: %s",
				  sw->name, l->window_start_ps, strerror(-rc));
	for (i = 0; i < l->n_workers; i++)
		sync_steal_reset(&l->workers[i].parts, l->workers[i].part_first,
				 l->workers[i].part_count);
	return 0;
}

/* After it: the parts' window ended, what the switch sent the NICs and
 * the first failure gathered, and (not fed) the NICs' frames of the
 * window handed to the switch. */
static int switch_end(struct uet_sync_local *l)
{
	struct uet_component *sw = l->conf.sw;
	uint32_t i, failed = UINT32_MAX;
	int64_t ran;
	int rc;

	if (sw->parts.n == 0) {
		ran = uet_evq_run_until(&sw->evq, l->window_end_ps);
	} else {
		ran = parts_ran(l);
		rc = sw->parts.window_end == NULL
			     ? 0
			     : sw->parts.window_end(sw, l->window_end_ps);
		if (rc < 0 && ran >= 0)
			ran = rc;
	}
	/* What the switch sent the NICs: the first failure in host order,
	 * and the earliest arrival. */
	l->min_sent_ps = UET_TIME_NEVER;
	for (i = 0; i < l->n_workers; i++) {
		const struct local_worker *w = &l->workers[i];

		if (w->sw_failed < failed)
			failed = w->sw_failed;
		if (w->sw_sent_min_ps < l->min_sent_ps)
			l->min_sent_ps = w->sw_sent_min_ps;
		l->stats.data_frames_tx += w->sw_sent;
	}
	if (failed != UINT32_MAX && l->error.err == 0)
		l->error = l->nics[failed].sw_error;
	if (l->error.err != 0)
		return l->error.err;
	if (ran < 0)
		return local_fail(&l->error, (int)ran,
				  "%s cannot run to %" PRIu64 " ps: %s",
				  sw->name, l->window_end_ps,
				  strerror((int)-ran));
	l->stats.events += (uint64_t)ran;
	return switch_take(l);
}

/* Phase 2 on its own (a switch that is not fed): the switch runs the
 * window, then takes the NICs' frames of it. */
static int switch_window(struct uet_sync_local *l)
{
	int rc = switch_begin(l);

	if (rc < 0)
		return rc;
	if (l->conf.sw->parts.n != 0)
		run_phase(l, LOCAL_PHASE_SWITCH);
	return switch_end(l);
}

/* The first NIC (in host order) that failed, so the message is the same
 * whatever lcore ran it. */
static int nics_error(struct uet_sync_local *l)
{
	uint32_t i;

	for (i = 0; i < l->conf.n_nics; i++)
		if (l->nics[i].error.err != 0) {
			l->error = l->nics[i].error;
			return l->error.err;
		}
	return 0;
}

/* The same after a NIC phase, from what each lcore noted of its share
 * (shares are in host order). */
static int nics_phase_error(struct uet_sync_local *l)
{
	uint32_t w;

	for (w = 0; w < l->n_workers; w++)
		if (l->workers[w].nic_failed != UINT32_MAX) {
			l->error = l->nics[l->workers[w].nic_failed].error;
			return l->error.err;
		}
	return 0;
}

static void local_progress(struct uet_sync_local *l)
{
	struct uet_sync_progress pr;
	uint64_t now_ns;

	if (l->conf.progress_fn == NULL)
		return;
	now_ns = sync_wall_ns();
	if (now_ns - l->progress_ns <
	    (uint64_t)l->conf.progress_interval_ms * 1000000u)
		return;
	l->progress_ns = now_ns;
	pr.now_ps = l->stats.now_ps;
	pr.windows = l->stats.windows;
	pr.events = l->stats.events;
	pr.wall_ns = now_ns - l->start_ns;
	uet_sync_local_costs(l, &pr.model_ns, &pr.sync_ns);
	l->conf.progress_fn(l->conf.progress_arg, &pr);
}

static int launch_workers(struct uet_sync_local *l)
{
	uint32_t i;

	for (i = 1; i < l->n_workers; i++) {
		int rc = rte_eal_remote_launch(worker_main, &l->workers[i],
					       l->workers[i].lcore_id);

		if (rc != 0) {
			/* Those launched are told to quit by the caller. */
			l->n_workers = i;
			return local_fail(&l->error, rc < 0 ? rc : -EBUSY,
					  "cannot start worker lcore %u: %s",
					  l->workers[i].lcore_id,
					  strerror(rc < 0 ? -rc : EBUSY));
		}
	}
	l->launched = true;
	return 0;
}

static void stop_workers(struct uet_sync_local *l)
{
	uint32_t i;

	if (!l->launched && l->n_workers <= 1)
		return;
	run_phase(l, LOCAL_PHASE_QUIT);
	for (i = 1; i < l->n_workers; i++)
		(void)rte_eal_wait_lcore(l->workers[i].lcore_id);
	l->launched = false;
}

/* Flush whatever the wiring keeps per NIC, between phases. */
static int local_serial(struct uet_sync_local *l, uet_sync_window_fn fn)
{
	int rc;

	if (fn == NULL)
		return 0;
	rc = fn(l->conf.window_arg, l->window_end_ps);
	if (rc < 0)
		return local_fail(&l->error, rc,
				  "the run failed in window [%" PRIu64
				  ", %" PRIu64 ") ps: %s",
				  l->window_start_ps, l->window_end_ps,
				  strerror(-rc));
	return 0;
}

/*
 * The engine's run: every lcore runs its share of the window (NICs, then
 * parts, fed; or the NICs' phase, then the switch's), the serial steps
 * after it (the wiring's hooks, the parts' window end).
 */
static int local_run(void *ctx, const struct sync_window *w)
{
	struct uet_sync_local *l = ctx;
	const volatile sig_atomic_t *stop = l->conf.stop;
	uint32_t i;
	int rc;

	if (stop != NULL && *stop)
		return local_fail(&l->error, -EINTR,
				  "stopped by a signal at %" PRIu64
				  " ps of virtual time",
				  w->start_ps);
	l->window_start_ps = w->start_ps;
	l->window_end_ps = w->end_ps;
	l->seq = l->stats.windows++;
	if (l->fed) {
		/* One phase: each lcore runs its NICs, then parts (its own,
		 * then others' from the back). */
		rc = switch_begin(l);
		if (rc < 0)
			return rc;
		run_phase(l, LOCAL_PHASE_WINDOW);
	} else {
		run_phase(l, LOCAL_PHASE_NICS);
	}
	/* Over ranks, what crossed goes to every rank before anything can
	 * stop this one: the others wait for its message. */
	if (l->conf.ranks != NULL) {
		rc = sync_mpi_cross(l);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < l->n_workers; i++)
		l->stats.data_frames_rx += l->workers[i].nic_sent;
	/* A NIC's failure first, the switch's after, as when the switch ran
	 * only once the NICs were done. */
	rc = nics_phase_error(l);
	if (rc == 0)
		rc = local_serial(l, l->conf.nics_done_fn);
	if (rc == 0)
		rc = l->fed ? switch_end(l) : switch_window(l);
	l->stats.now_ps = l->window_end_ps;
	if (rc == 0)
		rc = local_serial(l, l->conf.window_fn);
	return rc;
}

/* Nothing crosses a process's boundary: the rings between the NICs and
 * the switch's parts are read in the next window, the barrier between. */
static int local_exchange(void *ctx, const struct sync_window *w)
{
	(void)w;
	local_progress(ctx);
	return 0;
}

uet_time_t sync_local_next(const struct uet_sync_local *l)
{
	uet_time_t e = uet_component_next_time(l->conf.sw);
	uint32_t i;

	if (l->min_sent_ps < e)
		e = l->min_sent_ps;
	if (l->remote_min_ps < e)
		e = l->remote_min_ps;
	for (i = 0; i < l->n_workers; i++) {
		const struct local_worker *w = &l->workers[i];

		if (w->nic_next_ps < e)
			e = w->nic_next_ps;
		/* Fed, the switch has not seen them yet. */
		if (w->nic_out_min_ps < e)
			e = w->nic_out_min_ps;
	}
	return e;
}

/* E: the switch's next event (with the NICs' frames it took), the frames
 * it sent the NICs, the NICs' next events and (fed) the frames they sent. */
static int local_agree(void *ctx, const struct sync_window *w,
		       struct sync_vote *v)
{
	(void)w;
	v->next_ps = sync_local_next(ctx);
	return 0;
}

const struct sync_transport_ops local_transport_ops = {
	.name = "lcores",
	.run = local_run,
	.exchange = local_exchange,
	.agree = local_agree,
};

int uet_sync_local_run(struct uet_sync_local *l)
{
	uint32_t i;
	int rc;

	l->start_ns = sync_wall_ns();
	l->progress_ns = l->start_ns;
	RTE_PER_LCORE(local_self) = &l->workers[0];
	rc = l->n_workers > 1 ? launch_workers(l) : 0;
	while (rc == 0 && (rc = sync_engine_poll(&l->eng)) == UET_SYNC_RUNNING)
		;
	stop_workers(l);
	if (rc < 0) {
		UET_LOG(ERROR, SYNC, "lockstep: %s", l->error.text);
		return rc;
	}
	/* The switch's last frames reach the NICs, as they do before BYE
	 * over ports: delivered, never run. */
	for (i = 0; l->stats.windows > 0 && i < l->conf.n_nics; i++)
		local_nic_deliver(&l->nics[i], l->stats.windows - 1u);
	for (i = 0; i < l->conf.n_nics; i++)
		l->stats.events += l->nics[i].events;
	rc = l->conf.ranks != NULL ? sync_mpi_last(l) : 0;
	if (rc == 0)
		rc = nics_error(l);
	if (rc < 0)
		UET_LOG(ERROR, SYNC, "lockstep: %s", l->error.text);
	return rc;
}
