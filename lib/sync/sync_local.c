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
 * The windows themselves are the window engine's (sync_engine.h):
 * sync_local_window.c is this transport's ops. Here: the set-up, the
 * components' hooks and what a NIC does in its window.
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

#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "sync_local_private.h"
#include "sync_share.h"
#include "uet_log.h"
#include "uet_wire_eth.h"

int local_fail(struct sync_error *e, int err, const char *fmt, ...)
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

/* A NIC's out hook: the frame joins the NIC's outbox for the switch. */
static int nic_out(void *ctx, uint32_t port, struct rte_mbuf *m,
		   uet_time_t arrival_ps)
{
	struct local_nic *n = ctx;
	struct uet_sync_local *local = n->local;
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
	if (arrival_ps < local->window_end_ps) {
		rte_pktmbuf_free(m);
		return local_fail(
			&n->error, -ERANGE,
			"nic %u: %s sent a frame arriving at %" PRIu64
			" ps, before the window end %" PRIu64
			" ps: the lookahead of %" PRIu64 " ps is broken",
			n->index, n->comp->name, arrival_ps,
			local->window_end_ps, local->conf.lookahead_ps);
	}
	/* No padding to cut: the NIC builds each frame to its IP length and
	 * no port pads it on the way. The frame is not read here: the switch
	 * fetches it with the window's other arrivals (fabric_part.c). */
	rc = uet_xring_put(&n->outbox[local->seq & 1u], m, arrival_ps,
			   n->index);
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

RTE_DEFINE_PER_LCORE(struct local_worker *, local_self);

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
	struct uet_sync_local *local = ctx;
	struct local_worker *w = RTE_PER_LCORE(local_self);
	struct local_nic *n;
	int rc;

	if (port >= local->conf.n_nics) {
		/* No NIC to blame: the first part to see it wins the race
		 * for the text, but the run stops either way. */
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	n = &local->nics[port];
	if (n->sw_error.err != 0) {
		rte_pktmbuf_free(m);
		return n->sw_error.err;
	}
	if (arrival_ps < local->window_end_ps) {
		rte_pktmbuf_free(m);
		sw_out_failed(w, port);
		return local_fail(
			&n->sw_error, -ERANGE,
			"%s sent a frame on port %u arriving at "
			"%" PRIu64 " ps, before the window end %" PRIu64
			" ps: the lookahead of %" PRIu64 " ps is broken",
			local->conf.sw->name, port, arrival_ps,
			local->window_end_ps, local->conf.lookahead_ps);
	}
	/* Its padding is cut where the NIC takes it (local_nic_deliver): the
	 * switch has not touched the frame's bytes, and reading them here
	 * would fetch them twice. */
	rc = uet_xring_put(&n->inbox[local->seq & 1u], m, arrival_ps, port);
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

/* The switch's frames are in inbox[w & 1]. */
void local_nic_deliver(struct local_nic *n, uint64_t w)
{
	struct uet_xring *inbox = &n->inbox[w & 1u];
	struct uet_component *comp = n->comp;
	const struct uet_sync_local *local = n->local;
	struct uet_xframe burst[LOCAL_DELIVER_BURST];
	uint32_t got, i;

	/* Another rank's NIC takes its copy of them there. */
	while (n->remote &&
	       (got = uet_xring_take(inbox, burst, RTE_DIM(burst))) > 0)
		for (i = 0; i < got; i++)
			rte_pktmbuf_free(burst[i].m);
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
					   n->index, local->conf.sw->name,
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

void local_nic_window(struct local_nic *n, uet_time_t end_ps)
{
	int64_t ran;

	if (n->local->seq > 0)
		local_nic_deliver(n, n->local->seq - 1u);
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

/* The switch's parts over the workers: contiguous runs of about equal
 * weight (lib/sync/sync_share.h), so neighbouring switches share an
 * lcore. */
static int share_parts(struct uet_sync_local *local)
{
	const struct uet_component_parts *pp = &local->conf.sw->parts;
	/* Over ranks, this rank's run of parts only. */
	const struct uet_sync_ranks *rk = local->conf.ranks;
	const uint32_t p0 = rk != NULL && pp->n != 0 ? rk->part_first : 0;
	const uint32_t pn = rk != NULL && pp->n != 0 ? rk->part_count : pp->n;
	uint32_t *first = calloc(local->n_workers, sizeof(*first));
	uint32_t *count = calloc(local->n_workers, sizeof(*count));
	uint32_t w;

	if (first == NULL || count == NULL) {
		free(first);
		free(count);
		return -ENOMEM;
	}
	sync_share_runs(pp->weight != NULL ? pp->weight + p0 : NULL, pn,
			local->n_workers, first, count);
	for (w = 0; w < local->n_workers; w++) {
		local->workers[w].part_first = p0 + first[w];
		local->workers[w].part_count = count[w];
	}
	free(first);
	free(count);
	return 0;
}

int uet_sync_local_create(struct uet_sync_local **lp,
			  const struct uet_sync_local_conf *conf)
{
	struct uet_sync_local *local;
	struct sync_engine_conf ec;
	uint32_t i, n_workers, ring_frames, own_first, own_count;
	int rc;

	if (lp == NULL || conf == NULL || conf->sw == NULL ||
	    conf->nics == NULL || conf->n_nics == 0 ||
	    conf->lookahead_ps == 0 || conf->end_ps <= conf->start_ps)
		return -EINVAL;
	own_first = conf->ranks != NULL ? conf->ranks->nic_first : 0;
	own_count = conf->ranks != NULL ? conf->ranks->nic_count : conf->n_nics;
	if (own_count > conf->n_nics || own_first > conf->n_nics - own_count ||
	    (conf->ranks != NULL &&
	     (conf->ranks->ops == NULL || conf->ranks->mp == NULL ||
	      conf->ranks->rank >= conf->ranks->ranks)))
		return -EINVAL;
	n_workers = conf->n_lcores == 0 ? 1u : conf->n_lcores;
	if (n_workers > own_count)
		n_workers = own_count > 0 ? own_count : 1u;
	if (n_workers > 1 && conf->lcore_ids == NULL)
		return -EINVAL;
	local = calloc(1, sizeof(*local));
	if (local == NULL)
		return -ENOMEM;
	local->nics = calloc(conf->n_nics, sizeof(*local->nics));
	/* Aligned: each worker's run of parts on a line of its own. */
	local->workers = aligned_alloc(RTE_CACHE_LINE_SIZE,
				       n_workers * sizeof(*local->workers));
	if (local->workers != NULL)
		memset(local->workers, 0, n_workers * sizeof(*local->workers));
	if (local->nics == NULL || local->workers == NULL) {
		uet_sync_local_free(local);
		return -ENOMEM;
	}
	local->conf = *conf;
	ring_frames = conf->ring_frames != 0 ? conf->ring_frames
					     : LOCAL_RING_FRAMES_DEFAULT;
	if (local->conf.progress_fn != NULL &&
	    local->conf.progress_interval_ms == 0)
		local->conf.progress_interval_ms = 1000;
	for (i = 0; i < conf->n_nics; i++) {
		struct local_nic *n = &local->nics[i];

		n->local = local;
		n->comp = conf->nics[i];
		n->index = i;
		n->remote = i < own_first || i - own_first >= own_count;
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
	/* Contiguous shares of this process's NICs: neighbours in host
	 * order on one lcore. */
	local->n_workers = n_workers;
	for (i = 0; i < n_workers; i++) {
		struct local_worker *w = &local->workers[i];
		uint32_t a = own_first +
			     (uint32_t)((uint64_t)own_count * i / n_workers);
		uint32_t b = own_first + (uint32_t)((uint64_t)own_count *
						    (i + 1) / n_workers);

		w->local = local;
		w->lcore_id = conf->lcore_ids != NULL ? conf->lcore_ids[i]
						      : rte_lcore_id();
		w->first = a;
		w->count = b - a;
	}
	if (share_parts(local) < 0) {
		uet_sync_local_free(local);
		return -ENOMEM;
	}
	if (conf->ranks != NULL) {
		rc = sync_mpi_setup(local);
		if (rc < 0) {
			uet_sync_local_free(local);
			return rc;
		}
	}
	conf->sw->out = sw_out;
	conf->sw->out_ctx = local;
	/* A switch in parts takes each NIC's frames from its outbox itself,
	 * in its own part's phase: no serial step hands them over. */
	local->fed =
		conf->sw->parts.n != 0 && conf->sw->parts.port_feed != NULL;
	for (i = 0; local->fed && i < conf->n_nics; i++) {
		rc = conf->sw->parts.port_feed(conf->sw, i,
					       local->nics[i].outbox);

		if (rc < 0) {
			uet_sync_local_free(local);
			return rc;
		}
	}
	ec = (struct sync_engine_conf){
		.lookahead_ps = conf->lookahead_ps,
		.start_ps = conf->start_ps,
		.end_ps = conf->end_ps,
		.horizon = conf->sw,
	};
	/* Over ranks a stop is agreed on like a failure (sync_mpi.c), so
	 * that every rank stops at the same window. */
	if (conf->ranks != NULL) {
		local->rank_stop = conf->stop;
		local->conf.stop = NULL;
	}
	if (conf->ranks != NULL) {
		const uint32_t nr = conf->ranks->ranks;

		local->peer_send = calloc(nr, sizeof(*local->peer_send));
		local->peer_recv = calloc(nr, sizeof(*local->peer_recv));
		local->peer_send_len = calloc(nr, sizeof(size_t));
		local->peer_recv_len = calloc(nr, sizeof(size_t));
		if (local->peer_send == NULL || local->peer_recv == NULL ||
		    local->peer_send_len == NULL ||
		    local->peer_recv_len == NULL) {
			uet_sync_local_free(local);
			return -ENOMEM;
		}
	}
	rc = sync_engine_init(&local->eng,
			      conf->ranks != NULL ? &mpi_transport_ops
						  : &local_transport_ops,
			      local, &ec);
	if (rc < 0) {
		uet_sync_local_free(local);
		return rc;
	}
	local->window_start_ps = conf->start_ps;
	local->window_end_ps = conf->start_ps;
	local->min_sent_ps = UET_TIME_NEVER;
	local->remote_min_ps = UET_TIME_NEVER;
	local->stats.now_ps = conf->start_ps;
	*lp = local;
	return 0;
}

void uet_sync_local_stats(const struct uet_sync_local *local,
			  struct uet_sync_stats *st)
{
	*st = local->stats;
}

uint32_t uet_sync_local_lcores(const struct uet_sync_local *local)
{
	return local->n_workers;
}

int uet_sync_local_lcore_busy(const struct uet_sync_local *local, uint32_t i,
			      uint64_t *nics_ns, uint64_t *switch_ns)
{
	if (i >= local->n_workers)
		return -EINVAL;
	*nics_ns = local->workers[i].busy_ns[0];
	*switch_ns = local->workers[i].busy_ns[1];
	return 0;
}

uint64_t uet_sync_local_lcore_parts_taken(const struct uet_sync_local *local,
					  uint32_t i)
{
	return i < local->n_workers ? local->workers[i].parts_stolen : 0;
}

void uet_sync_local_costs(const struct uet_sync_local *local,
			  uint64_t *model_ns, uint64_t *sync_ns)
{
	/* The exchange over ranks happens within a run (after the NICs'
	 * phase): it is keeping the ranks together, not the model. */
	*model_ns = local->eng.run_ns > local->cross_ns
			    ? local->eng.run_ns - local->cross_ns
			    : 0;
	*sync_ns = local->eng.sync_ns + local->cross_ns;
}

void uet_sync_local_rank_costs(const struct uet_sync_local *local,
			       struct uet_sync_ranks_costs *c)
{
	*c = local->rank_costs;
}

bool uet_sync_local_rank_peer(const struct uet_sync_local *local, uint32_t r)
{
	return local->peers != NULL && r < local->conf.ranks->ranks &&
	       local->peers[r] != 0;
}

const char *uet_sync_local_error(const struct uet_sync_local *local)
{
	return local->error.text;
}

void uet_sync_local_free(struct uet_sync_local *local)
{
	uint32_t i;

	if (local == NULL)
		return;
	for (i = 0; local->nics != NULL && i < local->conf.n_nics; i++) {
		uet_xring_fini(&local->nics[i].inbox[0]);
		uet_xring_fini(&local->nics[i].inbox[1]);
		uet_xring_fini(&local->nics[i].outbox[0]);
		uet_xring_fini(&local->nics[i].outbox[1]);
	}
	for (i = 0; i < local->n_sorted; i++)
		rte_pktmbuf_free(local->sorted[i].m);
	free(local->sorted);
	free(local->sort_tmp);
	if (local->conf.ranks != NULL)
		sync_mpi_free(local);
	free(local->msg_frames);
	free(local->msg_mbufs);
	free(local->peer_send);
	free(local->peer_recv);
	free(local->peer_send_len);
	free(local->peer_recv_len);
	free(local->nics);
	free(local->workers);
	free(local);
}
