/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A part's window, run in time slices with what each slice's arrivals
 * will touch fetched ahead (fabric_part_run_slices): the mbufs of the
 * frames that arrive, the routes, ports, class queues and slots their
 * arrivals will touch. Hints only: a run is the same without them, only
 * slower (docs/performance.md).
 */
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "fabric_meta.h"
#include "fabric_private.h"

/* How many frames (or ports) apart the steps of the arrivals' prefetch
 * run: each step reads the line the step before fetched, so it waits
 * this many others' worth of time for it to come. */
#define PART_ROUTE_LAG 8u
/* fabric_route_pf.sw of a frame from a host: fetch its headers. */
#define PART_PF_PARSE UINT32_MAX
/*
 * Arrivals fetched ahead at once: a slice of the window. What a frame's
 * arrival touches first is about nine lines (its mbuf's two, its headers
 * or its switch's routes, its output port's three, the class queue and
 * its slot), about 600 bytes; two slices in flight, the one running and
 * the one fetched, stay well within a 1 MiB L2. A whole window at 8,192
 * hosts is about 4,000 arrivals a part, at 65,536 hosts 15,000: fetched
 * at once, the first were evicted before their events ran.
 */
#define PART_PF_SLICE 512u

/* Note frame m of the window for the route steps (a hint: no room, no
 * note). */
static void part_pf_note(struct fabric_part *pt, uint32_t *n,
			 const struct fabric_entry *e, uint32_t sw)
{
	if (*n == pt->cap_pf) {
		uint32_t cap = pt->cap_pf ? 2 * pt->cap_pf : 256;
		void *q = realloc(pt->pf, cap * sizeof(*pt->pf));
		void *sorted;

		if (q == NULL)
			return;
		pt->pf = q;
		sorted = realloc(pt->pf_sorted, cap * sizeof(*pt->pf));
		if (sorted == NULL)
			return;
		pt->pf_sorted = sorted;
		pt->cap_pf = cap;
	}
	pt->pf[*n].time_ps = e->time_ps;
	pt->pf[*n].m = e->m;
	pt->pf[*n].sw = sw;
	pt->pf[*n].out = NULL;
	(*n)++;
}

/* Route step 1 of frame r: a host's frame is parsed on arrival, so fetch
 * its headers; another switch's carries its destination in its metadata,
 * so fetch the switch's routes. */
static void part_pf_hops(const struct uet_fabric *fab,
			 struct fabric_route_pf *r)
{
	const struct fabric_meta *meta;

	r->host = -ENOENT;
	if (r->sw == PART_PF_PARSE) {
		rte_prefetch0(rte_pktmbuf_mtod(r->m, void *));
		return;
	}
	meta = fabric_meta_of(r->m);
	if (meta == NULL || !meta->valid)
		return;
	r->host = meta->host;
	r->tc = (uint8_t)uet_dscp_class(fab->conf.uet_policy, &fab->conf.dscp,
					meta->dscp);
	if (r->host >= 0)
		rte_prefetch0(&fab->switches[r->sw]);
}

/* Step 2: with the routes come, the output port: its line, the
 * serializer's (settle_now, admission) and its class queues'. */
static void part_pf_port(const struct uet_fabric *fab,
			 struct fabric_route_pf *r)
{
	int port;

	if (r->host < 0)
		return;
	port = fabric_next_port_to(fab, r->sw, r->host,
				   &fabric_meta_of(r->m)->flow);
	if (port < 0)
		return;
	r->out = &fab->ports[port];
	rte_prefetch0(r->out);
	rte_prefetch0(&r->out->tx_end_ev);
	rte_prefetch0(&r->out->tcq);
	rte_prefetch0(&r->out->queue_bytes);
}

/* Step 3: with the port come, its class queue: both its lines, since a
 * frame joining it reads its ring and queue bytes in the first and
 * counts itself in the second (enq_frames, enq_bytes). */
