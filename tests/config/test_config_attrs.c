/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The attribute table (uet_config_attrs.c, uet_config_value.c): every
 * default applied and in range, every attribute parsed with its unit, the
 * derived values, and the table in docs/configuration.md.
 */
#include "check_main.h"
#include "config_test.h"

START_TEST(test_defaults_applied)
{
	struct uet_scenario s;

	ck_assert_int_eq(uet_scenario_defaults(&s), 0);
	ck_assert_int_eq(s.run.clock, UET_CLOCK_LOCKSTEP);
	ck_assert_uint_eq(s.run.time_dilation, 1);
	ck_assert_uint_eq(s.run.seed, 1);
	ck_assert_uint_eq(s.run.end_ps, 10 * PS_PER_MS);
	ck_assert_str_eq(s.run.out, "out/");
	ck_assert(s.run.progress);
	ck_assert_int_eq(s.topology.kind, UET_TOPOLOGY_SINGLE_SWITCH);
	ck_assert_uint_eq(s.topology.hosts, 2);
	ck_assert_uint_eq(s.topology.link_rate_bps, 400 * GBPS);
	ck_assert_uint_eq(s.topology.link_delay_ps, 500 * PS_PER_NS);
	ck_assert_uint_eq(s.nic.data_rate_bps, 400 * GBPS);
	ck_assert_uint_eq(s.nic.delay_ps, 500 * PS_PER_NS);
	ck_assert_uint_eq(s.nic.rdma_data_mss_bytes, 4096);
	ck_assert_uint_eq(s.nic.lane_bps, UINT64_C(31520000000));
	ck_assert_uint_eq(s.nic.lane_count, 16);
	ck_assert_uint_eq(s.nic.pcie_max_payload_bytes, 512);
	ck_assert_uint_eq(s.nic.pcie_tlp_overhead_bytes, 34);
	ck_assert_uint_eq(s.nic.pcie_tx_buffer_size_bytes, 16384);
	ck_assert_uint_eq(s.nic.egress_pool_size_bytes, 262144);
	ck_assert_uint_eq(s.nic.ingress_pool_size_bytes, 1048576);
	ck_assert(!s.nic.prefetch_buffer_enable);
	ck_assert_uint_eq(s.nic.prefetch_buffer_size_bytes, 163840);
	ck_assert(!s.nic.trimming_enabled);
	ck_assert(s.nic.pdc_groups_enabled);
	ck_assert_uint_eq(s.nic.transmit_start_delay_ps, 15 * PS_PER_NS);
	ck_assert_uint_eq(s.nic.dscp_no_trim, 0);
	ck_assert_uint_eq(s.nic.dscp_trimmable, 1);
	ck_assert_uint_eq(s.nic.dscp_trimmable_retransmit, 2);
	ck_assert_uint_eq(s.nic.dscp_control, 8);
	ck_assert_uint_eq(s.nic.dscp_trimmed, 9);
	ck_assert_uint_eq(s.nic.dscp_trimmed_last_hop, 10);
	ck_assert(s.nic.retransmit_trimmable);
	ck_assert_uint_eq(s.nic.udp_dest_port, 4793);
	ck_assert_uint_eq(s.pds.ack_request_every_nth_packet, 1);
	ck_assert(s.pds.ack_request_first_packet);
	ck_assert(s.pds.ack_request_last_packet);
	/* auto: derived from the default fabric (test_config_derive.c). */
	ck_assert_uint_eq(s.pds.initial_retransmit_timeout_ps, 13261651);
	ck_assert_uint_eq(s.pds.max_exponential_rto_backoff_count, 6);
	ck_assert(!s.pds.fixed_rexmit_time_enable);
	ck_assert_uint_eq(s.pds.fixed_rexmit_timeout_ps, 100 * PS_PER_US);
	ck_assert_uint_eq(s.pds.initial_base_rtt_ps, 2171200);
	ck_assert_int_eq(s.pds.congestion_control, UET_SCENARIO_CC_NSCC);
	ck_assert_uint_eq(s.pds.fixed_window_bytes, 0);
	ck_assert_int_eq(s.pds.load_balancing, UET_SCENARIO_LB_REPS);
	ck_assert_uint_eq(s.pds.nscc_target_qdelay_ps, 2171200);
	ck_assert_uint_eq(s.pds.nscc_initial_window_bytes, 0);
	ck_assert_uint_eq(s.pds.reps_cache_size, 8);
	ck_assert_uint_eq(s.pds.reps_usable_lifetime, 1);
	ck_assert_uint_eq(s.pds.reps_freeze_ps, 100 * PS_PER_US);
	ck_assert_uint_eq(s.pds.reps_explore_count, 16);
	ck_assert_uint_eq(s.pds.bitmap_paths, 256);
	ck_assert(!s.records.enable_cc_trace);
	ck_assert_uint_eq(s.sw.queue_limit_bytes, 542800);
	ck_assert_uint_eq(s.sw.drop_rate_ppm, 0);
	ck_assert(s.records.enable_transport_stats);
	ck_assert_uint_eq(s.records.nd_stats_report_interval_ps,
			  10 * PS_PER_US);
	ck_assert(s.records.enable_event_logging);
	ck_assert(!s.records.enable_uet_monitor);
	ck_assert(s.records.enable_flow_summary);
	ck_assert(s.records.enable_pcap);
	ck_assert_uint_eq(s.workload.message_count, 0);
	ck_assert_ptr_null(s.workload.messages);
}
END_TEST

