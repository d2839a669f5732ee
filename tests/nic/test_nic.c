/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic: the data-path page's rules and worked examples, on real frames
 * between two NICs (nic_harness.c).
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
#define RUN_END_PS (UINT64_C(1) << 62)

/* One message from NIC 0 to NIC 1, run to the end, invariants checked. */
static void run_one_message(struct h *h, uint64_t bytes)
{
	h_start(h);
	ck_assert_int_eq(uet_nic_post_message(h->nic[0], h_ip(1), bytes, 0, 7),
			 0);
	h_run(h, RUN_END_PS);
	ck_assert_uint_eq(h->sent[0], 1);
	ck_assert_uint_eq(h->arrived[1], 1);
	ck_assert_uint_eq(h->completed[0], 1);
	h_check_invariants(h);
}

/* Worked examples: doorbell (64 B over PCIe, 1,555 ps) + TransmitStartDelay
 * 15 ns + fetch 70,845 ps, then 4,202 bytes at 400 Gbps = 84,040 ps, then
 * Delay. The packet is 4,184 bytes at IP, 4,202 on the wire. */
START_TEST(test_fetch_serialization_worked_example)
{
	struct h h;
	const struct h_frame *d;

	h_init(&h);
	run_one_message(&h, 4096);
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

/* The ACK waits its hold: 4,184 bytes at 16 x 31.52 Gbps = 66,371 ps,
 * reported as service time 0 (128 ns steps); 78 bytes at 400 Gbps is
 * 1,560 ps. */
START_TEST(test_ack_hold_66_4ns_reports_service_time_0)
{
	struct h h;
	const struct h_frame *d, *a;

	h_init(&h);
	run_one_message(&h, 4096);
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

static void cadence(uint32_t n, bool first, bool last, uint32_t acks)
{
	struct h h;

	h_init(&h);
	h.sc.pds.ack_request_every_nth_packet = n;
	h.sc.pds.ack_request_first_packet = first;
	h.sc.pds.ack_request_last_packet = last;
	run_one_message(&h, 256 * 4096);
	ck_assert_uint_eq(h.count[0][H_DATA], 256);
	ck_assert_uint_eq(h.count[1][H_ACK], acks);
	ck_assert_uint_eq(h.count[0][H_PROBE], 1);
	ck_assert_uint_eq(h.count[1][H_PROBE_ACK], 1);
	ck_assert_uint_eq(h.count[0][H_CLOSE], 1);
	ck_assert_uint_eq(h_stats(&h, 1).transport.data_payload_bytes_delivered,
			  256 * 4096);
	h_fini(&h);
}

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
	h.sc.pds.ack_request_every_nth_packet = 4;
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

START_TEST(test_segmentation_sizes)
{
	static const uint64_t sizes[] = {0, 1, 4095, 4096, 4097};
	static const uint32_t packets[] = {1, 1, 1, 1, 2};
	struct h h;
	const struct h_frame *d;
	unsigned int i;

	for (i = 0; i < 5; i++) {
		h_init(&h);
		run_one_message(&h, sizes[i]);
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
	run_one_message(&h, 1 << 20);
	ck_assert_uint_eq(h_stats(&h, 1).payload_mismatches, 0);
	ck_assert_uint_eq(h_stats(&h, 1).transport.pcie_write_bytes, 1 << 20);
	ck_assert_uint_eq(h_stats(&h, 0).transport.pcie_read_bytes, 1 << 20);
	h_fini(&h);
}
END_TEST

static void several_messages(bool groups)
{
	struct h h;
	int i;

	h_init(&h);
	h.sc.nic.pdc_groups_enabled = groups;
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

START_TEST(test_dropped_data_recovered_by_rto)
{
	struct h h;
	struct uet_nic_stats s;

	h_init(&h);
	h.drop_data[h.ndrop_data++] = 3;
	run_one_message(&h, 10 * 4096);
	s = h_stats(&h, 0);
	ck_assert_uint_eq(s.transport.rto_expiries, 1);
	ck_assert_uint_eq(s.transport.retransmits, 1);
	ck_assert_uint_eq(h.count[0][H_DATA], 11);
	ck_assert_uint_eq(h_stats(&h, 1).transport.ooo_events, 6);
	h_fini(&h);
}
END_TEST

/* The same packet lost twice: its second timeout runs twice as long. */
START_TEST(test_rto_backoff_doubles)
{
	struct h h;
	const struct h_frame *first, *r1, *r2;

	h_init(&h);
	h.drop_data[h.ndrop_data++] = 0;
	h.drop_data[h.ndrop_data++] = 1;
	run_one_message(&h, 4096);
	ck_assert_uint_eq(h_stats(&h, 0).transport.rto_expiries, 2);
	first = h_nth_frame(&h, 0, H_DATA, 0);
	r1 = h_nth_frame(&h, 0, H_DATA, 1);
	r2 = h_nth_frame(&h, 0, H_DATA, 2);
	ck_assert(r1->flags & UET_PDS_REQ_F_RETX);
	/* Frame out times differ by the timeout plus one serialization. */
	ck_assert_uint_eq(r1->arrival_ps - first->arrival_ps, 20000000 + 84040);
	ck_assert_uint_eq(r2->arrival_ps - r1->arrival_ps, 40000000 + 84040);
	h_fini(&h);
}
END_TEST

static void trimmed(uint8_t dscp, uint8_t code)
{
	struct h h;
	const struct h_frame *n, *r;

	h_init(&h);
	h.trim_data[h.ntrim_data++] = 2;
	h.trim_dscp = dscp;
	run_one_message(&h, 5 * 4096);
	ck_assert_uint_eq(h.count[1][H_NACK], 1);
	n = h_nth_frame(&h, 1, H_NACK, 0);
	ck_assert_uint_eq(n->nack_code, code);
	ck_assert_uint_eq(n->psn, h_nth_frame(&h, 0, H_DATA, 2)->psn);
	r = h_nth_frame(&h, 0, H_DATA, 5);
	ck_assert_uint_eq(r->psn, n->psn);
	ck_assert(r->flags & UET_PDS_REQ_F_RETX);
	ck_assert_uint_eq(r->dscp, UET_DSCP_DEFAULT_TRIMMABLE_RTX);
	ck_assert_uint_eq(h_stats(&h, 1).transport.trimmed_received, 1);
	ck_assert_uint_eq(h_stats(&h, 0).transport.rto_expiries, 0);
	/* No ACK for the trimmed packet: 5 ACKs for 6 data frames. */
	ck_assert_uint_eq(h.count[1][H_ACK], 5);
	h_fini(&h);
}

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
	struct h h;

	h_init(&h);
	h.drop_ack[h.ndrop_ack++] = 0;
	run_one_message(&h, 4096);
	ck_assert_uint_eq(h_stats(&h, 0).transport.rto_expiries, 1);
	ck_assert_uint_eq(h_stats(&h, 1).transport.duplicates_received, 1);
	ck_assert_uint_eq(h.count[1][H_ACK], 2);
	h_fini(&h);
}
END_TEST

START_TEST(test_prefetch_buffer_on)
{
	struct h h;
	struct uet_nic_stats s;

	h_init(&h);
	h.sc.nic.prefetch_buffer_enable = true;
	run_one_message(&h, 1 << 20);
	s = h_stats(&h, 0);
	ck_assert_uint_gt(s.prefetch_peak_bytes, 0);
	ck_assert_uint_le(s.prefetch_peak_bytes,
			  h.sc.nic.prefetch_buffer_size_bytes);
	h_fini(&h);
}
END_TEST

START_TEST(test_egress_pool_full_stops_and_resumes)
{
	struct h h;
	struct uet_nic_stats s;

	h_init(&h);
	h.sc.nic.egress_pool_size_bytes = 3 * 4202;
	run_one_message(&h, 64 * 4096);
	s = h_stats(&h, 0);
	ck_assert_uint_gt(s.egress_pool_stalls, 0);
	ck_assert_uint_le(s.egress_pool_peak_bytes, 3 * 4202);
	h_fini(&h);
}
END_TEST

START_TEST(test_malformed_frames_counted_and_dropped)
{
	struct h h;
	struct uet_component *c;
	struct rte_mbuf *m;
	uint8_t *d;
	int i;

	h_init(&h);
	h_start(&h);
	c = uet_nic_component(h.nic[1]);
	for (i = 0; i < 3; i++) {
		m = rte_pktmbuf_alloc(h.mp);
		d = (uint8_t *)rte_pktmbuf_append(m, 80);
		memset(d, 0xa5 + i, 80);
		if (i == 1) {
			/* A real data frame's headers, truncated. */
			struct uet_frame_addr a;
			struct uet_pds_hdr p = {
				.type = UET_PDS_TYPE_RUD_CC_REQ};
			uint8_t full[200];

			uet_frame_addr_default(&a);
			a.dst_ip = h_ip(1);
			ck_assert_int_gt(uet_frame_build(full, sizeof(full), &a,
							 &p, NULL, NULL, 100),
					 0);
			memcpy(d, full, 80);
		}
		if (i == 2)
			memcpy(d + 12, "\x08\x00\x45", 3); /* bad IPv4 */
		ck_assert_int_eq(c->deliver(c, 0, m, 1000), 0);
	}
	h_run(&h, RUN_END_PS);
	ck_assert_uint_eq(h_stats(&h, 1).transport.malformed_frames, 2);
	ck_assert_uint_eq(h_stats(&h, 1).other_frames, 1);
	h_fini(&h);
}
END_TEST

static unsigned int csv_rows(const char *dir, const char *file)
{
	char path[512], line[1024];
	unsigned int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f) != NULL)
		n++;
	fclose(f);
	return n - 1; /* the header */
}

/* uet-transport-stats.csv rows of the NIC whose address is ip, as the
 * file's second column writes it. */
static unsigned int stats_rows_of(const char *dir, uint32_t ip)
{
	char path[512], line[1024], nic[32];
	unsigned int n = 0;
	FILE *f;

	snprintf(nic, sizeof(nic), ",%u.%u.%u.%u,", ip >> 24, (ip >> 16) & 255,
		 (ip >> 8) & 255, ip & 255);
	snprintf(path, sizeof(path), "%s/uet-transport-stats.csv", dir);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, nic) != NULL)
			n++;
	fclose(f);
	return n;
}

