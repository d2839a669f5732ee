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
	struct nic_pair pair;

	h_init(&pair);
	pair.p.pds.ack_request_every_nth = n;
	pair.p.pds.ack_request_first = first;
	pair.p.pds.ack_request_last = last;
	h_run_one_message(&pair, 256 * 4096);
	ck_assert_uint_eq(pair.count[0][H_DATA], 256);
	ck_assert_uint_eq(pair.count[1][H_ACK], acks);
	ck_assert_uint_eq(pair.count[0][H_PROBE], 1);
	ck_assert_uint_eq(pair.count[1][H_PROBE_ACK], 1);
	ck_assert_uint_eq(pair.count[0][H_CLOSE], 1);
	ck_assert_uint_eq(
		h_stats(&pair, 1).transport.data_payload_bytes_delivered,
		256 * 4096);
	h_fini(&pair);
}

/* The ACK waits its hold: 4,184 bytes at 16 x 31.52 Gbps = 66,371 ps,
 * reported as service time 0 (128 ns steps); 78 bytes at 400 Gbps is
 * 1,560 ps. */
START_TEST(test_ack_hold_66_4ns_reports_service_time_0)
{
	struct nic_pair pair;
	const struct h_frame *d, *a;

	h_init(&pair);
	h_run_one_message(&pair, 4096);
	d = h_nth_frame(&pair, 0, H_DATA, 0);
	a = h_nth_frame(&pair, 1, H_ACK, 0);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->service_time, 0);
	ck_assert_uint_eq(a->arrival_ps,
			  d->arrival_ps + 66371 + 1560 + DELAY_PS);
	ck_assert_uint_eq(a->sport, d->sport); /* entropy carried back */
	ck_assert_uint_eq(a->dscp, UET_DSCP_DEFAULT_CONTROL);
	ck_assert_uint_eq(a->ttl, 255);
	ck_assert_uint_eq(a->ecn, UET_ECN_ECT1);
	h_fini(&pair);
}
END_TEST

/* The NICs go while NIC 1 holds an ACK (its 66.4 ns hold): destroying
 * them frees it, and every mbuf is back in the pool (before, the held
 * ACK's frame stayed taken). */
START_TEST(test_destroy_frees_an_ack_in_its_hold)
{
	const struct h_frame *d;
	uet_time_t t_ps = 0;
	struct nic_pair pair;

	h_init(&pair);
	h_start(&pair);
	ck_assert_int_eq(uet_nic_post_message(pair.nic[0], h_ip(1), 4096, 0, 7),
			 0);
	while (pair.count[0][H_DATA] == 0)
		h_run(&pair, t_ps += 1000);
	d = h_nth_frame(&pair, 0, H_DATA, 0);
	h_run(&pair, d->arrival_ps + 1000);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.data_pkts_received, 1);
	ck_assert_uint_eq(pair.count[1][H_ACK], 0);
	ck_assert_uint_gt(rte_mempool_in_use_count(pair.mp), 0);
	uet_nic_destroy(pair.nic[0]);
	uet_nic_destroy(pair.nic[1]);
	pair.nic[0] = pair.nic[1] = NULL;
	ck_assert_uint_eq(rte_mempool_in_use_count(pair.mp), 0);
	h_fini(&pair);
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
	struct nic_pair pair;

	h_init(&pair);
	pair.p.pds.ack_request_every_nth = 4;
	pair.keep = true;
	pair.keep_data = 6;
	pair.drop_data[pair.ndrop_data++] = 6;
	h_start(&pair);
	ck_assert_int_eq(
		uet_nic_post_message(pair.nic[0], h_ip(1), 8 * 4096, 0, 7), 0);
	h_run(&pair, late_ps);
	ck_assert_ptr_nonnull(pair.kept);
	ck_assert_uint_eq(pair.count[1][H_ACK], 3);
	ck_assert_uint_eq(pair.completed[0], 0);
	h_deliver(&pair, 1, pair.kept, late_ps);
	pair.kept = NULL;
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(pair.completed[0], 1);
	ck_assert_uint_eq(pair.count[1][H_ACK], 4);
	ck_assert_uint_eq(h_stats(&pair, 0).transport.rto_expiries, 0);
	ck_assert_uint_eq(pair.count[0][H_DATA], 8);
	/* Completed one round trip after the late packet, not at 20 us. */
	ck_assert_uint_lt(pair.last_completed_ps, late_ps + 2 * UET_PS_PER_US);
	h_check_invariants(&pair);
	h_fini(&pair);
}
END_TEST

/* An 8-packet message at N = 4 (AR on the 1st, 5th and last) through a
 * fixed window of window_pkts full packets, with the prefetch buffer on
 * or off; returns the run's NIC 0 counters, checks every frame. */
