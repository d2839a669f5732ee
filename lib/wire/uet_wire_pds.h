/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * PDS headers (UET 1.0 packet delivery sublayer): the prologue, requests,
 * ACKs, NACKs, control packets, RUDI and UUD. All fields big-endian on the
 * wire. The prologue is be16: type[15:11], next_hdr or ctl_type[10:7],
 * flags[6:0].
 */
#ifndef UET_WIRE_PDS_H
#define UET_WIRE_PDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_wire_reason.h"

/** PDS packet types (prologue bits 15:11). */
enum uet_pds_type {
	UET_PDS_TYPE_TSS = 1, /**< security header; not supported */
	UET_PDS_TYPE_RUD_REQ = 2,
	UET_PDS_TYPE_ROD_REQ = 3,
	UET_PDS_TYPE_RUDI_REQ = 4,
	UET_PDS_TYPE_RUDI_RESP = 5,
	UET_PDS_TYPE_UUD_REQ = 6,
	UET_PDS_TYPE_ACK = 7,
	UET_PDS_TYPE_ACK_CC = 8,
	UET_PDS_TYPE_ACK_CCX = 9,
	UET_PDS_TYPE_NACK = 10,
	UET_PDS_TYPE_CP = 11,
	UET_PDS_TYPE_NACK_CCX = 12,
	UET_PDS_TYPE_RUD_CC_REQ = 13,
	UET_PDS_TYPE_ROD_CC_REQ = 14,
};

/* Header sizes in bytes, by type. */
#define UET_PDS_REQ_BYTES 12	/**< RUD_REQ, ROD_REQ */
#define UET_PDS_CC_REQ_BYTES 16 /**< RUD_CC_REQ, ROD_CC_REQ */
#define UET_PDS_RUDI_BYTES 8	/**< RUDI_REQ, RUDI_RESP */
#define UET_PDS_UUD_BYTES 4
#define UET_PDS_ACK_BYTES 12
#define UET_PDS_ACK_CC_BYTES 32
#define UET_PDS_ACK_CCX_BYTES 40
#define UET_PDS_NACK_BYTES 16
#define UET_PDS_NACK_CCX_BYTES 32
#define UET_PDS_CP_BYTES 16
#define UET_PDS_MAX_BYTES 40

/* Request flags (types 2, 3, 13, 14). */
#define UET_PDS_REQ_F_RETX 0x10
#define UET_PDS_REQ_F_AR 0x08
#define UET_PDS_REQ_F_SYN 0x04
#define UET_PDS_REQ_F_MASK 0x1c

/* ACK flags (types 7, 8, 9); bits 2:1 are the req field. */
#define UET_PDS_ACK_F_M 0x20
#define UET_PDS_ACK_F_RETX 0x10
#define UET_PDS_ACK_F_P 0x08
#define UET_PDS_ACK_F_REQ_MASK 0x06
#define UET_PDS_ACK_F_REQ_SHIFT 1
#define UET_PDS_ACK_F_MASK 0x38

/* ACK req field values. */
#define UET_PDS_ACK_REQ_NONE 0
#define UET_PDS_ACK_REQ_CLEAR 1
#define UET_PDS_ACK_REQ_CLOSE 2

/* ACK_CC cc_type values. */
#define UET_PDS_CC_TYPE_NSCC 0
#define UET_PDS_CC_TYPE_CREDIT 1

/* NACK flags (types 10, 12). */
#define UET_PDS_NACK_F_M 0x20
#define UET_PDS_NACK_F_RETX 0x10
#define UET_PDS_NACK_F_NT 0x08 /**< 1: RUDI (nack_psn is a packet id) */
#define UET_PDS_NACK_F_MASK 0x38

/* Control packet flags (type 11). */
#define UET_PDS_CP_F_ISROD 0x20
#define UET_PDS_CP_F_RETX 0x10
#define UET_PDS_CP_F_AR 0x08
#define UET_PDS_CP_F_SYN 0x04
#define UET_PDS_CP_F_MASK 0x3c

/* RUDI flags (types 4, 5). */
#define UET_PDS_RUDI_F_M 0x20 /**< meaningful on responses only */
#define UET_PDS_RUDI_F_RETX 0x10
#define UET_PDS_RUDI_F_MASK 0x30

