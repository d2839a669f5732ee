/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rules that stop a run (uet_config_rules.c), the workload's aside:
 * NIC pools and codepoints, lockstep delays, the switch's policy,
 * trimming, PFC, ECN and WRR, the clock, external hosts, topology shapes
 * and values not supported yet; key, value and rule in every message.
 */
#include "check_main.h"
#include "config_test.h"

START_TEST(test_prefetch_buffer_holds_one_packet)
{
	struct uet_scenario s;
	struct uet_config_error e;
	const char *yaml = "nic:\n"
			   "  PrefetchBufferEnable: true\n"
			   "  RdmaDataMSS: 4096\n"
			   "  PrefetchBufferSize: 4KiB\n";

	ck_assert_int_eq(load(&s, yaml, &e), -EINVAL);
	ck_assert_str_eq(e.message,
			 "scenario.yaml:4: nic.PrefetchBufferSize = 4KiB: "
			 "with PrefetchBufferEnable true it must hold one "
			 "full packet on the wire, RdmaDataMSS + 106 = 4202 "
			 "bytes");
	/* Exactly one packet is enough; the size is unused when off. */
	ck_assert_int_eq(load(&s,
			      "nic: {PrefetchBufferEnable: true, "
			      "PrefetchBufferSize: 4202}\n",
			      &e),
			 0);
	ck_assert_int_eq(load(&s, "nic: {PrefetchBufferSize: 4KiB}\n", &e), 0);
	/* A larger MSS breaks the default size's promise the same way. */
	expect_reject("nic: {PrefetchBufferEnable: true, RdmaDataMSS: 8000,"
		      " PrefetchBufferSize: 8105}\n",
		      1, "nic.PrefetchBufferSize", "8105",
		      "RdmaDataMSS + 106 = 8106 bytes");
}
END_TEST

START_TEST(test_delay_positive_in_lockstep)
{
	struct uet_scenario s;
	struct uet_config_error e;

	expect_reject("nic:\n  Delay: 0ns\n", 2, "nic.Delay", "0ns",
		      "must be > 0 with run.clock lockstep");
	ck_assert_int_eq(
		load(&s, "run: {clock: realtime}\nnic: {Delay: 0}\n", &e), 0);
	ck_assert_uint_eq(s.nic.delay_ps, 0);
}
END_TEST

START_TEST(test_dscp_codepoints_distinct)
{
	expect_reject("nic:\n  DscpTrimmed: 8\n", 2, "nic.DscpTrimmed", "8",
		      "DSCP codepoints must be distinct, and DscpControl is "
		      "also 8");
	expect_reject("nic:\n  DscpNoTrim: 5\n  DscpTrimmable: 5\n", 3,
		      "nic.DscpTrimmable", "5", "and DscpNoTrim is also 5");
}
END_TEST

START_TEST(test_switch_defaults_uet_policy_strict_ecn_20_80)
{
	struct uet_scenario s;
	struct uet_config_error e;

	ck_assert_int_eq(load(&s, "", &e), 0);
	ck_assert(s.sw.uet_policy_enabled);
	ck_assert(!s.sw.trimming_enabled);
	ck_assert_int_eq(s.sw.scheduler, UET_SWITCH_SCHED_STRICT);
	ck_assert_str_eq(s.sw.wrr_weights, "1,1,1,1,1,1,1,1");
	ck_assert(s.sw.ecn_enabled);
	ck_assert_int_eq(s.sw.ecn_mark_at, UET_SWITCH_ECN_DEQUEUE);
	/* 20% and 80% of the default fabric's BDP, 108560 bytes. */
	ck_assert_uint_eq(s.sw.ecn_kmin_bytes, 21712);
	ck_assert_uint_eq(s.sw.ecn_kmax_bytes, 86848);
}
END_TEST

