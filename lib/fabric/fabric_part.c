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
 * between parts), so it waits in a box and the other part takes it at the
 * start of its next window, in the same sorted order lib/sync gives the
 * frames from the NICs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

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

static int xbox_push(struct fabric_xbox *b, const struct fabric_xframe *f)
{
	if (b->n == b->cap) {
		uint32_t cap = b->cap ? b->cap * 2u : 32u;
		void *p = realloc(b->f, cap * sizeof(*b->f));

		if (p == NULL)
			return -ENOMEM;
		b->f = p;
		b->cap = cap;
	}
	b->f[b->n++] = *f;
	return 0;
}

static void xbox_fini(struct fabric_xbox *b)
{
	uint32_t i;

	for (i = 0; i < b->n; i++)
		rte_pktmbuf_free(b->f[i].m);
	free(b->f);
	memset(b, 0, sizeof(*b));
}

int fabric_part_send(struct fabric_port *p, struct rte_mbuf *m,
		     uet_time_t arrival_ps)
{
	struct uet_fabric *fab = p->fab;
	struct fabric_port *peer = &fab->ports[p->peer];
	struct fabric_part *from = p->part, *to = peer->part;
	const uint32_t x = (uint32_t)(fab->window & 1u);
	struct fabric_xframe f = {
		.m = m,
		.arrival_ps = arrival_ps,
		.port = (uint32_t)p->peer,
	};
	struct fabric_xbox *b;

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
	b = &from->out[x][to->index];
	f.order = b->n;
	if (xbox_push(b, &f) < 0) {
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
	struct fabric_xframe f = {
		.m = m,
		.arrival_ps = arrival_ps,
		.port = port,
		.order = pt->nic_in.n,
	};

	/* Never before what the part has run (its arrival would be in the
	 * past), nor before a frame already given this port. */
	if (arrival_ps < uet_evq_now(&pt->evq) ||
	    arrival_ps < fab->ports[port].delivered_ps) {
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	fab->ports[port].delivered_ps = arrival_ps;
	if (xbox_push(&pt->nic_in, &f) < 0) {
		rte_pktmbuf_free(m);
		return -ENOMEM;
	}
	return 0;
}

static int xframe_cmp(const void *a, const void *b)
{
	const struct fabric_xframe *x = a, *y = b;

	if (x->arrival_ps != y->arrival_ps)
		return x->arrival_ps < y->arrival_ps ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->order < y->order ? -1 : (x->order > y->order);
}

/* Take what the window brought part pt, sorted: the NICs' frames and
 * those the other parts sent it in the previous window. */
static int part_take(struct fabric_part *pt)
{
	struct uet_fabric *fab = pt->fab;
	const uint32_t prev = (uint32_t)((fab->window - 1u) & 1u);
	uint32_t total = pt->nic_in.n, n = 0, q, i;

	for (q = 0; fab->window > 0 && q < fab->n_parts; q++)
		total += fab->parts[q].out[prev][pt->index].n;
	if (total == 0)
		return 0;
	if (total > pt->cap_merge) {
		void *p = realloc(pt->merge, total * sizeof(*pt->merge));

		if (p == NULL)
			return -ENOMEM;
		pt->merge = p;
		pt->cap_merge = total;
	}
	for (i = 0; i < pt->nic_in.n; i++)
		pt->merge[n++] = pt->nic_in.f[i];
	pt->nic_in.n = 0;
	for (q = 0; fab->window > 0 && q < fab->n_parts; q++) {
		struct fabric_xbox *b = &fab->parts[q].out[prev][pt->index];

		for (i = 0; i < b->n; i++)
			pt->merge[n++] = b->f[i];
		b->n = 0;
	}
	/* A port has one sender, so (port, order) keeps each link FIFO. */
	if (n > 1)
		qsort(pt->merge, n, sizeof(*pt->merge), xframe_cmp);
	for (i = 0; i < n; i++) {
		struct fabric_xframe *f = &pt->merge[i];
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
	/* The boxes written in the last window run, read in the next. */
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
		if (pt->nic_in.n > 0)
			for (uint32_t i = 0; i < pt->nic_in.n; i++)
				if (pt->nic_in.f[i].arrival_ps < t)
					t = pt->nic_in.f[i].arrival_ps;
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
	}
	fab->lookahead_ps = UET_TIME_NEVER;
	for (i = 0; i < fab->n_ports; i++) {
		struct fabric_port *p = &fab->ports[i];

		p->part = &fab->parts[fab->switches[p->sw].part];
		p->part->n_ports++;
		if (p->peer >= 0 &&
		    fab->switches[fab->ports[p->peer].sw].part !=
			    fab->switches[p->sw].part &&
		    p->delay_ps < fab->lookahead_ps)
			fab->lookahead_ps = p->delay_ps;
	}
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
		xbox_fini(&pt->nic_in);
		for (r = 0; r < fab->n_parts; r++) {
			if (pt->out[0] != NULL)
				xbox_fini(&pt->out[0][r]);
			if (pt->out[1] != NULL)
				xbox_fini(&pt->out[1][r]);
		}
		free(pt->out[0]);
		free(pt->out[1]);
		free(pt->merge);
		free(pt->occ);
	}
	free(fab->parts);
	free(fab->part_weight);
	fab->parts = NULL;
	fab->n_parts = 0;
}
