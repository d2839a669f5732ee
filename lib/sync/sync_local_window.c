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
	struct uet_component *sw = w->local->conf.sw;
	int64_t r = sw->parts.part_run(sw, i, w->local->window_end_ps);

	if (r >= 0)
		w->ran += r;
	else
		sync_first_failure_note(&w->part_fail, i, (int)r);
}

/* The lcore's share of the NICs: each runs the window. */
static void worker_run_nics(struct local_worker *w)
{
	struct uet_sync_local *local = w->local;
	uint32_t i;

	w->nic_next_ps = UET_TIME_NEVER;
	w->nic_out_min_ps = UET_TIME_NEVER;
	w->nic_sent = 0;
	w->nic_failed = UINT32_MAX;
	for (i = w->first; i < w->first + w->count; i++) {
		struct local_nic *n = &local->nics[i];

		n->out_sent = 0;
		n->out_min_ps = UET_TIME_NEVER;
		local_nic_window(n, local->window_end_ps);
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
	struct uet_sync_local *local = w->local;
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
	for (v = 1; v < local->n_workers; v++) {
		struct local_worker *o =
			&local->workers[(w - local->workers + v) %
					local->n_workers];

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
	struct uet_sync_local *local = w->local;

	RTE_PER_LCORE(local_self) = w;

	for (;;) {
		w->seen_gen = sync_park_wait(&local->gen, w->seen_gen, false,
					     &w->spins);
		if (local->phase == LOCAL_PHASE_QUIT)
			return 0;
		worker_run_timed(w, local->phase);
		sync_park_add(&local->done, 1);
	}
}

/* Run a phase on every lcore, the calling one included, and wait. */
static void run_phase(struct uet_sync_local *local, enum local_phase phase)
{
	if (local->n_workers > 1) {
		sync_park_set(&local->done, 0);
		local->phase = phase;
		sync_park_add(&local->gen, 1);
	}
	if (phase != LOCAL_PHASE_QUIT)
		worker_run_timed(&local->workers[0], phase);
	if (local->n_workers > 1 && phase != LOCAL_PHASE_QUIT)
		sync_park_wait(&local->done, local->n_workers - 1, true,
			       &local->workers[0].spins);
}

/*
 * The NICs' frames of the window, in the fixed order the switch takes
 * them: (arrival, port, order on the port). A switch in parts sorts each
 * part's frames itself by the same key, in parallel
 * (lib/fabric/fabric_part.c): it takes them unsorted, in host order, each
 * NIC's in the order it sent them (which that sort keeps for one port).
 */
static int gather_sorted(struct uet_sync_local *local, bool sort)
{
	const uint32_t x = (uint32_t)(local->seq & 1u); /* this window's */
	uint32_t i, total = 0;

	for (i = 0; i < local->conf.n_nics; i++)
		total += uet_xring_count(&local->nics[i].outbox[x]);
	if (total > local->cap_sorted) {
		void *p =
			realloc(local->sorted, total * sizeof(*local->sorted));

		if (p == NULL)
			return -ENOMEM;
		local->sorted = p;
		p = realloc(local->sort_tmp, total * sizeof(*local->sort_tmp));
		if (p == NULL)
			return -ENOMEM;
		local->sort_tmp = p;
		local->cap_sorted = total;
	}
	/* Each NIC's ring gives its frames as port = the NIC, order = the
	 * place among what it sent in the window. */
	local->n_sorted = 0;
	for (i = 0; i < local->conf.n_nics; i++)
		local->n_sorted +=
			uet_xring_take(&local->nics[i].outbox[x],
				       local->sorted + local->n_sorted,
				       total - local->n_sorted);
	if (sort && local->n_sorted > 1)
		uet_xframe_sort(local->sorted, local->n_sorted,
				local->sort_tmp);
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
static int switch_take(struct uet_sync_local *local)
{
	struct uet_component *sw = local->conf.sw;
	uint32_t i;
	int rc;

	if (local->fed)
		return 0; /* the parts take them in the next window */
	rc = gather_sorted(local, sw->parts.n == 0);
	if (rc < 0)
		return local_fail(&local->error, rc,
				  "out of memory for the window's frames");
	for (i = 0; i < local->n_sorted; i++) {
		struct uet_xframe *f = &local->sorted[i];

		rc = sw->deliver(sw, f->port, f->m, f->arrival_ps);
		if (rc < 0) {
			for (i++; i < local->n_sorted; i++)
				rte_pktmbuf_free(local->sorted[i].m);
			local->n_sorted = 0;
			return local_fail(&local->error, rc,
					  "%s refused a frame: %s", sw->name,
					  strerror(-rc));
		}
	}
	local->n_sorted = 0;
	return 0;
}

/* The events the parts ran, or the failure of the first part (in part
 * order, whichever lcore ran it) that failed. */
static int64_t parts_ran(const struct uet_sync_local *local)
{
	struct sync_first_failure first;
	int64_t ran = 0;
	uint32_t i;

	sync_first_failure_reset(&first);
	for (i = 0; i < local->n_workers; i++) {
		const struct local_worker *w = &local->workers[i];

		ran += w->ran;
		sync_first_failure_note(&first, w->part_fail.at,
					w->part_fail.err);
	}
	return first.err < 0 ? first.err : ran;
}

/* Before the switch's phase (or the window's): what sw_out notes per
 * lcore cleared, the parts' window begun and their runs dealt out. */
static int switch_begin(struct uet_sync_local *local)
{
	struct uet_component *sw = local->conf.sw;
	uint32_t i;
	int rc;

	/* What the switch sends the NICs, noted by the lcore that sends it
	 * (sw_out): the serial step after it reads a few words per lcore. */
	for (i = 0; i < local->n_workers; i++) {
		local->workers[i].sw_sent_min_ps = UET_TIME_NEVER;
		local->workers[i].sw_sent = 0;
		local->workers[i].sw_failed = UINT32_MAX;
	}
	if (sw->parts.n == 0)
		return 0;
	rc = sw->parts.window_begin == NULL
		     ? 0
		     : sw->parts.window_begin(sw, local->window_start_ps,
					      local->window_end_ps);
	if (rc < 0)
		return local_fail(
			&local->error, rc,
			"%s cannot begin the window at %" PRIu64 " ps: %s",
			sw->name, local->window_start_ps, strerror(-rc));
	for (i = 0; i < local->n_workers; i++)
		sync_steal_reset(&local->workers[i].parts,
				 local->workers[i].part_first,
				 local->workers[i].part_count);
	return 0;
}

/* After it: the parts' window ended, what the switch sent the NICs and
 * the first failure gathered, and (not fed) the NICs' frames of the
 * window handed to the switch. */
static int switch_end(struct uet_sync_local *local)
{
	struct uet_component *sw = local->conf.sw;
	uint32_t i, failed = UINT32_MAX;
	int64_t ran;
	int rc;

	if (sw->parts.n == 0) {
		/* Over ranks the switch runs on the rank that holds it. */
		ran = sync_unit_here(local, 0)
			      ? uet_evq_run_until(&sw->evq,
						  local->window_end_ps)
			      : 0;
	} else {
		ran = parts_ran(local);
		rc = sw->parts.window_end == NULL
			     ? 0
			     : sw->parts.window_end(sw, local->window_end_ps);
		if (rc < 0 && ran >= 0)
			ran = rc;
	}
	/* What the switch sent the NICs: the first failure in host order,
	 * and the earliest arrival. */
	local->min_sent_ps = UET_TIME_NEVER;
	for (i = 0; i < local->n_workers; i++) {
		const struct local_worker *w = &local->workers[i];

		if (w->sw_failed < failed)
			failed = w->sw_failed;
		if (w->sw_sent_min_ps < local->min_sent_ps)
			local->min_sent_ps = w->sw_sent_min_ps;
		local->stats.data_frames_tx += w->sw_sent;
	}
	if (failed != UINT32_MAX && local->error.err == 0)
		local->error = local->nics[failed].sw_error;
	if (local->error.err != 0)
		return local->error.err;
	if (ran < 0)
		return local_fail(&local->error, (int)ran,
				  "%s cannot run to %" PRIu64 " ps: %s",
				  sw->name, local->window_end_ps,
				  strerror((int)-ran));
	local->stats.events += (uint64_t)ran;
	return switch_take(local);
}

/* Phase 2 on its own (a switch that is not fed): the switch runs the
 * window, then takes the NICs' frames of it. */
static int switch_window(struct uet_sync_local *local)
{
	int rc = switch_begin(local);

	if (rc < 0)
		return rc;
	if (local->conf.sw->parts.n != 0)
		run_phase(local, LOCAL_PHASE_SWITCH);
	return switch_end(local);
}

/* The first NIC (in host order) that failed, so the message is the same
 * whatever lcore ran it. */
static int nics_error(struct uet_sync_local *local)
{
	uint32_t i;

	for (i = 0; i < local->conf.n_nics; i++)
		if (local->nics[i].error.err != 0) {
			local->error = local->nics[i].error;
			return local->error.err;
		}
	return 0;
}

/* The same after a NIC phase, from what each lcore noted of its share
 * (shares are in host order). */
static int nics_phase_error(struct uet_sync_local *local)
{
	uint32_t w;

	for (w = 0; w < local->n_workers; w++)
		if (local->workers[w].nic_failed != UINT32_MAX) {
			local->error =
				local->nics[local->workers[w].nic_failed].error;
			return local->error.err;
		}
	return 0;
}

static void local_progress(struct uet_sync_local *local)
{
	struct uet_sync_progress pr;
	uint64_t now_ns;

	if (local->conf.progress_fn == NULL)
		return;
	now_ns = sync_wall_ns();
	if (now_ns - local->progress_ns <
	    (uint64_t)local->conf.progress_interval_ms * 1000000u)
		return;
	local->progress_ns = now_ns;
	pr.now_ps = local->stats.now_ps;
	pr.windows = local->stats.windows;
	pr.events = local->stats.events;
	pr.wall_ns = now_ns - local->start_ns;
	uet_sync_local_costs(local, &pr.model_ns, &pr.sync_ns);
	local->conf.progress_fn(local->conf.progress_arg, &pr);
}

static int launch_workers(struct uet_sync_local *local)
{
	uint32_t i;

	for (i = 1; i < local->n_workers; i++) {
		int rc = rte_eal_remote_launch(worker_main, &local->workers[i],
					       local->workers[i].lcore_id);

		if (rc != 0) {
			/* Those launched are told to quit by the caller. */
			local->n_workers = i;
			return local_fail(&local->error, rc < 0 ? rc : -EBUSY,
					  "cannot start worker lcore %u: %s",
					  local->workers[i].lcore_id,
					  strerror(rc < 0 ? -rc : EBUSY));
		}
	}
	local->launched = true;
	return 0;
}

static void stop_workers(struct uet_sync_local *local)
{
	uint32_t i;

	if (!local->launched && local->n_workers <= 1)
		return;
	run_phase(local, LOCAL_PHASE_QUIT);
	for (i = 1; i < local->n_workers; i++)
		(void)rte_eal_wait_lcore(local->workers[i].lcore_id);
	local->launched = false;
}

/* Flush whatever the wiring keeps per NIC, between phases. */
static int local_serial(struct uet_sync_local *local, uet_sync_window_fn fn)
{
	int rc;

	if (fn == NULL)
		return 0;
	rc = fn(local->conf.window_arg, local->window_end_ps);
	if (rc < 0)
		return local_fail(&local->error, rc,
				  "the run failed in window [%" PRIu64
				  ", %" PRIu64 ") ps: %s",
				  local->window_start_ps, local->window_end_ps,
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
	struct uet_sync_local *local = ctx;
	const volatile sig_atomic_t *stop = local->conf.stop;
	uint32_t i;
	int rc;

	if (stop != NULL && *stop)
		return local_fail(&local->error, -EINTR,
				  "stopped by a signal at %" PRIu64
				  " ps of virtual time",
				  w->start_ps);
	local->window_start_ps = w->start_ps;
	local->window_end_ps = w->end_ps;
	local->seq = local->stats.windows++;
	if (local->fed) {
		/* One phase: each lcore runs its NICs, then parts (its own,
		 * then others' from the back). */
		rc = switch_begin(local);
		if (rc == 0)
			run_phase(local, LOCAL_PHASE_WINDOW);
	} else {
		run_phase(local, LOCAL_PHASE_NICS);
		rc = 0;
	}
	/* Over ranks, what crossed goes to the other ranks before anything
	 * can stop this one: they wait for its message. Fed, everything
	 * that crossed in the window has: the parts ran beside the NICs. */
	if (local->conf.ranks != NULL) {
		int rc2;

		local->remote_min_ps = UET_TIME_NEVER;
		rc2 = sync_mpi_cross(local, local->fed
						    ? SYNC_CROSS_NIC_OUT |
							      SYNC_CROSS_PARTS |
							      SYNC_CROSS_NIC_IN
						    : SYNC_CROSS_NIC_OUT);
		if (rc == 0)
			rc = rc2;
	}
	if (rc < 0)
		return rc;
	for (i = 0; i < local->n_workers; i++)
		local->stats.data_frames_rx += local->workers[i].nic_sent;
	/* A NIC's failure first, the switch's after, as when the switch ran
	 * only once the NICs were done. */
	rc = nics_phase_error(local);
	if (rc == 0)
		rc = local_serial(local, local->conf.nics_done_fn);
	if (rc == 0)
		rc = local->fed ? switch_end(local) : switch_window(local);
	/* Not fed, the switch ran after the crossing: what it sent other
	 * ranks' NICs crosses now, whatever happened here. */
	if (local->conf.ranks != NULL && !local->fed) {
		const int rc2 = sync_mpi_cross(local, SYNC_CROSS_NIC_IN);

		if (rc == 0)
			rc = rc2;
	}
	local->stats.now_ps = local->window_end_ps;
	if (rc == 0)
		rc = local_serial(local, local->conf.window_fn);
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

uet_time_t sync_local_next(const struct uet_sync_local *local)
{
	uet_time_t e = sync_local_switch_next(local);
	uint32_t i;

	if (local->min_sent_ps < e)
		e = local->min_sent_ps;
	if (local->remote_min_ps < e)
		e = local->remote_min_ps;
	for (i = 0; i < local->n_workers; i++) {
		const struct local_worker *w = &local->workers[i];

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

int uet_sync_local_run(struct uet_sync_local *local)
{
	uint32_t i;
	int rc;

	local->start_ns = sync_wall_ns();
	local->progress_ns = local->start_ns;
	RTE_PER_LCORE(local_self) = &local->workers[0];
	rc = local->n_workers > 1 ? launch_workers(local) : 0;
	while (rc == 0 &&
	       (rc = sync_engine_poll(&local->eng)) == UET_SYNC_RUNNING)
		;
	stop_workers(local);
	if (rc < 0) {
		UET_LOG(ERROR, SYNC, "lockstep: %s", local->error.text);
		return rc;
	}
	/* The switch's last frames reach the NICs, as they do before BYE
	 * over ports: delivered, never run. */
	for (i = 0; local->stats.windows > 0 && i < local->conf.n_nics; i++)
		local_nic_deliver(&local->nics[i], local->stats.windows - 1u);
	for (i = 0; i < local->conf.n_nics; i++)
		local->stats.events += local->nics[i].events;
	rc = local->conf.ranks != NULL ? sync_mpi_last(local) : 0;
	if (rc == 0)
		rc = nics_error(local);
	if (rc < 0)
		UET_LOG(ERROR, SYNC, "lockstep: %s", local->error.text);
	return rc;
}
