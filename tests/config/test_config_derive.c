/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Defaults derived from the fabric (lib/config/uet_config_derive.c): each
 * auto attribute pinned to exact picoseconds and bytes on the 16-host k = 4
 * fat tree at 100 Gbps and 1 us per hop and on the default 400 Gbps single
 * switch with 500 ns links; tiers following link_rate and link_delay; an
 * explicit value winning and still checked by the rules; --print-config
 * showing auto with the value and its derivation, and loading back.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "config_test.h"
#include "uet_config.h"

/* The fabric of examples/cc-fat-tree-*.yaml with nothing else set. */
static const char fat_tree[] =
	"topology: {kind: fat-tree, k: 4, link_rate: 100Gbps, link_delay: "
	"1us}\n"
	"nic: {DataRate: 100Gbps, Delay: 1us, TrimmingEnabled: true}\n";

static void load_ok(struct uet_scenario *s, const char *yaml)
{
	struct uet_config_error e;
	int rc = uet_scenario_load_string(s, "scenario.yaml", yaml,
					  strlen(yaml), &e);

	ck_assert_msg(rc == 0, "%s", e.message);
}

static bool is_auto(const struct uet_scenario *s, enum uet_auto_attr a)
{
	return (s->derived.auto_mask >> a) & 1u;
}

/*
 * The k = 4 fat tree's longest path crosses the core: 6 links each way.
 * RTT = 12 x 1 us + 6 x 336.16 ns (4202-byte data frame at 100 Gbps) +
 * 6 x 6.24 ns (78-byte ACK) = 14.0544 us (docs/congestion-control.md).
 */
START_TEST(test_derive_fat_tree_rtt_is_14_0544_us)
{
	struct uet_scenario s;

	load_ok(&s, fat_tree);
	ck_assert_uint_eq(s.derived.longest_path_links, 6);
	ck_assert_uint_eq(s.derived.network_rtt_ps, 14054400);
	ck_assert(is_auto(&s, UET_AUTO_INITIAL_BASE_RTT));
	ck_assert_uint_eq(s.pds.initial_base_rtt_ps, 14054400);
	/* NSCC's target: 0.75 x the RTT with trimming. */
	ck_assert_uint_eq(s.pds.nscc_target_qdelay_ps, 10540800);
	/* The fixed window follows: 1.5 x 100 Gbps x 14.0544 us. */
	ck_assert_uint_eq(s.derived.fixed_window_bytes, 263520);
}
END_TEST

/* One BDP, 100 Gbps x 14.0544 us, and ECN at 20% and 80% of it. */
START_TEST(test_derive_fat_tree_queue_one_bdp_ecn_20_80)
{
	struct uet_scenario s;

	load_ok(&s, fat_tree);
	ck_assert_uint_eq(s.sw.queue_limit_bytes, 175680);
	ck_assert_uint_eq(s.derived.queue_time_ps, 14054400);
	ck_assert_uint_eq(s.sw.ecn_kmin_bytes, 35136);
	ck_assert_uint_eq(s.sw.ecn_kmax_bytes, 140544);
	ck_assert_uint_eq(s.derived.ecn_kmin_ppm, 200000);
	ck_assert_uint_eq(s.derived.ecn_kmax_ppm, 800000);
}
END_TEST

/*
 * RTO = RTT 14.0544 us + a full queue at each of 5 switch ports (5 x
 * 14.0544 us) + a data frame ahead of the ACK on each of 6 links (6 x
 * 336.16 ns) + the ACK hold of one packet (4184 bytes at 16 x 31.52 Gbps,
 * 66.371 ns) = 86.409731 us; each packet the ACK-request cadence adds
 * waits one more frame at the sender's 100 Gbps.
 */
