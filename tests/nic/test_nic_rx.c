/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic on real frames between two NICs (nic_harness.c).
 * The receive path and the PDCs' lives (nic_rx.c, nic_pdc.c,
 * nic_record.c): malformed frames counted and dropped, the records of a
 * message, a lost CLOSE with the PDC number reused, a late duplicate ACK.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "check_main.h"
#include "nic_harness.h"
#include "uet_wire.h"

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

/* A lost CLOSE leaves the receiver's side of a PDC lingering (up to 4 x the
 * longest timeout) while the sender reuses the closed PDC number at once
 * for its next message to the same peer. The new PDC's SYN packets carry
 * the same (IPv4, PDC number) but a new start PSN: they must open a new
 * receiving side, not land on the old one, whose ACKs come from the old
 * PSN space and which every such packet would keep alive. */
static void reused_pdc_number(struct nic_pair *pair, uint64_t bytes2)
{
	pair->drop_close = true;
	h_start(pair);
	ck_assert_int_eq(
		uet_nic_post_message(pair->nic[0], h_ip(1), 4 * 4096, 0, 1), 0);
	ck_assert_int_eq(uet_nic_post_message(pair->nic[0], h_ip(1), bytes2,
					      50 * UET_PS_PER_US, 2),
			 0);
}

static void reused_pdc_number_check(struct nic_pair *pair)
{
	const struct h_frame *first, *last;

	/* Bounded: before the fix the second message never completed and
	 * its timers ran for ever. */
	h_run(pair, 50 * UET_PS_PER_MS);
	first = h_nth_frame(pair, 0, H_DATA, 0);
	last = h_nth_frame(pair, 0, H_DATA, 4);
	ck_assert_uint_eq(pair->count[0][H_CLOSE], 2);
	/* Both messages used PDC number 1 at the sender. */
	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_nonnull(last);
	ck_assert_uint_eq(first->spdcid, last->spdcid);
	ck_assert_uint_eq(pair->completed[0], 2);
	ck_assert_uint_eq(pair->arrived[1], 2);
	/* Two receiving sides, both closed by their linger timers. */
	ck_assert_uint_eq(h_stats(pair, 1).transport.pdcs_created, 2);
	ck_assert_uint_eq(h_stats(pair, 1).transport.pdcs_open, 0);
	ck_assert_uint_eq(h_stats(pair, 0).transport.pdcs_open, 0);
	h_check_invariants(pair);
}

START_TEST(test_malformed_frames_counted_and_dropped)
{
	struct nic_pair pair;
	struct uet_component *c;
	struct rte_mbuf *m;
	uint8_t *d;
	int i;

	h_init(&pair);
	h_start(&pair);
	c = uet_nic_component(pair.nic[1]);
	for (i = 0; i < 3; i++) {
		m = rte_pktmbuf_alloc(pair.mp);
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
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.malformed_frames, 2);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.other_frames, 1);
	h_fini(&pair);
}
END_TEST

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
	struct nic_pair pair;
	char line[1024], path[600];
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	h_init(&pair);
	ck_assert_int_eq(uet_record_open(&pair.rec, &rc), 0);
	ck_assert_int_eq(uet_ses_arrivals_create(&pair.arrivals, 16), 0);
	h_run_one_message(&pair, 4096);
	ck_assert_int_eq(uet_record_close(pair.rec), 0);
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
	ck_assert_uint_ne(uet_ses_arrivals_get(pair.arrivals, 7),
			  UET_TIME_NEVER);
	uet_ses_arrivals_free(pair.arrivals);
	h_fini(&pair);
}
END_TEST

START_TEST(test_lost_close_reused_pdc_number_opens_new_side)
{
	struct nic_pair pair;

	h_init(&pair);
	reused_pdc_number(&pair, 4 * 4096);
	reused_pdc_number_check(&pair);
	h_fini(&pair);
}
END_TEST

/* The old receiving side still ACKs a late duplicate of the old PDC's
 * first packet; that ACK reaches the sender's reused PDC number while the
 * new PDC is still in SYN. It names the old side and carries a cumulative
 * ACK of the old PSN space: the new PDC must not take the old side as its
 * peer, or every later packet would go there and never be ACKed. */
START_TEST(test_late_duplicate_ack_of_reused_pdc_number_ignored)
{
	struct nic_pair pair;

	h_init(&pair);
	pair.keep = true;
	pair.keep_data = 0;
	/* Long enough that most of it leaves after the stray ACK. */
	reused_pdc_number(&pair, 64 * 4096);
	h_run(&pair, 50 * UET_PS_PER_US);
	ck_assert_ptr_nonnull(pair.kept);
	h_deliver(&pair, 1, pair.kept, 50 * UET_PS_PER_US + 100000);
	pair.kept = NULL;
	reused_pdc_number_check(&pair);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.duplicates_received, 1);
	h_fini(&pair);
}
END_TEST

/* A retransmission with SYN that arrives after the CLOSE (the CLOSE, a
 * control frame, overtook it in a switch): it gets an ACK from the closed
 * side's memory, and opens no new side that would deliver the message a
 * second time. */
START_TEST(test_syn_duplicate_after_close_acked_not_delivered)
{
	struct nic_pair pair;
	struct uet_nic_stats rx;

	h_init(&pair);
	pair.keep = true;
	pair.keep_data = 0;
	h_run_one_message(&pair, 4096);
	ck_assert_uint_eq(pair.count[0][H_CLOSE], 1);
	ck_assert_ptr_nonnull(pair.kept);
	h_deliver(&pair, 1, pair.kept,
		  pair.last_completed_ps + 10 * UET_PS_PER_US);
	pair.kept = NULL;
	h_run(&pair, 50 * UET_PS_PER_MS);
	rx = h_stats(&pair, 1);
	ck_assert_uint_eq(pair.arrived[1], 1);
	ck_assert_uint_eq(rx.transport.pdcs_created, 1);
	ck_assert_uint_eq(rx.closed_side_acks, 1);
	ck_assert_uint_eq(rx.transport.duplicates_received, 1);
	h_fini(&pair);
}
END_TEST

static Suite *nic_rx_suite(void)
{
	Suite *s = suite_create("nic_rx");
	TCase *tc = tcase_create("rx");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_malformed_frames_counted_and_dropped);
	tcase_add_test(tc, test_records_events_monitor_flows);
	tcase_add_test(tc, test_lost_close_reused_pdc_number_opens_new_side);
	tcase_add_test(tc,
		       test_late_duplicate_ack_of_reused_pdc_number_ignored);
	tcase_add_test(tc, test_syn_duplicate_after_close_acked_not_delivered);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_rx_suite)
