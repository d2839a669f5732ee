/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic on real frames between two NICs (nic_harness.c).
 * Loss recovery (nic_ack.c): a dropped packet recovered by its timer,
 * the timer's backoff, trimmed packets NACKed and retransmitted, a lost
 * ACK, a retransmission that reaches a receiving side already closed;
 * the timers of acknowledged packets leaving the train early.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "check_main.h"
#include "nic_harness.h"
#include "nic_test_private.h"
#include "uet_wire.h"

static void trimmed(uint8_t dscp, uint8_t code)
{
	struct nic_pair pair;
	const struct h_frame *n, *r;

	h_init(&pair);
	pair.trim_data[pair.ntrim_data++] = 2;
	pair.trim_dscp = dscp;
	h_run_one_message(&pair, 5 * 4096);
	ck_assert_uint_eq(pair.count[1][H_NACK], 1);
	n = h_nth_frame(&pair, 1, H_NACK, 0);
	ck_assert_uint_eq(n->nack_code, code);
	ck_assert_uint_eq(n->psn, h_nth_frame(&pair, 0, H_DATA, 2)->psn);
	r = h_nth_frame(&pair, 0, H_DATA, 5);
	ck_assert_uint_eq(r->psn, n->psn);
	ck_assert(r->flags & UET_PDS_REQ_F_RETX);
	ck_assert_uint_eq(r->dscp, UET_DSCP_DEFAULT_TRIMMABLE_RTX);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.trimmed_received, 1);
	ck_assert_uint_eq(h_stats(&pair, 0).transport.rto_expiries, 0);
	/* No ACK for the trimmed packet: 5 ACKs for 6 data frames. */
	ck_assert_uint_eq(pair.count[1][H_ACK], 5);
	h_fini(&pair);
}

START_TEST(test_dropped_data_recovered_by_rto)
{
	struct nic_pair pair;
	struct uet_nic_stats s;

	h_init(&pair);
	pair.drop_data[pair.ndrop_data++] = 3;
	h_run_one_message(&pair, 10 * 4096);
	s = h_stats(&pair, 0);
	ck_assert_uint_eq(s.transport.rto_expiries, 1);
	ck_assert_uint_eq(s.transport.retransmits, 1);
	ck_assert_uint_eq(pair.count[0][H_DATA], 11);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.ooo_events, 6);
	h_fini(&pair);
}
END_TEST

/* A 64-packet message: once its last ACK is in (well within the 20 us
 * timeout), every first transmission's timer has left the train as a
 * ghost, and each still fires, as an ignored timer, when it would have:
 * the last 20 us after the last packet left. With packet 3 dropped, its
 * timer is alive at every ACK until it fires, and the train keeps the
 * timers behind it. */
START_TEST(test_acked_timers_leave_the_train_as_ghosts)
{
	struct uet_nic_stats s;
	struct nic_pair pair;

	h_init(&pair);
	h_start(&pair);
	ck_assert_int_eq(
		uet_nic_post_message(pair.nic[0], h_ip(1), 64 * 4096, 0, 1), 0);
	h_run(&pair, 20000000);
	ck_assert_uint_eq(pair.completed[0], 1);
	ck_assert_uint_eq(uet_train_len(&pair.nic[0]->rto), 0);
	ck_assert_uint_eq(uet_train_ghosts(&pair.nic[0]->rto), 64);
	ck_assert_uint_eq(h_stats(&pair, 0).rto_ignored, 0);
	h_run(&pair, RUN_END_PS);
	s = h_stats(&pair, 0);
	ck_assert_uint_eq(s.rto_ignored, 64);
	ck_assert_uint_eq(s.transport.rto_expiries, 0);
	ck_assert_uint_eq(uet_train_ghosts(&pair.nic[0]->rto), 0);
	h_check_invariants(&pair);
	h_fini(&pair);

	h_init(&pair);
	pair.drop_data[pair.ndrop_data++] = 3;
	h_start(&pair);
	ck_assert_int_eq(
		uet_nic_post_message(pair.nic[0], h_ip(1), 64 * 4096, 0, 1), 0);
	h_run(&pair, 15000000);
	ck_assert_uint_eq(uet_train_ghosts(&pair.nic[0]->rto), 3);
	ck_assert_uint_eq(uet_train_len(&pair.nic[0]->rto), 61);
	h_run(&pair, RUN_END_PS);
	s = h_stats(&pair, 0);
	ck_assert_uint_eq(pair.completed[0], 1);
	ck_assert_uint_eq(s.transport.rto_expiries, 1);
	/* 63 first transmissions' timers ignored, and the retransmission's
	 * (a pooled event) too. */
	ck_assert_uint_eq(s.rto_ignored, 64);
	h_fini(&pair);
}
END_TEST

