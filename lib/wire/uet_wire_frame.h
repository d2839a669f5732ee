/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Whole frames: build a UET frame (Ethernet + IPv4 + UDP + PDS [+ SES] +
 * payload) into a caller's buffer, classify and parse any received frame
 * (whole, or from a head of it: uet_wire_mbuf.h reads mbuf chains with
 * it), trim a data frame in place, rewrite its DSCP or ECN, and the size
 * rules.
 */
#ifndef UET_WIRE_FRAME_H
#define UET_WIRE_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_packet_sizes.h"
#include "uet_time.h"
#include "uet_wire_eth.h"
#include "uet_wire_lockstep.h"
#include "uet_wire_pds.h"
#include "uet_wire_pfc.h"
#include "uet_wire_reason.h"
#include "uet_wire_ses.h"

/** Bytes before the PDS header of a UET frame: Ethernet, IPv4, UDP. */
#define UET_FRAME_PDS_OFFSET                                                   \
	(UET_ETH_HDR_BYTES + UET_IPV4_HDR_BYTES + UET_UDP_HDR_BYTES)

/** Bytes of a frame's head that always hold every header the parser reads:
 * the longest header stack (14 + 60 + 8 + 40 + 44 = 166) and the longest
 * lockstep control frame (ABORT: 14 + 32 + 8 + 200 = 254). */
#define UET_FRAME_HEAD_BYTES 256

/** Headers of a data frame as built, the FCS left to the port: the page's
 * + 106 less the 4-byte FCS (14 + 20 + 8 + 16 + 44). */
#define UET_DATA_HDR_FRAME_BYTES (UET_DATA_HDR_WIRE_BYTES - UET_ETH_FCS_BYTES)

/** Wire size of an IP datagram: + 14-byte Ethernet header + 4-byte FCS. */
static inline uint32_t uet_wire_bytes_of_ip(uint32_t ip_bytes)
{
	return ip_bytes + UET_ETH_HDR_BYTES + UET_ETH_FCS_BYTES;
}

/** How far the parser reads into a frame. */
enum uet_frame_depth {
	/** Every header: Ethernet, IPv4, UDP, PDS, SES (a NIC's view). */
	UET_FRAME_DEPTH_ALL = 0,
	/** Ethernet, IPv4 and UDP only; a UET frame's PDS and SES headers
	 * are left unread (a switch's view). */
	UET_FRAME_DEPTH_UDP,
};

/** Settings shared by the frame builders and the top-level parser. */
struct uet_wire_cfg {
	uint16_t udp_dport; /**< UET's UDP destination port (4793) */
	uint8_t depth;	    /**< enum uet_frame_depth */
};

/**
 * Fill a configuration with the defaults (UDP port 4793, every header).
 *
 * @param cfg
 *   Configuration to fill.
 */
void uet_wire_cfg_default(struct uet_wire_cfg *cfg);

/** Addressing and IP marking of one UET frame. */
struct uet_frame_addr {
	uint8_t dst_mac[UET_ETH_ADDR_LEN];
	uint8_t src_mac[UET_ETH_ADDR_LEN];
	uint32_t src_ip;    /**< host order */
	uint32_t dst_ip;    /**< host order */
	uint8_t dscp;	    /**< codepoint of the packet's role */
	uint8_t ecn;	    /**< UET_ECN_ECT1 by default */
	uint8_t ttl;	    /**< 255 by default */
	uint16_t ip_id;	    /**< 0 by default (RFC 6864: DF is set) */
	uint16_t entropy;   /**< UDP source port */
	uint16_t udp_dport; /**< 4793 by default */
};

/**
 * Fill frame addressing with the NIC's defaults: addresses 0, DSCP 0,
 * ECN ECT(1), TTL 255, identification 0, entropy 0, UDP port 4793.
 *
 * @param a
 *   Addressing to fill.
 */
void uet_frame_addr_default(struct uet_frame_addr *a);

/**
 * Write the Ethernet, IPv4 (DF set) and UDP headers (checksum 0) of a
 * frame whose UDP payload is udp_payload_bytes long.
 *
 * @param buf
 *   Destination buffer.
 * @param cap
 *   Bytes available.
 * @param a
 *   Addressing and marking.
 * @param udp_payload_bytes
 *   Bytes after the UDP header (PDS onwards).
 * @return
 *   UET_FRAME_PDS_OFFSET (42), -ENOSPC, or -EINVAL (DSCP/ECN out of range,
 *   datagram over 65535 bytes).
 */
