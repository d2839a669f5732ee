/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Unit tests of lib/config: defaults, every attribute with its unit, every
 * rule that stops a run (key, value and rule in the message), the
 * print-config round trip, the scenario hash, the examples and the table
 * in docs/configuration.md.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "uet_config.h"

#define PS_PER_NS UINT64_C(1000)
#define PS_PER_US UINT64_C(1000000)
#define PS_PER_MS UINT64_C(1000000000)
#define GBPS UINT64_C(1000000000)

static int load(struct uet_scenario *s, const char *yaml,
		struct uet_config_error *err)
{
	return uet_scenario_load_string(s, "scenario.yaml", yaml, strlen(yaml),
					err);
}

/*
 * Load yaml, expect -EINVAL, and check the line, the key, the value and a
 * piece of the rule, both in the fields and in the printed message.
 */
#define expect_reject(yaml, line_, key_, value_, rule_)                        \
	do {                                                                   \
		struct uet_scenario s_;                                        \
		struct uet_config_error e_;                                    \
		int rc_ = load(&s_, (yaml), &e_);                              \
		ck_assert_int_eq(rc_, -EINVAL);                                \
		ck_assert_uint_eq(e_.line, (line_));                           \
		ck_assert_str_eq(e_.key, (key_));                              \
		ck_assert_str_eq(e_.value, (value_));                          \
		ck_assert_msg(strstr(e_.rule, (rule_)) != NULL,                \
			      "rule '%s' lacks '%s'", e_.rule, (rule_));       \
		ck_assert_msg(strstr(e_.message, (key_)) != NULL,              \
			      "message '%s'", e_.message);                     \
		ck_assert_msg(strstr(e_.message, (rule_)) != NULL,             \
			      "message '%s'", e_.message);                     \
		ck_assert_uint_eq(s_.workload.message_count, 0);               \
	} while (0)

static void check_round_trip(const char *yaml);
static char *print_to_string(const struct uet_scenario *s);

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

static const char *const every_attribute =
	"run:\n"
	"  clock: realtime\n"
	"  time_dilation: 50\n"
	"  seed: 12345678901\n"
	"  end: 2.5ms\n"
	"  out: results/run 1/\n"
	"  progress: false\n"
	"topology:\n"
	"  kind: single-switch\n"
	"  hosts: 8\n"
	"  link_rate: 200Gbps\n"
	"  link_delay: 84.04ns\n"
	"nic:\n"
	"  DataRate: 100Gbps\n"
	"  Delay: 1.5us\n"
	"  RdmaDataMSS: 2KiB\n"
	"  LaneBps: 15.75Gbps\n"
	"  LaneCount: 8\n"
	"  PcieMaxPayload: 256\n"
	"  PcieTlpOverhead: 30B\n"
	"  PcieTxBufferSize: 32KiB\n"
	"  EgressPoolSize: 512KiB\n"
	"  IngressPoolSize: 2MiB\n"
	"  PrefetchBufferEnable: true\n"
	"  PrefetchBufferSize: 64KiB\n"
	"  TrimmingEnabled: true\n"
	"  PDCGroupsEnabled: false\n"
	"  TransmitStartDelay: 20ns\n"
	"  DscpNoTrim: 3\n"
	"  DscpTrimmable: 4\n"
	"  DscpTrimmableRetransmit: 5\n"
	"  DscpControl: 16\n"
	"  DscpTrimmed: 17\n"
	"  DscpTrimmedLastHop: 63\n"
	"  RetransmitTrimmable: false\n"
	"  UdpDestPort: 5000\n"
	"pds:\n"
	"  AckRequestEveryNthPacket: 4\n"
	"  AckRequestFirstPacket: false\n"
	"  AckRequestLastPacket: false\n"
	"  InitialRetransmitTimeout: 50us\n"
	"  MaxExponentialRTOBackoffCount: 3\n"
	"  FixedRexmitTimeEnable: true\n"
	"  FixedRexmitTimeout: 1ms\n"
	"  InitialBaseRTT: 3500ns\n"
	"  CongestionControl: fixed\n"
	"  FixedWindow: 128KiB\n"
	"switch:\n"
	"  queue_limit: 512KiB\n"
	"  drop_rate: 0.01\n"
	"records:\n"
	"  EnableTransportStats: false\n"
	"  NDStatsReportInterval: 1ms\n"
	"  EnableEventLogging: false\n"
	"  EnableUetMonitor: true\n"
	"  EnableFlowSummary: false\n"
	"  EnablePcap: false\n"
	"workload:\n"
	"  messages:\n"
	"    - {src: 0, dst: 7, size: 1MiB, at: 0us}\n"
	"    - {src: 7, dst: 0, size: 0, at: 1.5us}\n"
	"    - {src: 3, dst: 4, size: 4202}\n";

