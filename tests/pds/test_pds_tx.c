/* SPDX-License-Identifier: BSD-3-Clause */
/* Sending side of a PDC: retire by ACK and SACK, NACK, timeout, retransmit. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_pds.h"

#define FULL_BYTES 4096u
#define NOMINAL_BYTES (FULL_BYTES + 88u)

/* What the retire callback saw. */
struct retired_log {
	unsigned n;
	uint32_t psn[256];
	bool rtt_valid[256];
};

static void log_retired(void *ctx, uint32_t psn,
			const struct uet_pds_tx_packet *pkt,
			bool rtt_sample_valid)
{
	struct retired_log *log = ctx;

	ck_assert_uint_eq(pkt->state, UET_PDS_TX_RETIRED);
	ck_assert_uint_lt(log->n, 256);
	log->psn[log->n] = psn;
	log->rtt_valid[log->n] = rtt_sample_valid;
	log->n++;
}

static void tx_new(struct uet_pds_tx *tx, uint32_t start)
{
	struct uet_pds_params p = {
		.ack_request_every_nth = 1,
		.initial_rto_ps = 20000000,
		.max_rto_backoff_count = 3,
	};

	ck_assert_int_eq(uet_pds_tx_init(tx, &p, start, 0), 0);
}

static uint32_t take(struct uet_pds_tx *tx, uint32_t payload_bytes)
{
	struct uet_pds_tx_segment seg = {
		.payload_bytes = payload_bytes,
		.msg_offset_bytes = (uint64_t)tx->stats.psns_taken * FULL_BYTES,
		.msg_tag = 42,
	};
	uint32_t psn;

	ck_assert_int_eq(uet_pds_tx_take_psn(tx, &seg, &psn), 0);
	return psn;
}

static void send(struct uet_pds_tx *tx, uint32_t psn, uint16_t entropy,
		 uet_time_t now)
{
	bool ar;

	ck_assert_int_eq(uet_pds_tx_transmit(tx, psn, entropy, now, &ar), 0);
}

/* Take and send n full packets; returns the first PSN. */
static uint32_t send_n(struct uet_pds_tx *tx, unsigned n)
{
	uint32_t first = tx->next_psn;
	unsigned i;

	for (i = 0; i < n; i++)
		send(tx, take(tx, FULL_BYTES), (uint16_t)i, 1000 * i);
	return first;
}

static int ack(struct uet_pds_tx *tx, uint32_t cack, int16_t offset,
	       uint64_t bitmap, struct retired_log *log,
	       struct uet_pds_tx_ack_result *res)
{
	struct uet_pds_ack_info a = {
		.cack_psn = cack,
		.sack_psn_offset = offset,
		.sack_bitmap = bitmap,
	};

	return uet_pds_tx_ack(tx, &a, log != NULL ? log_retired : NULL, log,
			      res);
}

