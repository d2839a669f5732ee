/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NSCC, one test per rule (cc-and-multipath 1.1, 1.2). Most tests run on
 * the reference network, 100 Gb/s and a 12 us network RTT, with a 4000-byte
 * nominal packet and trimming, so the derived parameters are round: BDP
 * 150000, a = 1, b = 0.75, tq = 9 us, fi = 20000, eta = 600, fi_scale
 * 0.25, alpha = 1333 millionths of a byte per ps, max window 225000,
 * 8-packet adjustment 32000 bytes.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "check_main.h"
#include "uet_cc.h"

#define US_PS UINT64_C(1000000)
#define T0 (100 * US_PS)

static struct uet_cc_params ref_params(void)
{
	struct uet_cc_params p = {
		.algo = UET_CC_NSCC,
		.data_rate_bps = UINT64_C(100000000000),
		.initial_base_rtt_ps = 12 * US_PS,
		.mtu_nominal_bytes = 4000,
		.trimming = true,
		.nscc_initial_window_bytes = 100000,
	};
	return p;
}

static void ref_cc(struct uet_cc *cc)
{
	struct uet_cc_params p = ref_params();

	ck_assert_int_eq(uet_cc_init(cc, &p), 0);
}

/* An ACK of one 4000-byte packet whose sample shows delay_ps of queueing. */
static void ack(struct uet_cc *cc, uet_time_t now, uet_time_t delay_ps,
		bool ecn)
{
	struct uet_cc_ack a = {
		.now_ps = now,
		.acked_bytes = 4000,
		.ecn = ecn,
		.rtt_valid = true,
		.rtt_ps = 12 * US_PS + delay_ps,
		.in_flight_bytes = 50000,
	};

	uet_cc_on_ack(cc, &a);
}

START_TEST(test_nscc_derived_reference_network)
{
	struct uet_cc cc;

	ref_cc(&cc);
	ck_assert_str_eq(cc.ops->name, "nscc");
	ck_assert_uint_eq(cc.nscc.bdp_bytes, 150000);
	ck_assert_uint_eq(cc.nscc.max_window_bytes, 225000);
	ck_assert_uint_eq(cc.nscc.min_window_bytes, 4000);
	ck_assert_uint_eq(cc.nscc.target_qdelay_ps, 9 * US_PS);
	ck_assert_uint_eq(cc.nscc.qa_threshold_ps, 36 * US_PS);
	ck_assert_uint_eq(cc.nscc.a_ppm, 1000000);
	ck_assert_uint_eq(cc.nscc.b_ppm, 750000);
	ck_assert_uint_eq(cc.nscc.fair_inc_bytes, 20000);
	ck_assert_uint_eq(cc.nscc.eta_bytes, 600);
	ck_assert_uint_eq(cc.nscc.fast_inc_scale_ppm, 250000);
	ck_assert_uint_eq(cc.nscc.alpha_ubytes_per_ps, 1333);
	ck_assert_uint_eq(cc.nscc.gamma_ppm, 800000);
	ck_assert_uint_eq(cc.nscc.delay_ewma_ppm, 12500);
	ck_assert_uint_eq(cc.nscc.adjust_period_ps, 12 * US_PS);
	ck_assert_uint_eq(cc.nscc.adjust_bytes, 32000);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 100000);
}
END_TEST