START_TEST(test_every_attribute_parsed_with_unit)
{
	struct uet_scenario s;
	struct uet_config_error e;
	int rc = load(&s, every_attribute, &e);

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

START_TEST(test_unknown_key_did_you_mean)
{
	expect_reject("nic:\n  DataRat: 400Gbps\n", 2, "nic.DataRat", "",
		      "unknown key; did you mean 'DataRate'?");
	expect_reject("pds: {initialbasertt: 4us}\n", 1, "pds.initialbasertt",
		      "", "did you mean 'InitialBaseRTT'?");
	expect_reject("run: {colour: red}\n", 1, "run.colour", "",
		      "unknown key in section 'run'");
}
END_TEST

START_TEST(test_unknown_key_in_wrong_section)
{
	expect_reject("pds:\n  AckRequestEveryNthPacket: 2\n"
		      "  EgressPoolSize: 1MiB\n",
		      3, "pds.EgressPoolSize", "",
		      "unknown key; EgressPoolSize belongs in section 'nic'");
}
END_TEST

START_TEST(test_unknown_section)
{
	expect_reject("nics: {Delay: 1us}\n", 1, "nics", "",
		      "unknown section; did you mean 'nic'?");
	expect_reject("run: {}\nfabric: {}\n", 2, "fabric", "",
		      "unknown section; sections are run");
}
END_TEST

START_TEST(test_wrong_type)
{
	expect_reject("topology:\n  hosts: eight\n", 2, "topology.hosts",
		      "eight", "wrong type: expected an unsigned integer");
	expect_reject("run: {progress: yes}\n", 1, "run.progress", "yes",
		      "wrong type: expected a bool, true or false");
	expect_reject("nic:\n  Delay: {ns: 500}\n", 2, "nic.Delay",
		      "(a mapping)", "wrong type: expected a duration");
	expect_reject("nic: [1, 2]\n", 1, "nic", "(a list)",
		      "a section must be a mapping");
	expect_reject("topology: {hosts: -3}\n", 1, "topology.hosts", "-3",
		      "expected an unsigned integer");
}
END_TEST

START_TEST(test_bad_units)
{
	expect_reject("nic: {Delay: 500}\n", 1, "nic.Delay", "500",
		      "not a duration");
	expect_reject("nic: {Delay: 500 parsecs}\n", 1, "nic.Delay",
		      "500 parsecs", "write a number and a unit: ps, ns");
	expect_reject("nic: {DataRate: 400GB}\n", 1, "nic.DataRate", "400GB",
		      "not a rate");
	expect_reject("switch: {queue_limit: 1Mbps}\n", 1, "switch.queue_limit",
		      "1Mbps", "not a size");
	expect_reject("switch: {drop_rate: lots}\n", 1, "switch.drop_rate",
		      "lots", "not a fraction");
	expect_reject("run: {end: 1.0001ps}\n", 1, "run.end", "1.0001ps",
		      "not a duration");
}
END_TEST

START_TEST(test_out_of_range)
{
	expect_reject("topology: {hosts: 1}\n", 1, "topology.hosts", "1",
		      "out of range: must be between 2 and 1024");
	expect_reject("topology: {hosts: 1025}\n", 1, "topology.hosts", "1025",
		      "out of range: must be between 2 and 1024");
	expect_reject("nic: {LaneCount: 33}\n", 1, "nic.LaneCount", "33",
		      "must be between 1 and 32");
	expect_reject("nic: {RdmaDataMSS: 9000}\n", 1, "nic.RdmaDataMSS",
		      "9000", "must be between 64 and 8894");
	expect_reject("nic: {RdmaDataMSS: 63}\n", 1, "nic.RdmaDataMSS", "63",
		      "must be between 64 and 8894");
	expect_reject("nic: {DscpControl: 64}\n", 1, "nic.DscpControl", "64",
		      "must be between 0 and 63");
	expect_reject("pds: {AckRequestEveryNthPacket: 0}\n", 1,
		      "pds.AckRequestEveryNthPacket", "0",
		      "must be between 1 and 65535");
	expect_reject("switch: {drop_rate: 150%}\n", 1, "switch.drop_rate",
		      "150%", "must be between 0% and 100%");
	expect_reject("run: {seed: 99999999999999999999}\n", 1, "run.seed",
		      "99999999999999999999", "must be at least 0");
	expect_reject("run: {end: 0ns}\n", 1, "run.end", "0ns",
		      "must be between 1ps and");
}
END_TEST

START_TEST(test_duplicate_key)
{
	expect_reject("nic:\n  DataRate: 400Gbps\n  DataRate: 200Gbps\n", 3,
		      "nic.DataRate", "",
		      "duplicate key: already set at line 2");
	expect_reject("nic: {Delay: 1us}\nrun: {}\nnic: {}\n", 3, "nic", "",
		      "duplicate section: already at line 1");
	expect_reject("workload:\n  messages:\n"
		      "    - {src: 0, dst: 1, size: 1, src: 1}\n",
		      3, "workload.messages[0].src", "",
		      "duplicate key: already set at line 3");
}
END_TEST

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

	ck_assert_int_eq(load(&s, "switch: {WrrWeights: \"4,1\"}\n", &e), 0);
	ck_assert_str_eq(s.sw.wrr_weights, "4,1");
	expect_reject("switch:\n  WrrWeights: \"4,0\"\n", 2,
		      "switch.WrrWeights", "4,0", "must be 1 to 8 weights");
	expect_reject("switch:\n  WrrWeights: \"1,1,1,1,1,1,1,1,1\"\n", 2,
		      "switch.WrrWeights", "1,1,1,1,1,1,1,1,1",
		      "must be 1 to 8 weights");
	expect_reject("switch:\n  WrrWeights: \"256\"\n", 2,
		      "switch.WrrWeights", "256", "must be 1 to 8 weights");
}
END_TEST

