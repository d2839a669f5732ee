/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Protocol state of a packet delivery context (PDC): which packets ask for an
 * ACK, what the receiving side has seen and acknowledges, which packets the
 * sending side still has outstanding, and how long a retransmission timer
 * runs. No I/O, no frames, no timers: the NIC model owns those and asks these
 * structures for decisions. Nothing here allocates per packet.
 */
#ifndef UET_PDS_H
#define UET_PDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_time.h"

/** One step of the ACK service time field, in ps (128 ns). */
#define UET_PDS_SERVICE_TIME_STEP_PS 128000u

/** PSNs in one SACK bitmap. */
#define UET_PDS_SACK_BITS 64u

/** Largest SACK base offset from the cumulative ACK (signed 16-bit field). */
#define UET_PDS_SACK_MAX_OFFSET 32767

/**
 * PSNs the receiving side accepts beyond its next expected PSN (inclusive of
 * it). Chosen so that every accepted PSN can be reported by some SACK block
 * whose offset from the cumulative ACK fits the signed 16-bit wire field.
 */
#define UET_PDS_RX_WINDOW_PSNS 32768u

/** Most PSNs the sending side keeps outstanding on one PDC. */
#define UET_PDS_TX_WINDOW_PSNS (1u << 20)

/* ------------------------------------------------------------------------ */
/* Attributes of ScalaUETPdsManager used here.                              */

/** The PDS attributes these rules read. Defaults belong to lib/config. */
struct uet_pds_params {
	/** AckRequestEveryNthPacket, N >= 1. */
	uint32_t ack_request_every_nth;
	/** AckRequestFirstPacket: count the cadence from the first packet. */
	bool ack_request_first;
	/** AckRequestLastPacket: also flag the last packet of each message. */
	bool ack_request_last;
	/** InitialRetransmitTimeout, ps, > 0. */
	uet_time_t initial_rto_ps;
	/** MaxExponentialRTOBackoffCount: doublings before the cap. */
	uint32_t max_rto_backoff_count;
	/** FixedRexmitTimeEnable. */
	bool fixed_rexmit_enable;
	/** FixedRexmitTimeout, ps; used only when fixed_rexmit_enable. */
	uet_time_t fixed_rexmit_timeout_ps;
};

/**
 * Check that the attributes can drive these rules.
 *
 * @return 0, or -EINVAL if N is 0 or the timeout in use is 0.
 */
int uet_pds_params_check(const struct uet_pds_params *params);

/* ------------------------------------------------------------------------ */
/* ACK-request rule (pds_ack_request.c).                                    */

/**
 * Whether a data packet carries the ACK-request flag.
 *
 * @param params
 *   The PDS attributes (N, first, last). N = 0 is read as 1.
 * @param packet_count
 *   k: this packet's position among every data packet the PDC has sent,
 *   retransmissions included; 1 for the PDC's first packet.
 * @param last_of_message
 *   The packet is the last of its message (also when it is retransmitted).
 * @return
 *   true if the packet carries AR.
 */
bool uet_pds_ack_request(const struct uet_pds_params *params,
			 uint64_t packet_count, bool last_of_message);

/**
 * Whether the receiver acknowledges a data packet it accepted (new or a
 * duplicate; not a trimmed one): one that carries the AR flag, as the page
 * says, and any packet of a message whose last packet has already arrived.
 * No later packet of the message can carry a request that covers such a
 * packet: one the last packet overtook on another path, or a
 * retransmission without the flag, would wait for its timeout otherwise.
 * In order, the last packet is the last to arrive, so at N = 1, or with
 * no reordering, nothing changes.
 *
 * @param ack_request
 *   The packet carries AR.
 * @param last_arrived
 *   The last packet of the packet's message has arrived (this one
 *   included).
 * @return
 *   true if the receiver sends an ACK for it.
 */
bool uet_pds_rx_acknowledges(bool ack_request, bool last_arrived);

/* ------------------------------------------------------------------------ */
/* Retransmission timeout and ACK service time (pds_rto.c).                 */

/**
 * Retransmission timeout of one attempt of a packet.
 *
 * Fixed mode: FixedRexmitTimeout for every attempt. Otherwise attempt a
 * (1 = first transmission) runs T0 * 2^min(a - 1, M), saturating at
 * UINT64_MAX ps instead of overflowing.
 *
 * @param params
 *   The PDS attributes.
 * @param transmit_count
 *   Attempt number a; 0 is read as 1.
 * @return
 *   The timeout in ps.
 */
