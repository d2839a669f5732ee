/* SPDX-License-Identifier: BSD-3-Clause */
/* Ethernet II, IPv4 and UDP headers, and the Internet checksum. */
#include <errno.h>
#include <string.h>

#include "uet_wire_be.h"
#include "uet_wire_eth.h"

#define IPV4_DF 0x4000
#define IPV4_MF 0x2000
#define IPV4_FRAG_MASK 0x1fff

static int reject(enum uet_wire_reason *reason, enum uet_wire_reason why)
{
	if (reason != NULL)
		*reason = why;
	return -EBADMSG;
}

uint16_t uet_inet_checksum(const uint8_t *buf, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += uet_be16_load(buf + i);
	if (len & 1)
		sum += (uint32_t)buf[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

int uet_eth_build(uint8_t *buf, size_t cap, const struct uet_eth_hdr *h)
{
	if (cap < UET_ETH_HDR_BYTES)
		return -ENOSPC;
	memcpy(buf, h->dst, UET_ETH_ADDR_LEN);
	memcpy(buf + 6, h->src, UET_ETH_ADDR_LEN);
	uet_be16_store(buf + 12, h->ethertype);
	return UET_ETH_HDR_BYTES;
}

int uet_eth_parse(const uint8_t *buf, size_t len, struct uet_eth_hdr *h,
		  enum uet_wire_reason *reason)
{
	if (len < UET_ETH_HDR_BYTES)
		return reject(reason, UET_WIRE_ETH_SHORT);
	memcpy(h->dst, buf, UET_ETH_ADDR_LEN);
	memcpy(h->src, buf + 6, UET_ETH_ADDR_LEN);
	h->ethertype = uet_be16_load(buf + 12);
	return UET_ETH_HDR_BYTES;
}

int uet_ipv4_build(uint8_t *buf, size_t cap, const struct uet_ipv4_hdr *h)
{
	if (cap < UET_IPV4_HDR_BYTES)
		return -ENOSPC;
	if (h->dscp >= 64 || h->ecn >= 4 ||
	    h->total_length_bytes < UET_IPV4_HDR_BYTES)
		return -EINVAL;
	buf[0] = 0x45;
	buf[1] = (uint8_t)(h->dscp << 2 | h->ecn);
	uet_be16_store(buf + 2, h->total_length_bytes);
	uet_be16_store(buf + 4, h->id);
	uet_be16_store(buf + 6, h->df ? IPV4_DF : 0);
	buf[8] = h->ttl;
	buf[9] = h->protocol;
	uet_be16_store(buf + 10, 0);
	uet_be32_store(buf + 12, h->src);
	uet_be32_store(buf + 16, h->dst);
	uet_be16_store(buf + 10, uet_inet_checksum(buf, UET_IPV4_HDR_BYTES));
	return UET_IPV4_HDR_BYTES;
}

int uet_ipv4_parse(const uint8_t *buf, size_t len, struct uet_ipv4_hdr *h,
		   enum uet_wire_reason *reason)
{
	size_t hlen;
	uint16_t frag;

	if (len < UET_IPV4_HDR_BYTES)
		return reject(reason, UET_WIRE_IPV4_SHORT);
	if (buf[0] >> 4 != 4)
		return reject(reason, UET_WIRE_IPV4_VERSION);
	h->ihl = buf[0] & 0x0f;
	if (h->ihl < 5)
		return reject(reason, UET_WIRE_IPV4_IHL);
	hlen = (size_t)h->ihl * 4;
	if (len < hlen)
		return reject(reason, UET_WIRE_IPV4_OPTIONS_TRUNC);
	if (uet_inet_checksum(buf, hlen) != 0)
		return reject(reason, UET_WIRE_IPV4_CSUM);
	h->dscp = buf[1] >> 2;
	h->ecn = buf[1] & 3;
	h->total_length_bytes = uet_be16_load(buf + 2);
	if (h->total_length_bytes < hlen)
		return reject(reason, UET_WIRE_IPV4_TOTLEN_SHORT);
	if (h->total_length_bytes > len)
		return reject(reason, UET_WIRE_IPV4_TOTLEN_EXCEEDS);
	h->id = uet_be16_load(buf + 4);
	frag = uet_be16_load(buf + 6);
	h->df = (frag & IPV4_DF) != 0;
	h->mf = (frag & IPV4_MF) != 0;
	h->frag_offset = frag & IPV4_FRAG_MASK;
	h->ttl = buf[8];
	h->protocol = buf[9];
	h->checksum = uet_be16_load(buf + 10);
	h->src = uet_be32_load(buf + 12);
	h->dst = uet_be32_load(buf + 16);
	return (int)hlen;
}

int uet_udp_build(uint8_t *buf, size_t cap, const struct uet_udp_hdr *h)
{
	if (cap < UET_UDP_HDR_BYTES)
		return -ENOSPC;
	if (h->length_bytes < UET_UDP_HDR_BYTES)
		return -EINVAL;
	uet_be16_store(buf, h->sport);
	uet_be16_store(buf + 2, h->dport);
	uet_be16_store(buf + 4, h->length_bytes);
	uet_be16_store(buf + 6, h->checksum);
	return UET_UDP_HDR_BYTES;
}

int uet_udp_parse(const uint8_t *buf, size_t len, struct uet_udp_hdr *h,
		  enum uet_wire_reason *reason)
{
	if (len < UET_UDP_HDR_BYTES)
		return reject(reason, UET_WIRE_UDP_SHORT);
	h->sport = uet_be16_load(buf);
	h->dport = uet_be16_load(buf + 2);
	h->length_bytes = uet_be16_load(buf + 4);
	h->checksum = uet_be16_load(buf + 6);
	/* The IP payload must be exactly the UDP datagram: anything else
	 * means a truncated or padded datagram we cannot trust. */
	if (h->length_bytes != len)
		return reject(reason, UET_WIRE_UDP_LEN);
	return UET_UDP_HDR_BYTES;
}
