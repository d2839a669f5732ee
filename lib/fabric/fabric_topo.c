/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The shape of the fabric: its switches, the ports of each (hosts' ports
 * first, then both ends of every link between switches), the links' rates
 * and delays, and the numbers each switch routes by (struct fabric_switch:
 * the hosts below it and its downlinks, its uplinks). One switch, a
 * two-tier leaf-spine or a three-tier k-ary fat tree.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_private.h"

/* Rate of a tier, 0 meaning the hosts' link rate. */
static uint64_t topo_rate(const struct uet_fabric_conf *c, uint64_t rate)
{
	return rate != 0 ? rate : c->link_rate_bps;
}

static int topo_alloc(struct uet_fabric *fab, uint32_t n_switches,
		      uint32_t n_ports)
{
	uint32_t s;

	fab->switches = calloc(n_switches, sizeof(*fab->switches));
	/* Cache-line aligned: a port's layout keeps what a frame touches
	 * in a few lines (fabric_private.h). */
	fab->ports = aligned_alloc(_Alignof(struct fabric_port),
				   (size_t)n_ports * sizeof(*fab->ports));
	if (fab->switches == NULL || fab->ports == NULL)
		return -ENOMEM;
	memset(fab->ports, 0, (size_t)n_ports * sizeof(*fab->ports));
	fab->n_switches = n_switches;
	fab->n_ports = n_ports;
	for (s = 0; s < n_switches; s++) {
		struct uet_rng r;

		uet_rng_seed(&r, fab->conf.seed,
			     UET_FABRIC_SALT_RNG_STREAM + s);
		fab->switches[s].salt = uet_rng_u64(&r);
	}
	return 0;
}

/* Host h's port, on switch sw. */
static void topo_host_port(struct uet_fabric *fab, uint32_t h, uint32_t sw)
{
	struct fabric_port *p = &fab->ports[h];

	p->sw = sw;
	p->peer = -1;
	p->rate_bps = fab->conf.link_rate_bps;
	p->delay_ps = fab->conf.link_delay_ps;
	p->faces_nic = true;
}

/* A link between switch ports a (on sa) and b (on sb). */
static void topo_link(struct uet_fabric *fab, uint32_t a, uint32_t sa,
		      uint32_t b, uint32_t sb, uint64_t rate_bps,
		      uet_time_t delay_ps)
{
	struct fabric_port *pa = &fab->ports[a];
	struct fabric_port *pb = &fab->ports[b];

	pa->sw = sa;
	pb->sw = sb;
	pa->peer = (int32_t)b;
	pb->peer = (int32_t)a;
	pa->rate_bps = rate_bps;
	pb->rate_bps = rate_bps;
	pa->delay_ps = delay_ps;
	pb->delay_ps = delay_ps;
}

/* Switch sw's routes: hosts host_lo.. host_lo + span - 1 below it, down
 * port down_first + (host - host_lo) / per_down; up_count uplinks from
 * up_first for the others. */
static void topo_routes(struct uet_fabric *fab, uint32_t sw, uint32_t host_lo,
			uint32_t span, uint32_t down_first, uint32_t per_down,
			uint32_t up_first, uint32_t up_count)
{
	struct fabric_switch *s = &fab->switches[sw];

	s->host_lo = host_lo;
	s->host_span = span;
	s->down_first = down_first;
	s->down_recip = fabric_div_recip(per_down);
	s->up_first = up_first;
	s->up_count = up_count;
}

static int topo_single(struct uet_fabric *fab)
{
	const uint32_t hosts = fab->conf.hosts;
	uint32_t h;
	int ret = topo_alloc(fab, 1, hosts);

	if (ret < 0)
		return ret;
	snprintf(fab->switches[0].name, sizeof(fab->switches[0].name),
		 "switch");
	for (h = 0; h < hosts; h++)
		topo_host_port(fab, h, 0);
	/* Every host below it, host h on port h. */
	topo_routes(fab, 0, 0, hosts, 0, 1, 0, 0);
	return 0;
}

/*
 * Leaves 0..L-1 are switches 0..L-1, spines switches L..L+S-1. Host h is
 * under leaf h / H. Leaf l's uplink to spine s is port hosts + l*S + s (a
 * leaf's uplinks are consecutive), spine s's downlink to leaf l is port
 * hosts + L*S + s*L + l.
 */
