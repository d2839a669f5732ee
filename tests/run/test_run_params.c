/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * From a scenario to the models' parameters (app/common/run_nic_params.c,
 * run_fabric_conf.c): every attribute lands in its field, the lists of
 * switch: are read once at load, and a NIC's port runs at min(DataRate,
 * its link to the rack switch) with no fabric built.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "check_main.h"
#include "uet_run_params.h"

START_TEST(test_fabric_conf_takes_topology_switch_and_seed)
{
	struct uet_scenario sc;
	struct uet_fabric_conf conf;

	ck_assert_int_eq(uet_scenario_defaults(&sc), 0);
	sc.topology.hosts = 16;
	sc.topology.link_rate_bps = UINT64_C(200000000000);
	sc.topology.link_delay_ps = 750000;
	sc.sw.queue_limit_bytes = 65536;
	sc.sw.drop_rate_ppm = 25;
	sc.run.seed = 42;
	ck_assert_int_eq(uet_run_fabric_conf(&sc, &conf), 0);
	ck_assert_uint_eq(conf.hosts, 16);
	ck_assert_uint_eq(conf.link_rate_bps, UINT64_C(200000000000));
	ck_assert_uint_eq(conf.link_delay_ps, 750000);
	ck_assert_uint_eq(conf.queue_limit_bytes, 65536);
	ck_assert_uint_eq(conf.drop_rate_ppm, 25);
	ck_assert_uint_eq(conf.seed, 42);
	ck_assert_int_eq(conf.topo, UET_FABRIC_TOPO_SINGLE);
	sc.topology.kind = UET_TOPOLOGY_LEAF_SPINE;
	sc.topology.leaves = 4;
	sc.topology.spines = 3;
	sc.topology.hosts_per_leaf = 4;
	sc.topology.leaf_spine_rate_bps = UINT64_C(100000000000);
	sc.topology.leaf_spine_delay_ps = 250000;
	ck_assert_int_eq(uet_run_fabric_conf(&sc, &conf), 0);
	ck_assert_int_eq(conf.topo, UET_FABRIC_TOPO_LEAF_SPINE);
	ck_assert_uint_eq(conf.leaves, 4);
	ck_assert_uint_eq(conf.spines, 3);
	ck_assert_uint_eq(conf.hosts_per_leaf, 4);
	ck_assert_uint_eq(conf.tier1_rate_bps, UINT64_C(100000000000));
	ck_assert_uint_eq(conf.tier1_delay_ps, 250000);
	sc.topology.kind = UET_TOPOLOGY_FAT_TREE;
	sc.topology.k = 4;
	ck_assert_int_eq(uet_run_fabric_conf(&sc, &conf), 0);
	ck_assert_int_eq(conf.topo, UET_FABRIC_TOPO_FAT_TREE);
	ck_assert_uint_eq(conf.k, 4);
	ck_assert_int_eq(uet_run_fabric_conf(NULL, &conf), -EINVAL);
	uet_scenario_free(&sc);
}
END_TEST

/* Load a scenario from YAML text, or fail the test. */
static void load(struct uet_scenario *sc, const char *yaml)
{
	struct uet_config_error err;
	int rc = uet_scenario_load_string(sc, "test.yaml", yaml, strlen(yaml),
					  &err);

	ck_assert_msg(rc == 0, "%s", err.message);
}