/* 1.5 x 400 Gbps x 2.1712 us (the default fabric's RTT) = 1.5 x 108560
 * bytes. */
START_TEST(test_fixed_window_derived_from_rate_and_base_rtt)
{
	struct uet_scenario s;
	struct uet_config_error e;

	uet_scenario_defaults(&s);
	ck_assert_uint_eq(s.derived.fixed_window_bytes, 162840);
	ck_assert_uint_eq(s.derived.lookahead_ps, 500 * PS_PER_NS);
	ck_assert_int_eq(load(&s,
			      "nic: {DataRate: 100Gbps, Delay: 1.2us}\n"
			      "pds: {InitialBaseRTT: 8us}\n",
			      &e),
			 0);
	ck_assert_uint_eq(s.derived.fixed_window_bytes, 150000);
	/* The lookahead is the smaller of the NIC's Delay and the host
	 * link's delay (500 ns by default). */
	ck_assert_uint_eq(s.derived.lookahead_ps, 500 * PS_PER_NS);
	ck_assert_int_eq(load(&s,
			      "nic: {Delay: 1.2us}\n"
			      "topology: {link_delay: 2us}\n",
			      &e),
			 0);
	ck_assert_uint_eq(s.derived.lookahead_ps, 1200 * PS_PER_NS);
	ck_assert_int_eq(load(&s,
			      "nic: {Delay: 1.2us}\n"
			      "topology: {link_delay: 300ns}\n",
			      &e),
			 0);
	ck_assert_uint_eq(s.derived.lookahead_ps, 300 * PS_PER_NS);
	ck_assert_int_ne(load(&s, "topology: {link_delay: 0ns}\n", &e), 0);
	ck_assert_str_eq(e.key, "topology.link_delay");
	ck_assert_int_eq(load(&s, "pds: {FixedWindow: 64KiB}\n", &e), 0);
	ck_assert_uint_eq(s.derived.fixed_window_bytes, 65536);
}
END_TEST

