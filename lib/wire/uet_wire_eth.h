/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ethernet II, IPv4 and UDP headers: build into and parse from byte buffers.
 * Structs hold host-order values; the buffers hold network order.
 */
#ifndef UET_WIRE_ETH_H
#define UET_WIRE_ETH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_wire_reason.h"

#define UET_ETH_ADDR_LEN 6
#define UET_ETH_HDR_BYTES 14	   /**< dst, src, EtherType */
#define UET_ETH_FCS_BYTES 4	   /**< counted in wire sizes, rarely carried */
#define UET_ETH_MIN_FRAME_BYTES 60 /**< minimum frame without the FCS */
#define UET_IPV4_HDR_BYTES 20	   /**< IHL 5, no options */
#define UET_UDP_HDR_BYTES 8

#define UET_ETHERTYPE_IPV4 0x0800
#define UET_ETHERTYPE_MAC_CONTROL 0x8808
#define UET_ETHERTYPE_LOCKSTEP 0x88B5
#define UET_IPPROTO_UDP 17
#define UET_UDP_PORT_UET 4793 /**< default UET destination port */

/* IPv4 ECN field values (RFC 3168). */
#define UET_ECN_NOT_ECT 0
#define UET_ECN_ECT1 1
#define UET_ECN_ECT0 2
#define UET_ECN_CE 3

/** Ethernet II header. */
struct uet_eth_hdr {
	uint8_t dst[UET_ETH_ADDR_LEN];
	uint8_t src[UET_ETH_ADDR_LEN];
	uint16_t ethertype;
};

/** IPv4 header fields (host order). */
struct uet_ipv4_hdr {
	uint8_t ihl;  /**< header length in 32-bit words; 5 on build */
	uint8_t dscp; /**< 6 bits */
	uint8_t ecn;  /**< 2 bits, UET_ECN_* */
	uint16_t total_length_bytes; /**< IP header + payload */
	uint16_t id;		     /**< identification */
	bool df;		     /**< don't fragment */
	bool mf;	      /**< more fragments (parse only; 0 on build) */
	uint16_t frag_offset; /**< in 8-byte units (parse only; 0 on build) */
	uint8_t ttl;
	uint8_t protocol;
	uint16_t checksum; /**< as found on parse; computed on build */
	uint32_t src;	   /**< source address, host order */
	uint32_t dst;	   /**< destination address, host order */
};

/** UDP header fields (host order). */
struct uet_udp_hdr {
	uint16_t sport; /**< the entropy value in UET */
	uint16_t dport;
	uint16_t length_bytes; /**< UDP header + payload */
	uint16_t checksum;     /**< 0 on build; any value accepted on parse */
};

/**
 * Internet checksum (RFC 1071) of a buffer.
 *
 * @param buf
 *   Bytes to sum.
 * @param len
 *   Number of bytes.
 * @return
 *   The one's complement of the one's-complement sum, host order. Over an
 *   IPv4 header whose checksum field is correct, the result is 0.
 */
uint16_t uet_inet_checksum(const uint8_t *buf, size_t len);

/**
 * Write an Ethernet II header.
 *
 * @param buf
 *   Destination buffer.
 * @param cap
 *   Bytes available in buf.
 * @param h
 *   Header to write.
 * @return
 *   UET_ETH_HDR_BYTES, or -ENOSPC.
 */
int uet_eth_build(uint8_t *buf, size_t cap, const struct uet_eth_hdr *h);

/**
 * Read an Ethernet II header.
 *
 * @param buf
 *   Frame bytes.
 * @param len
 *   Frame length.
 * @param h
 *   Filled on success.
 * @param reason
 *   Set to the reject reason (may be NULL).
 * @return
 *   UET_ETH_HDR_BYTES, or -EBADMSG.
 */
int uet_eth_parse(const uint8_t *buf, size_t len, struct uet_eth_hdr *h,
		  enum uet_wire_reason *reason);

/**
 * Write a 20-byte IPv4 header (IHL 5) and its checksum.
 *
 * h->ihl, mf, frag_offset and checksum are ignored.
 *
 * @param buf
 *   Destination buffer.
 * @param cap
 *   Bytes available in buf.
 * @param h
 *   Header to write.
 * @return
 *   UET_IPV4_HDR_BYTES, -ENOSPC, or -EINVAL (dscp >= 64, ecn >= 4, total
 *   length below 20).
 */
int uet_ipv4_build(uint8_t *buf, size_t cap, const struct uet_ipv4_hdr *h);

/**
 * Read and check an IPv4 header: version 4, IHL >= 5, options inside the
 * buffer, header checksum, total length within [IHL * 4, len].
 *
 * @param buf
 *   Bytes from the start of the IPv4 header.
 * @param len
 *   Bytes available from buf (the datagram and anything after it).
 * @param h
 *   Filled on success.
 * @param reason
 *   Set to the reject reason (may be NULL).
 * @return
 *   The header length in bytes (IHL * 4), or -EBADMSG.
 */
int uet_ipv4_parse(const uint8_t *buf, size_t len, struct uet_ipv4_hdr *h,
		   enum uet_wire_reason *reason);

/**
 * Write a UDP header (the checksum field as given; UET sends 0).
 *
 * @param buf
 *   Destination buffer.
 * @param cap
 *   Bytes available in buf.
 * @param h
 *   Header to write.
 * @return
 *   UET_UDP_HDR_BYTES, -ENOSPC, or -EINVAL (length below 8).
 */
int uet_udp_build(uint8_t *buf, size_t cap, const struct uet_udp_hdr *h);

/**
 * Read a UDP header and check that its length is exactly the IP payload.
 *
 * @param buf
 *   Bytes from the start of the UDP header.
 * @param len
 *   The IP payload length (total length - IP header length).
 * @param h
 *   Filled on success.
 * @param reason
 *   Set to the reject reason (may be NULL).
 * @return
 *   UET_UDP_HDR_BYTES, or -EBADMSG.
 */
int uet_udp_parse(const uint8_t *buf, size_t len, struct uet_udp_hdr *h,
		  enum uet_wire_reason *reason);

#endif /* UET_WIRE_ETH_H */