START_TEST(test_switch_trimming_only_under_uet_policy)
{
	struct uet_scenario s;
	struct uet_config_error e;

	expect_reject("switch:\n  UETPolicyEnabled: false\n"
		      "  TrimmingEnabled: true\n",
		      3, "switch.TrimmingEnabled", "true",
		      "switch trimming runs only under the UET policy");
	ck_assert_int_eq(load(&s, "switch: {TrimmingEnabled: true}\n", &e), 0);
	ck_assert(s.sw.trimming_enabled);
}
END_TEST

START_TEST(test_switch_pfc_defaults_off_64k_32k_128k_65535)
{
	struct uet_scenario s;
	struct uet_config_error e;
	uint8_t mask = 0xff;

	ck_assert_int_eq(load(&s, "", &e), 0);
	ck_assert_str_eq(s.sw.pfc_classes, "");
	ck_assert_int_eq(uet_config_pfc_class_mask(s.sw.pfc_classes, &mask), 0);
	ck_assert_uint_eq(mask, 0);
	ck_assert_uint_eq(s.sw.pfc_xoff_bytes, 64 * 1024);
	ck_assert_uint_eq(s.sw.pfc_xon_bytes, 32 * 1024);
	ck_assert_uint_eq(s.sw.pfc_headroom_bytes, 128 * 1024);
	ck_assert_uint_eq(s.sw.pfc_pause_quanta, 65535);
	ck_assert_uint_eq(s.nic.pfc_xoff_bytes, 768 * 1024);
	ck_assert_uint_eq(s.nic.pfc_xon_bytes, 512 * 1024);
}
END_TEST

START_TEST(test_switch_pfc_classes_list_of_0_to_7)
{
	struct uet_scenario s;
	struct uet_config_error e;
	uint8_t mask = 0;

	ck_assert_int_eq(load(&s, "switch: {PFCClasses: \"0,3\"}\n", &e), 0);
	ck_assert_int_eq(uet_config_pfc_class_mask(s.sw.pfc_classes, &mask), 0);
	ck_assert_uint_eq(mask, 0x09);
	ck_assert_uint_eq(s.derived.pfc_class_mask, 0x09); /* read at load */
	ck_assert_int_eq(load(&s, "switch: {PFCClasses: 7}\n", &e), 0);
	ck_assert_int_eq(uet_config_pfc_class_mask(s.sw.pfc_classes, &mask), 0);
	ck_assert_uint_eq(mask, 0x80);
	expect_reject("switch:\n  PFCClasses: \"8\"\n", 2, "switch.PFCClasses",
		      "8", "must be empty or up to 8 traffic classes 0 to 7");
	expect_reject("switch:\n  PFCClasses: \"0,,1\"\n", 2,
		      "switch.PFCClasses", "0,,1",
		      "must be empty or up to 8 traffic classes 0 to 7");
	expect_reject("switch:\n  PFCClasses: \"0,1,2,3,4,5,6,7,0\"\n", 2,
		      "switch.PFCClasses", "0,1,2,3,4,5,6,7,0",
		      "must be empty or up to 8 traffic classes 0 to 7");
}
END_TEST

START_TEST(test_switch_trimming_needs_pfc_off)
{
	expect_reject("switch:\n  PFCClasses: 0\n  TrimmingEnabled: true\n", 3,
		      "switch.TrimmingEnabled", "true",
		      "with PFC off on every switch traffic class");
}
END_TEST

START_TEST(test_pfc_xon_below_xoff_switch_and_nic)
{
	expect_reject("switch:\n  PFCClasses: 0\n  PFCXon: 64KiB\n", 3,
		      "switch.PFCXon", "64KiB",
		      "must be below switch.PFCXoff (65536 bytes)");
	expect_reject("nic:\n  PFCXon: 800KiB\nswitch:\n  PFCClasses: 0\n", 2,
		      "nic.PFCXon", "800KiB",
		      "must be below nic.PFCXoff (786432 bytes)");
	expect_reject("nic:\n  PFCXoff: 2MiB\nswitch:\n  PFCClasses: 0\n", 2,
		      "nic.PFCXoff", "2MiB",
		      "must not exceed nic.IngressPoolSize (1048576 bytes)");
}
END_TEST