static struct uet_nic_stats window_run(struct nic_pair *pair,
				       uint32_t window_pkts, bool prefetch)
{
	struct uet_nic_stats s;

	h_init(pair);
	pair->p.pds.ack_request_every_nth = 4;
	pair->p.cc_algo = UET_CC_FIXED;
	pair->p.window_bytes = window_pkts * 4184;
	pair->p.prefetch_enable = prefetch;
	h_run_one_message(pair, 8 * 4096);
	ck_assert_uint_eq(pair->count[0][H_DATA], 8);
	s = h_stats(pair, 0);
	ck_assert_uint_eq(s.transport.rto_expiries, 0);
	return s;
}

/*
 * A window of one packet at N = 4: each packet closes the window, and
 * once the one before it is acknowledged no request is in flight, so it
 * asks for an ACK itself. Every packet is acknowledged a round trip
 * after it left and none waits for its timeout (before, packets 2, 3, 4,
 * 6 and 7 went without AR: each waited for three timeouts, its
 * retransmissions counting toward the cadence until the fourth asked,
 * and each timeout kept the window at one packet: the 15-to-1 incast's
 * stall, tests/scenario/incast-ack-nth.sh).
 */
static void window_of_one(bool prefetch)
{
	struct uet_nic_stats s;
	struct nic_pair pair;
	uint32_t i;

	s = window_run(&pair, 1, prefetch);
	for (i = 0; i < 8; i++)
		ck_assert(h_nth_frame(&pair, 0, H_DATA, i)->flags &
			  UET_PDS_REQ_F_AR);
	ck_assert_uint_eq(pair.count[1][H_ACK], 8);
	ck_assert_uint_eq(s.window_ack_requests, 5);
	/* Eight round trips, far below one 20 us timeout. */
	ck_assert_uint_lt(pair.last_completed_ps, 20 * UET_PS_PER_US);
	h_fini(&pair);
}

START_TEST(test_ack_request_when_window_closes_with_none_in_flight)
{
	window_of_one(false);
}
END_TEST

START_TEST(test_ack_request_when_window_closes_prefetch_buffer_on)
{
	window_of_one(true);
}
END_TEST

/*
 * A window of two packets: 1 and 2 go together, and 2 closes the window
 * while 1's request is in flight, so it asks for nothing (the page's
 * cadence). 1's ACK lets 3 go, which closes the window with no request
 * in flight and asks; its ACK covers 2 and 3 and lets 4 and 5 go
 * together: 5 asks by the page's rule, 4 not (5, sent after it, closes
 * the window). Then 6 and 7, of which 7 asks, and 8, the last.
 */
START_TEST(test_ack_request_only_where_no_request_in_flight)
{
	static const bool ar[8] = {true, false, true, false,
				   true, false, true, true};
	struct uet_nic_stats s;
	struct nic_pair pair;
	uint32_t i;

	s = window_run(&pair, 2, false);
	for (i = 0; i < 8; i++)
		ck_assert_msg(((h_nth_frame(&pair, 0, H_DATA, i)->flags &
				UET_PDS_REQ_F_AR) != 0) == ar[i],
			      "packet %u", i + 1);
	ck_assert_uint_eq(s.window_ack_requests, 2);
	ck_assert_uint_eq(pair.count[1][H_ACK], 5);
	h_fini(&pair);
}
END_TEST

/* With a request in flight whenever the window closes (N = 4, a window
 * of 8 packets, 256 packets), the page's figure holds: 65 ACKs, none
 * asked for by a closed window. */
START_TEST(test_ack_cadence_n4_holds_in_a_closed_window)
{
	struct nic_pair pair;

	h_init(&pair);
	pair.p.pds.ack_request_every_nth = 4;
	pair.p.cc_algo = UET_CC_FIXED;
	pair.p.window_bytes = 8 * 4184;
	h_run_one_message(&pair, 256 * 4096);
	ck_assert_uint_eq(pair.count[0][H_DATA], 256);
	ck_assert_uint_eq(pair.count[1][H_ACK], 65);
	ck_assert_uint_eq(h_stats(&pair, 0).window_ack_requests, 0);
	ck_assert_uint_gt(h_stats(&pair, 0).window_stalls, 0);
	ck_assert_uint_eq(h_stats(&pair, 0).transport.rto_expiries, 0);
	h_fini(&pair);
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
	tcase_add_test(tc,
		       test_ack_request_when_window_closes_with_none_in_flight);
	tcase_add_test(tc,
		       test_ack_request_when_window_closes_prefetch_buffer_on);
	tcase_add_test(tc, test_ack_request_only_where_no_request_in_flight);
	tcase_add_test(tc, test_ack_cadence_n4_holds_in_a_closed_window);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_ack_suite)