/* The NIC's defaults: 400 Gb/s, InitialBaseRTT 4 us, 4184-byte packet. */
START_TEST(test_nscc_derived_nic_defaults)
{
	struct uet_cc_params p = ref_params();
	struct uet_nscc_derived d;

	p.data_rate_bps = UINT64_C(400000000000);
	p.initial_base_rtt_ps = 4 * US_PS;
	p.mtu_nominal_bytes = 4184;
	ck_assert_int_eq(uet_nscc_derive(&p, &d), 0);
	ck_assert_uint_eq(d.bdp_bytes, 200000);
	ck_assert_uint_eq(d.max_window_bytes, 300000);
	ck_assert_uint_eq(d.target_qdelay_ps, 3 * US_PS);
	ck_assert_uint_eq(d.a_ppm, 1333333);
	ck_assert_uint_eq(d.b_ppm, 250000);
	ck_assert_uint_eq(d.fair_inc_bytes, 27893);
	ck_assert_uint_eq(d.eta_bytes, 836);
	ck_assert_uint_eq(d.fast_inc_scale_ppm, 333333);
	ck_assert_uint_eq(d.alpha_ubytes_per_ps, 1859);
	p.data_rate_bps = 0;
	ck_assert_int_eq(uet_nscc_derive(&p, &d), -EINVAL);
}
END_TEST

START_TEST(test_nscc_target_delay_without_trimming_is_rtt)
{
	struct uet_cc_params p = ref_params();
	struct uet_nscc_derived d;

	p.trimming = false;
	ck_assert_int_eq(uet_nscc_derive(&p, &d), 0);
	ck_assert_uint_eq(d.target_qdelay_ps, 12 * US_PS);
	p.nscc_target_qdelay_ps = 5 * US_PS;
	ck_assert_int_eq(uet_nscc_derive(&p, &d), 0);
	ck_assert_uint_eq(d.target_qdelay_ps, 5 * US_PS);
}
END_TEST

START_TEST(test_nscc_initial_window_is_max_window)
{
	struct uet_cc_params p = ref_params();
	struct uet_cc cc;

	p.nscc_initial_window_bytes = 0;
	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 225000);
	p.nscc_initial_window_bytes = 10000000;
	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 225000);
	p.nscc_initial_window_bytes = 1;
	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 4000);
}
END_TEST

/* No ECN, delay >= tq: fi x acked bytes pending; applied after more than
 * 8 packets: 9 x 20000 x 4000 / 100000 = 7200. */
START_TEST(test_nscc_fair_increase)
{
	struct uet_cc cc;
	int i;

	ref_cc(&cc);
	for (i = 0; i < 8; i++)
		ack(&cc, T0, 10 * US_PS, false);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 100000);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_FAIR_INC], 8);
	ack(&cc, T0, 10 * US_PS, false);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 107200);
	ck_assert_int_eq(cc.last_reason, UET_CC_R_ADJUST);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_FAIR_INC], 9);
}
END_TEST

/* No ECN, 1 us <= delay < tq: alpha x acked x (tq - delay) pending:
 * 1333 x 4000 x 4 us / 10^6 = 21328000 per ACK; 9 ACKs / 100000 = 1919. */
START_TEST(test_nscc_proportional_increase)
{
	struct uet_cc cc;
	int i;

	ref_cc(&cc);
	for (i = 0; i < 9; i++)
		ack(&cc, T0, 5 * US_PS, false);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 101919);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_PROP_INC], 9);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_FAST_INC], 0);
}
END_TEST

/* Delay < 1 us for more than a window of acked bytes: fast mode, the
 * window grows by acked x fi_scale (1000 per packet) on every ACK; a delay
 * of 1 us or more ends it. */
START_TEST(test_nscc_fast_increase)
{
	struct uet_cc_params p = ref_params();
	struct uet_cc cc;

	p.nscc_initial_window_bytes = 8000;
	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	ack(&cc, T0, 0, false);
	ack(&cc, T0, 0, false);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 8000);
	ck_assert(!cc.ns.fast_mode);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_PROP_INC], 2);
	ack(&cc, T0, 0, false);
	ck_assert(cc.ns.fast_mode);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 9000);
	ack(&cc, T0, 0, false);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 10000);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_FAST_INC], 2);
	ack(&cc, T0, 2 * US_PS, false);
	ck_assert(!cc.ns.fast_mode);
	ck_assert_uint_eq(cc.ns.fast_count_bytes, 0);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 10000);
}
END_TEST

