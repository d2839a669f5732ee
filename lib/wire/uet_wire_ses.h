/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SES headers (UET 1.0 semantic sublayer): the standard, small and medium
 * requests and the three response headers. The PDS next_hdr field says which
 * one follows the PDS header.
 */
#ifndef UET_WIRE_SES_H
#define UET_WIRE_SES_H

#include <stddef.h>
#include <stdint.h>

#include "uet_wire_reason.h"

/** SES header types (the PDS next_hdr value). */
enum uet_ses_kind {
	UET_SES_NONE = 0,
	UET_SES_REQUEST_SMALL = 1,
	UET_SES_REQUEST_MEDIUM = 2,
	UET_SES_REQUEST_STD = 3,
	UET_SES_RESPONSE = 4,
	UET_SES_RESPONSE_DATA = 5,
	UET_SES_RESPONSE_DATA_SMALL = 6,
};

#define UET_SES_SMALL_BYTES 20
#define UET_SES_MEDIUM_BYTES 32
#define UET_SES_STD_BYTES 44
#define UET_SES_RSP_BYTES 12
#define UET_SES_RSP_DATA_BYTES 20
#define UET_SES_RSP_DATA_SMALL_BYTES 12

/* Request flags (byte 1, bits 5:0). */
#define UET_SES_F_DC 0x20  /**< delivery complete */
#define UET_SES_F_IE 0x10  /**< initiator error */
#define UET_SES_F_REL 0x08 /**< relative addressing */
#define UET_SES_F_HD 0x04  /**< header_data present */
#define UET_SES_F_EOM 0x02 /**< end of message */
#define UET_SES_F_SOM 0x01 /**< start of message */

/** Request opcodes (6 bits). */
enum uet_ses_opcode {
	UET_SES_OP_NO_OP = 0x00,
	UET_SES_OP_WRITE = 0x01,
	UET_SES_OP_READ = 0x02,
	UET_SES_OP_ATOMIC = 0x03,
	UET_SES_OP_FETCHING_ATOMIC = 0x04,
	UET_SES_OP_SEND = 0x05,
	UET_SES_OP_RENDEZVOUS_SEND = 0x06,
	UET_SES_OP_DATAGRAM_SEND = 0x07,
	UET_SES_OP_DEFERRABLE_SEND = 0x08,
	UET_SES_OP_TAGGED_SEND = 0x09,
	UET_SES_OP_RENDEZVOUS_TSEND = 0x0A,
	UET_SES_OP_DEFERRABLE_TSEND = 0x0B,
	UET_SES_OP_DEFERRABLE_RTR = 0x0C,
	UET_SES_OP_TSEND_ATOMIC = 0x0D,
	UET_SES_OP_TSEND_FETCH_ATOMIC = 0x0E,
	UET_SES_OP_MSG_ERROR = 0x0F,
};

/** Response opcodes. */
enum uet_ses_rsp_opcode {
	UET_SES_RSP_DEFAULT_RESPONSE = 0,
	UET_SES_RSP_RESPONSE = 1,
	UET_SES_RSP_RESPONSE_W_DATA = 2,
	UET_SES_RSP_NO_RESPONSE = 3,
};

/** Standard request (next_hdr 3), 44 bytes. */
struct uet_ses_std {
	uint8_t opcode; /**< 6 bits, enum uet_ses_opcode */
	uint8_t flags;	/**< UET_SES_F_* (6 bits) */
	uint16_t message_id;
	uint8_t ri_generation;
	uint32_t job_id;	 /**< 24 bits */
	uint16_t pid_on_fep;	 /**< 12 bits */
	uint16_t resource_index; /**< 12 bits */
	uint64_t buffer_offset;
	uint32_t initiator;
	uint64_t memory_key; /**< or match_bits */
	/**
	 * Bytes 32-39 as one value. SOM set: header_data, written as is.
	 * SOM clear: built from payload_length and message_offset; on parse
	 * the raw bytes (some senders put header_data here with SOM clear).
	 */
	uint64_t header_data;
	uint16_t payload_length; /**< SOM clear: bits 45:32, 14 bits */
	uint32_t message_offset; /**< SOM clear: bits 31:0 */
	uint32_t request_length; /**< total message length, bytes */
};

/** Small request (next_hdr 1), 20 bytes; SOM = EOM = 1 implied. */
struct uet_ses_small {
	uint8_t opcode;
	uint8_t flags;
	uint16_t request_length; /**< 14 bits */
	uint8_t ri_generation;
	uint32_t job_id;
	uint16_t pid_on_fep;
	uint16_t resource_index;
	uint64_t buffer_offset;
};

