/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Printing (uet_config_print.c): the print-config round trip, units and
 * derived values in the output, the scenario hash.
 */
#include "check_main.h"
#include "config_test.h"

START_TEST(test_print_config_round_trip)
{
	check_round_trip("");
	check_round_trip(every_attribute());
	check_round_trip("run: {out: \"we\\\"ird\\\\path\"}\n"
			 "nic: {Delay: 84.04ns, LaneBps: 31.52Gbps}\n"
			 "switch: {drop_rate: 0.0001}\n");
}
END_TEST

START_TEST(test_print_config_shows_units_and_derived)
{
	struct uet_scenario s;
	char *text;

	uet_scenario_defaults(&s);
	text = print_to_string(&s);
	ck_assert_ptr_nonnull(strstr(text, "nic:\n  DataRate: 400Gbps\n"
					   "  Delay: 500ns\n"
					   "  # lookahead: 500ns"));
	ck_assert_ptr_nonnull(strstr(text, "  LaneBps: 31.52Gbps\n"));
	ck_assert_ptr_nonnull(strstr(text, "  RdmaDataMSS: 4096\n"));
	ck_assert_ptr_nonnull(strstr(text, "  IngressPoolSize: 1MiB\n"));
	ck_assert_ptr_nonnull(strstr(text, "  FixedWindow: 0  # effective "
					   "162840 bytes"));
	ck_assert_ptr_nonnull(strstr(text, "  # time_dilation: 1"));
	ck_assert_ptr_nonnull(strstr(text, "  out: \"out/\"\n"));
	ck_assert_ptr_nonnull(strstr(text, "  messages: []\n"));
	free(text);
}
END_TEST

START_TEST(test_hash_changes_with_any_attribute)
{
	struct uet_scenario a, b;
	struct uet_config_error e;
	uint64_t ha, hb;

	uet_scenario_defaults(&a);
	ck_assert_int_eq(uet_scenario_hash(&a, &ha), 0);
	ck_assert_int_eq(load(&b, "nic: {TransmitStartDelay: 16ns}\n", &e), 0);
	ck_assert_int_eq(uet_scenario_hash(&b, &hb), 0);
	ck_assert_uint_ne(ha, hb);
	ck_assert(!uet_scenario_equal(&a, &b));
	ck_assert_int_eq(load(&b, "nic: {TransmitStartDelay: 15000ps}\n", &e),
			 0);
	ck_assert_int_eq(uet_scenario_hash(&b, &hb), 0);
	ck_assert_uint_eq(ha, hb);
}
END_TEST

static Suite *config_print_suite(void)
{
	Suite *s = suite_create("config_print");
	TCase *tc = tcase_create("print");

	tcase_add_test(tc, test_print_config_round_trip);
	tcase_add_test(tc, test_print_config_shows_units_and_derived);
	tcase_add_test(tc, test_hash_changes_with_any_attribute);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(config_print_suite)
