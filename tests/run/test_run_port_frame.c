/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app/common/run_port_frame.c: the largest frame of a port from its device
 * string, as measured over veth and memif (tests/ports/frame-limits.sh):
 * af_packet's framesz less 66, memif's bsize, the PMDs' defaults when the
 * string says nothing, 0 for kinds limited by their MTU.
 */
#include <check.h>

#include "check_main.h"
#include "run_port_frame.h"

START_TEST(test_af_packet_framesz_less_the_slot_header)
{
	char why[96];

	ck_assert_uint_eq(
		run_port_frame_max("net_af_packet3,iface=s3,framesz=8192,"
				   "blocksz=8192,framecnt=1024,qpairs=1",
				   why, sizeof(why)),
		8126);
	ck_assert_str_eq(
		why, "framesz=8192, less the kernel's 66-byte packet header");
	ck_assert_uint_eq(
		run_port_frame_max("net_af_packet0,iface=n0", why, sizeof(why)),
		1982);
}
END_TEST

START_TEST(test_memif_bsize)
{
	char why[96];

	ck_assert_uint_eq(
		run_port_frame_max("net_memif0,role=server,socket=/tmp/s.sock,"
				   "id=0,bsize=8192,rsize=6",
				   why, sizeof(why)),
		8192);
	ck_assert_str_eq(why, "bsize=8192");
	ck_assert_uint_eq(run_port_frame_max("net_memif1,role=client,id=0", why,
					     sizeof(why)),
			  2048);
}
END_TEST

START_TEST(test_other_kinds_unknown)
{
	char why[96] = "x";

	ck_assert_uint_eq(run_port_frame_max("net_af_xdp0,iface=n0,start_"
					     "queue=0",
					     why, sizeof(why)),
			  0);
	ck_assert_str_eq(why, "");
}
END_TEST

static Suite *port_frame_suite(void)
{
	Suite *s = suite_create("run_port_frame");
	TCase *tc = tcase_create("limits");

	tcase_add_test(tc, test_af_packet_framesz_less_the_slot_header);
	tcase_add_test(tc, test_memif_bsize);
	tcase_add_test(tc, test_other_kinds_unknown);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(port_frame_suite)