static int topo_leaf_spine(struct uet_fabric *fab)
{
	const struct uet_fabric_conf *c = &fab->conf;
	const uint32_t L = c->leaves, S = c->spines, H = c->hosts_per_leaf;
	const uint32_t hosts = c->hosts;
	const uint32_t down0 = hosts + L * S;
	uint32_t l, s, h;
	int ret;

	if (L == 0 || S == 0 || H == 0 || (uint64_t)L * H != hosts ||
	    (uint64_t)hosts + 2ull * L * S > FABRIC_PORTS_MAX)
		return -EINVAL;
	ret = topo_alloc(fab, L + S, hosts + 2 * L * S);
	if (ret < 0)
		return ret;
	for (l = 0; l < L; l++)
		snprintf(fab->switches[l].name, sizeof(fab->switches[l].name),
			 "leaf%u", l);
	for (s = 0; s < S; s++)
		snprintf(fab->switches[L + s].name,
			 sizeof(fab->switches[L + s].name), "spine%u", s);
	for (h = 0; h < hosts; h++)
		topo_host_port(fab, h, h / H);
	for (l = 0; l < L; l++)
		for (s = 0; s < S; s++)
			topo_link(fab, hosts + l * S + s, l, down0 + s * L + l,
				  L + s, topo_rate(c, c->tier1_rate_bps),
				  c->tier1_delay_ps);
	/* A leaf: its H hosts on their own ports, the others over its S
	 * uplinks; a spine: every host, over the downlink to its leaf. */
	for (l = 0; l < L; l++)
		topo_routes(fab, l, l * H, H, l * H, 1, hosts + l * S, S);
	for (s = 0; s < S; s++)
		topo_routes(fab, L + s, 0, hosts, down0 + s * L, H, 0, 0);
	return 0;
}

/*
 * A k-ary fat tree, half = k / 2: k pods of half rack (tor) and half
 * aggregation switches, half^2 cores; half hosts per tor, k^3/4 hosts.
 * Switches: tors 0..E-1 (E = k * half, tor e in pod e / half), aggs
 * E..2E-1 (agg a likewise), cores 2E... Ports after the hosts' (E * half
 * = hosts in each block): tor e's uplink j (to agg j of its pod), agg a's
 * downlink i (to tor i of its pod), agg a's uplink j (to core
 * (a % half) * half + j), core c's downlink p (to pod p); uplinks of a
 * switch are consecutive.
 */
static int topo_fat_tree(struct uet_fabric *fab)
{
	const struct uet_fabric_conf *c = &fab->conf;
	const uint32_t k = c->k, half = c->k / 2;
	const uint32_t hosts = c->hosts, E = k * half, C = half * half;
	const uint32_t tor_up = hosts, agg_down = 2 * hosts;
	const uint32_t agg_up = 3 * hosts, core_down = 4 * hosts;
	const uint32_t pod_hosts = half * half;
	uint32_t e, a, j, cc, h;
	int ret;

	/* hosts is within the address plan (uet_fabric_create), so the
	 * 5 x hosts ports are too: k = 80 gives 640,000. */
	if (k < 2 || k % 2 != 0 || (uint64_t)k * k * k / 4 != hosts)
		return -EINVAL;
	ret = topo_alloc(fab, 2 * E + C, 5 * hosts);
	if (ret < 0)
		return ret;
	for (e = 0; e < E; e++) {
		snprintf(fab->switches[e].name, sizeof(fab->switches[e].name),
			 "tor%u", e);
		snprintf(fab->switches[E + e].name,
			 sizeof(fab->switches[E + e].name), "agg%u", e);
	}
	for (cc = 0; cc < C; cc++)
		snprintf(fab->switches[2 * E + cc].name,
			 sizeof(fab->switches[2 * E + cc].name), "core%u", cc);
	for (h = 0; h < hosts; h++)
		topo_host_port(fab, h, h / half);
	for (e = 0; e < E; e++) {
		for (j = 0; j < half; j++) {
			a = e / half * half + j;
			topo_link(fab, tor_up + e * half + j, e,
				  agg_down + a * half + e % half, E + a,
				  topo_rate(c, c->tier1_rate_bps),
				  c->tier1_delay_ps);
		}
	}
	for (a = 0; a < E; a++) {
		for (j = 0; j < half; j++) {
			cc = a % half * half + j;
			topo_link(fab, agg_up + a * half + j, E + a,
				  core_down + cc * k + a / half, 2 * E + cc,
				  topo_rate(c, c->tier2_rate_bps),
				  c->tier2_delay_ps);
		}
	}
	/* A tor: its half hosts on their own ports, the others over its
	 * half uplinks; an aggregation switch: its pod's hosts over the
	 * downlink to their tor, the others over its half uplinks; a core:
	 * every host, over the downlink to its pod. */
	for (e = 0; e < E; e++)
		topo_routes(fab, e, e * half, half, e * half, 1,
			    tor_up + e * half, half);
	for (a = 0; a < E; a++)
		topo_routes(fab, E + a, a / half * pod_hosts, pod_hosts,
			    agg_down + a * half, half, agg_up + a * half, half);
	for (cc = 0; cc < C; cc++)
		topo_routes(fab, 2 * E + cc, 0, hosts, core_down + cc * k,
			    pod_hosts, 0, 0);
	return 0;
}

