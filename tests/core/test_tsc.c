/* SPDX-License-Identifier: BSD-3-Clause */
/* The TSC frequency measurement that stands in for the EAL's 100 ms one:
 * its rounding, and a figure over its least interval against a long one. */
#include <check.h>
#include <stdint.h>

#include "check_main.h"
#include "uet_tsc.h"

START_TEST(test_tsc_round_to_the_eal_step)
{
	ck_assert_uint_eq(uet_tsc_round_hz(0), 0);
	ck_assert_uint_eq(uet_tsc_round_hz(UINT64_C(4999999)), 0);
	ck_assert_uint_eq(uet_tsc_round_hz(UINT64_C(5000000)),
			  UINT64_C(10000000));
	ck_assert_uint_eq(uet_tsc_round_hz(UINT64_C(2194842000)),
			  UINT64_C(2190000000));
	ck_assert_uint_eq(uet_tsc_round_hz(UINT64_C(2195000000)),
			  UINT64_C(2200000000));
	ck_assert_uint_eq(uet_tsc_round_hz(UINT64_C(3000000000)),
			  UINT64_C(3000000000));
}
END_TEST

/* Not a timing test: both figures are measured against the same clock, and
 * a preempted read moves one end by at most a pair's gap (tens of ns; the
 * tightest of five pairs is kept). What it catches is a wrong unit or a
 * wrong bracket (a figure off by a factor, or by the length of the nap),
 * and a least interval too short for the EAL: over UET_TSC_CALIBRATION_US
 * the figure must be within 0.1% of a long one, well inside the 10 MHz
 * (0.33% at 3 GHz) the EAL rounds it to. */
START_TEST(test_tsc_short_measurement_agrees_with_a_long_one)
{
	struct uet_tsc_mark start;
	uint64_t shrt, lng;

#if !defined(__x86_64__)
	ck_assert_uint_eq(uet_tsc_calibrate_hz(1), 0);
	return;
#endif
	ck_assert_int_eq(uet_tsc_mark_take(&start), 0);
	shrt = uet_tsc_hz_since(&start, UET_TSC_CALIBRATION_US);
	lng = uet_tsc_calibrate_hz(20);
	ck_assert_uint_gt(lng, UINT64_C(100000000)); /* over 100 MHz */
	ck_assert_uint_lt(shrt > lng ? shrt - lng : lng - shrt, lng / 1000);
	/* 0 ms is taken as 1 ms, not as no interval at all. */
	ck_assert_uint_gt(uet_tsc_calibrate_hz(0), 0);
}
END_TEST

/* The EAL's figure is measured from a mark taken when the program starts:
 * the interval is whatever passed since, and at least the least interval
 * asked (a nap makes up the rest), never less. */
START_TEST(test_tsc_since_a_mark_covers_at_least_the_interval_asked)
{
	struct uet_tsc_mark start, end;
	uint64_t since, lng;

	if (uet_tsc_mark_take(&start) < 0) {
		ck_assert_uint_eq(uet_tsc_hz_since(&start, 1000), 0);
		return;
	}
	since = uet_tsc_hz_since(&start, 5000);
	ck_assert_int_eq(uet_tsc_mark_take(&end), 0);
	ck_assert_uint_ge(end.ns - start.ns, UINT64_C(5000000));
	ck_assert_uint_ge(end.tsc, start.tsc);
	lng = uet_tsc_calibrate_hz(50);
	ck_assert_uint_lt(since > lng ? since - lng : lng - since, lng / 100);
	/* A mark from long ago: no nap, the same figure. */
	since = uet_tsc_hz_since(&start, 1000);
	ck_assert_uint_lt(since > lng ? since - lng : lng - since, lng / 100);
}
END_TEST

static Suite *tsc_suite(void)
{
	Suite *s = suite_create("tsc");
	TCase *tc = tcase_create("calibrate");

	tcase_add_test(tc, test_tsc_round_to_the_eal_step);
	tcase_add_test(tc, test_tsc_short_measurement_agrees_with_a_long_one);
	tcase_add_test(
		tc, test_tsc_since_a_mark_covers_at_least_the_interval_asked);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(tsc_suite)
