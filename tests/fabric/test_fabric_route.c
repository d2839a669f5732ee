/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Topologies and routing: the shapes (switches, ports, link names, rates),
 * every host reachable from every host by the shortest up-down path, the
 * flow hash spreading entropies over the uplinks, the same 5-tuple always
 * taking the same path, another seed giving another mapping, and a frame's
 * exact time across a leaf-spine.
 */
#include <errno.h>

#include "fabric_test.h"

/* The UET UDP destination port, what every UET frame carries. */
/* Entropies tried in the spreading tests. */
#define RT_ENTROPIES 4096u
/* What seed 1 gives (rt_spread, leaf 0 of a 2x4x4 leaf-spine). */
#define RT_SPREAD_0 965u
#define RT_SPREAD_1 1061u
#define RT_SPREAD_2 1048u
#define RT_SPREAD_3 1022u
/* Paths that differ between seeds 1 and 2 (about 15/16 of 4,096), and
 * uplink choices that differ between tor 0 and tor 1 (about 3/4). */
#define RT_DIFFER_SEED 3872u
#define RT_DIFFER_SW 3047u

static void rt_conf_fat_tree(struct uet_fabric_conf *c, uint32_t k)
{
	ft_conf(c);
	c->topo = UET_FABRIC_TOPO_FAT_TREE;
	c->k = k;
	c->hosts = k * k * k / 4;
}

/*
 * Follow a flow from its source's rack switch to the port facing its
 * destination; return the switches it crossed (0 if it went astray).
 */
static unsigned int rt_walk(const struct uet_fabric *fab,
			    const struct uet_fabric_flow *f, uint32_t src,
			    uint32_t dst, uint32_t *ports, unsigned int max)
{
	struct uet_fabric_port_info info;
	unsigned int n = 0;
	uint32_t sw;
	int p;

	ck_assert_int_eq(uet_fabric_port_info(fab, src, &info), 0);
	sw = info.sw;
	while (n < max) {
		p = uet_fabric_next_port(fab, sw, f);
		ck_assert_int_ge(p, 0);
		ports[n++] = (uint32_t)p;
		ck_assert_int_eq(uet_fabric_port_info(fab, (uint32_t)p, &info),
				 0);
		if (info.host >= 0)
			return info.host == (int32_t)dst ? n : 0;
		ck_assert_int_eq(
			uet_fabric_port_info(fab, (uint32_t)info.peer, &info),
			0);
		sw = info.sw;
	}
	return 0;
}

/* Every pair, a few entropies each: reached in exactly the switches the
 * shape says (same rack, same pod, elsewhere). */
static void rt_all_pairs(const struct uet_fabric *fab, uint32_t hosts,
			 uint32_t per_rack, uint32_t per_pod)
{
	uint32_t ports[8];
	uint32_t s, d;
	uint16_t ent;

	for (s = 0; s < hosts; s++) {
		for (d = 0; d < hosts; d++) {
			unsigned int want = 5;

			if (s / per_rack == d / per_rack)
				want = 1;
			else if (s / per_pod == d / per_pod)
				want = 3;
			for (ent = 0; ent < 4; ent++) {
				struct uet_fabric_flow f =
					ft_flow(s, d, (uint16_t)(ent * 7919));

				ck_assert_uint_eq(
					rt_walk(fab, &f, s, d, ports, 8), want);
			}
		}
	}
}