START_TEST(test_switch_ecn_kmin_not_above_kmax)
{
	expect_reject("switch:\n  ECNKmin: 900KiB\n  ECNKmax: 800KiB\n", 2,
		      "switch.ECNKmin", "900KiB",
		      "must not exceed switch.ECNKmax (819200 bytes)");
}
END_TEST

START_TEST(test_switch_wrr_weights_one_to_eight_of_1_to_255)
{
	struct uet_scenario s;
	struct uet_config_error e;

	uint8_t w[UET_CONFIG_TCS];

	ck_assert_int_eq(load(&s, "switch: {WrrWeights: \"4,1\"}\n", &e), 0);
	ck_assert_str_eq(s.sw.wrr_weights, "4,1");
	/* Read once, at load: the classes not named weigh 1. */
	ck_assert_uint_eq(s.derived.wrr_weight[0], 4);
	ck_assert_uint_eq(s.derived.wrr_weight[1], 1);
	ck_assert_uint_eq(s.derived.wrr_weight[7], 1);
	ck_assert_int_eq(uet_config_wrr_weights("255,2,3,4,5,6,7,8", w), 0);
	ck_assert_uint_eq(w[0], 255);
	ck_assert_uint_eq(w[7], 8);
	ck_assert_int_eq(uet_config_wrr_weights("3,", w), -EINVAL);
	ck_assert_uint_eq(w[0], 1);
	ck_assert_int_eq(uet_config_wrr_weights(NULL, w), -EINVAL);
	expect_reject("switch:\n  WrrWeights: \"4,0\"\n", 2,
		      "switch.WrrWeights", "4,0", "must be 1 to 8 weights");
	expect_reject("switch:\n  WrrWeights: \"1,1,1,1,1,1,1,1,1\"\n", 2,
		      "switch.WrrWeights", "1,1,1,1,1,1,1,1,1",
		      "must be 1 to 8 weights");
	expect_reject("switch:\n  WrrWeights: \"256\"\n", 2,
		      "switch.WrrWeights", "256", "must be 1 to 8 weights");
}
END_TEST

START_TEST(test_time_dilation_only_with_realtime)
{
	struct uet_scenario s;
	struct uet_config_error e;

	expect_reject("run:\n  time_dilation: 10\n", 2, "run.time_dilation",
		      "10", "applies only with run.clock realtime");
	ck_assert_int_eq(
		load(&s, "run: {clock: realtime, time_dilation: 10}\n", &e), 0);
	ck_assert_uint_eq(s.run.time_dilation, 10);
}
END_TEST

START_TEST(test_external_hosts_realtime_plan_addresses)
{
	struct uet_scenario s;
	struct uet_config_error e;

	expect_reject("switch: {external_hosts: 198.18.0.2}\n", 1,
		      "switch.external_hosts", "198.18.0.2",
		      "applies only with run.clock realtime");
	expect_reject("run: {clock: realtime}\n"
		      "switch: {external_hosts: 198.18.0.3}\n",
		      2, "switch.external_hosts", "198.18.0.3",
		      "198.18.0.3 is not a host's address: with 2 hosts");
	expect_reject("run: {clock: realtime}\n"
		      "switch: {external_hosts: 198.18.0}\n",
		      2, "switch.external_hosts", "198.18.0",
		      "must be IPv4 addresses separated by commas");
	expect_reject("run: {clock: realtime}\n"
		      "switch: {external_hosts: \"198.18.0.1,198.18.0.2\"}\n",
		      2, "switch.external_hosts", "198.18.0.1,198.18.0.2",
		      "at least one must be an emulated NIC");
	/* The conformance loss is of an external host's packets. */
	expect_reject("run: {clock: realtime}\n"
		      "switch: {external_lost_copies: 3}\n",
		      2, "switch.external_lost_copies", "3",
		      "needs switch.external_hosts");
	expect_reject("run: {clock: realtime}\n"
		      "switch: {external_hosts: 198.18.0.2, "
		      "external_lost_copies: 17}\n",
		      2, "switch.external_lost_copies", "17", "");
	/* A message from an external host is expected, not posted: one
	 * between two external hosts has no end of ours. */
	expect_reject("run: {clock: realtime}\n"
		      "topology: {hosts: 3}\n"
		      "switch: {external_hosts: \"198.18.0.2,198.18.0.3\"}\n"
		      "workload:\n  messages:\n"
		      "    - {src: 1, dst: 0, size: 4KiB, at: 0us}\n"
		      "    - {src: 1, dst: 2, size: 4KiB, at: 0us}\n",
		      7, "workload.messages[1].dst", "2",
		      "hosts 1 and 2 are both external");
	ck_assert_int_eq(load(&s,
			      "run: {clock: realtime}\n"
			      "topology: {hosts: 4}\n"
			      "switch: {external_hosts: "
			      "\"198.18.0.2,198.18.0.4\", "
			      "external_lost_copies: 16}\n"
			      "workload:\n  messages:\n"
			      "    - {src: 0, dst: 1, size: 4KiB, at: 0us}\n",
			      &e),
			 0);
	ck_assert(!uet_scenario_host_external(&s, 0));
	ck_assert(uet_scenario_host_external(&s, 1));
	ck_assert(!uet_scenario_host_external(&s, 2));
	ck_assert(uet_scenario_host_external(&s, 3));
	ck_assert_uint_eq(s.sw.external_lost_copies, 16);
	uet_scenario_free(&s);
}
END_TEST

