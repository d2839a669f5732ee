/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue occupancy over time: the time-weighted integral of every class
 * queue (for the mean of the switch stats record) and the sampled time
 * series of chosen ports. Both are kept at each change of a queue, so
 * they add no event: a run ends and counts its events as without them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_private.h"

/* Keep one sample of a chosen port for the window's end. */
static void occ_keep(struct fabric_part *pt, uet_time_t t, uint32_t rank,
		     uint32_t port)
{
	struct fabric_occ_row *r;

	if (pt->n_occ == pt->cap_occ) {
		uint32_t cap = pt->cap_occ ? pt->cap_occ * 2u : 16u;
		void *p = realloc(pt->occ, cap * sizeof(*pt->occ));

		if (p == NULL) {
			fabric_part_fail(pt, -ENOMEM);
			return;
		}
		pt->occ = p;
		pt->cap_occ = cap;
	}
	r = &pt->occ[pt->n_occ++];
	r->time_ps = t;
	r->rank = rank;
	r->port = port;
	fabric_port_stats(&pt->fab->ports[port], &r->stats);
}

void fabric_occ_part_sample_before(struct fabric_part *pt, uet_time_t t)
{
	struct fabric_links *L;
	uint32_t i;

	/* Called at every change of a queue: with no port chosen, the
	 * part's own word says so (never due), and the shared links
	 * state is not read at all. */
	if (pt->occ_next_ps >= t)
		return;
	L = pt->fab->links;
	if (L->occ_fn == NULL)
		return;
	/* Nothing of this part changed since the last call, so the state
	 * of its ports now is their state at every sample time before t. */
	while (pt->occ_next_ps < t) {
		for (i = 0; i < L->n_occ_ports; i++)
			if (pt->fab->ports[L->occ_ports[i]].part == pt)
				occ_keep(pt, pt->occ_next_ps, i,
					 L->occ_ports[i]);
		if (pt->occ_next_ps > UINT64_MAX - L->occ_interval_ps) {
			pt->occ_next_ps = UINT64_MAX;
			return;
		}
		pt->occ_next_ps += L->occ_interval_ps;
	}
}

static int occ_row_cmp(const void *a, const void *b)
{
	const struct fabric_occ_row *x = a, *y = b;

	if (x->time_ps != y->time_ps)
		return x->time_ps < y->time_ps ? -1 : 1;
	return x->rank < y->rank ? -1 : (x->rank > y->rank);
}

void fabric_occ_emit(struct uet_fabric *fab)
{
	struct fabric_links *L = fab->links;
	struct fabric_occ_row *all;
	uint32_t n = 0, q, i;

	for (q = 0; q < fab->n_parts; q++)
		n += fab->parts[q].n_occ;
	if (n == 0)
		return;
	if (fab->n_parts == 1) {
		all = fab->parts[0].occ;
	} else {
		all = malloc(n * sizeof(*all));
		if (all == NULL) {
			if (fab->error == 0)
				fab->error = -ENOMEM;
			return;
		}
		n = 0;
		for (q = 0; q < fab->n_parts; q++) {
			if (fab->parts[q].n_occ == 0)
				continue; /* its occ may still be NULL */
			memcpy(&all[n], fab->parts[q].occ,
			       fab->parts[q].n_occ * sizeof(*all));
			n += fab->parts[q].n_occ;
		}
		/* (time, place in the list): as one fabric-wide sampler. */
		qsort(all, n, sizeof(*all), occ_row_cmp);
	}
	for (i = 0; L->occ_fn != NULL && i < n; i++)
		L->occ_fn(L->occ_ctx, all[i].time_ps, all[i].port,
			  &all[i].stats);
	for (q = 0; q < fab->n_parts; q++)
		fab->parts[q].n_occ = 0;
	if (all != fab->parts[0].occ)
		free(all);
}

void fabric_occ_change(struct fabric_port *p, unsigned int tc)
{
	const uet_time_t now = fabric_port_now(p);
	struct fabric_tcq *cq = p->tcq[tc];

	fabric_occ_part_sample_before(p->part, now);
	cq->occ_area +=
		(fabric_area_t)cq->queue_bytes * (now - cq->occ_since_ps);
	cq->occ_since_ps = now;
}

int uet_fabric_set_occupancy(struct uet_fabric *fab, uet_time_t interval_ps,
			     const uint32_t *ports, uint32_t n_ports,
			     uet_fabric_occupancy_fn fn, void *ctx)
{
	struct fabric_links *L;
	uint32_t *copy = NULL;
	uint32_t i;

	if (fab == NULL ||
	    (n_ports != 0 && (ports == NULL || fn == NULL || interval_ps == 0)))
		return -EINVAL;
	for (i = 0; i < n_ports; i++)
		if (ports[i] >= fab->n_ports)
			return -EINVAL;
	if (n_ports != 0) {
		copy = malloc(n_ports * sizeof(*copy));
		if (copy == NULL)
			return -ENOMEM;
		memcpy(copy, ports, n_ports * sizeof(*copy));
	}
	L = fab->links;
	free(L->occ_ports);
	L->occ_ports = copy;
	L->n_occ_ports = n_ports;
	L->occ_interval_ps = interval_ps;
	for (i = 0; i < fab->n_parts; i++)
		fab->parts[i].occ_next_ps = n_ports != 0 ? 0 : UINT64_MAX;
	L->occ_fn = n_ports != 0 ? fn : NULL;
	L->occ_ctx = ctx;
	return 0;
}

void uet_fabric_occupancy_flush(struct uet_fabric *fab, uet_time_t end_ps)
{
	uint32_t q;

	if (fab == NULL)
		return;
	for (q = 0; q < fab->n_parts; q++)
		fabric_occ_part_sample_before(
			&fab->parts[q],
			end_ps == UINT64_MAX ? end_ps : end_ps + 1);
	fabric_occ_emit(fab);
}

int uet_fabric_tc_record(const struct uet_fabric *fab, uint32_t port,
			 unsigned int tc, uet_time_t now_ps,
			 struct uet_fabric_tc_record *rec)
{
	const struct fabric_link *l;
	const struct fabric_tcq *cq;
	fabric_area_t area;

	if (fab == NULL || rec == NULL || port >= fab->n_ports ||
	    tc >= UET_FABRIC_TCS)
		return -EINVAL;
	if (fab->given != NULL && fab->given[port].set) {
		*rec = fab->given[port].tc[tc];
		return 0;
	}
	l = fabric_link_of(fab, port);
	memset(rec, 0, sizeof(*rec));
	if (l != NULL) {
		rec->down_drop_frames = l->down_drop_frames[tc];
		rec->down_drop_bytes = l->down_drop_bytes[tc];
		rec->link_down = l->down;
	}
	cq = fab->ports[port].tcq[tc];
	area = cq->occ_area;
	if (now_ps > cq->occ_since_ps)
		area += (fabric_area_t)cq->queue_bytes *
			(now_ps - cq->occ_since_ps);
	rec->mean_queue_bytes = now_ps == 0 ? 0 : (uint64_t)(area / now_ps);
	/* The pause still running counts up to now, as the port stats do. */
	rec->paused_ps = fabric_pfc_paused_ps(&fab->ports[port], tc);
	rec->rate_bps = fab->ports[port].rate_bps;
	return 0;
}
