/* SPDX-License-Identifier: BSD-3-Clause */
/* Receiving side of a PDC: order, duplicates, ACK and SACK contents. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_pds.h"

static uint32_t rx_round_capacity(uint32_t capacity_psns)
{
	uint32_t cap = UET_PDS_SACK_BITS;

	while (cap < capacity_psns && cap < UET_PDS_RX_WINDOW_PSNS)
		cap <<= 1;
	return cap;
}

static inline bool rx_bit_test(const uint64_t *bits, uint32_t mask,
			       uint32_t psn)
{
	uint32_t i = psn & mask;

	return (bits[i / 64] >> (i % 64)) & 1u;
}

static inline void rx_bit_set(uint64_t *bits, uint32_t mask, uint32_t psn)
{
	uint32_t i = psn & mask;

	bits[i / 64] |= UINT64_C(1) << (i % 64);
}

static inline void rx_bit_clear(uint64_t *bits, uint32_t mask, uint32_t psn)
{
	uint32_t i = psn & mask;

	bits[i / 64] &= ~(UINT64_C(1) << (i % 64));
}

int uet_pds_rx_init(struct uet_pds_rx *rx, uint32_t start_psn,
		    uint32_t capacity_psns)
{
	uint32_t cap = rx_round_capacity(capacity_psns);

	memset(rx, 0, sizeof(*rx));
	rx->received_bits = calloc(cap / 64, sizeof(uint64_t));
	if (rx->received_bits == NULL)
		return -ENOMEM;
	rx->capacity_psns = cap;
	rx->start_psn = start_psn;
	rx->next_expected_psn = start_psn;
	rx->highest_psn = start_psn - 1;
	return 0;
}

void uet_pds_rx_fini(struct uet_pds_rx *rx)
{
	free(rx->received_bits);
	rx->received_bits = NULL;
	rx->capacity_psns = 0;
}

/*
 * Make room for offset (psn - next expected). Bits are indexed by psn modulo
 * the capacity, so the recorded span moves to its new slots. Rare: the
 * capacity only grows, by doubling, up to UET_PDS_RX_WINDOW_PSNS.
 */
static int rx_grow(struct uet_pds_rx *rx, uint32_t offset)
{
	uint32_t old_mask = rx->capacity_psns - 1;
	uint32_t cap = rx->capacity_psns;
	uint64_t *bits;
	uint32_t i;

	while (cap <= offset)
		cap <<= 1;
	bits = calloc(cap / 64, sizeof(uint64_t));
	if (bits == NULL)
		return -ENOMEM;
	for (i = 0; i < rx->capacity_psns; i++) {
		uint32_t psn = rx->next_expected_psn + i;

		if (rx_bit_test(rx->received_bits, old_mask, psn))
			rx_bit_set(bits, cap - 1, psn);
	}
	free(rx->received_bits);
	rx->received_bits = bits;
	rx->capacity_psns = cap;
	return 0;
}

int uet_pds_rx_receive(struct uet_pds_rx *rx, uint32_t psn)
{
	uint32_t mask = rx->capacity_psns - 1;
	uint32_t offset;
	int ret;

	if (uet_pds_psn_diff(psn, rx->next_expected_psn) < 0) {
		rx->stats.duplicates++;
		return 0;
	}
	offset = psn - rx->next_expected_psn;
	if (offset >= UET_PDS_RX_WINDOW_PSNS) {
		/* Beyond what a SACK could ever report: reject, do not grow. */
		rx->stats.out_of_window++;
		return -ERANGE;
	}
	if (offset >= rx->capacity_psns) {
		ret = rx_grow(rx, offset);
		if (ret < 0)
			return ret;
		mask = rx->capacity_psns - 1;
	}
	if (offset != 0) {
		if (rx_bit_test(rx->received_bits, mask, psn)) {
			rx->stats.duplicates++;
			return 0;
		}
		rx_bit_set(rx->received_bits, mask, psn);
		rx->stats.out_of_order++;
	} else {
		/* The expected packet: move past it and past every packet
		 * already received beyond it, clearing their bits so the
		 * slots are free for the PSNs a capacity further on. */
		do {
			rx_bit_clear(rx->received_bits, mask,
				     rx->next_expected_psn);
			rx->next_expected_psn++;
		} while (rx_bit_test(rx->received_bits, mask,
				     rx->next_expected_psn));
	}
	if (uet_pds_psn_diff(psn, rx->highest_psn) > 0)
		rx->highest_psn = psn;
	rx->stats.new_packets++;
	return 1;
}

/* Bitmap of the 64 PSNs from base; base is at or beyond next expected. */
static uint64_t rx_sack_bitmap(const struct uet_pds_rx *rx, uint32_t base)
{
	uint32_t mask = rx->capacity_psns - 1;
	uint32_t offset = base - rx->next_expected_psn;
	const uint32_t n = offset >= rx->capacity_psns ? 0
			   : rx->capacity_psns - offset < UET_PDS_SACK_BITS
				   ? rx->capacity_psns - offset
				   : UET_PDS_SACK_BITS;
	uint64_t bitmap = 0;
	uint32_t i;

	/* Each bit or'ed in, set or not: a branch on each would follow the
	 * gaps of the arrivals, which the CPU cannot guess. */
	for (i = 0; i < n; i++)
		bitmap |= (uint64_t)(rx_bit_test(rx->received_bits, mask,
						 base + i) != 0)
			  << i;
	return bitmap;
}

void uet_pds_rx_ack(struct uet_pds_rx *rx, struct uet_pds_ack_info *ack)
{
	uint32_t cack = uet_pds_rx_cack_psn(rx);
	uint32_t base = rx->next_expected_psn;
	uint32_t last;

	/*
	 * The SACK cursor walks the received PSNs beyond the cumulative ACK
	 * in blocks of 64, one block per ACK. It restarts at cack + 1 when
	 * the cumulative ACK has caught up with it, or when it would sit
	 * further from the cumulative ACK than the signed 16-bit offset can
	 * say (the window guarantees a restart reaches every PSN again).
	 */
	if (rx->sack_cursor_set &&
	    uet_pds_psn_diff(rx->sack_cursor_psn, base) > 0 &&
	    rx->sack_cursor_psn - cack <= UET_PDS_SACK_MAX_OFFSET)
		base = rx->sack_cursor_psn;

	ack->cack_psn = cack;
	ack->sack_psn_offset = (int16_t)(base - cack);
	ack->sack_bitmap = rx_sack_bitmap(rx, base);

	/* Next block if anything was received beyond this one, else back
	 * to cack + 1 (wherever the cumulative ACK is by then). */
	last = base + UET_PDS_SACK_BITS - 1;
	if (uet_pds_psn_diff(rx->highest_psn, last) > 0) {
		rx->sack_cursor_psn = last + 1;
		rx->sack_cursor_set = true;
	} else {
		rx->sack_cursor_set = false;
	}
	rx->stats.acks++;
}

bool uet_pds_rx_no_gap_through(const struct uet_pds_rx *rx, uint32_t psn)
{
	return psn - rx->start_psn < rx->next_expected_psn - rx->start_psn;
}
