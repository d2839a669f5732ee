/* SPDX-License-Identifier: BSD-3-Clause */
/* The seeded generator: fixed sequences, streams, bounds, Bernoulli. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "check_main.h"
#include "uet_rng.h"

START_TEST(test_rng_fixed_seed_fixed_sequence)
{
	/*
	 * Pinned once, from a separate Python model of splitmix64 seeding
	 * and xoshiro256**: a change here changes every recorded run.
	 */
	static const uint64_t want[] = {
		UINT64_C(0xc77b6107c66edf7b),
		UINT64_C(0xb4da9dc4018569d1),
		UINT64_C(0x4916a262fd51a42c),
		UINT64_C(0xfb3ea73da31e07b0),
	};
	struct uet_rng r;
	size_t i;

	uet_rng_seed(&r, 1, 0);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint64_t v = uet_rng_u64(&r);

		ck_assert_msg(v == want[i], "value %zu: 0x%016" PRIx64, i, v);
	}
}
END_TEST

START_TEST(test_rng_same_seed_same_stream_repeats)
{
	struct uet_rng a, b;
	int i, differ = 0;

	uet_rng_seed(&a, 0xdeadbeef, 17);
	uet_rng_seed(&b, 0xdeadbeef, 17);
	for (i = 0; i < 10000; i++)
		differ += uet_rng_u64(&a) != uet_rng_u64(&b);
	ck_assert_int_eq(differ, 0);
}
END_TEST

START_TEST(test_rng_streams_and_seeds_differ)
{
	struct uet_rng r[4];
	uint64_t v[4][8];
	int i, j, k, same;

	uet_rng_seed(&r[0], 5, 0);
	uet_rng_seed(&r[1], 5, 1);
	uet_rng_seed(&r[2], 6, 0);
	/* (seed + 1, stream - 1) must not alias (seed, stream). */
	uet_rng_seed(&r[3], 4, 1);
	for (i = 0; i < 4; i++)
		for (k = 0; k < 8; k++)
			v[i][k] = uet_rng_u64(&r[i]);
	for (i = 0; i < 4; i++)
		for (j = i + 1; j < 4; j++) {
			same = 0;
			for (k = 0; k < 8; k++)
				same += v[i][k] == v[j][k];
			ck_assert_msg(same == 0, "generators %d and %d", i, j);
		}
	/* Not a shifted copy either: stream 1 never shows stream 0's first. */
	uet_rng_seed(&r[0], 5, 0);
	uet_rng_seed(&r[1], 5, 1);
	v[0][0] = uet_rng_u64(&r[0]);
	same = 0;
	for (k = 0; k < 100000; k++)
		same += uet_rng_u64(&r[1]) == v[0][0];
	ck_assert_int_eq(same, 0);
}
END_TEST

START_TEST(test_rng_bounded_in_range)
{
	static const uint64_t bounds[] = {
		1, 2, 3, 7, 1000, 1000000, (UINT64_C(1) << 63) + 1, UINT64_MAX};
	struct uet_rng r;
	uint64_t hist[7] = {0};
	size_t b;
	int i, out = 0;

	/* Count faults: Check makes every passing assertion a syscall. */
	uet_rng_seed(&r, 99, 3);
	for (b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++)
		for (i = 0; i < 20000; i++)
			out += uet_rng_bounded(&r, bounds[b]) >= bounds[b];
	ck_assert_int_eq(out, 0);
	ck_assert_uint_eq(uet_rng_bounded(&r, 0), 0);
	/* Every value of a small range appears, each near 1/7 of draws. */
	for (i = 0; i < 70000; i++)
		hist[uet_rng_bounded(&r, 7)]++;
	for (b = 0; b < 7; b++) {
		ck_assert_uint_gt(hist[b], 9500);
		ck_assert_uint_lt(hist[b], 10500);
	}
}
END_TEST

START_TEST(test_rng_chance_ppm_extremes)
{
	struct uet_rng r;
	int i, wrong = 0;

	uet_rng_seed(&r, 3, 3);
	for (i = 0; i < 100000; i++) {
		wrong += uet_rng_chance_ppm(&r, 0);
		wrong += !uet_rng_chance_ppm(&r, 1000000);
		wrong += !uet_rng_chance_ppm(&r, UINT32_MAX);
	}
	ck_assert_int_eq(wrong, 0);
}
END_TEST

START_TEST(test_rng_chance_ppm_one_percent)
{
	struct uet_rng r;
	int i, hits = 0;

	uet_rng_seed(&r, 12345, 9);
	for (i = 0; i < 1000000; i++)
		hits += uet_rng_chance_ppm(&r, 10000);
	/* Mean 10,000, standard deviation about 99.5: allow 6 of them. */
	ck_assert_int_gt(hits, 9400);
	ck_assert_int_lt(hits, 10600);
}
END_TEST

START_TEST(test_rng_chance_ppm_draws_once_whatever_ppm)
{
	struct uet_rng a, b;

	uet_rng_seed(&a, 8, 8);
	uet_rng_seed(&b, 8, 8);
	uet_rng_chance_ppm(&a, 0);
	uet_rng_chance_ppm(&a, 1000000);
	uet_rng_chance_ppm(&b, 500000);
	uet_rng_chance_ppm(&b, 1);
	ck_assert_uint_eq(uet_rng_u64(&a), uet_rng_u64(&b));
}
END_TEST

static Suite *rng_suite(void)
{
	Suite *s = suite_create("core-rng");
	TCase *tc = tcase_create("rng");

	tcase_add_test(tc, test_rng_fixed_seed_fixed_sequence);
	tcase_add_test(tc, test_rng_same_seed_same_stream_repeats);
	tcase_add_test(tc, test_rng_streams_and_seeds_differ);
	tcase_add_test(tc, test_rng_bounded_in_range);
	tcase_add_test(tc, test_rng_chance_ppm_extremes);
	tcase_add_test(tc, test_rng_chance_ppm_one_percent);
	tcase_add_test(tc, test_rng_chance_ppm_draws_once_whatever_ppm);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(rng_suite)
