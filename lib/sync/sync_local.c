/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The in-process lockstep: the switch and every NIC of a run in one
 * process, the NICs spread over worker lcores. It runs the windows of
 * docs/lockstep.md without ports, trailers or control frames, and gives
 * each component the same inputs in the same order as the protocol over
 * ports does, so that records are byte-identical to a run of uet-switch
 * and uet-nic processes:
 *
 *   1. every NIC (in parallel, a fixed share per lcore) takes the frames
 *      the switch sent it in the previous window, in the order they were
 *      sent, then runs its events before T';
 *   2. the switch runs its events before T', then takes the frames the
 *      NICs sent in the window (they arrive at or after T'), sorted by
 *      (arrival time, port, order on the port). A switch in parts that
 *      can (port_feed) has each part take its hosts' frames from their
 *      NICs' rings itself, at the start of its next window, sorted by
 *      the same key with what the other parts sent it: the same order,
 *      on every lcore at once instead of in a serial step;
 *   3. the next window is [T', min(E + L, end)), E the earliest pending
 *      event anywhere (the NICs', the switch's, the frames it just sent).
 *
 * Fed so, the switch's window needs nothing of the NICs' window (only
 * what they sent in the one before), and the NICs' window nothing of the
 * switch's: each lcore runs its NICs and then its parts in one phase,
 * with no barrier between (an lcore done early takes the others' last
 * parts meanwhile), one barrier a window.
 *
 * A frame crosses between components as a small descriptor (mbuf and
 * arrival time) in a ring of lib/xring, two each way per NIC (by window
 * parity): each is written in one window and read in the next, and the
 * window's barrier orders them, so they are plain arrays (starting at
 * what the NIC's link carries in a window, growing if it must), not
 * rte_rings: nothing in them is shared by two lcores at once.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_prefetch.h>

#include "sync_park.h"
#include "sync_private.h"
#include "sync_share.h"
#include "sync_steal.h"
#include "uet_log.h"
#include "uet_wire_eth.h"
#include "uet_xring.h"

/* Frames a NIC takes from its ring at a time. */
#define LOCAL_DELIVER_BURST 32u

/* Each way per NIC, when the wiring does not say (conf.ring_frames). */
#define LOCAL_RING_FRAMES_DEFAULT 256u

/* One NIC and what crosses its link. */
struct local_nic {
	struct uet_sync_local *l;
	struct uet_component *comp;
	uint32_t index;
	/* The rings each way, by window parity: in window w the switch
	 * fills inbox[w & 1] and the NIC takes inbox[(w - 1) & 1]; the NIC
	 * fills outbox[w & 1] and the switch (its part, port_feed) takes
	 * outbox[(w - 1) & 1]. No ring has its writer and its reader in
	 * one window, so the NICs and the switch's parts may run at once. */
	struct uet_xring inbox[2];
	struct uet_xring outbox[2];
	uet_time_t next_event_ps;
	uint64_t events;
	/* Written by the NIC's lcore: */
	uint32_t out_sent;     /* put in the window it runs */
	uet_time_t out_min_ps; /* earliest arrival put in the window */
	struct sync_error error;
	/* Written by the switch part that holds the NIC's host port: */
	struct sync_error sw_error; /* the switch's out() to this NIC */
};

/* What one lcore runs: a contiguous share of the NICs and a run of the
 * switch's parts, the last of which another lcore may take
 * (sync_steal.h). */
struct local_worker {
	/* Its run of parts, taken from by other lcores: a line of its
	 * own. */
	struct sync_steal parts __rte_cache_aligned;
	struct uet_sync_local *l;
	unsigned int lcore_id;
	uint32_t first, count;		 /* NICs */
	uint32_t part_first, part_count; /* the switch's parts */
	uint32_t seen_gen;
	uint32_t spins; /* its spin budget before it sleeps (sync_park.h) */
	int64_t ran;	/* events the parts it ran ran in the phase */
	int part_err;	/* failure of the first failed part it ran, */
	uint32_t part_err_at;  /* which part */
	uint64_t parts_stolen; /* parts of other lcores it ran, in all */
	/* Of its NICs after the NIC phase, so that the serial step reads
	 * a few words per lcore, not a line per NIC: */
	uet_time_t nic_next_ps;	   /* the earliest next event */
	uet_time_t nic_out_min_ps; /* the earliest frame sent */
	uint64_t nic_sent;	   /* frames sent */
	uint32_t nic_failed;	   /* the first that failed, or UINT32_MAX */
	/* The same of what the switch's parts it ran sent the NICs: */
	uet_time_t sw_sent_min_ps;
	uint64_t sw_sent;
	uint32_t sw_failed; /* the first NIC it could not pass one to */
	/* Wall ns it spent running its share, by phase: the balance of
	 * the lcores (uet_sync_local_lcore_busy). */
	uint64_t busy_ns[2];
};

enum local_phase {
	LOCAL_PHASE_NICS = 0,
	LOCAL_PHASE_SWITCH,
	/* Both, one after the other on each lcore, with no barrier
	 * between: a fed switch's parts need nothing of the NICs' window
	 * (the rings by window parity above). */
	LOCAL_PHASE_WINDOW,
	LOCAL_PHASE_QUIT,
};

struct uet_sync_local {
	struct uet_sync_local_conf conf;
	struct local_nic *nics;
	struct local_worker *workers; /* [0] is the calling lcore */
	uint32_t n_workers;
	bool launched;
	bool fed;     /* the switch's parts take the NICs' frames themselves */
	uint64_t seq; /* the window being run, from 0: its parity picks the
		       * rings */
	/* The phase the workers are told to run, published by gen. */
	enum local_phase phase;
	struct sync_park gen;
	struct sync_park done; /* workers (beyond [0]) that finished it */
	/* The switch's window. */
	struct uet_xframe *sorted;
	struct uet_xframe *sort_tmp; /* the sort's scratch */
	uint32_t n_sorted, cap_sorted;
	uet_time_t window_start_ps, window_end_ps;
	uet_time_t min_sent_ps; /* earliest arrival the switch sent */
	uint64_t start_ns, progress_ns;
	struct uet_sync_stats stats;
	struct sync_error error;
};

static int local_fail(struct sync_error *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int local_fail(struct sync_error *e, int err, const char *fmt, ...)
{
	va_list ap;

	if (e->err != 0)
		return e->err;
	e->err = err;
	e->code = UET_LS_ABORT_INTERNAL;
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
	return err;
}

/* A NIC's out hook: the frame joins the NIC's outbox for the switch. */
/*
 * sync_frame_cut_padding() for the frames the switch model sends a NIC:
 * only a frame brought up to Ethernet's minimum (a trimmed header, a
 * pause) can carry padding, and the models build every longer one to its
 * IP length, so those skip the parse (on a 1,024-host run the first read
 * of each frame there was 5% of the time).
 */
static int local_cut_padding(struct rte_mbuf *m)
{
	if (rte_pktmbuf_pkt_len(m) > UET_ETH_MIN_FRAME_BYTES)
		return 0;
	return sync_frame_cut_padding(m);
}

static int nic_out(void *ctx, uint32_t port, struct rte_mbuf *m,
		   uet_time_t arrival_ps)
{
	struct local_nic *n = ctx;
	struct uet_sync_local *l = n->l;
	int rc;

	if (n->error.err != 0) {
		rte_pktmbuf_free(m);
		return n->error.err;
	}
	if (port != 0) {
		rte_pktmbuf_free(m);
		return local_fail(&n->error, -EINVAL,
				  "nic %u: %s sent a frame on port %u, it has "
				  "only port 0",
				  n->index, n->comp->name, port);
	}
	if (arrival_ps < l->window_end_ps) {
		rte_pktmbuf_free(m);
		return local_fail(&n->error, -ERANGE,
				  "nic %u: %s sent a frame arriving at %" PRIu64
				  " ps, before the window end %" PRIu64
				  " ps: the lookahead of %" PRIu64
				  " ps is broken",
				  n->index, n->comp->name, arrival_ps,
				  l->window_end_ps, l->conf.lookahead_ps);
	}
	/* No padding to cut: the NIC builds each frame to its IP length and
	 * no port pads it on the way. The frame is not read here: the switch
	 * fetches it with the window's other arrivals (fabric_part.c). */
	rc = uet_xring_put(&n->outbox[l->seq & 1u], m, arrival_ps, n->index);
	if (rc < 0) {
		rte_pktmbuf_free(m);
		return local_fail(&n->error, rc,
				  "nic %u: cannot pass a frame to the switch: "
				  "%s",
				  n->index, strerror(-rc));
	}
	n->out_sent++;
	if (arrival_ps < n->out_min_ps)
		n->out_min_ps = arrival_ps;
	return 0;
}

/* The lcore's worker, for what sw_out notes: the switch's parts do not
 * know which lcore runs them. */
static RTE_DEFINE_PER_LCORE(struct local_worker *, local_self);

/* The first NIC in host order the switch could not pass a frame to,
 * whichever lcore ran its part, names the failure. */
static void sw_out_failed(struct local_worker *w, uint32_t port)
{
	if (port < w->sw_failed)
		w->sw_failed = port;
}

/*
 * The switch's out hook: the frame joins the inbox of the port's NIC. The
 * switch's parts may call it at once from several lcores, but a NIC's host
 * port is in one part, so each inbox (and what is kept beside it) has one
 * writer.
 */
static int sw_out(void *ctx, uint32_t port, struct rte_mbuf *m,
		  uet_time_t arrival_ps)
{
	struct uet_sync_local *l = ctx;
	struct local_worker *w = RTE_PER_LCORE(local_self);
	struct local_nic *n;
	int rc;

	if (port >= l->conf.n_nics) {
		/* No NIC to blame: the first part to see it wins the race
		 * for the text, but the run stops either way. */
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	n = &l->nics[port];
	if (n->sw_error.err != 0) {
		rte_pktmbuf_free(m);
		return n->sw_error.err;
	}
	if (arrival_ps < l->window_end_ps) {
		rte_pktmbuf_free(m);
		sw_out_failed(w, port);
		return local_fail(
			&n->sw_error, -ERANGE,
			"%s sent a frame on port %u arriving at "
			"%" PRIu64 " ps, before the window end %" PRIu64
			" ps: the lookahead of %" PRIu64 " ps is broken",
			l->conf.sw->name, port, arrival_ps, l->window_end_ps,
			l->conf.lookahead_ps);
	}
	/* Its padding is cut where the NIC takes it (nic_deliver): the
	 * switch has not touched the frame's bytes, and reading them here
	 * would fetch them twice. */
	rc = uet_xring_put(&n->inbox[l->seq & 1u], m, arrival_ps, port);
	if (rc < 0) {
		rte_pktmbuf_free(m);
		sw_out_failed(w, port);
		return local_fail(&n->sw_error, rc,
				  "cannot pass a frame to nic %u: %s", port,
				  strerror(-rc));
	}
	w->sw_sent++;
	if (arrival_ps < w->sw_sent_min_ps)
		w->sw_sent_min_ps = arrival_ps;
	return 0;
}

/* Hand a NIC what the switch sent it in window w (inbox[w & 1]), in the
 * order it was sent. */
static void nic_deliver(struct local_nic *n, uint64_t w)
{
	struct uet_xring *inbox = &n->inbox[w & 1u];
	struct uet_component *comp = n->comp;
	const struct uet_sync_local *l = n->l;
	struct uet_xframe burst[LOCAL_DELIVER_BURST];
	uint32_t got, i;

	while ((got = uet_xring_take(inbox, burst, RTE_DIM(burst))) > 0) {
		/* The switch ran a window ago: fetch the burst's mbufs
		 * before reading the first. */
		for (i = 0; i < got; i++) {
			rte_prefetch0(burst[i].m);
			rte_prefetch0(
				RTE_PTR_ADD(burst[i].m, RTE_CACHE_LINE_SIZE));
		}
		for (i = 0; i < got; i++) {
			struct uet_xframe *f = &burst[i];
			int rc;

			if (n->error.err != 0) {
				rte_pktmbuf_free(f->m);
				continue;
			}
			rc = local_cut_padding(f->m);
			if (rc < 0) {
				rte_pktmbuf_free(f->m);
				local_fail(&n->error, rc,
					   "nic %u: a frame from %s is not one "
					   "to pass on: %s",
					   n->index, l->conf.sw->name,
					   strerror(-rc));
				continue;
			}
			rc = comp->deliver(comp, 0, f->m, f->arrival_ps);
			if (rc < 0)
				local_fail(&n->error, rc,
					   "nic %u: %s refused a frame: %s",
					   n->index, comp->name, strerror(-rc));
		}
	}
}

/* Phase 1 for one NIC: the frames the switch sent it in the window
 * before, then its window run. */
static void nic_window(struct local_nic *n, uet_time_t end_ps)
{
	int64_t ran;

	if (n->l->seq > 0)
		nic_deliver(n, n->l->seq - 1u);
	if (n->error.err != 0)
		return;
	ran = uet_evq_run_until(&n->comp->evq, end_ps);
	if (ran < 0) {
		local_fail(&n->error, (int)ran,
			   "nic %u: %s cannot run to %" PRIu64 " ps", n->index,
			   n->comp->name, end_ps);
		return;
	}
	n->events += (uint64_t)ran;
	n->next_event_ps = uet_evq_next_time(&n->comp->evq);
}

/* Run part i of the switch, for the lcore w. */
static void worker_run_part(struct local_worker *w, uint32_t i)
{
	struct uet_component *sw = w->l->conf.sw;
	int64_t r = sw->parts.part_run(sw, i, w->l->window_end_ps);

	if (r >= 0) {
		w->ran += r;
	} else if (w->part_err == 0 || i < w->part_err_at) {
		w->part_err = (int)r;
		w->part_err_at = i;
	}
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
		nic_window(n, l->window_end_ps);
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
	w->part_err = 0;
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
	const struct local_worker *first_err = NULL;
	int64_t ran = 0;
	uint32_t i;

	for (i = 0; i < l->n_workers; i++) {
		const struct local_worker *w = &l->workers[i];

		ran += w->ran;
		if (w->part_err < 0 &&
		    (first_err == NULL ||
		     w->part_err_at < first_err->part_err_at))
			first_err = w;
	}
	return first_err != NULL ? first_err->part_err : ran;
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

static uet_time_t add_sat(uet_time_t a, uet_time_t b)
{
	return a > UET_TIME_NEVER - b ? UET_TIME_NEVER : a + b;
}

/* E + L, never past the run's end nor the switch's horizon. */
static uet_time_t window_end(const struct uet_sync_local *l,
			     uet_time_t start_ps, uet_time_t e)
{
	uet_time_t t = add_sat(e, l->conf.lookahead_ps);
	uet_time_t h = uet_component_horizon(l->conf.sw, start_ps);

	if (h < t)
		t = h;
	return t < l->conf.end_ps ? t : l->conf.end_ps;
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
	l->conf.progress_fn(l->conf.progress_arg, &pr);
}

/* The switch's parts over the workers: contiguous runs of about equal
 * weight (lib/sync/sync_share.h), so neighbouring switches share an
 * lcore. */
static int share_parts(struct uet_sync_local *l)
{
	const struct uet_component_parts *pp = &l->conf.sw->parts;
	uint32_t *first = calloc(l->n_workers, sizeof(*first));
	uint32_t *count = calloc(l->n_workers, sizeof(*count));
	uint32_t w;

	if (first == NULL || count == NULL) {
		free(first);
		free(count);
		return -ENOMEM;
	}
	sync_share_runs(pp->weight, pp->n, l->n_workers, first, count);
	for (w = 0; w < l->n_workers; w++) {
		l->workers[w].part_first = first[w];
		l->workers[w].part_count = count[w];
	}
	free(first);
	free(count);
	return 0;
}

int uet_sync_local_create(struct uet_sync_local **lp,
			  const struct uet_sync_local_conf *conf)
{
	struct uet_sync_local *l;
	uint32_t i, n_workers, ring_frames;

	if (lp == NULL || conf == NULL || conf->sw == NULL ||
	    conf->nics == NULL || conf->n_nics == 0 ||
	    conf->lookahead_ps == 0 || conf->end_ps <= conf->start_ps)
		return -EINVAL;
	n_workers = conf->n_lcores == 0 ? 1u : conf->n_lcores;
	if (n_workers > conf->n_nics)
		n_workers = conf->n_nics;
	if (n_workers > 1 && conf->lcore_ids == NULL)
		return -EINVAL;
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return -ENOMEM;
	l->nics = calloc(conf->n_nics, sizeof(*l->nics));
	/* Aligned: each worker's run of parts on a line of its own. */
	l->workers = aligned_alloc(RTE_CACHE_LINE_SIZE,
				   n_workers * sizeof(*l->workers));
	if (l->workers != NULL)
		memset(l->workers, 0, n_workers * sizeof(*l->workers));
	if (l->nics == NULL || l->workers == NULL) {
		uet_sync_local_free(l);
		return -ENOMEM;
	}
	l->conf = *conf;
	ring_frames = conf->ring_frames != 0 ? conf->ring_frames
					     : LOCAL_RING_FRAMES_DEFAULT;
	if (l->conf.progress_fn != NULL && l->conf.progress_interval_ms == 0)
		l->conf.progress_interval_ms = 1000;
	for (i = 0; i < conf->n_nics; i++) {
		struct local_nic *n = &l->nics[i];

		n->l = l;
		n->comp = conf->nics[i];
		n->index = i;
		n->next_event_ps = UET_TIME_NEVER;
		/* Arrays, not rte_rings: a ring's writer and reader run in
		 * different windows, so nothing in it needs to be atomic,
		 * and 4 rings a NIC would otherwise fault in 4 headers at
		 * set-up and keep their lines in the caches. */
		uet_xring_init_array(&n->inbox[0], ring_frames);
		uet_xring_init_array(&n->inbox[1], ring_frames);
		uet_xring_init_array(&n->outbox[0], ring_frames);
		uet_xring_init_array(&n->outbox[1], ring_frames);
		n->comp->out = nic_out;
		n->comp->out_ctx = n;
	}
	/* Contiguous shares: neighbours in host order on one lcore. */
	l->n_workers = n_workers;
	for (i = 0; i < n_workers; i++) {
		struct local_worker *w = &l->workers[i];
		uint32_t a = (uint32_t)((uint64_t)conf->n_nics * i / n_workers);
		uint32_t b = (uint32_t)((uint64_t)conf->n_nics * (i + 1) /
					n_workers);

		w->l = l;
		w->lcore_id = conf->lcore_ids != NULL ? conf->lcore_ids[i]
						      : rte_lcore_id();
		w->first = a;
		w->count = b - a;
	}
	if (share_parts(l) < 0) {
		uet_sync_local_free(l);
		return -ENOMEM;
	}
	conf->sw->out = sw_out;
	conf->sw->out_ctx = l;
	/* A switch in parts takes each NIC's frames from its outbox itself,
	 * in its own part's phase: no serial step hands them over. */
	l->fed = conf->sw->parts.n != 0 && conf->sw->parts.port_feed != NULL;
	for (i = 0; l->fed && i < conf->n_nics; i++) {
		int rc = conf->sw->parts.port_feed(conf->sw, i,
						   l->nics[i].outbox);

		if (rc < 0) {
			uet_sync_local_free(l);
			return rc;
		}
	}
	l->window_start_ps = conf->start_ps;
	l->window_end_ps = conf->start_ps;
	l->min_sent_ps = UET_TIME_NEVER;
	l->stats.now_ps = conf->start_ps;
	*lp = l;
	return 0;
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

static int local_windows(struct uet_sync_local *l)
{
	const volatile sig_atomic_t *stop = l->conf.stop;
	uet_time_t e;
	uint32_t i;
	int rc;

	l->window_end_ps = window_end(l, l->conf.start_ps, l->conf.start_ps);
	for (;;) {
		if (stop != NULL && *stop)
			return local_fail(&l->error, -EINTR,
					  "stopped by a signal at %" PRIu64
					  " ps of virtual time",
					  l->window_start_ps);
		l->seq = l->stats.windows++;
		if (l->fed) {
			/* One phase: each lcore runs its NICs, then parts
			 * (its own, then others' from the back). */
			rc = switch_begin(l);
			if (rc < 0)
				return rc;
			run_phase(l, LOCAL_PHASE_WINDOW);
		} else {
			run_phase(l, LOCAL_PHASE_NICS);
		}
		for (i = 0; i < l->n_workers; i++)
			l->stats.data_frames_rx += l->workers[i].nic_sent;
		/* A NIC's failure first, the switch's after, as when the
		 * switch ran only once the NICs were done. */
		rc = nics_phase_error(l);
		if (rc == 0)
			rc = local_serial(l, l->conf.nics_done_fn);
		if (rc == 0)
			rc = l->fed ? switch_end(l) : switch_window(l);
		l->stats.now_ps = l->window_end_ps;
		if (rc == 0)
			rc = local_serial(l, l->conf.window_fn);
		if (rc < 0)
			return rc;
		local_progress(l);
		e = uet_component_next_time(l->conf.sw);
		if (l->min_sent_ps < e)
			e = l->min_sent_ps;
		for (i = 0; i < l->n_workers; i++) {
			const struct local_worker *w = &l->workers[i];

			if (w->nic_next_ps < e)
				e = w->nic_next_ps;
			/* Fed, the switch has not seen them yet. */
			if (w->nic_out_min_ps < e)
				e = w->nic_out_min_ps;
		}
		if (e == UET_TIME_NEVER || e >= l->conf.end_ps)
			return 0;
		l->window_start_ps = l->window_end_ps;
		l->window_end_ps = window_end(l, l->window_start_ps, e);
	}
}

int uet_sync_local_run(struct uet_sync_local *l)
{
	uint32_t i;
	int rc;

	l->start_ns = sync_wall_ns();
	l->progress_ns = l->start_ns;
	RTE_PER_LCORE(local_self) = &l->workers[0];
	rc = l->n_workers > 1 ? launch_workers(l) : 0;
	if (rc == 0)
		rc = local_windows(l);
	stop_workers(l);
	if (rc < 0) {
		UET_LOG(ERROR, SYNC, "lockstep: %s", l->error.text);
		return rc;
	}
	/* The switch's last frames reach the NICs, as they do before BYE
	 * over ports: delivered, never run. */
	for (i = 0; l->stats.windows > 0 && i < l->conf.n_nics; i++)
		nic_deliver(&l->nics[i], l->stats.windows - 1u);
	for (i = 0; i < l->conf.n_nics; i++)
		l->stats.events += l->nics[i].events;
	rc = nics_error(l);
	if (rc < 0)
		UET_LOG(ERROR, SYNC, "lockstep: %s", l->error.text);
	return rc;
}

void uet_sync_local_stats(const struct uet_sync_local *l,
			  struct uet_sync_stats *st)
{
	*st = l->stats;
}

uint32_t uet_sync_local_lcores(const struct uet_sync_local *l)
{
	return l->n_workers;
}

int uet_sync_local_lcore_busy(const struct uet_sync_local *l, uint32_t i,
			      uint64_t *nics_ns, uint64_t *switch_ns)
{
	if (i >= l->n_workers)
		return -EINVAL;
	*nics_ns = l->workers[i].busy_ns[0];
	*switch_ns = l->workers[i].busy_ns[1];
	return 0;
}

uint64_t uet_sync_local_lcore_parts_taken(const struct uet_sync_local *l,
					  uint32_t i)
{
	return i < l->n_workers ? l->workers[i].parts_stolen : 0;
}

const char *uet_sync_local_error(const struct uet_sync_local *l)
{
	return l->error.text;
}

void uet_sync_local_free(struct uet_sync_local *l)
{
	uint32_t i;

	if (l == NULL)
		return;
	for (i = 0; l->nics != NULL && i < l->conf.n_nics; i++) {
		uet_xring_fini(&l->nics[i].inbox[0]);
		uet_xring_fini(&l->nics[i].inbox[1]);
		uet_xring_fini(&l->nics[i].outbox[0]);
		uet_xring_fini(&l->nics[i].outbox[1]);
	}
	for (i = 0; i < l->n_sorted; i++)
		rte_pktmbuf_free(l->sorted[i].m);
	free(l->sorted);
	free(l->sort_tmp);
	free(l->nics);
	free(l->workers);
	free(l);
}
