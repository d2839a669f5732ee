/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * REPS (the cache, recycling, discarding, freezing, exploring) and the
 * penalty bitmap: one test per state change.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "check_main.h"
#include "uet_lb.h"

#define SEED UINT64_C(0x5ca1a0e7)
#define US_PS UINT64_C(1000000)
#define A 50000
#define B 50001
#define C 50002
#define D 50003

static struct uet_lb reps(uint32_t cache, uint32_t lifetime, uint32_t explore)
{
	struct uet_lb_params p;
	struct uet_lb lb;

	uet_lb_params_default(&p);
	p.algo = UET_LB_REPS;
	p.reps_cache_size = cache;
	p.reps_usable_lifetime = lifetime;
	p.reps_explore_count = explore;
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 7), 0);
	return lb;
}

START_TEST(test_reps_defaults)
{
	struct uet_lb_params p;

	uet_lb_params_default(&p);
	ck_assert_uint_eq(p.reps_cache_size, 8);
	ck_assert_uint_eq(p.reps_usable_lifetime, 1);
	ck_assert_uint_eq(p.reps_freeze_ps, 100 * US_PS);
	ck_assert_uint_eq(p.reps_explore_count, 16);
	ck_assert_uint_eq(p.bitmap_paths, 256);
}
END_TEST

START_TEST(test_reps_empty_cache_sends_random)
{
	struct uet_lb lb = reps(8, 1, 16);
	uint16_t v = uet_lb_next_entropy(&lb, 0);

	ck_assert_str_eq(lb.ops->name, "reps");
	ck_assert_uint_ge(v, 49152);
	ck_assert_uint_eq(lb.n_random, 1);
	ck_assert_uint_eq(lb.n_recycled, 0);
}
END_TEST

/* An ACK without ECN recycles its value; the oldest fresh goes first, and
 * each is used once (lifetime 1), then random values again. */
START_TEST(test_reps_good_ack_recycles_oldest_first)
{
	struct uet_lb lb = reps(8, 1, 16);

	uet_lb_feedback(&lb, A, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, B, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, C, UET_LB_GOOD, 0);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), A);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), B);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), C);
	ck_assert_uint_eq(lb.n_recycled, 3);
	uet_lb_next_entropy(&lb, 0);
	ck_assert_uint_eq(lb.n_random, 1);
}
END_TEST

START_TEST(test_reps_usable_lifetime_reuses_value)
{
	struct uet_lb lb = reps(8, 3, 16);

	uet_lb_feedback(&lb, A, UET_LB_GOOD, 0);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), A);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), A);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), A);
	uet_lb_next_entropy(&lb, 0);
	ck_assert_uint_eq(lb.n_random, 1);
}
END_TEST

/* ECN ACKs and NACKs of packets trimmed on the way discard the value; a
 * NACK of a packet trimmed on the last hop recycles it. */
START_TEST(test_reps_ecn_and_trim_discard_lasthop_recycles)
{
	struct uet_lb lb = reps(8, 1, 16);

	uet_lb_feedback(&lb, A, UET_LB_ECN, 0);
	uet_lb_feedback(&lb, B, UET_LB_TRIMMED, 0);
	uet_lb_feedback(&lb, C, UET_LB_TRIMMED_LASTHOP, 0);
	ck_assert_uint_eq(lb.cache_filled, 1);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), C);
	uet_lb_next_entropy(&lb, 0);
	ck_assert_uint_eq(lb.n_random, 1);
}
END_TEST

/* A full ring overwrites its oldest entry. */
START_TEST(test_reps_cache_ring_overwrites_oldest)
{
	struct uet_lb lb = reps(2, 1, 16);

	uet_lb_feedback(&lb, A, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, B, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, C, UET_LB_GOOD, 0);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), B);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), C);
	ck_assert_uint_eq(lb.n_random, 0);
}
END_TEST

START_TEST(test_reps_out_of_range_value_not_recycled)
{
	struct uet_lb lb = reps(8, 1, 16);

	uet_lb_feedback(&lb, 4791, UET_LB_GOOD, 0);
	ck_assert_uint_eq(lb.cache_filled, 0);
}
END_TEST

/* A timeout freezes the cache: packets cycle through every cached value,
 * used or not; good values are still added. */
