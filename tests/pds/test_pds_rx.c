/* SPDX-License-Identifier: BSD-3-Clause */
/* Receiving side of a PDC: order, duplicates, ACK and SACK contents, wrap. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "check_main.h"
#include "uet_pds.h"

static void rx_new(struct uet_pds_rx *rx, uint32_t start, uint32_t capacity)
{
	ck_assert_int_eq(uet_pds_rx_init(rx, start, capacity), 0);
}

static void expect_ack(struct uet_pds_rx *rx, uint32_t cack, int16_t offset,
		       uint64_t bitmap)
{
	struct uet_pds_ack_info ack;

	uet_pds_rx_ack(rx, &ack);
	ck_assert_uint_eq(ack.cack_psn, cack);
	ck_assert_int_eq(ack.sack_psn_offset, offset);
	ck_assert_uint_eq(ack.sack_bitmap, bitmap);
	ck_assert_uint_eq(uet_pds_sack_base_psn(&ack), cack + (int32_t)offset);
}

START_TEST(test_rx_start_psn_from_syn_offset)
{
	/* PSN 1005 with psn_offset 5: the PDC started at 1000. */
	ck_assert_uint_eq(uet_pds_start_psn(1005, 5), 1000);
	ck_assert_uint_eq(uet_pds_start_psn(3, 5), UINT32_MAX - 1);
	/* Only 12 bits of offset exist. */
	ck_assert_uint_eq(uet_pds_start_psn(0x2000, 0xf001), 0x1fff);
}
END_TEST

START_TEST(test_rx_in_order_advances)
{
	struct uet_pds_rx rx;
	uint32_t psn;

	rx_new(&rx, 1000, 64);
	/* Before anything arrives the cumulative ACK is start - 1. */
	ck_assert_uint_eq(uet_pds_rx_cack_psn(&rx), 999);
	for (psn = 1000; psn < 1010; psn++)
		ck_assert_int_eq(uet_pds_rx_receive(&rx, psn), 1);
	expect_ack(&rx, 1009, 1, 0);
	ck_assert_uint_eq(rx.stats.new_packets, 10);
	ck_assert_uint_eq(rx.stats.out_of_order, 0);
	ck_assert_uint_eq(rx.stats.duplicates, 0);
	ck_assert(uet_pds_rx_no_gap_through(&rx, 1000));
	ck_assert(uet_pds_rx_no_gap_through(&rx, 1009));
	ck_assert(!uet_pds_rx_no_gap_through(&rx, 1010));
	/* Before the start is not part of the PDC. */
	ck_assert(!uet_pds_rx_no_gap_through(&rx, 999));
	uet_pds_rx_fini(&rx);
}
END_TEST

START_TEST(test_rx_reorder_sacked_then_gap_filled)
{
	struct uet_pds_rx rx;

	rx_new(&rx, 1000, 64);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 1000), 1);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 1002), 1);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 1003), 1);
	ck_assert_uint_eq(rx.stats.out_of_order, 2);
	/* cack 1000; block from 1001: bits 1 and 2 are 1002, 1003. */
	expect_ack(&rx, 1000, 1, 0x6);
	ck_assert(!uet_pds_rx_no_gap_through(&rx, 1003));
	ck_assert(uet_pds_rx_no_gap_through(&rx, 1000));

	/* The gap fills: the cumulative ACK jumps past 1002 and 1003. */
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 1001), 1);
	ck_assert_uint_eq(rx.next_expected_psn, 1004);
	expect_ack(&rx, 1003, 1, 0);
	ck_assert(uet_pds_rx_no_gap_through(&rx, 1003));
	ck_assert_uint_eq(rx.stats.out_of_order, 2);
	ck_assert_uint_eq(rx.stats.new_packets, 4);
	uet_pds_rx_fini(&rx);
}
END_TEST

START_TEST(test_rx_duplicates_counted_not_delivered)
{
	struct uet_pds_rx rx;

	rx_new(&rx, 0, 64);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 0), 1);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 5), 1);
	/* Below the next expected PSN. */
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 0), 0);
	/* Beyond it but already received. */
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 5), 0);
	ck_assert_uint_eq(rx.stats.duplicates, 2);
	ck_assert_uint_eq(rx.stats.out_of_order, 1);
	ck_assert_uint_eq(rx.stats.new_packets, 2);
	/* Far below (by serial arithmetic) is a duplicate too, not a crash. */
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 0x80000001u), 0);
	ck_assert_uint_eq(rx.stats.duplicates, 3);
	expect_ack(&rx, 0, 1, 0x10);
	uet_pds_rx_fini(&rx);
}
END_TEST

