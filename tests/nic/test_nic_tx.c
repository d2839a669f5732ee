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
#include "uet_ses.h"
#include "uet_wire.h"

#define DELAY_PS 500000u /* nic.Delay default */

static void several_messages(bool groups)
{
	struct nic_pair pair;
	int i;

	h_init(&pair);
	pair.p.pdc_groups_enabled = groups;
	h_start(&pair);
	for (i = 0; i < 6; i++)
		ck_assert_int_eq(uet_nic_post_message(pair.nic[0], h_ip(1),
						      100000 + i, 0, i),
				 0);
	ck_assert_int_eq(
		uet_nic_post_message(pair.nic[1], h_ip(0), 50000, 0, 9), 0);
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(pair.completed[0], 6);
	ck_assert_uint_eq(pair.arrived[1], 6);
	ck_assert_uint_eq(pair.completed[1], 1);
	ck_assert_uint_eq(h_stats(&pair, 0).transport.pdcs_created, 7);
	ck_assert_uint_eq(h_stats(&pair, 0).transport.pdcs_open, 0);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.pdcs_open, 0);
	h_check_invariants(&pair);
	h_fini(&pair);
}

/* Worked examples: doorbell (64 B over PCIe, 1,555 ps) + TransmitStartDelay
 * 15 ns + fetch 70,845 ps, then 4,202 bytes at 400 Gbps = 84,040 ps, then
 * Delay. The packet is 4,184 bytes at IP, 4,202 on the wire. */
START_TEST(test_fetch_serialization_worked_example)
{
	struct nic_pair pair;
	const struct h_frame *d;

	h_init(&pair);
	h_run_one_message(&pair, 4096);
	d = h_nth_frame(&pair, 0, H_DATA, 0);
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
	h_fini(&pair);
}
END_TEST

START_TEST(test_segmentation_sizes)
{
	static const uint64_t sizes[] = {0, 1, 4095, 4096, 4097};
	static const uint32_t packets[] = {1, 1, 1, 1, 2};
	struct nic_pair pair;
	const struct h_frame *d;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		h_init(&pair);
		h_run_one_message(&pair, sizes[i]);
		ck_assert_uint_eq(pair.count[0][H_DATA], packets[i]);
		ck_assert_uint_eq(
			h_stats(&pair, 1)
				.transport.data_payload_bytes_delivered,
			sizes[i]);
		d = h_nth_frame(&pair, 0, H_DATA, packets[i] - 1);
		ck_assert_uint_eq(d->ip_bytes,
				  (sizes[i] - (packets[i] - 1) * 4096) + 88);
		h_fini(&pair);
	}
}
END_TEST

START_TEST(test_one_mib_every_byte_verified)
{
	struct nic_pair pair;

	h_init(&pair);
	h_run_one_message(&pair, 1 << 20);
	ck_assert_uint_eq(h_stats(&pair, 1).payload_mismatches, 0);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.pcie_write_bytes,
			  1 << 20);
	ck_assert_uint_eq(h_stats(&pair, 0).transport.pcie_read_bytes, 1 << 20);
	h_fini(&pair);
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
	struct nic_pair pair;
	struct uet_nic_stats s;

	h_init(&pair);
	pair.p.prefetch_enable = true;
	h_run_one_message(&pair, 1 << 20);
	s = h_stats(&pair, 0);
	ck_assert_uint_gt(s.prefetch_peak_bytes, 0);
	ck_assert_uint_le(s.prefetch_peak_bytes, pair.p.prefetch_bytes);
	h_fini(&pair);
}
END_TEST

START_TEST(test_egress_pool_full_stops_and_resumes)
{
	struct nic_pair pair;
	struct uet_nic_stats s;

	h_init(&pair);
	pair.p.egress_pool_bytes = 3 * 4202;
	h_run_one_message(&pair, 64 * 4096);
	s = h_stats(&pair, 0);
	ck_assert_uint_gt(s.egress_pool_stalls, 0);
	ck_assert_uint_le(s.egress_pool_peak_bytes, 3 * 4202);
	h_fini(&pair);
}
END_TEST