START_TEST(test_shapes_count_switches_ports_and_name_links)
{
	struct uet_fabric_conf c;
	struct uet_fabric *fab = NULL;
	struct uet_fabric_port_info info;

	ft_conf_leaf_spine(&c, 4, 3, 2);
	c.tier1_rate_bps = UINT64_C(100000000000);
	c.tier1_delay_ps = 250000;
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	ck_assert_uint_eq(uet_fabric_switch_count(fab), 7);
	ck_assert_uint_eq(uet_fabric_port_count(fab), 8 + 2 * 12);
	ck_assert_int_eq(uet_fabric_port_info(fab, 5, &info), 0);
	ck_assert_str_eq(info.switch_name, "leaf2");
	ck_assert_str_eq(info.link_name, "host5");
	ck_assert_int_eq(info.host, 5);
	ck_assert_int_eq(info.peer, -1);
	ck_assert_uint_eq(info.rate_bps, FT_RATE_BPS);
	/* Leaf 2's uplink to spine 1: port 8 + 2 * 3 + 1. */
	ck_assert_int_eq(uet_fabric_port_info(fab, 15, &info), 0);
	ck_assert_str_eq(info.switch_name, "leaf2");
	ck_assert_str_eq(info.link_name, "leaf2-spine1");
	ck_assert_int_eq(info.host, -1);
	ck_assert_uint_eq(info.rate_bps, UINT64_C(100000000000));
	ck_assert_uint_eq(info.delay_ps, 250000);
	ck_assert_int_eq(uet_fabric_port_info(fab, (uint32_t)info.peer, &info),
			 0);
	ck_assert_str_eq(info.switch_name, "spine1");
	ck_assert_str_eq(info.link_name, "leaf2-spine1");
	ck_assert_int_eq(info.peer, 15);
	ck_assert_int_eq(uet_fabric_port_info(fab, 7, &info), 0);
	ck_assert_int_eq(info.host, 7);
	ck_assert_uint_eq(info.rate_bps, FT_RATE_BPS);
	ck_assert_int_eq(uet_fabric_port_info(fab, 32, &info), -EINVAL);
	uet_fabric_destroy(fab);

	rt_conf_fat_tree(&c, 4);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	ck_assert_uint_eq(uet_fabric_switch_count(fab), 20);
	ck_assert_uint_eq(uet_fabric_port_count(fab), 80);
	ck_assert_int_eq(uet_fabric_port_info(fab, 15, &info), 0);
	ck_assert_str_eq(info.switch_name, "tor7");
	/* The last core's downlink to pod 3. */
	ck_assert_int_eq(uet_fabric_port_info(fab, 79, &info), 0);
	ck_assert_str_eq(info.switch_name, "core3");
	ck_assert_str_eq(info.link_name, "agg7-core3");
	uet_fabric_destroy(fab);

	rt_conf_fat_tree(&c, 8);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	ck_assert_uint_eq(uet_fabric_switch_count(fab), 80);
	ck_assert_uint_eq(uet_fabric_port_count(fab), 640);
	uet_fabric_destroy(fab);

	/* Shapes that do not add up. */
	fab = NULL;
	ft_conf_leaf_spine(&c, 4, 3, 2);
	c.hosts = 9;
	ck_assert_int_eq(uet_fabric_create(&fab, &c), -EINVAL);
	ft_conf_leaf_spine(&c, 4, 0, 2);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), -EINVAL);
	rt_conf_fat_tree(&c, 4);
	c.k = 5;
	ck_assert_int_eq(uet_fabric_create(&fab, &c), -EINVAL);
	ck_assert_ptr_null(fab);
}
END_TEST

START_TEST(test_every_host_reachable_by_the_shortest_path)
{
	struct uet_fabric_conf c;
	struct uet_fabric *fab = NULL;
	struct uet_fabric_flow f = ft_flow(0, 1, 1);

	ft_conf_leaf_spine(&c, 4, 4, 4);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	/* Two tiers: one switch in a rack, three between racks. */
	rt_all_pairs(fab, 16, 4, 16);
	uet_fabric_destroy(fab);
	rt_conf_fat_tree(&c, 4);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	rt_all_pairs(fab, 16, 2, 4);
	uet_fabric_destroy(fab);
	rt_conf_fat_tree(&c, 8);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	rt_all_pairs(fab, 128, 4, 16);
	/* No host at the address. */
	f.dst_ipv4 = uet_host_ipv4(128);
	ck_assert_int_eq(uet_fabric_next_port(fab, 0, &f), -ENOENT);
	ck_assert_int_eq(uet_fabric_next_port(fab, 80, &f), -EINVAL);
	uet_fabric_destroy(fab);
}
END_TEST

/* How many of RT_ENTROPIES entropies from host 0 to host dst leave the
 * source's rack switch by each of its uplinks (first_up.. first_up + n). */
static void rt_spread(const struct uet_fabric *fab, uint32_t dst,
		      uint32_t first_up, unsigned int n, unsigned int *count)
{
	unsigned int i;

	memset(count, 0, n * sizeof(*count));
	for (i = 0; i < RT_ENTROPIES; i++) {
		struct uet_fabric_flow f = ft_flow(0, dst, (uint16_t)i);
		int p = uet_fabric_next_port(fab, 0, &f);

		ck_assert_int_ge(p, (int)first_up);
		ck_assert_int_lt(p, (int)(first_up + n));
		count[p - (int)first_up]++;
	}
}

START_TEST(test_hash_spreads_entropies_over_the_uplinks)
{
	struct uet_fabric_conf c;
	struct uet_fabric *fab = NULL;
	unsigned int count[4], i;

	/* 2 leaves, 4 spines, 4 hosts each: leaf 0's uplinks are ports 8
	 * to 11; 4,096 entropies to host 4 spread within 10% of 1,024. */
	ft_conf_leaf_spine(&c, 2, 4, 4);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	rt_spread(fab, 4, 8, 4, count);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_ge(count[i], 922);
		ck_assert_uint_le(count[i], 1126);
	}
	ck_assert_uint_eq(count[0], RT_SPREAD_0);
	ck_assert_uint_eq(count[1], RT_SPREAD_1);
	ck_assert_uint_eq(count[2], RT_SPREAD_2);
	ck_assert_uint_eq(count[3], RT_SPREAD_3);
	uet_fabric_destroy(fab);
}
END_TEST

