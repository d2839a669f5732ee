/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Link failures and the occupancy record: links and ports found by name
 * (and how names look when one is not found), a degraded link's exact
 * serialization time and its queue limit and ECN thresholds scaled with
 * its rate, a downed link's traffic rerouted or blackholed and
 * what it held counted, the time-weighted mean occupancy and the sampled
 * time series.
 */
#include <errno.h>
#include <stdio.h>

#include "fabric_test.h"

#define LK_RATE_100G UINT64_C(100000000000)
/* 4,202 wire bytes at 100 Gbps (25% of 400) and at 200 Gbps (50%). */
#define LK_SER_BIG_25_PS UINT64_C(336160)
#define LK_SER_BIG_50_PS UINT64_C(168080)

static void lk_fail(struct ft_env *env, uint32_t port, uet_time_t at_ps,
		    uint32_t rate_ppm, bool down)
{
	const struct uet_fabric_failure f = {.port = port,
					     .at_ps = at_ps,
					     .rate_ppm = rate_ppm,
					     .down = down};

	ck_assert_int_eq(uet_fabric_add_failure(env->fab, &f), 0);
}

static struct uet_fabric_tc_record lk_rec(struct ft_env *env, uint32_t port,
					  unsigned int tc, uet_time_t now_ps)
{
	struct uet_fabric_tc_record r;

	ck_assert_int_eq(uet_fabric_tc_record(env->fab, port, tc, now_ps, &r),
			 0);
	return r;
}

/* A 4x3x2 leaf-spine: host ports 0-7, leaf l's uplink to spine s is
 * 8 + 3l + s, spine s's downlink to leaf l is 20 + 4s + l. */
START_TEST(test_link_and_port_names_parse)
{
	struct uet_fabric_conf c;
	struct uet_fabric *fab;
	char forms[256];

	ft_conf_leaf_spine(&c, 4, 3, 2);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	ck_assert_int_eq(uet_fabric_link_find(fab, "host5"), 5);
	ck_assert_int_eq(uet_fabric_link_find(fab, "leaf2-spine1"), 15);
	ck_assert_int_eq(uet_fabric_link_find(fab, "leaf0-spine0"), 8);
	/* One spelling per link; nothing past the shape. */
	ck_assert_int_eq(uet_fabric_link_find(fab, "spine1-leaf2"), -ENOENT);
	ck_assert_int_eq(uet_fabric_link_find(fab, "leaf4-spine0"), -ENOENT);
	ck_assert_int_eq(uet_fabric_link_find(fab, "leaf0-spine3"), -ENOENT);
	ck_assert_int_eq(uet_fabric_link_find(fab, "host8"), -ENOENT);
	ck_assert_int_eq(uet_fabric_link_find(fab, "Host5"), -ENOENT);
	ck_assert_int_eq(uet_fabric_link_find(fab, "host"), -ENOENT);
	ck_assert_int_eq(uet_fabric_link_find(fab, ""), -ENOENT);
	ck_assert_int_eq(uet_fabric_link_find(fab, NULL), -EINVAL);
	/* Ports: a switch and a link, or a host link alone. */
	ck_assert_int_eq(uet_fabric_port_find(fab, "leaf2:leaf2-spine1"), 15);
	ck_assert_int_eq(uet_fabric_port_find(fab, "spine1:leaf2-spine1"), 26);
	ck_assert_int_eq(uet_fabric_port_find(fab, "host5"), 5);
	ck_assert_int_eq(uet_fabric_port_find(fab, "leaf2:host5"), 5);
	ck_assert_int_eq(uet_fabric_port_find(fab, "leaf1:host5"), -ENOENT);
	ck_assert_int_eq(uet_fabric_port_find(fab, "leaf2-spine1"), -ENOENT);
	ck_assert_int_eq(uet_fabric_port_find(fab, "spine0:leaf2-spine1"),
			 -ENOENT);
	ck_assert_int_eq(uet_fabric_port_find(fab, ":host5"), -ENOENT);
	uet_fabric_link_forms(fab, forms, sizeof(forms));
	ck_assert_str_eq(forms, "host0 .. host7, or leafL-spineS with L 0 .. 3 "
				"and S 0 .. 2");
	uet_fabric_destroy(fab);

	/* k = 4: tors and aggs 0-7, two per pod; agg a to cores
	 * (a % 2) * 2 and (a % 2) * 2 + 1. */
	ft_conf(&c);
	c.topo = UET_FABRIC_TOPO_FAT_TREE;
	c.k = 4;
	c.hosts = 16;
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	ck_assert_int_ge(uet_fabric_link_find(fab, "tor0-agg1"), 16);
	ck_assert_int_eq(uet_fabric_link_find(fab, "tor0-agg2"), -ENOENT);
	ck_assert_int_ge(uet_fabric_link_find(fab, "agg3-core3"), 16);
	ck_assert_int_eq(uet_fabric_link_find(fab, "agg3-core0"), -ENOENT);
	uet_fabric_link_forms(fab, forms, sizeof(forms));
	ck_assert_str_eq(forms,
			 "host0 .. host15, torE-aggA with E and A 0 .. 7 in "
			 "one pod (E / 2 = A / 2), or aggA-coreC with C 0 .. "
			 "3 and C / 2 = A % 2");
	uet_fabric_destroy(fab);

	ft_conf(&c);
	ck_assert_int_eq(uet_fabric_create(&fab, &c), 0);
	uet_fabric_link_forms(fab, forms, sizeof(forms));
	ck_assert_str_eq(forms, "host0 .. host7");
	uet_fabric_destroy(fab);
}
END_TEST