START_TEST(test_every_default_is_in_range)
{
	struct uet_scenario s, empty;
	struct uet_config_error e;
	const struct uet_attr *a;
	size_t n, i;

	a = uet_config_attrs(&n);
	ck_assert_uint_ge(n, 50);
	for (i = 0; i < n; i++) {
		ck_assert_ptr_nonnull(a[i].meaning);
		ck_assert_ptr_nonnull(a[i].why);
		ck_assert_uint_le(a[i].min, a[i].max);
	}
	uet_scenario_defaults(&s);
	ck_assert_int_eq(load(&empty, "", &e), 0);
	ck_assert(uet_scenario_equal(&s, &empty));
	ck_assert_int_eq(load(&empty, "run:\nnic:\n", &e), 0);
	ck_assert(uet_scenario_equal(&s, &empty));
}
END_TEST

START_TEST(test_every_attribute_parsed_with_unit)
{
	struct uet_scenario s;
	struct uet_config_error e;
	int rc = load(&s, every_attribute(), &e);

	ck_assert_msg(rc == 0, "%s", e.message);
	ck_assert_int_eq(s.run.clock, UET_CLOCK_REALTIME);
	ck_assert_uint_eq(s.run.time_dilation, 50);
	ck_assert_uint_eq(s.run.seed, UINT64_C(12345678901));
	ck_assert_uint_eq(s.run.end_ps, 2500 * PS_PER_US);
	ck_assert_str_eq(s.run.out, "results/run 1/");
	ck_assert(!s.run.progress);
	ck_assert_uint_eq(s.topology.hosts, 8);
	ck_assert_uint_eq(s.topology.link_rate_bps, 200 * GBPS);
	ck_assert_uint_eq(s.topology.link_delay_ps, 84040);
	ck_assert_uint_eq(s.nic.data_rate_bps, 100 * GBPS);
	ck_assert_uint_eq(s.nic.delay_ps, 1500 * PS_PER_NS);
	ck_assert_uint_eq(s.nic.rdma_data_mss_bytes, 2048);
	ck_assert_uint_eq(s.nic.lane_bps, UINT64_C(15750000000));
	ck_assert_uint_eq(s.nic.lane_count, 8);
	ck_assert_uint_eq(s.nic.pcie_max_payload_bytes, 256);
	ck_assert_uint_eq(s.nic.pcie_tlp_overhead_bytes, 30);
	ck_assert_uint_eq(s.nic.pcie_tx_buffer_size_bytes, 32768);
	ck_assert_uint_eq(s.nic.egress_pool_size_bytes, 524288);
	ck_assert_uint_eq(s.nic.ingress_pool_size_bytes, 2097152);
	ck_assert(s.nic.prefetch_buffer_enable);
	ck_assert_uint_eq(s.nic.prefetch_buffer_size_bytes, 65536);
	ck_assert(s.nic.trimming_enabled);
	ck_assert(!s.nic.pdc_groups_enabled);
	ck_assert_uint_eq(s.nic.transmit_start_delay_ps, 20 * PS_PER_NS);
	ck_assert_uint_eq(s.nic.dscp_no_trim, 3);
	ck_assert_uint_eq(s.nic.dscp_trimmable, 4);
	ck_assert_uint_eq(s.nic.dscp_trimmable_retransmit, 5);
	ck_assert_uint_eq(s.nic.dscp_control, 16);
	ck_assert_uint_eq(s.nic.dscp_trimmed, 17);
	ck_assert_uint_eq(s.nic.dscp_trimmed_last_hop, 63);
	ck_assert(!s.nic.retransmit_trimmable);
	ck_assert_uint_eq(s.nic.udp_dest_port, 5000);
	ck_assert_uint_eq(s.pds.ack_request_every_nth_packet, 4);
	ck_assert(!s.pds.ack_request_first_packet);
	ck_assert(!s.pds.ack_request_last_packet);
	ck_assert_uint_eq(s.pds.initial_retransmit_timeout_ps, 50 * PS_PER_US);
	ck_assert_uint_eq(s.pds.max_exponential_rto_backoff_count, 3);
	ck_assert(s.pds.fixed_rexmit_time_enable);
	ck_assert_uint_eq(s.pds.fixed_rexmit_timeout_ps, PS_PER_MS);
	ck_assert_uint_eq(s.pds.initial_base_rtt_ps, 3500 * PS_PER_NS);
	ck_assert_uint_eq(s.pds.fixed_window_bytes, 131072);
	ck_assert_uint_eq(s.derived.fixed_window_bytes, 131072);
	ck_assert_uint_eq(s.sw.queue_limit_bytes, 524288);
	ck_assert_uint_eq(s.sw.drop_rate_ppm, 10000);
	ck_assert(!s.records.enable_transport_stats);
	ck_assert_uint_eq(s.records.nd_stats_report_interval_ps, PS_PER_MS);
	ck_assert(!s.records.enable_event_logging);
	ck_assert(s.records.enable_uet_monitor);
	ck_assert(!s.records.enable_flow_summary);
	ck_assert(!s.records.enable_pcap);
	ck_assert_uint_eq(s.workload.message_count, 3);
	ck_assert_uint_eq(s.workload.messages[0].src, 0);
	ck_assert_uint_eq(s.workload.messages[0].dst, 7);
	ck_assert_uint_eq(s.workload.messages[0].size_bytes, 1048576);
	ck_assert_uint_eq(s.workload.messages[0].at_ps, 0);
	ck_assert_uint_eq(s.workload.messages[1].size_bytes, 0);
	ck_assert_uint_eq(s.workload.messages[1].at_ps, 1500 * PS_PER_NS);
	ck_assert_uint_eq(s.workload.messages[2].size_bytes, 4202);
	ck_assert_uint_eq(s.workload.messages[2].at_ps, 0);
	uet_scenario_free(&s);
	ck_assert_uint_eq(s.workload.message_count, 0);
}
END_TEST

