/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/ses: messages as the data-path page describes them ("Messages and
 * packet delivery contexts", "Segmentation", "Completion"): how a message of
 * N bytes is cut into segments, the sender's and the receiver's state of one
 * message, its three completions, and the payload pattern every data packet
 * carries so that a receiver can check every byte it is given.
 *
 * No frames, no timers, no DPDK: the NIC (lib/nic) drives these.
 */
#ifndef UET_SES_H
#define UET_SES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_packet_sizes.h"
#include "uet_time.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Payload pattern (ses_pattern.c).                                         */

/**
 * Period of the payload pattern in bytes: 65,537, a prime a little over
 * 64 KiB, so that no power-of-two message offset lines the pattern up with
 * itself and a misplaced segment shows as a mismatch.
 */
#define UET_SES_PATTERN_PERIOD_BYTES 65537u
/** Largest payload of one segment: a full packet fits the largest frame. */
#define UET_SES_MAX_MSS_BYTES UET_MSS_MAX_BYTES
/** Bytes of the pattern buffer: one period plus one largest segment, so any
 * segment is one contiguous run of the buffer. */
#define UET_SES_PATTERN_BYTES                                                  \
	(UET_SES_PATTERN_PERIOD_BYTES + UET_SES_MAX_MSS_BYTES)

/**
 * The payload pattern: read-only once built, shared by every message of a
 * NIC (or of a process). bytes[i] == bytes[i % PERIOD].
 */
struct uet_ses_pattern {
	/** The bytes, UET_SES_PATTERN_BYTES of them. */
	uint8_t bytes[UET_SES_PATTERN_BYTES];
};

/**
 * Build the pattern (the same bytes in every process).
 *
 * @param patternp
 *   Set to the new pattern; free with uet_ses_pattern_free().
 * @return
 *   0, -EINVAL, or -ENOMEM.
 */
int uet_ses_pattern_create(struct uet_ses_pattern **patternp);

/**
 * Free a pattern. NULL is accepted.
 *
 * @param pattern
 *   The pattern.
 */
void uet_ses_pattern_free(struct uet_ses_pattern *pattern);

/**
 * Shift of a message's payload in the pattern, derived only from fields
 * every data packet carries (SES message_id and initiator).
 *
 * @param message_id
 *   The SES message_id.
 * @param initiator
 *   The SES initiator.
 * @return
 *   A shift in [0, UET_SES_PATTERN_PERIOD_BYTES).
 */
uint32_t uet_ses_pattern_shift(uint16_t message_id, uint32_t initiator);

/**
 * Where the payload of a message at an offset starts in the pattern. The
 * next UET_SES_MAX_MSS_BYTES bytes are the payload that follows.
 *
 * @param pattern
 *   The pattern.
 * @param shift
 *   The message's shift.
 * @param msg_offset_bytes
 *   Offset in the message, bytes.
 * @return
 *   A pointer into pattern->bytes.
 */
static inline const uint8_t *
uet_ses_pattern_at(const struct uet_ses_pattern *pattern, uint32_t shift,
		   uint64_t msg_offset_bytes)
{
	return pattern->bytes +
	       (msg_offset_bytes + shift) % UET_SES_PATTERN_PERIOD_BYTES;
}

/**
 * Check received payload bytes against the pattern.
 *
 * @param pattern
 *   The pattern.
 * @param shift
 *   The message's shift.
 * @param msg_offset_bytes
 *   Offset in the message of buf[0].
 * @param buf
 *   Received bytes.
 * @param len
 *   Bytes in buf; at most UET_SES_MAX_MSS_BYTES.
 * @return
 *   0 if every byte matches, -EILSEQ if one does not, -EINVAL if len is
 *   too large.
 */
int uet_ses_pattern_verify(const struct uet_ses_pattern *pattern,
			   uint32_t shift, uint64_t msg_offset_bytes,
			   const void *buf, size_t len);

/* ------------------------------------------------------------------------ */
/* Segmentation (ses_segment.c).                                            */

/** Largest message, bytes: the SES request_length field is 32 bits. */
#define UET_SES_MAX_MESSAGE_BYTES UINT32_MAX

/** One segment of a message. */
struct uet_ses_segment {
	/** Index of the segment in its message, from 0. */
	uint32_t index;
	/** Offset of its payload in the message, bytes. */
	uint64_t msg_offset_bytes;
	/** Payload bytes: min(RdmaDataMSS, bytes left); 0 for an empty
	 * message. */
	uint32_t payload_bytes;
	/** First segment (SES SOM). */
	bool som;
	/** Last segment (SES EOM). */
	bool eom;
};

/**
 * Number of packets of a message: ceil(N / RdmaDataMSS), and 1 for N = 0.
 *
 * @param msg_bytes
 *   N.
 * @param mss_bytes
 *   RdmaDataMSS, > 0.
 * @return
 *   Segments; 0 if mss_bytes is 0.
 */
uint32_t uet_ses_segment_count(uint64_t msg_bytes, uint32_t mss_bytes);

/**
 * Describe one segment of a message.
 *
 * @param msg_bytes
 *   N.
 * @param mss_bytes
 *   RdmaDataMSS, > 0.
 * @param index
 *   Segment index, below uet_ses_segment_count().
 * @param seg
 *   Filled in.
 * @return
 *   0, or -EINVAL for an index out of range or a zero MSS.
 */
int uet_ses_segment_get(uint64_t msg_bytes, uint32_t mss_bytes, uint32_t index,
			struct uet_ses_segment *seg);

/* ------------------------------------------------------------------------ */
/* Message state and the three completions (ses_message.c).                 */

/** The three completions of a message (the page's "Completion"). */
enum uet_ses_completion_kind {
	/** Sender: every packet has been sent once (transmit completion). */
	UET_SES_SENT = 0,
	/** Receiver: the packet ending the message has arrived, no gap. */
	UET_SES_ARRIVED,
	/** Sender: the last acknowledgement; the message's completion time. */
	UET_SES_COMPLETED,
	UET_SES_COMPLETION_COUNT
};

/** What a completion callback is told. */
struct uet_ses_completion {
	/** Which completion. */
	enum uet_ses_completion_kind kind;
	/** Scenario-wide message number. */
	uint64_t msg_id;
	/** Sender's IPv4, host order. */
	uint32_t src_ip;
	/** Receiver's IPv4, host order. */
	uint32_t dst_ip;
	/** The PDC number at the NIC that reports it. */
	uint16_t pdc;
	/** Arrived from an external host (switch.external_hosts): msg_id is
	 * that stack's memory_key, not one of the scenario's numbers. */
	bool external;
	/** External arrivals only (else NULL): the callback writes here the
	 * scenario's number of the expected message it matched, and leaves
	 * it alone when none matched; the NIC's records then carry it. */
	uint64_t *match_msg_id;
	/** Message size, bytes. */
	uint64_t bytes;
	/** ps, virtual time the host posted it (sender side; 0 on arrival). */
	uet_time_t posted_ps;
	/** ps, virtual time of this completion. */
	uet_time_t time_ps;
};

/**
 * A completion callback, called by the NIC as the completion happens.
 *
 * @param ctx
 *   The context given with the callbacks.
 * @param c
 *   The completion; valid during the call only.
 */
typedef void (*uet_ses_completion_fn)(void *ctx,
				      const struct uet_ses_completion *c);

/** Callbacks a workload source sets on a NIC. Any may be NULL. */
struct uet_ses_callbacks {
	uet_ses_completion_fn sent;	 /**< transmit completion */
	uet_ses_completion_fn arrived;	 /**< message arrived (receiver) */
	uet_ses_completion_fn completed; /**< last acknowledgement */
	void *ctx;			 /**< passed to each */
};

/** The host's request to send a message (a doorbell with its WQE). */
struct uet_ses_post {
	/** Receiver's IPv4, host order. */
	uint32_t dst_ip;
	/** Message size, bytes, at most UET_SES_MAX_MESSAGE_BYTES. */
	uint64_t bytes;
	/** ps, virtual time the host rings the doorbell. */
	uet_time_t at_ps;
	/** Scenario-wide message number. */
	uint64_t msg_id;
};

/** Sending side of one message. */
struct uet_ses_msg_tx {
	uint64_t msg_id;	 /**< scenario-wide number */
	uint64_t bytes;		 /**< message size */
	uint32_t mss_bytes;	 /**< RdmaDataMSS at post time */
	uint32_t segments;	 /**< packets of the message */
	uint32_t next_segment;	 /**< next segment to fetch */
	uint32_t first_sent;	 /**< segments sent at least once */
	uint32_t acked;		 /**< segments acknowledged */
	uint16_t message_id;	 /**< SES message_id on the wire */
	uint32_t initiator;	 /**< SES initiator on the wire */
	uet_time_t posted_ps;	 /**< ps, doorbell time */
	uet_time_t sent_ps;	 /**< ps, transmit completion (when sent) */
	uet_time_t completed_ps; /**< ps, last acknowledgement */
	bool sent;		 /**< transmit completion happened */
	bool completed;		 /**< completion happened */
};

/**
 * Start the sending side of a message.
 *
 * @return
 *   0, or -EINVAL (bytes too large, mss 0).
 */
int uet_ses_msg_tx_init(struct uet_ses_msg_tx *msg, uint64_t msg_id,
			uint64_t bytes, uint32_t mss_bytes, uint16_t message_id,
			uint32_t initiator, uet_time_t posted_ps);

/**
 * The next segment to fetch, and move past it.
 *
 * @return
 *   0, or -ENOENT when every segment has been taken.
 */
int uet_ses_msg_tx_take_segment(struct uet_ses_msg_tx *msg,
				struct uet_ses_segment *seg);

/** Whether a segment remains to be taken. */
static inline bool uet_ses_msg_tx_has_segment(const struct uet_ses_msg_tx *msg)
{
	return msg->next_segment < msg->segments;
}

/**
 * A segment has been sent for the first time (its serialization ended).
 *
 * @return
 *   true when this completes the transmit completion: every packet has now
 *   been sent at least once.
 */
bool uet_ses_msg_tx_first_sent(struct uet_ses_msg_tx *msg, uet_time_t now_ps);

/**
 * Segments have been acknowledged (retired).
 *
 * @return
 *   true when this is the last acknowledgement: the message completes at
 *   now_ps.
 */
bool uet_ses_msg_tx_acked(struct uet_ses_msg_tx *msg, uint32_t count,
			  uet_time_t now_ps);

/** Receiving side of one message. */
struct uet_ses_msg_rx {
	uint64_t msg_id;	  /**< scenario-wide number, as carried */
	uint64_t bytes;		  /**< request_length */
	uint16_t message_id;	  /**< SES message_id */
	uint32_t initiator;	  /**< SES initiator */
	uint32_t shift;		  /**< pattern shift of the message */
	uint32_t eom_psn;	  /**< PSN of the packet ending the message */
	bool eom_seen;		  /**< that packet has arrived */
	bool arrived;		  /**< the message arrived */
	uet_time_t arrived_ps;	  /**< ps, when */
	uint64_t delivered_bytes; /**< new payload written to the host */
	uint64_t mismatched_packets; /**< packets whose payload differed */
};

/** Start the receiving side of a message from its first arriving packet. */
void uet_ses_msg_rx_init(struct uet_ses_msg_rx *msg, uint64_t msg_id,
			 uint64_t bytes, uint16_t message_id,
			 uint32_t initiator);

/* ------------------------------------------------------------------------ */
/* Arrival times for the flow summary (ses_message.c).                      */

/**
 * A run-wide table of receivers' arrival times by scenario message number,
 * so that a sender writing a message's flow row can name its arrival time.
 * Shared by the NICs of one process; virtual-time order guarantees the
 * arrival is written before the sender's completion reads it.
 */
struct uet_ses_arrivals {
	uet_time_t *arrived_ps; /**< by msg_id; UET_TIME_NEVER: not yet */
	uint64_t count;		/**< entries */
};

/**
 * Create a table for msg_id 0..count-1.
 *
 * @return
 *   0, -EINVAL or -ENOMEM.
 */
int uet_ses_arrivals_create(struct uet_ses_arrivals **tablep, uint64_t count);

/** Free a table. NULL is accepted. */
void uet_ses_arrivals_free(struct uet_ses_arrivals *table);

/** Record an arrival (ignored for msg_id out of range or a NULL table). */
void uet_ses_arrivals_set(struct uet_ses_arrivals *table, uint64_t msg_id,
			  uet_time_t arrived_ps);

/** Look an arrival up; UET_TIME_NEVER if unknown. */
uet_time_t uet_ses_arrivals_get(const struct uet_ses_arrivals *table,
				uint64_t msg_id);

#ifdef __cplusplus
}
#endif

#endif /* UET_SES_H */