START_TEST(test_not_supported_yet)
{
	expect_reject("pds: {CongestionControl: cubic}\n", 1,
		      "pds.CongestionControl", "cubic",
		      "must be one of: fixed, nscc");
	expect_reject("pds: {LoadBalancing: ecmp}\n", 1, "pds.LoadBalancing",
		      "ecmp",
		      "must be one of: reps, oblivious, single-path, "
		      "bitmap");
	expect_reject("run: {clock: fast}\n", 1, "run.clock", "fast",
		      "must be one of: lockstep, realtime");
}
END_TEST

START_TEST(test_topology_shapes)
{
	char rule[96];
	struct uet_scenario s;
	struct uet_config_error e;

	ck_assert_int_eq(load(&s,
			      "topology: {kind: leaf-spine, leaves: 4, "
			      "spines: 2, hosts_per_leaf: 3, "
			      "leaf_spine_rate: 100Gbps}\n",
			      &e),
			 0);
	ck_assert_uint_eq(s.topology.hosts, 12);
	ck_assert_uint_eq(s.topology.leaf_spine_rate_bps, 100 * GBPS);
	uet_scenario_free(&s);
	ck_assert_int_eq(load(&s, "topology: {kind: fat-tree, k: 8}\n", &e), 0);
	ck_assert_uint_eq(s.topology.hosts, 128);
	uet_scenario_free(&s);
	/* uet-htsim's 8,192-node matrices. */
	ck_assert_int_eq(load(&s, "topology: {kind: fat-tree, k: 32}\n", &e),
			 0);
	ck_assert_uint_eq(s.topology.hosts, 8192);
	uet_scenario_free(&s);
	ck_assert_int_eq(
		load(&s, "topology: {kind: fat-tree, hosts: 16}\n", &e), 0);
	ck_assert_uint_eq(s.topology.hosts, 16);
	uet_scenario_free(&s);
	expect_reject("topology: {kind: fat-tree, hosts: 8}\n", 1,
		      "topology.hosts", "8",
		      "the shape gives 16 hosts; leave hosts out or make it "
		      "16");
	expect_reject("topology: {kind: fat-tree, k: 5}\n", 1, "topology.k",
		      "5", "must be even");
	/* 4,096 leaves of 1,024 hosts: 4,194,304 hosts, past the address
	 * plan. */
	snprintf(rule, sizeof(rule),
		 "gives 4194304 hosts, and a fabric has 2 to %u",
		 (unsigned int)UET_CONFIG_HOSTS_MAX);
	expect_reject("topology: {kind: leaf-spine, leaves: 4096, "
		      "hosts_per_leaf: 1024}\n",
		      1, "topology.kind", "leaf-spine", rule);
	expect_reject("topology: {kind: fat-tree, k: 82}\n", 1, "topology.k",
		      "82", "must be between 2 and 80");
	expect_reject("topology: {leaves: 4}\n", 1, "topology.leaves", "4",
		      "applies only with topology.kind leaf-spine");
	expect_reject("topology: {kind: leaf-spine, k: 4}\n", 1, "topology.k",
		      "4", "applies only with topology.kind fat-tree");
	expect_reject("topology: {kind: leaf-spine, leaves: 1, "
		      "hosts_per_leaf: 1}\n",
		      1, "topology.kind", "leaf-spine",
		      "gives 1 hosts, and a fabric has 2 to");
}
END_TEST