START_TEST(test_derive_fat_tree_rto_full_queue_every_hop)
{
	struct uet_scenario s;

	load_ok(&s, fat_tree);
	ck_assert(is_auto(&s, UET_AUTO_INITIAL_RTO));
	ck_assert_uint_eq(s.pds.initial_retransmit_timeout_ps,
			  14054400 + 5 * 14054400 + 6 * 336160 + 66371);
	ck_assert_uint_eq(s.pds.initial_retransmit_timeout_ps, 86409731);
	load_ok(&s, "topology: {kind: fat-tree, k: 4, link_rate: 100Gbps, "
		    "link_delay: 1us}\n"
		    "nic: {DataRate: 100Gbps, Delay: 1us}\n"
		    "pds: {AckRequestEveryNthPacket: 4}\n"
		    "switch: {TrimmingEnabled: true}\n");
	ck_assert_uint_eq(s.pds.initial_retransmit_timeout_ps,
			  86409731 + 3 * 336160);
	/* No trimming: the target is the whole RTT. */
	ck_assert_uint_eq(s.pds.nscc_target_qdelay_ps, 14054400);
}
END_TEST

/* The tiers take link_rate and link_delay unless set. */
START_TEST(test_derive_tiers_follow_link_rate_and_delay)
{
	struct uet_scenario s;

	load_ok(&s, fat_tree);
	ck_assert_uint_eq(s.topology.leaf_spine_rate_bps, 100 * GBPS);
	ck_assert_uint_eq(s.topology.agg_core_rate_bps, 100 * GBPS);
	ck_assert_uint_eq(s.topology.leaf_spine_delay_ps, 1000000);
	ck_assert_uint_eq(s.topology.agg_core_delay_ps, 1000000);
	load_ok(&s, "topology: {kind: leaf-spine, link_rate: 200Gbps, "
		    "link_delay: 700ns, leaf_spine_delay: 300ns}\n");
	ck_assert_uint_eq(s.topology.leaf_spine_rate_bps, 200 * GBPS);
	ck_assert_uint_eq(s.topology.leaf_spine_delay_ps, 300000);
	ck_assert(!is_auto(&s, UET_AUTO_LEAF_SPINE_DELAY));
	ck_assert(is_auto(&s, UET_AUTO_LEAF_SPINE_RATE));
}
END_TEST

/*
 * The default fabric: one 400 Gbps switch, 500 ns links, no trimming.
 * RTT = 4 x 500 ns + 2 x 84.04 ns + 2 x 1.56 ns = 2.1712 us; the BDP
 * 108560 bytes, and a drop-tail queue five of it, 542800 bytes, ECN at
 * 20% and 80% of the BDP; RTO = 2.1712 + 5 x 2.1712 us (one switch port's
 * full queue) + 2 x 84.04 ns + 66.371 ns. With switch trimming the queue
 * is one BDP.
 */
START_TEST(test_derive_single_switch_400g_500ns)
{
	struct uet_scenario s;

	ck_assert_int_eq(uet_scenario_defaults(&s), 0);
	ck_assert_uint_eq(s.derived.longest_path_links, 2);
	ck_assert_uint_eq(s.derived.network_rtt_ps, 2171200);
	ck_assert_uint_eq(s.pds.initial_base_rtt_ps, 2171200);
	ck_assert_uint_eq(s.pds.nscc_target_qdelay_ps, 2171200);
	ck_assert_uint_eq(s.sw.queue_limit_bytes, 542800);
	ck_assert_uint_eq(s.derived.queue_time_ps, 5 * 2171200);
	ck_assert_uint_eq(s.sw.ecn_kmin_bytes, 21712);
	ck_assert_uint_eq(s.sw.ecn_kmax_bytes, 86848);
	ck_assert_uint_eq(s.derived.ecn_kmin_ppm, 40000);
	ck_assert_uint_eq(s.derived.ecn_kmax_ppm, 160000);
	ck_assert_uint_eq(s.pds.initial_retransmit_timeout_ps,
			  2171200 + 5 * 2171200 + 2 * 84040 + 66371);
	ck_assert_uint_eq(s.pds.initial_retransmit_timeout_ps, 13261651);
	ck_assert_uint_eq(s.derived.fixed_window_bytes, 162840);
	ck_assert(!s.sw.trimming_enabled);
	load_ok(&s, "switch: {TrimmingEnabled: true}\n");
	ck_assert_uint_eq(s.sw.queue_limit_bytes, 108560);
	ck_assert_uint_eq(s.sw.ecn_kmin_bytes, 21712);
	ck_assert_uint_eq(s.sw.ecn_kmax_bytes, 86848);
	ck_assert_uint_eq(s.pds.initial_retransmit_timeout_ps,
			  2171200 + 2171200 + 2 * 84040 + 66371);
	/* The same with the NIC trimming: three quarters of the RTT. */
	load_ok(&s, "nic: {TrimmingEnabled: true}\n");
	ck_assert_uint_eq(s.pds.nscc_target_qdelay_ps, 1628400);
}
END_TEST