uet_time_t uet_pds_rto_ps(const struct uet_pds_params *params,
			  uint32_t transmit_count);

/**
 * Service time field of an ACK for a receiver hold.
 *
 * @param hold_ps
 *   How long the receiver held the ACK, ps.
 * @return
 *   floor(hold_ps / 128 ns), saturated at UINT16_MAX (the field is 16 bits).
 */
uint16_t uet_pds_service_time_steps(uet_time_t hold_ps);

/**
 * Service time the sender removes from its RTT sample.
 *
 * @param steps
 *   The ACK's service time field.
 * @return
 *   steps * 128 ns, in ps.
 */
uet_time_t uet_pds_service_time_ps(uint16_t steps);

/* ------------------------------------------------------------------------ */
/* PSN arithmetic.                                                          */

/** Serial-number difference a - b of two 32-bit PSNs: < 0 when a is older. */
static inline int32_t uet_pds_psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b);
}

/**
 * Start PSN of a PDC from a SYN packet: the overlay carries psn - start in
 * its 12-bit psn_offset.
 */
static inline uint32_t uet_pds_start_psn(uint32_t psn, uint16_t psn_offset)
{
	return psn - (uint32_t)(psn_offset & 0x0fffu);
}

/** What an ACK says about a PDC's received PSNs. */
struct uet_pds_ack_info {
	/** Cumulative ACK: every PSN at or below it has been received. */
	uint32_t cack_psn;
	/** SACK base minus cack_psn (the wire's signed sack_psn_offset). */
	int16_t sack_psn_offset;
	/** Bit i set: PSN cack_psn + sack_psn_offset + i has been received. */
	uint64_t sack_bitmap;
};

/** First PSN the SACK bitmap of an ACK describes. */
static inline uint32_t uet_pds_sack_base_psn(const struct uet_pds_ack_info *ack)
{
	return ack->cack_psn + (uint32_t)(int32_t)ack->sack_psn_offset;
}

/* ------------------------------------------------------------------------ */
/* Receiving side of a PDC (pds_rx.c).                                      */

/** Counters of the receiving side. */
struct uet_pds_rx_stats {
	/** New packets accepted (to deliver to the host). */
	uint64_t new_packets;
	/** Packets with a higher PSN than the next expected one. */
	uint64_t out_of_order;
	/** Packets below the next expected PSN or already received. */
	uint64_t duplicates;
	/** Packets too far beyond the next expected PSN, rejected. */
	uint64_t out_of_window;
	/** ACK contents produced. */
	uint64_t acks;
};

/** Receiving side of a PDC. Fields are private; use the functions. */
struct uet_pds_rx {
	/** PSN of the PDC's first packet. */
	uint32_t start_psn;
	/** Lowest PSN not yet received; the cumulative ACK is one below. */
	uint32_t next_expected_psn;
	/** Highest PSN received, serial order (next_expected - 1 if none). */
	uint32_t highest_psn;
	/** Next SACK block base, valid when sack_cursor_set. */
	uint32_t sack_cursor_psn;
	/** False: the next SACK block starts at the cumulative ACK + 1. */
	bool sack_cursor_set;
	/** Bits in received_bits, a power of two <= UET_PDS_RX_WINDOW_PSNS. */
	uint32_t capacity_psns;
	/** Bit (psn & (capacity - 1)): psn received, for psns beyond next. */
	uint64_t *received_bits;
	/** Counters. */
	struct uet_pds_rx_stats stats;
};

/**
 * Create the receiving side of a PDC from its start PSN.
 *
 * @param rx
 *   The state to initialise.
 * @param start_psn
 *   The PDC's start PSN (uet_pds_start_psn() of a SYN packet).
 * @param capacity_psns
 *   Initial out-of-order span to size for; rounded up to a power of two
 *   within [64, UET_PDS_RX_WINDOW_PSNS]. It doubles when a packet needs it.
 * @return
 *   0, or -ENOMEM.
 */
int uet_pds_rx_init(struct uet_pds_rx *rx, uint32_t start_psn,
		    uint32_t capacity_psns);

/** Release the receiving side's arrays. Safe on a zeroed struct. */
void uet_pds_rx_fini(struct uet_pds_rx *rx);