/* records.PcapHosts: auto captures every host up to 1,024 hosts and hosts
 * 0-15 past it; a list captures its hosts and ranges; EnablePcap false
 * captures nothing; a bad list is refused with its rule. */
START_TEST(test_pcap_hosts_auto_all_and_lists)
{
	struct uet_scenario s;
	struct uet_config_error e;

	ck_assert_int_eq(load(&s, "topology: {hosts: 1024}\n", &e), 0);
	ck_assert(uet_scenario_pcap_host(&s, 1023));
	ck_assert(!uet_scenario_pcap_host(&s, 1024));
	ck_assert(!uet_scenario_pcap_auto_limited(&s));
	uet_scenario_free(&s);
	ck_assert_int_eq(load(&s, "topology: {hosts: 1025}\n", &e), 0);
	ck_assert(uet_scenario_pcap_host(&s, 15));
	ck_assert(!uet_scenario_pcap_host(&s, 16));
	ck_assert(uet_scenario_pcap_auto_limited(&s));
	uet_scenario_free(&s);
	ck_assert_int_eq(load(&s,
			      "topology: {hosts: 1025}\n"
			      "records: {PcapHosts: all}\n",
			      &e),
			 0);
	ck_assert(uet_scenario_pcap_host(&s, 1024));
	ck_assert(!uet_scenario_pcap_auto_limited(&s));
	uet_scenario_free(&s);
	ck_assert_int_eq(load(&s,
			      "topology: {hosts: 64}\n"
			      "records: {PcapHosts: \"3, 10-12,63\"}\n",
			      &e),
			 0);
	ck_assert(!uet_scenario_pcap_host(&s, 2));
	ck_assert(uet_scenario_pcap_host(&s, 3));
	ck_assert(!uet_scenario_pcap_host(&s, 9));
	ck_assert(uet_scenario_pcap_host(&s, 10));
	ck_assert(uet_scenario_pcap_host(&s, 12));
	ck_assert(!uet_scenario_pcap_host(&s, 13));
	ck_assert(uet_scenario_pcap_host(&s, 63));
	ck_assert(!uet_scenario_pcap_host(&s, 64));
	uet_scenario_free(&s);
	ck_assert_int_eq(load(&s, "records: {EnablePcap: false}\n", &e), 0);
	ck_assert(!uet_scenario_pcap_host(&s, 0));
	ck_assert(!uet_scenario_pcap_auto_limited(&s));
	uet_scenario_free(&s);
	expect_reject("records: {PcapHosts: \"1-\"}\n", 1, "records.PcapHosts",
		      "1-", "must be auto, all, or host numbers and ranges");
	expect_reject("records: {PcapHosts: \"\"}\n", 1, "records.PcapHosts",
		      "", "to capture nothing, set records.EnablePcap false");
	expect_reject("records: {PcapHosts: \"1,2\"}\n", 1, "records.PcapHosts",
		      "1,2", "host 2 is out of range: topology.hosts is 2");
	expect_reject("records: {PcapHosts: \"1-0\"}\n", 1, "records.PcapHosts",
		      "1-0", "the range 1-0 runs backwards");
}
END_TEST

