/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a part fetches ahead of its window (fabric_part_prefetch_arrivals):
 * the mbufs of the frames that arrive in it, the routes, ports, class
 * queues and slots their arrivals will touch. Hints only: a run is the
 * same without them, only slower (docs/performance.md).
 */
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

/* Note frame m of the window for the route steps (a hint: no room, no
 * note). */
static void part_pf_note(struct fabric_part *pt, uint32_t *n,
			 struct rte_mbuf *m, uint32_t sw)
{
	if (*n == pt->cap_pf) {
		uint32_t cap = pt->cap_pf ? 2 * pt->cap_pf : 256;
		void *q = realloc(pt->pf, cap * sizeof(*pt->pf));

		if (q == NULL)
			return;
		pt->pf = q;
		pt->cap_pf = cap;
	}
	pt->pf[*n].m = m;
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
}

/* Step 3: with the port come, its class queue. */
static void part_pf_tcq(const struct fabric_route_pf *r)
{
	if (r->out != NULL)
		rte_prefetch0(r->out->tcq[r->tc]);
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
 * end_ps: fetch their mbufs and note them for the route steps. */
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
		rte_prefetch0(e->m);
		rte_prefetch0(RTE_PTR_ADD(e->m, RTE_CACHE_LINE_SIZE));
		part_pf_note(pt, n, e->m, p->peer < 0 ? PART_PF_PARSE : p->sw);
	}
}

/*
 * Fetch the mbufs of the frames that arrive in this window before their
 * events need them. A frame's mbuf was last touched a link delay ago, by
 * the sender, and the many frames since have evicted it: at 1024 hosts the
 * first read of the switch metadata in fabric_receive was 14% of the run.
 * A part's window touches well under a CPU's L2, so the lines stay.
 *
 * The ports' arriving rings are cold too, so the scan itself is a
 * pipeline: a port's line, then (a lag later) its ring's first slot, then
 * (another lag) the walk over its entries. Then the same for what each
 * frame's arrival will touch next (part_pf_hops, part_pf_port,
 * part_pf_tcq, part_pf_slot), PART_ROUTE_LAG frames apart.
 */
void fabric_part_prefetch_arrivals(struct fabric_part *pt, uet_time_t end_ps)
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
	for (i = 0; i < n + 3u * L; i++) {
		if (i < n)
			part_pf_hops(fab, &pt->pf[i]);
		if (i >= L && i - L < n)
			part_pf_port(fab, &pt->pf[i - L]);
		if (i >= 2u * L && i - 2u * L < n)
			part_pf_tcq(&pt->pf[i - 2u * L]);
		if (i >= 3u * L)
			part_pf_slot(&pt->pf[i - 3u * L]);
	}
}