/**
 * Record the arrival of a (not trimmed) data packet.
 *
 * @return
 *   1 when the packet is new (deliver it), 0 when it is a duplicate,
 *   -ERANGE when its PSN is UET_PDS_RX_WINDOW_PSNS or more beyond the next
 *   expected PSN (counted, nothing recorded), -ENOMEM if the array could not
 *   grow (nothing recorded).
 */
int uet_pds_rx_receive(struct uet_pds_rx *rx, uint32_t psn);

/**
 * Contents of the next ACK: the cumulative ACK and one 64-PSN SACK block.
 *
 * Successive calls walk the received PSNs beyond the cumulative ACK in
 * blocks of 64 (see docs/pds.md), so this advances the SACK cursor.
 *
 * @param rx
 *   The receiving side.
 * @param ack
 *   Filled in.
 */
void uet_pds_rx_ack(struct uet_pds_rx *rx, struct uet_pds_ack_info *ack);

/** Cumulative ACK PSN: every PSN at or below it has been received. */
static inline uint32_t uet_pds_rx_cack_psn(const struct uet_pds_rx *rx)
{
	return rx->next_expected_psn - 1;
}

/**
 * Whether every PSN from the start PSN through psn has arrived (for the
 * message-complete check in lib/ses). False for a PSN before the start.
 */
bool uet_pds_rx_no_gap_through(const struct uet_pds_rx *rx, uint32_t psn);

/* ------------------------------------------------------------------------ */
/* Sending side of a PDC (pds_tx.c).                                        */

/** Where an outstanding packet is. */
enum uet_pds_tx_state {
	/** PSN taken, payload fetch issued, never sent. */
	UET_PDS_TX_QUEUED = 0,
	/** Sent and counted in flight. */
	UET_PDS_TX_IN_FLIGHT,
	/** NACKed or timed out: waiting in the retransmit FIFO. */
	UET_PDS_TX_QUEUED_RETRANSMIT,
	/** Acknowledged. */
	UET_PDS_TX_RETIRED,
};

/** A segment handed to uet_pds_tx_take_psn(). */
struct uet_pds_tx_segment {
	/** Payload bytes of the packet (0 for an empty message). */
	uint32_t payload_bytes;
	/** Offset of the payload in its message, bytes. */
	uint64_t msg_offset_bytes;
	/** The caller's name for the message (lib/ses). */
	uint64_t msg_tag;
	/** Last packet of its message (AckRequestLastPacket). */
	bool last_of_message;
};

/** Record of one packet of a PDC that has not been retired yet. */
struct uet_pds_tx_packet {
	/** Offset of the payload in its message, bytes. */
	uint64_t msg_offset_bytes;
	/** The caller's name for the message. */
	uint64_t msg_tag;
	/** Send time of the latest transmission, ps of virtual time. */
	uet_time_t sent_ps;
	/** Payload bytes. */
	uint32_t payload_bytes;
	/** Nominal size (payload + 88), bytes: what counts in flight. */
	uint32_t nominal_bytes;
	/** Transmissions so far (1 after the first send). */
	uint32_t transmit_count;
	/** Entropy value (UDP source port) of the latest transmission. */
	uint16_t entropy;
	/** enum uet_pds_tx_state. */
	uint8_t state;
	/** Last packet of its message. */
	bool last_of_message;
};

/** Counters of the sending side. */
struct uet_pds_tx_stats {
	/** PSNs taken (packets created). */
	uint64_t psns_taken;
	/** Data packets sent, retransmissions included (the AR count k). */
	uint64_t packets_sent;
	/** Of those, retransmissions. */
	uint64_t retransmits;
	/** Packets retired; each PSN exactly once. */
	uint64_t retired;
	/** ACKs processed. */
	uint64_t acks;
	/** ACKs whose cumulative ACK was below the oldest outstanding PSN. */
	uint64_t stale_acks;
	/** ACKs ignored: cumulative ACK beyond every PSN sent. */
	uint64_t acks_out_of_range;
	/** SACK bits naming a PSN not sent yet, ignored. */
	uint64_t sack_bits_out_of_range;
	/** ACK or SACK naming a PSN taken but never sent, ignored. */
	uint64_t ack_of_unsent;
	/** NACKs that queued a retransmission. */
	uint64_t nacks_acted;
	/** NACKs for a PSN no longer outstanding (retired or queued). */
	uint64_t nacks_ignored;
	/** NACKs for a PSN never sent or far outside the window, ignored. */
	uint64_t nacks_out_of_range;
	/** Timer expiries that queued a retransmission. */
	uint64_t timeouts_acted;
	/** Timer expiries for a packet no longer in flight, or stale. */
	uint64_t timeouts_ignored;
	/** Times in-flight bytes would have gone negative (clamped to 0). */
	uint64_t in_flight_underflows;
};

