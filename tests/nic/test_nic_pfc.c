/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic's PFC: a pause from the switch holds the paused lossless class
 * for its quanta; the data ingress pool pauses the peer at nic.PFCXoff and
 * resumes it at nic.PFCXon.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include <rte_mbuf.h>

#include "check_main.h"
#include "nic_harness.h"
#include "uet_wire.h"

#define DELAY_PS 500000u /* nic.Delay default */
/* Doorbell 1,555 ps, TransmitStartDelay 15 ns, fetch 70,845 ps: the
 * first data frame's serialization starts at 87,400 ps. */
#define FIRST_START_PS 87400u
/* 4,202 bytes at 400 Gbps. */
#define SER_BIG_PS 84040u

/* A pause frame from the switch to NIC i, arriving at at_ps. */
static void pause_nic(struct nic_pair *pair, int i, uint8_t classes,
		      uint16_t quanta, uet_time_t at_ps)
{
	struct uet_pfc pfc = {.class_enable = classes};
	struct rte_mbuf *m = rte_pktmbuf_alloc(pair->mp);
	char *p;

	ck_assert_ptr_nonnull(m);
	for (unsigned int c = 0; c < 8; c++)
		pfc.quanta[c] = quanta;
	p = rte_pktmbuf_append(m, UET_PFC_FRAME_BYTES);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(uet_pfc_build((uint8_t *)p, UET_PFC_FRAME_BYTES, &pfc),
			 UET_PFC_FRAME_BYTES);
	h_deliver(pair, i, m, at_ps);
}

/* NIC 0 paused for 100 quanta (128,000 ps at 400 Gbps) at time 0, then
 * one 4 KiB message: its data frame (class 0 under the UET policy)
 * starts at 128,000 ps instead of 87,400 when class 0 is lossless, and
 * the pause is ignored when PFC is off. */
static void run_paused(uint8_t classes, uet_time_t want_start_ps,
		       uint64_t want_rx_xoff)
{
	const struct h_frame *d;
	struct nic_pair pair;

	h_init(&pair);
	pair.p.pfc_classes = classes;
	h_start(&pair);
	pause_nic(&pair, 0, 0x01, 100, 0);
	ck_assert_int_eq(uet_nic_post_message(pair.nic[0], h_ip(1), 4096, 0, 7),
			 0);
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(pair.completed[0], 1);
	d = h_nth_frame(&pair, 0, H_DATA, 0);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(d->arrival_ps, want_start_ps + SER_BIG_PS + DELAY_PS);
	ck_assert_uint_eq(h_stats(&pair, 0).pfc_rx_xoff_frames, want_rx_xoff);
	ck_assert_uint_eq(h_stats(&pair, 0).transport.other_frames, 0);
	h_check_invariants(&pair);
	h_fini(&pair);
}

START_TEST(test_pause_holds_lossless_data_for_its_quanta)
{
	run_paused(0x01, 100 * 1280, 1);
}
END_TEST

START_TEST(test_pause_of_a_class_without_pfc_is_ignored)
{
	run_paused(0x02, FIRST_START_PS, 1);
}
END_TEST

/* A resume (quanta 0) at 100,000 ps ends a long pause: the frame starts
 * then. */
START_TEST(test_resume_ends_the_pause)
{
	const struct h_frame *d;
	struct nic_pair pair;

	h_init(&pair);
	pair.p.pfc_classes = 0x01;
	h_start(&pair);
	pause_nic(&pair, 0, 0x01, 0xffff, 0);
	pause_nic(&pair, 0, 0x01, 0, 100000);
	ck_assert_int_eq(uet_nic_post_message(pair.nic[0], h_ip(1), 4096, 0, 7),
			 0);
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(pair.completed[0], 1);
	d = h_nth_frame(&pair, 0, H_DATA, 0);
	ck_assert_uint_eq(d->arrival_ps, 100000 + SER_BIG_PS + DELAY_PS);
	ck_assert_uint_eq(h_stats(&pair, 0).pfc_rx_xon_frames, 1);
	h_check_invariants(&pair);
	h_fini(&pair);
}
END_TEST