START_TEST(test_tx_take_psn_records_segment)
{
	struct uet_pds_tx tx;
	const struct uet_pds_tx_packet *pkt;
	uint32_t psn;

	tx_new(&tx, 77);
	psn = take(&tx, 100);
	ck_assert_uint_eq(psn, 77);
	ck_assert_uint_eq(take(&tx, 0), 78);
	pkt = uet_pds_tx_packet(&tx, 77);
	ck_assert_ptr_nonnull(pkt);
	ck_assert_uint_eq(pkt->state, UET_PDS_TX_QUEUED);
	ck_assert_uint_eq(pkt->payload_bytes, 100);
	ck_assert_uint_eq(pkt->nominal_bytes, 188);
	ck_assert_uint_eq(pkt->transmit_count, 0);
	ck_assert_uint_eq(pkt->msg_tag, 42);
	/* An empty message's packet is 88 nominal bytes. */
	ck_assert_uint_eq(uet_pds_tx_packet(&tx, 78)->nominal_bytes, 88);
	/* Taken but not sent: nothing in flight. */
	ck_assert_uint_eq(tx.in_flight_bytes, 0);
	ck_assert_ptr_null(uet_pds_tx_packet(&tx, 79));
	ck_assert_ptr_null(uet_pds_tx_packet(&tx, 76));
	ck_assert_uint_eq(uet_pds_tx_outstanding(&tx), 2);

	send(&tx, 77, 0xbeef, 5000);
	pkt = uet_pds_tx_packet(&tx, 77);
	ck_assert_uint_eq(pkt->state, UET_PDS_TX_IN_FLIGHT);
	ck_assert_uint_eq(pkt->transmit_count, 1);
	ck_assert_uint_eq(pkt->entropy, 0xbeef);
	ck_assert_uint_eq(pkt->sent_ps, 5000);
	ck_assert_uint_eq(tx.in_flight_bytes, 188);
	/* Serialization ends later: the send time moves there. */
	ck_assert_int_eq(uet_pds_tx_sent(&tx, 77, 9000), 0);
	ck_assert_uint_eq(uet_pds_tx_packet(&tx, 77)->sent_ps, 9000);
	ck_assert_int_eq(uet_pds_tx_sent(&tx, 78, 9000), -ENOENT);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_transmit_rejects_wrong_state)
{
	struct uet_pds_tx tx;
	bool ar;

	tx_new(&tx, 0);
	send_n(&tx, 1);
	/* Already in flight. */
	ck_assert_int_eq(uet_pds_tx_transmit(&tx, 0, 0, 0, &ar), -EINVAL);
	/* Never taken. */
	ck_assert_int_eq(uet_pds_tx_transmit(&tx, 1, 0, 0, &ar), -ENOENT);
	ck_assert_uint_eq(tx.stats.packets_sent, 1);
	ck_assert_uint_eq(tx.in_flight_bytes, NOMINAL_BYTES);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_cumulative_ack_retires_at_or_below)
{
	struct uet_pds_tx tx;
	struct uet_pds_tx_ack_result res;
	struct retired_log log = {0};

	tx_new(&tx, 1000);
	send_n(&tx, 4);
	ck_assert_uint_eq(tx.in_flight_bytes, 4 * NOMINAL_BYTES);
	ck_assert_int_eq(ack(&tx, 1001, 1, 0, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 2);
	ck_assert_uint_eq(res.rtt_samples, 2);
	ck_assert_uint_eq(res.retired_bytes, 2 * NOMINAL_BYTES);
	ck_assert_uint_eq(res.retired_in_flight_bytes, 2 * NOMINAL_BYTES);
	ck_assert_uint_eq(log.n, 2);
	ck_assert_uint_eq(log.psn[0], 1000);
	ck_assert_uint_eq(log.psn[1], 1001);
	ck_assert(log.rtt_valid[0] && log.rtt_valid[1]);
	ck_assert_uint_eq(tx.in_flight_bytes, 2 * NOMINAL_BYTES);
	ck_assert_uint_eq(tx.base_psn, 1002);
	ck_assert_ptr_null(uet_pds_tx_packet(&tx, 1001));

	/* The same ACK again: nothing more, harmless. */
	ck_assert_int_eq(ack(&tx, 1001, 1, 0, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 0);
	/* A late ACK from before: counted as stale, harmless. */
	ck_assert_int_eq(ack(&tx, 1000, 1, 0, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 0);
	ck_assert_uint_eq(tx.stats.stale_acks, 1);
	ck_assert_uint_eq(tx.in_flight_bytes, 2 * NOMINAL_BYTES);

	ck_assert_int_eq(ack(&tx, 1003, 1, 0, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 2);
	ck_assert_uint_eq(tx.in_flight_bytes, 0);
	ck_assert_uint_eq(tx.stats.retired, 4);
	ck_assert_uint_eq(uet_pds_tx_outstanding(&tx), 0);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_sack_retires_listed_psns)
{
	struct uet_pds_tx tx;
	struct uet_pds_tx_ack_result res;
	struct retired_log log = {0};

	tx_new(&tx, 0);
	send_n(&tx, 8);
	/* Nothing cumulative (cack = start - 1); SACK base 0: bits 2, 3, 6. */
	ck_assert_int_eq(ack(&tx, UINT32_MAX, 1, 0x4c, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 3);
	ck_assert_uint_eq(log.psn[0], 2);
	ck_assert_uint_eq(log.psn[1], 3);
	ck_assert_uint_eq(log.psn[2], 6);
	ck_assert_uint_eq(tx.in_flight_bytes, 5 * NOMINAL_BYTES);
	/* The window does not move past an unacknowledged PSN 0. */
	ck_assert_uint_eq(tx.base_psn, 0);
	ck_assert_uint_eq(uet_pds_tx_packet(&tx, 3)->state, UET_PDS_TX_RETIRED);

	/* cack 1 plus a SACK repeating 2, 3 and adding 4: PSNs 0, 1, 4. */
	ck_assert_int_eq(ack(&tx, 1, 1, 0x7, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 3);
	ck_assert_uint_eq(log.psn[3], 0);
	ck_assert_uint_eq(log.psn[4], 1);
	ck_assert_uint_eq(log.psn[5], 4);
	/* 0..4 retired: the window starts at 5. */
	ck_assert_uint_eq(tx.base_psn, 5);
	/* A cumulative ACK over PSNs a SACK already retired retires them
	 * no second time. */
	ck_assert_int_eq(ack(&tx, 7, 1, 0, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 2);
	ck_assert_uint_eq(tx.stats.retired, 8);
	ck_assert_uint_eq(tx.stats.retired, tx.stats.psns_taken);
	ck_assert_uint_eq(tx.in_flight_bytes, 0);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_ack_out_of_range_ignored)
{
	struct uet_pds_tx tx;
	struct uet_pds_tx_ack_result res;
	struct retired_log log = {0};

	tx_new(&tx, 500);
	send_n(&tx, 4);
	/* Beyond every PSN sent: the whole ACK, SACK included, is dropped. */
	ck_assert_int_eq(ack(&tx, 504, 1, UINT64_MAX, &log, &res), -ERANGE);
	ck_assert_int_eq(ack(&tx, 500 + 0x40000000u, 1, 0, &log, &res),
			 -ERANGE);
	ck_assert_uint_eq(res.retired_packets, 0);
	ck_assert_uint_eq(tx.stats.acks_out_of_range, 2);
	ck_assert_uint_eq(tx.in_flight_bytes, 4 * NOMINAL_BYTES);
	/* SACK bits beyond the sent PSNs are counted, the rest retire. */
	ck_assert_int_eq(ack(&tx, 499, 1, 0xff0, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 0);
	ck_assert_uint_eq(tx.stats.sack_bits_out_of_range, 8);
	ck_assert_int_eq(ack(&tx, 499, 1, 0x1f, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 4);
	ck_assert_uint_eq(tx.stats.sack_bits_out_of_range, 9);
	/* Taken but never sent: an ACK cannot retire it. */
	take(&tx, FULL_BYTES);
	ck_assert_int_eq(ack(&tx, 504, 1, 0, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 0);
	ck_assert_uint_eq(tx.stats.ack_of_unsent, 1);
	ck_assert_uint_eq(uet_pds_tx_packet(&tx, 504)->state,
			  UET_PDS_TX_QUEUED);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_nack_queues_retransmit_ahead)
{
	struct uet_pds_tx tx;
	const struct uet_pds_tx_packet *pkt;
	uint32_t psn;
	bool ar;

	tx_new(&tx, 10);
	send_n(&tx, 4);
	ck_assert_int_eq(uet_pds_tx_next_retransmit(&tx, &psn), -ENOENT);
	/* NACKs for 13 then 11: the FIFO keeps that order. */
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 13), 1);
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 11), 1);
	ck_assert_uint_eq(tx.in_flight_bytes, 2 * NOMINAL_BYTES);
	ck_assert_uint_eq(uet_pds_tx_packet(&tx, 13)->state,
			  UET_PDS_TX_QUEUED_RETRANSMIT);
	/* Already queued: ignored. */
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 13), 0);
	ck_assert_uint_eq(tx.stats.nacks_ignored, 1);
	ck_assert_uint_eq(tx.in_flight_bytes, 2 * NOMINAL_BYTES);

	ck_assert_int_eq(uet_pds_tx_next_retransmit(&tx, &psn), 0);
	ck_assert_uint_eq(psn, 13);
	/* Not the oldest waiting: refused. */
	ck_assert_int_eq(uet_pds_tx_transmit(&tx, 11, 7, 0, &ar), -EINVAL);
	send(&tx, 13, 0x1313, 70000);
	pkt = uet_pds_tx_packet(&tx, 13);
	ck_assert_uint_eq(pkt->state, UET_PDS_TX_IN_FLIGHT);
	ck_assert_uint_eq(pkt->transmit_count, 2);
	ck_assert_uint_eq(pkt->entropy, 0x1313);
	ck_assert_uint_eq(pkt->sent_ps, 70000);
	ck_assert_uint_eq(tx.in_flight_bytes, 3 * NOMINAL_BYTES);
	ck_assert_int_eq(uet_pds_tx_next_retransmit(&tx, &psn), 0);
	ck_assert_uint_eq(psn, 11);
	send(&tx, 11, 0x1111, 80000);
	ck_assert_int_eq(uet_pds_tx_next_retransmit(&tx, &psn), -ENOENT);
	ck_assert_uint_eq(tx.stats.retransmits, 2);
	ck_assert_uint_eq(tx.stats.packets_sent, 6);
	ck_assert_uint_eq(tx.stats.nacks_acted, 2);
	/* A packet can be NACKed again after its retransmission. */
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 13), 1);
	ck_assert_uint_eq(tx.stats.nacks_acted, 3);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_nack_not_outstanding_ignored)
{
	struct uet_pds_tx tx;
	struct retired_log log = {0};
	uint32_t psn;

	tx_new(&tx, 0);
	send_n(&tx, 3);
	ck_assert_int_eq(ack(&tx, 0, 1, 0x2, &log, NULL), 0);
	/* Retired by the cumulative ACK (below the window). */
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 0), 0);
	/* Retired by the SACK (inside the window). */
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 2), 0);
	ck_assert_uint_eq(tx.stats.nacks_ignored, 2);
	/* Never sent, or nowhere near the window. */
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 3), 0);
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 0x40000000u), 0);
	take(&tx, FULL_BYTES);
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 3), 0);
	ck_assert_uint_eq(tx.stats.nacks_out_of_range, 3);
	ck_assert_uint_eq(tx.stats.nacks_acted, 0);
	ck_assert_int_eq(uet_pds_tx_next_retransmit(&tx, &psn), -ENOENT);
	ck_assert_uint_eq(tx.in_flight_bytes, NOMINAL_BYTES);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_timeout_in_flight_queues_retransmit)
{
	struct uet_pds_tx tx;
	struct retired_log log = {0};
	uint32_t psn;

	tx_new(&tx, 0);
	send_n(&tx, 3);
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, 1, 1), 1);
	ck_assert_uint_eq(tx.in_flight_bytes, 2 * NOMINAL_BYTES);
	ck_assert_int_eq(uet_pds_tx_next_retransmit(&tx, &psn), 0);
	ck_assert_uint_eq(psn, 1);
	/* A NACK after the timeout queued it does nothing. */
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 1), 0);
	/* A second expiry while queued does nothing. */
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, 1, 1), 0);
	send(&tx, 1, 9, 100);
	/* The first transmission's timer firing late is stale. */
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, 1, 1), 0);
	ck_assert_uint_eq(uet_pds_tx_packet(&tx, 1)->state,
			  UET_PDS_TX_IN_FLIGHT);
	/* The second transmission's timer acts. */
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, 1, 2), 1);
	/* After an ACK, the timer does nothing. */
	ck_assert_int_eq(ack(&tx, 0, 1, 0, &log, NULL), 0);
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, 0, 1), 0);
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, 77, 1), 0);
	ck_assert_uint_eq(tx.stats.timeouts_acted, 2);
	ck_assert_uint_eq(tx.stats.timeouts_ignored, 4);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_ack_retires_queued_retransmit)
{
	struct uet_pds_tx tx;
	struct uet_pds_tx_ack_result res;
	struct retired_log log = {0};
	uint32_t psn;

	tx_new(&tx, 0);
	send_n(&tx, 3);
	/* Timeouts queue 0 and 2; then the late ACKs arrive for both. */
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, 0, 1), 1);
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, 2, 1), 1);
	ck_assert_uint_eq(tx.in_flight_bytes, NOMINAL_BYTES);
	ck_assert_int_eq(ack(&tx, 0, 2, 0x1, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 2);
	/* Their bytes had already left the in-flight count. */
	ck_assert_uint_eq(res.retired_in_flight_bytes, 0);
	ck_assert_uint_eq(res.retired_bytes, 2 * NOMINAL_BYTES);
	/* Sent once each: still valid RTT samples. */
	ck_assert_uint_eq(res.rtt_samples, 2);
	ck_assert_uint_eq(tx.in_flight_bytes, NOMINAL_BYTES);
	/* No retransmission is left to send. */
	ck_assert_int_eq(uet_pds_tx_next_retransmit(&tx, &psn), -ENOENT);
	ck_assert_uint_eq(tx.fifo_count, 0);
	uet_pds_tx_fini(&tx);
}
END_TEST