/*
 * A data frame held by someone else (a switch's queue, a capture) after
 * the NIC that sent it is gone: its payload is attached to the pattern,
 * not copied. Run with the pattern given (uet-emu's: one for the run,
 * outliving every frame) or the NIC's own (kept until its last frame is
 * freed). Either way the held frame still reads the pattern's bytes and
 * frees cleanly once the NICs are destroyed (AddressSanitizer, in the test
 * command's second build, sees a use after free or a leak); the lost frame
 * is sent again and every byte arrives.
 */
static void frame_outlives_its_nic(bool shared)
{
	static uint8_t buf[8192];
	struct uet_ses_pattern *pat = NULL, *ref;
	const struct rte_mbuf *seg;
	const uint8_t *bytes;
	struct uet_frame f;
	uint32_t len;
	struct nic_pair pair;

	h_init(&pair);
	if (shared) {
		ck_assert_int_eq(uet_ses_pattern_create(&pat), 0);
		pair.pattern = pat;
	}
	pair.hold = true;
	pair.hold_data = 1;
	h_run_one_message(&pair, 8 * 4096);
	ck_assert_uint_eq(h_stats(&pair, 1).payload_mismatches, 0);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.pcie_write_bytes,
			  8 * 4096);
	ck_assert_ptr_nonnull(pair.held);
	uet_nic_destroy(pair.nic[0]);
	uet_nic_destroy(pair.nic[1]);
	pair.nic[0] = pair.nic[1] = NULL;
	/* Frame 1 carries message bytes 4096-8191: its payload segment is
	 * the pattern's, attached, each frame with a shared-info that
	 * counts it alone when the pattern is the caller's. */
	seg = pair.held->next;
	ck_assert_ptr_nonnull(seg);
	ck_assert(RTE_MBUF_HAS_EXTBUF(seg));
	ck_assert_uint_eq(seg->data_len, 4096);
	if (shared) {
		bytes = rte_pktmbuf_mtod(seg, const uint8_t *);
		ck_assert(bytes >= pat->bytes &&
			  bytes + seg->data_len <=
				  pat->bytes + UET_SES_PATTERN_BYTES);
		ck_assert_ptr_eq(seg->shinfo,
				 rte_mbuf_to_baddr((struct rte_mbuf *)seg));
		ck_assert_uint_eq(rte_mbuf_ext_refcnt_read(seg->shinfo), 1);
	} else {
		ck_assert_ptr_ne(seg->shinfo,
				 rte_mbuf_to_baddr((struct rte_mbuf *)seg));
	}
	/* Read whole, byte for byte against a pattern of this test's own
	 * (the same bytes in every process): the NIC's, if it was its own,
	 * is still there. */
	len = rte_pktmbuf_pkt_len(pair.held);
	ck_assert_uint_le(len, sizeof(buf));
	ck_assert_ptr_eq(rte_pktmbuf_read(pair.held, 0, len, buf), buf);
	ck_assert_int_eq(uet_frame_parse(buf, len, &f, NULL), 0);
	ck_assert_uint_eq(f.ses.u.std.message_offset, 4096);
	ck_assert_uint_eq(f.payload_bytes, 4096);
	ck_assert_int_eq(uet_ses_pattern_create(&ref), 0);
	ck_assert_int_eq(uet_ses_pattern_verify(
				 ref,
				 uet_ses_pattern_shift(f.ses.u.std.message_id,
						       f.ses.u.std.initiator),
				 4096, buf + f.payload_offset, f.payload_bytes),
			 0);
	uet_ses_pattern_free(ref);
	rte_pktmbuf_free(pair.held);
	pair.held = NULL;
	uet_ses_pattern_free(pat);
	rte_mempool_free(pair.mp);
}

START_TEST(test_frame_outlives_its_nic_shared_pattern)
{
	frame_outlives_its_nic(true);
}
END_TEST

START_TEST(test_frame_outlives_its_nic_own_pattern)
{
	frame_outlives_its_nic(false);
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
	tcase_add_test(tc, test_frame_outlives_its_nic_shared_pattern);
	tcase_add_test(tc, test_frame_outlives_its_nic_own_pattern);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_tx_suite)
