/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric's partitions: groups of switches that run a window side by
 * side (on several lcores in uet-emu), with the links between them as the
 * boundary. One switch is one part; a leaf-spine has a part per leaf and
 * per spine (groups of them past PART_SWITCHES_EACH switches); a fat tree
 * a part per pod (its tors and aggregation switches) and one per group of
 * core switches (those wired to the same aggregation switch of every
 * pod). The parts depend only on the topology, never on how many lcores
 * run them, so a run is the same on any number of lcores.
 *
 * Within a window a part runs its own events only. A frame it sends to a
 * port of another part arrives at least one link delay later, at or after
 * the window's end (the lookahead is at most the least delay of a link
 * between parts), so it waits in a ring (lib/xring's array rings: one
 * per pair of parts a link joins, and per window parity) and the other
 * part takes it at the start of its next window, in the same sorted order
 * lib/sync gives the frames from the NICs. A ring grows to the most a
 * window has carried; the barrier between the windows orders the writer
 * before the reader.
 *
 * This file makes the parts and runs their windows; fabric_part_take.c
 * moves the frames between them, fabric_part_prefetch.c runs a window in
 * time slices and fetches ahead what each slice's arrivals will touch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "fabric_private.h"
#include "uet_log.h"

/*
 * A leaf-spine has a part per switch up to this many switches: every
 * leaf-spine the configuration took before its limits grew (512 leaves,
 * 256 spines), so their runs (whose random draws are per part) stay as
 * they were. A larger one groups its leaves and its spines, about as many
 * parts as a k = 64 fat tree's 96: a part per switch would give each
 * window thousands of parts to run and a ring per leaf and spine pair.
 */
#define PART_SWITCHES_EACH 768u
#define PART_LEAF_GROUPS 64u
#define PART_SPINE_GROUPS 32u

