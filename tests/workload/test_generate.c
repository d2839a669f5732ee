/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The generators' message lists, exactly, for a few hosts; the program a
 * list becomes, run over the stand-in network (fake_net.h).
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fake_net.h"

Suite *generate_suite(void);

#define US UINT64_C(1000000)

struct want {
	uint32_t src, dst;
	uet_time_t start_ps;
};

/* Generate and compare with want: src, dst and start; size everywhere. */
static void expect_list(const struct uet_wl_gen *g, const struct want *w,
			uint32_t n_want)
{
	struct uet_wl_message *m;
	struct uet_wl_error err = {{0}};
	uint32_t n, i;

	ck_assert_int_eq(uet_wl_generate(g, &m, &n, &err), 0);
	ck_assert_uint_eq(n, n_want);
	for (i = 0; i < n; i++) {
		ck_assert_msg(m[i].src == w[i].src && m[i].dst == w[i].dst &&
				      m[i].start_ps == w[i].start_ps,
			      "message %u: %u -> %u at %lu, want %u -> %u "
			      "at %lu",
			      i, m[i].src, m[i].dst,
			      (unsigned long)m[i].start_ps, w[i].src, w[i].dst,
			      (unsigned long)w[i].start_ps);
		ck_assert_uint_eq(m[i].bytes, g->bytes);
	}
	free(m);
}

START_TEST(test_incast_every_other_host_to_dst_round_by_round)
{
	const struct uet_wl_gen g = {.pattern = UET_WL_GEN_INCAST,
				     .hosts = 4,
				     .bytes = 1000,
				     .count = 2,
				     .start_ps = 1 * US,
				     .interval_ps = 3 * US,
				     .dst = 2};
	const struct want w[] = {
		{0, 2, 1 * US}, {1, 2, 1 * US}, {3, 2, 1 * US},
		{0, 2, 4 * US}, {1, 2, 4 * US}, {3, 2, 4 * US},
	};

	expect_list(&g, w, 6);
}
END_TEST

START_TEST(test_all_to_all_offsets_one_then_two)
{
	const struct uet_wl_gen g = {.pattern = UET_WL_GEN_ALL_TO_ALL,
				     .hosts = 3,
				     .bytes = 64,
				     .count = 1,
				     .interval_ps = 1 * US};
	/* A host's k-th post starts k intervals in: offset 1 first. */
	const struct want w[] = {
		{0, 1, 0},	{1, 2, 0},	{2, 0, 0},
		{0, 2, 1 * US}, {1, 0, 1 * US}, {2, 1, 1 * US},
	};

	expect_list(&g, w, 6);
}
END_TEST

START_TEST(test_permutation_is_one_cycle_drawn_from_the_seed)
{
	struct uet_wl_gen g = {.pattern = UET_WL_GEN_PERMUTATION,
			       .hosts = 5,
			       .bytes = 4096,
			       .count = 2,
			       .start_ps = 2 * US,
			       .seed = 1};
	/* Seed 1: 0 -> 4 -> 1 -> 2 -> 3 -> 0; the same pairs each round. */
	const struct want w1[] = {
		{0, 4, 2 * US}, {1, 2, 2 * US}, {2, 3, 2 * US}, {3, 0, 2 * US},
		{4, 1, 2 * US}, {0, 4, 2 * US}, {1, 2, 2 * US}, {2, 3, 2 * US},
		{3, 0, 2 * US}, {4, 1, 2 * US},
	};
	/* Seed 2: 0 -> 2 -> 4 -> 1 -> 3 -> 0. */
	const struct want w2[] = {
		{0, 2, 2 * US}, {1, 3, 2 * US}, {2, 4, 2 * US},
		{3, 0, 2 * US}, {4, 1, 2 * US},
	};

	expect_list(&g, w1, 10);
	g.seed = 2;
	g.count = 1;
	expect_list(&g, w2, 5);
}
END_TEST

START_TEST(test_uniform_never_picks_the_sender_and_repeats_with_the_seed)
{
	const struct uet_wl_gen g = {.pattern = UET_WL_GEN_UNIFORM,
				     .hosts = 4,
				     .bytes = 100,
				     .count = 3,
				     .start_ps = 0,
				     .interval_ps = 5 * US,
				     .seed = 7};
	/* Seed 7, drawn round by round, host by host. */
	const struct want w[] = {
		{0, 3, 0},	 {1, 0, 0},	  {2, 0, 0},
		{3, 0, 0},	 {0, 3, 5 * US},  {1, 0, 5 * US},
		{2, 1, 5 * US},	 {3, 2, 5 * US},  {0, 2, 10 * US},
		{1, 3, 10 * US}, {2, 3, 10 * US}, {3, 0, 10 * US},
	};

	expect_list(&g, w, 12);
	/* The same seed draws the same list again. */
	expect_list(&g, w, 12);
}
END_TEST

