/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Loading (uet_config_load.c): unknown keys and sections, wrong types,
 * bad units, values out of range, duplicate keys, missing files, YAML
 * errors with their line and column, every prefix of a scenario, and the
 * examples.
 */
#include "check_main.h"
#include "config_test.h"

#include <sys/stat.h>

static void load_example(const char *name, struct uet_scenario *s)
{
	struct uet_config_error e;
	char path[512];
	int rc;

	snprintf(path, sizeof(path), "%s/examples/%s", source_root(), name);
	rc = uet_scenario_load_file(s, path, &e);
	ck_assert_msg(rc == 0, "%s", e.message);
}

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
	char yaml[64], value[16], rule[64];

	/* The most hosts is what the address plan numbers. */
	snprintf(rule, sizeof(rule), "out of range: must be between 2 and %u",
		 (unsigned int)UET_CONFIG_HOSTS_MAX);
	expect_reject("topology: {hosts: 1}\n", 1, "topology.hosts", "1", rule);
	snprintf(value, sizeof(value), "%u",
		 (unsigned int)UET_CONFIG_HOSTS_MAX + 1u);
	snprintf(yaml, sizeof(yaml), "topology: {hosts: %s}\n", value);
	expect_reject(yaml, 1, "topology.hosts", value, rule);
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
		      "99999999999999999999",
		      "must be at most 18446744073709551615 (2^64 - 1)");
	/* 2^64: before, "must be at least 0". */
	expect_reject("run: {seed: 18446744073709551616}\n", 1, "run.seed",
		      "18446744073709551616",
		      "out of range: must be at most 18446744073709551615");
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

START_TEST(test_missing_file)
{
	struct uet_scenario s;
	struct uet_config_error e;

	ck_assert_int_eq(
		uet_scenario_load_file(&s, "/nonexistent/scenario.yaml", &e),
		-EINVAL);
	ck_assert_str_eq(e.message, "/nonexistent/scenario.yaml: cannot open "
				    "the scenario: no such file; give the path "
				    "of a scenario file (YAML)");
	ck_assert_uint_eq(e.line, 0);
}
END_TEST

/*
 * A scenario path that names no regular file is refused with what it
 * names, at once: before, a FIFO waited for a writer for ever and a
 * directory said "Is a directory" only when read.
 */
START_TEST(test_scenario_that_is_no_regular_file_is_refused_at_once)
{
	char dir[] = "/tmp/uet-scenario-XXXXXX", fifo[64], want[160];
	struct uet_config_error e;
	struct uet_scenario s;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/s.yaml", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(uet_scenario_load_file(&s, fifo, &e), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: cannot open the scenario: a FIFO, not a regular file; "
		 "give the path of a scenario file (YAML)",
		 fifo);
	ck_assert_str_eq(e.message, want);
	ck_assert_int_eq(uet_scenario_load_file(&s, dir, &e), -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: cannot open the scenario: a directory, not a file; "
		 "give the path of a scenario file (YAML)",
		 dir);
	ck_assert_str_eq(e.message, want);
	ck_assert_int_eq(uet_scenario_load_file(&s, "/dev/zero", &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.message, "a character device, not a "
						"regular file"));
	unlink(fifo);
	rmdir(dir);
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
	size_t len = strlen(every_attribute()), cut;
	unsigned int loaded = 0, refused = 0;

	for (cut = 0; cut <= len; cut++) {
		struct uet_scenario s;
		struct uet_config_error e;
		int rc = uet_scenario_load_string(&s, "cut.yaml",
						  every_attribute(), cut, &e);

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

static Suite *config_load_suite(void)
{
	Suite *s = suite_create("config_load");
	TCase *tc = tcase_create("load");

	tcase_add_test(tc, test_unknown_key_did_you_mean);
	tcase_add_test(tc, test_unknown_key_in_wrong_section);
	tcase_add_test(tc, test_unknown_section);
	tcase_add_test(tc, test_wrong_type);
	tcase_add_test(tc, test_bad_units);
	tcase_add_test(tc, test_out_of_range);
	tcase_add_test(tc, test_duplicate_key);
	tcase_add_test(tc, test_missing_file);
	tcase_add_test(
		tc, test_scenario_that_is_no_regular_file_is_refused_at_once);
	tcase_add_test(tc, test_yaml_syntax_error_line_and_column);
	tcase_add_test(tc, test_every_prefix_loads_or_fails_cleanly);
	tcase_add_test(tc, test_example_incast_8_loads);
	tcase_add_test(tc, test_example_quickstart_loads);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(config_load_suite)
