/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric's partitions: groups of switches that run a window side by
 * side (on several lcores in uet-emu), with the links between them as the
 * boundary. One switch is one part; a leaf-spine has a part per leaf and
 * per spine; a fat tree a part per pod (its tors and aggregation
 * switches) and one per group of core switches (those wired to the same
 * aggregation switch of every pod). The parts depend only on the
 * topology, never on how many lcores run them, so a run is the same on
 * any number of lcores.
 *
 * Within a window a part runs its own events only. A frame it sends to a
 * port of another part arrives at least one link delay later, at or after
 * the window's end (the lookahead is at most the least delay of a link
 * between parts), so it waits in an rte_ring (lib/xring: one per pair of
 * parts a link joins, and per window parity) and the other part takes it
 * at the start of its next window, in the same sorted order lib/sync gives
 * the frames from the NICs. A ring holds what the links between the two
 * parts can start in one lookahead; the barrier between the windows
 * orders the writer before the reader.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include "fabric_meta.h"
#include "fabric_private.h"
#include "uet_log.h"

/* The part of each switch of the topology. */
static uint32_t part_of_switch(const struct uet_fabric *fab, uint32_t sw,
			       uint32_t *n_parts)
{
	const struct uet_fabric_conf *c = &fab->conf;

	switch (c->topo) {
	case UET_FABRIC_TOPO_LEAF_SPINE:
		/* leaves 0..L-1, then spines: a part each. */
		*n_parts = c->leaves + c->spines;
		return sw;
	case UET_FABRIC_TOPO_FAT_TREE: {
		const uint32_t k = c->k, half = c->k / 2, E = k * half;

		*n_parts = k + half;
		/* tors 0..E-1 and aggregation switches E..2E-1 by pod;
		 * core c is wired to aggregation switch c / half of every
		 * pod: a part per such group. */
		if (sw < E)
			return sw / half;
		if (sw < 2 * E)
			return (sw - E) / half;
		return k + (sw - 2 * E) / half;
	}
	default:
		*n_parts = 1;
		return 0;
	}
}

