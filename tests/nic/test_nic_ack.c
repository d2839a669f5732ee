/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic on real frames between two NICs (nic_harness.c).
 * Acknowledgements (nic_rx.c, lib/pds): the ACK hold and its service
 * time, the page's ACK cadence worked examples, an unflagged tail and a
 * packet that arrives after the last one acknowledged by the receiver.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

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

/* The NICs go while NIC 1 holds an ACK (its 66.4 ns hold): destroying
 * them frees it, and every mbuf is back in the pool (before, the held
 * ACK's frame stayed taken). */
START_TEST(test_destroy_frees_an_ack_in_its_hold)
{
	const struct h_frame *d;
	uet_time_t t_ps = 0;
	struct h h;

	h_init(&h);
	h_start(&h);
	ck_assert_int_eq(uet_nic_post_message(h.nic[0], h_ip(1), 4096, 0, 7),
			 0);
	while (h.count[0][H_DATA] == 0)
		h_run(&h, t_ps += 1000);
	d = h_nth_frame(&h, 0, H_DATA, 0);
	h_run(&h, d->arrival_ps + 1000);
	ck_assert_uint_eq(h_stats(&h, 1).transport.data_pkts_received, 1);
	ck_assert_uint_eq(h.count[1][H_ACK], 0);
	ck_assert_uint_gt(rte_mempool_in_use_count(h.mp), 0);
	uet_nic_destroy(h.nic[0]);
	uet_nic_destroy(h.nic[1]);
	h.nic[0] = h.nic[1] = NULL;
	ck_assert_uint_eq(rte_mempool_in_use_count(h.mp), 0);
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
 * three packets carry no request, and no later packet can; the receiver
 * acknowledges the last one when it arrives (uet_pds_rx_acknowledges),
 * so 64 + 1 ACKs and no timeout. */
START_TEST(test_ack_cadence_unflagged_tail_acked_at_last_packet)
{
	cadence(4, true, false, 65);
}
END_TEST

/*
 * N = 4 and the last packet flagged, 8 packets: AR on the 1st, 5th and
 * 8th. The 7th is held on a slower path (dropped here, its copy delivered
 * 5 us later, after the last packet's ACK). No later request can cover
 * it: the receiver acknowledges it on arrival, the message completes then
 * and no timer expires (before, it waited for its 20 us timeout).
 */
START_TEST(test_ack_late_packet_after_last_acknowledged)
{
	const uet_time_t late_ps = 5 * UET_PS_PER_US;
	struct h h;

	h_init(&h);
	h.p.pds.ack_request_every_nth = 4;
	h.keep = true;
	h.keep_data = 6;
	h.drop_data[h.ndrop_data++] = 6;
	h_start(&h);
	ck_assert_int_eq(
		uet_nic_post_message(h.nic[0], h_ip(1), 8 * 4096, 0, 7), 0);
	h_run(&h, late_ps);
	ck_assert_ptr_nonnull(h.kept);
	ck_assert_uint_eq(h.count[1][H_ACK], 3);
	ck_assert_uint_eq(h.completed[0], 0);
	h_deliver(&h, 1, h.kept, late_ps);
	h.kept = NULL;
	h_run(&h, RUN_END_PS);
	ck_assert_uint_eq(h.completed[0], 1);
	ck_assert_uint_eq(h.count[1][H_ACK], 4);
	ck_assert_uint_eq(h_stats(&h, 0).transport.rto_expiries, 0);
	ck_assert_uint_eq(h.count[0][H_DATA], 8);
	/* Completed one round trip after the late packet, not at 20 us. */
	ck_assert_uint_lt(h.last_completed_ps, late_ps + 2 * UET_PS_PER_US);
	h_check_invariants(&h);
	h_fini(&h);
}
END_TEST

static Suite *nic_ack_suite(void)
{
	Suite *s = suite_create("nic_ack");
	TCase *tc = tcase_create("ack");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_ack_hold_66_4ns_reports_service_time_0);
	tcase_add_test(tc, test_destroy_frees_an_ack_in_its_hold);
	tcase_add_test(tc, test_ack_cadence_defaults_256_acks);
	tcase_add_test(tc, test_ack_cadence_n4_first_last_65_acks);
	tcase_add_test(tc, test_ack_cadence_n4_nth_only_64_acks);
	tcase_add_test(tc,
		       test_ack_cadence_unflagged_tail_acked_at_last_packet);
	tcase_add_test(tc, test_ack_late_packet_after_last_acknowledged);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_ack_suite)
