/* SPDX-License-Identifier: BSD-3-Clause */
/* Units: exact parsing and formatting; serialization time on a link. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_rng.h"
#include "uet_time.h"
#include "uet_units.h"

struct time_case {
	const char *text;
	uet_time_t ps;
};

START_TEST(test_time_parse_exact)
{
	static const struct time_case cases[] = {
		{"84.04ns", 84040},
		{"1.5us", 1500000},
		{"500ns", 500000},
		{"20us", 20000000},
		{"10ms", UINT64_C(10000000000)},
		{"1s", UINT64_C(1000000000000)},
		{"0", 0},
		{"0.0", 0},
		{"0ns", 0},
		{"250ps", 250},
		{"1.55ns", 1550},
		{"69.289ns", 69289},
		{"1.500us", 1500000},
		{"1.0ps", 1},
		{"0.000000000001s", 1},
		{"2 us", 2000000},
		{"3\xc2\xb5s", 3000000},
		{"18446744073709551615ps", UINT64_MAX},
		{"18446744.073709551615s", UINT64_MAX},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uet_time_t ps = 12345;
		const char *why = NULL;

		ck_assert_msg(uet_time_parse(cases[i].text, &ps, &why) == 0,
			      "%s: %s", cases[i].text, why);
		ck_assert_msg(ps == cases[i].ps, "%s gave %llu", cases[i].text,
			      (unsigned long long)ps);
	}
}
END_TEST

START_TEST(test_time_parse_rejects_with_reason)
{
	static const struct {
		const char *text;
		const char *reason;
	} cases[] = {
		{"1.0001ps", "finer than one picosecond"},
		{"0.5ps", "finer than one picosecond"},
		{"1.0000000000001s", "finer than one picosecond"},
		{"-1ns", "negative values are not allowed"},
		{"5", "missing unit"},
		{"5furlongs", "unknown unit"},
		{"5 ns ", "unknown unit"},
		{"5NS", "unknown unit"},
		{"", "expected a number"},
		{"ns", "expected a number"},
		{".5ns", "expected a number"},
		{"+5ns", "expected a number"},
		{"5.ns", "expected a digit after '.'"},
		{"18446744073709551616ps", "value too large"},
		{"18446745s", "value too large"},
		{"99999999999999999999999s", "value too large"},
		{"1.000000000000000000001s", "too many decimal places"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uet_time_t ps = 777;
		const char *why = NULL;

		ck_assert_msg(uet_time_parse(cases[i].text, &ps, &why) ==
				      -EINVAL,
			      "%s accepted", cases[i].text);
		ck_assert_uint_eq(ps, 777);
		ck_assert_ptr_nonnull(why);
		ck_assert_str_eq(why, cases[i].reason);
	}
	/* The reason is optional. */
	ck_assert_int_eq(uet_time_parse("-1ns", &(uet_time_t){0}, NULL),
			 -EINVAL);
	ck_assert_int_eq(uet_time_parse(NULL, &(uet_time_t){0}, NULL), -EINVAL);
}
END_TEST

START_TEST(test_rate_parse_exact)
{
	static const struct {
		const char *text;
		uint64_t bps;
	} cases[] = {
		{"400Gbps", UINT64_C(400000000000)},
		{"31.52Gbps", UINT64_C(31520000000)},
		{"100Mbps", UINT64_C(100000000)},
		{"1Tbps", UINT64_C(1000000000000)},
		{"800bps", 800},
		{"1.5kbps", 1500},
		{"2Kbps", 2000},
		{"0", 0},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t bps = 1;
		const char *why = NULL;

		ck_assert_msg(uet_rate_parse(cases[i].text, &bps, &why) == 0,
			      "%s: %s", cases[i].text, why);
		ck_assert_uint_eq(bps, cases[i].bps);
	}
}
END_TEST

START_TEST(test_rate_parse_rejects)
{
	const char *why = NULL;
	uint64_t bps = 9;

	ck_assert_int_eq(uet_rate_parse("1.5bps", &bps, &why), -EINVAL);
	ck_assert_str_eq(why, "finer than one bit per second");
	ck_assert_int_eq(uet_rate_parse("400", &bps, &why), -EINVAL);
	ck_assert_str_eq(why, "missing unit");
	ck_assert_int_eq(uet_rate_parse("400GBps", &bps, &why), -EINVAL);
	ck_assert_str_eq(why, "unknown unit");
	ck_assert_int_eq(uet_rate_parse("-400Gbps", &bps, &why), -EINVAL);
	ck_assert_str_eq(why, "negative values are not allowed");
	ck_assert_int_eq(uet_rate_parse("20000000Tbps", &bps, &why), -EINVAL);
	ck_assert_str_eq(why, "value too large");
	ck_assert_uint_eq(bps, 9);
}
END_TEST