START_TEST(test_switch_lists_are_read_once_at_load)
{
	static const char yaml[] = "topology:\n"
				   "  hosts: 4\n"
				   "switch:\n"
				   "  UETPolicyEnabled: false\n"
				   "  Scheduler: wrr\n"
				   "  WrrWeights: \"4,1,7\"\n"
				   "  PFCClasses: \"0,3\"\n";
	struct uet_scenario sc;
	struct uet_fabric_conf conf;
	struct uet_nic_params p;

	load(&sc, yaml);
	ck_assert_uint_eq(sc.derived.pfc_class_mask, 0x09);
	ck_assert_uint_eq(sc.derived.wrr_weight[0], 4);
	ck_assert_uint_eq(sc.derived.wrr_weight[2], 7);
	ck_assert_uint_eq(sc.derived.wrr_weight[7], 1);
	ck_assert_int_eq(uet_run_fabric_conf(&sc, &conf), 0);
	ck_assert_uint_eq(conf.pfc_classes, 0x09);
	ck_assert_int_eq(conf.sched, UET_FABRIC_SCHED_WRR);
	ck_assert_uint_eq(conf.wrr_weight[0], 4);
	ck_assert_uint_eq(conf.wrr_weight[1], 1);
	ck_assert_uint_eq(conf.wrr_weight[2], 7);
	ck_assert_uint_eq(conf.wrr_weight[3], 1);
	ck_assert_int_eq(uet_run_nic_params(&sc, 2, &p), 0);
	ck_assert_uint_eq(p.pfc_classes, 0x09);
	ck_assert(!p.uet_policy);
	uet_scenario_free(&sc);
}
END_TEST

START_TEST(test_nic_port_rate_is_the_slower_of_data_rate_and_downlink)
{
	static const char slow_link[] = "topology:\n"
					"  hosts: 2\n"
					"  link_rate: 100Gbps\n";
	struct uet_scenario sc;
	struct uet_nic_params p;

	ck_assert_int_eq(uet_scenario_defaults(&sc), 0);
	ck_assert_int_eq(uet_run_nic_params(&sc, 1, &p), 0);
	ck_assert_uint_eq(p.data_rate_bps, UINT64_C(400000000000));
	ck_assert_uint_eq(p.port_rate_bps, UINT64_C(400000000000));
	uet_scenario_free(&sc);
	load(&sc, slow_link);
	ck_assert_int_eq(uet_run_nic_params(&sc, 1, &p), 0);
	ck_assert_uint_eq(p.data_rate_bps, UINT64_C(400000000000));
	ck_assert_uint_eq(p.port_rate_bps, UINT64_C(100000000000));
	uet_scenario_free(&sc);
}
END_TEST

START_TEST(test_nic_params_take_nic_pds_and_records)
{
	struct uet_scenario sc;
	struct uet_nic_params p;

	ck_assert_int_eq(uet_scenario_defaults(&sc), 0);
	sc.nic.rdma_data_mss_bytes = 2048;
	sc.nic.lane_count = 8;
	sc.nic.dscp_control = 40;
	sc.pds.ack_request_every_nth_packet = 3;
	sc.pds.congestion_control = UET_SCENARIO_CC_FIXED;
	sc.pds.load_balancing = UET_SCENARIO_LB_SINGLE_PATH;
	sc.records.enable_cc_trace = true;
	ck_assert_int_eq(uet_run_nic_params(&sc, 0, &p), 0);
	ck_assert_uint_eq(p.mss_bytes, 2048);
	ck_assert_uint_eq(p.pcie.lane_count, 8);
	ck_assert_uint_eq(p.dscp.codepoint[UET_DSCP_CONTROL], 40);
	ck_assert_uint_eq(p.pds.ack_request_every_nth, 3);
	ck_assert_int_eq(p.cc_algo, UET_CC_FIXED);
	ck_assert_int_eq(p.lb.algo, UET_LB_SINGLE_PATH);
	ck_assert(p.cc_trace_enable);
	ck_assert_uint_eq(p.window_bytes, sc.derived.fixed_window_bytes);
	/* What the NIC cannot use is refused here, before any NIC. */
	sc.nic.rdma_data_mss_bytes = 0;
	ck_assert_int_eq(uet_run_nic_params(&sc, 0, &p), -EINVAL);
	ck_assert_int_eq(uet_nic_params_check(&p), -EINVAL);
	uet_scenario_free(&sc);
}
END_TEST

static Suite *run_params_suite(void)
{
	Suite *s = suite_create("run_params");
	TCase *tc = tcase_create("params");

	tcase_add_test(tc, test_fabric_conf_takes_topology_switch_and_seed);
	tcase_add_test(tc, test_switch_lists_are_read_once_at_load);
	tcase_add_test(
		tc, test_nic_port_rate_is_the_slower_of_data_rate_and_downlink);
	tcase_add_test(tc, test_nic_params_take_nic_pds_and_records);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(run_params_suite)