/** Medium request (next_hdr 2), 32 bytes. */
struct uet_ses_medium {
	uint8_t opcode;
	uint8_t flags;
	uint16_t request_length; /**< 14 bits */
	uint8_t ri_generation;
	uint32_t job_id;
	uint16_t pid_on_fep;
	uint16_t resource_index;
	uint64_t buffer_offset; /**< header_data when HD is set */
	uint32_t initiator;
	uint64_t memory_key; /**< or match_bits */
};

/** Response (next_hdr 4), 12 bytes. */
struct uet_ses_rsp {
	uint8_t list;	     /**< 2 bits */
	uint8_t opcode;	     /**< 6 bits, enum uet_ses_rsp_opcode */
	uint8_t return_code; /**< 6 bits */
	uint16_t message_id;
	uint8_t ri_generation;
	uint32_t job_id; /**< 24 bits */
	uint32_t modified_length;
};

/** Response with data (next_hdr 5), 20 bytes + data. */
struct uet_ses_rsp_data {
	uint8_t list;
	uint8_t opcode;
	uint8_t return_code;
	uint16_t message_id;
	uint32_t job_id;
	uint16_t read_req_message_id;
	uint16_t payload_length; /**< 14 bits */
	uint32_t modified_length;
	uint32_t message_offset;
};

/** Small response with data (next_hdr 6), 12 bytes + data. */
struct uet_ses_rsp_data_small {
	uint8_t list;
	uint8_t opcode;
	uint8_t return_code;
	uint16_t payload_length; /**< 14 bits */
	uint32_t job_id;
	uint32_t original_request_psn;
};

/** Any SES header, tagged by its next_hdr value. */
struct uet_ses_hdr {
	uint8_t kind; /**< enum uet_ses_kind, 1-6 */
	union {
		struct uet_ses_std std;
		struct uet_ses_small small;
		struct uet_ses_medium medium;
		struct uet_ses_rsp rsp;
		struct uet_ses_rsp_data rsp_data;
		struct uet_ses_rsp_data_small rsp_data_small;
	} u;
};

/**
 * Header size of an SES header type.
 *
 * @param kind
 *   next_hdr value.
 * @return
 *   Bytes (0 for UET_SES_NONE and unknown kinds).
 */
size_t uet_ses_hdr_bytes(unsigned int kind);

/**
 * Write an SES header of kind h->kind (1-6). Opcode extensions (atomic,
 * rendezvous) are not written: they are the caller's payload.
 *
 * @param buf
 *   Destination buffer.
 * @param cap
 *   Bytes available in buf.
 * @param h
 *   Header to write.
 * @return
 *   The header size, -ENOSPC, or -EINVAL for a field out of range.
 */
int uet_ses_build(uint8_t *buf, size_t cap, const struct uet_ses_hdr *h);

/**
 * Read an SES header of a given kind (the PDS next_hdr). Version bits must
 * be 0; reserved bits are tolerated.
 *
 * @param kind
 *   next_hdr value, 1-6.
 * @param buf
 *   Bytes from the start of the SES header.
 * @param len
 *   Bytes available.
 * @param h
 *   Filled on success.
 * @param reason
 *   Set to the reject reason (may be NULL).
 * @return
 *   The header size, or -EBADMSG.
 */
int uet_ses_parse(unsigned int kind, const uint8_t *buf, size_t len,
		  struct uet_ses_hdr *h, enum uet_wire_reason *reason);

/**
 * Name of a request opcode ("WRITE"); "RESERVED", "VENDOR" or "EXTENDED"
 * for the ranges 0x10-0x2F, 0x30-0x3E and 0x3F.
 *
 * @param opcode
 *   6-bit opcode.
 * @return
 *   A constant string.
 */
const char *uet_ses_opcode_name(unsigned int opcode);

/**
 * Name of a response opcode ("RESPONSE_W_DATA").
 *
 * @param opcode
 *   Response opcode.
 * @return
 *   A constant string; "RESERVED" above 3.
 */
const char *uet_ses_rsp_opcode_name(unsigned int opcode);

/**
 * Name of an SES return code ("AT_PERM").
 *
 * @param code
 *   6-bit return code.
 * @return
 *   A constant string; "RESERVED", "VENDOR" or "EXTENDED" when unassigned.
 */
const char *uet_ses_return_code_name(unsigned int code);

#endif /* UET_WIRE_SES_H */
