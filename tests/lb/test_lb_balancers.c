/* SPDX-License-Identifier: BSD-3-Clause */
/* Single path and oblivious spraying: ranges, rounds, determinism, counts. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_lb.h"

#define SEED UINT64_C(0x5ca1a0e7)

static struct uet_lb_params lb_params(enum uet_lb_algo algo, uint16_t base,
				      uint16_t span)
{
	struct uet_lb_params p = {
		.algo = algo,
		.entropy_base = base,
		.entropy_span = span,
	};
	return p;
}

static struct uet_lb_params default_params(enum uet_lb_algo algo)
{
	return lb_params(algo, UET_LB_ENTROPY_BASE_DEFAULT,
			 UET_LB_ENTROPY_SPAN_DEFAULT);
}

START_TEST(test_defaults_are_dynamic_port_range)
{
	ck_assert_uint_eq(UET_LB_ENTROPY_BASE_DEFAULT, 49152);
	ck_assert_uint_eq(UET_LB_ENTROPY_SPAN_DEFAULT, 16384);
	ck_assert_uint_eq(UET_LB_ENTROPY_BASE_DEFAULT +
				  UET_LB_ENTROPY_SPAN_DEFAULT - 1,
			  65535);
}
END_TEST

START_TEST(test_single_path_constant_for_every_packet)
{
	struct uet_lb_params p = default_params(UET_LB_SINGLE_PATH);
	struct uet_lb lb;
	uint16_t first;
	int i;

	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 1), 0);
	ck_assert_str_eq(lb.ops->name, "single_path");
	first = uet_lb_next_entropy(&lb, 0);
	ck_assert_uint_eq(first, lb.path_entropy);
	ck_assert_uint_ge(first, 49152);
	/* Retransmissions ask again and get the same value; feedback of any
	 * kind changes nothing. */
	for (i = 0; i < 1000; i++) {
		uet_lb_feedback(&lb, first, (enum uet_lb_feedback)(i % 5),
				(uet_time_t)i);
		ck_assert_uint_eq(uet_lb_next_entropy(&lb, (uet_time_t)i),
				  first);
	}
	ck_assert_uint_eq(lb.n_chosen, 1001);
}
END_TEST

START_TEST(test_single_path_deterministic_per_seed_and_stream)
{
	struct uet_lb_params p = default_params(UET_LB_SINGLE_PATH);
	struct uet_lb a, b;
	uint64_t s;
	int differ = 0;

	for (s = 0; s < 64; s++) {
		ck_assert_int_eq(uet_lb_init(&a, &p, SEED, s), 0);
		ck_assert_int_eq(uet_lb_init(&b, &p, SEED, s), 0);
		ck_assert_uint_eq(a.path_entropy, b.path_entropy);
		ck_assert_int_eq(uet_lb_init(&b, &p, SEED, s + 1000), 0);
		differ += a.path_entropy != b.path_entropy;
	}
	/* 64 pairs of draws out of 16384 values: a collision or two at most
	 * (the sequences are fixed, so this is exact, not flaky). */
	ck_assert_int_ge(differ, 62);
}
END_TEST

START_TEST(test_single_path_span_one_is_base)
{
	struct uet_lb_params p = lb_params(UET_LB_SINGLE_PATH, 4791, 1);
	struct uet_lb lb;

	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 3), 0);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), 4791);
}
END_TEST

