/* SPDX-License-Identifier: BSD-3-Clause */
/* The fixed window, the base-RTT rules every algorithm shares, counters. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_cc.h"

#define NS_PS UINT64_C(1000)
#define US_PS UINT64_C(1000000)

/* Defaults of the page: 4096-byte MSS, nominal packet 4184 bytes. */
static struct uet_cc_params fixed_params(void)
{
	struct uet_cc_params p = {
		.algo = UET_CC_FIXED,
		.data_rate_bps = UINT64_C(400000000000),
		.initial_base_rtt_ps = 10 * US_PS,
		.window_bytes = 32 * UINT64_C(4184),
		.mtu_nominal_bytes = 4184,
	};
	return p;
}

static struct uet_cc_ack ack_sample(uet_time_t rtt_ps, uet_time_t service_ps)
{
	struct uet_cc_ack a = {
		.now_ps = 100 * US_PS,
		.acked_bytes = 4184,
		.rtt_valid = true,
		.rtt_ps = rtt_ps,
		.service_ps = service_ps,
	};
	return a;
}

START_TEST(test_fixed_window_constant)
{
	struct uet_cc_params p = fixed_params();
	struct uet_cc cc;
	struct uet_cc_ack a = ack_sample(3 * US_PS, 0);
	int i;

	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	ck_assert_str_eq(cc.ops->name, "fixed");
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 133888);
	for (i = 0; i < 100; i++) {
		a.ecn = (i % 2) == 0;
		uet_cc_on_ack(&cc, &a);
		ck_assert_uint_eq(uet_cc_window_bytes(&cc), 133888);
	}
	uet_cc_on_trim(&cc, 200 * US_PS, 4184, false, 0);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 133888);
	uet_cc_on_trim(&cc, 201 * US_PS, 4184, true, 0);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 133888);
	uet_cc_on_timeout(&cc, 300 * US_PS, 4184);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 133888);
}
END_TEST

START_TEST(test_base_rtt_starts_at_initial)
{
	struct uet_cc_params p = fixed_params();
	struct uet_cc cc;

	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 10 * US_PS);
	ck_assert_uint_eq(cc.n_rtt_samples, 0);
}
END_TEST

START_TEST(test_base_rtt_lowered_by_probe)
{
	struct uet_cc_params p = fixed_params();
	struct uet_cc cc;

	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	uet_cc_on_probe_rtt(&cc, 2345 * NS_PS);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 2345 * NS_PS);
	uet_cc_on_probe_rtt(&cc, 2344 * NS_PS + 999);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 2344 * NS_PS + 999);
	ck_assert_uint_eq(cc.n_rtt_samples, 2);
}
END_TEST

START_TEST(test_base_rtt_ack_sample_minus_service)
{
	struct uet_cc_params p = fixed_params();
	struct uet_cc cc;
	/* 3 us round trip of which the receiver held 256 ns (2 steps). */
	struct uet_cc_ack a = ack_sample(3 * US_PS, 256 * NS_PS);

	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 2744 * NS_PS);
	ck_assert_uint_eq(cc.n_rtt_samples, 1);
	/* The page's example: a 66.4 ns hold reports 0 steps, so the sample
	 * keeps the hold. */
	a = ack_sample(2 * US_PS + 66400, 0);
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 2066400);
}
END_TEST

START_TEST(test_base_rtt_never_raised)
{
	struct uet_cc_params p = fixed_params();
	struct uet_cc cc;
	struct uet_cc_ack a = ack_sample(20 * US_PS, 0);

	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 10 * US_PS);
	uet_cc_on_probe_rtt(&cc, 11 * US_PS);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 10 * US_PS);
	uet_cc_on_probe_rtt(&cc, 4 * US_PS);
	uet_cc_on_probe_rtt(&cc, 5 * US_PS);
	a = ack_sample(9 * US_PS, 1 * US_PS);
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 4 * US_PS);
	/* Equal to the estimate: unchanged. */
	uet_cc_on_probe_rtt(&cc, 4 * US_PS);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 4 * US_PS);
	ck_assert_uint_eq(cc.n_rtt_samples, 6);
}
END_TEST

START_TEST(test_base_rtt_invalid_sample_ignored)
{
	struct uet_cc_params p = fixed_params();
	struct uet_cc cc;
	struct uet_cc_ack a = ack_sample(1 * US_PS, 0);

	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	/* Karn: a retransmitted packet's ACK gives no sample. */
	a.rtt_valid = false;
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 10 * US_PS);
	/* A service time longer than the round trip: dropped, no wrap. */
	a = ack_sample(1 * US_PS, 1 * US_PS + 1);
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 10 * US_PS);
	ck_assert_uint_eq(cc.n_rtt_samples, 0);
	ck_assert_uint_eq(cc.n_acks, 2);
	/* Equal service and round trip is a (degenerate) valid sample. */
	a = ack_sample(1 * US_PS, 1 * US_PS);
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 0);
	ck_assert_uint_eq(cc.n_rtt_samples, 1);
}
END_TEST

