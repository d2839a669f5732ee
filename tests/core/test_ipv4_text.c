/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 addresses as text (uet_ipv4_text.h): the formatter's every width,
 * the scanner's rules (one to three digits, at most 255, dots between),
 * and that it stops where the address ends. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_host_addr.h"
#include "uet_ipv4_text.h"

START_TEST(test_format_shortest_longest_and_host_0)
{
	char text[UET_IPV4_TEXT_BYTES];

	ck_assert_uint_eq(uet_ipv4_format(0, text), 7);
	ck_assert_str_eq(text, "0.0.0.0");
	ck_assert_uint_eq(uet_ipv4_format(UINT32_MAX, text), 15);
	ck_assert_str_eq(text, "255.255.255.255");
	ck_assert_uint_eq(uet_ipv4_format(uet_host_ipv4(0), text), 10);
	ck_assert_str_eq(text, "198.18.0.1");
	uet_ipv4_format(0x0a6409ffu, text);
	ck_assert_str_eq(text, "10.100.9.255");
}
END_TEST

START_TEST(test_scan_reads_the_address_and_stops_after_it)
{
	uint32_t ip = 0;

	ck_assert_uint_eq(uet_ipv4_scan("198.19.255.254", 14, &ip), 14);
	ck_assert_uint_eq(ip, 0xc613fffeu);
	/* A list: the comma is the caller's. */
	ck_assert_uint_eq(uet_ipv4_scan("198.18.0.2,198.18.0.3", 21, &ip), 10);
	ck_assert_uint_eq(ip, 0xc6120002u);
	/* Only len characters are read: "1.2.3.45" cut after the 4. */
	ck_assert_uint_eq(uet_ipv4_scan("1.2.3.45", 7, &ip), 7);
	ck_assert_uint_eq(ip, 0x01020304u);
}
END_TEST

START_TEST(test_scan_refuses_what_is_not_a_dotted_quad)
{
	static const char *const bad[] = {
		"",	     "1.2.3",	  "1.2.3.",  "1..2.3",	 ".1.2.3",
		"256.0.0.1", "1.2.3.999", "a.b.c.d", "1.2.3.-4", " 1.2.3.4",
	};
	uint32_t ip = 7;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(uet_ipv4_scan(bad[i], strlen(bad[i]), &ip) == 0,
			      "'%s' read as an address", bad[i]);
	ck_assert_uint_eq(ip, 7);
}
END_TEST

START_TEST(test_format_then_scan_is_the_address)
{
	static const uint32_t ips[] = {0,	    1,		 0x0a000001u,
				       0xc6120001u, 0x7f000001u, UINT32_MAX};
	char text[UET_IPV4_TEXT_BYTES];
	uint32_t ip;
	size_t i, n;

	for (i = 0; i < sizeof(ips) / sizeof(ips[0]); i++) {
		n = uet_ipv4_format(ips[i], text);
		ck_assert_uint_eq(uet_ipv4_scan(text, n, &ip), n);
		ck_assert_uint_eq(ip, ips[i]);
	}
}
END_TEST

static Suite *ipv4_text_suite(void)
{
	Suite *s = suite_create("core-ipv4-text");
	TCase *tc = tcase_create("ipv4-text");

	tcase_add_test(tc, test_format_shortest_longest_and_host_0);
	tcase_add_test(tc, test_scan_reads_the_address_and_stops_after_it);
	tcase_add_test(tc, test_scan_refuses_what_is_not_a_dotted_quad);
	tcase_add_test(tc, test_format_then_scan_is_the_address);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(ipv4_text_suite)
