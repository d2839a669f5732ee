/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology.failures, topology.on_link_down and the switch records' keys:
 * defaults, a list that loads, the print-config round trip, and every
 * reject with its key, value and rule.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_config.h"

static int load(struct uet_scenario *s, const char *yaml,
		struct uet_config_error *err)
{
	return uet_scenario_load_string(s, "scenario.yaml", yaml, strlen(yaml),
					err);
}

static void expect_reject(const char *yaml, unsigned int line, const char *key,
			  const char *rule)
{
	struct uet_scenario s;
	struct uet_config_error e;

	ck_assert_int_eq(load(&s, yaml, &e), -EINVAL);
	ck_assert_uint_eq(e.line, line);
	ck_assert_str_eq(e.key, key);
	ck_assert_msg(strstr(e.rule, rule) != NULL, "rule '%s' lacks '%s'",
		      e.rule, rule);
	ck_assert_uint_eq(s.topology.failure_count, 0);
}

static const char *const two_failures =
	"topology:\n"
	"  kind: leaf-spine\n"
	"  leaves: 4\n"
	"  spines: 4\n"
	"  hosts_per_leaf: 4\n"
	"  on_link_down: blackhole\n"
	"  failures:\n"
	"    - {link: leaf0-spine1, at: 10us, rate: 25%}\n"
	"    - {link: host3, down: true}\n"
	"switch: {occupancy_ports: \"leaf0:leaf0-spine1,host8\", "
	"occupancy_interval: 2us}\n"
	"records: {EnableSwitchStats: false}\n";

START_TEST(test_failure_defaults_none)
{
	struct uet_scenario s;

	ck_assert_int_eq(uet_scenario_defaults(&s), 0);
	ck_assert_uint_eq(s.topology.failure_count, 0);
	ck_assert_int_eq(s.topology.on_link_down, UET_LINK_DOWN_REROUTE);
	ck_assert_str_eq(s.sw.occupancy_ports, "");
	ck_assert_uint_eq(s.sw.occupancy_interval_ps, 1000000);
	ck_assert(s.records.enable_switch_stats);
}
END_TEST

START_TEST(test_failures_list_loads)
{
	struct uet_scenario s;
	struct uet_config_error e;

	ck_assert_int_eq(load(&s, two_failures, &e), 0);
	ck_assert_uint_eq(s.topology.failure_count, 2);
	ck_assert_str_eq(s.topology.failures[0].link, "leaf0-spine1");
	ck_assert_uint_eq(s.topology.failures[0].at_ps, 10000000);
	ck_assert_uint_eq(s.topology.failures[0].rate_ppm, 250000);
	ck_assert(!s.topology.failures[0].down);
	ck_assert_str_eq(s.topology.failures[1].link, "host3");
	ck_assert_uint_eq(s.topology.failures[1].at_ps, 0);
	ck_assert_uint_eq(s.topology.failures[1].rate_ppm, 1000000);
	ck_assert(s.topology.failures[1].down);
	ck_assert_int_eq(s.topology.on_link_down, UET_LINK_DOWN_BLACKHOLE);
	ck_assert_str_eq(s.sw.occupancy_ports, "leaf0:leaf0-spine1,host8");
	ck_assert_uint_eq(s.sw.occupancy_interval_ps, 2000000);
	ck_assert(!s.records.enable_switch_stats);
	uet_scenario_free(&s);
}
END_TEST

/* What --print-config prints loads back to the same scenario, failures
 * included, and a different failure changes the hash. */
START_TEST(test_failures_round_trip_and_hash)
{
	struct uet_scenario a, b, c;
	struct uet_config_error e;
	char *text = NULL;
	size_t len = 0;
	uint64_t ha, hc;
	FILE *f;

	ck_assert_int_eq(load(&a, two_failures, &e), 0);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(uet_scenario_print_config(&a, f), 0);
	fclose(f);
	ck_assert_msg(strstr(text,
			     "  failures:\n    - {link: \"leaf0-spine1\", "
			     "at: 10us, rate: 25%, down: false}\n") != NULL,
		      "%s", text);
	ck_assert_int_eq(load(&b, text, &e), 0);
	ck_assert(uet_scenario_equal(&a, &b));
	c = a;
	c.topology.failures[0].at_ps++;
	ck_assert(!uet_scenario_equal(&a, &c));
	ck_assert_int_eq(uet_scenario_hash(&a, &ha), 0);
	ck_assert_int_eq(uet_scenario_hash(&c, &hc), 0);
	ck_assert_uint_ne(ha, hc);
	free(text);
}
END_TEST

START_TEST(test_failure_rejects)
{
	expect_reject("topology:\n  failures: {link: host1}\n", 2,
		      "topology.failures", "expected a list of failures");
	expect_reject("topology:\n  failures:\n    - {at: 1us}\n", 3,
		      "topology.failures[0]", "missing key 'link'");
	expect_reject(
		"topology:\n  failures:\n    - {link: host1, when: 1us}\n", 3,
		"topology.failures[0].when",
		"a failure has link, at, rate and down");
	expect_reject("topology:\n  failures:\n    - {link: host1, rate: 0}\n",
		      3, "topology.failures[0].rate", "out of range");
	expect_reject("topology:\n  failures:\n"
		      "    - {link: host1, rate: 150%}\n",
		      3, "topology.failures[0].rate", "out of range");
	expect_reject("topology:\n  failures:\n"
		      "    - {link: host1, rate: 50%, down: true}\n",
		      3, "topology.failures[0].rate", "not both");
	expect_reject("topology:\n  failures:\n"
		      "    - {link: host1, at: 1us, at: 2us}\n",
		      3, "topology.failures[0].at", "duplicate key");
	expect_reject("topology:\n  failures:\n    - {link: \"\"}\n", 3,
		      "topology.failures[0]", "link must name a link");
	expect_reject("topology:\n  failures:\n    - host1\n", 3,
		      "topology.failures[0]", "a failure is a mapping");
	expect_reject("topology: {on_link_down: drop}\n", 1,
		      "topology.on_link_down", "reroute, blackhole");
	expect_reject("switch: {occupancy_interval: 0}\n", 1,
		      "switch.occupancy_interval", "out of range");
}
END_TEST

START_TEST(test_too_many_failures)
{
	char yaml[4096];
	size_t n = 0;
	unsigned int i;

	n += (size_t)snprintf(yaml + n, sizeof(yaml) - n,
			      "topology:\n  failures:\n");
	for (i = 0; i <= UET_CONFIG_FAILURES_MAX; i++)
		n += (size_t)snprintf(yaml + n, sizeof(yaml) - n,
				      "    - {link: host1}\n");
	expect_reject(yaml, 3, "topology.failures",
		      "too many failures: at most 32");
}
END_TEST

static Suite *config_failures_suite(void)
{
	Suite *s = suite_create("config-failures");
	TCase *tc = tcase_create("failures");

	tcase_add_test(tc, test_failure_defaults_none);
	tcase_add_test(tc, test_failures_list_loads);
	tcase_add_test(tc, test_failures_round_trip_and_hash);
	tcase_add_test(tc, test_failure_rejects);
	tcase_add_test(tc, test_too_many_failures);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(config_failures_suite)
