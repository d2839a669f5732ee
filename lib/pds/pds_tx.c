/* SPDX-License-Identifier: BSD-3-Clause */
/* Sending side of a PDC: outstanding packets, ACK, NACK, timeout. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_packet_sizes.h"
#include "uet_pds.h"

/* Slots of the retransmit FIFO at its first entry. */
#define TX_FIFO_FIRST 8u

static uint32_t tx_round_capacity(uint32_t capacity_packets)
{
	uint32_t cap = 1;

	while (cap < capacity_packets && cap < UET_PDS_TX_WINDOW_PSNS)
		cap <<= 1;
	return cap;
}

int uet_pds_tx_init(struct uet_pds_tx *tx, const struct uet_pds_params *params,
		    uint32_t start_psn, uint32_t capacity_packets)
{
	uint32_t cap = tx_round_capacity(capacity_packets);

	memset(tx, 0, sizeof(*tx));
	if (uet_pds_params_check(params) < 0)
		return -EINVAL;
	/* The retransmit FIFO comes with the first retransmission. */
	tx->packets = calloc(cap, sizeof(*tx->packets));
	if (tx->packets == NULL)
		return -ENOMEM;
	tx->params = *params;
	tx->capacity = cap;
	tx->base_psn = start_psn;
	tx->next_psn = start_psn;
	return 0;
}

void uet_pds_tx_fini(struct uet_pds_tx *tx)
{
	free(tx->packets);
	free(tx->retransmit_fifo);
	tx->packets = NULL;
	tx->retransmit_fifo = NULL;
	tx->capacity = 0;
	tx->fifo_capacity = 0;
	tx->fifo_count = 0;
}

/* Record of psn, or NULL if psn is not in [base_psn, next_psn). */
static struct uet_pds_tx_packet *tx_lookup(const struct uet_pds_tx *tx,
					   uint32_t psn)
{
	if (psn - tx->base_psn >= tx->next_psn - tx->base_psn)
		return NULL;
	return &tx->packets[psn & (tx->capacity - 1)];
}

const struct uet_pds_tx_packet *uet_pds_tx_packet(const struct uet_pds_tx *tx,
						  uint32_t psn)
{
	return tx_lookup(tx, psn);
}

/* Records are indexed by psn modulo the capacity: move the window's records
 * to their slots in an array twice as large. Rare and amortised. */
static int tx_grow(struct uet_pds_tx *tx)
{
	uint32_t cap = tx->capacity * 2;
	uint32_t n = tx->next_psn - tx->base_psn;
	struct uet_pds_tx_packet *packets;
	uint32_t i;

	packets = calloc(cap, sizeof(*packets));
	if (packets == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		uint32_t psn = tx->base_psn + i;

		packets[psn & (cap - 1)] =
			tx->packets[psn & (tx->capacity - 1)];
	}
	free(tx->packets);
	tx->packets = packets;
	tx->capacity = cap;
	return 0;
}

int uet_pds_tx_take_psn(struct uet_pds_tx *tx,
			const struct uet_pds_tx_segment *seg, uint32_t *psn)
{
	struct uet_pds_tx_packet *pkt;
	int ret;

	if (tx->next_psn - tx->base_psn >= tx->capacity) {
		if (tx->capacity >= UET_PDS_TX_WINDOW_PSNS)
			return -ENOSPC;
		ret = tx_grow(tx);
		if (ret < 0)
			return ret;
	}
	pkt = &tx->packets[tx->next_psn & (tx->capacity - 1)];
	memset(pkt, 0, sizeof(*pkt));
	pkt->payload_bytes = seg->payload_bytes;
	pkt->nominal_bytes = uet_data_ip_bytes(seg->payload_bytes);
	pkt->msg_offset_bytes = seg->msg_offset_bytes;
	pkt->msg_tag = seg->msg_tag;
	pkt->last_of_message = seg->last_of_message;
	pkt->state = UET_PDS_TX_QUEUED;
	*psn = tx->next_psn++;
	tx->stats.psns_taken++;
	return 0;
}

/* In-flight bytes never go negative: an underflow is a bug somewhere, so it
 * is counted for the records rather than asserted on. */
static uint64_t tx_leave_in_flight(struct uet_pds_tx *tx,
				   struct uet_pds_tx_packet *pkt)
{
	uint64_t bytes = pkt->nominal_bytes;

	if (tx->in_flight_bytes < bytes) {
		tx->stats.in_flight_underflows++;
		bytes = tx->in_flight_bytes;
	}
	tx->in_flight_bytes -= bytes;
	return bytes;
}

/* Drop FIFO entries whose packet is no longer waiting: an ACK can retire a
 * packet a timeout had queued, and its entry is left behind until here. */
static void tx_fifo_skip_stale(struct uet_pds_tx *tx)
{
	while (tx->fifo_count > 0) {
		uint32_t psn = tx->retransmit_fifo[tx->fifo_head];
		const struct uet_pds_tx_packet *pkt = tx_lookup(tx, psn);

		if (pkt != NULL && pkt->state == UET_PDS_TX_QUEUED_RETRANSMIT)
			return;
		tx->fifo_head = (tx->fifo_head + 1) & (tx->fifo_capacity - 1);
		tx->fifo_count--;
	}
}

