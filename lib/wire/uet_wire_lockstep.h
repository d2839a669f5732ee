/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lockstep frames (docs/lockstep-frames.md): the 12-byte trailer after the IP
 * datagram of a data frame, and the control frames of EtherType 0x88B5.
 */
#ifndef UET_WIRE_LOCKSTEP_H
#define UET_WIRE_LOCKSTEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_time.h"
#include "uet_wire_eth.h"
#include "uet_wire_reason.h"

#define UET_LS_TRAILER_BYTES 12
#define UET_LS_TRAILER_MAGIC "UEVT"
#define UET_LS_CTRL_MAGIC "UECT"
#define UET_LS_VERSION 1
#define UET_LS_HDR_BYTES 32 /**< common control header */
#define UET_LS_ABORT_TEXT_MAX 200
/** The largest control frame: a 1,500-byte Ethernet payload, no FCS. */
#define UET_LS_FRAME_MAX_BYTES 1514
/** Fixed part of a NOTES body: window_end_ps, len, reserved. */
#define UET_LS_NOTES_FIXED_BYTES 16
/** Opaque bytes one NOTES frame carries at most, so that it stays within
 * UET_LS_FRAME_MAX_BYTES: 1514 - 14 - 32 - 16. */
#define UET_LS_NOTES_MAX_BYTES                                                 \
	(UET_LS_FRAME_MAX_BYTES - UET_ETH_HDR_BYTES - UET_LS_HDR_BYTES -       \
	 UET_LS_NOTES_FIXED_BYTES)
/** HELLO flags bit 0: this port takes the window notes (docs/lockstep.md,
 * "Window notes"). */
#define UET_LS_HELLO_WANTS_NOTES 0x0001u

/** Control frame types. */
enum uet_ls_type {
	UET_LS_HELLO = 1,
	UET_LS_WELCOME = 2,
	UET_LS_GRANT = 3,
	UET_LS_DONE = 4,
	UET_LS_BYE = 5,
	UET_LS_ABORT = 6,
	UET_LS_NOTES = 7,
};

/** ABORT codes. */
enum uet_ls_abort_code {
	UET_LS_ABORT_SCENARIO_MISMATCH = 1,
	UET_LS_ABORT_STALE_RUN = 2,
	UET_LS_ABORT_PEER_TIMEOUT = 3,
	UET_LS_ABORT_FRAME_LOSS = 4,
	UET_LS_ABORT_PROTOCOL = 5,
	UET_LS_ABORT_USER = 6,
	UET_LS_ABORT_INTERNAL = 7,
};

/** A control frame's common header and body. */
struct uet_ls_ctrl {
	uint8_t type; /**< enum uet_ls_type */
	uint16_t nic_id;
	uint64_t run_id; /**< 0 in HELLO */
	uint64_t nonce;	 /**< 0 in HELLO */
	uint32_t seq;	 /**< per port, from 0 */
	union {
		struct {
			uint64_t scenario_hash;
			uint32_t ipv4; /**< host order */
			uint8_t mac[UET_ETH_ADDR_LEN];
			uint16_t flags; /**< UET_LS_HELLO_WANTS_NOTES */
		} hello;
		struct {
			uint64_t scenario_hash;
			uet_time_t lookahead_ps;
			uet_time_t start_ps;
		} welcome;
		struct {
			uet_time_t window_start_ps; /**< T */
			uet_time_t window_end_ps;   /**< T' */
			uint32_t data_frames;	    /**< sent on this port since
						     * the previous GRANT */
		} grant;
		struct {
			uet_time_t window_end_ps;
			uet_time_t next_event_ps; /**< UINT64_MAX: none */
			uint32_t data_frames;	  /**< sent in the window */
		} done;
		struct {
			uet_time_t end_ps;
		} bye;
		struct {
			uint32_t code;	   /**< enum uet_ls_abort_code */
			uint16_t text_len; /**< <= UET_LS_ABORT_TEXT_MAX */
			char text[UET_LS_ABORT_TEXT_MAX]; /**< UTF-8, no NUL */
		} abort;
		struct {
			/** T' of the window whose notes these are. */
			uet_time_t window_end_ps;
			uint16_t len; /**< <= UET_LS_NOTES_MAX_BYTES */
			/**
			 * The len opaque bytes. To build: the caller's. On
			 * parse: a pointer into the parsed frame, valid only
			 * while the frame's buffer is (copy them out before
			 * freeing it). Kept out of the struct so that it
			 * does not grow by a frame's worth.
			 */
			const uint8_t *bytes;
		} notes;
	} u;
};

