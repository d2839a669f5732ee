/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Link failures: links found by name, degraded to a fraction of their
 * rate or taken down at a virtual time by an event of the fabric, and the
 * traffic of a downed link rerouted over the remaining equal-cost next
 * hops or blackholed. A downed link stays down for the rest of the run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "fabric_private.h"

#define PPM_ONE UINT64_C(1000000)

int fabric_links_init(struct uet_fabric *fab)
{
	/* Lines of its own: every frame's route reads any_down, from
	 * every lcore, and a neighbour written by one would move the
	 * line between them. */
	struct fabric_links *L =
		aligned_alloc(_Alignof(struct fabric_links), sizeof(*L));

	if (L == NULL)
		return -ENOMEM;
	memset(L, 0, sizeof(*L));
	fab->links = L;
	return 0;
}

void fabric_links_fini(struct uet_fabric *fab)
{
	struct fabric_links *L = fab->links;

	if (L == NULL)
		return;
	free(L->down_bits);
	free(L->up_reach);
	free(L->occ_ports);
	free(L);
	fab->links = NULL;
}

int uet_fabric_link_find(const struct uet_fabric *fab, const char *name)
{
	if (fab == NULL || name == NULL)
		return -EINVAL;
	return fabric_topo_link_find(fab, name);
}

int uet_fabric_port_find(const struct uet_fabric *fab, const char *name)
{
	const char *colon;
	size_t sw_len;
	int port;

	if (fab == NULL || name == NULL)
		return -EINVAL;
	colon = strchr(name, ':');
	if (colon == NULL) {
		/* A link alone names a port only when one switch ends it. */
		port = uet_fabric_link_find(fab, name);
		if (port < 0 || fab->ports[port].peer >= 0)
			return -ENOENT;
		return port;
	}
	/* The end of the link that the named switch holds. */
	port = uet_fabric_link_find(fab, colon + 1);
	if (port < 0)
		return -ENOENT;
	sw_len = (size_t)(colon - name);
	for (;;) {
		const char *sw = fab->switches[fab->ports[port].sw].name;

		if (strlen(sw) == sw_len && strncmp(sw, name, sw_len) == 0)
			return port;
		if (fab->ports[port].peer < 0 || fab->ports[port].peer < port)
			return -ENOENT;
		port = fab->ports[port].peer;
	}
}

void uet_fabric_link_forms(const struct uet_fabric *fab, char *buf, size_t len)
{
	if (fab == NULL) {
		if (buf != NULL && len > 0)
			buf[0] = '\0';
		return;
	}
	uet_fabric_conf_link_forms(&fab->conf, buf, len);
}

int uet_fabric_conf_link_check(const struct uet_fabric_conf *conf,
			       const char *name)
{
	if (conf == NULL || name == NULL)
		return -EINVAL;
	return fabric_topo_conf_link_find(conf, name) < 0 ? -ENOENT : 0;
}

int uet_fabric_conf_port_check(const struct uet_fabric_conf *conf,
			       const char *name)
{
	if (conf == NULL || name == NULL)
		return -EINVAL;
	return fabric_topo_conf_port_find(conf, name) < 0 ? -ENOENT : 0;
}

void uet_fabric_conf_link_forms(const struct uet_fabric_conf *c, char *buf,
				size_t len)
{
	uint32_t half;

	if (buf == NULL || len == 0)
		return;
	if (c == NULL) {
		buf[0] = '\0';
		return;
	}
	half = c->k / 2;
	switch (c->topo) {
	case UET_FABRIC_TOPO_LEAF_SPINE:
		snprintf(buf, len,
			 "host0 .. host%u, or leafL-spineS with L 0 .. %u "
			 "and S 0 .. %u",
			 c->hosts - 1, c->leaves - 1, c->spines - 1);
		break;
	case UET_FABRIC_TOPO_FAT_TREE:
		snprintf(buf, len,
			 "host0 .. host%u, torE-aggA with E and A 0 .. %u "
			 "in one pod (E / %u = A / %u), or aggA-coreC with "
			 "C 0 .. %u and C / %u = A %% %u",
			 c->hosts - 1, c->k * half - 1, half, half,
			 half * half - 1, half, half);
		break;
	default:
		snprintf(buf, len, "host0 .. host%u", c->hosts - 1);
		break;
	}
}