/*
 * Every name, checked from the configuration alone (before a run opens
 * its outputs), as the built fabric finds it: each port's link and each
 * switch with each link, right or wrong, in the three shapes. Before, the
 * names were checked only once the fabric was built, after run.out had
 * been opened, and a bad name left the last run's records cut.
 */
static void lk_names_agree(const struct uet_fabric_conf *c)
{
	static const char *const bad[] = {
		"leaf-1-spine0", "spine1-leaf2", "bogus:port", ":host5",
		"host0,",	 "host",	 "",	       "switch:",
		"leaf0:",	 "tor0-agg1-",
	};
	char names[64][16], name[64];
	struct uet_fabric_port_info info;
	uint32_t n_sw = 0, p, s, i;
	struct uet_fabric *fab;

	ck_assert_int_eq(uet_fabric_create(&fab, c), 0);
	ck_assert_uint_le(uet_fabric_switch_count(fab), 64);
	for (p = 0; p < uet_fabric_port_count(fab); p++) {
		ck_assert_int_eq(uet_fabric_port_info(fab, p, &info), 0);
		snprintf(names[info.sw], sizeof(names[0]), "%s",
			 info.switch_name);
		if (info.sw + 1 > n_sw)
			n_sw = info.sw + 1;
	}
	ck_assert_uint_eq(n_sw, uet_fabric_switch_count(fab));
	for (p = 0; p < uet_fabric_port_count(fab); p++) {
		ck_assert_int_eq(uet_fabric_port_info(fab, p, &info), 0);
		ck_assert_int_eq(uet_fabric_conf_link_check(c, info.link_name),
				 0);
		ck_assert_int_eq(uet_fabric_conf_port_check(c, info.link_name),
				 uet_fabric_port_find(fab, info.link_name) >= 0
					 ? 0
					 : -ENOENT);
		for (s = 0; s < n_sw; s++) {
			snprintf(name, sizeof(name), "%s:%s", names[s],
				 info.link_name);
			ck_assert_msg(
				uet_fabric_conf_port_check(c, name) ==
					(uet_fabric_port_find(fab, name) >= 0
						 ? 0
						 : -ENOENT),
				"%s", name);
		}
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(uet_fabric_conf_link_check(c, bad[i]),
				 -ENOENT);
		ck_assert_int_eq(uet_fabric_conf_port_check(c, bad[i]),
				 -ENOENT);
	}
	ck_assert_int_eq(uet_fabric_conf_link_check(c, NULL), -EINVAL);
	ck_assert_int_eq(uet_fabric_conf_port_check(NULL, "host0"), -EINVAL);
	uet_fabric_destroy(fab);
}