/* The part of each switch of the topology. */
static uint32_t part_of_switch(const struct uet_fabric *fab, uint32_t sw,
			       uint32_t *n_parts)
{
	const struct uet_fabric_conf *c = &fab->conf;

	switch (c->topo) {
	case UET_FABRIC_TOPO_LEAF_SPINE: {
		/* leaves 0..L-1, then spines: a part each; past
		 * PART_SWITCHES_EACH switches, groups of consecutive
		 * leaves and of spines, in at most PART_LEAF_GROUPS and
		 * PART_SPINE_GROUPS parts. */
		const uint32_t L = c->leaves, S = c->spines;
		const bool each = L + S <= PART_SWITCHES_EACH;
		const uint32_t per_leaf_part =
			each ? 1u
			     : (L + PART_LEAF_GROUPS - 1u) / PART_LEAF_GROUPS;
		const uint32_t per_spine_part =
			each ? 1u
			     : (S + PART_SPINE_GROUPS - 1u) / PART_SPINE_GROUPS;
		const uint32_t leaf_parts =
			(L + per_leaf_part - 1u) / per_leaf_part;

		*n_parts =
			leaf_parts + (S + per_spine_part - 1u) / per_spine_part;
		return sw < L ? sw / per_leaf_part
			      : leaf_parts + (sw - L) / per_spine_part;
	}
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

/*
 * A part's share of the switch phase's work, for spreading the parts over
 * lcores: a port between switches counts 1, a host's port more, since
 * every frame from a host is parsed there and every frame to it is handed
 * to its NIC. At 1,024 hosts on 2 lcores the split falls at a pod
 * boundary, and the per-lcore busy times uet-emu prints (switch phases,
 * lcore 0 / lcore 1, three runs each) chose the weight: every port 1 put
 * ten of the sixteen pods on lcore 0 (2,390 / 1,355, 2,098 / 1,366, 2,307
 * / 1,587 ms); a host port 16 put eight there (1,082 / 1,455, 1,253 /
 * 1,667, 1,105 / 1,641 ms); 3 puts nine (1,584 / 1,577, 1,157 / 1,429,
 * 1,312 / 1,668 ms), the nearest to even.
 */
#define PART_HOST_PORT_WEIGHT 3u

static int64_t parts_run(struct uet_component *c, uint32_t part,
			 uet_time_t end_ps)
{
	struct uet_fabric *fab = (struct uet_fabric *)c;
	struct fabric_part *pt = &fab->parts[part];
	int64_t ran;
	int rc;

	pt->window_end_ps = end_ps;
	rc = fabric_part_take(pt);
	if (rc < 0) {
		fabric_part_fail(pt, rc);
		return rc;
	}
	ran = fabric_part_run_slices(pt, end_ps);
	if (ran < 0)
		fabric_part_fail(pt, (int)ran);
	return ran;
}

/* uet_component_parts.port_feed: host port's frames from a NIC's ring,
 * taken by its part (fabric_part_take()). */
static int parts_port_feed(struct uet_component *c, uint32_t port,
			   struct uet_xring *rings)
{
	struct uet_fabric *fab = (struct uet_fabric *)c;
	struct fabric_part *pt;
	uint32_t i;

	if (port >= fab->conf.hosts || rings == NULL)
		return -EINVAL;
	pt = fab->ports[port].part;
	for (i = 0; i < pt->n_feeds; i++)
		if (pt->feeds[i].port == port)
			return -EEXIST;
	if (pt->feeds == NULL) {
		/* At most one per port of the part. */
		pt->feeds = calloc(pt->n_ports, sizeof(*pt->feeds));
		if (pt->feeds == NULL)
			return -ENOMEM;
	}
	pt->feeds[pt->n_feeds].rings = rings;
	pt->feeds[pt->n_feeds].port = port;
	pt->n_feeds++;
	return 0;
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

/* Over ranks (uet_component_parts): what a process that runs some of
 * the parts needs of each. */
static uint32_t parts_port_part(const struct uet_component *c, uint32_t port)
{
	const struct uet_fabric *fab = (const struct uet_fabric *)c;

	return port < fab->n_ports ? fab->ports[port].part->index : 0;
}

static uet_time_t parts_part_next_time(const struct uet_component *c,
				       uint32_t part)
{
	const struct uet_fabric *fab = (const struct uet_fabric *)c;
	const uint32_t x = (uint32_t)((fab->window - 1u) & 1u);
	const struct fabric_part *pt = &fab->parts[part];
	uet_time_t t = uet_evq_next_time(&pt->evq);

	if (fab->window > 0 && pt->out_min_ps[x] < t)
		t = pt->out_min_ps[x];
	return pt->nic_in_min_ps < t ? pt->nic_in_min_ps : t;
}

static uint32_t parts_out_rings(const struct uet_component *c, uint32_t part)
{
	const struct uet_fabric *fab = (const struct uet_fabric *)c;

	return part < fab->n_parts ? fab->parts[part].n_out : 0;
}

static struct uet_xring *parts_out_ring(struct uet_component *c, uint32_t part,
					uint32_t s, uint32_t x, uint32_t *to)
{
	struct uet_fabric *fab = (struct uet_fabric *)c;
	const struct fabric_part *pt;
	uint32_t i;

	if (part >= fab->n_parts || s >= fab->parts[part].n_out || x > 1)
		return NULL;
	pt = &fab->parts[part];
	for (i = 0; to != NULL && i < pt->n_ports; i++) {
		const struct fabric_port *p = &fab->ports[pt->port_ids[i]];

		if (p->peer >= 0 && p->out_slot == s) {
			*to = fab->ports[p->peer].part->index;
			break;
		}
	}
	return &pt->out[x][s];
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

/*
 * The rings between parts: a part gets one (per window parity) to each
 * part its links reach, and a list of those that reach it, so that a
 * window looks at the rings of its neighbours only. Rings are arrays that
 * take memory with their first frame and grow to the most a window has
 * carried (a window's barrier orders writer and reader, so they need no
 * rte_ring): a fabric's idle links cost a ring's 56 bytes.
 */
static int parts_rings_init(struct uet_fabric *fab)
{
	const uint32_t n = fab->n_parts;
	uint32_t *mark, *slot, i, q, r, x;
	int ret = 0;

	for (q = 0; q < n; q++)
		uet_xring_init_array(&fab->parts[q].nic_in, 0);
	for (i = 0; i < fab->n_ports; i++)
		fab->ports[i].out_slot = FABRIC_PART_SAME;
	if (n < 2)
		return 0;
	/* mark[r] == q + 1: part q reaches r, over its ring slot[r]. */
	mark = calloc(n, sizeof(*mark));
	slot = calloc(n, sizeof(*slot));
	if (mark == NULL || slot == NULL) {
		ret = -ENOMEM;
		goto out;
	}
	for (q = 0; q < n && ret == 0; q++) {
		struct fabric_part *pt = &fab->parts[q];

		for (i = 0; i < pt->n_ports; i++) {
			struct fabric_port *p = &fab->ports[pt->port_ids[i]];

			if (p->peer < 0)
				continue;
			r = fab->ports[p->peer].part->index;
			if (r == q)
				continue;
			if (mark[r] != q + 1u) {
				mark[r] = q + 1u;
				slot[r] = pt->n_out++;
				fab->parts[r].n_in++;
			}
			p->out_slot = (uint16_t)slot[r];
		}
		for (x = 0; x < 2 && ret == 0; x++) {
			pt->out[x] =
				calloc(pt->n_out + 1u, sizeof(*pt->out[x]));
			if (pt->out[x] == NULL)
				ret = -ENOMEM;
			for (r = 0; r < pt->n_out && ret == 0; r++)
				uet_xring_init_array(&pt->out[x][r], 0);
		}
	}
	for (q = 0; q < n && ret == 0; q++) {
		fab->parts[q].in = calloc(2u * fab->parts[q].n_in + 1u,
					  sizeof(*fab->parts[q].in));
		if (fab->parts[q].in == NULL)
			ret = -ENOMEM;
	}
	/* Each part's in-list by sending part, as the frames were once
	 * gathered (the sort orders them anyway); slot[] now counts the
	 * entries filled. */
	memset(mark, 0, n * sizeof(*mark));
	memset(slot, 0, n * sizeof(*slot));
	for (q = 0; q < n && ret == 0; q++) {
		struct fabric_part *pt = &fab->parts[q];

		for (i = 0; i < pt->n_ports; i++) {
			const struct fabric_port *p =
				&fab->ports[pt->port_ids[i]];
			struct fabric_part *to;

			if (p->out_slot == FABRIC_PART_SAME)
				continue;
			to = fab->ports[p->peer].part;
			if (mark[to->index] == q + 1u)
				continue;
			mark[to->index] = q + 1u;
			for (x = 0; x < 2; x++)
				to->in[x * to->n_in + slot[to->index]] =
					&pt->out[x][p->out_slot];
			slot[to->index]++;
		}
	}
out:
	free(mark);
	free(slot);
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
	fab->parts = aligned_alloc(_Alignof(struct fabric_part),
				   n * sizeof(*fab->parts));
	fab->part_weight = calloc(n, sizeof(*fab->part_weight));
	if (fab->parts == NULL || fab->part_weight == NULL)
		return -ENOMEM;
	memset(fab->parts, 0, n * sizeof(*fab->parts));
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
		pt->out_min_ps[0] = UET_TIME_NEVER;
		pt->out_min_ps[1] = UET_TIME_NEVER;
		pt->nic_in_min_ps = UET_TIME_NEVER;
		pt->occ_next_ps = UINT64_MAX; /* until ports are chosen */
	}
	fab->lookahead_ps = UET_TIME_NEVER;
	/* Each part's list of its ports, counted first so that it is its
	 * own size. */
	for (i = 0; i < fab->n_ports; i++)
		fab->parts[fab->switches[fab->ports[i].sw].part].n_ports++;
	for (q = 0; q < n; q++) {
		fab->parts[q].port_ids =
			calloc(fab->parts[q].n_ports + 1u,
			       sizeof(*fab->parts[q].port_ids));
		if (fab->parts[q].port_ids == NULL)
			return -ENOMEM;
		fab->parts[q].n_ports = 0;
	}
	for (i = 0; i < fab->n_ports; i++) {
		struct fabric_port *p = &fab->ports[i];

		p->part = &fab->parts[fab->switches[p->sw].part];
		p->part->port_ids[p->part->n_ports++] = i;
		if (p->peer >= 0 &&
		    fab->switches[fab->ports[p->peer].sw].part !=
			    fab->switches[p->sw].part &&
		    p->delay_ps < fab->lookahead_ps)
			fab->lookahead_ps = p->delay_ps;
	}
	if (n > UINT16_MAX + 1u) {
		UET_LOG(ERROR, FABRIC, "%s: %u partitions, at most %u",
			fab->comp.name, n, UINT16_MAX + 1u);
		return -E2BIG;
	}
	ret = parts_rings_init(fab);
	if (ret < 0)
		return ret;
	for (i = 0; i < fab->n_ports; i++)
		fab->part_weight[fab->ports[i].part->index] +=
			fab->ports[i].peer < 0 ? PART_HOST_PORT_WEIGHT : 1u;
	for (q = 0; q < n; q++) {
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
	fab->comp.parts.port_feed = parts_port_feed;
	fab->comp.parts.port_part = parts_port_part;
	fab->comp.parts.part_next_time = parts_part_next_time;
	fab->comp.parts.out_rings = parts_out_rings;
	fab->comp.parts.out_ring = parts_out_ring;
	return 0;
}

void fabric_parts_fini(struct uet_fabric *fab)
{
	uint32_t q, r;

	for (q = 0; fab->parts != NULL && q < fab->n_parts; q++) {
		struct fabric_part *pt = &fab->parts[q];

		uet_evq_fini(&pt->evq);
		uet_xring_fini(&pt->nic_in);
		for (r = 0; r < pt->n_out; r++) {
			if (pt->out[0] != NULL)
				uet_xring_fini(&pt->out[0][r]);
			if (pt->out[1] != NULL)
				uet_xring_fini(&pt->out[1][r]);
		}
		free(pt->out[0]);
		free(pt->out[1]);
		free(pt->in);
		free(pt->merge);
		free(pt->merge_tmp);
		free(pt->pf);
		free(pt->pf_sorted);
		free(pt->pf_slice);
		free(pt->occ);
		free(pt->port_ids);
		free(pt->feeds);
	}
	free(fab->parts);
	free(fab->part_weight);
	fab->parts = NULL;
	fab->n_parts = 0;
}
