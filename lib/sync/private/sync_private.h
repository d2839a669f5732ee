/* SPDX-License-Identifier: BSD-3-Clause */
/* What the coordinator and the participant share: the wall clock, the
 * per-port transmit queue, control frames in mbufs, the error record. */
#ifndef SYNC_PRIVATE_H
#define SYNC_PRIVATE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_sync_ports.h"

/** Frames taken from a port per rx burst. */
#define SYNC_RX_BURST 64u
/** Bytes of the largest control frame built (a full NOTES). */
#define SYNC_CTRL_MAX_BYTES UET_LS_FRAME_MAX_BYTES

/**
 * Frames waiting for a port, in order (data and control frames share it,
 * so the link stays FIFO). Grows by doubling; drained by tx bursts that
 * never wait.
 */
struct sync_txq {
	struct rte_mbuf **pkts;	 /**< slots, a circular buffer */
	uint32_t head;		 /**< index of the oldest frame */
	uint32_t len;		 /**< frames queued */
	uint32_t cap;		 /**< slots, a power of two */
	uint64_t stall_since_ns; /**< wall ns the port last took nothing,
				  * 0 when it is not stalled */
	uint64_t bursts;	 /**< tx bursts the port took frames from */
};

/** Why a role stopped. */
struct sync_error {
	int err;       /**< negative errno, 0 while none */
	uint32_t code; /**< enum uet_ls_abort_code */
	char text[UET_SYNC_ERROR_BYTES];
};

/** Bytes that grow as they are appended to (a window's notes). */
struct sync_bytes {
	uint8_t *b;
	size_t len; /**< bytes held */
	size_t cap; /**< bytes allocated */
};

/** Append n bytes. @return 0, or -ENOMEM (nothing appended). */
int sync_bytes_append(struct sync_bytes *s, const void *bytes, size_t n);

/** Free the bytes (the buffer is empty and usable again). */
void sync_bytes_fini(struct sync_bytes *s);

/**
 * Cut a window's notes into NOTES frames of at most UET_LS_NOTES_MAX_BYTES
 * each, in order, and hand each to send (none when len is 0).
 *
 * @return
 *   0, or the first negative return of send.
 */
int sync_notes_send(uet_time_t window_end_ps, const uint8_t *bytes, size_t len,
		    int (*send)(void *ctx, struct uet_ls_ctrl *c), void *ctx);

/** @return monotonic wall-clock ns. */
uint64_t sync_wall_ns(void);

/** Queue a frame; the queue owns it, also on error (-ENOMEM frees it). */
int sync_txq_push(struct sync_txq *q, struct rte_mbuf *m);

/**
 * Offer the queued frames to the port once, without waiting.
 *
 * @return
 *   0 when the queue is empty now or the port took some; -ETIMEDOUT when
 *   the port has taken nothing for timeout_ms.
 */
int sync_txq_flush(struct sync_txq *q, struct uet_port *port,
		   uint32_t timeout_ms, uint64_t now_ns);

/** Free every queued frame (the queue stays usable). */
void sync_txq_drop(struct sync_txq *q);

/** Free the queue and its frames. */
void sync_txq_fini(struct sync_txq *q);

/** Build a control frame into a new mbuf from pool. NULL: -ENOMEM. */
struct rte_mbuf *sync_ctrl_mbuf(struct rte_mempool *pool,
				const uint8_t dst[UET_ETH_ADDR_LEN],
				const uint8_t src[UET_ETH_ADDR_LEN],
				const struct uet_ls_ctrl *c);

/** Whether a received frame has the lockstep control EtherType. */
bool sync_is_ctrl(const struct rte_mbuf *m);

/**
 * Parse a received control frame (lib/wire's mbuf reader). A frame in
 * several segments is made one first, so that a NOTES frame's bytes
 * (c->u.notes.bytes) point into the mbuf, valid until it is freed.
 *
 * @param src
 *   Set to the frame's source MAC (may be NULL).
 * @return
 *   0, or -EBADMSG with reason set (also for a chain that cannot be made
 *   one segment).
 */
int sync_ctrl_parse(struct rte_mbuf *m, struct uet_ls_ctrl *c,
		    uint8_t src[UET_ETH_ADDR_LEN], const char **reason);

/**
 * Take the trailer off a received data frame (what
 * uet_sync_trailer_strip() does), or say why the frame is not ours.
 *
 * @param why
 *   Set when there is no trailer: the kind of drop.
 * @return
 *   0, or -ENOENT (the mbuf unchanged).
 */
int sync_trailer_take(struct rte_mbuf *m, uet_time_t *arrival_ps,
		      enum uet_sync_drop *why);

/** Fill an ABORT control frame's code and text from an error. */
void sync_abort_fill(struct uet_ls_ctrl *c, const struct sync_error *e);

/**
 * Cut an IPv4 frame to the end of its IP datagram (its Ethernet padding
 * goes), as uet_sync_trailer_append() does before the trailer: frames
 * that cross between components without a trailer get the same cut, so
 * that every mode hands the model the same bytes.
 *
 * @return 0, or -EBADMSG (shorter than an Ethernet header, bad IPv4).
 */
int sync_frame_cut_padding(struct rte_mbuf *m);

/** Format an IPv4 address (host order) as dotted quad into buf[16]. */
const char *sync_ipv4_str(uint32_t ipv4, char buf[16]);

/** Map an ABORT code to the errno a poll returns for it. */
int sync_code_errno(uint32_t code);

#endif /* SYNC_PRIVATE_H */