START_TEST(test_names_checked_from_the_conf_as_the_fabric_finds_them)
{
	struct uet_fabric_conf c;

	ft_conf_leaf_spine(&c, 4, 3, 2);
	lk_names_agree(&c);
	ft_conf(&c);
	c.topo = UET_FABRIC_TOPO_FAT_TREE;
	c.k = 4;
	c.hosts = 16;
	lk_names_agree(&c);
	ft_conf(&c);
	lk_names_agree(&c);
}
END_TEST

/* Host 2's link degraded to 25% from the start: a 4,202-byte frame to it
 * takes 336,160 ps, one to host 3 still 84,040. */
START_TEST(test_degraded_link_serializes_at_its_fraction)
{
	struct ft_env env;

	ft_open(&env, "link_degrade", NULL);
	lk_fail(&env, 2, 0, 250000, false);
	ft_deliver(&env, 0, ft_frame(&env, 0, 2, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_deliver(&env, 1, ft_frame(&env, 1, 3, FT_PAYLOAD_BIG, 2), FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 2);
	ft_assert_out(&env, 0, 3, 2, FT_T0_PS + FT_SER_BIG_PS);
	ft_assert_out(&env, 1, 2, 1, FT_T0_PS + LK_SER_BIG_25_PS);
	ck_assert_uint_eq(lk_rec(&env, 2, 0, FT_T0_PS).rate_bps, LK_RATE_100G);
	ck_assert_uint_eq(lk_rec(&env, 3, 0, FT_T0_PS).rate_bps, FT_RATE_BPS);
	ft_close(&env);
}
END_TEST

/* Degraded to 50% while a frame is on the wire: that frame keeps its end,
 * the next one takes 168,080 ps. */
START_TEST(test_degrade_applies_from_the_next_frame)
{
	struct ft_env env;

	ft_open(&env, "link_degrade_mid", NULL);
	lk_fail(&env, 2, FT_T0_PS + 10000, 500000, false);
	ft_deliver(&env, 0, ft_frame(&env, 0, 2, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_deliver(&env, 1, ft_frame(&env, 1, 2, FT_PAYLOAD_BIG, 2), FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 2);
	ft_assert_out(&env, 0, 2, 1, FT_T0_PS + FT_SER_BIG_PS);
	ft_assert_out(&env, 1, 2, 2,
		      FT_T0_PS + FT_SER_BIG_PS + LK_SER_BIG_50_PS);
	ft_close(&env);
}
END_TEST

/* Three big frames from hosts 1..3 to host 0 at once, host 0's link at
 * rate_ppm of its rate from the start: host 0's port counters. */
static struct uet_fabric_port_stats
lk_burst_to_0(const struct uet_fabric_conf *conf, uint32_t rate_ppm)
{
	struct uet_fabric_port_stats st;
	struct ft_env env;

	ft_open_pool(&env, conf);
	lk_fail(&env, 0, 0, rate_ppm, false);
	for (uint16_t i = 1; i <= 3; i++)
		ft_deliver(&env, i, ft_frame(&env, i, 0, FT_PAYLOAD_BIG, i),
			   FT_T0_PS + i);
	ft_run(&env);
	st = ft_stats(&env, 0);
	ft_close(&env);
	return st;
}

/* A queue limit of four big frames (16,808 bytes) holds all three at full
 * rate; at 50% the port holds the same time of traffic, 8,404 bytes, so
 * the third frame is dropped (trimming off). */
START_TEST(test_degraded_link_scales_its_queue_limit)
{
	struct uet_fabric_port_stats st;
	struct uet_fabric_conf conf;

	uet_test_eal("uetfab", "link_qlimit");
	ft_conf(&conf);
	conf.queue_limit_bytes = 4 * FT_WIRE_BIG;
	st = lk_burst_to_0(&conf, 1000000);
	ck_assert_uint_eq(st.tc[0].enq_frames, 3);
	ck_assert_uint_eq(st.tc[0].drop_frames, 0);
	st = lk_burst_to_0(&conf, 500000);
	ck_assert_uint_eq(st.tc[0].enq_frames, 2);
	ck_assert_uint_eq(st.tc[0].peak_queue_bytes, 2 * FT_WIRE_BIG);
	ck_assert_uint_eq(st.tc[0].drop_frames, 1);
	ck_assert_uint_eq(st.tc[0].drop_bytes, FT_WIRE_BIG);
}
END_TEST

/* Enqueue marking with kmin = kmax = 8,404 bytes: at full rate only the
 * third frame finds that much queued; at 50% the thresholds are 4,202
 * and the second is marked too. */
START_TEST(test_degraded_link_scales_its_ecn_thresholds)
{
	struct uet_fabric_conf conf;

	uet_test_eal("uetfab", "link_ecn");
	ft_conf(&conf);
	conf.ecn = true;
	conf.ecn_at_dequeue = false;
	conf.ecn_kmin_bytes = 2 * FT_WIRE_BIG;
	conf.ecn_kmax_bytes = 2 * FT_WIRE_BIG;
	ck_assert_uint_eq(lk_burst_to_0(&conf, 1000000).tc[0].ecn_frames, 1);
	ck_assert_uint_eq(lk_burst_to_0(&conf, 500000).tc[0].ecn_frames, 2);
	/* 25% of 8,404 is 2,101: still only frames that find one queued. */
	ck_assert_uint_eq(lk_burst_to_0(&conf, 250000).tc[0].ecn_frames, 2);
}
END_TEST

/* An entropy whose frames from host 0 to host 2 of a 2x2x2 leaf-spine go
 * up leaf 0's uplink to spine 0 (port 4). */
static uint16_t lk_entropy_via(const struct uet_fabric *fab, int port)
{
	uint16_t e;

	for (e = 1; e < 1000; e++) {
		struct uet_fabric_flow f = ft_flow(0, 2, e);

		if (uet_fabric_next_port(fab, 0, &f) == port)
			return e;
	}
	ck_abort_msg("no entropy found");
	return 0;
}

/* A UET frame from host 0 to host 2 with an entropy. */
static struct rte_mbuf *lk_frame(struct ft_env *env, uint16_t entropy,
				 uint16_t tag)
{
	struct rte_mbuf *m = ft_frame(env, 0, 2, FT_PAYLOAD_BIG, tag);
	uint8_t *udp = rte_pktmbuf_mtod(m, uint8_t *) + UET_ETH_HDR_BYTES + 20;

	/* The UDP checksum is 0 (not used over IPv4), so the source port
	 * can change alone. */
	udp[0] = (uint8_t)(entropy >> 8);
	udp[1] = (uint8_t)entropy;
	return m;
}

/*
 * Limits by port rate (switch.queue_limit and ECNKmin/Kmax auto): with
 * queue_time_ps four big serializations at 400 Gbps, a host port holds
 * four big frames, and leaf 0's uplink to spine 0 at 200 Gbps two (8,404
 * bytes), so of three frames sent up it at once the third is dropped;
 * with queue_limit_bytes alone (four frames) all three go. ECN at 50% of
 * the port's own limit (4,202 bytes, enqueue marking) marks the second.
 */
static struct uet_fabric_port_stats lk_uplink_burst(bool by_rate)
{
	struct uet_fabric_port_stats st;
	struct uet_fabric_conf c;
	struct ft_env env;
	uint16_t via0, e;

	ft_conf_leaf_spine(&c, 2, 2, 2);
	c.tier1_rate_bps = FT_RATE_BPS / 2;
	c.queue_limit_bytes = 4 * FT_WIRE_BIG;
	c.ecn = true;
	c.ecn_at_dequeue = false;
	c.ecn_kmin_bytes = c.ecn_kmax_bytes = 4 * FT_WIRE_BIG;
	if (by_rate) {
		c.queue_time_ps = 4 * FT_SER_BIG_PS;
		c.ecn_kmin_ppm = c.ecn_kmax_ppm = 500000;
	}
	ft_open_pool(&env, &c);
	via0 = lk_entropy_via(env.fab, 4);
	for (e = 1; e <= 3; e++)
		ft_deliver(&env, 0, lk_frame(&env, via0, e), FT_T0_PS + e);
	ft_run(&env);
	st = ft_stats(&env, 4);
	ft_close(&env);
	return st;
}

START_TEST(test_queue_limit_by_port_rate)
{
	struct uet_fabric_port_stats st;

	uet_test_eal("uetfab", "link_by_rate");
	st = lk_uplink_burst(true);
	ck_assert_uint_eq(st.tc[0].enq_frames, 2);
	ck_assert_uint_eq(st.tc[0].drop_frames, 1);
	ck_assert_uint_eq(st.tc[0].peak_queue_bytes, 2 * FT_WIRE_BIG);
	ck_assert_uint_eq(st.tc[0].ecn_frames, 1);
	st = lk_uplink_burst(false);
	ck_assert_uint_eq(st.tc[0].enq_frames, 3);
	ck_assert_uint_eq(st.tc[0].drop_frames, 0);
	ck_assert_uint_eq(st.tc[0].ecn_frames, 0);
}
END_TEST

/*
 * 2x2x2 leaf-spine, no delay between switches: hosts 0-3, leaf 0's
 * uplinks are ports 4 (spine 0) and 5 (spine 1), leaf 1's 6 and 7.
 * leaf0-spine0 goes down at T0 + 1 ns while three frames are held at port
 * 4 (the first on the wire): all three are lost and counted there, 12,606
 * bytes. Then rerouting sends every flow from leaf 0 to host 2 over spine
 * 1, and every flow from leaf 1 to host 0 over spine 1 too (spine 0 lost
 * its way down to leaf 0), so a frame on the entropy that used spine 0
 * arrives, three serializations after it came in. Blackholing keeps the
 * hash's choice, and that frame is lost at port 4 too.
 */
static void lk_down(bool blackhole)
{
	struct uet_fabric_conf c;
	struct ft_env env;
	struct uet_fabric_tc_record r;
	uint16_t via0, e;
	const uet_time_t t1 = 2 * FT_T0_PS;

	ft_conf_leaf_spine(&c, 2, 2, 2);
	c.link_down_blackhole = blackhole;
	ft_open(&env, blackhole ? "link_blackhole" : "link_reroute", &c);
	via0 = lk_entropy_via(env.fab, 4);
	ck_assert_int_eq(uet_fabric_link_find(env.fab, "leaf0-spine0"), 4);
	lk_fail(&env, 4, FT_T0_PS + 1000, 0, true);
	for (e = 1; e <= 3; e++)
		ft_deliver(&env, 0, lk_frame(&env, via0, e), FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out_total, 0);
	r = lk_rec(&env, 4, 0, FT_T0_PS);
	ck_assert_uint_eq(r.down_drop_frames, 3);
	ck_assert_uint_eq(r.down_drop_bytes, 3 * FT_WIRE_BIG);
	ck_assert(r.link_down);
	ck_assert_uint_eq(ft_stats(&env, 4).queue_bytes, 0);
	ck_assert_uint_eq(ft_stats(&env, 4).tc[0].queue_bytes, 0);
	ck_assert_uint_eq(ft_stats(&env, 4).tx_frames, 0);
	/* Both ends are down (spine 0's downlink to leaf 0 is port 8). */
	ck_assert(lk_rec(&env, 8, 0, FT_T0_PS).link_down);
	ck_assert(!lk_rec(&env, 5, 0, FT_T0_PS).link_down);

	for (e = 1; e <= 256; e++) {
		struct uet_fabric_flow up = ft_flow(0, 2, e);
		struct uet_fabric_flow back = ft_flow(2, 0, e);
		struct uet_fabric_flow other = ft_flow(3, 1, e);

		if (blackhole) {
			/* The hash alone: via0 still picks port 4. */
			if (e == via0)
				ck_assert_int_eq(
					uet_fabric_next_port(env.fab, 0, &up),
					4);
			continue;
		}
		ck_assert_int_eq(uet_fabric_next_port(env.fab, 0, &up), 5);
		ck_assert_int_eq(uet_fabric_next_port(env.fab, 1, &back), 7);
		/* Leaf 1 to leaf 0's host 1: spine 0 cannot reach it. */
		ck_assert_int_eq(uet_fabric_next_port(env.fab, 1, &other), 7);
	}

	ft_deliver(&env, 0, lk_frame(&env, via0, 9), t1);
	ft_run(&env);
	if (blackhole) {
		ck_assert_uint_eq(env.n_out_total, 0);
		ck_assert_uint_eq(lk_rec(&env, 4, 0, t1).down_drop_frames, 4);
	} else {
		ck_assert_uint_eq(env.n_out, 1);
		ft_assert_out(&env, 0, 2, 9, t1 + 3 * FT_SER_BIG_PS);
		ck_assert_uint_eq(lk_rec(&env, 4, 0, t1).down_drop_frames, 3);
		ck_assert_uint_eq(ft_stats(&env, 5).tx_frames, 1);
	}
	ft_close(&env);
}

START_TEST(test_link_down_reroutes_over_the_next_hops_left)
{
	lk_down(false);
}
END_TEST

START_TEST(test_link_down_blackholes_when_configured)
{
	lk_down(true);
}
END_TEST

/* Both of leaf 0's uplinks down: rerouting has nothing left, and the
 * frame is lost at the port the hash picked. A frame arriving over a
 * downed host link is lost on that port, uncounted as received. */
START_TEST(test_no_next_hop_left_loses_the_frame)
{
	struct uet_fabric_conf c;
	struct ft_env env;

	ft_conf_leaf_spine(&c, 2, 2, 2);
	ft_open(&env, "link_none_left", &c);
	lk_fail(&env, 4, 0, 0, true);
	lk_fail(&env, 5, 0, 0, true);
	lk_fail(&env, 1, 0, 0, true);
	ft_deliver(&env, 0, ft_frame(&env, 0, 2, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_deliver(&env, 1, ft_frame(&env, 1, 0, FT_PAYLOAD_BIG, 2), FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out_total, 0);
	ck_assert_uint_eq(lk_rec(&env, 4, 0, FT_T0_PS).down_drop_frames +
				  lk_rec(&env, 5, 0, FT_T0_PS).down_drop_frames,
			  1);
	ck_assert_uint_eq(lk_rec(&env, 1, 0, FT_T0_PS).down_drop_frames, 1);
	ck_assert_uint_eq(ft_stats(&env, 1).rx_frames, 0);
	ft_close(&env);
}
END_TEST

/*
 * A k=4 fat tree with agg0-core0 and tor2-agg3 down: rerouting still
 * takes every pair of hosts, on every entropy tried, to its destination
 * through the shortest up-down path left, never over a downed link.
 */
START_TEST(test_fat_tree_reroutes_every_pair_around_two_links)
{
	struct uet_fabric_conf c;
	struct ft_env env;
	struct uet_fabric_port_info info;
	uint32_t s, d, hops;
	uint16_t e;
	int a, b;

	ft_conf(&c);
	c.topo = UET_FABRIC_TOPO_FAT_TREE;
	c.k = 4;
	c.hosts = 16;
	ft_open(&env, "link_fat_tree", &c);
	a = uet_fabric_link_find(env.fab, "agg0-core0");
	b = uet_fabric_link_find(env.fab, "tor2-agg3");
	ck_assert_int_ge(a, 16);
	ck_assert_int_ge(b, 16);
	/* At 1 ps: a run with no frame runs no window at 0, so a failure
	 * at 0 would wait for the first frame. */
	lk_fail(&env, (uint32_t)a, 1, 0, true);
	lk_fail(&env, (uint32_t)b, 1, 0, true);
	ft_run(&env);
	ck_assert(lk_rec(&env, (uint32_t)a, 0, 1).link_down);
	ck_assert(lk_rec(&env, (uint32_t)b, 0, 1).link_down);
	for (s = 0; s < 16; s++) {
		for (d = 0; d < 16; d++) {
			for (e = 0; e < 16 && s != d; e++) {
				struct uet_fabric_flow f =
					ft_flow(s, d, (uint16_t)(e * 4099));
				uint32_t sw;
				int p;

				ck_assert_int_eq(
					uet_fabric_port_info(env.fab, s, &info),
					0);
				sw = info.sw;
				for (hops = 0; hops < 5; hops++) {
					p = uet_fabric_next_port(env.fab, sw,
								 &f);
					ck_assert_int_ge(p, 0);
					ck_assert(
						!lk_rec(&env, (uint32_t)p, 0, 0)
							 .link_down);
					ck_assert_int_eq(uet_fabric_port_info(
								 env.fab,
								 (uint32_t)p,
								 &info),
							 0);
					if (info.peer < 0)
						break;
					ck_assert_int_eq(
						uet_fabric_port_info(
							env.fab,
							(uint32_t)info.peer,
							&info),
						0);
					sw = info.sw;
				}
				ck_assert_int_eq(info.host, (int32_t)d);
			}
		}
	}
	ft_close(&env);
}
END_TEST

/* Bad failures are refused: a port past the fabric, a rate of 0 or above
 * 100% without down, a time already past. */
START_TEST(test_bad_failures_are_refused)
{
	struct ft_env env;
	struct uet_fabric_failure f = {.port = 2, .rate_ppm = 500000};

	ft_open(&env, "link_bad", NULL);
	f.port = 8;
	ck_assert_int_eq(uet_fabric_add_failure(env.fab, &f), -EINVAL);
	f.port = 2;
	f.rate_ppm = 0;
	ck_assert_int_eq(uet_fabric_add_failure(env.fab, &f), -EINVAL);
	f.rate_ppm = 1000001;
	ck_assert_int_eq(uet_fabric_add_failure(env.fab, &f), -EINVAL);
	f.rate_ppm = 0;
	f.down = true;
	ck_assert_int_eq(uet_fabric_add_failure(env.fab, &f), 0);
	ck_assert_int_eq(uet_fabric_add_failure(env.fab, NULL), -EINVAL);
	ft_deliver(&env, 0, ft_frame(&env, 0, 3, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_run(&env);
	f.at_ps = FT_T0_PS - 1;
	ck_assert_int_eq(uet_fabric_add_failure(env.fab, &f), -EINVAL);
	ft_close(&env);
}
END_TEST

/* What the occupancy callback saw. */
struct lk_samples {
	uet_time_t time_ps[64];
	uint64_t queue_bytes[64];
	unsigned int n;
};

static void lk_on_sample(void *ctx, uet_time_t time_ps, uint32_t port,
			 const struct uet_fabric_port_stats *st)
{
	struct lk_samples *s = ctx;

	ck_assert_uint_eq(port, 1);
	ck_assert_uint_eq(st->queue_bytes, st->tc[0].queue_bytes);
	ck_assert_uint_lt(s->n, 64);
	s->time_ps[s->n] = time_ps;
	s->queue_bytes[s->n++] = st->queue_bytes;
}

/* Port 1 (host 1) holds 4,202 bytes from T0, 8,404 once the second frame
 * joins at T0, 4,202 after the first leaves at T0 + 84,040 and none after
 * T0 + 168,080: 12,606 x 84,040 = 1,059,408,240 byte-ps, so a mean over
 * [0, 2 us] of 529 bytes (floored). Samples every 50 ns show the state
 * after every event at or before their time: 0 until 950 ns, 8,404 at
 * 1,000 and 1,050 ns, 4,202 at 1,100 and 1,150, 0 at 1,200. */
START_TEST(test_occupancy_mean_and_samples_are_exact)
{
	struct ft_env env;
	struct lk_samples smp = {.n = 0};
	struct uet_fabric_tc_record r;
	const uint32_t port = 1, bad = 99;
	unsigned int i;

	ft_open(&env, "link_occ", NULL);
	ck_assert_int_eq(uet_fabric_set_occupancy(env.fab, 50000, &bad, 1,
						  lk_on_sample, &smp),
			 -EINVAL);
	ck_assert_int_eq(uet_fabric_set_occupancy(env.fab, 0, &port, 1,
						  lk_on_sample, &smp),
			 -EINVAL);
	ck_assert_int_eq(uet_fabric_set_occupancy(env.fab, 50000, &port, 1,
						  lk_on_sample, &smp),
			 0);
	ft_deliver(&env, 0, ft_frame(&env, 0, 1, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_deliver(&env, 2, ft_frame(&env, 2, 1, FT_PAYLOAD_BIG, 2), FT_T0_PS);
	ft_run(&env);
	/* Those before the last change (T0 + 168,080) came with the
	 * changes: 0 to 1,150 ns. */
	ck_assert_uint_eq(smp.n, 24);
	uet_fabric_occupancy_flush(env.fab, 1200000);
	ck_assert_uint_eq(smp.n, 25);
	for (i = 0; i < smp.n; i++) {
		uint64_t want = 0;

		ck_assert_uint_eq(smp.time_ps[i], (uet_time_t)i * 50000);
		if (i == 20 || i == 21)
			want = 2 * FT_WIRE_BIG;
		else if (i == 22 || i == 23)
			want = FT_WIRE_BIG;
		ck_assert_uint_eq(smp.queue_bytes[i], want);
	}
	/* A flush to the same time again gives nothing new. */
	uet_fabric_occupancy_flush(env.fab, 1200000);
	ck_assert_uint_eq(smp.n, 25);

	r = lk_rec(&env, 1, 0, 2000000);
	ck_assert_uint_eq(r.mean_queue_bytes, 529);
	ck_assert_uint_eq(r.paused_ps, 0);
	ck_assert_uint_eq(r.down_drop_frames, 0);
	ck_assert_uint_eq(ft_stats(&env, 1).tc[0].peak_queue_bytes,
			  2 * FT_WIRE_BIG);
	/* Over [0, T0 + 168,080] the same area: 1,059,408,240 / 1,168,080. */
	ck_assert_uint_eq(lk_rec(&env, 1, 0, 1168080).mean_queue_bytes, 906);
	ck_assert_uint_eq(lk_rec(&env, 2, 0, 2000000).mean_queue_bytes, 0);
	ck_assert_int_eq(uet_fabric_tc_record(env.fab, 1, 8, 0, &r), -EINVAL);
	ft_close(&env);
}
END_TEST

static Suite *link_suite(void)
{
	Suite *s = suite_create("fabric-link");
	TCase *tc = tcase_create("link");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_link_and_port_names_parse);
	tcase_add_test(
		tc, test_names_checked_from_the_conf_as_the_fabric_finds_them);
	tcase_add_test(tc, test_degraded_link_serializes_at_its_fraction);
	tcase_add_test(tc, test_degrade_applies_from_the_next_frame);
	tcase_add_test(tc, test_queue_limit_by_port_rate);
	tcase_add_test(tc, test_degraded_link_scales_its_queue_limit);
	tcase_add_test(tc, test_degraded_link_scales_its_ecn_thresholds);
	tcase_add_test(tc, test_link_down_reroutes_over_the_next_hops_left);
	tcase_add_test(tc, test_link_down_blackholes_when_configured);
	tcase_add_test(tc, test_no_next_hop_left_loses_the_frame);
	tcase_add_test(tc, test_fat_tree_reroutes_every_pair_around_two_links);
	tcase_add_test(tc, test_bad_failures_are_refused);
	tcase_add_test(tc, test_occupancy_mean_and_samples_are_exact);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(link_suite)