/** NACK codes. Only UET_TRIMMED and UET_TRIMMED_LASTHOP are ever sent. */
enum uet_nack_code {
	UET_NACK_TRIMMED = 0x01,
	UET_NACK_TRIMMED_LASTHOP = 0x02,
	UET_NACK_TRIMMED_ACK = 0x03, /**< reserved from UET 1.0.3 */
	UET_NACK_NO_PDC_AVAIL = 0x04,
	UET_NACK_NO_CCC_AVAIL = 0x05,
	UET_NACK_NO_BITMAP = 0x06,
	UET_NACK_NO_PKT_BUFFER = 0x07,
	UET_NACK_NO_GTD_DEL_AVAIL = 0x08,
	UET_NACK_NO_SES_MSG_AVAIL = 0x09,
	UET_NACK_NO_RESOURCE = 0x0A,
	UET_NACK_PSN_OOR_WINDOW = 0x0B,
	UET_NACK_ROD_OOO = 0x0D,
	UET_NACK_INV_DPDCID = 0x0E,
	UET_NACK_PDC_HDR_MISMATCH = 0x0F,
	UET_NACK_CLOSING = 0x10,
	UET_NACK_CLOSING_IN_ERR = 0x11,
	UET_NACK_PKT_NOT_RCVD = 0x12,
	UET_NACK_GTD_RESP_UNAVAIL = 0x13,
	UET_NACK_ACK_WITH_DATA = 0x14,
	UET_NACK_INVALID_SYN = 0x15,
	UET_NACK_PDC_MODE_MISMATCH = 0x16,
	UET_NACK_NEW_START_PSN = 0x17,
	UET_NACK_RCVD_SES_PROCG = 0x18,
	UET_NACK_UNEXP_EVENT = 0x19,
	UET_NACK_RCVR_INFER_LOSS = 0x1A,
	UET_NACK_EXP_NACK_NORMAL = 0xFD,
	UET_NACK_EXP_NACK_ERR = 0xFE,
	UET_NACK_EXP_NACK_FATAL = 0xFF,
};

/** Control packet types (CP prologue bits 10:7). */
enum uet_cp_ctl_type {
	UET_CP_NOOP = 0,
	UET_CP_ACK_REQ = 1,
	UET_CP_CLEAR = 2,
	UET_CP_CLEAR_REQ = 3,
	UET_CP_CLOSE = 4,
	UET_CP_CLOSE_REQ = 5,
	UET_CP_PROBE = 6, /**< base-RTT probe, answered by an ACK with P */
	UET_CP_CREDIT = 7,
	UET_CP_CREDIT_REQ = 8,
	UET_CP_NEGOTIATION = 9,
};

/**
 * The SYN overlay of bytes 10-11 (requests and CPs with SYN set):
 * pdc_info[15:12] (use_rsv_pdc is bit 15) and psn_offset[11:0].
 */
struct uet_pds_syn {
	uint8_t pdc_info;    /**< the 4-bit nibble as received; built as 0
			      * or 0x8 (use_rsv_pdc) */
	bool use_rsv_pdc;    /**< bit 15: take the PDC from the reserved pool */
	uint16_t psn_offset; /**< PSN - Start_PSN, 12 bits */
};

/** RUD/ROD request, types 2, 3 (12 B) and 13, 14 (16 B). */
struct uet_pds_req {
	int16_t clear_psn_offset; /**< CLEAR_PSN = psn + offset (<= 0) */
	uint32_t psn;
	uint16_t spdcid;
	uint16_t dpdcid;	/**< when SYN is clear */
	struct uet_pds_syn syn; /**< when SYN is set (dpdcid is then 0) */
	uint8_t ccc_id;		/**< _CC types only */
	uint32_t credit_target; /**< _CC types only, 24 bits */
};

/** NSCC state of an ACK_CC (cc_type 0). */
struct uet_pds_nscc_state {
	uint16_t service_time; /**< receiver's ACK hold, in 128 ns steps */
	bool restore_cwnd;
	uint8_t rcv_cwnd_pend; /**< 7 bits */
	uint32_t rcvd_bytes;   /**< 24 bits */
	uint16_t ooo_count;
};

/** Credit state of an ACK_CC (cc_type 1). */
struct uet_pds_credit_state {
	uint32_t credit; /**< 24 bits */
	uint32_t rsvd;	 /**< 24 bits, 0 on build */
	uint16_t ooo_count;
};

/** ACK, types 7 (12 B), 8 (32 B) and 9 (40 B). */
struct uet_pds_ack {
	int16_t ack_psn_offset; /**< ACK_PSN = cack_psn + offset; P clear */
	uint16_t probe_opaque;	/**< echoed from the probe; P set */
	uint32_t cack_psn;	/**< cumulative ACK PSN */
	uint16_t spdcid;
	uint16_t dpdcid;
	uint8_t req; /**< UET_PDS_ACK_REQ_*, flags bits 2:1 */
	/* ACK_CC and ACK_CCX only: */
	uint8_t cc_type;	 /**< 4 bits (ACK_CCX: ccx_type) */
	uint8_t cc_flags;	 /**< 4 bits */
	uint8_t mpr;		 /**< maximum PSN range */
	int16_t sack_psn_offset; /**< SACK base = cack_psn + offset */
	uint64_t sack_bitmap;	 /**< bit i (LSB first) = base + i received */
	union {
		struct uet_pds_nscc_state nscc;	    /**< ACK_CC, cc_type 0 */
		struct uet_pds_credit_state credit; /**< ACK_CC, cc_type 1 */
	} cc;
	uint8_t cc_state[16]; /**< raw state: 8 B (ACK_CC; built from cc
			       * when cc_type is 0 or 1) or 16 B (ACK_CCX) */
};