/* The switch trims for NICs that mark trimmable, where it may: under the
 * UET policy and with PFC off; a value in the file wins. */
START_TEST(test_derive_switch_trims_for_trimming_nics)
{
	struct uet_scenario s;

	load_ok(&s, "nic: {TrimmingEnabled: true}\n");
	ck_assert(is_auto(&s, UET_AUTO_SWITCH_TRIMMING));
	ck_assert(s.sw.trimming_enabled);
	ck_assert_uint_eq(s.sw.queue_limit_bytes, 108560);
	load_ok(&s, "nic: {TrimmingEnabled: true}\n"
		    "switch: {PFCClasses: \"0\"}\n");
	ck_assert(!s.sw.trimming_enabled);
	load_ok(&s, "nic: {TrimmingEnabled: true}\n"
		    "switch: {UETPolicyEnabled: false}\n");
	ck_assert(!s.sw.trimming_enabled);
	load_ok(&s, "nic: {TrimmingEnabled: true}\n"
		    "switch: {TrimmingEnabled: false}\n");
	ck_assert(!s.sw.trimming_enabled);
	ck_assert_uint_eq(s.sw.queue_limit_bytes, 542800);
}
END_TEST

/* A leaf-spine crosses a spine (4 links) unless it has one leaf. */
START_TEST(test_derive_leaf_spine_path)
{
	struct uet_scenario s;

	load_ok(&s, "topology: {kind: leaf-spine}\n");
	ck_assert_uint_eq(s.derived.longest_path_links, 4);
	ck_assert_uint_eq(s.derived.network_rtt_ps,
			  8 * 500000 + 4 * 84040 + 4 * 1560);
	load_ok(&s, "topology: {kind: leaf-spine, leaves: 1, "
		    "hosts_per_leaf: 4}\n");
	ck_assert_uint_eq(s.derived.longest_path_links, 2);
	ck_assert_uint_eq(s.derived.network_rtt_ps, 2171200);
}
END_TEST

/*
 * Tiers at 400 Gbps over 100 Gbps hosts: the RTT counts each link at its
 * rate (12 us + 2 x 336.16 + 4 x 84.04 ns + 2 x 6.24 + 4 x 1.56 ns =
 * 13.0272 us), the host ports hold 162840 bytes and a 400 Gbps port its
 * own BDP (the fabric's, queue_time_ps), so every full queue drains in
 * one RTT. With queue_limit set, each port drains it at its own rate.
 */