START_TEST(test_drop_rate_as_percent_and_ppm)
{
	struct uet_scenario s;
	struct uet_config_error e;

	ck_assert_int_eq(load(&s, "switch: {drop_rate: 1%}\n", &e), 0);
	ck_assert_uint_eq(s.sw.drop_rate_ppm, 10000);
	ck_assert_int_eq(load(&s, "switch: {drop_rate: 150ppm}\n", &e), 0);
	ck_assert_uint_eq(s.sw.drop_rate_ppm, 150);
	ck_assert_int_eq(load(&s, "switch: {drop_rate: 1}\n", &e), 0);
	ck_assert_uint_eq(s.sw.drop_rate_ppm, 1000000);
}
END_TEST

/* docs/configuration.md carries every row of the table, word for word. */
START_TEST(test_doc_has_every_table_row)
{
	char path[512], *doc, *table = NULL, *line, *save = NULL;
	size_t table_len = 0, doc_len;
	FILE *f;
	long sz;

	snprintf(path, sizeof(path), "%s/docs/configuration.md", source_root());
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	doc = calloc(1, (size_t)sz + 1);
	doc_len = fread(doc, 1, (size_t)sz, f);
	doc[doc_len] = '\0';
	fclose(f);

	f = open_memstream(&table, &table_len);
	ck_assert_int_eq(uet_config_print_doc_table(f), 0);
	fclose(f);
	for (line = strtok_r(table, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save))
		ck_assert_msg(strstr(doc, line) != NULL,
			      "docs/configuration.md lacks the row:\n%s "
			      "(regenerate it with uet_config_print_doc_table)",
			      line);
	free(table);
	free(doc);
}
END_TEST

static Suite *config_attrs_suite(void)
{
	Suite *s = suite_create("config_attrs");
	TCase *tc = tcase_create("attrs");

	tcase_add_test(tc, test_defaults_applied);
	tcase_add_test(tc, test_fixed_window_derived_from_rate_and_base_rtt);
	tcase_add_test(tc, test_every_default_is_in_range);
	tcase_add_test(tc, test_every_attribute_parsed_with_unit);
	tcase_add_test(tc, test_drop_rate_as_percent_and_ppm);
	tcase_add_test(tc, test_doc_has_every_table_row);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(config_attrs_suite)