START_TEST(test_rx_sack_successive_blocks)
{
	struct uet_pds_rx rx;
	uint32_t psn;

	/* PSN 0 lost, 1..200 arrive: 200 out of order, four blocks. */
	rx_new(&rx, 0, 64);
	for (psn = 1; psn <= 200; psn++)
		ck_assert_int_eq(uet_pds_rx_receive(&rx, psn), 1);
	ck_assert_uint_eq(rx.stats.out_of_order, 200);
	ck_assert_uint_eq(rx.capacity_psns, 256);
	expect_ack(&rx, UINT32_MAX, 1, ~UINT64_C(1));
	expect_ack(&rx, UINT32_MAX, 65, UINT64_MAX);
	expect_ack(&rx, UINT32_MAX, 129, UINT64_MAX);
	expect_ack(&rx, UINT32_MAX, 193, 0x1ff); /* 192..200 */
	/* Past the highest received PSN: back to cack + 1. */
	expect_ack(&rx, UINT32_MAX, 1, ~UINT64_C(1));
	expect_ack(&rx, UINT32_MAX, 65, UINT64_MAX);

	/* The cumulative ACK passes the cursor (at 128). */
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 0), 1);
	ck_assert_uint_eq(uet_pds_rx_cack_psn(&rx), 200);
	/* Nothing beyond the cumulative ACK any more. */
	expect_ack(&rx, 200, 1, 0);
	uet_pds_rx_fini(&rx);
}
END_TEST

START_TEST(test_rx_sack_cursor_keeps_place_when_cack_moves)
{
	struct uet_pds_rx rx;
	uint32_t psn;

	/* 0 and 1 lost, 2..150 arrive. */
	rx_new(&rx, 0, 256);
	for (psn = 2; psn <= 150; psn++)
		ck_assert_int_eq(uet_pds_rx_receive(&rx, psn), 1);
	expect_ack(&rx, UINT32_MAX, 1, ~UINT64_C(3));
	/* 0 arrives: cack 0. The cursor stays at 64, now offset 64. */
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 0), 1);
	expect_ack(&rx, 0, 64, UINT64_MAX);
	/* 128..150: 23 PSNs. */
	expect_ack(&rx, 0, 128, (UINT64_C(1) << 23) - 1);
	/* Back to cack + 1 = 1: 1 missing, 2..64 set. */
	expect_ack(&rx, 0, 1, ~UINT64_C(1));
	/* 1 arrives: the cursor (65) is now at or below cack + 1. */
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 1), 1);
	expect_ack(&rx, 150, 1, 0);
	uet_pds_rx_fini(&rx);
}
END_TEST

START_TEST(test_rx_sack_reaches_window_edge)
{
	struct uet_pds_rx rx;
	struct uet_pds_ack_info ack;
	unsigned n;

	/* One packet at the far edge of the window: 512 blocks later the
	 * bitmap reports it, with an offset that still fits 16 bits. */
	rx_new(&rx, 0, 64);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 32767), 1);
	ck_assert_uint_eq(rx.capacity_psns, 32768);
	for (n = 0; n < 511; n++) {
		uet_pds_rx_ack(&rx, &ack);
		ck_assert_int_eq(ack.sack_psn_offset, 1 + 64 * (int)n);
		ck_assert_uint_eq(ack.sack_bitmap, 0);
	}
	expect_ack(&rx, UINT32_MAX, 32705, UINT64_C(1) << 63);
	expect_ack(&rx, UINT32_MAX, 1, 0);
	uet_pds_rx_fini(&rx);
}
END_TEST

START_TEST(test_rx_sack_cursor_restarts_beyond_offset_range)
{
	struct uet_pds_rx rx;
	struct uet_pds_ack_info ack;
	unsigned n;

	rx_new(&rx, 0, 64);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 100), 1);
	expect_ack(&rx, UINT32_MAX, 1, 0); /* block 0..63; 100 is beyond */
	/* 0 arrives (cack 0), then a packet at the window's edge, 32768. */
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 0), 1);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 32768), 1);
	/* The cursor walks 64, 128, ..., 32704 (offsets 64..32704). */
	for (n = 1; n <= 511; n++) {
		uet_pds_rx_ack(&rx, &ack);
		ck_assert_uint_eq(ack.cack_psn, 0);
		ck_assert_int_eq(ack.sack_psn_offset, 64 * (int)n);
		ck_assert_uint_eq(ack.sack_bitmap,
				  n == 1 ? UINT64_C(1) << 36 : 0);
	}
	/* Next would be 32768, offset 32768: too far for 16 bits, so the
	 * walk restarts at cack + 1 and 32768 comes with the last block. */
	expect_ack(&rx, 0, 1, 0);
	for (n = 1; n < 511; n++) {
		uet_pds_rx_ack(&rx, &ack);
		ck_assert_int_eq(ack.sack_psn_offset, 1 + 64 * (int)n);
		/* 100 is bit 35 of the block from 65. */
		ck_assert_uint_eq(ack.sack_bitmap,
				  n == 1 ? UINT64_C(1) << 35 : 0);
	}
	expect_ack(&rx, 0, 32705, UINT64_C(1) << 63);
	uet_pds_rx_fini(&rx);
}
END_TEST