/* Draw whole rounds and check each uses every value of the span once. */
static void check_rounds(uint16_t base, uint16_t span, int rounds,
			 uint64_t stream)
{
	struct uet_lb_params p = lb_params(UET_LB_OBLIVIOUS, base, span);
	struct uet_lb lb;
	uint8_t *seen = calloc(span, 1);
	uint16_t *first_round = calloc(span, sizeof(*first_round));
	int r, i, same_order = 1;
	/* Counted, asserted once: a Check assertion per value is slow. */
	long out_of_range = 0, repeated = 0, missing = 0;

	ck_assert_ptr_nonnull(seen);
	ck_assert_ptr_nonnull(first_round);
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, stream), 0);
	for (r = 0; r < rounds; r++) {
		memset(seen, 0, span);
		for (i = 0; i < span; i++) {
			uint16_t v = uet_lb_next_entropy(&lb, 0);

			if (v < base || v >= (uint32_t)base + span) {
				out_of_range++;
				continue;
			}
			repeated += seen[v - base];
			seen[v - base] = 1;
			if (r == 0)
				first_round[i] = v;
			else if (first_round[i] != v)
				same_order = 0;
		}
		for (i = 0; i < span; i++)
			missing += !seen[i];
	}
	ck_assert_int_eq(out_of_range, 0);
	ck_assert_int_eq(repeated, 0);
	ck_assert_int_eq(missing, 0);
	/* Each round draws its own order (for spans with more than a few
	 * orders to choose from). */
	if (span >= 16 && rounds > 1)
		ck_assert_int_eq(same_order, 0);
	ck_assert_uint_eq(lb.n_chosen, (uint64_t)rounds * span);
	free(seen);
	free(first_round);
}

START_TEST(test_oblivious_each_value_once_per_round_span_16)
{
	check_rounds(49152, 16, 50, 7);
}
END_TEST

START_TEST(test_oblivious_each_value_once_per_round_span_16384)
{
	check_rounds(UET_LB_ENTROPY_BASE_DEFAULT, UET_LB_ENTROPY_SPAN_DEFAULT,
		     4, 7);
}
END_TEST

START_TEST(test_oblivious_each_value_once_per_round_other_spans)
{
	/* Not powers of two: the seeded step walk. 30030 has the most
	 * small prime factors below 2^16. */
	check_rounds(1000, 1, 3, 1);
	check_rounds(1000, 3, 20, 1);
	check_rounds(40000, 10, 20, 2);
	check_rounds(49152, 1000, 5, 3);
	check_rounds(30000, 30030, 2, 4);
	check_rounds(0, 65535, 2, 5);
}
END_TEST

START_TEST(test_oblivious_deterministic_per_seed_and_stream)
{
	struct uet_lb_params p = default_params(UET_LB_OBLIVIOUS);
	struct uet_lb a, b, c, d;
	int i, same_ab = 0, differ = 0, differ_seed = 0;

	ck_assert_int_eq(uet_lb_init(&a, &p, SEED, 11), 0);
	ck_assert_int_eq(uet_lb_init(&b, &p, SEED, 11), 0);
	ck_assert_int_eq(uet_lb_init(&c, &p, SEED, 12), 0);
	ck_assert_int_eq(uet_lb_init(&d, &p, SEED + 1, 11), 0);
	ck_assert_str_eq(a.ops->name, "oblivious");
	for (i = 0; i < 40000; i++) {
		uint16_t va = uet_lb_next_entropy(&a, 0);

		same_ab += va == uet_lb_next_entropy(&b, 0);
		differ += va != uet_lb_next_entropy(&c, 0);
		differ_seed += va != uet_lb_next_entropy(&d, 0);
	}
	ck_assert_int_eq(same_ab, 40000);
	ck_assert_int_gt(differ, 39000);
	ck_assert_int_gt(differ_seed, 39000);
}
END_TEST

START_TEST(test_oblivious_deterministic_other_span)
{
	struct uet_lb_params p = lb_params(UET_LB_OBLIVIOUS, 50000, 1000);
	struct uet_lb a, b;
	int i, same = 0;

	ck_assert_int_eq(uet_lb_init(&a, &p, SEED, 5), 0);
	ck_assert_int_eq(uet_lb_init(&b, &p, SEED, 5), 0);
	for (i = 0; i < 5000; i++)
		same += uet_lb_next_entropy(&a, 0) ==
			uet_lb_next_entropy(&b, 0);
	ck_assert_int_eq(same, 5000);
}
END_TEST