/* ECN and delay >= tq: window x max(1 - 0.8 (avg - tq) / avg, 0.5), at
 * most once per base RTT. avg after a 1000 us ECN sample: 12.5 us, factor
 * 0.776; the third sample (avg 37.03 us) would cut more than half: 0.5.
 */
START_TEST(test_nscc_multiplicative_decrease)
{
	struct uet_cc cc;

	ref_cc(&cc);
	ack(&cc, T0, 1000 * US_PS, true);
	ck_assert_uint_eq(cc.ns.avg_delay_ps, 12500000);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 77600);
	ck_assert_int_eq(cc.last_reason, UET_CC_R_MULT_DEC);
	ack(&cc, T0 + 12 * US_PS, 1000 * US_PS, true);
	ck_assert_uint_eq(cc.ns.avg_delay_ps, 24843750);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 77600);
	ack(&cc, T0 + 12 * US_PS + 1, 1000 * US_PS, true);
	ck_assert_uint_eq(cc.ns.avg_delay_ps, 37033203);
	/* Halved to 38800, then the period's eta (600): more than 12 us
	 * since the first ACK. */
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 39400);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_ETA], 1);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_MULT_DEC], 2);
}
END_TEST

/* ECN below target only moves the path choice: the window stays. */
START_TEST(test_nscc_ecn_low_delay_keeps_window)
{
	struct uet_cc cc;

	ref_cc(&cc);
	ack(&cc, T0, 2 * US_PS, true);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 100000);
	ck_assert_int_eq(cc.last_reason, UET_CC_R_ECN_LOW_DELAY);
}
END_TEST

/* Once per network RTT the window gains eta (600) on top of the increases. */
START_TEST(test_nscc_eta_per_period)
{
	struct uet_cc cc;

	ref_cc(&cc);
	ack(&cc, T0, 2 * US_PS, true);
	ack(&cc, T0 + 12 * US_PS, 2 * US_PS, true);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 100000);
	ack(&cc, T0 + 12 * US_PS + 1, 2 * US_PS, true);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 100600);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_ETA], 1);
	ck_assert_uint_eq(cc.ns.last_adjust_ps, T0 + 12 * US_PS + 1);
}
END_TEST

/* Delay EWMA, weight 0.0125: a sample below tq enters as is; an unmarked
 * sample above tq enters as base RTT / 4 (3 us); a marked one as is. */
START_TEST(test_nscc_delay_average)
{
	struct uet_cc cc;

	ref_cc(&cc);
	ack(&cc, T0, 8 * US_PS, false);
	ck_assert_uint_eq(cc.ns.avg_delay_ps, 100000);
	ref_cc(&cc);
	ack(&cc, T0, 10 * US_PS, false);
	ck_assert_uint_eq(cc.ns.avg_delay_ps, 37500);
	ck_assert_uint_eq(cc.last_delay_ps, 10 * US_PS);
	ref_cc(&cc);
	ack(&cc, T0, 10 * US_PS, true);
	ck_assert_uint_eq(cc.ns.avg_delay_ps, 125000);
}
END_TEST

/* An ACK without a valid sample uses the average as its delay. */
START_TEST(test_nscc_invalid_sample_uses_average)
{
	struct uet_cc cc;
	struct uet_cc_ack a = {.now_ps = T0, .acked_bytes = 4000};

	ref_cc(&cc);
	cc.ns.avg_delay_ps = 7 * US_PS;
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(cc.last_delay_ps, 7 * US_PS);
	ck_assert_uint_eq(cc.ns.avg_delay_ps, 7 * US_PS);
	ck_assert_int_eq(cc.last_reason, UET_CC_R_PROP_INC);
}
END_TEST

/* The base RTT falls to a sample with the service time removed; the
 * maximum window follows (1.5 x 100 Gb/s x 8 us = 150000) and clamps. */