int fabric_part_send(struct fabric_port *p, struct rte_mbuf *m,
		     uet_time_t arrival_ps)
{
	struct uet_fabric *fab = p->fab;
	struct fabric_port *peer = &fab->ports[p->peer];
	struct fabric_part *from = p->part, *to = peer->part;
	const uint32_t x = (uint32_t)(fab->window & 1u);

	if (to == from)
		return fabric_port_arrive(peer, m, arrival_ps);
	/* Guaranteed by the lookahead; a shorter link is a broken
	 * configuration, not a model drop. */
	if (arrival_ps < from->window_end_ps && !fab->comp.parts.realtime) {
		UET_LOG(ERROR, FABRIC,
			"%s: link %s delivers at %lu ps, before the window end "
			"%lu ps: its delay is below the lookahead",
			fab->comp.name, p->link_name, (unsigned long)arrival_ps,
			(unsigned long)from->window_end_ps);
		rte_pktmbuf_free(m);
		return -ERANGE;
	}
	if (uet_xring_put(&from->out[x][to->index], m, arrival_ps,
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

/* Take what the window brought part pt, sorted: the NICs' frames and
 * those the other parts sent it in the previous window. */
static int part_take(struct fabric_part *pt)
{
	struct uet_fabric *fab = pt->fab;
	const uint32_t prev = (uint32_t)((fab->window - 1u) & 1u);
	uint32_t total = uet_xring_count(&pt->nic_in), n = 0, q, i;

	for (q = 0; fab->window > 0 && q < fab->n_parts; q++)
		total += uet_xring_count(&fab->parts[q].out[prev][pt->index]);
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
	for (q = 0; fab->window > 0 && q < fab->n_parts; q++)
		n += uet_xring_take(&fab->parts[q].out[prev][pt->index],
				    pt->merge + n, total - n);
	/* A port has one sender, so (port, order) keeps each link FIFO. */
	if (n > 1)
		uet_xframe_sort(pt->merge, n, pt->merge_tmp);
	for (i = 0; i < n; i++) {
		struct uet_xframe *f = &pt->merge[i];
		struct fabric_port *p = &fab->ports[f->port];
		uet_time_t at = f->arrival_ps;
		int rc;

		/* Realtime: a part that ran late takes its frames late. */
		if (fab->comp.parts.realtime && at < uet_evq_now(&pt->evq))
			at = uet_evq_now(&pt->evq);
		rc = fabric_port_arrive(p, f->m, at);
		if (rc < 0) {
			for (i++; i < n; i++)
				rte_pktmbuf_free(pt->merge[i].m);
			return rc;
		}
	}
	return 0;
}

/* How many frames ahead the route prefetch reads a frame's metadata of
 * the one whose next hop it fetches: time for the hop's line to come. */
#define PART_ROUTE_LAG 8u
/* fabric_route_pf.sw of a frame from a host: fetch its headers. */
#define PART_PF_PARSE UINT32_MAX

/*
 * Fetch the mbufs of the frames that arrive in this window before their
 * events need them. A frame's mbuf was last touched a link delay ago, by
 * the sender, and the many frames since have evicted it: at 1024 hosts the
 * first read of the switch metadata in fabric_receive was 14% of the run.
 * A part's window touches well under a CPU's L2, so the lines stay.
 *
 * Then the same for what their arrival will touch next: a frame from a
 * host, its headers (the switch parses it); a frame from another switch,
 * whose metadata says where it goes, the switch's next hops towards the
 * host, then the output port and its class queue. Each step needs the
 * line the step before fetched, so the frames go through the steps
 * PART_ROUTE_LAG apart.
 */
static void part_prefetch_arrivals(struct fabric_part *pt, uet_time_t end_ps)
{
	const struct uet_fabric *fab = pt->fab;
	uint32_t i, k, n = 0;

	for (i = 0; i < pt->n_ports; i++) {
		const struct fabric_port *p = &fab->ports[pt->port_ids[i]];
		const struct fabric_fifo *f = &p->arriving;

		for (k = 0; k < f->len; k++) {
			const struct fabric_entry *e =
				&f->slots[(f->head + k) & (f->cap - 1u)];

			if (e->time_ps >= end_ps)
				break;
			rte_prefetch0(e->m);
			rte_prefetch0(RTE_PTR_ADD(e->m, RTE_CACHE_LINE_SIZE));
			if (n == pt->cap_pf) {
				uint32_t cap =
					pt->cap_pf ? 2 * pt->cap_pf : 256;
				void *q =
					realloc(pt->pf, cap * sizeof(*pt->pf));

				if (q == NULL)
					continue; /* a hint only */
				pt->pf = q;
				pt->cap_pf = cap;
			}
			pt->pf[n].m = e->m;
			/* A host's frame is parsed on arrival: its headers,
			 * not a route, are what to fetch. */
			pt->pf[n].sw = p->peer < 0 ? PART_PF_PARSE : p->sw;
			n++;
		}
	}
	for (i = 0; i < n + PART_ROUTE_LAG; i++) {
		if (i < n && pt->pf[i].sw == PART_PF_PARSE) {
			pt->pf[i].host = -ENOENT;
			rte_prefetch0(rte_pktmbuf_mtod(pt->pf[i].m, void *));
		} else if (i < n) {
			const struct fabric_meta *meta =
				fabric_meta_of(pt->pf[i].m);

			pt->pf[i].host = meta != NULL && meta->valid
						 ? meta->host
						 : -ENOENT;
			if (pt->pf[i].host >= 0)
				rte_prefetch0(&fab->switches[pt->pf[i].sw]
						       .hops[pt->pf[i].host]);
		}
		if (i >= PART_ROUTE_LAG &&
		    pt->pf[i - PART_ROUTE_LAG].host >= 0) {
			const struct fabric_route_pf *r =
				&pt->pf[i - PART_ROUTE_LAG];
			const int port = fabric_next_port_to(
				fab, r->sw, r->host,
				&fabric_meta_of(r->m)->flow);

			if (port >= 0) {
				const struct fabric_port *out =
					&fab->ports[port];

				rte_prefetch0(out);
				rte_prefetch0(
					RTE_PTR_ADD(out, RTE_CACHE_LINE_SIZE));
				rte_prefetch0(&out->tcq[0]);
			}
		}
	}
}

static int64_t parts_run(struct uet_component *c, uint32_t part,
			 uet_time_t end_ps)
{
	struct uet_fabric *fab = (struct uet_fabric *)c;
	struct fabric_part *pt = &fab->parts[part];
	int64_t ran;
	int rc;

	pt->window_end_ps = end_ps;
	rc = part_take(pt);
	if (rc < 0) {
		fabric_part_fail(pt, rc);
		return rc;
	}
	part_prefetch_arrivals(pt, end_ps);
	ran = uet_evq_run_until(&pt->evq, end_ps);
	if (ran < 0)
		fabric_part_fail(pt, (int)ran);
	return ran;
}

static int parts_window_begin(struct uet_component *c, uet_time_t start_ps,
			      uet_time_t end_ps)
{
	struct uet_fabric *fab = (struct uet_fabric *)c;
	const uint32_t x = (uint32_t)(fab->window & 1u);
	uint32_t q;

	(void)end_ps;
	/* out[x] was emptied by its readers in the previous window. */
	for (q = 0; q < fab->n_parts; q++)
		fab->parts[q].out_min_ps[x] = UET_TIME_NEVER;
	return fabric_links_apply(fab, start_ps);
}

static int parts_window_end(struct uet_component *c, uet_time_t end_ps)
{
	struct uet_fabric *fab = (struct uet_fabric *)c;
	int64_t ran;
	uint32_t q;

	/* Events put in the component's own queue from outside (a
	 * workload's wake-up) run here. */
	ran = uet_evq_run_until(&fab->comp.evq, end_ps);
	if (ran < 0 && fab->error == 0)
		fab->error = (int)ran;
	/* A window without end (a run to the last event) samples up to
	 * each part's last change; the rest come with a flush. */
	for (q = 0; q < fab->n_parts; q++)
		fabric_occ_part_sample_before(
			&fab->parts[q], end_ps != UET_TIME_NEVER
						? end_ps
						: fab->parts[q].evq.now_ps);
	fabric_occ_emit(fab);
	fab->window++;
	/* A failure inside the model is kept for the wiring, which reads
	 * uet_fabric_error() after the window, as with one queue. */
	return 0;
}

static uet_time_t parts_next_time(const struct uet_component *c)
{
	const struct uet_fabric *fab = (const struct uet_fabric *)c;
	/* The rings written in the last window run, read in the next. */
	const uint32_t x = (uint32_t)((fab->window - 1u) & 1u);
	uet_time_t t = uet_evq_next_time(&fab->comp.evq);
	uint32_t q;

	for (q = 0; q < fab->n_parts; q++) {
		const struct fabric_part *pt = &fab->parts[q];
		uet_time_t e = uet_evq_next_time(&pt->evq);

		if (e < t)
			t = e;
		if (fab->window > 0 && pt->out_min_ps[x] < t)
			t = pt->out_min_ps[x];
		if (pt->nic_in_min_ps < t)
			t = pt->nic_in_min_ps;
	}
	return fabric_links_next_ps(fab, 0) < t ? fabric_links_next_ps(fab, 0)
						: t;
}

static uet_time_t parts_horizon(const struct uet_component *c,
				uet_time_t after_ps)
{
	return fabric_links_next_ps((const struct uet_fabric *)c, after_ps);
}

int64_t uet_fabric_run_until(struct uet_fabric *fab, uet_time_t t)
{
	struct uet_component *c = &fab->comp;
	int64_t total = 0;

	/* Windows of the lookahead between parts, as lib/sync would run
	 * them: one window when the fabric is one part. */
	for (;;) {
		const uet_time_t start = fab->parts[0].evq.now_ps;
		uet_time_t e = uet_component_next_time(c), end, h;
		int64_t r;

		if (e < start)
			e = start;
		if (e >= t) {
			if (t == UET_TIME_NEVER || start >= t)
				return total;
			end = t;
		} else {
			end = e > UET_TIME_NEVER - fab->lookahead_ps
				      ? UET_TIME_NEVER
				      : e + fab->lookahead_ps;
			if (end > t)
				end = t;
		}
		h = uet_component_horizon(c, start);
		if (h < end)
			end = h;
		r = uet_component_run_window(c, start, end);
		if (r < 0)
			return r;
		total += r;
		if (end == UET_TIME_NEVER)
			return total;
	}
}

uet_time_t uet_fabric_port_now(const struct uet_fabric *fab, uint32_t port)
{
	return port < fab->n_ports ? fabric_port_now(&fab->ports[port]) : 0;
}

/* Frames from the NICs that one part takes per window, at most: a few per
 * host port, each window (the ring grows into its spill-over beyond). */
#define PART_NIC_IN_FRAMES_PER_PORT 16u

/*
 * The rings between parts, sized from the topology: a pair of parts gets
 * a ring (per window parity) only when a link joins them, as big as what
 * those links can start in one lookahead, the longest a window runs in
 * lockstep; nothing then spills.
 */
static int parts_rings_init(struct uet_fabric *fab)
{
	const uint32_t n = fab->n_parts;
	uint32_t *frames, i, q;
	char name[RTE_RING_NAMESIZE];
	int ret = 0;

	if (n < 2)
		return 0;
	frames = calloc((size_t)n * n, sizeof(*frames));
	if (frames == NULL)
		return -ENOMEM;
	for (i = 0; i < fab->n_ports; i++) {
		const struct fabric_port *p = &fab->ports[i];
		uint32_t from = p->part->index, to;

		if (p->peer < 0)
			continue;
		to = fab->ports[p->peer].part->index;
		if (to != from)
			frames[from * n + to] += uet_xring_frames_per_window(
				p->rate_bps, fab->lookahead_ps);
	}
	for (q = 0; q < n && ret == 0; q++) {
		struct fabric_part *pt = &fab->parts[q];
		uint32_t r, x;

		snprintf(name, sizeof(name), "fab_in%u", q);
		ret = uet_xring_init(&pt->nic_in, name,
				     pt->n_ports * PART_NIC_IN_FRAMES_PER_PORT);
		for (r = 0; r < n && ret == 0; r++)
			for (x = 0; x < 2 && ret == 0 && frames[q * n + r];
			     x++) {
				snprintf(name, sizeof(name), "fab%u_%u_%u", q,
					 r, x);
				ret = uet_xring_init(&pt->out[x][r], name,
						     frames[q * n + r]);
			}
	}
	free(frames);
	return ret;
}

int fabric_parts_init(struct uet_fabric *fab)
{
	uint32_t n = 1, s, i, q;
	int ret;

	for (s = 0; s < fab->n_switches; s++)
		fab->switches[s].part = part_of_switch(fab, s, &n);
	/* A frame between parts waits for the next window, which is only
	 * on time when the link between them takes some time: a fabric
	 * with an instant link between parts runs as one part. */
	for (i = 0; n > 1 && i < fab->n_ports; i++) {
		const struct fabric_port *p = &fab->ports[i];

		if (p->peer >= 0 && p->delay_ps == 0 &&
		    fab->switches[fab->ports[p->peer].sw].part !=
			    fab->switches[p->sw].part) {
			for (s = 0; s < fab->n_switches; s++)
				fab->switches[s].part = 0;
			n = 1;
		}
	}
	fab->parts = calloc(n, sizeof(*fab->parts));
	fab->part_weight = calloc(n, sizeof(*fab->part_weight));
	if (fab->parts == NULL || fab->part_weight == NULL)
		return -ENOMEM;
	fab->n_parts = n;
	for (q = 0; q < n; q++) {
		struct fabric_part *pt = &fab->parts[q];

		pt->fab = fab;
		pt->index = q;
		ret = uet_evq_init(&pt->evq);
		if (ret < 0)
			return ret;
		/* Part 0 draws the stream one fabric-wide generator did, so
		 * a single switch runs as it always has. */
		uet_rng_seed(&pt->rng, fab->conf.seed,
			     UET_FABRIC_RNG_STREAM + 0x100u * q);
		uet_rng_seed(&pt->ecn_rng, fab->conf.seed,
			     UET_FABRIC_ECN_RNG_STREAM + 0x100u * q);
		pt->out[0] = calloc(n, sizeof(*pt->out[0]));
		pt->out[1] = calloc(n, sizeof(*pt->out[1]));
		if (pt->out[0] == NULL || pt->out[1] == NULL)
			return -ENOMEM;
		pt->out_min_ps[0] = UET_TIME_NEVER;
		pt->out_min_ps[1] = UET_TIME_NEVER;
		pt->nic_in_min_ps = UET_TIME_NEVER;
	}
	fab->lookahead_ps = UET_TIME_NEVER;
	for (i = 0; i < fab->n_ports; i++) {
		struct fabric_port *p = &fab->ports[i];

		p->part = &fab->parts[fab->switches[p->sw].part];
		p->part->n_ports++;
		if (p->part->port_ids == NULL) {
			p->part->port_ids = calloc(fab->n_ports,
						   sizeof(*p->part->port_ids));
			if (p->part->port_ids == NULL)
				return -ENOMEM;
		}
		p->part->port_ids[p->part->n_ports - 1] = i;
		if (p->peer >= 0 &&
		    fab->switches[fab->ports[p->peer].sw].part !=
			    fab->switches[p->sw].part &&
		    p->delay_ps < fab->lookahead_ps)
			fab->lookahead_ps = p->delay_ps;
	}
	ret = parts_rings_init(fab);
	if (ret < 0)
		return ret;
	for (q = 0; q < n; q++) {
		fab->part_weight[q] = fab->parts[q].n_ports;
		/* The port events, and (part 0) room for the failures. */
		ret = uet_evq_reserve(&fab->parts[q].evq,
				      (uint64_t)fab->parts[q].n_ports *
					      FABRIC_EVENTS_PER_PORT);
		if (ret < 0)
			return ret;
	}
	fab->comp.parts.n = n;
	fab->comp.parts.weight = fab->part_weight;
	fab->comp.parts.window_begin = parts_window_begin;
	fab->comp.parts.part_run = parts_run;
	fab->comp.parts.window_end = parts_window_end;
	fab->comp.parts.next_time = parts_next_time;
	fab->comp.parts.horizon = parts_horizon;
	return 0;
}

void fabric_parts_fini(struct uet_fabric *fab)
{
	uint32_t q, r;

	for (q = 0; fab->parts != NULL && q < fab->n_parts; q++) {
		struct fabric_part *pt = &fab->parts[q];

		uet_evq_fini(&pt->evq);
		uet_xring_fini(&pt->nic_in);
		for (r = 0; r < fab->n_parts; r++) {
			if (pt->out[0] != NULL)
				uet_xring_fini(&pt->out[0][r]);
			if (pt->out[1] != NULL)
				uet_xring_fini(&pt->out[1][r]);
		}
		free(pt->out[0]);
		free(pt->out[1]);
		free(pt->merge);
		free(pt->merge_tmp);
		free(pt->pf);
		free(pt->occ);
		free(pt->port_ids);
	}
	free(fab->parts);
	free(fab->part_weight);
	fab->parts = NULL;
	fab->n_parts = 0;
}
