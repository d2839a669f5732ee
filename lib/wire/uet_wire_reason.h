/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Why a parser rejected a frame: one code per check, each with a string.
 * Every parser of lib/wire reports one of these with its negative return.
 */
#ifndef UET_WIRE_REASON_H
#define UET_WIRE_REASON_H

/** Reasons a frame or header is rejected (UET_WIRE_OK when it is not). */
enum uet_wire_reason {
	UET_WIRE_OK = 0,
	/* Ethernet */
	UET_WIRE_ETH_SHORT,
	/* IPv4 */
	UET_WIRE_IPV4_SHORT,
	UET_WIRE_IPV4_VERSION,
	UET_WIRE_IPV4_IHL,
	UET_WIRE_IPV4_OPTIONS_TRUNC,
	UET_WIRE_IPV4_CSUM,
	UET_WIRE_IPV4_TOTLEN_SHORT,
	UET_WIRE_IPV4_TOTLEN_EXCEEDS,
	/* UDP */
	UET_WIRE_UDP_SHORT,
	UET_WIRE_UDP_LEN,
	/* PDS */
	UET_WIRE_PDS_SHORT,
	UET_WIRE_PDS_TYPE_RESERVED,
	UET_WIRE_PDS_TYPE_TSS,
	UET_WIRE_PDS_TYPE_UNKNOWN,
	UET_WIRE_PDS_TRUNC,
	/* SES */
	UET_WIRE_SES_NEXT_HDR_UNKNOWN,
	UET_WIRE_SES_TRUNC,
	UET_WIRE_SES_VERSION,
	/* CRC32C trailer */
	UET_WIRE_CRC_SHORT,
	UET_WIRE_CRC_MISMATCH,
	/* PFC */
	UET_WIRE_PFC_SHORT,
	UET_WIRE_PFC_ETHERTYPE,
	UET_WIRE_PFC_OPCODE,
	/* lockstep trailer and control frames */
	UET_WIRE_LS_TRAILER_SHORT,
	UET_WIRE_LS_TRAILER_MAGIC,
	UET_WIRE_LS_ETHERTYPE,
	UET_WIRE_LS_SHORT,
	UET_WIRE_LS_MAGIC,
	UET_WIRE_LS_VERSION,
	UET_WIRE_LS_TYPE,
	UET_WIRE_LS_BODY_LEN,
	UET_WIRE_LS_TEXT_LEN,
	UET_WIRE_LS_TRUNC,
	UET_WIRE_LS_NOTES_LEN,
	UET_WIRE_REASON_COUNT
};

/**
 * Describe a reject reason.
 *
 * @param reason
 *   A reason code.
 * @return
 *   A constant string (never NULL; "unknown reason" for codes out of range).
 */
const char *uet_wire_reason_str(enum uet_wire_reason reason);

#endif /* UET_WIRE_REASON_H */