/** Sending side of a PDC. Fields are private; use the functions. */
struct uet_pds_tx {
	/** Attributes of the ACK-request rule, copied at creation. */
	struct uet_pds_params params;
	/** Oldest PSN not retired (== next_psn when none is outstanding). */
	uint32_t base_psn;
	/** PSN the next segment takes. */
	uint32_t next_psn;
	/** Nominal bytes of the packets in the UET_PDS_TX_IN_FLIGHT state. */
	uint64_t in_flight_bytes;
	/** Records, indexed by psn & (capacity - 1). */
	struct uet_pds_tx_packet *packets;
	/** Slots in packets, a power of two. */
	uint32_t capacity;
	/** Retransmit FIFO of PSNs, a ring (entries may be stale); NULL
	 * until the first retransmission. */
	uint32_t *retransmit_fifo;
	/** Slots in retransmit_fifo, a power of two, or 0. */
	uint32_t fifo_capacity;
	/** Index of the FIFO's oldest entry. */
	uint32_t fifo_head;
	/** Entries in the FIFO. */
	uint32_t fifo_count;
	/** Counters. */
	struct uet_pds_tx_stats stats;
};

/** What one ACK retired. */
struct uet_pds_tx_ack_result {
	/** Packets retired by this ACK. */
	uint32_t retired_packets;
	/** Of those, packets sent exactly once (valid RTT samples, Karn). */
	uint32_t rtt_samples;
	/** Nominal bytes of the retired packets. */
	uint64_t retired_bytes;
	/** Nominal bytes that left the in-flight count. */
	uint64_t retired_in_flight_bytes;
};

/**
 * Called once for each PSN an ACK retires, in the order retired (the
 * cumulative part in PSN order, then the SACK bits in bit order).
 *
 * @param ctx
 *   The caller's context.
 * @param psn
 *   The retired PSN.
 * @param pkt
 *   Its record, already in the RETIRED state; valid during the call only.
 * @param rtt_sample_valid
 *   The packet was sent exactly once, so its send time gives an RTT sample.
 */
typedef void (*uet_pds_tx_retire_fn)(void *ctx, uint32_t psn,
				     const struct uet_pds_tx_packet *pkt,
				     bool rtt_sample_valid);

/**
 * Create the sending side of a PDC.
 *
 * @param tx
 *   The state to initialise.
 * @param params
 *   PDS attributes, copied; they must pass uet_pds_params_check().
 * @param start_psn
 *   The PDC's start PSN.
 * @param capacity_packets
 *   Outstanding packets to size for (the packets of a short message, or
 *   a window's worth); rounded up to a power of two within
 *   [1, UET_PDS_TX_WINDOW_PSNS]. It doubles when more are outstanding.
 * @return
 *   0, -EINVAL for bad params, or -ENOMEM.
 */
int uet_pds_tx_init(struct uet_pds_tx *tx, const struct uet_pds_params *params,
		    uint32_t start_psn, uint32_t capacity_packets);

/** Release the sending side's arrays. Safe on a zeroed struct. */
void uet_pds_tx_fini(struct uet_pds_tx *tx);

/**
 * Take the PDC's next PSN for a segment whose payload fetch is being issued.
 *
 * @param psn
 *   Set to the PSN taken.
 * @return
 *   0; -ENOSPC if UET_PDS_TX_WINDOW_PSNS PSNs are already outstanding;
 *   -ENOMEM if the records could not grow. Nothing is taken on failure.
 */
int uet_pds_tx_take_psn(struct uet_pds_tx *tx,
			const struct uet_pds_tx_segment *seg, uint32_t *psn);