START_TEST(test_pools_hold_one_packet)
{
	expect_reject("nic: {EgressPoolSize: 4201}\n", 1, "nic.EgressPoolSize",
		      "4201",
		      "must hold one full packet on the wire, "
		      "RdmaDataMSS + 106 = 4202 bytes");
	expect_reject("nic: {IngressPoolSize: 4KiB}\n", 1,
		      "nic.IngressPoolSize", "4KiB",
		      "RdmaDataMSS + 88 = 4184 bytes");
	expect_reject("pds: {FixedWindow: 4000}\n", 1, "pds.FixedWindow",
		      "4000", "RdmaDataMSS + 88 = 4184 bytes");
}
END_TEST

/* A class queue that cannot hold one frame of the scenario's MSS drops
 * every frame: before, queue_limit 0 or 1 was accepted and the run lost
 * all its traffic. */
START_TEST(test_switch_queue_limit_holds_one_packet)
{
	struct uet_scenario s;
	struct uet_config_error e;

	expect_reject("switch: {queue_limit: 0}\n", 1, "switch.queue_limit",
		      "0",
		      "a class queue must hold one full packet on the wire, "
		      "RdmaDataMSS + 106 = 4202 bytes, or the switch drops "
		      "every one: set at least 4202, or auto");
	expect_reject("switch: {queue_limit: 1}\n", 1, "switch.queue_limit",
		      "1", "set at least 4202, or auto");
	expect_reject("nic: {RdmaDataMSS: 8000}\nswitch: {queue_limit: 8105}\n",
		      2, "switch.queue_limit", "8105", "set at least 8106");
	ck_assert_msg(load(&s, "switch: {queue_limit: 4202}\n", &e) == 0, "%s",
		      e.message);
}
END_TEST

/* A rule broken by a default names the default, with no line. */
START_TEST(test_rule_on_default_value)
{
	struct uet_scenario s;
	struct uet_config_error e;

	ck_assert_int_eq(load(&s,
			      "pds: {InitialBaseRTT: 1ns}\n"
			      "nic: {DataRate: 1Gbps}\n",
			      &e),
			 -EINVAL);
	ck_assert_uint_eq(e.line, 0);
	ck_assert_str_eq(e.message,
			 "scenario.yaml: pds.FixedWindow = 0 (default): the "
			 "effective window, 0 bytes, must hold one packet at "
			 "its nominal size, RdmaDataMSS + 88 = 4184 bytes");
}
END_TEST

static Suite *config_rules_suite(void)
{
	Suite *s = suite_create("config_rules");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_prefetch_buffer_holds_one_packet);
	tcase_add_test(tc, test_delay_positive_in_lockstep);
	tcase_add_test(tc, test_dscp_codepoints_distinct);
	tcase_add_test(tc, test_switch_defaults_uet_policy_strict_ecn_20_80);
	tcase_add_test(tc, test_switch_trimming_only_under_uet_policy);
	tcase_add_test(tc, test_switch_pfc_defaults_off_64k_32k_128k_65535);
	tcase_add_test(tc, test_switch_pfc_classes_list_of_0_to_7);
	tcase_add_test(tc, test_switch_trimming_needs_pfc_off);
	tcase_add_test(tc, test_pfc_xon_below_xoff_switch_and_nic);
	tcase_add_test(tc, test_switch_ecn_kmin_not_above_kmax);
	tcase_add_test(tc, test_switch_wrr_weights_one_to_eight_of_1_to_255);
	tcase_add_test(tc, test_time_dilation_only_with_realtime);
	tcase_add_test(tc, test_external_hosts_realtime_plan_addresses);
	tcase_add_test(tc, test_not_supported_yet);
	tcase_add_test(tc, test_topology_shapes);
	tcase_add_test(tc, test_pcap_hosts_auto_all_and_lists);
	tcase_add_test(tc, test_pools_hold_one_packet);
	tcase_add_test(tc, test_switch_queue_limit_holds_one_packet);
	tcase_add_test(tc, test_rule_on_default_value);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(config_rules_suite)
