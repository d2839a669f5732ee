/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The workload section (uet_config_load.c, uet_config_rules.c): message
 * lists, the generator, Chakra traces: what loads, what is refused, and
 * the print-config round trip of each.
 */
#include "check_main.h"
#include "config_test.h"

#include <sys/stat.h>

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

/*
 * A matrix or a rank file that is no regular file is refused with what it
 * is. Before, a matrix that was a directory, a FIFO, /dev/zero or a loop
 * of links said "no such file", and a rank file that was a FIFO hung the
 * run when it was read.
 */
START_TEST(test_workload_input_that_is_no_regular_file_says_what_it_is)
{
	struct uet_scenario s;
	struct uet_config_error e;
	char dir[64], yaml[640], path[600], want[700];
	const struct {
		const char *name; /* in dir; NULL: /dev/zero */
		const char *words;
	} cases[] = {
		{"d.cm", "is a directory, not a file"},
		{"f.cm", "is a FIFO, not a regular file"},
		{NULL, "is a character device, not a regular file"},
		{"l.cm", "is a loop of symbolic links"},
	};
	size_t i;

	make_traces(dir, sizeof(dir), 2);
	snprintf(path, sizeof(path), "%s/d.cm", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/f.cm", dir);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	snprintf(path, sizeof(path), "%s/l.cm", dir);
	ck_assert_int_eq(symlink(path, path), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].name != NULL)
			snprintf(path, sizeof(path), "%s/%s", dir,
				 cases[i].name);
		else
			snprintf(path, sizeof(path), "/dev/zero");
		snprintf(yaml, sizeof(yaml), "workload: {matrix: %s}\n", path);
		ck_assert_int_eq(load(&s, yaml, &e), -EINVAL);
		ck_assert_str_eq(e.key, "workload.matrix");
		snprintf(want, sizeof(want), "%s %s", path, cases[i].words);
		ck_assert_msg(strncmp(e.rule, want, strlen(want)) == 0 &&
				      strstr(e.rule, ": give the path of a "
						     "connection matrix "
						     "file") != NULL,
			      "got %s, want %s...", e.rule, want);
	}
	/* Rank 1 a FIFO: refused by the scenario's check, not waited on. */
	snprintf(path, sizeof(path), "%s/t.1.et", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	snprintf(yaml, sizeof(yaml),
		 "topology: {hosts: 2}\nworkload: {chakra: %s/t}\n", dir);
	ck_assert_int_eq(load(&s, yaml, &e), -EINVAL);
	ck_assert_str_eq(e.key, "workload.chakra");
	snprintf(want, sizeof(want),
		 "%s is a FIFO, not a regular file: give the prefix of "
		 "Chakra trace files, one regular file per rank",
		 path);
	ck_assert_msg(strstr(e.rule, want) != NULL, "got %s", e.rule);
	unlink(path);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (cases[i].name == NULL)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, cases[i].name);
		if (rmdir(path) != 0)
			unlink(path);
	}
	snprintf(path, sizeof(path), "%s/t.0.et", dir);
	unlink(path);
	rmdir(dir);
}
END_TEST

static Suite *config_workload_suite(void)
{
	Suite *s = suite_create("config_workload");
	TCase *tc = tcase_create("workload");

	tcase_add_test(tc, test_workload_host_out_of_range);
	tcase_add_test(tc, test_workload_src_equals_dst);
	tcase_add_test(tc, test_workload_shape);
	tcase_add_test(tc, test_workload_generate_loads);
	tcase_add_test(tc, test_workload_generate_rules);
	tcase_add_test(tc, test_workload_chakra);
	tcase_add_test(
		tc,
		test_workload_input_that_is_no_regular_file_says_what_it_is);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(config_workload_suite)