/**
 * Body size of a control frame type.
 *
 * @param c
 *   Control frame (type, and text_len for ABORT, len for NOTES).
 * @return
 *   Bytes of body, or -EINVAL for an unknown type, too long a text or
 *   too many notes.
 */
int uet_ls_body_bytes(const struct uet_ls_ctrl *c);

/**
 * Write a control frame: Ethernet (EtherType 0x88B5), common header, body,
 * zero padding to 60 bytes.
 *
 * @param buf
 *   Destination buffer.
 * @param cap
 *   Bytes available.
 * @param dst
 *   Destination MAC.
 * @param src
 *   Source MAC.
 * @param c
 *   Frame contents.
 * @return
 *   The frame length, -ENOSPC, or -EINVAL (unknown type, text too long,
 *   NOTES over UET_LS_NOTES_MAX_BYTES or with len > 0 and no bytes).
 */
int uet_ls_ctrl_build(uint8_t *buf, size_t cap,
		      const uint8_t dst[UET_ETH_ADDR_LEN],
		      const uint8_t src[UET_ETH_ADDR_LEN],
		      const struct uet_ls_ctrl *c);

/**
 * Read a control frame (from its Ethernet header).
 *
 * @param buf
 *   Frame bytes.
 * @param len
 *   Frame length.
 * @param c
 *   Filled on success; a NOTES frame's c->u.notes.bytes points into buf.
 * @param reason
 *   Set to the reject reason (may be NULL).
 * @return
 *   0, or -EBADMSG (bad EtherType, magic or version, unknown type, body_len
 *   not matching the type, text_len over 200, a NOTES len over
 *   UET_LS_NOTES_MAX_BYTES, frame shorter than 14 + 32 + body_len).
 */
int uet_ls_ctrl_parse(const uint8_t *buf, size_t len, struct uet_ls_ctrl *c,
		      enum uet_wire_reason *reason);

/**
 * Write a 12-byte trailer ("UEVT" + arrival time) at buf.
 *
 * @param buf
 *   Where the trailer goes.
 * @param cap
 *   Bytes available.
 * @param arrival_ps
 *   The frame's virtual arrival time at the far port.
 * @return
 *   UET_LS_TRAILER_BYTES, or -ENOSPC.
 */
int uet_ls_trailer_build(uint8_t *buf, size_t cap, uet_time_t arrival_ps);

/**
 * Read a 12-byte trailer at buf.
 *
 * @param buf
 *   Bytes after the IP datagram.
 * @param len
 *   Bytes available.
 * @param arrival_ps
 *   Set on success.
 * @param reason
 *   Set to the reject reason (may be NULL).
 * @return
 *   UET_LS_TRAILER_BYTES, or -EBADMSG (short or bad magic).
 */
int uet_ls_trailer_parse(const uint8_t *buf, size_t len, uet_time_t *arrival_ps,
			 enum uet_wire_reason *reason);

/**
 * Append a trailer right after the IP datagram of an Ethernet/IPv4 frame,
 * replacing whatever followed it (padding or an older trailer).
 *
 * @param buf
 *   The frame.
 * @param len
 *   Current frame length.
 * @param cap
 *   Buffer capacity.
 * @param arrival_ps
 *   Arrival time to write.
 * @return
 *   The new frame length, -EBADMSG if the frame is not valid Ethernet/IPv4,
 *   or -ENOSPC.
 */
int uet_ls_trailer_append(uint8_t *buf, size_t len, size_t cap,
			  uet_time_t arrival_ps);

/**
 * Remove the trailer that follows the IP datagram of a frame.
 *
 * @param buf
 *   The frame.
 * @param len
 *   Frame length.
 * @param arrival_ps
 *   Set to the trailer's time when there is one (may be NULL).
 * @return
 *   The frame length without trailer (the end of the IP datagram),
 *   -ENOENT if no trailer follows the datagram, or -EBADMSG if the frame is
 *   not valid Ethernet/IPv4.
 */
int uet_ls_trailer_strip(const uint8_t *buf, size_t len,
			 uet_time_t *arrival_ps);

/**
 * Name of a control frame type ("GRANT").
 *
 * @param type
 *   Control frame type.
 * @return
 *   A constant string; "UNKNOWN" otherwise.
 */
const char *uet_ls_type_name(unsigned int type);

/**
 * Name of an ABORT code ("FRAME_LOSS").
 *
 * @param code
 *   ABORT code.
 * @return
 *   A constant string; "UNKNOWN" otherwise.
 */
const char *uet_ls_abort_code_name(uint32_t code);

#endif /* UET_WIRE_LOCKSTEP_H */