START_TEST(test_nscc_base_rtt_lowers_max_window)
{
	struct uet_cc_params p = ref_params();
	struct uet_cc cc;
	struct uet_cc_ack a = {
		.now_ps = T0,
		.acked_bytes = 4000,
		.rtt_valid = true,
		.rtt_ps = 10 * US_PS,
		.service_ps = 2 * US_PS,
	};

	p.nscc_initial_window_bytes = 0;
	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 225000);
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_base_rtt_ps(&cc), 8 * US_PS);
	ck_assert_uint_eq(cc.nscc.max_window_bytes, 150000);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 150000);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_MAXWND], 1);
	ck_assert_uint_eq(cc.last_delay_ps, 0);
}
END_TEST

/* A period's first check starts it; a later one after the period, with a
 * delay above 4 tq and less than maxwnd / 8 achieved, sets the window to
 * the bytes achieved; ECN ACKs are then ignored for the bytes that were in
 * flight. */
START_TEST(test_nscc_quick_adapt)
{
	struct uet_cc cc;
	int i;

	ref_cc(&cc);
	ack(&cc, T0, 0, false);
	ck_assert_uint_eq(cc.ns.qa_end_ps, T0 + 21 * US_PS);
	ack(&cc, T0 + 10 * US_PS, 0, false);
	ack(&cc, T0 + 22 * US_PS, 40 * US_PS, false);
	ck_assert_int_eq(cc.last_reason, UET_CC_R_QUICK_ADAPT);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 8000);
	ck_assert_uint_eq(cc.ns.bytes_to_ignore, 50000);
	ck_assert_uint_eq(cc.ns.qa_end_ps, T0 + 43 * US_PS);
	for (i = 0; i < 12; i++)
		ack(&cc, T0 + 23 * US_PS, 40 * US_PS, true);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_QA_IGNORE], 12);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 8000);
	/* 52000 ignored >= 50000: the next ECN ACK counts again. */
	ack(&cc, T0 + 23 * US_PS, 40 * US_PS, true);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_QA_IGNORE], 12);
	ck_assert_uint_eq(cc.ns.bytes_ignored, 52000);
}
END_TEST

/* Quick adapt is gated: with maxwnd / 8 (28125) or more achieved it does
 * not fire. */
START_TEST(test_nscc_quick_adapt_gate)
{
	struct uet_cc cc;
	int i;

	ref_cc(&cc);
	ack(&cc, T0, 0, false);
	for (i = 0; i < 7; i++)
		ack(&cc, T0 + 1 * US_PS, 0, false);
	ack(&cc, T0 + 22 * US_PS, 40 * US_PS, false);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_QUICK_ADAPT], 0);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_FAIR_INC], 1);
	ck_assert_uint_eq(cc.ns.achieved_bytes, 0);
}
END_TEST

/* A trim: one packet off the window, one network RTT into the delay
 * average (12 us x 0.0125), and a quick adapt asked for the next check. */
START_TEST(test_nscc_trim_reaction)
{
	struct uet_cc cc;

	ref_cc(&cc);
	uet_cc_on_trim(&cc, T0, 4000, false, 40000);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 96000);
	ck_assert_int_eq(cc.last_reason, UET_CC_R_TRIM);
	ck_assert_uint_eq(cc.ns.avg_delay_ps, 150000);
	ck_assert(cc.ns.trigger_qa);
	/* The next trim after the period finds little achieved: quick adapt
	 * to one packet (the minimum), ignoring the 40000 in flight. */
	uet_cc_on_trim(&cc, T0 + 22 * US_PS, 4000, true, 40000);
	ck_assert_int_eq(cc.last_reason, UET_CC_R_QUICK_ADAPT);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 4000);
	ck_assert_uint_eq(cc.ns.bytes_to_ignore, 40000);
	ck_assert(!cc.ns.trigger_qa);
	ck_assert_uint_eq(cc.n_trims, 2);
}
END_TEST

/* A trim asks quick adapt of the next ACK after the period, whatever its
 * delay. */
