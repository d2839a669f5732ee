/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Routes from the shape: on small fabrics of each kind, for every switch
 * and every host, the port the fabric picks is the one the shape's
 * definition gives. The expected next hops are worked out here, from the
 * wiring docs/fabric.md describes and the shortest paths over it (not by
 * the fabric's code): the equal-cost ports are consecutive, and the flow
 * hash with the switch's salt picks among them. With links down, the
 * reroute is checked against the reach the definition gives (a switch
 * reaches a host if one of its next hops is up and its far end reaches
 * it), worked out by search here. A k = 64 fat tree, past the 16-bit
 * port numbers, takes a frame from host 0 to host 65,535 over the five
 * switches the shape gives.
 */
#include <errno.h>
#include <stdlib.h>

#include "fabric_test.h"
#include "uet_rng.h"

/* Entropies tried per (switch, host). */
#define SH_ENTROPIES 8u
/* Far more than a path's switches: unreachable. */
#define SH_FAR UINT32_MAX

/* The wiring of a shape as docs/fabric.md numbers its ports. */
struct sh_model {
	uint32_t hosts, n_sw, n_ports;
	uint32_t *port_sw;     /* switch of each port */
	int32_t *peer;	       /* the port at the far end, -1: a host */
	uint32_t *rack;	       /* switch holding host h's port */
	bool *down;	       /* by port: its link is down */
	uint64_t *salt;	       /* each switch's salt */
	uint32_t *dist;	       /* scratch: switch hops to a rack */
	uint8_t *reach;	       /* scratch: 0 unknown, 1 yes, 2 no */
	uint32_t first, count; /* next hops of the last sh_hops() */
	char (*sw_name)[16];   /* each switch's name */
	char (*link)[32];      /* each port's link's name */
};

static void sh_alloc(struct sh_model *m, uint32_t hosts, uint32_t n_sw,
		     uint32_t n_ports, uint64_t seed)
{
	uint32_t s;

	m->hosts = hosts;
	m->n_sw = n_sw;
	m->n_ports = n_ports;
	m->port_sw = calloc(n_ports, sizeof(*m->port_sw));
	m->peer = calloc(n_ports, sizeof(*m->peer));
	m->rack = calloc(hosts, sizeof(*m->rack));
	m->down = calloc(n_ports, sizeof(*m->down));
	m->salt = calloc(n_sw, sizeof(*m->salt));
	m->dist = calloc(n_sw, sizeof(*m->dist));
	m->reach = calloc(n_sw, sizeof(*m->reach));
	m->sw_name = calloc(n_sw, sizeof(*m->sw_name));
	m->link = calloc(n_ports, sizeof(*m->link));
	ck_assert(m->port_sw && m->peer && m->rack && m->down && m->salt &&
		  m->dist && m->reach && m->sw_name && m->link);
	for (s = 0; s < n_sw; s++) {
		struct uet_rng r;

		uet_rng_seed(&r, seed, UET_FABRIC_SALT_RNG_STREAM + s);
		m->salt[s] = uet_rng_u64(&r);
	}
}

static void sh_free(struct sh_model *m)
{
	free(m->port_sw);
	free(m->peer);
	free(m->rack);
	free(m->down);
	free(m->salt);
	free(m->dist);
	free(m->reach);
	free(m->sw_name);
	free(m->link);
}

static void sh_host(struct sh_model *m, uint32_t h, uint32_t sw)
{
	m->port_sw[h] = sw;
	m->peer[h] = -1;
	m->rack[h] = sw;
	snprintf(m->link[h], sizeof(m->link[h]), "host%u", h);
}

/* A link from port a of switch sa (the lower tier) to port b of sb. */
static void sh_link(struct sh_model *m, uint32_t a, uint32_t sa, uint32_t b,
		    uint32_t sb)
{
	m->port_sw[a] = sa;
	m->port_sw[b] = sb;
	m->peer[a] = (int32_t)b;
	m->peer[b] = (int32_t)a;
	snprintf(m->link[a], sizeof(m->link[a]), "%s-%s", m->sw_name[sa],
		 m->sw_name[sb]);
	memcpy(m->link[b], m->link[a], sizeof(m->link[b]));
}

static void sh_name(struct sh_model *m, uint32_t sw, const char *kind,
		    uint32_t i)
{
	snprintf(m->sw_name[sw], sizeof(m->sw_name[sw]), "%s%u", kind, i);
}

static void sh_single(struct sh_model *m, uint32_t hosts, uint64_t seed)
{
	uint32_t h;

	sh_alloc(m, hosts, 1, hosts, seed);
	snprintf(m->sw_name[0], sizeof(m->sw_name[0]), "switch");
	for (h = 0; h < hosts; h++)
		sh_host(m, h, 0);
}

/* Leaves 0..L-1, spines L..; leaf l's uplink to spine s is port
 * hosts + l S + s, spine s's downlink to leaf l hosts + L S + s L + l. */
static void sh_leaf_spine(struct sh_model *m, uint32_t L, uint32_t S,
			  uint32_t H, uint64_t seed)
{
	const uint32_t hosts = L * H;
	uint32_t h, l, s;

	sh_alloc(m, hosts, L + S, hosts + 2 * L * S, seed);
	for (l = 0; l < L; l++)
		sh_name(m, l, "leaf", l);
	for (s = 0; s < S; s++)
		sh_name(m, L + s, "spine", s);
	for (h = 0; h < hosts; h++)
		sh_host(m, h, h / H);
	for (l = 0; l < L; l++)
		for (s = 0; s < S; s++)
			sh_link(m, hosts + l * S + s, l,
				hosts + L * S + s * L + l, L + s);
}

/* Tors 0..E-1 (tor e in pod e / half), aggs E..2E-1, cores 2E..; after
 * the hosts' ports: tor e's uplink j to agg j of its pod, agg a's
 * downlink i to tor i of its pod, agg a's uplink j to core
 * (a % half) half + j, core c's downlink p to pod p. */
static void sh_fat_tree(struct sh_model *m, uint32_t k, uint64_t seed)
{
	const uint32_t half = k / 2, E = k * half, hosts = k * half * half;
	uint32_t h, e, a, j;

	sh_alloc(m, hosts, 2 * E + half * half, 5 * hosts, seed);
	for (e = 0; e < E; e++) {
		sh_name(m, e, "tor", e);
		sh_name(m, E + e, "agg", e);
	}
	for (j = 0; j < half * half; j++)
		sh_name(m, 2 * E + j, "core", j);
	for (h = 0; h < hosts; h++)
		sh_host(m, h, h / half);
	for (e = 0; e < E; e++)
		for (j = 0; j < half; j++) {
			a = e / half * half + j;
			sh_link(m, hosts + e * half + j, e,
				2 * hosts + a * half + e % half, E + a);
		}
	for (a = 0; a < E; a++)
		for (j = 0; j < half; j++) {
			const uint32_t c = a % half * half + j;

			sh_link(m, 3 * hosts + a * half + j, E + a,
				4 * hosts + c * k + a / half, 2 * E + c);
		}
}

/* Switch hops from every switch to the rack switch r (breadth first over
 * every link, up or not). */
static void sh_dist(struct sh_model *m, uint32_t r)
{
	bool more = true;
	uint32_t s, p, d;

	for (s = 0; s < m->n_sw; s++)
		m->dist[s] = SH_FAR;
	m->dist[r] = 0;
	for (d = 0; more; d++) {
		more = false;
		for (p = 0; p < m->n_ports; p++) {
			uint32_t far;

			if (m->peer[p] < 0 || m->dist[m->port_sw[p]] != d)
				continue;
			far = m->port_sw[m->peer[p]];
			if (m->dist[far] == SH_FAR) {
				m->dist[far] = d + 1;
				more = true;
			}
		}
	}
}

/* The next hops of switch sw towards host h (sh_dist of h's rack done):
 * h's port at its rack, else every port one switch nearer; they must be
 * consecutive. Sets m->first and m->count. */
static void sh_hops(struct sh_model *m, uint32_t sw, uint32_t h)
{
	uint32_t p, last = 0;

	m->count = 0;
	if (sw == m->rack[h]) {
		m->first = h;
		m->count = 1;
		return;
	}
	for (p = 0; p < m->n_ports; p++) {
		if (m->port_sw[p] != sw || m->peer[p] < 0 ||
		    m->dist[m->port_sw[m->peer[p]]] + 1 != m->dist[sw])
			continue;
		if (m->count == 0)
			m->first = p;
		else
			ck_assert_uint_eq(p, last + 1);
		last = p;
		m->count++;
	}
	ck_assert_uint_gt(m->count, 0);
}

/* Whether switch sw reaches host h over links that are up: one of its
 * next hops is up and leads to h (m->reach cleared for h). */
static bool sh_reach(struct sh_model *m, uint32_t sw, uint32_t h)
{
	uint32_t first, count, p;
	bool yes = false;

	if (m->reach[sw] != 0)
		return m->reach[sw] == 1;
	sh_hops(m, sw, h);
	first = m->first;
	count = m->count;
	for (p = first; p < first + count && !yes; p++)
		yes = !m->down[p] && (m->peer[p] < 0 ||
				      sh_reach(m, m->port_sw[m->peer[p]], h));
	m->reach[sw] = yes ? 1 : 2;
	return yes;
}

static bool sh_usable(struct sh_model *m, uint32_t p, uint32_t h)
{
	return !m->down[p] &&
	       (m->peer[p] < 0 || sh_reach(m, m->port_sw[m->peer[p]], h));
}

/*
 * The port switch sw sends flow f (to host h) out of (sh_dist and a
 * clear m->reach for h done): the hash's pick
 * among its next hops; with links down (reroute), the pick if it still
 * leads to h, else the low half of the hash among those that do, else
 * the pick.
 */
static uint32_t sh_pick(struct sh_model *m, uint32_t sw, uint32_t h,
			const struct uet_fabric_flow *f, bool reroute)
{
	uint64_t hash;
	uint32_t first, count, picked, n = 0, k, p;

	sh_hops(m, sw, h);
	first = m->first;
	count = m->count;
	if (count == 1)
		return first;
	hash = uet_fabric_flow_hash(f, m->salt[sw]);
	picked = first + (uint32_t)(((hash >> 32) * count) >> 32);
	if (!reroute || sh_usable(m, picked, h))
		return picked;
	for (p = first; p < first + count; p++)
		n += sh_usable(m, p, h);
	if (n == 0)
		return picked;
	k = (uint32_t)(((hash & UINT32_MAX) * n) >> 32);
	for (p = first;; p++)
		if (sh_usable(m, p, h) && k-- == 0)
			return p;
}

/* The fabric's wiring is the model's, port by port, names included: a
 * link is found by its name at its lower-tier end (the lower port), a
 * port by its switch's name and its link's. */
static void sh_check_wiring(const struct uet_fabric *fab,
			    const struct sh_model *m)
{
	struct uet_fabric_port_info info;
	char name[64];
	uint32_t p;

	ck_assert_uint_eq(uet_fabric_switch_count(fab), m->n_sw);
	ck_assert_uint_eq(uet_fabric_port_count(fab), m->n_ports);
	for (p = 0; p < m->n_ports; p++) {
		const uint32_t lower =
			m->peer[p] >= 0 && (uint32_t)m->peer[p] < p
				? (uint32_t)m->peer[p]
				: p;

		ck_assert_int_eq(uet_fabric_port_info(fab, p, &info), 0);
		ck_assert_uint_eq(info.sw, m->port_sw[p]);
		ck_assert_int_eq(info.peer, m->peer[p]);
		ck_assert_int_eq(info.host, m->peer[p] < 0 ? (int32_t)p : -1);
		ck_assert_str_eq(info.switch_name, m->sw_name[m->port_sw[p]]);
		ck_assert_str_eq(info.link_name, m->link[p]);
		ck_assert_int_eq(uet_fabric_link_find(fab, m->link[p]),
				 (int)lower);
		snprintf(name, sizeof(name), "%s:%s", m->sw_name[m->port_sw[p]],
			 m->link[p]);
		ck_assert_int_eq(uet_fabric_port_find(fab, name), (int)p);
		ck_assert_int_eq(uet_fabric_port_find(fab, m->link[p]),
				 m->peer[p] < 0 ? (int)p : -ENOENT);
	}
}

/* Every switch, every host, SH_ENTROPIES flows each: the fabric's port
 * is the model's. */
static void sh_check_routes(const struct uet_fabric *fab, struct sh_model *m,
			    bool reroute)
{
	uint32_t sw, h, i;

	for (h = 0; h < m->hosts; h++) {
		sh_dist(m, m->rack[h]);
		memset(m->reach, 0, m->n_sw);
		for (sw = 0; sw < m->n_sw; sw++) {
			for (i = 0; i < SH_ENTROPIES; i++) {
				const uint32_t src = (h + 1 + i) % m->hosts;
				const struct uet_fabric_flow f = ft_flow(
					src, h, (uint16_t)(i * 7919 + sw));

				ck_assert_int_eq(
					uet_fabric_next_port(fab, sw, &f),
					(int)sh_pick(m, sw, h, &f, reroute));
			}
		}
	}
}

static void sh_check(struct sh_model *m, const struct uet_fabric_conf *c)
{
	struct uet_fabric *fab = NULL;

	ck_assert_int_eq(uet_fabric_create(&fab, c), 0);
	sh_check_wiring(fab, m);
	sh_check_routes(fab, m, false);
	uet_fabric_destroy(fab);
	sh_free(m);
}

START_TEST(test_routes_follow_the_single_switch)
{
	struct uet_fabric_conf c;
	struct sh_model m;

	uet_test_eal("uetfab", "shape_single");
	ft_conf(&c);
	c.hosts = 6;
	sh_single(&m, 6, c.seed);
	sh_check(&m, &c);
}
END_TEST

START_TEST(test_routes_follow_the_leaf_spine)
{
	struct uet_fabric_conf c;
	struct sh_model m;

	uet_test_eal("uetfab", "shape_leaf_spine");
	ft_conf_leaf_spine(&c, 4, 2, 4);
	sh_leaf_spine(&m, 4, 2, 4, c.seed);
	sh_check(&m, &c);
	ft_conf_leaf_spine(&c, 3, 5, 2);
	c.seed = 7;
	sh_leaf_spine(&m, 3, 5, 2, c.seed);
	sh_check(&m, &c);
}
END_TEST

START_TEST(test_routes_follow_the_fat_tree)
{
	static const uint32_t ks[] = {4, 6, 8};
	struct uet_fabric_conf c;
	struct sh_model m;
	unsigned int i;

	uet_test_eal("uetfab", "shape_fat_tree");
	for (i = 0; i < RTE_DIM(ks); i++) {
		ft_conf(&c);
		c.topo = UET_FABRIC_TOPO_FAT_TREE;
		c.k = ks[i];
		c.hosts = ks[i] * ks[i] * ks[i] / 4;
		sh_fat_tree(&m, ks[i], c.seed);
		sh_check(&m, &c);
	}
}
END_TEST

/* Take n_down links (random, host links included) down at 1 ps, in the
 * model and in the fabric, then compare every route. */
static void sh_check_down(struct sh_model *m, const struct uet_fabric_conf *c,
			  unsigned int n_down, uint64_t draw_seed)
{
	struct uet_fabric *fab = NULL;
	struct uet_fabric_tc_record rec;
	struct uet_rng r;
	uint32_t p;
	unsigned int i;

	ck_assert_int_eq(uet_fabric_create(&fab, c), 0);
	uet_rng_seed(&r, draw_seed, 0);
	for (i = 0; i < n_down; i++) {
		const struct uet_fabric_failure f = {
			.port = (uint32_t)uet_rng_bounded(&r, m->n_ports),
			.at_ps = 1,
			.down = true};

		m->down[f.port] = true;
		if (m->peer[f.port] >= 0)
			m->down[m->peer[f.port]] = true;
		ck_assert_int_eq(uet_fabric_add_failure(fab, &f), 0);
	}
	ck_assert_int_ge(uet_fabric_run_until(fab, 2), 0);
	for (p = 0; p < m->n_ports; p++) {
		ck_assert_int_eq(uet_fabric_tc_record(fab, p, 0, 2, &rec), 0);
		ck_assert(rec.link_down == m->down[p]);
	}
	sh_check_routes(fab, m, !c->link_down_blackhole);
	uet_fabric_destroy(fab);
	sh_free(m);
}

START_TEST(test_reroute_follows_the_reach_of_the_shape)
{
	struct uet_fabric_conf c;
	struct sh_model m;
	unsigned int n;

	uet_test_eal("uetfab", "shape_reroute");
	for (n = 1; n <= 12; n += 2) {
		ft_conf_leaf_spine(&c, 4, 3, 4);
		sh_leaf_spine(&m, 4, 3, 4, c.seed);
		sh_check_down(&m, &c, n, 100 + n);
		ft_conf(&c);
		c.topo = UET_FABRIC_TOPO_FAT_TREE;
		c.k = n < 6 ? 4 : 6;
		c.hosts = c.k * c.k * c.k / 4;
		sh_fat_tree(&m, c.k, c.seed);
		sh_check_down(&m, &c, n, 200 + n);
	}
	/* Blackhole: the pick, whatever is down. */
	ft_conf(&c);
	c.topo = UET_FABRIC_TOPO_FAT_TREE;
	c.k = 4;
	c.hosts = 16;
	c.link_down_blackhole = true;
	sh_fat_tree(&m, 4, c.seed);
	sh_check_down(&m, &c, 5, 300);
}
END_TEST

/* Names are read as written, one spelling per link: anything else is
 * no link, however close. */
START_TEST(test_link_names_are_read_exactly)
{
	static const char *const fat_tree_bad[] = {
		"host05",
		"host+5",
		"host 5",
		"host5 ",
		"host-1",
		"host16",
		"host4294967296",
		"host18446744073709551621",
		"tor0-agg2",
		"tor0-agg01",
		"tor00-agg1",
		"tor8-agg8",
		"agg0-core2",
		"agg1-core0",
		"agg8-core0",
		"agg0-core4",
		"core0-agg0",
		"agg0-tor0",
		"tor0",
		"agg0-",
		"-core0",
		"tor0-agg1-",
		"leaf0-spine0",
		"switch",
		"",
		"tor0_agg1",
	};
	static const char *const leaf_spine_bad[] = {
		"leaf4-spine0", "leaf0-spine3", "leaf0-spine03",
		"spine0-leaf0", "leaf0spine0",	"leaf0-spine",
		"tor0-agg0",	"host8",	"leaf-1-spine0",
	};
	struct uet_fabric_conf c;
	struct uet_fabric *fab = NULL;
	unsigned int i;

	uet_test_eal("uetfab", "shape_names");
	ft_conf(&c);
	c.topo = UET_FABRIC_TOPO_FAT_TREE;
	c.k = 4;
	c.hosts = 16;
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	for (i = 0; i < RTE_DIM(fat_tree_bad); i++)
		ck_assert_msg(uet_fabric_link_find(fab, fat_tree_bad[i]) ==
				      -ENOENT,
			      "%s", fat_tree_bad[i]);
	ck_assert_int_eq(uet_fabric_port_find(fab, "switch:host1"), -ENOENT);
	ck_assert_int_eq(uet_fabric_port_find(fab, "tor1:host1"), -ENOENT);
	ck_assert_int_eq(uet_fabric_port_find(fab, "tor0:host1"), 1);
	ck_assert_int_eq(uet_fabric_port_find(fab, "agg1:tor0-agg0"), -ENOENT);
	ck_assert_int_eq(uet_fabric_port_find(fab, "tor00:tor0-agg0"), -ENOENT);
	ck_assert_int_eq(uet_fabric_port_find(fab, "core0:agg0-core0:"),
			 -ENOENT);
	uet_fabric_destroy(fab);
	ft_conf_leaf_spine(&c, 4, 3, 2);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	for (i = 0; i < RTE_DIM(leaf_spine_bad); i++)
		ck_assert_msg(uet_fabric_link_find(fab, leaf_spine_bad[i]) ==
				      -ENOENT,
			      "%s", leaf_spine_bad[i]);
	uet_fabric_destroy(fab);
	ft_conf(&c);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	ck_assert_int_eq(uet_fabric_port_find(fab, "switch:host7"), 7);
	ck_assert_int_eq(uet_fabric_link_find(fab, "leaf0-spine0"), -ENOENT);
	uet_fabric_destroy(fab);
}
END_TEST

/*
 * A k = 64 fat tree (65,536 hosts, 5,120 switches, 327,680 ports): a
 * frame from host 0 to host 65,535 crosses tor 0, aggregation switch j
 * of pod 0, a core of group j, aggregation switch j of pod 63 and tor
 * 2,047, by the ports the shape numbers, and leaves on port 65,535 at the
 * time of five serializations and four internal links.
 */
START_TEST(test_k64_fat_tree_routes_host_0_to_65535_through_5_switches)
{
	const uint32_t hosts = 65536, half = 32, E = 2048;
	const uint32_t last = hosts - 1, last_tor = last / half;
	struct uet_fabric_port_info info;
	struct uet_fabric_conf c;
	struct ft_env env;
	uint32_t j = UINT32_MAX, j2 = UINT32_MAX, i, port[5], sw[5], n;
	uint64_t tx = 0;

	ft_conf(&c);
	c.topo = UET_FABRIC_TOPO_FAT_TREE;
	c.k = 64;
	c.hosts = hosts;
	c.tier1_delay_ps = FT_DELAY_PS;
	c.tier2_delay_ps = FT_DELAY_PS;
	ft_open(&env, "shape_k64", &c);
	ck_assert_uint_eq(uet_fabric_switch_count(env.fab), 5120);
	ck_assert_uint_eq(uet_fabric_port_count(env.fab), 5 * hosts);
	ck_assert_uint_eq(uet_fabric_part_count(env.fab), 64 + 32);
	/* Every flow takes five switches to the last host's port. */
	for (i = 0; i < 16; i++) {
		const struct uet_fabric_flow f =
			ft_flow(0, last, (uint16_t)(i * 4099));
		uint32_t at = 0;
		int p;

		for (n = 0; n < 5; n++) {
			p = uet_fabric_next_port(env.fab, at, &f);
			ck_assert_int_ge(p, 0);
			ck_assert_int_eq(uet_fabric_port_info(
						 env.fab, (uint32_t)p, &info),
					 0);
			if (info.peer < 0)
				break;
			ck_assert_int_eq(
				uet_fabric_port_info(
					env.fab, (uint32_t)info.peer, &info),
				0);
			at = info.sw;
		}
		ck_assert_uint_eq(n, 4);
		ck_assert_int_eq(p, (int)last);
	}

	ft_deliver(&env, 0, ft_frame(&env, 0, last, FT_PAYLOAD_BIG, 5),
		   FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 1);
	ft_assert_out(&env, 0, last, 5,
		      FT_T0_PS + 5 * FT_SER_BIG_PS + 4 * FT_DELAY_PS);
	/* The uplink tor 0 took (to aggregation switch j of pod 0), then
	 * the uplink of that switch (to core j x 32 + j2). */
	for (i = 0; i < half; i++) {
		if (ft_stats(&env, hosts + i).tx_frames == 1) {
			ck_assert_uint_eq(j, UINT32_MAX);
			j = i;
		}
	}
	ck_assert_uint_lt(j, half);
	for (i = 0; i < half; i++) {
		if (ft_stats(&env, 3 * hosts + j * half + i).tx_frames == 1) {
			ck_assert_uint_eq(j2, UINT32_MAX);
			j2 = i;
		}
	}
	ck_assert_uint_lt(j2, half);
	port[0] = hosts + j;				 /* tor 0 up */
	port[1] = 3 * hosts + j * half + j2;		 /* agg j up */
	port[2] = 4 * hosts + (j * half + j2) * 64 + 63; /* core down */
	port[3] = 2 * hosts + (63 * half + j) * half + last_tor % half;
	port[4] = last; /* tor 2,047 to host 65,535 */
	sw[0] = 0;
	sw[1] = E + j;
	sw[2] = 2 * E + j * half + j2;
	sw[3] = E + 63 * half + j;
	sw[4] = last_tor;
	for (n = 0; n < 5; n++) {
		ck_assert_uint_eq(ft_stats(&env, port[n]).tx_frames, 1);
		ck_assert_int_eq(uet_fabric_port_info(env.fab, port[n], &info),
				 0);
		ck_assert_uint_eq(info.sw, sw[n]);
	}
	for (i = 0; i < 5 * hosts; i++)
		tx += ft_stats(&env, i).tx_frames;
	ck_assert_uint_eq(tx, 5);
	ft_close(&env);
}
END_TEST

/*
 * Leaf-spines past the 16-bit port numbers: 256 leaves of 256 hosts under
 * 16 spines keep a part per switch (272: no more switches than the
 * configuration once allowed), 2,048 leaves of 32 under 64 spines group
 * them (64 parts of 32 leaves, 32 of 2 spines); a frame from host 0 to
 * host 65,535 crosses leaf 0, a spine and the last leaf either way.
 */
static void sh_large_leaf_spine(uint32_t L, uint32_t S, uint32_t H,
				uint32_t parts)
{
	const uint32_t hosts = L * H, last = hosts - 1;
	struct uet_fabric_conf c;
	struct ft_env env;
	uint32_t s, up = UINT32_MAX;

	ft_conf_leaf_spine(&c, L, S, H);
	c.tier1_delay_ps = FT_DELAY_PS;
	ft_open_pool(&env, &c);
	ck_assert_uint_eq(uet_fabric_port_count(env.fab), hosts + 2 * L * S);
	ck_assert_uint_eq(uet_fabric_part_count(env.fab), parts);
	ft_deliver(&env, 0, ft_frame(&env, 0, last, FT_PAYLOAD_BIG, 3),
		   FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 1);
	ft_assert_out(&env, 0, last, 3,
		      FT_T0_PS + 3 * FT_SER_BIG_PS + 2 * FT_DELAY_PS);
	/* Up leaf 0's uplink to spine s, down spine s's link to the last
	 * leaf. */
	for (s = 0; s < S; s++) {
		if (ft_stats(&env, hosts + s).tx_frames == 1) {
			ck_assert_uint_eq(up, UINT32_MAX);
			up = s;
		}
	}
	ck_assert_uint_lt(up, S);
	ck_assert_uint_eq(
		ft_stats(&env, hosts + L * S + up * L + L - 1).tx_frames, 1);
	ft_close(&env);
}

START_TEST(test_large_leaf_spines_route_and_group_their_parts)
{
	uet_test_eal("uetfab", "shape_large_ls");
	sh_large_leaf_spine(256, 16, 256, 256 + 16);
	sh_large_leaf_spine(2048, 64, 32, 64 + 32);
}
END_TEST

static Suite *shape_suite(void)
{
	Suite *s = suite_create("fabric-shape");
	TCase *tc = tcase_create("shape");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_routes_follow_the_single_switch);
	tcase_add_test(tc, test_routes_follow_the_leaf_spine);
	tcase_add_test(tc, test_routes_follow_the_fat_tree);
	tcase_add_test(tc, test_reroute_follows_the_reach_of_the_shape);
	tcase_add_test(tc, test_link_names_are_read_exactly);
	tcase_add_test(tc, test_large_leaf_spines_route_and_group_their_parts);
	tcase_add_test(
		tc,
		test_k64_fat_tree_routes_host_0_to_65535_through_5_switches);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(shape_suite)