/*
 * The NICs' mbuf pool runs dry (every mbuf taken here) for the first 30
 * us: the 8 first transmissions of a message cannot be built, nor their
 * retransmissions when the 20 us timers expire. Each frame not built is
 * lost inside the NIC as on the wire: its timer starts, and the
 * transmission after it is sent once mbufs are back. The message
 * completes with every PSN retired once. Before, a frame not built left
 * its packet in flight with no timer and the message hung.
 */
START_TEST(test_frame_not_built_sent_again_by_its_timer)
{
	const uet_time_t dry_ps = 30 * UET_PS_PER_US;
	struct rte_mbuf **taken;
	struct uet_nic_stats s;
	unsigned int n = 0, cap;
	struct nic_pair pair;
	uint32_t i;

	h_init(&pair);
	h_start(&pair);
	cap = rte_mempool_avail_count(pair.mp) + 1024;
	taken = malloc(cap * sizeof(*taken));
	ck_assert_ptr_nonnull(taken);
	while (n < cap && (taken[n] = rte_pktmbuf_alloc(pair.mp)) != NULL)
		n++;
	ck_assert_uint_lt(n, cap);
	ck_assert_int_eq(
		uet_nic_post_message(pair.nic[0], h_ip(1), 8 * 4096, 0, 7), 0);
	h_run(&pair, dry_ps);
	s = h_stats(&pair, 0);
	ck_assert_uint_eq(s.mbuf_failures, 16);
	ck_assert_uint_eq(pair.count[0][H_DATA], 0);
	/* The transmit completion counts the first transmissions lost. */
	ck_assert_uint_eq(pair.sent[0], 1);
	rte_pktmbuf_free_bulk(taken, n);
	free(taken);
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(pair.arrived[1], 1);
	ck_assert_uint_eq(pair.completed[0], 1);
	s = h_stats(&pair, 0);
	/* One expiry for each frame lost, nothing else; the third
	 * transmissions went out. */
	ck_assert_uint_eq(s.mbuf_failures, 16);
	ck_assert_uint_eq(s.transport.rto_expiries, 16);
	ck_assert_uint_eq(s.transport.retransmits, 16);
	ck_assert_uint_eq(pair.count[0][H_DATA], 8);
	ck_assert_uint_eq(s.event_failures, 0);
	ck_assert_uint_eq(h_stats(&pair, 1).mbuf_failures, 0);
	for (i = 0; i < pair.count[0][H_DATA]; i++)
		ck_assert(h_nth_frame(&pair, 0, H_DATA, i)->flags &
			  UET_PDS_REQ_F_RETX);
	h_check_invariants(&pair);
	h_fini(&pair);
}
END_TEST

/* The same packet lost twice: its second timeout runs twice as long. */
START_TEST(test_rto_backoff_doubles)
{
	struct nic_pair pair;
	const struct h_frame *first, *r1, *r2;

	h_init(&pair);
	pair.drop_data[pair.ndrop_data++] = 0;
	pair.drop_data[pair.ndrop_data++] = 1;
	h_run_one_message(&pair, 4096);
	ck_assert_uint_eq(h_stats(&pair, 0).transport.rto_expiries, 2);
	first = h_nth_frame(&pair, 0, H_DATA, 0);
	r1 = h_nth_frame(&pair, 0, H_DATA, 1);
	r2 = h_nth_frame(&pair, 0, H_DATA, 2);
	ck_assert(r1->flags & UET_PDS_REQ_F_RETX);
	/* Frame out times differ by the timeout plus one serialization. */
	ck_assert_uint_eq(r1->arrival_ps - first->arrival_ps, 20000000 + 84040);
	ck_assert_uint_eq(r2->arrival_ps - r1->arrival_ps, 40000000 + 84040);
	h_fini(&pair);
}
END_TEST