START_TEST(test_size_parse_exact)
{
	static const struct {
		const char *text;
		uint64_t bytes;
	} cases[] = {
		{"4KiB", 4096},
		{"1MiB", 1048576},
		{"4096", 4096},
		{"4096B", 4096},
		{"1.5KiB", 1536},
		{"2MB", 2000000},
		{"1GiB", UINT64_C(1073741824)},
		{"4kB", 4000},
		{"4KB", 4000},
		{"0.5KiB", 512},
		{"0.0009765625MiB", 1024},
		{"1TiB", UINT64_C(1099511627776)},
		{"0", 0},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t bytes = 1;
		const char *why = NULL;

		ck_assert_msg(uet_size_parse(cases[i].text, &bytes, &why) == 0,
			      "%s: %s", cases[i].text, why);
		ck_assert_uint_eq(bytes, cases[i].bytes);
	}
}
END_TEST

START_TEST(test_size_parse_rejects_fraction_of_byte)
{
	const char *why = NULL;
	uint64_t bytes = 3;

	ck_assert_int_eq(uet_size_parse("1.5", &bytes, &why), -EINVAL);
	ck_assert_str_eq(why, "a fraction of a byte");
	ck_assert_int_eq(uet_size_parse("1.0001KiB", &bytes, &why), -EINVAL);
	ck_assert_str_eq(why, "a fraction of a byte");
	ck_assert_int_eq(uet_size_parse("4kiB", &bytes, &why), -EINVAL);
	ck_assert_str_eq(why, "unknown unit");
	ck_assert_int_eq(uet_size_parse("16777216TiB", &bytes, &why), -EINVAL);
	ck_assert_str_eq(why, "value too large");
	ck_assert_uint_eq(bytes, 3);
}
END_TEST

START_TEST(test_ppm_parse)
{
	static const struct {
		const char *text;
		uint32_t ppm;
	} cases[] = {
		{"25%", 250000}, {"0.01", 10000},
		{"1", 1000000},	 {"100%", 1000000},
		{"0.5%", 5000},	 {"0.0001%", 1},
		{"150ppm", 150}, {"150%", 1500000},
		{"0", 0},	 {"4294967295ppm", UINT32_MAX},
	};
	const char *why = NULL;
	uint32_t ppm = 4;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_msg(uet_ppm_parse(cases[i].text, &ppm, &why) == 0,
			      "%s: %s", cases[i].text, why);
		ck_assert_uint_eq(ppm, cases[i].ppm);
	}
	ppm = 4;
	ck_assert_int_eq(uet_ppm_parse("0.00001%", &ppm, &why), -EINVAL);
	ck_assert_str_eq(why, "finer than one part per million");
	ck_assert_int_eq(uet_ppm_parse("4294967296ppm", &ppm, &why), -EINVAL);
	ck_assert_str_eq(why, "value too large");
	ck_assert_int_eq(uet_ppm_parse("-1%", &ppm, &why), -EINVAL);
	ck_assert_str_eq(why, "negative values are not allowed");
	ck_assert_uint_eq(ppm, 4);
}
END_TEST

