/* SPDX-License-Identifier: BSD-3-Clause */
/* Retransmission timeout per attempt, and the ACK service time field. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "check_main.h"
#include "uet_pds.h"

#define US_PS UINT64_C(1000000)

static struct uet_pds_params rto_params(uet_time_t t0_ps, uint32_t m)
{
	struct uet_pds_params p = {
		.ack_request_every_nth = 1,
		.initial_rto_ps = t0_ps,
		.max_rto_backoff_count = m,
	};
	return p;
}

START_TEST(test_rto_doubles_until_cap)
{
	struct uet_pds_params p = rto_params(20 * US_PS, 3);

	ck_assert_uint_eq(uet_pds_rto_ps(&p, 1), 20 * US_PS);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 2), 40 * US_PS);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 3), 80 * US_PS);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 4), 160 * US_PS);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 5), 160 * US_PS);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 6), 160 * US_PS);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, UINT32_MAX), 160 * US_PS);
	/* Attempt 0 does not exist: read as the first send. */
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 0), 20 * US_PS);
}
END_TEST

START_TEST(test_rto_no_backoff)
{
	struct uet_pds_params p = rto_params(20 * US_PS, 0);
	uint32_t a;

	for (a = 1; a <= 8; a++)
		ck_assert_uint_eq(uet_pds_rto_ps(&p, a), 20 * US_PS);
}
END_TEST

START_TEST(test_rto_scales_with_initial)
{
	struct uet_pds_params p = rto_params(35 * US_PS, 3);

	ck_assert_uint_eq(uet_pds_rto_ps(&p, 1), 35 * US_PS);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 3), 140 * US_PS);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 9), 280 * US_PS);
}
END_TEST

START_TEST(test_rto_fixed_every_attempt)
{
	struct uet_pds_params p = rto_params(20 * US_PS, 3);
	uint32_t a;

	p.fixed_rexmit_enable = true;
	p.fixed_rexmit_timeout_ps = 50 * US_PS;
	for (a = 0; a <= 8; a++)
		ck_assert_uint_eq(uet_pds_rto_ps(&p, a), 50 * US_PS);
	/* Not used when off. */
	p.fixed_rexmit_enable = false;
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 1), 20 * US_PS);
}
END_TEST

START_TEST(test_rto_saturates_for_large_backoff)
{
	struct uet_pds_params p = rto_params(20 * US_PS, 100);

	/* 20 us * 2^29 still fits in 64 bits of ps. */
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 30),
			  20 * US_PS * (UINT64_C(1) << 29));
	/* 20 us * 2^59 does not: saturate. */
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 60), UINT64_MAX);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, UINT32_MAX), UINT64_MAX);

	p = rto_params(1, 63);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 64), UINT64_C(1) << 63);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 1000), UINT64_C(1) << 63);
	p = rto_params(1, 64);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, 65), UINT64_MAX);
	p = rto_params(1, UINT32_MAX);
	ck_assert_uint_eq(uet_pds_rto_ps(&p, UINT32_MAX), UINT64_MAX);
}
END_TEST

START_TEST(test_params_check)
{
	struct uet_pds_params p = rto_params(20 * US_PS, 3);

	ck_assert_int_eq(uet_pds_params_check(&p), 0);
	p.ack_request_every_nth = 0;
	ck_assert_int_eq(uet_pds_params_check(&p), -EINVAL);
	p = rto_params(0, 3);
	ck_assert_int_eq(uet_pds_params_check(&p), -EINVAL);
	/* Fixed mode needs only the fixed timeout. */
	p.fixed_rexmit_enable = true;
	ck_assert_int_eq(uet_pds_params_check(&p), -EINVAL);
	p.fixed_rexmit_timeout_ps = 1;
	ck_assert_int_eq(uet_pds_params_check(&p), 0);
}
END_TEST

START_TEST(test_service_time_in_128ns_steps)
{
	/* The page's 66.4 ns hold reports 0; the holds of tests/pcie (three
	 * packets waiting; eight lanes) report 1. */
	ck_assert_uint_eq(uet_pds_service_time_steps(66370), 0);
	ck_assert_uint_eq(uet_pds_service_time_steps(66371), 0);
	ck_assert_uint_eq(uet_pds_service_time_steps(199112), 1);
	ck_assert_uint_eq(uet_pds_service_time_steps(132742), 1);
	ck_assert_uint_eq(uet_pds_service_time_steps(383999), 2);
	ck_assert_uint_eq(uet_pds_service_time_steps(0), 0);
	ck_assert_uint_eq(uet_pds_service_time_steps(127999), 0);
	ck_assert_uint_eq(uet_pds_service_time_steps(128000), 1);
	ck_assert_uint_eq(uet_pds_service_time_steps(255999), 1);
	ck_assert_uint_eq(uet_pds_service_time_steps(256000), 2);
	/* 16-bit field: saturate. */
	ck_assert_uint_eq(uet_pds_service_time_steps(UINT64_C(65535) * 128000),
			  65535);
	ck_assert_uint_eq(uet_pds_service_time_steps(UINT64_C(65536) * 128000),
			  65535);
	ck_assert_uint_eq(uet_pds_service_time_steps(UINT64_MAX), 65535);

	ck_assert_uint_eq(uet_pds_service_time_ps(0), 0);
	ck_assert_uint_eq(uet_pds_service_time_ps(1), 128000);
	ck_assert_uint_eq(uet_pds_service_time_ps(65535),
			  UINT64_C(65535) * 128000);
}
END_TEST

static Suite *pds_rto_suite(void)
{
	Suite *s = suite_create("pds_rto");
	TCase *tc = tcase_create("rto");

	tcase_add_test(tc, test_rto_doubles_until_cap);
	tcase_add_test(tc, test_rto_no_backoff);
	tcase_add_test(tc, test_rto_scales_with_initial);
	tcase_add_test(tc, test_rto_fixed_every_attempt);
	tcase_add_test(tc, test_rto_saturates_for_large_backoff);
	tcase_add_test(tc, test_params_check);
	tcase_add_test(tc, test_service_time_in_128ns_steps);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(pds_rto_suite)