/* Records: every PDC and message event, one monitor row per packet sent
 * or received, one flow row with the receiver's arrival time, and stats
 * rows of both NICs (the receiver's start at its first arrival). */
START_TEST(test_records_events_monitor_flows)
{
	char dir[] = "/tmp/uet_nic_rec_XXXXXX";
	struct uet_record_conf rc = {
		.out_dir = dir,
		.transport_stats = true,
		.stats_interval_ps = 1000000,
		.events = true,
		.monitor = true,
		.flows = true,
	};
	struct h h;
	char line[1024], path[600];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	h_init(&h);
	h.sc.records.enable_uet_monitor = true;
	ck_assert_int_eq(uet_record_open(&h.rec, &rc), 0);
	ck_assert_int_eq(uet_ses_arrivals_create(&h.arrivals, 16), 0);
	run_one_message(&h, 4096);
	ck_assert_int_eq(uet_record_close(h.rec), 0);
	/* NIC 0: posted, PDC created, sent, completed, PDC closed; NIC 1:
	 * PDC created, arrived, PDC closed (on the CLOSE). */
	ck_assert_uint_eq(csv_rows(dir, "uet-events.csv"), 8);
	/* data, probe, CLOSE, ACK, probe ACK each seen at both ends, but
	 * the CLOSE's reception has no row. */
	ck_assert_uint_eq(csv_rows(dir, "uet-monitor.csv"), 9);
	ck_assert_uint_eq(csv_rows(dir, "flows.csv"), 1);
	ck_assert_uint_gt(stats_rows_of(dir, h_ip(0)), 0);
	ck_assert_uint_gt(stats_rows_of(dir, h_ip(1)), 0);
	snprintf(path, sizeof(path), "%s/flows.csv", dir);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	fclose(f);
	ck_assert_uint_ne(uet_ses_arrivals_get(h.arrivals, 7), UET_TIME_NEVER);
	uet_ses_arrivals_free(h.arrivals);
	h_fini(&h);
}
END_TEST