START_TEST(test_same_tuple_same_path_other_salt_other_path)
{
	struct uet_fabric_conf c;
	struct uet_fabric *a = NULL, *b = NULL, *o = NULL;
	unsigned int i, differ = 0, differ_sw = 0;

	rt_conf_fat_tree(&c, 8);
	ck_assert_int_eq(uet_fabric_create(&a, &c), 0);
	ck_assert_int_eq(uet_fabric_create(&b, &c), 0);
	c.seed = 2;
	ck_assert_int_eq(uet_fabric_create(&o, &c), 0);
	for (i = 0; i < RT_ENTROPIES; i++) {
		/* Host 0 to host 127: every tier has a choice going up. */
		struct uet_fabric_flow f = ft_flow(0, 127, (uint16_t)i);
		struct uet_fabric_flow g = ft_flow(4, 127, (uint16_t)i);
		uint32_t pa[8], pa2[8], pb[8], po[8];
		unsigned int n = rt_walk(a, &f, 0, 127, pa, 8);

		ck_assert_uint_eq(n, 5);
		ck_assert_uint_eq(rt_walk(a, &f, 0, 127, pa2, 8), 5);
		ck_assert_uint_eq(rt_walk(b, &f, 0, 127, pb, 8), 5);
		ck_assert_uint_eq(rt_walk(o, &f, 0, 127, po, 8), 5);
		ck_assert_mem_eq(pa, pa2, sizeof(uint32_t) * 5);
		ck_assert_mem_eq(pa, pb, sizeof(uint32_t) * 5);
		if (memcmp(pa, po, sizeof(uint32_t) * 5) != 0)
			differ++;
		/* Tor 0 and tor 1 have different salts: the same entropy
		 * from their hosts picks uplinks independently. */
		if ((uet_fabric_next_port(a, 0, &f) - 128) % 4 !=
		    (uet_fabric_next_port(a, 1, &g) - 128 - 4) % 4)
			differ_sw++;
	}
	/* With 4 * 4 = 16 paths, a path unrelated to the first is the
	 * same one time in 16: 15/16 of 4,096 is 3,840; an uplink of 4
	 * unrelated to another is the same one time in 4. */
	ck_assert_uint_eq(differ, RT_DIFFER_SEED);
	ck_assert_uint_eq(differ_sw, RT_DIFFER_SW);
	uet_fabric_destroy(a);
	uet_fabric_destroy(b);
	uet_fabric_destroy(o);
}
END_TEST

/* One frame from host 0 to host 2 across a 2x2x2 leaf-spine with slower,
 * longer uplinks: 4,202 bytes take 336,160 ps at 100 Gbps on each of the
 * two uplink hops, plus 1 us each, then 84,040 ps down at 400 Gbps: it
 * leaves leaf 1 at T0 + 2 * 1,336,160 + 84,040 = T0 + 2,756,360. */
START_TEST(test_frame_crosses_a_leaf_spine_in_exact_time)
{
	struct uet_fabric_conf c;
	struct ft_env env;
	struct uet_fabric_port_stats st;

	ft_conf_leaf_spine(&c, 2, 2, 2);
	c.tier1_rate_bps = UINT64_C(100000000000);
	c.tier1_delay_ps = 1000000;
	ft_open(&env, "route_time", &c);
	ft_deliver(&env, 0, ft_frame(&env, 0, 2, FT_PAYLOAD_BIG, 7), FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 1);
	ft_assert_out(&env, 0, 2, 7, FT_T0_PS + 2 * 1336160 + FT_SER_BIG_PS);
	/* Exactly one of leaf 0's two uplinks (ports 4, 5) carried it. */
	st = ft_stats(&env, 4);
	ck_assert_uint_eq(st.tx_frames + ft_stats(&env, 5).tx_frames, 1);
	ck_assert_uint_eq(ft_stats(&env, 2).tx_bytes, FT_WIRE_BIG);
	ft_close(&env);
}
END_TEST

static Suite *route_suite(void)
{
	Suite *s = suite_create("fabric-route");
	TCase *tc = tcase_create("route");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_shapes_count_switches_ports_and_name_links);
	tcase_add_test(tc, test_every_host_reachable_by_the_shortest_path);
	tcase_add_test(tc, test_hash_spreads_entropies_over_the_uplinks);
	tcase_add_test(tc, test_same_tuple_same_path_other_salt_other_path);
	tcase_add_test(tc, test_frame_crosses_a_leaf_spine_in_exact_time);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(route_suite)