/* The peek names what uet_pds_tx_next_retransmit() would, leaving the
 * stale entries ahead of it (and the FIFO's length) alone; the FIFO itself
 * comes with the first retransmission, 8 slots. */
START_TEST(test_tx_peek_retransmit_leaves_stale_entries)
{
	struct uet_pds_tx tx;
	struct uet_pds_tx_ack_result res;
	uint32_t psn = 99;

	tx_new(&tx, 0);
	send_n(&tx, 3);
	ck_assert_ptr_null(tx.retransmit_fifo);
	ck_assert_int_eq(uet_pds_tx_peek_retransmit(&tx, &psn), -ENOENT);
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, 0, 1), 1);
	ck_assert_uint_eq(tx.fifo_capacity, 8);
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, 2, 1), 1);
	/* PSN 0 is acknowledged: its entry is stale, PSN 2 is next. */
	ck_assert_int_eq(ack(&tx, 0, 0, 0, NULL, &res), 0);
	ck_assert_int_eq(uet_pds_tx_peek_retransmit(&tx, &psn), 0);
	ck_assert_uint_eq(psn, 2);
	ck_assert_uint_eq(uet_pds_tx_fifo_len(&tx), 2);
	ck_assert_int_eq(uet_pds_tx_next_retransmit(&tx, &psn), 0);
	ck_assert_uint_eq(psn, 2);
	ck_assert_uint_eq(uet_pds_tx_fifo_len(&tx), 1);
	/* PSN 2 acknowledged too: only a stale entry is left, which the
	 * peek does not drop and the next call does. */
	ck_assert_int_eq(ack(&tx, 2, 0, 0, NULL, &res), 0);
	ck_assert_int_eq(uet_pds_tx_peek_retransmit(&tx, &psn), -ENOENT);
	ck_assert_uint_eq(uet_pds_tx_fifo_len(&tx), 1);
	ck_assert_int_eq(uet_pds_tx_next_retransmit(&tx, &psn), -ENOENT);
	ck_assert_uint_eq(uet_pds_tx_fifo_len(&tx), 0);
	uet_pds_tx_fini(&tx);
}
END_TEST

