/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IEEE 802.1Qbb priority flow control frames: MAC control (EtherType 0x8808)
 * opcode 0x0101, a class-enable vector and eight pause times in quanta of
 * 512 bit times, padded to the 60-byte minimum frame.
 */
#ifndef UET_WIRE_PFC_H
#define UET_WIRE_PFC_H

#include <stddef.h>
#include <stdint.h>

#include "uet_time.h"
#include "uet_wire_eth.h"
#include "uet_wire_reason.h"

#define UET_PFC_OPCODE 0x0101
#define UET_PFC_CLASSES 8
#define UET_PFC_BYTES 34 /**< Ethernet + opcode + vector + quanta */
#define UET_PFC_FRAME_BYTES UET_ETH_MIN_FRAME_BYTES /**< padded, no FCS */
#define UET_PFC_QUANTUM_BITS 512

/** The destination of every PFC frame, 01:80:c2:00:00:01. */
#define UET_PFC_DST_INIT                                                       \
	{                                                                      \
		0x01, 0x80, 0xc2, 0x00, 0x00, 0x01                             \
	}

/** A PFC frame's contents. */
struct uet_pfc {
	uint8_t dst[UET_ETH_ADDR_LEN]; /**< set by parse; build always
					* writes 01:80:c2:00:00:01 */
	uint8_t src[UET_ETH_ADDR_LEN];
	uint8_t class_enable;		  /**< bit c: quanta[c] is valid */
	uint16_t quanta[UET_PFC_CLASSES]; /**< pause time per class; 0 = resume
					   */
};

/**
 * Write a PFC frame, zero-padded to 60 bytes.
 *
 * @param buf
 *   Destination buffer.
 * @param cap
 *   Bytes available (at least UET_PFC_FRAME_BYTES).
 * @param pfc
 *   Contents (pfc->dst is ignored).
 * @return
 *   UET_PFC_FRAME_BYTES, or -ENOSPC.
 */
int uet_pfc_build(uint8_t *buf, size_t cap, const struct uet_pfc *pfc);

/**
 * Read a PFC frame (from its Ethernet header). The reserved upper byte of
 * the class-enable vector is ignored, as are the padding bytes.
 *
 * @param buf
 *   Frame bytes.
 * @param len
 *   Frame length (at least UET_PFC_BYTES).
 * @param pfc
 *   Filled on success.
 * @param reason
 *   Set to the reject reason (may be NULL).
 * @return
 *   0, or -EBADMSG (short, not MAC control, not opcode 0x0101).
 */
int uet_pfc_parse(const uint8_t *buf, size_t len, struct uet_pfc *pfc,
		  enum uet_wire_reason *reason);

/**
 * Pause duration of a number of quanta at a link rate, rounded up to whole
 * picoseconds so that a pause never ends early.
 *
 * @param quanta
 *   Pause quanta (512 bit times each).
 * @param rate_bps
 *   Link rate in bits per second.
 * @return
 *   Duration in ps; 0 when rate_bps is 0, UINT64_MAX if it overflows.
 */
uet_time_t uet_pfc_quanta_to_ps(uint16_t quanta, uint64_t rate_bps);

/**
 * The pause a PFC sender asks for: PFCPauseQuanta, 0 read as the longest
 * pause (65,535 quanta).
 *
 * @param configured
 *   PFCPauseQuanta.
 * @return
 *   Quanta to send, 1..65535.
 */
static inline uint16_t uet_pfc_pause_quanta(uint16_t configured)
{
	return configured == 0 ? UINT16_MAX : configured;
}

/**
 * When a sender that keeps a class paused sends its pause again: after
 * half of the pause, at least 1 ps, so that the peer never resumes while
 * the sender's pool is still above XON.
 *
 * @param quanta
 *   The pause sent.
 * @param rate_bps
 *   The link's rate.
 * @return
 *   ps from the pause to its refresh, at least 1.
 */
uet_time_t uet_pfc_refresh_ps(uint16_t quanta, uint64_t rate_bps);

/**
 * The end of a pause received at now: now + pause_ps, held below
 * UET_TIME_NEVER (a pause never lasts for ever).
 *
 * @param now_ps
 *   When the pause frame was received.
 * @param pause_ps
 *   uet_pfc_quanta_to_ps() of its quanta.
 * @return
 *   The time the class may send again.
 */
uet_time_t uet_pfc_pause_end_ps(uet_time_t now_ps, uet_time_t pause_ps);

/**
 * Fill a pause frame's vector: classes enabled, each with quanta.
 *
 * @param pfc
 *   The frame's contents; class_enable and quanta are written, the
 *   addresses left.
 * @param classes
 *   Bit c for class c.
 * @param quanta
 *   Pause of each enabled class (0: resume).
 */
void uet_pfc_set_classes(struct uet_pfc *pfc, uint8_t classes, uint16_t quanta);

#endif /* UET_WIRE_PFC_H */