/*
 * Rerouting asks whether a switch still reaches a host over links that
 * are up: one of its next hops towards the host is up and leads to a
 * switch that reaches it (up-down paths have no cycle). That is worked out
 * from the shape when asked, not kept per (switch, host): down from a
 * switch it is one chain of downlinks; up, a leaf-spine's spine is one
 * downlink from the host's leaf, and a fat tree's aggregation switch
 * reaches a host of another pod through any of its cores exactly when it
 * has an uplink up to a core whose downlink to that pod is up (kept per
 * aggregation switch and pod, up_reach) and the one aggregation switch of
 * that pod those cores lead to reaches the host. The runtime only asks
 * for the far end of an uplink (an aggregation switch, a core, a spine),
 * which costs a few bit tests.
 */

static bool link_is_down(const struct fabric_links *L, uint32_t port)
{
	return L->down_bits[port / 64u] >> (port % 64u) & 1u;
}

/* Fat tree: aggregation switch a is switch E + a, E = k^2 / 2. */
static bool link_is_fat_tree_agg(const struct uet_fabric *fab, uint32_t sw)
{
	const uint32_t E = fab->conf.k * (fab->conf.k / 2);

	return fab->conf.topo == UET_FABRIC_TOPO_FAT_TREE && sw >= E &&
	       sw < 2 * E;
}

static bool link_reach(const struct uet_fabric *fab, uint32_t sw, uint32_t h)
{
	const struct fabric_switch *s = &fab->switches[sw];
	const struct fabric_links *L = fab->links;
	const struct fabric_hop hop = fabric_switch_hop(s, h);
	uint32_t i;

	if (fabric_switch_below(s, h)) {
		const int32_t peer = fab->ports[hop.first].peer;

		return !link_is_down(L, hop.first) &&
		       (peer < 0 || link_reach(fab, fab->ports[peer].sw, h));
	}
	if (link_is_fat_tree_agg(fab, sw)) {
		const uint32_t k = fab->conf.k, half = k / 2, E = k * half;
		const uint32_t a = sw - E, pod = h / (half * half);

		/* Its cores' downlinks to the pod end at aggregation switch
		 * a % half of that pod. */
		return L->up_reach[(size_t)a * k + pod] != 0 &&
		       link_reach(fab, E + pod * half + a % half, h);
	}
	for (i = hop.first; i < hop.first + hop.count; i++)
		if (!link_is_down(L, i) &&
		    link_reach(fab, fab->ports[fab->ports[i].peer].sw, h))
			return true;
	return false;
}

/* Fat tree: up_reach of every aggregation switch and pod, afresh. */
static void link_up_reach_update(struct uet_fabric *fab)
{
	const uint32_t k = fab->conf.k, half = k / 2, E = k * half;
	const uint32_t agg_up = 3 * fab->conf.hosts;
	const uint32_t core_down = 4 * fab->conf.hosts;
	struct fabric_links *L = fab->links;
	uint32_t a, pod, j;

	for (a = 0; a < E; a++) {
		for (pod = 0; pod < k; pod++) {
			uint8_t yes = 0;

			/* Uplink j of a goes to core (a % half) half + j. */
			for (j = 0; j < half && !yes; j++)
				yes = !link_is_down(L, agg_up + a * half + j) &&
				      !link_is_down(
					      L, core_down +
							 (a % half * half + j) *
								 k +
							 pod);
			L->up_reach[(size_t)a * k + pod] = yes;
		}
	}
}

/* The bitmap of downed ports, made with the first failure that takes a
 * link down. */
static int link_down_bits(struct uet_fabric *fab)
{
	struct fabric_links *L = fab->links;

	if (L->down_bits != NULL)
		return 0;
	L->down_bits =
		calloc((fab->n_ports + 63u) / 64u, sizeof(*L->down_bits));
	return L->down_bits == NULL ? -ENOMEM : 0;
}

/* A link went down (its ports' bits are set): routing converges at
 * once. */
static int link_reach_update(struct uet_fabric *fab)
{
	struct fabric_links *L = fab->links;

	if (fab->conf.topo != UET_FABRIC_TOPO_FAT_TREE)
		return 0;
	if (L->up_reach == NULL) {
		L->up_reach = calloc((size_t)fab->conf.k * fab->conf.k *
					     (fab->conf.k / 2),
				     1);
		if (L->up_reach == NULL)
			return -ENOMEM;
	}
	link_up_reach_update(fab);
	return 0;
}

/* Port i still leads to host h: its link is up and the far switch
 * reaches h. */