/* The records start at the slots asked for, rounded up to a power of
 * two (a one-packet message takes one). */
START_TEST(test_tx_init_sizes_for_the_packets_asked)
{
	struct uet_pds_params p = {
		.ack_request_every_nth = 1,
		.initial_rto_ps = 20000000,
	};
	struct uet_pds_tx tx;

	ck_assert_int_eq(uet_pds_tx_init(&tx, &p, 5, 1), 0);
	ck_assert_uint_eq(tx.capacity, 1);
	uet_pds_tx_fini(&tx);
	ck_assert_int_eq(uet_pds_tx_init(&tx, &p, 5, 3), 0);
	ck_assert_uint_eq(tx.capacity, 4);
	uet_pds_tx_fini(&tx);
	ck_assert_int_eq(uet_pds_tx_init(&tx, &p, 5, 64), 0);
	ck_assert_uint_eq(tx.capacity, 64);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_rtt_sample_only_when_sent_once)
{
	struct uet_pds_tx tx;
	struct uet_pds_tx_ack_result res;
	struct retired_log log = {0};

	tx_new(&tx, 0);
	send_n(&tx, 2);
	ck_assert_int_eq(uet_pds_tx_nack(&tx, 1), 1);
	send(&tx, 1, 5, 50);
	ck_assert_int_eq(ack(&tx, 1, 1, 0, &log, &res), 0);
	ck_assert_uint_eq(res.retired_packets, 2);
	ck_assert_uint_eq(res.rtt_samples, 1);
	ck_assert(log.rtt_valid[0]);
	ck_assert(!log.rtt_valid[1]);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_in_flight_never_negative)
{
	struct uet_pds_tx tx;
	struct uet_pds_tx_ack_result res;
	struct retired_log log = {0};

	tx_new(&tx, 0);
	send_n(&tx, 2);
	/* Corrupt the count to exercise the guard: the retire clamps to
	 * zero and counts the anomaly instead of wrapping. */
	tx.in_flight_bytes = 100;
	ck_assert_int_eq(ack(&tx, 1, 1, 0, &log, &res), 0);
	ck_assert_uint_eq(tx.in_flight_bytes, 0);
	ck_assert_uint_eq(res.retired_in_flight_bytes, 100);
	ck_assert_uint_eq(tx.stats.in_flight_underflows, 2);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_window_grows_and_wraps)
{
	struct uet_pds_tx tx;
	struct uet_pds_tx_ack_result res;
	struct retired_log log = {0};
	uint32_t start = 0xffffff00u;
	unsigned i;

	tx_new(&tx, start);
	ck_assert_uint_eq(tx.capacity, 1);
	ck_assert_uint_eq(tx.fifo_capacity, 0);
	send_n(&tx, 1000);
	ck_assert_uint_eq(tx.capacity, 1024);
	for (i = 0; i < 1000; i++) {
		const struct uet_pds_tx_packet *pkt =
			uet_pds_tx_packet(&tx, start + i);

		ck_assert_ptr_nonnull(pkt);
		ck_assert_uint_eq(pkt->msg_offset_bytes,
				  (uint64_t)i * FULL_BYTES);
		ck_assert_uint_eq(pkt->entropy, (uint16_t)i);
	}
	ck_assert_uint_eq(tx.in_flight_bytes, 1000ull * NOMINAL_BYTES);
	/* One cumulative ACK across the 2^32 wrap. */
	ck_assert_int_eq(ack(&tx, start + 999, 1, 0, NULL, &res), 0);
	ck_assert_uint_eq(log.n, 0);
	ck_assert_uint_eq(res.retired_packets, 1000);
	ck_assert_uint_eq(tx.base_psn, start + 1000);
	ck_assert_uint_eq(tx.in_flight_bytes, 0);
	uet_pds_tx_fini(&tx);
}
END_TEST

