/* SPDX-License-Identifier: BSD-3-Clause */
/* Strings for the reject reasons of the wire parsers. */
#include <stddef.h>

#include "uet_wire_reason.h"

const char *uet_wire_reason_str(enum uet_wire_reason reason)
{
	static const char *const str[UET_WIRE_REASON_COUNT] = {
		[UET_WIRE_OK] = "ok",
		[UET_WIRE_ETH_SHORT] = "frame shorter than Ethernet header",
		[UET_WIRE_IPV4_SHORT] = "IPv4 header truncated",
		[UET_WIRE_IPV4_VERSION] = "IPv4 version not 4",
		[UET_WIRE_IPV4_IHL] = "IPv4 IHL below 5",
		[UET_WIRE_IPV4_OPTIONS_TRUNC] = "IPv4 options truncated",
		[UET_WIRE_IPV4_CSUM] = "IPv4 header checksum mismatch",
		[UET_WIRE_IPV4_TOTLEN_SHORT] =
			"IPv4 total length shorter than its header",
		[UET_WIRE_IPV4_TOTLEN_EXCEEDS] =
			"IPv4 total length exceeds frame",
		[UET_WIRE_UDP_SHORT] = "UDP header truncated",
		[UET_WIRE_UDP_LEN] = "UDP length mismatch",
		[UET_WIRE_PDS_SHORT] = "PDS prologue truncated",
		[UET_WIRE_PDS_TYPE_RESERVED] = "reserved PDS type 0",
		[UET_WIRE_PDS_TYPE_TSS] =
			"PDS type 1 (TSS security header) not supported",
		[UET_WIRE_PDS_TYPE_UNKNOWN] = "unknown PDS type (15-31)",
		[UET_WIRE_PDS_TRUNC] = "PDS header truncated",
		[UET_WIRE_SES_NEXT_HDR_UNKNOWN] =
			"unknown SES next header (7-15)",
		[UET_WIRE_SES_TRUNC] = "SES header truncated",
		[UET_WIRE_SES_VERSION] = "SES version not 0",
		[UET_WIRE_CRC_SHORT] = "CRC32C trailer truncated",
		[UET_WIRE_CRC_MISMATCH] = "CRC32C mismatch",
		[UET_WIRE_PFC_SHORT] = "PFC frame truncated",
		[UET_WIRE_PFC_ETHERTYPE] = "not a MAC control frame (0x8808)",
		[UET_WIRE_PFC_OPCODE] = "MAC control opcode not PFC (0x0101)",
		[UET_WIRE_LS_TRAILER_SHORT] = "lockstep trailer truncated",
		[UET_WIRE_LS_TRAILER_MAGIC] = "lockstep trailer magic not UEVT",
		[UET_WIRE_LS_ETHERTYPE] =
			"not a lockstep control frame (0x88B5)",
		[UET_WIRE_LS_SHORT] = "lockstep control header truncated",
		[UET_WIRE_LS_MAGIC] = "lockstep control magic not UECT",
		[UET_WIRE_LS_VERSION] = "lockstep control version not 1",
		[UET_WIRE_LS_TYPE] = "unknown lockstep control type",
		[UET_WIRE_LS_BODY_LEN] =
			"lockstep body length does not match its type",
		[UET_WIRE_LS_TEXT_LEN] = "lockstep ABORT text over 200 bytes",
		[UET_WIRE_LS_TRUNC] = "lockstep control body truncated",
		[UET_WIRE_LS_NOTES_LEN] = "lockstep NOTES over 1452 bytes",
	};

	if ((unsigned int)reason >= UET_WIRE_REASON_COUNT ||
	    str[reason] == NULL)
		return "unknown reason";
	return str[reason];
}