START_TEST(test_workload_host_out_of_range)
{
	expect_reject("topology: {hosts: 4}\n"
		      "workload:\n  messages:\n"
		      "    - {src: 0, dst: 1, size: 1KiB}\n"
		      "    - src: 2\n"
		      "      dst: 4\n"
		      "      size: 1KiB\n",
		      6, "workload.messages[1].dst", "4",
		      "host out of range: topology.hosts is 4, so hosts are "
		      "0 to 3");
	/* hosts is checked after every section, whatever the order. */
	expect_reject("workload: {messages: [{src: 2, dst: 0, size: 1}]}\n"
		      "topology: {hosts: 2}\n",
		      1, "workload.messages[0].src", "2", "host out of range");
}
END_TEST

START_TEST(test_workload_src_equals_dst)
{
	expect_reject("workload:\n  messages:\n"
		      "    - {src: 1, dst: 1, size: 1MiB, at: 0us}\n",
		      3, "workload.messages[0].dst", "1",
		      "dst must differ from src");
}
END_TEST

START_TEST(test_workload_shape)
{
	expect_reject("workload:\n  messages:\n    - {src: 0, size: 1}\n", 3,
		      "workload.messages[0]", "", "missing key 'dst'");
	expect_reject("workload:\n  messages:\n    - {src: 0, dst: 1, "
		      "sise: 1}\n",
		      3, "workload.messages[0].sise", "",
		      "did you mean 'size'?");
	expect_reject("workload:\n  chakra: traces/none\n", 2,
		      "workload.chakra", "traces/none",
		      "no trace file traces/none.0.et");
	expect_reject("workload:\n  matrix: m.cm\n", 2, "workload.matrix",
		      "m.cm", "no such file m.cm");
	expect_reject("workload:\n  mesages: []\n", 2, "workload.mesages", "",
		      "did you mean 'messages'?");
	expect_reject("workload: {messages: {src: 0}}\n", 1,
		      "workload.messages", "(a mapping)",
		      "expected a list of messages");
	expect_reject("workload:\n  messages:\n    - {src: 0, dst: 1, "
		      "size: 1MB, at: soon}\n",
		      3, "workload.messages[0].at", "soon", "not a duration");
}
END_TEST