/* A lost CLOSE leaves the receiver's side of a PDC lingering (up to 4 x the
 * longest timeout) while the sender reuses the closed PDC number at once
 * for its next message to the same peer. The new PDC's SYN packets carry
 * the same (IPv4, PDC number) but a new start PSN: they must open a new
 * receiving side, not land on the old one, whose ACKs come from the old
 * PSN space and which every such packet would keep alive. */
static void reused_pdc_number(struct h *h, uint64_t bytes2)
{
	h->drop_close = true;
	h_start(h);
	ck_assert_int_eq(
		uet_nic_post_message(h->nic[0], h_ip(1), 4 * 4096, 0, 1), 0);
	ck_assert_int_eq(uet_nic_post_message(h->nic[0], h_ip(1), bytes2,
					      50 * UET_PS_PER_US, 2),
			 0);
}

static void reused_pdc_number_check(struct h *h)
{
	const struct h_frame *first, *last;

	/* Bounded: before the fix the second message never completed and
	 * its timers ran for ever. */
	h_run(h, 50 * UET_PS_PER_MS);
	first = h_nth_frame(h, 0, H_DATA, 0);
	last = h_nth_frame(h, 0, H_DATA, 4);
	ck_assert_uint_eq(h->count[0][H_CLOSE], 2);
	/* Both messages used PDC number 1 at the sender. */
	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_nonnull(last);
	ck_assert_uint_eq(first->spdcid, last->spdcid);
	ck_assert_uint_eq(h->completed[0], 2);
	ck_assert_uint_eq(h->arrived[1], 2);
	/* Two receiving sides, both closed by their linger timers. */
	ck_assert_uint_eq(h_stats(h, 1).transport.pdcs_created, 2);
	ck_assert_uint_eq(h_stats(h, 1).transport.pdcs_open, 0);
	ck_assert_uint_eq(h_stats(h, 0).transport.pdcs_open, 0);
	h_check_invariants(h);
}