static bool link_usable(const struct uet_fabric *fab, uint32_t i, uint32_t h)
{
	const struct fabric_port *p = &fab->ports[i];

	if (link_is_down(fab->links, i))
		return false;
	if (p->peer < 0)
		return true;
	return link_reach(fab, fab->ports[p->peer].sw, h);
}

uint32_t fabric_link_reroute(const struct uet_fabric *fab,
			     struct fabric_hop hop, uint32_t host,
			     uint32_t picked, uint64_t hash)
{
	uint32_t i, n = 0, k;

	/* Flows whose path still works keep it; only the others move. */
	if (link_usable(fab, picked, host))
		return picked;
	for (i = hop.first; i < hop.first + hop.count; i++)
		n += link_usable(fab, i, host);
	/* No way left: the frame goes where it was going, and is lost. */
	if (n == 0)
		return picked;
	k = (uint32_t)(((hash & UINT32_MAX) * n) >> 32);
	for (i = hop.first;; i++)
		if (link_usable(fab, i, host) && k-- == 0)
			return i;
}

/* The failure state of port, found among the few failed ones. */
static struct fabric_link *link_find_failed(const struct fabric_links *L,
					    uint32_t port)
{
	uint32_t i;

	for (i = 0; i < L->n_failed; i++)
		if (L->failed[i].port == port)
			return (struct fabric_link *)&L->failed[i];
	return NULL;
}

const struct fabric_link *fabric_link_of(const struct uet_fabric *fab,
					 uint32_t port)
{
	return fab->links == NULL ? NULL : link_find_failed(fab->links, port);
}

/* Port p's failure state, made at its link's first failure (so at its
 * nominal rate). Each failure names one link, two ports: there is room. */
static struct fabric_link *link_failed(struct uet_fabric *fab,
				       const struct fabric_port *p)
{
	struct fabric_links *L = fab->links;
	struct fabric_link *l = link_find_failed(L, p->id);

	if (l != NULL)
		return l;
	l = &L->failed[L->n_failed++];
	memset(l, 0, sizeof(*l));
	l->port = p->id;
	l->nominal_rate_bps = p->rate_bps;
	l->rate_ppm = (uint32_t)PPM_ONE;
	return l;
}

bool fabric_link_drop(struct uet_fabric *fab, struct fabric_port *p,
		      struct rte_mbuf *m, uint32_t wire_bytes, uint8_t dscp)
{
	struct fabric_link *l;
	unsigned int tc;

	/* The common case, no link down, costs one test per frame. */
	if (!fab->links->any_down || !link_is_down(fab->links, p->id))
		return false;
	l = link_find_failed(fab->links, p->id);
	tc = uet_dscp_class(fab->conf.uet_policy, &fab->conf.dscp, dscp);
	l->down_drop_frames[tc]++;
	l->down_drop_bytes[tc] += wire_bytes;
	rte_pktmbuf_free(m);
	return true;
}

/* The link of port p goes down: what it holds is lost, the frame on the
 * wire included, each counted in the class it was queued in. */
static void link_down_port(struct uet_fabric *fab, struct fabric_port *p)
{
	struct fabric_link *l = link_failed(fab, p);
	struct fabric_links *L = fab->links;
	struct fabric_entry e;
	unsigned int tc;

	l->down = true;
	L->down_bits[p->id / 64u] |= UINT64_C(1) << (p->id % 64u);
	if (uet_event_pending(&p->tx_end_ev))
		(void)uet_evq_cancel(fabric_port_evq(p), &p->tx_end_ev);
	for (tc = 0; tc < UET_FABRIC_TCS; tc++) {
		struct fabric_tcq *cq = p->tcq[tc];

		while (!fabric_fifo_empty(&cq->fifo)) {
			fabric_fifo_pop(&cq->fifo, &e);
			fabric_occ_change(p, tc);
			cq->queue_bytes -= e.wire_bytes;
			p->queue_bytes -= e.wire_bytes;
			l->down_drop_frames[tc]++;
			l->down_drop_bytes[tc] += e.wire_bytes;
			rte_pktmbuf_free(e.m);
		}
	}
	p->backlog &= (uint16_t)FABRIC_BACKLOG_PFC;
}

/* A byte threshold scaled by the fraction ppm of a link's rate (rounded
 * down), so that it stands for the same queueing time. */