START_TEST(test_format_shortest_exact)
{
	char buf[UET_UNITS_FMT_LEN];

	ck_assert_int_eq(uet_time_format(84040, buf, sizeof(buf)), 7);
	ck_assert_str_eq(buf, "84.04ns");
	ck_assert_int_eq(uet_time_format(1500000, buf, sizeof(buf)), 5);
	ck_assert_str_eq(buf, "1.5us");
	ck_assert_int_eq(uet_time_format(0, buf, sizeof(buf)), 3);
	ck_assert_str_eq(buf, "0ps");
	uet_time_format(250, buf, sizeof(buf));
	ck_assert_str_eq(buf, "250ps");
	uet_time_format(1000, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1ns");
	uet_time_format(UET_PS_PER_S, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1s");
	/* "69289ps" is shorter than "69.289ns". */
	uet_time_format(69289, buf, sizeof(buf));
	ck_assert_str_eq(buf, "69289ps");
	uet_time_format(UINT64_MAX, buf, sizeof(buf));
	/* A tie in length: the larger unit wins. */
	ck_assert_str_eq(buf, "18446744.073709551615s");

	uet_rate_format(UINT64_C(400000000000), buf, sizeof(buf));
	ck_assert_str_eq(buf, "400Gbps");
	uet_rate_format(UINT64_C(31520000000), buf, sizeof(buf));
	ck_assert_str_eq(buf, "31.52Gbps");
	uet_rate_format(800, buf, sizeof(buf));
	ck_assert_str_eq(buf, "800bps");
	uet_rate_format(UINT64_C(1000000000000), buf, sizeof(buf));
	ck_assert_str_eq(buf, "1Tbps");

	uet_size_format(4096, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4KiB");
	uet_size_format(2000000, buf, sizeof(buf));
	ck_assert_str_eq(buf, "2MB");
	uet_size_format(4202, buf, sizeof(buf));
	ck_assert_str_eq(buf, "4202B");
	uet_size_format(UINT64_C(1073741824), buf, sizeof(buf));
	ck_assert_str_eq(buf, "1GiB");
	uet_size_format(0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0B");

	uet_ppm_format(250000, buf, sizeof(buf));
	ck_assert_str_eq(buf, "25%");
	uet_ppm_format(1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "0.0001%");
	uet_ppm_format(UINT32_MAX, buf, sizeof(buf));
	ck_assert_str_eq(buf, "429496.7295%");
}
END_TEST

START_TEST(test_format_buffer_too_small)
{
	char buf[8];

	ck_assert_int_eq(uet_time_format(84040, buf, 8), 7);
	ck_assert_str_eq(buf, "84.04ns");
	ck_assert_int_eq(uet_time_format(84040, buf, 7), -ENOSPC);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(uet_time_format(84040, buf, 0), -ENOSPC);
	ck_assert_int_eq(uet_time_format(84040, NULL, 8), -EINVAL);
}
END_TEST

START_TEST(test_round_trip_text)
{
	static const char *const times[] = {"84.04ns", "1.5us",	  "0ps",
					    "250ps",   "10ms",	  "1s",
					    "1.24ns",  "336.16ns"};
	static const char *const rates[] = {"400Gbps", "31.52Gbps", "100Mbps",
					    "1Tbps", "800bps"};
	static const char *const sizes[] = {"4KiB", "1MiB", "2MB", "1GiB",
					    "4202B"};
	static const char *const ppms[] = {"25%", "1%", "0.0001%", "100%"};
	char buf[UET_UNITS_FMT_LEN];
	uint64_t v;
	uint32_t p;
	size_t i;

	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		ck_assert_int_eq(uet_time_parse(times[i], &v, NULL), 0);
		ck_assert_int_gt(uet_time_format(v, buf, sizeof(buf)), 0);
		ck_assert_str_eq(buf, times[i]);
	}
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		ck_assert_int_eq(uet_rate_parse(rates[i], &v, NULL), 0);
		ck_assert_int_gt(uet_rate_format(v, buf, sizeof(buf)), 0);
		ck_assert_str_eq(buf, rates[i]);
	}
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ck_assert_int_eq(uet_size_parse(sizes[i], &v, NULL), 0);
		ck_assert_int_gt(uet_size_format(v, buf, sizeof(buf)), 0);
		ck_assert_str_eq(buf, sizes[i]);
	}
	for (i = 0; i < sizeof(ppms) / sizeof(ppms[0]); i++) {
		ck_assert_int_eq(uet_ppm_parse(ppms[i], &p, NULL), 0);
		ck_assert_int_gt(uet_ppm_format(p, buf, sizeof(buf)), 0);
		ck_assert_str_eq(buf, ppms[i]);
	}
}
END_TEST

/* parse(format(v)) == v for values of every magnitude. */
START_TEST(test_round_trip_values)
{
	char buf[UET_UNITS_FMT_LEN];
	struct uet_rng rng;
	uint64_t v, back;
	int i, faults = 0;

	/* Count faults: Check makes every passing assertion a syscall. */
	uet_rng_seed(&rng, 42, 0);
	for (i = 0; i < 20000; i++) {
		int shift = (int)uet_rng_bounded(&rng, 64);

		v = uet_rng_u64(&rng) >> shift;
		if (i % 3 == 0) /* round numbers, which use larger units */
			v -= v % (UINT64_C(1) << uet_rng_bounded(&rng, 41));
		faults += uet_time_format(v, buf, sizeof(buf)) <= 0 ||
			  uet_time_parse(buf, &back, NULL) != 0 || back != v;
		faults += uet_rate_format(v, buf, sizeof(buf)) <= 0 ||
			  uet_rate_parse(buf, &back, NULL) != 0 || back != v;
		faults += uet_size_format(v, buf, sizeof(buf)) <= 0 ||
			  uet_size_parse(buf, &back, NULL) != 0 || back != v;
		if (v <= UINT32_MAX) {
			uint32_t ppm = 0;

			faults += uet_ppm_format((uint32_t)v, buf,
						 sizeof(buf)) <= 0 ||
				  uet_ppm_parse(buf, &ppm, NULL) != 0 ||
				  ppm != v;
		}
	}
	ck_assert_int_eq(faults, 0);
}
END_TEST

START_TEST(test_serialization_ps_page_figures)
{
	const uint64_t g400 = UINT64_C(400000000000);
	const uint64_t g100 = UINT64_C(100000000000);

	ck_assert_uint_eq(uet_serialization_ps(4202, g400), 84040);
	ck_assert_uint_eq(uet_serialization_ps(62, g400), 1240);
	ck_assert_uint_eq(uet_serialization_ps(4202, g100), 336160);
	ck_assert_uint_eq(uet_serialization_ps(0, g400), 0);
	/* A 64-byte read request + 34 bytes of TLP overhead, 16 x 31.52 Gbps.
	 */
	ck_assert_uint_eq(uet_serialization_ps(98, 16 * UINT64_C(31520000000)),
			  1555);
}
END_TEST

START_TEST(test_serialization_ps_rounds_up)
{
	/* 8 bits at 3 bps: 2.666... s, so 2,666,666,666,667 ps. */
	ck_assert_uint_eq(uet_serialization_ps(1, 3), UINT64_C(2666666666667));
	/* 1 byte at 3 Tbps: 2.666... ps -> 3 ps. */
	ck_assert_uint_eq(uet_serialization_ps(1, UINT64_C(3000000000000)), 3);
	/* Exact results are not rounded: 1 byte at 8 bps is 1 s. */
	ck_assert_uint_eq(uet_serialization_ps(1, 8), UET_PS_PER_S);
}
END_TEST

START_TEST(test_serialization_ps_limits)
{
	ck_assert_uint_eq(uet_serialization_ps(1, 0), UET_TIME_NEVER);
	ck_assert_uint_eq(uet_serialization_ps(UINT64_MAX, 1), UET_TIME_NEVER);
	ck_assert_uint_eq(uet_serialization_ps(UINT64_MAX, UINT64_MAX),
			  UINT64_C(8000000000000));
}
END_TEST

START_TEST(test_bytes_in_duration_rounds_down)
{
	const uint64_t g400 = UINT64_C(400000000000);
	struct uet_rng rng;
	int i, faults = 0;

	ck_assert_uint_eq(uet_bytes_in_duration(84040, g400), 4202);
	ck_assert_uint_eq(uet_bytes_in_duration(84039, g400), 4201);
	ck_assert_uint_eq(uet_bytes_in_duration(1240, g400), 62);
	ck_assert_uint_eq(uet_bytes_in_duration(UET_PS_PER_S, 8), 1);
	ck_assert_uint_eq(uet_bytes_in_duration(UET_PS_PER_S - 1, 8), 0);
	ck_assert_uint_eq(uet_bytes_in_duration(12345, 0), 0);
	ck_assert_uint_eq(uet_bytes_in_duration(UINT64_MAX, UINT64_MAX),
			  UINT64_MAX);

	/* The inverse of uet_serialization_ps() at rates up to 8 Tbps. */
	uet_rng_seed(&rng, 7, 0);
	for (i = 0; i < 100000; i++) {
		uint64_t n = uet_rng_bounded(&rng, UINT64_C(1) << 40);
		uint64_t r = 1 + uet_rng_bounded(&rng, UINT64_C(8000000000000));

		faults += uet_bytes_in_duration(uet_serialization_ps(n, r),
						r) != n;
	}
	ck_assert_int_eq(faults, 0);
}
END_TEST

static Suite *time_suite(void)
{
	Suite *s = suite_create("core-time");
	TCase *tc = tcase_create("units");

	tcase_add_test(tc, test_time_parse_exact);
	tcase_add_test(tc, test_time_parse_rejects_with_reason);
	tcase_add_test(tc, test_rate_parse_exact);
	tcase_add_test(tc, test_rate_parse_rejects);
	tcase_add_test(tc, test_size_parse_exact);
	tcase_add_test(tc, test_size_parse_rejects_fraction_of_byte);
	tcase_add_test(tc, test_ppm_parse);
	tcase_add_test(tc, test_format_shortest_exact);
	tcase_add_test(tc, test_format_buffer_too_small);
	tcase_add_test(tc, test_round_trip_text);
	tcase_add_test(tc, test_round_trip_values);
	suite_add_tcase(s, tc);

	tc = tcase_create("serialization");
	tcase_add_test(tc, test_serialization_ps_page_figures);
	tcase_add_test(tc, test_serialization_ps_rounds_up);
	tcase_add_test(tc, test_serialization_ps_limits);
	tcase_add_test(tc, test_bytes_in_duration_rounds_down);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(time_suite)