START_TEST(test_lost_close_reused_pdc_number_opens_new_side)
{
	struct h h;

	h_init(&h);
	reused_pdc_number(&h, 4 * 4096);
	reused_pdc_number_check(&h);
	h_fini(&h);
}
END_TEST

/* The old receiving side still ACKs a late duplicate of the old PDC's
 * first packet; that ACK reaches the sender's reused PDC number while the
 * new PDC is still in SYN. It names the old side and carries a cumulative
 * ACK of the old PSN space: the new PDC must not take the old side as its
 * peer, or every later packet would go there and never be ACKed. */
START_TEST(test_late_duplicate_ack_of_reused_pdc_number_ignored)
{
	struct h h;

	h_init(&h);
	h.keep = true;
	h.keep_data = 0;
	/* Long enough that most of it leaves after the stray ACK. */
	reused_pdc_number(&h, 64 * 4096);
	h_run(&h, 50 * UET_PS_PER_US);
	ck_assert_ptr_nonnull(h.kept);
	h_deliver(&h, 1, h.kept, 50 * UET_PS_PER_US + 100000);
	h.kept = NULL;
	reused_pdc_number_check(&h);
	ck_assert_uint_eq(h_stats(&h, 1).transport.duplicates_received, 1);
	h_fini(&h);
}
END_TEST

static Suite *nic_suite(void)
{
	Suite *s = suite_create("nic");
	TCase *tc = tcase_create("data path");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_fetch_serialization_worked_example);
	tcase_add_test(tc, test_ack_hold_66_4ns_reports_service_time_0);
	tcase_add_test(tc, test_ack_cadence_defaults_256_acks);
	tcase_add_test(tc, test_ack_cadence_n4_first_last_65_acks);
	tcase_add_test(tc, test_ack_cadence_n4_nth_only_64_acks);
	tcase_add_test(tc,
		       test_ack_cadence_unflagged_tail_acked_at_last_packet);
	tcase_add_test(tc, test_ack_late_packet_after_last_acknowledged);
	tcase_add_test(tc, test_segmentation_sizes);
	tcase_add_test(tc, test_one_mib_every_byte_verified);
	tcase_add_test(tc, test_messages_in_flight_groups_on);
	tcase_add_test(tc, test_messages_in_flight_groups_off);
	tcase_add_test(tc, test_dropped_data_recovered_by_rto);
	tcase_add_test(tc, test_rto_backoff_doubles);
	tcase_add_test(tc, test_trimmed_packet_nacked_and_retransmitted);
	tcase_add_test(tc, test_trimmed_last_hop_nack_code);
	tcase_add_test(tc, test_lost_ack_recovered);
	tcase_add_test(tc, test_prefetch_buffer_on);
	tcase_add_test(tc, test_egress_pool_full_stops_and_resumes);
	tcase_add_test(tc, test_malformed_frames_counted_and_dropped);
	tcase_add_test(tc, test_records_events_monitor_flows);
	tcase_add_test(tc, test_lost_close_reused_pdc_number_opens_new_side);
	tcase_add_test(tc,
		       test_late_duplicate_ack_of_reused_pdc_number_ignored);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_suite)