START_TEST(test_workload_generate_loads)
{
	static const char *const incast =
		"topology: {hosts: 4}\n"
		"workload:\n"
		"  generate: {pattern: incast, size: 4KiB, count: 2, start: "
		"1us, interval: 2us, dst: 3, seed: 9}\n";
	struct uet_scenario s;
	struct uet_config_error e;
	char *text;

	ck_assert_int_eq(load(&s, incast, &e), 0);
	ck_assert_uint_eq(s.workload.generate.pattern, UET_GENERATE_INCAST);
	ck_assert_uint_eq(s.workload.generate.size_bytes, 4096);
	ck_assert_uint_eq(s.workload.generate.count, 2);
	ck_assert_uint_eq(s.workload.generate.start_ps, 1000000);
	ck_assert_uint_eq(s.workload.generate.interval_ps, 2000000);
	ck_assert_uint_eq(s.workload.generate.dst, 3);
	ck_assert_uint_eq(s.workload.generate.seed, 9);
	ck_assert_uint_eq(s.workload.message_count, 0);
	text = print_to_string(&s);
	ck_assert_ptr_nonnull(strstr(text, "  generate:\n"
					   "    pattern: incast\n"
					   "    size: 4096\n"));
	ck_assert_ptr_nonnull(strstr(text, "    dst: 3\n"));
	free(text);
	check_round_trip(incast);
	/* dst is printed as a comment for other patterns: it loads back. */
	check_round_trip("workload: {generate: {pattern: all-to-all}}\n");
	check_round_trip("workload: {generate: {pattern: permutation, "
			 "count: 3, interval: 1us}}\n");
	/* No generator: one comment stands for the mapping. */
	uet_scenario_defaults(&s);
	ck_assert_uint_eq(s.workload.generate.pattern, UET_GENERATE_NONE);
	ck_assert_uint_eq(s.workload.generate.size_bytes, 1048576);
	ck_assert_uint_eq(s.workload.generate.count, 1);
	text = print_to_string(&s);
	ck_assert_ptr_nonnull(strstr(text, "  # generate: (none)\n"));
	ck_assert_ptr_nonnull(strstr(text, "  # matrix: (none)\n"));
	free(text);
}
END_TEST

START_TEST(test_workload_generate_rules)
{
	expect_reject("workload:\n  generate: {size: 4KiB}\n", 0,
		      "workload.generate.pattern", "none",
		      "required once workload.generate.size is given");
	expect_reject("workload:\n  generate: {pattern: ring}\n", 2,
		      "workload.generate.pattern", "ring", "");
	expect_reject("workload:\n  generate: {pattern: incast, sise: 1}\n", 2,
		      "workload.generate.sise", "", "did you mean 'size'?");
	expect_reject("workload:\n  generate: {pattern: permutation, dst: "
		      "1}\n",
		      2, "workload.generate.dst", "1",
		      "applies to pattern incast only");
	expect_reject("topology: {hosts: 4}\n"
		      "workload:\n  generate: {pattern: incast, dst: 4}\n",
		      3, "workload.generate.dst", "4",
		      "host out of range: topology.hosts is 4");
	expect_reject("workload:\n  generate: {pattern: incast, count: 0}\n", 2,
		      "workload.generate.count", "0", "");
	expect_reject("topology: {hosts: 1024}\n"
		      "workload:\n  generate:\n    pattern: all-to-all\n"
		      "    count: 2\n",
		      5, "workload.generate.count", "2",
		      "makes 2095104 messages on 1024 hosts; at most 1048576");
	expect_reject("run: {end: 1ms}\n"
		      "workload:\n  generate: {pattern: uniform, count: 3, "
		      "interval: 600us}\n",
		      3, "workload.generate.interval", "600us",
		      "each host's last message would start after run.end");
	expect_reject("workload:\n  messages:\n"
		      "    - {src: 0, dst: 1, size: 1}\n"
		      "  generate: {pattern: incast}\n",
		      4, "workload.generate.pattern", "incast",
		      "not together with workload.messages: one workload "
		      "source");
	expect_reject("workload:\n  generate: {pattern: incast}\n"
		      "  generate: {pattern: uniform}\n",
		      3, "workload.generate", "", "duplicate key");
	expect_reject("workload:\n  generate: [incast]\n", 2,
		      "workload.generate", "(a list)",
		      "a section must be a mapping");
}
END_TEST