START_TEST(test_trimmed_packet_nacked_and_retransmitted)
{
	trimmed(UET_DSCP_DEFAULT_TRIMMED, UET_NACK_TRIMMED);
}
END_TEST

START_TEST(test_trimmed_last_hop_nack_code)
{
	trimmed(UET_DSCP_DEFAULT_TRIMMED_LASTHOP, UET_NACK_TRIMMED_LASTHOP);
}
END_TEST

START_TEST(test_lost_ack_recovered)
{
	struct nic_pair pair;

	h_init(&pair);
	pair.drop_ack[pair.ndrop_ack++] = 0;
	h_run_one_message(&pair, 4096);
	ck_assert_uint_eq(h_stats(&pair, 0).transport.rto_expiries, 1);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.duplicates_received, 1);
	ck_assert_uint_eq(pair.count[1][H_ACK], 2);
	h_fini(&pair);
}
END_TEST

/* The last ACK of a message is lost, and so are the retransmissions after
 * it for longer than the receiver's linger (4 x the longest timeout: 80 us
 * with the timeout fixed at 20 us), so the receiving side closes by
 * itself. The next retransmission must still be acknowledged from what
 * the closed side remembers, not dropped as stale (the sender would retry
 * until the run ends), nor open a new side that delivers the message
 * again. syn: the lost ACK was the first one, so the sender still sends
 * SYN packets. */
static void closed_side(bool syn)
{
	uint32_t first = syn ? 1 : 2, i;
	struct uet_nic_stats rx;
	struct nic_pair pair;

	h_init(&pair);
	pair.p.pds.max_rto_backoff_count = 0;
	pair.drop_ack[pair.ndrop_ack++] = syn ? 0 : 1;
	for (i = 0; i < 6; i++)
		pair.drop_data[pair.ndrop_data++] = first + i;
	h_start(&pair);
	ck_assert_int_eq(uet_nic_post_message(pair.nic[0], h_ip(1),
					      syn ? 4096 : 2 * 4096, 0, 7),
			 0);
	/* Bounded: before the fix the sender retried for ever. */
	h_run(&pair, 50 * UET_PS_PER_MS);
	rx = h_stats(&pair, 1);
	ck_assert_uint_eq(pair.count[0][H_DATA], first + 7);
	ck_assert_uint_eq(rx.closed_side_acks, 1);
	ck_assert_uint_eq(rx.transport.stale_packets, 0);
	ck_assert_uint_eq(rx.transport.pdcs_created, 1);
	ck_assert_uint_eq(pair.arrived[1], 1);
	ck_assert_uint_eq(pair.completed[0], 1);
	ck_assert(h_nth_frame(&pair, 0, H_DATA, first + 6)->flags &
		  UET_PDS_REQ_F_RETX);
	h_check_invariants(&pair);
	h_fini(&pair);
}

START_TEST(test_retransmission_to_closed_side_acked)
{
	closed_side(false);
}
END_TEST

START_TEST(test_syn_retransmission_to_closed_side_acked)
{
	closed_side(true);
}
END_TEST

static Suite *nic_loss_suite(void)
{
	Suite *s = suite_create("nic_loss");
	TCase *tc = tcase_create("loss");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_dropped_data_recovered_by_rto);
	tcase_add_test(tc, test_rto_backoff_doubles);
	tcase_add_test(tc, test_acked_timers_leave_the_train_as_ghosts);
	tcase_add_test(tc, test_trimmed_packet_nacked_and_retransmitted);
	tcase_add_test(tc, test_trimmed_last_hop_nack_code);
	tcase_add_test(tc, test_lost_ack_recovered);
	tcase_add_test(tc, test_frame_not_built_sent_again_by_its_timer);
	tcase_add_test(tc, test_retransmission_to_closed_side_acked);
	tcase_add_test(tc, test_syn_retransmission_to_closed_side_acked);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_loss_suite)