START_TEST(test_bad_generators_say_why)
{
	struct uet_wl_gen g = {.pattern = UET_WL_GEN_INCAST,
			       .hosts = 4,
			       .bytes = 1,
			       .count = 1,
			       .dst = 4};
	struct uet_wl_error err = {{0}};
	struct uet_wl_message *m;
	uint32_t n;

	ck_assert_int_eq(uet_wl_generate(&g, &m, &n, &err), -EINVAL);
	ck_assert_str_eq(err.message,
			 "incast destination 4 is not a host (0 to 3)");
	ck_assert_ptr_null(m);
	g.hosts = 1;
	g.dst = 0;
	ck_assert_int_eq(uet_wl_generate(&g, &m, &n, &err), -EINVAL);
	ck_assert_str_eq(err.message, "1 hosts: a pattern needs at least 2");
	g.hosts = 4;
	g.count = 0;
	ck_assert_int_eq(uet_wl_generate(&g, &m, &n, &err), 0);
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* 3 hosts to host 0 at once, 1000 bytes each: each is sent at 20 ns and
 * arrives 1 us later; host 0's receives end together. */
START_TEST(test_incast_program_runs_to_the_exact_times)
{
	const struct uet_wl_gen g = {.pattern = UET_WL_GEN_INCAST,
				     .hosts = 4,
				     .bytes = 1000,
				     .count = 1,
				     .start_ps = 2 * US,
				     .dst = 0};
	struct uet_wl_error err = {{0}};
	struct uet_wl_msg_info info;
	struct uet_wl_program p;
	struct uet_wl_message *m;
	struct fake_net *f;
	uint32_t n, r;

	ck_assert_int_eq(uet_wl_generate(&g, &m, &n, &err), 0);
	ck_assert_int_eq(uet_wl_program_from_messages(&p, 4, m, n, &err), 0);
	free(m);
	ck_assert_uint_eq(p.n_messages, 3);
	f = calloc(1, sizeof(*f));
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(uet_wl_engine_create(&f->e, &p, fake_post, f), 0);
	ck_assert_int_eq(uet_wl_engine_start(f->e), 0);
	ck_assert_int_eq(fake_run(f), 0);
	ck_assert(uet_wl_engine_done(f->e));
	ck_assert_uint_eq(uet_wl_engine_rank_end_ps(f->e, 0), 3020000);
	for (r = 1; r < 4; r++)
		ck_assert_uint_eq(uet_wl_engine_rank_end_ps(f->e, r), 2020000);
	/* Message numbers go rank by rank; origin is the list index. */
	ck_assert_int_eq(uet_wl_engine_msg_info(f->e, 2, &info), 0);
	ck_assert_uint_eq(info.src, 3);
	ck_assert_uint_eq(info.dst, 0);
	ck_assert_uint_eq(info.origin, 2);
	ck_assert_uint_eq(info.bytes, 1000);
	ck_assert_uint_eq(info.posted_ps, 2000000);
	ck_assert_uint_eq(info.sent_ps, 2020000);
	ck_assert_uint_eq(info.arrived_ps, 3020000);
	ck_assert_int_eq(uet_wl_engine_msg_info(f->e, 3, &info), -EINVAL);
	uet_wl_engine_free(f->e);
	free(f);
	uet_wl_program_free(&p);
}
END_TEST

START_TEST(test_message_list_rejects_a_host_sending_to_itself)
{
	const struct uet_wl_message m = {1, 1, 10, 0};
	struct uet_wl_error err = {{0}};
	struct uet_wl_program p;

	ck_assert_int_eq(uet_wl_program_from_messages(&p, 2, &m, 1, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.message, "message 0: 1 -> 1"));
	uet_wl_program_free(&p);
}
END_TEST

Suite *generate_suite(void)
{
	Suite *s = suite_create("generate");
	TCase *tc = tcase_create("generate");

	tcase_add_test(tc, test_incast_every_other_host_to_dst_round_by_round);
	tcase_add_test(tc, test_all_to_all_offsets_one_then_two);
	tcase_add_test(tc, test_permutation_is_one_cycle_drawn_from_the_seed);
	tcase_add_test(
		tc,
		test_uniform_never_picks_the_sender_and_repeats_with_the_seed);
	tcase_add_test(tc, test_bad_generators_say_why);
	tcase_add_test(tc, test_incast_program_runs_to_the_exact_times);
	tcase_add_test(tc, test_message_list_rejects_a_host_sending_to_itself);
	suite_add_tcase(s, tc);
	return s;
}