static int tx_fifo_push(struct uet_pds_tx *tx, uint32_t psn)
{
	if (tx->fifo_count == tx->fifo_capacity) {
		uint32_t cap = tx->fifo_capacity != 0 ? tx->fifo_capacity * 2
						      : TX_FIFO_FIRST;
		uint32_t *fifo = calloc(cap, sizeof(*fifo));
		uint32_t i;

		if (fifo == NULL)
			return -ENOMEM;
		for (i = 0; i < tx->fifo_count; i++)
			fifo[i] = tx->retransmit_fifo[(tx->fifo_head + i) &
						      (tx->fifo_capacity - 1)];
		free(tx->retransmit_fifo);
		tx->retransmit_fifo = fifo;
		tx->fifo_capacity = cap;
		tx->fifo_head = 0;
	}
	tx->retransmit_fifo[(tx->fifo_head + tx->fifo_count) &
			    (tx->fifo_capacity - 1)] = psn;
	tx->fifo_count++;
	return 0;
}

int uet_pds_tx_next_retransmit(struct uet_pds_tx *tx, uint32_t *psn)
{
	tx_fifo_skip_stale(tx);
	if (tx->fifo_count == 0)
		return -ENOENT;
	*psn = tx->retransmit_fifo[tx->fifo_head];
	return 0;
}

int uet_pds_tx_peek_retransmit(const struct uet_pds_tx *tx, uint32_t *psn)
{
	uint32_t i;

	for (i = 0; i < tx->fifo_count; i++) {
		uint32_t p = tx->retransmit_fifo[(tx->fifo_head + i) &
						 (tx->fifo_capacity - 1)];
		const struct uet_pds_tx_packet *pkt = tx_lookup(tx, p);

		if (pkt != NULL && pkt->state == UET_PDS_TX_QUEUED_RETRANSMIT) {
			*psn = p;
			return 0;
		}
	}
	return -ENOENT;
}

int uet_pds_tx_transmit(struct uet_pds_tx *tx, uint32_t psn, uint16_t entropy,
			uet_time_t now_ps, bool *ack_request)
{
	struct uet_pds_tx_packet *pkt = tx_lookup(tx, psn);

	if (pkt == NULL)
		return -ENOENT;
	if (pkt->state == UET_PDS_TX_QUEUED_RETRANSMIT) {
		/* Retransmissions leave in FIFO order, oldest first. */
		tx_fifo_skip_stale(tx);
		if (tx->fifo_count == 0 ||
		    tx->retransmit_fifo[tx->fifo_head] != psn)
			return -EINVAL;
		tx->fifo_head = (tx->fifo_head + 1) & (tx->fifo_capacity - 1);
		tx->fifo_count--;
		tx->stats.retransmits++;
	} else if (pkt->state != UET_PDS_TX_QUEUED) {
		return -EINVAL;
	}
	/* Every data packet counts toward the ACK-request cadence,
	 * retransmissions included, and a retransmitted last packet is still
	 * the last packet of its message. */
	tx->stats.packets_sent++;
	*ack_request = uet_pds_ack_request(&tx->params, tx->stats.packets_sent,
					   pkt->last_of_message);
	pkt->transmit_count++;
	pkt->entropy = entropy;
	pkt->sent_ps = now_ps;
	pkt->state = UET_PDS_TX_IN_FLIGHT;
	tx->in_flight_bytes += pkt->nominal_bytes;
	return 0;
}

int uet_pds_tx_sent(struct uet_pds_tx *tx, uint32_t psn, uet_time_t now_ps)
{
	struct uet_pds_tx_packet *pkt = tx_lookup(tx, psn);

	if (pkt == NULL || pkt->state != UET_PDS_TX_IN_FLIGHT)
		return -ENOENT;
	pkt->sent_ps = now_ps;
	return 0;
}

/* Retire one sent packet (in flight or waiting for retransmission). */
static void tx_retire(struct uet_pds_tx *tx, uint32_t psn,
		      struct uet_pds_tx_packet *pkt,
		      uet_pds_tx_retire_fn retire, void *ctx,
		      struct uet_pds_tx_ack_result *res)
{
	bool rtt_valid = pkt->transmit_count == 1;

	if (pkt->state == UET_PDS_TX_IN_FLIGHT)
		res->retired_in_flight_bytes += tx_leave_in_flight(tx, pkt);
	pkt->state = UET_PDS_TX_RETIRED;
	res->retired_packets++;
	res->retired_bytes += pkt->nominal_bytes;
	if (rtt_valid)
		res->rtt_samples++;
	tx->stats.retired++;
	if (retire != NULL)
		retire(ctx, psn, pkt, rtt_valid);
}

