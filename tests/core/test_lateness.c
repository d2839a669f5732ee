/* SPDX-License-Identifier: BSD-3-Clause */
/* The lateness histogram: log2 buckets in ns, mean, max, quantile bound. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "check_main.h"
#include "uet_lateness.h"

START_TEST(test_lateness_bucket_edges)
{
	ck_assert_uint_eq(uet_lateness_bucket(0), 0);
	ck_assert_uint_eq(uet_lateness_bucket(999), 0);
	ck_assert_uint_eq(uet_lateness_bucket(1000), 1);
	ck_assert_uint_eq(uet_lateness_bucket(1999), 1);
	ck_assert_uint_eq(uet_lateness_bucket(2000), 2);
	ck_assert_uint_eq(uet_lateness_bucket(3999), 2);
	ck_assert_uint_eq(uet_lateness_bucket(4000), 3);
	/* 1 us = 1000 ns: [512, 1024) is bucket 10. */
	ck_assert_uint_eq(uet_lateness_bucket(UINT64_C(1000000)), 10);
	/* 2^29 ns is bucket 30, 2^30 ns and beyond the last. */
	ck_assert_uint_eq(uet_lateness_bucket((UINT64_C(1) << 29) * 1000), 30);
	ck_assert_uint_eq(uet_lateness_bucket((UINT64_C(1) << 30) * 1000), 31);
	ck_assert_uint_eq(uet_lateness_bucket(UINT64_MAX), 31);
	ck_assert_uint_eq(uet_lateness_bucket_upper_ns(0), 1);
	ck_assert_uint_eq(uet_lateness_bucket_upper_ns(10), 1024);
	ck_assert_uint_eq(uet_lateness_bucket_upper_ns(31), UINT64_MAX);
}
END_TEST

START_TEST(test_lateness_mean_max_and_counts)
{
	struct uet_lateness l;

	uet_lateness_init(&l);
	ck_assert_uint_eq(uet_lateness_mean_ps(&l), 0);
	ck_assert_uint_eq(uet_lateness_quantile_upper_ns(&l, 990), 0);
	uet_lateness_add(&l, 0);
	uet_lateness_add(&l, 500);
	uet_lateness_add(&l, 1500);
	uet_lateness_add(&l, 6000);
	ck_assert_uint_eq(l.count, 4);
	ck_assert_uint_eq(l.sum_ps, 8000);
	ck_assert_uint_eq(uet_lateness_mean_ps(&l), 2000);
	ck_assert_uint_eq(l.max_ps, 6000);
	ck_assert_uint_eq(l.bucket[0], 2);
	ck_assert_uint_eq(l.bucket[1], 1);
	ck_assert_uint_eq(l.bucket[3], 1);
	/* Rank 2 of 4 is in bucket 0; rank 3 in bucket 1; rank 4 in 3. */
	ck_assert_uint_eq(uet_lateness_quantile_upper_ns(&l, 500), 1);
	ck_assert_uint_eq(uet_lateness_quantile_upper_ns(&l, 750), 2);
	ck_assert_uint_eq(uet_lateness_quantile_upper_ns(&l, 990), 8);
}
END_TEST

START_TEST(test_lateness_merge_adds_and_saturates)
{
	struct uet_lateness a, b;

	uet_lateness_init(&a);
	uet_lateness_init(&b);
	uet_lateness_add(&a, 3000);
	uet_lateness_add(&b, UINT64_MAX);
	uet_lateness_merge(&a, &b);
	ck_assert_uint_eq(a.count, 2);
	ck_assert_uint_eq(a.sum_ps, UINT64_MAX);
	ck_assert_uint_eq(a.max_ps, UINT64_MAX);
	ck_assert_uint_eq(a.bucket[2], 1);
	ck_assert_uint_eq(a.bucket[31], 1);
}
END_TEST

static Suite *lateness_suite(void)
{
	Suite *s = suite_create("core-lateness");
	TCase *tc = tcase_create("lateness");

	tcase_add_test(tc, test_lateness_bucket_edges);
	tcase_add_test(tc, test_lateness_mean_max_and_counts);
	tcase_add_test(tc, test_lateness_merge_adds_and_saturates);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(lateness_suite)
