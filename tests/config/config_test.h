/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers of the lib/config suites: load from text, the reject check
 * (line, key, value and rule), the print-config round trip, a scenario
 * that sets every attribute, and the source root.
 */
#ifndef CONFIG_TEST_H
#define CONFIG_TEST_H

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uet_config.h"

#define PS_PER_NS UINT64_C(1000)
#define PS_PER_US UINT64_C(1000000)
#define PS_PER_MS UINT64_C(1000000000)
#define GBPS UINT64_C(1000000000)

static inline int load(struct uet_scenario *s, const char *yaml,
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

static inline char *print_to_string(const struct uet_scenario *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(uet_scenario_print_config(s, f), 0);
	fclose(f);
	return text;
}

static inline void check_round_trip(const char *yaml)
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

static inline const char *source_root(void)
{
	const char *root = getenv("UET_SOURCE_ROOT");

	return root != NULL ? root : ".";
}

/* A scenario that sets every attribute (the loader's, the printer's and
 * the prefix tests' input). */
static inline const char *every_attribute(void)
{
	return "run:\n"
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
}

#endif /* CONFIG_TEST_H */