static void part_pf_tcq(const struct fabric_route_pf *r)
{
	if (r->out != NULL) {
		const struct fabric_tcq *cq = r->out->tcq[r->tc];

		rte_prefetch0(cq);
		rte_prefetch0(RTE_PTR_ADD(cq, RTE_CACHE_LINE_SIZE));
	}
}

/* Step 4: with the class queue come, the slot the frame will take. */
static void part_pf_slot(const struct fabric_route_pf *r)
{
	const struct fabric_fifo *f;

	if (r->out == NULL)
		return;
	f = &r->out->tcq[r->tc]->fifo;
	if (f->slots == NULL) /* a class's queue not used yet */
		return;
	rte_prefetch0(&f->slots[(f->head + f->len) & (f->cap - 1u)]);
}

/* Scan port i of the part (i < n_ports) for the frames that arrive before
 * end_ps: note them for the route steps. */
static void part_pf_scan(struct fabric_part *pt, uint32_t i, uint32_t *n,
			 uet_time_t end_ps)
{
	const struct fabric_port *p = &pt->fab->ports[pt->port_ids[i]];
	const struct fabric_fifo *f = &p->arriving;
	uint32_t k;

	for (k = 0; k < f->len; k++) {
		const struct fabric_entry *e =
			&f->slots[(f->head + k) & (f->cap - 1u)];

		if (e->time_ps >= end_ps)
			break;
		part_pf_note(pt, n, e, p->peer < 0 ? PART_PF_PARSE : p->sw);
	}
}

/*
 * The steps of arrivals pf[0..n-1], PART_ROUTE_LAG frames apart, each
 * reading the line the step before fetched: the mbuf's two first lines
 * (its metadata is in the second), then part_pf_hops, part_pf_port,
 * part_pf_tcq, part_pf_slot.
 */
static void part_pf_routes(const struct uet_fabric *fab,
			   struct fabric_route_pf *pf, uint32_t n)
{
	const uint32_t L = PART_ROUTE_LAG;
	uint32_t i;

	for (i = 0; i < n + 4u * L; i++) {
		if (i < n) {
			rte_prefetch0(pf[i].m);
			rte_prefetch0(
				RTE_PTR_ADD(pf[i].m, RTE_CACHE_LINE_SIZE));
		}
		if (i >= L && i - L < n)
			part_pf_hops(fab, &pf[i - L]);
		if (i >= 2u * L && i - 2u * L < n)
			part_pf_port(fab, &pf[i - 2u * L]);
		if (i >= 3u * L && i - 3u * L < n)
			part_pf_tcq(&pf[i - 3u * L]);
		if (i >= 4u * L)
			part_pf_slot(&pf[i - 4u * L]);
	}
}

/*
 * Note the frames that arrive in this window. The ports' arriving rings are
 * cold too, so the scan itself is a pipeline: a port's line, then (a lag later)
 * its ring's first slot, then (another lag) the walk over its entries. Returns
 * how many were noted.
 */
static uint32_t part_pf_arrivals(struct fabric_part *pt, uet_time_t end_ps)
{
	const struct uet_fabric *fab = pt->fab;
	const uint32_t L = PART_ROUTE_LAG;
	uint32_t i, n = 0;

	for (i = 0; i < pt->n_ports + 2u * L; i++) {
		if (i < pt->n_ports)
			rte_prefetch0(&fab->ports[pt->port_ids[i]].arriving);
		if (i >= L && i - L < pt->n_ports) {
			const struct fabric_fifo *f =
				&fab->ports[pt->port_ids[i - L]].arriving;

			if (f->len > 0)
				rte_prefetch0(&f->slots[f->head]);
		}
		if (i >= 2u * L)
			part_pf_scan(pt, i - 2u * L, &n, end_ps);
	}
	return n;
}

/*
 * Sort the n noted arrivals into time slices of the window (a counting
 * sort: slice s holds the arrivals whose time falls in the s-th of equal
 * spans from the first arrival to the last, so each slice's arrivals come
 * before the next slice's). pf_slice[s] is slice s's first arrival in
 * pf_sorted, pf_slice[slices] = n. Returns the slice count, or 0 when
 * there is no room for the sort (then the window runs as one slice).
 */