/** NACK, types 10 (16 B) and 12 (32 B). */
struct uet_pds_nack {
	uint8_t nack_code; /**< enum uet_nack_code */
	uint8_t vendor_code;
	uint32_t nack_psn; /**< the PSN, or the RUDI packet id when NT */
	uint16_t spdcid;
	uint16_t dpdcid;
	uint32_t payload; /**< code-dependent */
	/* NACK_CCX only: */
	uint8_t nccx_type;     /**< bits 63:60 of byte 16 */
	uint8_t ccx_state[16]; /**< bytes 16-31 raw (nccx_type included) */
};

/** Control packet, type 11 (16 B). */
struct uet_pds_cp {
	uint16_t probe_opaque; /**< PROBE; reserved for other types */
	uint32_t psn;	       /**< a CP takes a forward PSN */
	uint16_t spdcid;
	uint16_t dpdcid;	/**< when SYN is clear */
	struct uet_pds_syn syn; /**< when SYN is set */
	uint32_t payload; /**< ctl_type-dependent (PROBE: SACK base PSN) */
};

/** RUDI request or response, types 4, 5 (8 B). */
struct uet_pds_rudi {
	uint32_t pkt_id;
};

/** Any PDS header: the prologue and the type's fields. */
struct uet_pds_hdr {
	uint8_t type;	   /**< enum uet_pds_type */
	uint8_t next_hdr;  /**< SES header type; ctl_type for a CP */
	uint8_t flags;	   /**< 7 bits, all of them as on the wire
			    * (for ACKs including the req bits) */
	uint8_t hdr_bytes; /**< header size (set by parse) */
	union {
		struct uet_pds_req req;
		struct uet_pds_ack ack;
		struct uet_pds_nack nack;
		struct uet_pds_cp cp;
		struct uet_pds_rudi rudi;
	} u;
};

/**
 * Header size of a PDS type.
 *
 * @param type
 *   PDS type.
 * @return
 *   Bytes, or 0 for a type without a fixed header (reserved, TSS, unknown).
 */
size_t uet_pds_hdr_bytes(unsigned int type);

/**
 * Whether a PDS type is a RUD/ROD request (2, 3, 13, 14), the header a
 * switch keeps when it trims a packet.
 *
 * @param type
 *   PDS type.
 * @return
 *   true for the four request types.
 */
bool uet_pds_type_is_req(unsigned int type);

/**
 * Write a PDS header.
 *
 * The prologue is built from h->type, h->next_hdr (ctl_type for a CP) and
 * h->flags; for ACKs the req bits of h->flags are replaced by h->u.ack.req.
 * For requests and CPs with SYN set, bytes 10-11 carry the SYN overlay from
 * the syn member (pdc_info bits 14:12 sent as 0).
 *
 * @param buf
 *   Destination buffer.
 * @param cap
 *   Bytes available in buf.
 * @param h
 *   Header to write.
 * @return
 *   The header size, -ENOSPC, -EINVAL for a field out of range or a reserved
 *   flag set, or -ENOTSUP for TSS and unknown types.
 */
int uet_pds_build(uint8_t *buf, size_t cap, const struct uet_pds_hdr *h);

/**
 * Read a PDS header of any type but TSS.
 *
 * Reserved bits are tolerated; the SYN overlay is decoded when the type has
 * one and SYN is set.
 *
 * @param buf
 *   Bytes from the start of the PDS header.
 * @param len
 *   Bytes available (the rest of the UDP payload).
 * @param h
 *   Filled on success (h->hdr_bytes too).
 * @param reason
 *   Set to the reject reason (may be NULL).
 * @return
 *   The header size, or -EBADMSG.
 */
int uet_pds_parse(const uint8_t *buf, size_t len, struct uet_pds_hdr *h,
		  enum uet_wire_reason *reason);

/**
 * Name of a PDS type ("RUD_CC_REQ").
 *
 * @param type
 *   PDS type.
 * @return
 *   A constant string; "RESERVED" or "UNKNOWN" when not a 1.0 type.
 */
const char *uet_pds_type_name(unsigned int type);

/**
 * Name of a NACK code ("UET_TRIMMED_LASTHOP").
 *
 * @param code
 *   nack_code byte.
 * @return
 *   A constant string; "RESERVED" for unassigned codes.
 */
const char *uet_nack_code_name(unsigned int code);

/**
 * Name of a control packet type ("PROBE").
 *
 * @param ctl_type
 *   The CP's ctl_type.
 * @return
 *   A constant string; "RESERVED" for 10-15.
 */
const char *uet_cp_ctl_type_name(unsigned int ctl_type);

#endif /* UET_WIRE_PDS_H */