int uet_frame_build_l2l4(uint8_t *buf, size_t cap,
			 const struct uet_frame_addr *a,
			 size_t udp_payload_bytes);

/**
 * Write a whole UET frame: Ethernet, IPv4, UDP, the PDS header, the SES
 * header if ses is not NULL, and the payload.
 *
 * The PDS next_hdr is written as ses->kind when ses is given, as
 * pds->next_hdr (ctl_type for a CP) otherwise. With payload NULL the
 * payload bytes are counted in the lengths but left for the caller to fill
 * (no copy on the hot path). No padding is added: a frame under 60 bytes is
 * padded, if at all, by the port. The data packet of the NIC is a
 * RUD_CC_REQ with a standard SES request: UET_DATA_HDR_FRAME_BYTES of
 * headers.
 *
 * @param buf
 *   Destination buffer.
 * @param cap
 *   Bytes available.
 * @param a
 *   Addressing and marking.
 * @param pds
 *   PDS header.
 * @param ses
 *   SES header, or NULL.
 * @param payload
 *   Payload bytes to copy, or NULL.
 * @param payload_bytes
 *   Payload length.
 * @return
 *   The frame length, or a negative errno from the header builders
 *   (-ENOSPC, -EINVAL, -ENOTSUP).
 */
int uet_frame_build(uint8_t *buf, size_t cap, const struct uet_frame_addr *a,
		    const struct uet_pds_hdr *pds,
		    const struct uet_ses_hdr *ses, const void *payload,
		    size_t payload_bytes);

/**
 * Trim a UET request frame in place, as a switch does: cut it right after
 * the PDS request header, set the IPv4 total length (44 for a _CC request),
 * the UDP length and the DSCP, and recompute the IPv4 checksum. ECN is
 * kept. Anything after the IP datagram (a trailer) is dropped with it.
 *
 * @param buf
 *   The frame.
 * @param len
 *   Frame length.
 * @param dscp
 *   Codepoint to write (trimmed or trimmed-last-hop).
 * @return
 *   The new frame length (58 for a _CC request), -EBADMSG if the frame does
 *   not parse as Ethernet/IPv4/UDP/PDS, -EINVAL if it is not a RUD/ROD
 *   request or dscp >= 64.
 */
int uet_frame_trim(uint8_t *buf, size_t len, uint8_t dscp);

/**
 * Rewrite the DSCP of an Ethernet/IPv4 frame and fix the checksum.
 *
 * @param buf
 *   The frame.
 * @param len
 *   Frame length.
 * @param dscp
 *   New codepoint.
 * @return
 *   0, -EBADMSG (not a valid IPv4 frame) or -EINVAL (dscp >= 64).
 */
int uet_frame_set_dscp(uint8_t *buf, size_t len, uint8_t dscp);

/**
 * Mark congestion (ECN CE) on an ECN-capable Ethernet/IPv4 frame and fix
 * the checksum; a Not-ECT frame is left alone.
 *
 * @param buf
 *   The frame.
 * @param len
 *   Frame length.
 * @return
 *   1 if the frame is now CE (it was ECT or CE), 0 if it is Not-ECT,
 *   -EBADMSG if it is not a valid IPv4 frame.
 */
int uet_frame_mark_ce(uint8_t *buf, size_t len);

/** What a frame is. */
enum uet_frame_kind {
	UET_FRAME_OTHER = 0, /**< anything else (parsed as far as known) */
	UET_FRAME_UET,	     /**< IPv4/UDP to the UET port */
	UET_FRAME_PFC,	     /**< 802.1Qbb PFC */
	UET_FRAME_LOCKSTEP,  /**< lockstep control frame */
};

/** A parsed frame. Offsets are from the start of the frame. */
struct uet_frame {
	uint8_t kind; /**< enum uet_frame_kind */
	struct uet_eth_hdr eth;
	bool has_ipv4;
	struct uet_ipv4_hdr ip;
	size_t ip_end; /**< offset just past the IP datagram */
	bool has_udp;
	struct uet_udp_hdr udp;
	/** A lockstep trailer follows the IP datagram. */
	bool has_trailer;
	uet_time_t arrival_ps; /**< the trailer's time */
	/* UET frames: */
	size_t pds_offset;
	struct uet_pds_hdr pds;
	/** The UDP payload ends right after a PDS request header whose
	 * next_hdr names an SES header: a switch trimmed it. */
	bool trimmed;
	bool has_ses;
	size_t ses_offset;
	struct uet_ses_hdr ses;
	size_t payload_offset; /**< after the last header parsed */
	size_t payload_bytes;  /**< to the end of the UDP payload */
	/* PFC and lockstep control frames: */
	union {
		struct uet_pfc pfc;
		struct uet_ls_ctrl ls;
	} l2;
};