/**
 * Send a packet: its first transmission (state QUEUED) or the retransmission
 * at the head of the retransmit FIFO. Counts toward the ACK-request rule,
 * bumps the transmit count, records the entropy value and send time, and puts
 * the packet in flight.
 *
 * @param psn
 *   The packet.
 * @param entropy
 *   Entropy value of this transmission.
 * @param now_ps
 *   Send time (see uet_pds_tx_sent() to move it to the end of serialization).
 * @param ack_request
 *   Set to whether this transmission carries the ACK-request flag.
 * @return
 *   0; -ENOENT if psn is not outstanding; -EINVAL if it is in flight or
 *   retired, or queued for retransmission but not the oldest waiting.
 */
int uet_pds_tx_transmit(struct uet_pds_tx *tx, uint32_t psn, uint16_t entropy,
			uet_time_t now_ps, bool *ack_request);

/**
 * Set the send time of a packet's latest transmission (when its
 * serialization ends and its timer starts).
 *
 * @return
 *   0, or -ENOENT if psn is not in flight.
 */
int uet_pds_tx_sent(struct uet_pds_tx *tx, uint32_t psn, uet_time_t now_ps);

/**
 * Process an ACK: the cumulative ACK retires every outstanding PSN at or
 * below it, the SACK bitmap each PSN it lists. Duplicate and late ACKs
 * retire nothing and are harmless.
 *
 * @param ack
 *   The ACK's cumulative ACK, SACK offset and bitmap.
 * @param retire
 *   Called for each retired PSN; may be NULL.
 * @param ctx
 *   Passed to retire.
 * @param result
 *   Filled in with what the ACK retired; may be NULL.
 * @return
 *   0; -ERANGE if the cumulative ACK is beyond every PSN sent (the ACK is
 *   ignored and counted).
 */
int uet_pds_tx_ack(struct uet_pds_tx *tx, const struct uet_pds_ack_info *ack,
		   uet_pds_tx_retire_fn retire, void *ctx,
		   struct uet_pds_tx_ack_result *result);

/**
 * Process a NACK for psn.
 *
 * @return
 *   1 (acted) if the packet was in flight: it leaves the in-flight count and
 *   joins the back of the retransmit FIFO. 0 (ignored) otherwise: retired,
 *   already queued, never sent, or outside the window (the last two are
 *   counted as out of range).
 */
int uet_pds_tx_nack(struct uet_pds_tx *tx, uint32_t psn);

/**
 * Process the expiry of a packet's retransmission timer.
 *
 * @param psn
 *   The packet.
 * @param transmit_count
 *   The transmission the timer was started for; a timer left over from an
 *   earlier transmission is stale and ignored.
 * @return
 *   1 (acted) if the packet was in flight on that transmission: as for a
 *   NACK. 0 (ignored) otherwise.
 */
int uet_pds_tx_timeout(struct uet_pds_tx *tx, uint32_t psn,
		       uint32_t transmit_count);

/**
 * Oldest retransmission waiting, without removing it (the NIC first checks
 * window and pool room, then calls uet_pds_tx_transmit()).
 *
 * @param psn
 *   Set to the PSN to retransmit.
 * @return
 *   0, or -ENOENT if no retransmission is waiting.
 */
int uet_pds_tx_next_retransmit(struct uet_pds_tx *tx, uint32_t *psn);

/**
 * The retransmission uet_pds_tx_next_retransmit() would name, without
 * dropping the stale entries ahead of it: the FIFO, and so its length,
 * stay as they are (the NIC's scheduler reads whether a PDC has entries
 * waiting before it visits the PDC, and a visit is what drops them).
 *
 * @param psn
 *   Set to the PSN to retransmit.
 * @return
 *   0, or -ENOENT if no entry names a packet waiting for retransmission.
 */
int uet_pds_tx_peek_retransmit(const struct uet_pds_tx *tx, uint32_t *psn);

/** Entries in the retransmit FIFO, stale ones included. */
static inline uint32_t uet_pds_tx_fifo_len(const struct uet_pds_tx *tx)
{
	return tx->fifo_count;
}

/**
 * Record of an outstanding packet.
 *
 * @return
 *   The record, or NULL if psn is not between the oldest outstanding PSN
 *   and the next PSN. Valid until the next call that changes tx.
 */
const struct uet_pds_tx_packet *uet_pds_tx_packet(const struct uet_pds_tx *tx,
						  uint32_t psn);

/** Packets taken and not retired. */
static inline uint32_t uet_pds_tx_outstanding(const struct uet_pds_tx *tx)
{
	return tx->next_psn - tx->base_psn;
}

#endif /* UET_PDS_H */