START_TEST(test_reps_timeout_freezes_cache)
{
	struct uet_lb lb = reps(8, 1, 16);

	uet_lb_feedback(&lb, A, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, B, UET_LB_GOOD, 0);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), A);
	uet_lb_feedback(&lb, D, UET_LB_TIMEOUT, 10 * US_PS);
	ck_assert(lb.frozen);
	ck_assert_uint_eq(lb.freeze_until_ps, 110 * US_PS);
	ck_assert_uint_eq(lb.n_freezes, 1);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), A);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), B);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), A);
	uet_lb_feedback(&lb, C, UET_LB_GOOD, 20 * US_PS);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), B);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), C);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), A);
	/* A second timeout while frozen does not move the deadline. */
	uet_lb_feedback(&lb, D, UET_LB_TIMEOUT, 50 * US_PS);
	ck_assert_uint_eq(lb.freeze_until_ps, 110 * US_PS);
	ck_assert_uint_eq(lb.n_freezes, 1);
	ck_assert_uint_eq(lb.n_random, 0);
}
END_TEST

START_TEST(test_reps_frozen_empty_cache_sends_random)
{
	struct uet_lb lb = reps(8, 1, 16);

	uet_lb_feedback(&lb, A, UET_LB_TIMEOUT, 0);
	ck_assert(lb.frozen);
	uet_lb_next_entropy(&lb, 0);
	ck_assert_uint_eq(lb.n_random, 1);
}
END_TEST

/* The first feedback at the deadline ends the freeze: the cache is emptied
 * and explore_count random values go out before recycling resumes; that
 * feedback itself is then handled (here a good value, recycled). */
START_TEST(test_reps_freeze_ends_in_exploration)
{
	struct uet_lb lb = reps(8, 1, 3);
	int i;

	uet_lb_feedback(&lb, A, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, B, UET_LB_TIMEOUT, 0);
	uet_lb_feedback(&lb, C, UET_LB_GOOD, 100 * US_PS - 1);
	ck_assert(lb.frozen);
	uet_lb_feedback(&lb, D, UET_LB_GOOD, 100 * US_PS);
	ck_assert(!lb.frozen);
	ck_assert_uint_eq(lb.cache_filled, 1);
	ck_assert_uint_eq(lb.explore_left, 3);
	for (i = 0; i < 3; i++)
		uet_lb_next_entropy(&lb, 0);
	ck_assert_uint_eq(lb.n_random, 3);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), D);
}
END_TEST

/* A timeout while exploring does not freeze again. */
START_TEST(test_reps_timeout_while_exploring_no_freeze)
{
	struct uet_lb lb = reps(8, 1, 3);

	uet_lb_feedback(&lb, A, UET_LB_TIMEOUT, 0);
	uet_lb_feedback(&lb, A, UET_LB_ECN, 100 * US_PS);
	ck_assert_uint_eq(lb.explore_left, 3);
	uet_lb_feedback(&lb, A, UET_LB_TIMEOUT, 101 * US_PS);
	ck_assert(!lb.frozen);
	ck_assert_uint_eq(lb.n_freezes, 1);
}
END_TEST

START_TEST(test_reps_rejects_bad_params)
{
	struct uet_lb_params p;
	struct uet_lb lb;

	uet_lb_params_default(&p);
	p.algo = UET_LB_REPS;
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), 0);
	p.reps_cache_size = 0;
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
	p.reps_cache_size = 65;
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
	p.reps_cache_size = 64;
	p.reps_usable_lifetime = 0;
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
	p.reps_usable_lifetime = 1;
	p.reps_freeze_ps = 0;
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
}
END_TEST

static struct uet_lb bitmap(uint32_t paths)
{
	struct uet_lb_params p;
	struct uet_lb lb;

	uet_lb_params_default(&p);
	p.algo = UET_LB_BITMAP;
	p.bitmap_paths = paths;
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 9), 0);
	return lb;
}

/* ECN +1, trim on the way +4, timeout +15, capped at 15; good ACKs and
 * last-hop trims change nothing. */
START_TEST(test_bitmap_penalties_per_feedback)
{
	struct uet_lb lb = bitmap(16);

	ck_assert_str_eq(lb.ops->name, "bitmap");
	uet_lb_feedback(&lb, 49152, UET_LB_ECN, 0);
	ck_assert_uint_eq(lb.penalty[0], 1);
	uet_lb_feedback(&lb, 49152, UET_LB_TRIMMED, 0);
	ck_assert_uint_eq(lb.penalty[0], 5);
	uet_lb_feedback(&lb, 49152, UET_LB_GOOD, 0);
	uet_lb_feedback(&lb, 49152, UET_LB_TRIMMED_LASTHOP, 0);
	ck_assert_uint_eq(lb.penalty[0], 5);
	uet_lb_feedback(&lb, 49152, UET_LB_TIMEOUT, 0);
	ck_assert_uint_eq(lb.penalty[0], 15);
	uet_lb_feedback(&lb, 49153, UET_LB_TIMEOUT, 0);
	ck_assert_uint_eq(lb.penalty[1], 15);
	/* Outside the sprayed values: ignored. */
	uet_lb_feedback(&lb, 49152 + 16, UET_LB_TIMEOUT, 0);
	uet_lb_feedback(&lb, 100, UET_LB_TIMEOUT, 0);
}
END_TEST