int fabric_topo_build(struct uet_fabric *fab)
{
	switch (fab->conf.topo) {
	case UET_FABRIC_TOPO_SINGLE:
		return topo_single(fab);
	case UET_FABRIC_TOPO_LEAF_SPINE:
		return topo_leaf_spine(fab);
	case UET_FABRIC_TOPO_FAT_TREE:
		return topo_fat_tree(fab);
	}
	return -EINVAL;
}

void fabric_topo_free(struct uet_fabric *fab)
{
	free(fab->switches);
	fab->switches = NULL;
	fab->n_switches = 0;
}

/*
 * Link names, made from the shape rather than kept per port: "hostH",
 * "leafL-spineS", "torE-aggA", "aggA-coreC", the lower tier first, both
 * ends of a link under one name. Ports after the hosts' come in blocks
 * (fabric_topo_build): a leaf-spine's leaf uplinks then spine downlinks;
 * a fat tree's tor uplinks, aggregation downlinks, aggregation uplinks,
 * core downlinks, each block as many as the hosts.
 */
void fabric_topo_link_name(const struct uet_fabric *fab, uint32_t port,
			   char *buf, size_t len)
{
	const struct uet_fabric_conf *c = &fab->conf;
	const uint32_t hosts = c->hosts;

	if (port < hosts || port >= fab->n_ports) {
		snprintf(buf, len, "host%u", port);
		return;
	}
	if (c->topo == UET_FABRIC_TOPO_LEAF_SPINE) {
		const uint32_t L = c->leaves, S = c->spines;
		const uint32_t up = port - hosts, down = up - L * S;

		if (up < L * S)
			snprintf(buf, len, "leaf%u-spine%u", up / S, up % S);
		else
			snprintf(buf, len, "leaf%u-spine%u", down % L,
				 down / L);
		return;
	}
	if (c->topo == UET_FABRIC_TOPO_FAT_TREE) {
		const uint32_t k = c->k, half = k / 2;
		const uint32_t block = port / hosts, i = port % hosts;
		const uint32_t sw = i / (block == 4 ? k : half);
		const uint32_t j = i % (block == 4 ? k : half);

		switch (block) {
		case 1: /* tor sw's uplink j, to aggregation switch j */
			snprintf(buf, len, "tor%u-agg%u", sw,
				 sw / half * half + j);
			return;
		case 2: /* aggregation switch sw's downlink j, to tor j */
			snprintf(buf, len, "tor%u-agg%u", sw / half * half + j,
				 sw);
			return;
		case 3: /* aggregation switch sw's uplink j */
			snprintf(buf, len, "agg%u-core%u", sw,
				 sw % half * half + j);
			return;
		default: /* core sw's downlink to pod j */
			snprintf(buf, len, "agg%u-core%u", j * half + sw / half,
				 sw);
			return;
		}
	}
	snprintf(buf, len, "host%u", port);
}

/* Take word from the front of *s. */
static bool topo_name_word(const char **s, const char *word)
{
	const size_t n = strlen(word);

	if (strncmp(*s, word, n) != 0)
		return false;
	*s += n;
	return true;
}

/* Take a number from the front of *s, written as the names write it:
 * decimal digits, no sign, no leading zero, below 2^32. */