/**
 * Classify and parse a frame with the default configuration.
 *
 * @param buf
 *   Frame bytes.
 * @param len
 *   Frame length.
 * @param out
 *   Filled on success.
 * @param reason
 *   Set to UET_WIRE_OK or the reject reason (may be NULL).
 * @return
 *   0 (out->kind says what it is, UET_FRAME_OTHER included), or -EBADMSG.
 */
int uet_frame_parse(const uint8_t *buf, size_t len, struct uet_frame *out,
		    enum uet_wire_reason *reason);

/**
 * Classify and parse a frame.
 *
 * IPv4 frames have their header checked whatever they carry; UDP to
 * cfg->udp_dport is UET and its PDS header, and the SES header its next_hdr
 * names (for requests, ACKs and RUDI responses), must parse (unless
 * cfg->depth stops at UDP). NACK and CP next_hdr bits and any bytes after
 * their header are ignored. IPv4 fragments and other protocols or ports
 * are UET_FRAME_OTHER. A trailer is reported when the bytes after the IP
 * datagram start with "UEVT"; it is read after the headers
 * (uet_frame_parse_head() then uet_frame_parse_trailer()), so a frame
 * whose headers fail still reports a good trailer.
 *
 * @param cfg
 *   Configuration.
 * @param buf
 *   Frame bytes.
 * @param len
 *   Frame length.
 * @param out
 *   Filled on success.
 * @param reason
 *   Set to UET_WIRE_OK or the first reject reason (may be NULL).
 * @return
 *   0, or -EBADMSG.
 */
int uet_frame_parse_cfg(const struct uet_wire_cfg *cfg, const uint8_t *buf,
			size_t len, struct uet_frame *out,
			enum uet_wire_reason *reason);

/**
 * Parse the headers of a frame of which only the first bytes are at hand
 * (the first segment of a chain): every layer of uet_frame_parse_cfg() but
 * the trailer, each reading its header from head only and checking its
 * lengths against the whole frame. Never reads past head_len.
 *
 * A head of the whole frame, or of at least UET_FRAME_HEAD_BYTES, never
 * gives -EAGAIN.
 *
 * @param cfg
 *   Configuration.
 * @param head
 *   The frame's first head_len bytes.
 * @param head_len
 *   Bytes at head (more than len counts as len).
 * @param len
 *   The frame's whole length.
 * @param out
 *   Filled as far as the parse went; out->l2 only for PFC and lockstep
 *   control frames.
 * @param reason
 *   Set to UET_WIRE_OK or the reject reason (may be NULL).
 * @return
 *   0, -EBADMSG, or -EAGAIN when a header runs past head_len inside the
 *   frame (the caller retries with a longer head).
 */
int uet_frame_parse_head(const struct uet_wire_cfg *cfg, const uint8_t *head,
			 size_t head_len, size_t len, struct uet_frame *out,
			 enum uet_wire_reason *reason);

/**
 * The step after uet_frame_parse_head() for an IPv4 frame with bytes after
 * its datagram: a lockstep trailer there sets f->has_trailer and
 * f->arrival_ps; other bytes (Ethernet padding) are ignored.
 *
 * @param f
 *   The frame as uet_frame_parse_head() left it (has_ipv4 set).
 * @param tail
 *   Bytes that follow the IP datagram (at f->ip_end).
 * @param tail_bytes
 *   How many: all of them, or at least UET_LS_TRAILER_BYTES.
 * @param reason
 *   Set to the reject reason on -EBADMSG (may be NULL).
 * @return
 *   0, or -EBADMSG (the magic of a trailer cut short; f->kind is then
 *   UET_FRAME_OTHER).
 */
int uet_frame_parse_trailer(struct uet_frame *f, const uint8_t *tail,
			    size_t tail_bytes, enum uet_wire_reason *reason);

/**
 * Name of a frame kind ("UET").
 *
 * @param kind
 *   enum uet_frame_kind.
 * @return
 *   A constant string.
 */
const char *uet_frame_kind_name(unsigned int kind);

#endif /* UET_WIRE_FRAME_H */
