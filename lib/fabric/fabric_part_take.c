/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frames between the fabric's parts (fabric_part.c says what a part is):
 * a frame sent to a port of another part waits in a ring until that
 * part's next window; the NICs' frames wait in their part's ring or in
 * the feeds lib/sync fills. At a window's start each part takes what
 * the window brought it and puts each frame on its port's arriving ring,
 * in the order a sorted merge would give.
 */
#include <errno.h>
#include <stdlib.h>

#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "fabric_private.h"
#include "uet_log.h"

int fabric_part_send(struct fabric_port *p, struct rte_mbuf *m,
		     uet_time_t arrival_ps)
{
	struct fabric_part *from = p->part;
	struct uet_fabric *fab = from->fab;
	const uint32_t x = (uint32_t)(fab->window & 1u);

	if (p->out_slot == FABRIC_PART_SAME)
		return fabric_port_arrive(&fab->ports[p->peer], m, arrival_ps);
	/* Guaranteed by the lookahead; a shorter link is a broken
	 * configuration, not a model drop. */
	if (arrival_ps < from->window_end_ps && !fab->comp.parts.realtime) {
		char link[32];

		fabric_topo_link_name(fab, p->id, link, sizeof(link));
		UET_LOG(ERROR, FABRIC,
			"%s: link %s delivers at %lu ps, before the window end "
			"%lu ps: its delay is below the lookahead",
			fab->comp.name, link, (unsigned long)arrival_ps,
			(unsigned long)from->window_end_ps);
		rte_pktmbuf_free(m);
		return -ERANGE;
	}
	if (uet_xring_put(&from->out[x][p->out_slot], m, arrival_ps,
			  (uint32_t)p->peer) < 0) {
		rte_pktmbuf_free(m);
		return -ENOMEM;
	}
	if (arrival_ps < from->out_min_ps[x])
		from->out_min_ps[x] = arrival_ps;
	return 0;
}

/* Frames from the NICs (lib/sync's deliver, serial): to the part of the
 * host port, for its window. */
int fabric_part_deliver(struct uet_fabric *fab, uint32_t port,
			struct rte_mbuf *m, uet_time_t arrival_ps)
{
	struct fabric_part *pt = fab->ports[port].part;

