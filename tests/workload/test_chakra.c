/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The Chakra loader: every shared trace loads with the node and message
 * counts its README gives; gzip is read; every bad trace stops with a
 * message that says what is wrong.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include "uet_workload.h"

Suite *chakra_suite(void);

static const char *chakra_dir(void)
{
	const char *d = getenv("UET_CHAKRA_DIR");

	ck_assert_msg(d != NULL, "UET_CHAKRA_DIR not set");
	return d;
}

static void micro_prefix(char *buf, size_t len, const char *coll,
			 unsigned int n)
{
	snprintf(buf, len, "%s/workload/microbenchmarks/%s/%unpus_1MB/%s",
		 chakra_dir(), coll, n, coll);
}

static void ring_prefix(char *buf, size_t len)
{
	snprintf(buf, len,
		 "%s/system/custom_collectives/"
		 "custom_ring_allreduce_8npus_1MB/custom_allreduce",
		 chakra_dir());
}

/* A scratch directory for made-up traces. */
static void scratch(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/uet-wl-test-%d", (int)getpid());
	ck_assert(mkdir(dir, 0777) == 0 || errno == EEXIST);
}

static void write_bytes(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

/* GlobalMetadata version "0.0.4", then the given node bytes. */
static void write_trace(const char *prefix, unsigned int rank,
			const uint8_t *nodes, size_t n)
{
	static const uint8_t gm[] = {0x07, 0x0a, 0x05, '0', '.', '0', '.', '4'};
	uint8_t buf[512];
	char path[400];

	memcpy(buf, gm, sizeof(gm));
	memcpy(buf + sizeof(gm), nodes, n);
	snprintf(path, sizeof(path), "%s.%u.et", prefix, rank);
	write_bytes(path, buf, sizeof(gm) + n);
}

static int load(const char *prefix, uint32_t hosts, struct uet_wl_program *p,
		struct uet_wl_error *err)
{
	int rc = uet_wl_chakra_load(p, prefix, hosts, NULL, err);

	if (rc < 0)
		uet_wl_program_free(p);
	return rc;
}

START_TEST(test_every_microbenchmark_loads_with_its_messages)
{
	static const char *const colls[] = {"all_reduce", "all_gather",
					    "reduce_scatter", "all_to_all"};
	static const unsigned int ns[] = {4, 8, 16};
	unsigned int c, i;

	for (c = 0; c < 4; c++)
		for (i = 0; i < 3; i++) {
			struct uet_wl_program p;
			struct uet_wl_error err;
			char prefix[600];
			unsigned int n = ns[i];
			uint64_t per_rank = c == 0 ? 2 * (n - 1) : n - 1;

			micro_prefix(prefix, sizeof(prefix), colls[c], n);
			ck_assert_msg(load(prefix, n, &p, &err) == 0, "%s: %s",
				      prefix, err.message);
			ck_assert_uint_eq(p.n_ranks, n);
			ck_assert_uint_eq(p.n_messages, n * per_rank);
			ck_assert_uint_eq(p.ranks[1].n_colls, 1);
			ck_assert_uint_eq(p.ranks[1].colls[0].bytes, 1048576);
			ck_assert_uint_eq(p.ranks[1].colls[0].trace_id, 1);
			ck_assert_uint_eq(p.ranks[1].colls[0].comm_type,
					  c == 0   ? 0
					  : c == 1 ? 2
					  : c == 2 ? 7
						   : 6);
			/* trace node, begin, 2 nodes per message, end */
			ck_assert_uint_eq(p.ranks[0].n_nodes, 3 + 2 * per_rank);
			uet_wl_program_free(&p);
		}
}
END_TEST

START_TEST(test_ring_all_reduce_chunks_are_an_eighth)
{
	struct uet_wl_program p;
	struct uet_wl_error err;
	char prefix[600];
	uint32_t i, sends = 0;

	micro_prefix(prefix, sizeof(prefix), "all_reduce", 8);
	ck_assert_int_eq(load(prefix, 8, &p, &err), 0);
	for (i = 0; i < p.ranks[3].n_nodes; i++) {
		const struct uet_wl_node *nd = &p.ranks[3].nodes[i];

		if (nd->op != UET_WL_SEND)
			continue;
		ck_assert_uint_eq(nd->bytes, 131072);
		ck_assert_uint_eq(nd->peer, 4);
		ck_assert(nd->tag & UET_WL_COLL_TAG);
		sends++;
	}
	ck_assert_uint_eq(sends, 14);
	uet_wl_program_free(&p);
}
END_TEST

START_TEST(test_custom_ring_is_35_nodes_14_sends_per_rank)
{
	struct uet_wl_program p;
	struct uet_wl_error err;
	char prefix[600];
	uint32_t r;

	ring_prefix(prefix, sizeof(prefix));
	ck_assert_msg(load(prefix, 8, &p, &err) == 0, "%s", err.message);
	ck_assert_uint_eq(p.n_messages, 112);
	for (r = 0; r < 8; r++) {
		ck_assert_uint_eq(p.ranks[r].n_nodes, 35);
		ck_assert_uint_eq(p.ranks[r].n_sends, 14);
		ck_assert_uint_eq(p.ranks[r].nodes[0].op, UET_WL_SEND);
		ck_assert_uint_eq(p.ranks[r].nodes[0].peer, (r + 1) % 8);
		ck_assert_uint_eq(p.ranks[r].nodes[0].bytes, 131072);
		ck_assert_uint_eq(p.ranks[r].nodes[1].op, UET_WL_RECV);
		ck_assert_uint_eq(p.ranks[r].nodes[1].peer, (r + 7) % 8);
		ck_assert_uint_eq(p.ranks[r].nodes[2].op, UET_WL_COMP);
		ck_assert_uint_eq(p.ranks[r].nodes[2].duration_ps, 7000000);
		ck_assert_uint_eq(p.ranks[r].nodes[2].n_deps, 1);
		ck_assert_uint_eq(p.ranks[r].nodes[2].deps[0], 1);
	}
	uet_wl_program_free(&p);
}
END_TEST

START_TEST(test_gzip_trace_reads_as_plain)
{
	char dir[100], src[600], prefix[200], cmd[1600];
	struct uet_wl_program p;
	struct uet_wl_error err;
	unsigned int r;

	scratch(dir, sizeof(dir));
	micro_prefix(src, sizeof(src), "all_to_all", 4);
	snprintf(prefix, sizeof(prefix), "%s/gz", dir);
	for (r = 0; r < 4; r++) {
		snprintf(cmd, sizeof(cmd), "gzip -c %s.%u.et > %s.%u.et", src,
			 r, prefix, r);
		ck_assert_int_eq(system(cmd), 0);
	}
	ck_assert_msg(load(prefix, 4, &p, &err) == 0, "%s", err.message);
	ck_assert_uint_eq(p.n_messages, 12);
	uet_wl_program_free(&p);
}
END_TEST

START_TEST(test_rank_count_must_equal_hosts)
{
	struct uet_wl_program p;
	struct uet_wl_error err;
	char prefix[600];

	micro_prefix(prefix, sizeof(prefix), "all_reduce", 8);
	ck_assert_int_eq(load(prefix, 16, &p, &err), -EINVAL);
	ck_assert_msg(strstr(err.message, "8 rank files, but the scenario "
					  "has 16 hosts"),
		      "%s", err.message);
	ck_assert_int_eq(load(prefix, 4, &p, &err), -EINVAL);
	ck_assert_msg(strstr(err.message, "more than 4 rank files"), "%s",
		      err.message);
	ck_assert_int_eq(load("/nonexistent/x", 4, &p, &err), -ENOENT);
}
END_TEST

START_TEST(test_truncated_trace_is_rejected)
{
	/* A node announcing 74 bytes with 10 present. */
	static const uint8_t node[] = {0x4a, 0x08, 0x01, 0x12, 0x14, 'a',
				       'l',  'l',  '_',	 'r',  'e'};
	char dir[100], prefix[200];
	struct uet_wl_program p;
	struct uet_wl_error err;

	scratch(dir, sizeof(dir));
	snprintf(prefix, sizeof(prefix), "%s/trunc", dir);
	write_trace(prefix, 0, node, sizeof(node));
	ck_assert_int_eq(load(prefix, 1, &p, &err), -EINVAL);
	ck_assert_msg(strstr(err.message, "truncated: node 0 at byte 8 is "
					  "longer than the file"),
		      "%s", err.message);
}
END_TEST

START_TEST(test_truncated_gzip_is_rejected)
{
	char dir[100], src[600], prefix[200], cmd[1600];
	struct uet_wl_program p;
	struct uet_wl_error err;

	scratch(dir, sizeof(dir));
	ring_prefix(src, sizeof(src));
	snprintf(prefix, sizeof(prefix), "%s/tgz", dir);
	snprintf(cmd, sizeof(cmd), "gzip -c %s.0.et | head -c 1000 > %s.0.et",
		 src, prefix);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(load(prefix, 1, &p, &err), -EINVAL);
	ck_assert_msg(strstr(err.message, "truncated"), "%s", err.message);
}
END_TEST

START_TEST(test_comm_size_past_int64_names_its_value)
{
	/* COMM_SEND id 1 with comm_size as a uint64 of 2^64 - 1 (field 13,
	 * ten bytes of varint). */
	static const uint8_t node[] = {
		0x1c, 0x08, 0x01, 0x18, 0x05, 0x52, 0x16, 0x0a, 0x09, 'c',
		'o',  'm',  'm',  '_',	's',  'i',  'z',  'e',	0x68, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
	char dir[100], prefix[200];
	struct uet_wl_program p;
	struct uet_wl_error err;

	scratch(dir, sizeof(dir));
	snprintf(prefix, sizeof(prefix), "%s/size64", dir);
	write_trace(prefix, 0, node, sizeof(node));
	ck_assert_int_eq(load(prefix, 1, &p, &err), -EINVAL);
	/* Before: "attribute 'comm_size' has attribute type 13, not an
	 * integer". */
	ck_assert_msg(strstr(err.message,
			     "node id 1: attribute 'comm_size' = "
			     "18446744073709551615: out of range, at most "
			     "9223372036854775807 (and a message is at most "
			     "4294967295 bytes)"),
		      "%s", err.message);
}
END_TEST

START_TEST(test_fifo_trace_is_refused_not_waited_on)
{
	char dir[100], prefix[200], path[300];
	struct uet_wl_program p;
	struct uet_wl_error err;

	scratch(dir, sizeof(dir));
	snprintf(prefix, sizeof(prefix), "%s/fifo", dir);
	snprintf(path, sizeof(path), "%s.0.et", prefix);
	unlink(path);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	/* Before, the open waited for a writer for ever. */
	ck_assert_int_eq(load(prefix, 1, &p, &err), -ENODEV);
	ck_assert_msg(strstr(err.message, "fifo.0.et: a FIFO, not a regular "
					  "file: give the prefix of Chakra "
					  "trace files"),
		      "%s", err.message);
	unlink(path);
	snprintf(path, sizeof(path), "%s/dir.0.et", dir);
	ck_assert(mkdir(path, 0700) == 0 || errno == EEXIST);
	snprintf(prefix, sizeof(prefix), "%s/dir", dir);
	ck_assert_int_eq(load(prefix, 1, &p, &err), -EISDIR);
	ck_assert_msg(strstr(err.message, "a directory, not a file"), "%s",
		      err.message);
	rmdir(path);
}
END_TEST

/* Peak resident memory of this process, KiB. */
static long peak_rss_kib(void)
{
	struct rusage ru;

	ck_assert_int_eq(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_maxrss;
}

START_TEST(test_gzip_bomb_stops_at_its_ratio)
{
	/* 64 MiB of zeros as one gzip member: about 64 KB, so the ratio
	 * (128) stops it at about 8 MB inflated. Before, every byte was
	 * inflated (the bound was 2 GiB) before the trace was refused. */
	static uint8_t zeros[1u << 20];
	char dir[100], prefix[200], path[300];
	struct uet_wl_program p;
	struct uet_wl_error err;
	long before_kib;
	gzFile f;
	int i;

	scratch(dir, sizeof(dir));
	snprintf(prefix, sizeof(prefix), "%s/bomb", dir);
	snprintf(path, sizeof(path), "%s.0.et", prefix);
	f = gzopen(path, "wb9");
	ck_assert_ptr_nonnull(f);
	for (i = 0; i < 64; i++)
		ck_assert_int_eq(gzwrite(f, zeros, sizeof(zeros)),
				 (int)sizeof(zeros));
	ck_assert_int_eq(gzclose(f), Z_OK);
	before_kib = peak_rss_kib();
	ck_assert_int_eq(load(prefix, 1, &p, &err), -EINVAL);
	ck_assert_msg(strstr(err.message, "bomb.0.et: inflates past ") &&
			      strstr(err.message,
				     "not a trace (a gzip trace inflates to at "
				     "most 128 times its size)"),
		      "%s", err.message);
	ck_assert_msg(peak_rss_kib() - before_kib < 32 * 1024,
		      "the refusal took %ld KiB more",
		      peak_rss_kib() - before_kib);
	unlink(path);
}
END_TEST

START_TEST(test_unknown_node_type_is_rejected)
{
	static const uint8_t node[] = {0x04, 0x08, 0x01, 0x18, 0x09};
	char dir[100], prefix[200];
	struct uet_wl_program p;
	struct uet_wl_error err;

	scratch(dir, sizeof(dir));
	snprintf(prefix, sizeof(prefix), "%s/type", dir);
	write_trace(prefix, 0, node, sizeof(node));
	ck_assert_int_eq(load(prefix, 1, &p, &err), -EINVAL);
	ck_assert_msg(strstr(err.message, "node id 1 (''): unknown node "
					  "type 9"),
		      "%s", err.message);
}
END_TEST

START_TEST(test_unknown_attribute_type_is_rejected)
{
	/* COMP node with attr "x" whose value is field 33 (not in the
	 * oneof). */
	static const uint8_t node[] = {0x0c, 0x08, 0x01, 0x18, 0x04, 0x52, 0x06,
				       0x0a, 0x01, 'x',	 0x88, 0x02, 0x00};
	char dir[100], prefix[200];
	struct uet_wl_program p;
	struct uet_wl_error err;

	scratch(dir, sizeof(dir));
	snprintf(prefix, sizeof(prefix), "%s/attr", dir);
	write_trace(prefix, 0, node, sizeof(node));
	ck_assert_int_eq(load(prefix, 1, &p, &err), -EINVAL);
	ck_assert_msg(strstr(err.message, "attribute 'x' has an unknown "
					  "attribute type (value field 33)"),
		      "%s", err.message);
}
END_TEST

START_TEST(test_dependency_cycle_is_rejected)
{
	/* id 1 COMP after 2; id 2 COMP after 1. */
	static const uint8_t nodes[] = {0x07, 0x08, 0x01, 0x18, 0x04, 0x2a,
					0x01, 0x02, 0x07, 0x08, 0x02, 0x18,
					0x04, 0x2a, 0x01, 0x01};
	char dir[100], prefix[200];
	struct uet_wl_program p;
	struct uet_wl_error err;

	scratch(dir, sizeof(dir));
	snprintf(prefix, sizeof(prefix), "%s/cycle", dir);
	write_trace(prefix, 0, nodes, sizeof(nodes));
	ck_assert_int_eq(load(prefix, 1, &p, &err), -EINVAL);
	ck_assert_msg(strstr(err.message, "rank 0: dependency cycle: 2 of 2 "
					  "nodes can never run"),
		      "%s", err.message);
}
END_TEST

START_TEST(test_unknown_dependency_is_rejected)
{
	static const uint8_t nodes[] = {0x07, 0x08, 0x01, 0x18,
					0x04, 0x2a, 0x01, 0x05};
	char dir[100], prefix[200];
	struct uet_wl_program p;
	struct uet_wl_error err;

	scratch(dir, sizeof(dir));
	snprintf(prefix, sizeof(prefix), "%s/dep", dir);
	write_trace(prefix, 0, nodes, sizeof(nodes));
	ck_assert_int_eq(load(prefix, 1, &p, &err), -EINVAL);
	ck_assert_msg(strstr(err.message, "node id 1 depends on node id 5, "
					  "which is not in the trace"),
		      "%s", err.message);
}
END_TEST

START_TEST(test_receive_that_never_matches_is_rejected)
{
	/* rank 0: RECV from rank 1 (tag 0); rank 1: a COMP only. */
	static const uint8_t recv[] = {0x12, 0x08, 0x01, 0x18, 0x06, 0x52, 0x0c,
				       0x0a, 0x08, 'c',	 'o',  'm',  'm',  '_',
				       's',  'r',  'c',	 0x38, 0x01};
	static const uint8_t comp[] = {0x04, 0x08, 0x01, 0x18, 0x04};
	char dir[100], prefix[200];
	struct uet_wl_program p;
	struct uet_wl_error err;

	scratch(dir, sizeof(dir));
	snprintf(prefix, sizeof(prefix), "%s/nomatch", dir);
	write_trace(prefix, 0, recv, sizeof(recv));
	write_trace(prefix, 1, comp, sizeof(comp));
	ck_assert_int_eq(load(prefix, 2, &p, &err), -EINVAL);
	ck_assert_msg(strstr(err.message,
			     "rank 0: a receive that can never match: node "
			     "id 1 waits for a message from rank 1 with tag 0"),
		      "%s", err.message);
}
END_TEST

START_TEST(test_unsupported_algorithm_is_rejected)
{
	struct uet_wl_algos algos = {0};
	struct uet_wl_program p;
	struct uet_wl_error err;
	char prefix[600];

	algos.by_type[UET_WL_ALL_TO_ALL] = UET_WL_ALGO_RING;
	micro_prefix(prefix, sizeof(prefix), "all_to_all", 4);
	ck_assert_int_eq(uet_wl_chakra_load(&p, prefix, 4, &algos, &err),
			 -EINVAL);
	uet_wl_program_free(&p);
	ck_assert_msg(strstr(err.message, "all_to_all cannot be broken into "
					  "messages by the ring algorithm"),
		      "%s", err.message);
}
END_TEST

Suite *chakra_suite(void)
{
	Suite *s = suite_create("chakra");
	TCase *tc = tcase_create("load");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_every_microbenchmark_loads_with_its_messages);
	tcase_add_test(tc, test_ring_all_reduce_chunks_are_an_eighth);
	tcase_add_test(tc, test_custom_ring_is_35_nodes_14_sends_per_rank);
	tcase_add_test(tc, test_gzip_trace_reads_as_plain);
	tcase_add_test(tc, test_rank_count_must_equal_hosts);
	tcase_add_test(tc, test_truncated_trace_is_rejected);
	tcase_add_test(tc, test_truncated_gzip_is_rejected);
	tcase_add_test(tc, test_unknown_node_type_is_rejected);
	tcase_add_test(tc, test_comm_size_past_int64_names_its_value);
	tcase_add_test(tc, test_fifo_trace_is_refused_not_waited_on);
	tcase_add_test(tc, test_gzip_bomb_stops_at_its_ratio);
	tcase_add_test(tc, test_unknown_attribute_type_is_rejected);
	tcase_add_test(tc, test_dependency_cycle_is_rejected);
	tcase_add_test(tc, test_unknown_dependency_is_rejected);
	tcase_add_test(tc, test_receive_that_never_matches_is_rejected);
	tcase_add_test(tc, test_unsupported_algorithm_is_rejected);
	suite_add_tcase(s, tc);
	return s;
}