START_TEST(test_rx_psn_wraps_around_2_32)
{
	struct uet_pds_rx rx;
	uint32_t psn;

	rx_new(&rx, 0xfffffff0u, 64);
	for (psn = 0xfffffff0u; psn != 0x10; psn++) {
		if (psn == 0xfffffffeu)
			continue;
		ck_assert_int_eq(uet_pds_rx_receive(&rx, psn), 1);
	}
	/* cack 0xfffffffd; 0xffffffff and 0..15 are bits 1..17. */
	expect_ack(&rx, 0xfffffffdu, 1, ((UINT64_C(1) << 17) - 1) << 1);
	ck_assert(uet_pds_rx_no_gap_through(&rx, 0xfffffffdu));
	ck_assert(!uet_pds_rx_no_gap_through(&rx, 5));
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 0xfffffffeu), 1);
	expect_ack(&rx, 0xf, 1, 0);
	ck_assert(uet_pds_rx_no_gap_through(&rx, 5));
	ck_assert(uet_pds_rx_no_gap_through(&rx, 0xf));
	ck_assert(!uet_pds_rx_no_gap_through(&rx, 0x10));
	/* Before the wrap is below next expected: duplicate. */
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 0xfffffff5u), 0);
	ck_assert_uint_eq(rx.stats.duplicates, 1);
	ck_assert_uint_eq(rx.stats.out_of_order, 17);
	uet_pds_rx_fini(&rx);
}
END_TEST

START_TEST(test_rx_huge_psn_jump_rejected)
{
	struct uet_pds_rx rx;

	rx_new(&rx, 0, 64);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, UET_PDS_RX_WINDOW_PSNS),
			 -ERANGE);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 0x7fffffffu), -ERANGE);
	ck_assert_uint_eq(rx.stats.out_of_window, 2);
	/* Nothing was recorded and the array did not grow. */
	ck_assert_uint_eq(rx.capacity_psns, 64);
	ck_assert_uint_eq(rx.stats.new_packets, 0);
	expect_ack(&rx, UINT32_MAX, 1, 0);
	/* The last PSN inside the window is accepted. */
	ck_assert_int_eq(uet_pds_rx_receive(&rx, UET_PDS_RX_WINDOW_PSNS - 1),
			 1);
	ck_assert_uint_eq(rx.stats.out_of_order, 1);
	uet_pds_rx_fini(&rx);
}
END_TEST

START_TEST(test_rx_growth_keeps_received_state)
{
	struct uet_pds_rx rx;
	uint32_t psn;

	rx_new(&rx, 500, 64);
	/* Fill 50 of the first 64 slots beyond a gap, then force growth. */
	for (psn = 510; psn < 560; psn++)
		ck_assert_int_eq(uet_pds_rx_receive(&rx, psn), 1);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 500 + 1000), 1);
	ck_assert_uint_eq(rx.capacity_psns, 1024);
	/* Growth kept what had arrived: each is a duplicate now, and the
	 * gap before them is still open. */
	for (psn = 510; psn < 560; psn++)
		ck_assert_int_eq(uet_pds_rx_receive(&rx, psn), 0);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 1500), 0);
	ck_assert_uint_eq(uet_pds_rx_cack_psn(&rx), 499);
	for (psn = 500; psn < 510; psn++)
		ck_assert_int_eq(uet_pds_rx_receive(&rx, psn), 1);
	ck_assert_uint_eq(uet_pds_rx_cack_psn(&rx), 559);
	ck_assert_int_eq(uet_pds_rx_receive(&rx, 530), 0);
	uet_pds_rx_fini(&rx);
}
END_TEST

static Suite *pds_rx_suite(void)
{
	Suite *s = suite_create("pds_rx");
	TCase *tc = tcase_create("rx");

	tcase_add_test(tc, test_rx_start_psn_from_syn_offset);
	tcase_add_test(tc, test_rx_in_order_advances);
	tcase_add_test(tc, test_rx_reorder_sacked_then_gap_filled);
	tcase_add_test(tc, test_rx_duplicates_counted_not_delivered);
	tcase_add_test(tc, test_rx_sack_successive_blocks);
	tcase_add_test(tc, test_rx_sack_cursor_keeps_place_when_cack_moves);
	tcase_add_test(tc, test_rx_sack_reaches_window_edge);
	tcase_add_test(tc, test_rx_sack_cursor_restarts_beyond_offset_range);
	tcase_add_test(tc, test_rx_psn_wraps_around_2_32);
	tcase_add_test(tc, test_rx_huge_psn_jump_rejected);
	tcase_add_test(tc, test_rx_growth_keeps_received_state);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(pds_rx_suite)