START_TEST(test_counters_count_each_event)
{
	struct uet_cc_params p = fixed_params();
	struct uet_cc cc;
	struct uet_cc_ack a = ack_sample(3 * US_PS, 0);
	int i;

	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	ck_assert_uint_eq(cc.n_acks, 0);
	ck_assert_uint_eq(cc.n_trims, 0);
	ck_assert_uint_eq(cc.n_timeouts, 0);
	for (i = 0; i < 7; i++)
		uet_cc_on_ack(&cc, &a);
	for (i = 0; i < 3; i++)
		uet_cc_on_trim(&cc, 0, 4184, i == 0, 0);
	for (i = 0; i < 2; i++)
		uet_cc_on_timeout(&cc, 0, 4184);
	uet_cc_on_probe_rtt(&cc, 2 * US_PS);
	ck_assert_uint_eq(cc.n_acks, 7);
	ck_assert_uint_eq(cc.n_trims, 3);
	ck_assert_uint_eq(cc.n_timeouts, 2);
	ck_assert_uint_eq(cc.n_rtt_samples, 8);
}
END_TEST

START_TEST(test_init_rejects_zero_window_and_mtu)
{
	struct uet_cc_params p = fixed_params();
	struct uet_cc cc;

	memset(&cc, 0xa5, sizeof(cc));
	p.window_bytes = 0;
	ck_assert_int_eq(uet_cc_init(&cc, &p), -EINVAL);
	/* A failed init leaves the struct alone. */
	ck_assert_uint_eq(cc.n_acks, UINT64_C(0xa5a5a5a5a5a5a5a5));
	p = fixed_params();
	p.mtu_nominal_bytes = 0;
	ck_assert_int_eq(uet_cc_init(&cc, &p), -EINVAL);
	p = fixed_params();
	p.algo = (enum uet_cc_algo)7;
	ck_assert_int_eq(uet_cc_init(&cc, &p), -EINVAL);
	ck_assert_int_eq(uet_cc_init(NULL, &p), -EINVAL);
	ck_assert_int_eq(uet_cc_init(&cc, NULL), -EINVAL);
}
END_TEST

START_TEST(test_init_nscc_needs_rate_and_rtt)
{
	struct uet_cc_params p = fixed_params();
	struct uet_cc cc;

	p.algo = UET_CC_NSCC;
	p.data_rate_bps = 0;
	ck_assert_int_eq(uet_cc_init(&cc, &p), -EINVAL);
	p = fixed_params();
	p.algo = UET_CC_NSCC;
	p.initial_base_rtt_ps = 0;
	ck_assert_int_eq(uet_cc_init(&cc, &p), -EINVAL);
	p.initial_base_rtt_ps = 10 * US_PS;
	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
}
END_TEST

START_TEST(test_init_resets_state)
{
	struct uet_cc_params p = fixed_params();
	struct uet_cc cc;

	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	uet_cc_on_probe_rtt(&cc, 1 * US_PS);
	uet_cc_on_timeout(&cc, 0, 4184);
	/* A new group starts again at InitialBaseRTT with no counts. */
	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 10 * US_PS);
	ck_assert_uint_eq(cc.n_timeouts, 0);
	ck_assert_uint_eq(cc.n_rtt_samples, 0);
	ck_assert_uint_eq(cc.params.mtu_nominal_bytes, 4184);
}
END_TEST

static Suite *cc_fixed_suite(void)
{
	Suite *s = suite_create("cc_fixed");
	TCase *tc = tcase_create("fixed");

	/* Room for ASan on a loaded machine; a hang guard only. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_fixed_window_constant);
	tcase_add_test(tc, test_base_rtt_starts_at_initial);
	tcase_add_test(tc, test_base_rtt_lowered_by_probe);
	tcase_add_test(tc, test_base_rtt_ack_sample_minus_service);
	tcase_add_test(tc, test_base_rtt_never_raised);
	tcase_add_test(tc, test_base_rtt_invalid_sample_ignored);
	tcase_add_test(tc, test_counters_count_each_event);
	tcase_add_test(tc, test_init_rejects_zero_window_and_mtu);
	tcase_add_test(tc, test_init_nscc_needs_rate_and_rtt);
	tcase_add_test(tc, test_init_resets_state);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(cc_fixed_suite)