static bool topo_name_uint(const char **s, uint32_t *v)
{
	const char *p = *s;
	uint64_t n = 0;

	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1] >= '0' && p[1] <= '9'))
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10u + (uint64_t)(*p - '0');
		if (n > UINT32_MAX)
			return false;
	}
	*v = (uint32_t)n;
	*s = p;
	return true;
}

/* name is word1, a number, word2, a number and nothing after. */
static bool topo_name_pair(const char *name, const char *word1, uint32_t *a,
			   const char *word2, uint32_t *b)
{
	return topo_name_word(&name, word1) && topo_name_uint(&name, a) &&
	       topo_name_word(&name, word2) && topo_name_uint(&name, b) &&
	       *name == '\0';
}

int fabric_topo_link_find(const struct uet_fabric *fab, const char *name)
{
	return fabric_topo_conf_link_find(&fab->conf, name);
}

int fabric_topo_conf_link_find(const struct uet_fabric_conf *c,
			       const char *name)
{
	const char *rest = name;
	uint32_t a, b;

	if (topo_name_word(&rest, "host") && topo_name_uint(&rest, &a) &&
	    *rest == '\0')
		return a < c->hosts ? (int)a : -ENOENT;
	if (c->topo == UET_FABRIC_TOPO_LEAF_SPINE &&
	    topo_name_pair(name, "leaf", &a, "-spine", &b) && a < c->leaves &&
	    b < c->spines)
		return (int)(c->hosts + a * c->spines + b);
	if (c->topo == UET_FABRIC_TOPO_FAT_TREE) {
		const uint32_t half = c->k / 2, E = c->k * half;

		/* A tor to an aggregation switch of its pod; an aggregation
		 * switch to a core of its group. */
		if (topo_name_pair(name, "tor", &a, "-agg", &b) && a < E &&
		    b < E && a / half == b / half)
			return (int)(c->hosts + a * half + b % half);
		if (topo_name_pair(name, "agg", &a, "-core", &b) && a < E &&
		    b < half * half && b / half == a % half)
			return (int)(3 * c->hosts + a * half + b % half);
	}
	return -ENOENT;
}

/*
 * Whether switch sw (its name, e.g. "leaf2") holds an end of the link
 * whose lower-tier port is port and whose name is link. A link between
 * switches is named after both ("leafL-spineS"); a host's link ends at
 * the one switch the host is under.
 */
static bool topo_conf_link_end(const struct uet_fabric_conf *c, uint32_t port,
			       const char *link, const char *sw, size_t sw_len)
{
	const char *dash = strchr(link, '-');
	char host_sw[16];

	if (port >= c->hosts) {
		const bool lower = dash != NULL &&
				   (size_t)(dash - link) == sw_len &&
				   strncmp(link, sw, sw_len) == 0;
		const bool upper = dash != NULL && strlen(dash + 1) == sw_len &&
				   strncmp(dash + 1, sw, sw_len) == 0;

		return lower || upper;
	}
	/* A shape that cannot be built (checked by uet_fabric_create())
	 * has no host under a switch. */
	switch (c->topo) {
	case UET_FABRIC_TOPO_LEAF_SPINE:
		if (c->hosts_per_leaf == 0)
			return false;
		snprintf(host_sw, sizeof(host_sw), "leaf%u",
			 port / c->hosts_per_leaf);
		break;
	case UET_FABRIC_TOPO_FAT_TREE:
		if (c->k < 2)
			return false;
		snprintf(host_sw, sizeof(host_sw), "tor%u", port / (c->k / 2));
		break;
	default:
		snprintf(host_sw, sizeof(host_sw), "switch");
		break;
	}
	return strlen(host_sw) == sw_len && strncmp(host_sw, sw, sw_len) == 0;
}

int fabric_topo_conf_port_find(const struct uet_fabric_conf *c,
			       const char *name)
{
	const char *colon = strchr(name, ':');
	int port;

	if (colon == NULL) {
		/* A link alone names a port only when one switch ends it. */
		port = fabric_topo_conf_link_find(c, name);
		return port >= 0 && (uint32_t)port < c->hosts ? port : -ENOENT;
	}
	port = fabric_topo_conf_link_find(c, colon + 1);
	if (port < 0 || !topo_conf_link_end(c, (uint32_t)port, colon + 1, name,
					    (size_t)(colon - name)))
		return -ENOENT;
	return port;
}