static uint32_t part_pf_slices(struct fabric_part *pt, uint32_t n)
{
	const uint32_t slices = (n + PART_PF_SLICE - 1u) / PART_PF_SLICE;
	uet_time_t lo = UINT64_MAX, hi = 0, width;
	uint32_t i, s;

	if (slices + 1u > pt->cap_pf_slice) {
		void *q = realloc(pt->pf_slice,
				  (slices + 1u) * sizeof(*pt->pf_slice));

		if (q == NULL)
			return 0;
		pt->pf_slice = q;
		pt->cap_pf_slice = slices + 1u;
	}
	for (i = 0; i < n; i++) {
		lo = RTE_MIN(lo, pt->pf[i].time_ps);
		hi = RTE_MAX(hi, pt->pf[i].time_ps);
	}
	width = (hi - lo) / slices + 1u;
	memset(pt->pf_slice, 0, (slices + 1u) * sizeof(*pt->pf_slice));
	for (i = 0; i < n; i++)
		pt->pf_slice[(pt->pf[i].time_ps - lo) / width + 1u]++;
	for (s = 0; s < slices; s++)
		pt->pf_slice[s + 1u] += pt->pf_slice[s];
	for (i = 0; i < n; i++) {
		uint32_t *at = &pt->pf_slice[(pt->pf[i].time_ps - lo) / width];

		pt->pf_sorted[(*at)++] = pt->pf[i];
	}
	/* Each start moved to the next slice's: shift them back. */
	for (s = slices; s > 0; s--)
		pt->pf_slice[s] = pt->pf_slice[s - 1u];
	pt->pf_slice[0] = 0;
	return slices;
}

/*
 * The part's event heap: every pop walks it from the root to a leaf, and
 * since the part last ran the rest of the window (the other parts, the
 * NICs) has evicted it. Fetched in one sweep it streams in at memory
 * bandwidth; popped cold, each level waits for its line.
 */
static void part_pf_heap(const struct uet_evq *q)
{
	const char *p = (const char *)q->heap;
	const char *end = p + (size_t)q->len * sizeof(*q->heap);

	for (; p < end; p += RTE_CACHE_LINE_SIZE)
		rte_prefetch0(p);
}

/*
 * Run the part's window to end_ps in time slices, each slice's arrivals
 * fetched while the slice before runs. A frame's mbuf was last touched a
 * link delay ago, by the sender, and the many frames since have evicted
 * it: at 1,024 hosts the first read of the switch metadata in
 * fabric_receive was 14% of the run, fetched at the window's start. A
 * slice runs to the first arrival of the next (the events before it,
 * whatever they are), so the events run in the same order as in one go.
 * Returns the events run, or a negative errno from the event queue.
 */
int64_t fabric_part_run_slices(struct fabric_part *pt, uet_time_t end_ps)
{
	const uint32_t n = part_pf_arrivals(pt, end_ps);
	const uint32_t slices = n > PART_PF_SLICE ? part_pf_slices(pt, n) : 0;
	int64_t ran = 0;
	uint32_t s;

	part_pf_heap(&pt->evq);

	if (slices == 0) {
		part_pf_routes(pt->fab, pt->pf, n);
		return uet_evq_run_until(&pt->evq, end_ps);
	}
	part_pf_routes(pt->fab, pt->pf_sorted, pt->pf_slice[1]);
	for (s = 0; s < slices; s++) {
		const uint32_t next = pt->pf_slice[s + 1u];
		int64_t r;

		if (s + 1u < slices)
			part_pf_routes(pt->fab, &pt->pf_sorted[next],
				       pt->pf_slice[s + 2u] - next);
		r = uet_evq_run_until(&pt->evq,
				      next < n ? pt->pf_sorted[next].time_ps
					       : end_ps);
		if (r < 0)
			return r;
		ran += r;
	}
	return ran;
}
