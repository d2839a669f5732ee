/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The data-path page's packet sizes, defined once. The page's "Packets on
 * the wire" builds a data packet from a 44-byte semantic header, a 16-byte
 * PDS request header, an 8-byte UDP header and a 20-byte IPv4 header, and
 * the port adds a 14-byte Ethernet header and a 4-byte FCS; its "Worked
 * example: packet sizes at the default RdmaDataMSS" gives the totals at
 * 4,096 bytes of payload: 4,184 bytes nominal, 4,202 on the wire.
 *
 * Every library counts with these: lib/pds (what is in flight), lib/cc
 * (the window's unit), lib/nic (pools, the prefetch buffer, the PCIe
 * doorbell), lib/config (the rules and derived figures), lib/wire (the
 * frames it builds, whose header layouts add up to these; uet_wire_frame.c
 * asserts it). It lives in lib/core because all of them depend on it and
 * not all of them on lib/wire.
 */
#ifndef UET_PACKET_SIZES_H
#define UET_PACKET_SIZES_H

#include <stdint.h>

/** Headers of a data packet at the IP layer, the page's "+ 88": IPv4 (20),
 * UDP (8), PDS RUD_CC_REQ (16), SES standard request (44). A packet's
 * nominal size, the unit of the congestion window and of the receiver's
 * ingress pool, is its payload plus these. */
#define UET_DATA_HDR_IP_BYTES 88
/** The same on the wire, the page's "+ 106": + the Ethernet header (14)
 * and FCS (4). The egress reservation and the serialization count it. */
#define UET_DATA_HDR_WIRE_BYTES 106
/** A trimmed packet at the IP layer: IPv4 + UDP + PDS request (20 + 8 +
 * 16); a switch cuts a data packet down to this. */
#define UET_TRIMMED_IP_BYTES 44
/** A trimmed packet on the wire: + the Ethernet header and FCS. */
#define UET_TRIMMED_WIRE_BYTES 62
/** Bytes the host writes to the NIC over PCIe to post a message: the
 * doorbell with its WQE ("Messages and packet delivery contexts"). */
#define UET_DOORBELL_BYTES 64
/** The NIC's PCIe read request for one segment's payload, NIC to host
 * ("Sending a packet", step 2). */
#define UET_READ_REQUEST_BYTES 64
/** Largest frame on the wire, FCS counted, that the NIC sends: a jumbo
 * frame. The project's limit, not the page's. */
#define UET_FRAME_MAX_BYTES 9000
/** Largest RdmaDataMSS: a full packet fits UET_FRAME_MAX_BYTES. */
#define UET_MSS_MAX_BYTES (UET_FRAME_MAX_BYTES - UET_DATA_HDR_WIRE_BYTES)

/** Nominal (IP) size of a data packet: payload + 88 bytes. */
static inline uint32_t uet_data_ip_bytes(uint32_t payload_bytes)
{
	return payload_bytes + UET_DATA_HDR_IP_BYTES;
}

/** Wire size of a data packet, FCS counted: payload + 106 bytes. */
static inline uint32_t uet_data_wire_bytes(uint32_t payload_bytes)
{
	return payload_bytes + UET_DATA_HDR_WIRE_BYTES;
}

#endif /* UET_PACKET_SIZES_H */