START_TEST(test_nscc_trim_triggers_quick_adapt_on_ack)
{
	struct uet_cc cc;

	ref_cc(&cc);
	ack(&cc, T0, 0, false);
	uet_cc_on_trim(&cc, T0 + 1 * US_PS, 4000, false, 40000);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 96000);
	ack(&cc, T0 + 22 * US_PS, 0, false);
	ck_assert_int_eq(cc.last_reason, UET_CC_R_QUICK_ADAPT);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 4000);
}
END_TEST

/* A timeout: one packet off the window, never below one packet. */
START_TEST(test_nscc_timeout_reaction)
{
	struct uet_cc_params p = ref_params();
	struct uet_cc cc;

	p.nscc_initial_window_bytes = 10000;
	ck_assert_int_eq(uet_cc_init(&cc, &p), 0);
	uet_cc_on_timeout(&cc, T0, 4000);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 6000);
	uet_cc_on_timeout(&cc, T0, 4000);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 4000);
	uet_cc_on_timeout(&cc, T0, 4000);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 4000);
	ck_assert_int_eq(cc.last_reason, UET_CC_R_TIMEOUT);
	ck_assert_uint_eq(cc.n_timeouts, 3);
}
END_TEST

/* rcv_cwnd_pend (0..127): the window loses acked x pend / 128 at once;
 * 64 is half the acked bytes; 0 is no penalty. */
START_TEST(test_nscc_receiver_window_penalty)
{
	struct uet_cc cc;
	struct uet_cc_ack a = {.now_ps = T0,
			       .acked_bytes = 4000,
			       .ecn = true,
			       .rcv_cwnd_pend = 64};

	ref_cc(&cc);
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 98000);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_RCV_PENALTY], 1);
	a.rcv_cwnd_pend = 127;
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 94032);
	a.rcv_cwnd_pend = 0;
	uet_cc_on_ack(&cc, &a);
	ck_assert_uint_eq(uet_cc_window_bytes(&cc), 94032);
	ck_assert_uint_eq(cc.n_reason[UET_CC_R_RCV_PENALTY], 2);
}
END_TEST

START_TEST(test_nscc_reason_names)
{
	ck_assert_str_eq(uet_cc_reason_name(UET_CC_R_QUICK_ADAPT),
			 "quick_adapt");
	ck_assert_str_eq(uet_cc_reason_name(UET_CC_R_MULT_DEC),
			 "multiplicative_decrease");
	ck_assert_str_eq(uet_cc_reason_name(UET_CC_R_COUNT), "unknown");
}
END_TEST

static Suite *cc_nscc_suite(void)
{
	Suite *s = suite_create("cc-nscc");
	TCase *tc = tcase_create("nscc");

	tcase_add_test(tc, test_nscc_derived_reference_network);
	tcase_add_test(tc, test_nscc_derived_nic_defaults);
	tcase_add_test(tc, test_nscc_target_delay_without_trimming_is_rtt);
	tcase_add_test(tc, test_nscc_initial_window_is_max_window);
	tcase_add_test(tc, test_nscc_fair_increase);
	tcase_add_test(tc, test_nscc_proportional_increase);
	tcase_add_test(tc, test_nscc_fast_increase);
	tcase_add_test(tc, test_nscc_multiplicative_decrease);
	tcase_add_test(tc, test_nscc_ecn_low_delay_keeps_window);
	tcase_add_test(tc, test_nscc_eta_per_period);
	tcase_add_test(tc, test_nscc_delay_average);
	tcase_add_test(tc, test_nscc_invalid_sample_uses_average);
	tcase_add_test(tc, test_nscc_base_rtt_lowers_max_window);
	tcase_add_test(tc, test_nscc_quick_adapt);
	tcase_add_test(tc, test_nscc_quick_adapt_gate);
	tcase_add_test(tc, test_nscc_trim_reaction);
	tcase_add_test(tc, test_nscc_trim_triggers_quick_adapt_on_ack);
	tcase_add_test(tc, test_nscc_timeout_reaction);
	tcase_add_test(tc, test_nscc_receiver_window_penalty);
	tcase_add_test(tc, test_nscc_reason_names);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(cc_nscc_suite)