static uint64_t link_scaled_bytes(uint64_t bytes, uint32_t ppm)
{
	if (ppm >= PPM_ONE)
		return bytes;
	/* Thresholds are at most 1 GiB (the configuration's bound), so
	 * bytes x ppm fits 64 bits. */
	return bytes * ppm / PPM_ONE;
}

void fabric_link_apply_limits(struct fabric_port *p)
{
	const struct uet_fabric *fab = fabric_port_fab(p);
	const struct fabric_link *l = fabric_link_of(fab, p->id);
	const uint32_t ppm = l == NULL ? (uint32_t)PPM_ONE : l->rate_ppm;
	uint64_t limit, kmin, kmax;

	fabric_port_nominal_limits(
		&fab->conf, l == NULL ? p->rate_bps : l->nominal_rate_bps,
		&limit, &kmin, &kmax);
	p->limit_bytes = link_scaled_bytes(limit, ppm);
	p->ecn_kmin_applied = link_scaled_bytes(kmin, ppm);
	p->ecn_kmax_applied = link_scaled_bytes(kmax, ppm);
}

/*
 * The rate of port p becomes rate_ppm of its nominal one, and its buffer
 * and ECN thresholds with it: a port holds the same time of traffic, not
 * the same bytes (the reference simulator gives a degraded link a quarter
 * of its speed and a quarter of its queue; a switch sets its buffer and
 * marking profile by port speed).
 */
static void link_degrade_port(struct uet_fabric *fab, struct fabric_port *p,
			      uint32_t rate_ppm)
{
	struct fabric_link *l = link_failed(fab, p);
	/* 1.6 Tbps x 1,000,000 fits 64 bits. */
	const uint64_t bps = l->nominal_rate_bps * rate_ppm / PPM_ONE;

	p->rate_bps = bps != 0 ? bps : 1;
	l->rate_ppm = rate_ppm;
	fabric_link_apply_limits(p);
}

static int link_apply(struct uet_fabric *fab, const struct fabric_failure *ff)
{
	struct fabric_port *p = &fab->ports[ff->f.port];
	int ret;

	if (!ff->f.down) {
		link_degrade_port(fab, p, ff->f.rate_ppm);
		if (p->peer >= 0)
			link_degrade_port(fab, &fab->ports[p->peer],
					  ff->f.rate_ppm);
		return 0;
	}
	ret = link_down_bits(fab);
	if (ret < 0)
		return ret;
	link_down_port(fab, p);
	if (p->peer >= 0)
		link_down_port(fab, &fab->ports[p->peer]);
	fab->links->any_down = true;
	return link_reach_update(fab);
}

int fabric_links_apply(struct uet_fabric *fab, uet_time_t t)
{
	struct fabric_links *L = fab->links;
	uint32_t i;
	int ret;

	/* In the order they were added, those due by t: a window starts at
	 * every failure's time, before any event of that time runs. */
	for (i = 0; i < L->n_failures; i++) {
		struct fabric_failure *ff = &L->failures[i];

		if (ff->applied || ff->f.at_ps > t)
			continue;
		ff->applied = true;
		ret = link_apply(fab, ff);
		if (ret < 0) {
			if (fab->error == 0)
				fab->error = ret;
			return ret;
		}
	}
	return 0;
}

uet_time_t fabric_links_next_ps(const struct uet_fabric *fab, uet_time_t t)
{
	const struct fabric_links *L = fab->links;
	uet_time_t next = UET_TIME_NEVER;
	uint32_t i;

	for (i = 0; L != NULL && i < L->n_failures; i++)
		if (!L->failures[i].applied && L->failures[i].f.at_ps > t &&
		    L->failures[i].f.at_ps < next)
			next = L->failures[i].f.at_ps;
	return next;
}

int uet_fabric_add_failure(struct uet_fabric *fab,
			   const struct uet_fabric_failure *f)
{
	struct fabric_links *L;
	struct fabric_failure *ff;

	if (fab == NULL || f == NULL || f->port >= fab->n_ports ||
	    f->at_ps < fab->parts[0].evq.now_ps ||
	    (!f->down && (f->rate_ppm == 0 || f->rate_ppm > PPM_ONE)))
		return -EINVAL;
	L = fab->links;
	if (L->n_failures == UET_FABRIC_FAILURES_MAX)
		return -ENOSPC;
	ff = &L->failures[L->n_failures++];
	ff->f = *f;
	ff->applied = false;
	return 0;
}
