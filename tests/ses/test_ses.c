/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/ses: segmentation, payload pattern, message completions. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_ses.h"

START_TEST(test_segment_count_ceil_n_over_mss)
{
	ck_assert_uint_eq(uet_ses_segment_count(0, 4096), 1);
	ck_assert_uint_eq(uet_ses_segment_count(1, 4096), 1);
	ck_assert_uint_eq(uet_ses_segment_count(4095, 4096), 1);
	ck_assert_uint_eq(uet_ses_segment_count(4096, 4096), 1);
	ck_assert_uint_eq(uet_ses_segment_count(4097, 4096), 2);
	ck_assert_uint_eq(uet_ses_segment_count(1048576, 4096), 256);
	ck_assert_uint_eq(uet_ses_segment_count(10, 0), 0);
}
END_TEST

START_TEST(test_segment_min_mss_bytes_left)
{
	struct uet_ses_segment s;

	ck_assert_int_eq(uet_ses_segment_get(4097, 4096, 0, &s), 0);
	ck_assert_uint_eq(s.payload_bytes, 4096);
	ck_assert(s.som && !s.eom);
	ck_assert_int_eq(uet_ses_segment_get(4097, 4096, 1, &s), 0);
	ck_assert_uint_eq(s.payload_bytes, 1);
	ck_assert_uint_eq(s.msg_offset_bytes, 4096);
	ck_assert(!s.som && s.eom);
	ck_assert_int_eq(uet_ses_segment_get(4097, 4096, 2, &s), -EINVAL);
	ck_assert_int_eq(uet_ses_segment_get(0, 4096, 0, &s), 0);
	ck_assert_uint_eq(s.payload_bytes, 0);
	ck_assert(s.som && s.eom);
}
END_TEST

START_TEST(test_pattern_periodic_and_verified)
{
	struct uet_ses_pattern *p;
	uint32_t shift = uet_ses_pattern_shift(7, 3);
	uint8_t buf[4096];
	uint32_t i;

	uint64_t x = UINT64_C(0x9e3779b97f4a7c15);

	ck_assert_int_eq(uet_ses_pattern_create(&p), 0);
	/* Every byte that of the one xorshift stream from the fixed seed
	 * (however it is made): every process has the same pattern. */
	for (i = 0; i < UET_SES_PATTERN_PERIOD_BYTES; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		ck_assert_uint_eq(p->bytes[i], (uint8_t)(x >> 32));
	}
	ck_assert_uint_lt(shift, UET_SES_PATTERN_PERIOD_BYTES);
	for (i = 0; i < UET_SES_MAX_MSS_BYTES; i++)
		ck_assert_uint_eq(p->bytes[i],
				  p->bytes[i + UET_SES_PATTERN_PERIOD_BYTES]);
	memcpy(buf, uet_ses_pattern_at(p, shift, 123456), sizeof(buf));
	ck_assert_int_eq(
		uet_ses_pattern_verify(p, shift, 123456, buf, sizeof(buf)), 0);
	/* The wrong offset, the wrong message or one flipped byte fail. */
	ck_assert_int_eq(
		uet_ses_pattern_verify(p, shift, 123457, buf, sizeof(buf)),
		-EILSEQ);
	ck_assert_int_eq(uet_ses_pattern_verify(p, uet_ses_pattern_shift(8, 3),
						123456, buf, sizeof(buf)),
			 -EILSEQ);
	buf[100] ^= 1;
	ck_assert_int_eq(
		uet_ses_pattern_verify(p, shift, 123456, buf, sizeof(buf)),
		-EILSEQ);
	uet_ses_pattern_free(p);
}
END_TEST

START_TEST(test_completions_sent_then_completed_at_last_ack)
{
	struct uet_ses_msg_tx m;
	struct uet_ses_segment s;
	int n = 0;

	ck_assert_int_eq(uet_ses_msg_tx_init(&m, 9, 8193, 4096, 1, 2, 100), 0);
	ck_assert_uint_eq(m.segments, 3);
	while (uet_ses_msg_tx_take_segment(&m, &s) == 0)
		n++;
	ck_assert_int_eq(n, 3);
	ck_assert(!uet_ses_msg_tx_first_sent(&m, 1000));
	ck_assert(!uet_ses_msg_tx_first_sent(&m, 2000));
	ck_assert(uet_ses_msg_tx_first_sent(&m, 3000));
	ck_assert_uint_eq(m.sent_ps, 3000);
	ck_assert(!uet_ses_msg_tx_acked(&m, 2, 5000));
	ck_assert(uet_ses_msg_tx_acked(&m, 1, 7000));
	ck_assert_uint_eq(m.completed_ps, 7000);
	ck_assert(!uet_ses_msg_tx_acked(&m, 1, 8000));
}
END_TEST

START_TEST(test_arrivals_table)
{
	struct uet_ses_arrivals *t;

	ck_assert_int_eq(uet_ses_arrivals_create(&t, 4), 0);
	ck_assert_uint_eq(uet_ses_arrivals_get(t, 2), UET_TIME_NEVER);
	uet_ses_arrivals_set(t, 2, 77);
	uet_ses_arrivals_set(t, 9, 77);
	ck_assert_uint_eq(uet_ses_arrivals_get(t, 2), 77);
	ck_assert_uint_eq(uet_ses_arrivals_get(t, 9), UET_TIME_NEVER);
	uet_ses_arrivals_free(t);
}
END_TEST

static Suite *ses_suite(void)
{
	Suite *s = suite_create("ses");
	TCase *tc = tcase_create("messages");

	tcase_add_test(tc, test_segment_count_ceil_n_over_mss);
	tcase_add_test(tc, test_segment_min_mss_bytes_left);
	tcase_add_test(tc, test_pattern_periodic_and_verified);
	tcase_add_test(tc, test_completions_sent_then_completed_at_last_ack);
	tcase_add_test(tc, test_arrivals_table);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(ses_suite)