/* A folder of empty rank files t.0.et .. t.<n-1>.et; returns its path. */
static void make_traces(char *dir, size_t len, uint32_t n)
{
	char path[600];
	uint32_t i;

	snprintf(dir, len, "/tmp/uet-config-traces.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	for (i = 0; i < n; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/t.%u.et", dir, i);
		f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fclose(f);
	}
}

static void remove_traces(const char *dir, uint32_t n)
{
	char path[600];
	uint32_t i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/t.%u.et", dir, i);
		remove(path);
	}
	snprintf(path, sizeof(path), "%s/s.yaml", dir);
	remove(path);
	rmdir(dir);
}

START_TEST(test_workload_chakra)
{
	struct uet_scenario s;
	struct uet_config_error e;
	char dir[64], yaml[512], want[600], cm[80], *text;
	FILE *f;

	make_traces(dir, sizeof(dir), 3);
	snprintf(yaml, sizeof(yaml),
		 "topology: {hosts: 3}\n"
		 "workload: {chakra: %s/t, reduce_chunk: 7us,\n"
		 "           all_reduce: direct, broadcast: ring}\n",
		 dir);
	ck_assert_msg(load(&s, yaml, &e) == 0, "%s", e.message);
	snprintf(want, sizeof(want), "%s/t", dir);
	ck_assert_str_eq(s.workload.chakra, want);
	ck_assert_uint_eq(s.workload.reduce_chunk_ps, 7 * PS_PER_US);
	ck_assert_uint_eq(s.workload.coll_algo[0], 1); /* direct */
	ck_assert_uint_eq(s.workload.coll_algo[5], 1); /* ring */
	ck_assert_uint_eq(s.workload.coll_algo[6], 0); /* direct */
	check_round_trip(yaml);
	text = print_to_string(&s);
	ck_assert_ptr_nonnull(strstr(text, "  reduce_chunk: 7us\n"
					   "  all_reduce: direct\n"));
	free(text);

	/* The rank files must be exactly the hosts. */
	snprintf(yaml, sizeof(yaml),
		 "topology: {hosts: 4}\n"
		 "workload: {chakra: %s/t}\n",
		 dir);
	ck_assert_int_eq(load(&s, yaml, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.rule, "3 rank files"));
	ck_assert_ptr_nonnull(strstr(e.rule, "topology.hosts is 4"));
	snprintf(yaml, sizeof(yaml),
		 "topology: {hosts: 2}\n"
		 "workload: {chakra: %s/t}\n",
		 dir);
	ck_assert_int_eq(load(&s, yaml, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.rule, "more than 2 rank files"));
	/* One source per scenario. */
	snprintf(yaml, sizeof(yaml),
		 "topology: {hosts: 3}\n"
		 "workload: {chakra: %s/t,\n"
		 "  messages: [{src: 0, dst: 1, size: 1}]}\n",
		 dir);
	ck_assert_int_eq(load(&s, yaml, &e), -EINVAL);
	ck_assert_str_eq(e.key, "workload.chakra");
	ck_assert_ptr_nonnull(strstr(e.rule, "not together with"));

	/* From a file, a relative prefix starts at the file's folder. */
	snprintf(want, sizeof(want), "%s/s.yaml", dir);
	f = fopen(want, "w");
	ck_assert_ptr_nonnull(f);
	fputs("topology: {hosts: 3}\nworkload: {chakra: t}\n", f);
	fclose(f);
	ck_assert_msg(uet_scenario_load_file(&s, want, &e) == 0, "%s",
		      e.message);
	snprintf(want, sizeof(want), "%s/t", dir);
	ck_assert_str_eq(s.workload.chakra, want);

	/* The matrix: a relative path starts at the scenario's folder
	 * too; one source per scenario. */
	snprintf(cm, sizeof(cm), "%s/m.cm", dir);
	f = fopen(cm, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	snprintf(want, sizeof(want), "%s/s.yaml", dir);
	f = fopen(want, "w");
	ck_assert_ptr_nonnull(f);
	fputs("topology: {hosts: 3}\nworkload: {matrix: m.cm}\n", f);
	fclose(f);
	ck_assert_msg(uet_scenario_load_file(&s, want, &e) == 0, "%s",
		      e.message);
	ck_assert_str_eq(s.workload.matrix, cm);
	snprintf(yaml, sizeof(yaml),
		 "workload: {matrix: %s,\n"
		 "  generate: {pattern: uniform}}\n",
		 cm);
	ck_assert_int_eq(load(&s, yaml, &e), -EINVAL);
	ck_assert_str_eq(e.key, "workload.generate.pattern");
	ck_assert_ptr_nonnull(strstr(e.rule, "not together with "
					     "workload.matrix"));
	snprintf(yaml, sizeof(yaml),
		 "workload: {matrix: %s,\n"
		 "  messages: [{src: 0, dst: 1, size: 1}]}\n",
		 cm);
	ck_assert_int_eq(load(&s, yaml, &e), -EINVAL);
	ck_assert_str_eq(e.key, "workload.matrix");
	ck_assert_ptr_nonnull(strstr(e.rule, "not together with "
					     "workload.messages"));
	snprintf(yaml, sizeof(yaml), "workload: {matrix: %s}\n", cm);
	check_round_trip(yaml);
	remove(cm);

	remove_traces(dir, 3);

	/* Only the algorithms lib/workload has for the collective. */
	expect_reject("workload: {all_to_all: ring}\n", 1,
		      "workload.all_to_all", "ring", "must be one of: direct");
	expect_reject("workload: {all_reduce: tree}\n", 1,
		      "workload.all_reduce", "tree",
		      "must be one of: ring, direct");
	expect_reject("workload: {alreduce: ring}\n", 1, "workload.alreduce",
		      "", "did you mean 'all_reduce'?");
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
	expect_reject("run: {clock: realtime}\n"
		      "switch: {external_hosts: 198.18.0.2}\n"
		      "workload:\n  messages:\n"
		      "    - {src: 1, dst: 0, size: 4KiB, at: 0us}\n",
		      5, "workload.messages[0].src", "1", "host 1 is external");
	ck_assert_int_eq(load(&s,
			      "run: {clock: realtime}\n"
			      "topology: {hosts: 4}\n"
			      "switch: {external_hosts: "
			      "\"198.18.0.2,198.18.0.4\"}\n"
			      "workload:\n  messages:\n"
			      "    - {src: 0, dst: 1, size: 4KiB, at: 0us}\n",
			      &e),
			 0);
	ck_assert(!uet_scenario_host_external(&s, 0));
	ck_assert(uet_scenario_host_external(&s, 1));
	ck_assert(!uet_scenario_host_external(&s, 2));
	ck_assert(uet_scenario_host_external(&s, 3));
	uet_scenario_free(&s);
}
END_TEST

START_TEST(test_topology_shapes)
{
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
	expect_reject("topology: {kind: leaf-spine, leaves: 512, "
		      "hosts_per_leaf: 4}\n",
		      1, "topology.kind", "leaf-spine",
		      "gives 2048 hosts, and a fabric has 2 to 1024");
	expect_reject("topology: {leaves: 4}\n", 1, "topology.leaves", "4",
		      "applies only with topology.kind leaf-spine");
	expect_reject("topology: {kind: leaf-spine, k: 4}\n", 1, "topology.k",
		      "4", "applies only with topology.kind fat-tree");
	expect_reject("topology: {kind: leaf-spine, leaves: 1, "
		      "hosts_per_leaf: 1}\n",
		      1, "topology.kind", "leaf-spine",
		      "gives 1 hosts, and a fabric has 2 to 1024");
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

START_TEST(test_missing_file)
{
	struct uet_scenario s;
	struct uet_config_error e;

	ck_assert_int_eq(
		uet_scenario_load_file(&s, "/nonexistent/scenario.yaml", &e),
		-EINVAL);
	ck_assert_str_eq(e.message, "/nonexistent/scenario.yaml: cannot open "
				    "the scenario: No such file or directory");
	ck_assert_uint_eq(e.line, 0);
}
END_TEST

START_TEST(test_yaml_syntax_error_line_and_column)
{
	struct uet_scenario s;
	struct uet_config_error e;

	ck_assert_int_eq(load(&s, "run:\n  seed: 1\n nic: [1, 2\n", &e),
			 -EINVAL);
	ck_assert_uint_eq(e.line, 3);
	ck_assert_uint_gt(e.column, 0);
	ck_assert_msg(strncmp(e.message, "scenario.yaml:3:", 16) == 0, "%s",
		      e.message);
	ck_assert_msg(strstr(e.message, "YAML syntax error") != NULL, "%s",
		      e.message);
	ck_assert_int_eq(load(&s, "nic: {Delay: 1us\n", &e), -EINVAL);
	ck_assert_msg(strstr(e.message, "YAML syntax error") != NULL, "%s",
		      e.message);
	ck_assert_int_eq(load(&s, "- 1\n- 2\n", &e), -EINVAL);
	ck_assert_msg(strstr(e.rule, "top level must be a mapping") != NULL,
		      "%s", e.message);
}
END_TEST

/* Every cut of a valid file either loads or fails with a whole message. */
START_TEST(test_every_prefix_loads_or_fails_cleanly)
{
	size_t len = strlen(every_attribute), cut;
	unsigned int loaded = 0, refused = 0;

	for (cut = 0; cut <= len; cut++) {
		struct uet_scenario s;
		struct uet_config_error e;
		int rc = uet_scenario_load_string(&s, "cut.yaml",
						  every_attribute, cut, &e);

		if (rc == 0) {
			loaded++;
			uet_scenario_free(&s);
			continue;
		}
		ck_assert_int_eq(rc, -EINVAL);
		ck_assert_msg(strncmp(e.message, "cut.yaml", 8) == 0, "%s",
			      e.message);
		ck_assert_uint_gt(strlen(e.rule), 0);
		ck_assert_uint_eq(s.workload.message_count, 0);
		refused++;
	}
	/* Cuts at line ends load (an empty file too); cuts mid-key do not. */
	ck_assert_uint_gt(loaded, 0);
	ck_assert_uint_gt(refused, 0);
}
END_TEST

static char *print_to_string(const struct uet_scenario *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(uet_scenario_print_config(s, f), 0);
	fclose(f);
	return text;
}

static void check_round_trip(const char *yaml)
{
	struct uet_scenario a, b;
	struct uet_config_error e;
	uint64_t ha, hb;
	char *text;
	int rc;

	rc = load(&a, yaml, &e);
	ck_assert_msg(rc == 0, "%s", e.message);
	text = print_to_string(&a);
	rc = load(&b, text, &e);
	ck_assert_msg(rc == 0, "%s\n%s", e.message, text);
	ck_assert(uet_scenario_equal(&a, &b));
	ck_assert_int_eq(uet_scenario_hash(&a, &ha), 0);
	ck_assert_int_eq(uet_scenario_hash(&b, &hb), 0);
	ck_assert_uint_eq(ha, hb);
	free(text);
	uet_scenario_free(&a);
	uet_scenario_free(&b);
}

START_TEST(test_print_config_round_trip)
{
	check_round_trip("");
	check_round_trip(every_attribute);
	check_round_trip("run: {out: \"we\\\"ird\\\\path\"}\n"
			 "nic: {Delay: 84.04ns, LaneBps: 31.52Gbps}\n"
			 "switch: {drop_rate: 0.0001}\n");
}
END_TEST

START_TEST(test_print_config_shows_units_and_derived)
{
	struct uet_scenario s;
	char *text;

	uet_scenario_defaults(&s);
	text = print_to_string(&s);
	ck_assert_ptr_nonnull(strstr(text, "nic:\n  DataRate: 400Gbps\n"
					   "  Delay: 500ns\n"
					   "  # lookahead: 500ns"));
	ck_assert_ptr_nonnull(strstr(text, "  LaneBps: 31.52Gbps\n"));
	ck_assert_ptr_nonnull(strstr(text, "  RdmaDataMSS: 4096\n"));
	ck_assert_ptr_nonnull(strstr(text, "  IngressPoolSize: 1MiB\n"));
	ck_assert_ptr_nonnull(strstr(text, "  FixedWindow: 0  # effective "
					   "162840 bytes"));
	ck_assert_ptr_nonnull(strstr(text, "  # time_dilation: 1"));
	ck_assert_ptr_nonnull(strstr(text, "  out: \"out/\"\n"));
	ck_assert_ptr_nonnull(strstr(text, "  messages: []\n"));
	free(text);
}
END_TEST

START_TEST(test_hash_changes_with_any_attribute)
{
	struct uet_scenario a, b;
	struct uet_config_error e;
	uint64_t ha, hb;

	uet_scenario_defaults(&a);
	ck_assert_int_eq(uet_scenario_hash(&a, &ha), 0);
	ck_assert_int_eq(load(&b, "nic: {TransmitStartDelay: 16ns}\n", &e), 0);
	ck_assert_int_eq(uet_scenario_hash(&b, &hb), 0);
	ck_assert_uint_ne(ha, hb);
	ck_assert(!uet_scenario_equal(&a, &b));
	ck_assert_int_eq(load(&b, "nic: {TransmitStartDelay: 15000ps}\n", &e),
			 0);
	ck_assert_int_eq(uet_scenario_hash(&b, &hb), 0);
	ck_assert_uint_eq(ha, hb);
}
END_TEST

static const char *source_root(void)
{
	const char *root = getenv("UET_SOURCE_ROOT");

	return root != NULL ? root : ".";
}

static void load_example(const char *name, struct uet_scenario *s)
{
	struct uet_config_error e;
	char path[512];
	int rc;

	snprintf(path, sizeof(path), "%s/examples/%s", source_root(), name);
	rc = uet_scenario_load_file(s, path, &e);
	ck_assert_msg(rc == 0, "%s", e.message);
}

START_TEST(test_example_incast_8_loads)
{
	struct uet_scenario s;
	uint32_t i;

	load_example("incast-8.yaml", &s);
	ck_assert_uint_eq(s.topology.hosts, 8);
	ck_assert_uint_eq(s.workload.message_count, 7);
	for (i = 0; i < 7; i++) {
		ck_assert_uint_eq(s.workload.messages[i].src, i + 1);
		ck_assert_uint_eq(s.workload.messages[i].dst, 0);
		ck_assert_uint_eq(s.workload.messages[i].size_bytes, 1048576);
	}
	uet_scenario_free(&s);
}
END_TEST

START_TEST(test_example_quickstart_loads)
{
	struct uet_scenario s;

	load_example("quickstart.yaml", &s);
	ck_assert_uint_eq(s.topology.hosts, 2);
	ck_assert_uint_eq(s.workload.message_count, 1);
	ck_assert_uint_eq(s.workload.messages[0].src, 0);
	ck_assert_uint_eq(s.workload.messages[0].dst, 1);
	uet_scenario_free(&s);
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

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("scenario");

	tcase_add_test(tc, test_defaults_applied);
	tcase_add_test(tc, test_fixed_window_derived_from_rate_and_base_rtt);
	tcase_add_test(tc, test_every_default_is_in_range);
	tcase_add_test(tc, test_every_attribute_parsed_with_unit);
	tcase_add_test(tc, test_drop_rate_as_percent_and_ppm);
	tcase_add_test(tc, test_unknown_key_did_you_mean);
	tcase_add_test(tc, test_unknown_key_in_wrong_section);
	tcase_add_test(tc, test_unknown_section);
	tcase_add_test(tc, test_wrong_type);
	tcase_add_test(tc, test_bad_units);
	tcase_add_test(tc, test_out_of_range);
	tcase_add_test(tc, test_duplicate_key);
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
	tcase_add_test(tc, test_workload_host_out_of_range);
	tcase_add_test(tc, test_workload_src_equals_dst);
	tcase_add_test(tc, test_workload_shape);
	tcase_add_test(tc, test_workload_generate_loads);
	tcase_add_test(tc, test_workload_generate_rules);
	tcase_add_test(tc, test_workload_chakra);
	tcase_add_test(tc, test_time_dilation_only_with_realtime);
	tcase_add_test(tc, test_external_hosts_realtime_plan_addresses);
	tcase_add_test(tc, test_not_supported_yet);
	tcase_add_test(tc, test_topology_shapes);
	tcase_add_test(tc, test_pools_hold_one_packet);
	tcase_add_test(tc, test_rule_on_default_value);
	tcase_add_test(tc, test_missing_file);
	tcase_add_test(tc, test_yaml_syntax_error_line_and_column);
	tcase_add_test(tc, test_every_prefix_loads_or_fails_cleanly);
	tcase_add_test(tc, test_print_config_round_trip);
	tcase_add_test(tc, test_print_config_shows_units_and_derived);
	tcase_add_test(tc, test_hash_changes_with_any_attribute);
	tcase_add_test(tc, test_example_incast_8_loads);
	tcase_add_test(tc, test_example_quickstart_loads);
	tcase_add_test(tc, test_doc_has_every_table_row);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(config_suite)
