/* SPDX-License-Identifier: BSD-3-Clause */
/* The page's packet sizes (uet_packet_sizes.h) against its worked example:
 * at the default RdmaDataMSS of 4096, 4,184 bytes nominal and 4,202 on the
 * wire; a trimmed packet 44 and 62; the 64-byte doorbell and read
 * request. */
#include <check.h>
#include <stdlib.h>

#include "check_main.h"
#include "uet_packet_sizes.h"

START_TEST(test_worked_example_4096_is_4184_nominal_4202_wire)
{
	ck_assert_uint_eq(uet_data_ip_bytes(4096), 4184);
	ck_assert_uint_eq(uet_data_wire_bytes(4096), 4202);
	ck_assert_uint_eq(UET_DATA_HDR_IP_BYTES, 20 + 8 + 16 + 44);
	ck_assert_uint_eq(UET_DATA_HDR_WIRE_BYTES, 20 + 8 + 16 + 44 + 14 + 4);
}
END_TEST

START_TEST(test_trimmed_packet_is_44_ip_62_wire)
{
	ck_assert_uint_eq(UET_TRIMMED_IP_BYTES, 20 + 8 + 16);
	ck_assert_uint_eq(UET_TRIMMED_WIRE_BYTES, 20 + 8 + 16 + 14 + 4);
}
END_TEST

START_TEST(test_doorbell_and_read_request_are_64_bytes)
{
	ck_assert_uint_eq(UET_DOORBELL_BYTES, 64);
	ck_assert_uint_eq(UET_READ_REQUEST_BYTES, 64);
}
END_TEST

START_TEST(test_largest_mss_fills_a_9000_byte_frame)
{
	ck_assert_uint_eq(UET_MSS_MAX_BYTES, 8894);
	ck_assert_uint_eq(uet_data_wire_bytes(UET_MSS_MAX_BYTES),
			  UET_FRAME_MAX_BYTES);
}
END_TEST

static Suite *packet_sizes_suite(void)
{
	Suite *s = suite_create("core-packet-sizes");
	TCase *tc = tcase_create("packet-sizes");

	tcase_add_test(tc, test_worked_example_4096_is_4184_nominal_4202_wire);
	tcase_add_test(tc, test_trimmed_packet_is_44_ip_62_wire);
	tcase_add_test(tc, test_doorbell_and_read_request_are_64_bytes);
	tcase_add_test(tc, test_largest_mss_fills_a_9000_byte_frame);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(packet_sizes_suite)