START_TEST(test_feedback_counted_per_kind)
{
	struct uet_lb_params p = default_params(UET_LB_OBLIVIOUS);
	struct uet_lb lb, ref;
	int i;

	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 9), 0);
	ck_assert_int_eq(uet_lb_init(&ref, &p, SEED, 9), 0);
	for (i = 0; i < 5; i++)
		uet_lb_feedback(&lb, 49152, UET_LB_GOOD, 0);
	for (i = 0; i < 4; i++)
		uet_lb_feedback(&lb, 49153, UET_LB_ECN, 0);
	for (i = 0; i < 3; i++)
		uet_lb_feedback(&lb, 49154, UET_LB_TRIMMED, 0);
	for (i = 0; i < 2; i++)
		uet_lb_feedback(&lb, 49155, UET_LB_TRIMMED_LASTHOP, 0);
	uet_lb_feedback(&lb, 49156, UET_LB_TIMEOUT, 0);
	/* An unknown kind is not counted anywhere. */
	uet_lb_feedback(&lb, 49156, (enum uet_lb_feedback)99, 0);
	ck_assert_uint_eq(lb.n_feedback[UET_LB_GOOD], 5);
	ck_assert_uint_eq(lb.n_feedback[UET_LB_ECN], 4);
	ck_assert_uint_eq(lb.n_feedback[UET_LB_TRIMMED], 3);
	ck_assert_uint_eq(lb.n_feedback[UET_LB_TRIMMED_LASTHOP], 2);
	ck_assert_uint_eq(lb.n_feedback[UET_LB_TIMEOUT], 1);
	ck_assert_uint_eq(lb.n_chosen, 0);
	/* Ignored otherwise: the sequence is the one without feedback. */
	for (i = 0; i < 100; i++)
		ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0),
				  uet_lb_next_entropy(&ref, 0));
	ck_assert_uint_eq(lb.n_chosen, 100);
}
END_TEST

START_TEST(test_init_rejects_bad_params)
{
	struct uet_lb_params p = lb_params(UET_LB_OBLIVIOUS, 49152, 0);
	struct uet_lb lb;

	memset(&lb, 0x5a, sizeof(lb));
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
	ck_assert_uint_eq(lb.n_chosen, UINT64_C(0x5a5a5a5a5a5a5a5a));
	/* 49153 + 16384 runs past port 65535. */
	p = lb_params(UET_LB_SINGLE_PATH, 49153, 16384);
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
	p = lb_params(UET_LB_SINGLE_PATH, 65535, 1);
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), 0);
	ck_assert_uint_eq(uet_lb_next_entropy(&lb, 0), 65535);
	p = lb_params((enum uet_lb_algo)42, 49152, 16384);
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
	/* REPS with an empty cache size (its fields left at 0). */
	p = default_params(UET_LB_REPS);
	ck_assert_int_eq(uet_lb_init(&lb, &p, SEED, 0), -EINVAL);
	ck_assert_int_eq(uet_lb_init(NULL, &p, SEED, 0), -EINVAL);
	ck_assert_int_eq(uet_lb_init(&lb, NULL, SEED, 0), -EINVAL);
}
END_TEST

static Suite *lb_balancers_suite(void)
{
	Suite *s = suite_create("lb_balancers");
	TCase *tc = tcase_create("balancers");

	/* Room for ASan on a loaded machine; a hang guard only. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_defaults_are_dynamic_port_range);
	tcase_add_test(tc, test_single_path_constant_for_every_packet);
	tcase_add_test(tc, test_single_path_deterministic_per_seed_and_stream);
	tcase_add_test(tc, test_single_path_span_one_is_base);
	tcase_add_test(tc, test_oblivious_each_value_once_per_round_span_16);
	tcase_add_test(tc, test_oblivious_each_value_once_per_round_span_16384);
	tcase_add_test(tc,
		       test_oblivious_each_value_once_per_round_other_spans);
	tcase_add_test(tc, test_oblivious_deterministic_per_seed_and_stream);
	tcase_add_test(tc, test_oblivious_deterministic_other_span);
	tcase_add_test(tc, test_feedback_counted_per_kind);
	tcase_add_test(tc, test_init_rejects_bad_params);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(lb_balancers_suite)
