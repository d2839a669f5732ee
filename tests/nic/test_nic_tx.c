/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic on real frames between two NICs (nic_harness.c).
 * The transmit side (nic_sched.c, nic_pool.c, nic_port.c): the fetch and
 * serialization worked example, segment sizes, a 1 MiB message checked
 * byte for byte, several messages with PDC groups on and off, the
 * prefetch buffer, a full egress pool.
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

static void several_messages(bool groups)
{
	struct h h;
	int i;

	h_init(&h);
	h.p.pdc_groups_enabled = groups;
	h_start(&h);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(uet_nic_post_message(h.nic[0], h_ip(1),
						      100000 + i, 0, i),
				 0);
	ck_assert_int_eq(uet_nic_post_message(h.nic[1], h_ip(0), 50000, 0, 9),
			 0);
	h_run(&h, RUN_END_PS);
	ck_assert_uint_eq(h.completed[0], 6);
	ck_assert_uint_eq(h.arrived[1], 6);
	ck_assert_uint_eq(h.completed[1], 1);
	ck_assert_uint_eq(h_stats(&h, 0).transport.pdcs_created, 7);
	ck_assert_uint_eq(h_stats(&h, 0).transport.pdcs_open, 0);
	ck_assert_uint_eq(h_stats(&h, 1).transport.pdcs_open, 0);
	h_check_invariants(&h);
	h_fini(&h);
}

/* Worked examples: doorbell (64 B over PCIe, 1,555 ps) + TransmitStartDelay
 * 15 ns + fetch 70,845 ps, then 4,202 bytes at 400 Gbps = 84,040 ps, then
 * Delay. The packet is 4,184 bytes at IP, 4,202 on the wire. */
START_TEST(test_fetch_serialization_worked_example)
{
	struct h h;
	const struct h_frame *d;

	h_init(&h);
	h_run_one_message(&h, 4096);
	d = h_nth_frame(&h, 0, H_DATA, 0);
	ck_assert_ptr_nonnull(d);
	ck_assert_uint_eq(d->ip_bytes, 4184);
	ck_assert_uint_eq(d->pkt_len + UET_ETH_FCS_BYTES, 4202);
	ck_assert_uint_eq(d->arrival_ps,
			  1555 + 15000 + 70845 + 84040 + DELAY_PS);
	/* Marking: no-trim first transmission, ECT(1), TTL 255, AR, SYN. */
	ck_assert_uint_eq(d->dscp, UET_DSCP_DEFAULT_NO_TRIM);
	ck_assert_uint_eq(d->ecn, UET_ECN_ECT1);
	ck_assert_uint_eq(d->ttl, 255);
	ck_assert(d->flags & UET_PDS_REQ_F_AR);
	ck_assert(d->flags & UET_PDS_REQ_F_SYN);
	h_fini(&h);
}
END_TEST

START_TEST(test_segmentation_sizes)
{
	static const uint64_t sizes[] = {0, 1, 4095, 4096, 4097};
	static const uint32_t packets[] = {1, 1, 1, 1, 2};
	struct h h;
	const struct h_frame *d;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		h_init(&h);
		h_run_one_message(&h, sizes[i]);
		ck_assert_uint_eq(h.count[0][H_DATA], packets[i]);
		ck_assert_uint_eq(
			h_stats(&h, 1).transport.data_payload_bytes_delivered,
			sizes[i]);
		d = h_nth_frame(&h, 0, H_DATA, packets[i] - 1);
		ck_assert_uint_eq(d->ip_bytes,
				  (sizes[i] - (packets[i] - 1) * 4096) + 88);
		h_fini(&h);
	}
}
END_TEST

START_TEST(test_one_mib_every_byte_verified)
{
	struct h h;

	h_init(&h);
	h_run_one_message(&h, 1 << 20);
	ck_assert_uint_eq(h_stats(&h, 1).payload_mismatches, 0);
	ck_assert_uint_eq(h_stats(&h, 1).transport.pcie_write_bytes, 1 << 20);
	ck_assert_uint_eq(h_stats(&h, 0).transport.pcie_read_bytes, 1 << 20);
	h_fini(&h);
}
END_TEST

START_TEST(test_messages_in_flight_groups_on)
{
	several_messages(true);
}
END_TEST

START_TEST(test_messages_in_flight_groups_off)
{
	several_messages(false);
}
END_TEST

START_TEST(test_prefetch_buffer_on)
{
	struct h h;
	struct uet_nic_stats s;

	h_init(&h);
	h.p.prefetch_enable = true;
	h_run_one_message(&h, 1 << 20);
	s = h_stats(&h, 0);
	ck_assert_uint_gt(s.prefetch_peak_bytes, 0);
	ck_assert_uint_le(s.prefetch_peak_bytes, h.p.prefetch_bytes);
	h_fini(&h);
}
END_TEST

START_TEST(test_egress_pool_full_stops_and_resumes)
{
	struct h h;
	struct uet_nic_stats s;

	h_init(&h);
	h.p.egress_pool_bytes = 3 * 4202;
	h_run_one_message(&h, 64 * 4096);
	s = h_stats(&h, 0);
	ck_assert_uint_gt(s.egress_pool_stalls, 0);
	ck_assert_uint_le(s.egress_pool_peak_bytes, 3 * 4202);
	h_fini(&h);
}
END_TEST

static Suite *nic_tx_suite(void)
{
	Suite *s = suite_create("nic_tx");
	TCase *tc = tcase_create("tx");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_fetch_serialization_worked_example);
	tcase_add_test(tc, test_segmentation_sizes);
	tcase_add_test(tc, test_one_mib_every_byte_verified);
	tcase_add_test(tc, test_messages_in_flight_groups_on);
	tcase_add_test(tc, test_messages_in_flight_groups_off);
	tcase_add_test(tc, test_prefetch_buffer_on);
	tcase_add_test(tc, test_egress_pool_full_stops_and_resumes);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_tx_suite)