/*
 * NIC 1 writes to its host over 4 PCIe lanes (126 Gbps) while NIC 0 sends
 * 256 KiB at 400 Gbps: NIC 1's data ingress pool (128 KiB) fills. With
 * class 0 lossless it pauses NIC 0 at 48 KiB and resumes it at 16 KiB,
 * twice, and drops nothing (80 KiB of headroom hold the 1 us round trip);
 * with PFC off the same run drops.
 */
static void run_slow_receiver(uint8_t classes, struct uet_nic_stats *rx,
			      struct uet_nic_stats *tx, struct nic_pair *pair)
{
	h_init(pair);
	pair->p.pfc_classes = classes;
	pair->nic1_lane_count = 4;
	pair->p.ingress_pool_bytes = 128 * 1024;
	pair->p.pfc_xoff_bytes = 48 * 1024;
	pair->p.pfc_xon_bytes = 16 * 1024;
	h_start(pair);
	ck_assert_int_eq(
		uet_nic_post_message(pair->nic[0], h_ip(1), 256 * 1024, 0, 7),
		0);
	h_run(pair, RUN_END_PS);
	ck_assert_uint_eq(pair->completed[0], 1);
	h_check_invariants(pair);
	*rx = h_stats(pair, 1);
	*tx = h_stats(pair, 0);
}

START_TEST(test_receive_pool_pauses_at_xoff_resumes_at_xon)
{
	struct uet_nic_stats rx, tx;
	const struct h_frame *f;
	struct nic_pair pair;
	uint32_t i;

	run_slow_receiver(0x01, &rx, &tx, &pair);
	ck_assert_uint_eq(rx.transport.ingress_drops, 0);
	ck_assert_uint_eq(rx.pfc_tx_xoff_frames, 2);
	ck_assert_uint_eq(rx.pfc_tx_xon_frames, 2);
	ck_assert_uint_eq(tx.pfc_rx_xoff_frames, 2);
	ck_assert_uint_eq(tx.pfc_rx_xon_frames, 2);
	ck_assert_uint_eq(pair.count[1][H_PFC], 4);
	ck_assert_uint_eq(pair.count[0][H_PFC], 0);
	/* XOFF, XON, XOFF, XON; class 0, the data class. */
	for (i = 0; i < 4; i++) {
		f = h_nth_frame(&pair, 1, H_PFC, i);
		ck_assert_uint_eq(f->pfc_classes, 0x01);
		ck_assert_uint_eq(f->pfc_quanta0, i % 2 == 0 ? 0xffff : 0);
		ck_assert_uint_eq(f->pkt_len, UET_PFC_FRAME_BYTES);
	}
	h_fini(&pair);
}
END_TEST

START_TEST(test_receive_pool_without_pfc_drops)
{
	struct uet_nic_stats rx, tx;
	struct nic_pair pair;

	run_slow_receiver(0, &rx, &tx, &pair);
	ck_assert_uint_gt(rx.transport.ingress_drops, 0);
	ck_assert_uint_eq(rx.pfc_tx_xoff_frames, 0);
	ck_assert_uint_eq(pair.count[1][H_PFC], 0);
	h_fini(&pair);
}
END_TEST

static Suite *nic_pfc_suite(void)
{
	Suite *s = suite_create("nic_pfc");
	TCase *tc = tcase_create("pfc");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_pause_holds_lossless_data_for_its_quanta);
	tcase_add_test(tc, test_pause_of_a_class_without_pfc_is_ignored);
	tcase_add_test(tc, test_resume_ends_the_pause);
	tcase_add_test(tc, test_receive_pool_pauses_at_xoff_resumes_at_xon);
	tcase_add_test(tc, test_receive_pool_without_pfc_drops);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN_FORKED(nic_pfc_suite)