/* A small deterministic generator for the loss pattern. */
static uint32_t next_rand(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*state >> 33);
}

START_TEST(test_tx_every_psn_retired_exactly_once)
{
	struct uet_pds_tx tx;
	struct uet_pds_rx rx;
	uint64_t seed = 12345;
	uint32_t start = 0xfffffe00u;
	uint32_t taken = 0;
	unsigned rounds = 0;

	/* A sender and a receiver over a lossy, trimming channel: packets
	 * are delivered, trimmed (NACK) or lost (timeout); ACKs are lost
	 * at random too. At the end every PSN is retired exactly once. */
	tx_new(&tx, start);
	ck_assert_int_eq(uet_pds_rx_init(&rx, start, 64), 0);
	while ((taken < 2000 || uet_pds_tx_outstanding(&tx) > 0) &&
	       rounds < 100000) {
		uint32_t psn;
		uint32_t r = next_rand(&seed) % 100;
		bool ar;

		rounds++;
		if (uet_pds_tx_next_retransmit(&tx, &psn) == 0) {
			/* Retransmissions go first. */
		} else if (taken < 2000 && uet_pds_tx_outstanding(&tx) < 300) {
			psn = take(&tx, FULL_BYTES);
			taken++;
		} else {
			/* Nothing to send: the oldest in-flight timer fires. */
			uint32_t p;

			for (p = tx.base_psn; p != tx.next_psn; p++) {
				const struct uet_pds_tx_packet *pkt =
					uet_pds_tx_packet(&tx, p);

				if (pkt->state == UET_PDS_TX_IN_FLIGHT) {
					uet_pds_tx_timeout(&tx, p,
							   pkt->transmit_count);
					break;
				}
			}
			continue;
		}
		ck_assert_int_eq(uet_pds_tx_transmit(&tx, psn, 0, 0, &ar), 0);
		if (r < 10) {
			ck_assert_int_eq(uet_pds_tx_nack(&tx, psn), 1);
		} else if (r < 15) {
			/* Lost: its timer recovers it. */
		} else {
			struct uet_pds_ack_info a;

			ck_assert_int_ge(uet_pds_rx_receive(&rx, psn), 0);
			uet_pds_rx_ack(&rx, &a);
			if (next_rand(&seed) % 4 != 0)
				ck_assert_int_eq(uet_pds_tx_ack(&tx, &a, NULL,
								NULL, NULL),
						 0);
		}
	}
	ck_assert_uint_eq(uet_pds_tx_outstanding(&tx), 0);
	ck_assert_uint_eq(tx.stats.psns_taken, 2000);
	ck_assert_uint_eq(tx.stats.retired, tx.stats.psns_taken);
	ck_assert_uint_eq(tx.in_flight_bytes, 0);
	ck_assert_uint_eq(tx.stats.in_flight_underflows, 0);
	ck_assert_uint_eq(tx.stats.acks_out_of_range, 0);
	ck_assert_uint_gt(tx.stats.retransmits, 0);
	ck_assert_uint_gt(tx.stats.timeouts_acted, 0);
	ck_assert_uint_eq(rx.stats.new_packets, 2000);
	ck_assert_uint_eq(uet_pds_rx_cack_psn(&rx), start + 1999);
	uet_pds_rx_fini(&rx);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_tx_init_rejects_bad_params)
{
	struct uet_pds_params p = {.ack_request_every_nth = 0,
				   .initial_rto_ps = 1};
	struct uet_pds_tx tx;

	ck_assert_int_eq(uet_pds_tx_init(&tx, &p, 0, 0), -EINVAL);
	uet_pds_tx_fini(&tx);
}
END_TEST

