/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic on real frames between two NICs (nic_harness.c).
 * Acknowledgements (nic_rx.c, lib/pds): the ACK hold and its service
 * time, the page's ACK cadence worked examples, an unflagged tail
 * recovered by the timer.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "check_main.h"
#include "nic_harness.h"
#include "uet_wire.h"

#define DELAY_PS 500000u /* nic.Delay default */

static void cadence(uint32_t n, bool first, bool last, uint32_t acks)
{
	struct h h;

	h_init(&h);
	h.p.pds.ack_request_every_nth = n;
	h.p.pds.ack_request_first = first;
	h.p.pds.ack_request_last = last;
	h_run_one_message(&h, 256 * 4096);
	ck_assert_uint_eq(h.count[0][H_DATA], 256);
	ck_assert_uint_eq(h.count[1][H_ACK], acks);
	ck_assert_uint_eq(h.count[0][H_PROBE], 1);
	ck_assert_uint_eq(h.count[1][H_PROBE_ACK], 1);
	ck_assert_uint_eq(h.count[0][H_CLOSE], 1);
	ck_assert_uint_eq(h_stats(&h, 1).transport.data_payload_bytes_delivered,
			  256 * 4096);
	h_fini(&h);
}

/* The ACK waits its hold: 4,184 bytes at 16 x 31.52 Gbps = 66,371 ps,
 * reported as service time 0 (128 ns steps); 78 bytes at 400 Gbps is
 * 1,560 ps. */
START_TEST(test_ack_hold_66_4ns_reports_service_time_0)
{
	struct h h;
	const struct h_frame *d, *a;

	h_init(&h);
	h_run_one_message(&h, 4096);
	d = h_nth_frame(&h, 0, H_DATA, 0);
	a = h_nth_frame(&h, 1, H_ACK, 0);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->service_time, 0);
	ck_assert_uint_eq(a->arrival_ps,
			  d->arrival_ps + 66371 + 1560 + DELAY_PS);
	ck_assert_uint_eq(a->sport, d->sport); /* entropy carried back */
	ck_assert_uint_eq(a->dscp, UET_DSCP_DEFAULT_CONTROL);
	ck_assert_uint_eq(a->ttl, 255);
	ck_assert_uint_eq(a->ecn, UET_ECN_ECT1);
	h_fini(&h);
}
END_TEST

START_TEST(test_ack_cadence_defaults_256_acks)
{
	cadence(1, true, true, 256);
}
END_TEST

START_TEST(test_ack_cadence_n4_first_last_65_acks)
{
	cadence(4, true, true, 65);
}
END_TEST

START_TEST(test_ack_cadence_n4_nth_only_64_acks)
{
	cadence(4, false, false, 64);
	cadence(4, false, true, 64);
}
END_TEST

/* N = 4 from the first packet, no flag on the last: the message's last
 * three packets draw no ACK; their timers recover them, and the
 * retransmissions count toward the cadence. */
START_TEST(test_ack_cadence_unflagged_tail_recovered_by_rto)
{
	struct h h;

	h_init(&h);
	h.p.pds.ack_request_every_nth = 4;
	h.p.pds.ack_request_last = false;
	h_run_one_message(&h, 256 * 4096);
	ck_assert_uint_gt(h_stats(&h, 0).transport.rto_expiries, 0);
	ck_assert_uint_gt(h.count[0][H_DATA], 256);
	h_fini(&h);
}
END_TEST

static Suite *nic_ack_suite(void)
{
	Suite *s = suite_create("nic_ack");
	TCase *tc = tcase_create("ack");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_ack_hold_66_4ns_reports_service_time_0);
	tcase_add_test(tc, test_ack_cadence_defaults_256_acks);
	tcase_add_test(tc, test_ack_cadence_n4_first_last_65_acks);
	tcase_add_test(tc, test_ack_cadence_n4_nth_only_64_acks);
	tcase_add_test(tc, test_ack_cadence_unflagged_tail_recovered_by_rto);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_ack_suite)