START_TEST(test_derive_per_port_where_rates_differ)
{
	static const char mixed[] =
		"topology: {kind: fat-tree, k: 4, link_rate: 100Gbps, "
		"link_delay: 1us, leaf_spine_rate: 400Gbps, agg_core_rate: "
		"400Gbps}\n"
		"nic: {DataRate: 100Gbps, Delay: 1us}\n"
		"switch: {TrimmingEnabled: true}\n";
	static const char mixed_queue[] =
		"topology: {kind: fat-tree, k: 4, link_rate: 100Gbps, "
		"link_delay: 1us, leaf_spine_rate: 400Gbps, agg_core_rate: "
		"400Gbps}\n"
		"nic: {DataRate: 100Gbps, Delay: 1us}\n"
		"switch: {queue_limit: 175000, TrimmingEnabled: true}\n";
	struct uet_scenario s;

	load_ok(&s, mixed);
	ck_assert_uint_eq(s.derived.network_rtt_ps, 13027200);
	ck_assert_uint_eq(s.sw.queue_limit_bytes, 162840);
	ck_assert_uint_eq(s.derived.queue_time_ps, 13027200);
	ck_assert_uint_eq(s.pds.initial_retransmit_timeout_ps,
			  13027200 + 5 * 13027200 + 1008480 + 66371);
	load_ok(&s, mixed_queue);
	ck_assert(!is_auto(&s, UET_AUTO_QUEUE_LIMIT));
	ck_assert_uint_eq(s.derived.queue_time_ps, 0);
	ck_assert_uint_eq(s.sw.queue_limit_bytes, 175000);
	/* ECN follows the queue that was set. */
	ck_assert_uint_eq(s.sw.ecn_kmin_bytes, 35000);
	ck_assert_uint_eq(s.sw.ecn_kmax_bytes, 140000);
	/* The host port drains 175000 bytes in 14 us, each 400 Gbps port
	 * in 3.5 us. */
	ck_assert_uint_eq(s.pds.initial_retransmit_timeout_ps,
			  13027200 + 14000000 + 4 * 3500000 + 1008480 + 66371);
}
END_TEST

/* A value in the file wins over auto; auto written out is the default. */
START_TEST(test_derive_explicit_value_wins)
{
	struct uet_scenario a, b;
	char yaml[512];

	snprintf(yaml, sizeof(yaml),
		 "%spds: {InitialBaseRTT: 14us, InitialRetransmitTimeout: "
		 "100us, NsccTargetQdelay: 5us}\n",
		 fat_tree);
	load_ok(&a, yaml);
	ck_assert(!is_auto(&a, UET_AUTO_INITIAL_BASE_RTT));
	ck_assert_uint_eq(a.pds.initial_base_rtt_ps, 14000000);
	ck_assert_uint_eq(a.pds.initial_retransmit_timeout_ps, 100000000);
	ck_assert_uint_eq(a.pds.nscc_target_qdelay_ps, 5000000);
	/* The queue is the fabric's RTT's, not InitialBaseRTT's. */
	ck_assert_uint_eq(a.sw.queue_limit_bytes, 175680);
	load_ok(&a, fat_tree);
	/* Written as auto, the same as left out. */
	snprintf(yaml, sizeof(yaml),
		 "topology: {kind: fat-tree, k: 4, link_rate: 100Gbps, "
		 "link_delay: 1us, agg_core_rate: auto}\n"
		 "nic: {DataRate: 100Gbps, Delay: 1us, TrimmingEnabled: true}\n"
		 "pds: {InitialBaseRTT: auto}\n"
		 "switch: {TrimmingEnabled: auto, queue_limit: auto, "
		 "ECNKmax: auto}\n");
	load_ok(&b, yaml);
	ck_assert(uet_scenario_equal(&a, &b));
}
END_TEST