	/* Never before what the part has run (its arrival would be in the
	 * past), nor before a frame already given this port. */
	if (arrival_ps < uet_evq_now(&pt->evq) ||
	    arrival_ps < fab->ports[port].delivered_ps) {
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	fab->ports[port].delivered_ps = arrival_ps;
	if (uet_xring_put(&pt->nic_in, m, arrival_ps, port) < 0) {
		rte_pktmbuf_free(m);
		return -ENOMEM;
	}
	if (arrival_ps < pt->nic_in_min_ps)
		pt->nic_in_min_ps = arrival_ps;
	return 0;
}

/* How many frames ahead fabric_part_take fetches a port's arriving ring, and
 * again that many ahead of that the port's line that holds it. */
#define PART_TAKE_LAG 8u

/* Before frame i of the window joins its port's arriving ring: fetch the
 * ring's state for frame i + 2 lags, then, with that line come, the slot
 * frame i + 1 lag will take. At 1024 hosts a part's ports are far more
 * than the cache holds, and each frame of the window meets a cold port. */
static inline void part_take_prefetch(const struct uet_fabric *fab,
				      const struct uet_xframe *merge,
				      uint32_t n, uint32_t i)
{
	if (i + 2u * PART_TAKE_LAG < n)
		rte_prefetch0(&fab->ports[merge[i + 2u * PART_TAKE_LAG].port]
				       .arriving);
	if (i + PART_TAKE_LAG < n) {
		const struct fabric_fifo *a =
			&fab->ports[merge[i + PART_TAKE_LAG].port].arriving;

		/* A ring that never held a frame has no slots yet. */
		if (a->slots != NULL)
			rte_prefetch0(
				&a->slots[(a->head + a->len) & (a->cap - 1u)]);
	}
}

/* How many feeds ahead fabric_part_take fetches a feed's ring and count. */
#define PART_FEED_LAG 4u

/*
 * Take the frames the NIC of feed f put in the previous window (all of
 * ring), into dst. They keep deliver()'s rules, checked here since no
 * serial step saw them. Returns how many, or a negative errno (those
 * taken freed).
 */
static int part_feed_take(struct fabric_part *pt, const struct fabric_feed *f,
			  struct uet_xring *ring, struct uet_xframe *dst,
			  uint32_t room)
{
	struct fabric_port *p = &pt->fab->ports[f->port];
	uint32_t got = uet_xring_take(ring, dst, room), i;
	int rc = 0;

	for (i = 0; i < got; i++) {
		if (dst[i].arrival_ps < uet_evq_now(&pt->evq) ||
		    dst[i].arrival_ps < p->delivered_ps) {
			UET_LOG(ERROR, FABRIC,
				"%s: host port %u was given a frame arriving "
				"at %lu ps, before %lu ps (the part's time or "
				"the port's last arrival)",
				pt->fab->comp.name, f->port,
				(unsigned long)dst[i].arrival_ps,
				(unsigned long)RTE_MAX(uet_evq_now(&pt->evq),
						       p->delivered_ps));
			rc = -EINVAL;
			break;
		}
		p->delivered_ps = dst[i].arrival_ps;
		dst[i].port = f->port;
	}
	if (rc < 0) {
		for (i = 0; i < got; i++)
			rte_pktmbuf_free(dst[i].m);
		return rc;
	}
	return (int)got;
}

/* Take what the window brought part pt, sorted: the NICs' frames and
 * those the other parts sent it in the previous window. */
int fabric_part_take(struct fabric_part *pt)
{
	struct uet_fabric *fab = pt->fab;
	const uint32_t prev = (uint32_t)((fab->window - 1u) & 1u);
	uint32_t total = uet_xring_count(&pt->nic_in), n = 0, n_idle = 0, q, i;

	for (i = 0; i < pt->n_feeds; i++) {
		if (i + PART_FEED_LAG < pt->n_feeds)
			rte_prefetch0(
				&pt->feeds[i + PART_FEED_LAG].rings[prev]);
		total += uet_xring_count(&pt->feeds[i].rings[prev]);
	}
	for (q = 0; fab->window > 0 && q < pt->n_in; q++)
		total += uet_xring_count(pt->in[prev * pt->n_in + q]);
	if (total == 0)
		return 0;
	if (total > pt->cap_merge) {
		void *p = realloc(pt->merge, total * sizeof(*pt->merge));

		if (p == NULL)
			return -ENOMEM;
		pt->merge = p;
		p = realloc(pt->merge_tmp, total * sizeof(*pt->merge_tmp));
		if (p == NULL)
			return -ENOMEM;
		pt->merge_tmp = p;
		pt->cap_merge = total;
	}
	n = uet_xring_take(&pt->nic_in, pt->merge, total);
	pt->nic_in_min_ps = UET_TIME_NEVER;
	for (i = 0; i < pt->n_feeds; i++) {
		struct uet_xring *ring = &pt->feeds[i].rings[prev];
		int got;

		if (uet_xring_count(ring) == 0)
			continue;
		got = part_feed_take(pt, &pt->feeds[i], ring, pt->merge + n,
				     total - n);
		if (got < 0) {
			while (n > 0)
				rte_pktmbuf_free(pt->merge[--n].m);
			return got;
		}
		n += (uint32_t)got;
	}
	for (q = 0; fab->window > 0 && q < pt->n_in; q++)
		n += uet_xring_take(pt->in[prev * pt->n_in + q], pt->merge + n,
				    total - n);
	/*
	 * A port has one sender, and its frames come in the order it sent
	 * them, which is their arrival order: they join its ring as they
	 * come. What the order of the window's frames decides is the order
	 * in which the ports that had nothing arriving schedule their
	 * events (ties in time run in that order): by (first arrival, port),
	 * as when every frame was sorted by (arrival, port, order). So only
	 * those ports are sorted, noted over the frames already taken.
	 */
	for (i = 0; i < n; i++) {
		const struct uet_xframe f = pt->merge[i];
		struct fabric_port *p = &fab->ports[f.port];
		uet_time_t at = f.arrival_ps;
		int rc;

		part_take_prefetch(fab, pt->merge, n, i);
		/* Realtime: a part that ran late takes its frames late. */
		if (fab->comp.parts.realtime && at < uet_evq_now(&pt->evq))
			at = uet_evq_now(&pt->evq);
		rc = fabric_port_arrive_hold(p, f.m, at);
		if (rc < 0) {
			for (i++; i < n; i++)
				rte_pktmbuf_free(pt->merge[i].m);
			return rc;
		}
		if (rc > 0)
			pt->merge[n_idle++] = (struct uet_xframe){
				.arrival_ps = f.arrival_ps, .port = f.port};
	}
	if (n_idle > 1)
		uet_xframe_sort(pt->merge, n_idle, pt->merge_tmp);
	for (i = 0; i < n_idle; i++) {
		const int rc = fabric_port_arrive_schedule(
			&fab->ports[pt->merge[i].port]);

		if (rc < 0)
			return rc;
	}
	return 0;
}