/* Without penalties the bitmap walks the oblivious order over its paths. */
START_TEST(test_bitmap_unpenalised_is_oblivious_round)
{
	struct uet_lb lb = bitmap(16);
	bool seen[16] = {false};
	int i;

	for (i = 0; i < 16; i++) {
		uint16_t v = uet_lb_next_entropy(&lb, 0);

		ck_assert_uint_ge(v, 49152);
		ck_assert_uint_lt(v, 49152 + 16);
		ck_assert(!seen[v - 49152]);
		seen[v - 49152] = true;
	}
}
END_TEST

/* Penalised values are skipped; only the first skipped one loses a point. */
START_TEST(test_bitmap_skips_penalised_decrements_first_only)
{
	struct uet_lb twin = bitmap(16), lb = bitmap(16);
	uint16_t v[4];
	int i;

	for (i = 0; i < 4; i++)
		v[i] = uet_lb_next_entropy(&twin, 0);
	uet_lb_feedback(&lb, v[0], UET_LB_TRIMMED, 0);
	uet_lb_feedback(&lb, v[1], UET_LB_TRIMMED, 0);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), v[2]);
	ck_assert_uint_eq(lb.penalty[v[0] - 49152], 3);
	ck_assert_uint_eq(lb.penalty[v[1] - 49152], 4);
	ck_assert_uint_eq(lb.n_skipped, 2);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), v[3]);
}
END_TEST

/* Every value penalised: a whole round is walked and the first is used. */
START_TEST(test_bitmap_all_penalised_uses_first)
{
	struct uet_lb twin = bitmap(2), lb = bitmap(2);
	uint16_t first = uet_lb_next_entropy(&twin, 0);

	uet_lb_feedback(&lb, 49152, UET_LB_TIMEOUT, 0);
	uet_lb_feedback(&lb, 49153, UET_LB_TIMEOUT, 0);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), first);
	ck_assert_uint_eq(lb.penalty[first - 49152], 14);
	ck_assert_uint_eq(lb.penalty[(first - 49152) ^ 1], 15);
}
END_TEST

START_TEST(test_bitmap_rejects_bad_paths)
{
	struct uet_lb_params p;
	struct uet_lb lb;

	uet_lb_params_default(&p);
	p.algo = UET_LB_BITMAP;
	p.bitmap_paths = 0;
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
	p.bitmap_paths = 257;
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
	p.bitmap_paths = 8;
	p.entropy_span = 4;
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
}
END_TEST

static Suite *lb_reps_bitmap_suite(void)
{
	Suite *s = suite_create("lb_reps_bitmap");
	TCase *tc = tcase_create("reps_bitmap");

	tcase_add_test(tc, test_reps_defaults);
	tcase_add_test(tc, test_reps_empty_cache_sends_random);
	tcase_add_test(tc, test_reps_good_ack_recycles_oldest_first);
	tcase_add_test(tc, test_reps_usable_lifetime_reuses_value);
	tcase_add_test(tc, test_reps_ecn_and_trim_discard_lasthop_recycles);
	tcase_add_test(tc, test_reps_cache_ring_overwrites_oldest);
	tcase_add_test(tc, test_reps_out_of_range_value_not_recycled);
	tcase_add_test(tc, test_reps_timeout_freezes_cache);
	tcase_add_test(tc, test_reps_frozen_empty_cache_sends_random);
	tcase_add_test(tc, test_reps_freeze_ends_in_exploration);
	tcase_add_test(tc, test_reps_timeout_while_exploring_no_freeze);
	tcase_add_test(tc, test_reps_rejects_bad_params);
	tcase_add_test(tc, test_bitmap_penalties_per_feedback);
	tcase_add_test(tc, test_bitmap_unpenalised_is_oblivious_round);
	tcase_add_test(tc, test_bitmap_skips_penalised_decrements_first_only);
	tcase_add_test(tc, test_bitmap_all_penalised_uses_first);
	tcase_add_test(tc, test_bitmap_rejects_bad_paths);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(lb_reps_bitmap_suite)