/* Whether an ACK may retire this record. */
static bool tx_retirable(struct uet_pds_tx *tx,
			 const struct uet_pds_tx_packet *pkt)
{
	if (pkt->state == UET_PDS_TX_IN_FLIGHT ||
	    pkt->state == UET_PDS_TX_QUEUED_RETRANSMIT)
		return true;
	if (pkt->state == UET_PDS_TX_QUEUED)
		tx->stats.ack_of_unsent++;
	return false;
}

int uet_pds_tx_ack(struct uet_pds_tx *tx, const struct uet_pds_ack_info *ack,
		   uet_pds_tx_retire_fn retire, void *ctx,
		   struct uet_pds_tx_ack_result *result)
{
	struct uet_pds_tx_ack_result res = {0};
	uint32_t window = tx->next_psn - tx->base_psn;
	uint32_t base = uet_pds_sack_base_psn(ack);
	int32_t cack_ahead;
	uint64_t bits;
	uint32_t i;

	/* cack_ahead: PSNs the cumulative ACK covers from base_psn on. */
	cack_ahead = uet_pds_psn_diff(ack->cack_psn + 1, tx->base_psn);
	if (cack_ahead > 0 && (uint32_t)cack_ahead > window) {
		tx->stats.acks_out_of_range++;
		if (result != NULL)
			*result = res;
		return -ERANGE;
	}
	tx->stats.acks++;
	if (cack_ahead < 0)
		tx->stats.stale_acks++;

	for (i = 0; cack_ahead > 0 && i < (uint32_t)cack_ahead; i++) {
		uint32_t psn = tx->base_psn + i;
		struct uet_pds_tx_packet *pkt = tx_lookup(tx, psn);

		if (tx_retirable(tx, pkt))
			tx_retire(tx, psn, pkt, retire, ctx, &res);
	}

	/* The set bits only, lowest first: a test of each of the 64 bits
	 * was a branch on the receiver's gaps that the CPU mispredicted
	 * (2.8% of the 1,024-host run's mispredictions). */
	for (bits = ack->sack_bitmap; bits != 0; bits &= bits - 1) {
		uint32_t psn;
		struct uet_pds_tx_packet *pkt;

		i = (uint32_t)__builtin_ctzll(bits);
		psn = base + i;
		pkt = tx_lookup(tx, psn);
		if (pkt == NULL) {
			/* Below the window: retired long ago, harmless.
			 * Beyond it: never sent, an anomaly. */
			if (uet_pds_psn_diff(psn, tx->next_psn) >= 0)
				tx->stats.sack_bits_out_of_range++;
			continue;
		}
		if (tx_retirable(tx, pkt))
			tx_retire(tx, psn, pkt, retire, ctx, &res);
	}

	/* Slide the window past the retired records at its front. Each PSN
	 * is passed once, so this is O(1) per packet over the PDC's life. */
	while (tx->base_psn != tx->next_psn &&
	       tx->packets[tx->base_psn & (tx->capacity - 1)].state ==
		       UET_PDS_TX_RETIRED)
		tx->base_psn++;

	if (result != NULL)
		*result = res;
	return 0;
}

/* A NACK or an expiry for an in-flight packet: out of flight, queued. */
static int tx_queue_retransmit(struct uet_pds_tx *tx,
			       struct uet_pds_tx_packet *pkt, uint32_t psn)
{
	int ret = tx_fifo_push(tx, psn);

	if (ret < 0)
		return ret;
	tx_leave_in_flight(tx, pkt);
	pkt->state = UET_PDS_TX_QUEUED_RETRANSMIT;
	return 1;
}

int uet_pds_tx_nack(struct uet_pds_tx *tx, uint32_t psn)
{
	struct uet_pds_tx_packet *pkt = tx_lookup(tx, psn);

	if (pkt == NULL) {
		/* Below the window the packet has been retired: an ordinary
		 * late NACK. Anything else names a PSN never sent. */
		if (uet_pds_psn_diff(psn, tx->base_psn) < 0)
			tx->stats.nacks_ignored++;
		else
			tx->stats.nacks_out_of_range++;
		return 0;
	}
	if (pkt->state == UET_PDS_TX_QUEUED) {
		tx->stats.nacks_out_of_range++;
		return 0;
	}
	if (pkt->state != UET_PDS_TX_IN_FLIGHT) {
		tx->stats.nacks_ignored++;
		return 0;
	}
	if (tx_queue_retransmit(tx, pkt, psn) < 0) {
		/* No memory for the FIFO: leave the packet in flight; its
		 * timer recovers it. */
		tx->stats.nacks_ignored++;
		return 0;
	}
	tx->stats.nacks_acted++;
	return 1;
}

int uet_pds_tx_timeout(struct uet_pds_tx *tx, uint32_t psn,
		       uint32_t transmit_count)
{
	struct uet_pds_tx_packet *pkt = tx_lookup(tx, psn);

	if (pkt == NULL || pkt->state != UET_PDS_TX_IN_FLIGHT ||
	    pkt->transmit_count != transmit_count ||
	    tx_queue_retransmit(tx, pkt, psn) < 0) {
		tx->stats.timeouts_ignored++;
		return 0;
	}
	tx->stats.timeouts_acted++;
	return 1;
}