/* An explicit value is checked against the derived ones by the rules. */
START_TEST(test_derive_explicit_value_checked_by_rules)
{
	struct uet_scenario s;
	struct uet_config_error e;
	const char *yaml = "switch: {ECNKmin: 100000}\n";

	ck_assert_int_eq(
		uet_scenario_load_string(&s, "s.yaml", yaml, strlen(yaml), &e),
		-EINVAL);
	ck_assert_str_eq(e.key, "switch.ECNKmin");
	ck_assert_ptr_nonnull(
		strstr(e.rule, "must not exceed switch.ECNKmax (86848 bytes)"));
	/* A bad value of an auto row says auto loads too. */
	yaml = "pds: {InitialBaseRTT: soon}\n";
	ck_assert_int_eq(
		uet_scenario_load_string(&s, "s.yaml", yaml, strlen(yaml), &e),
		-EINVAL);
	ck_assert_str_eq(e.key, "pds.InitialBaseRTT");
	ck_assert_ptr_nonnull(strstr(e.rule, "or auto"));
	/* auto is no value of a row without a derivation. */
	yaml = "nic: {DataRate: auto}\n";
	ck_assert_int_eq(
		uet_scenario_load_string(&s, "s.yaml", yaml, strlen(yaml), &e),
		-EINVAL);
	ck_assert_str_eq(e.key, "nic.DataRate");
	ck_assert_ptr_null(strstr(e.rule, "or auto"));
}
END_TEST

/* --print-config prints auto, the value and its derivation; it loads
 * back to the same scenario and hash. */
START_TEST(test_derive_print_config_shows_derivation)
{
	struct uet_scenario a, b;
	uint64_t ha, hb;
	char *text;

	load_ok(&a, fat_tree);
	text = print_to_string(&a);
	ck_assert_ptr_nonnull(strstr(
		text, "  InitialBaseRTT: auto  # 14.0544us = the fabric's "
		      "longest unloaded RTT, 6 links each way: delays 12us + a "
		      "4202-byte data frame 2.01696us + a 78-byte ACK "
		      "37.44ns\n"));
	ck_assert_ptr_nonnull(strstr(text, "  InitialRetransmitTimeout: auto  "
					   "# 86409731ps = the fabric's RTT "
					   "14.0544us + a full queue at each "
					   "of the path's 5 switch ports "
					   "70272ns"));
	ck_assert_ptr_nonnull(
		strstr(text, "  queue_limit: auto  # 175680 bytes = 1 BDP "
			     "(switch.TrimmingEnabled), topology.link_rate "
			     "100Gbps x the fabric's RTT 14.0544us\n"));
	ck_assert_ptr_nonnull(strstr(
		text, "  ECNKmin: auto  # 35136 bytes = 20% of queue_limit\n"));
	ck_assert_ptr_nonnull(strstr(text, "  agg_core_rate: auto  # 100Gbps = "
					   "topology.link_rate\n"));
	ck_assert_ptr_nonnull(strstr(text,
				     "  NsccTargetQdelay: auto  # "
				     "10.5408us = 0.75 x InitialBaseRTT"));
	load_ok(&b, text);
	ck_assert(uet_scenario_equal(&a, &b));
	ck_assert_int_eq(uet_scenario_hash(&a, &ha), 0);
	ck_assert_int_eq(uet_scenario_hash(&b, &hb), 0);
	ck_assert_uint_eq(ha, hb);
	free(text);
}
END_TEST

static Suite *config_derive_suite(void)
{
	Suite *s = suite_create("config-derive");
	TCase *tc = tcase_create("derive");

	tcase_add_test(tc, test_derive_fat_tree_rtt_is_14_0544_us);
	tcase_add_test(tc, test_derive_fat_tree_queue_one_bdp_ecn_20_80);
	tcase_add_test(tc, test_derive_fat_tree_rto_full_queue_every_hop);
	tcase_add_test(tc, test_derive_tiers_follow_link_rate_and_delay);
	tcase_add_test(tc, test_derive_single_switch_400g_500ns);
	tcase_add_test(tc, test_derive_switch_trims_for_trimming_nics);
	tcase_add_test(tc, test_derive_leaf_spine_path);
	tcase_add_test(tc, test_derive_per_port_where_rates_differ);
	tcase_add_test(tc, test_derive_explicit_value_wins);
	tcase_add_test(tc, test_derive_explicit_value_checked_by_rules);
	tcase_add_test(tc, test_derive_print_config_shows_derivation);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(config_derive_suite)