static Suite *pds_tx_suite(void)
{
	Suite *s = suite_create("pds_tx");
	TCase *tc = tcase_create("tx");

	tcase_add_test(tc, test_tx_take_psn_records_segment);
	tcase_add_test(tc, test_tx_transmit_rejects_wrong_state);
	tcase_add_test(tc, test_tx_cumulative_ack_retires_at_or_below);
	tcase_add_test(tc, test_tx_sack_retires_listed_psns);
	tcase_add_test(tc, test_tx_ack_out_of_range_ignored);
	tcase_add_test(tc, test_tx_nack_queues_retransmit_ahead);
	tcase_add_test(tc, test_tx_nack_not_outstanding_ignored);
	tcase_add_test(tc, test_tx_timeout_in_flight_queues_retransmit);
	tcase_add_test(tc, test_tx_ack_retires_queued_retransmit);
	tcase_add_test(tc, test_tx_peek_retransmit_leaves_stale_entries);
	tcase_add_test(tc, test_tx_init_sizes_for_the_packets_asked);
	tcase_add_test(tc, test_tx_rtt_sample_only_when_sent_once);
	tcase_add_test(tc, test_tx_in_flight_never_negative);
	tcase_add_test(tc, test_tx_window_grows_and_wraps);
	tcase_add_test(tc, test_tx_every_psn_retired_exactly_once);
	tcase_add_test(tc, test_tx_init_rejects_bad_params);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(pds_tx_suite)
