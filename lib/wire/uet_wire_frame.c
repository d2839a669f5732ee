/* SPDX-License-Identifier: BSD-3-Clause */
/* Whole frames: build, trim, re-mark (the parser is uet_wire_parse.c). */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "uet_wire_be.h"
#include "uet_wire_frame.h"

/* The header layouts of this library add up to the page's sizes
 * (uet_packet_sizes.h): a data packet's headers, and what trimming keeps. */
_Static_assert(UET_IPV4_HDR_BYTES + UET_UDP_HDR_BYTES + UET_PDS_CC_REQ_BYTES +
			       UET_SES_STD_BYTES ==
		       UET_DATA_HDR_IP_BYTES,
	       "a data packet's headers are the page's 88 bytes");
_Static_assert(UET_DATA_HDR_IP_BYTES + UET_ETH_HDR_BYTES + UET_ETH_FCS_BYTES ==
		       UET_DATA_HDR_WIRE_BYTES,
	       "on the wire, a data packet's headers are the page's 106 bytes");
_Static_assert(UET_IPV4_HDR_BYTES + UET_UDP_HDR_BYTES + UET_PDS_CC_REQ_BYTES ==
		       UET_TRIMMED_IP_BYTES,
	       "a trimmed packet is the page's 44 bytes");
_Static_assert(UET_TRIMMED_IP_BYTES + UET_ETH_HDR_BYTES + UET_ETH_FCS_BYTES ==
		       UET_TRIMMED_WIRE_BYTES,
	       "a trimmed packet is the page's 62 bytes on the wire");

void uet_wire_cfg_default(struct uet_wire_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->udp_dport = UET_UDP_PORT_UET;
}

void uet_frame_addr_default(struct uet_frame_addr *a)
{
	memset(a, 0, sizeof(*a));
	a->ecn = UET_ECN_ECT1;
	a->ttl = 255;
	a->udp_dport = UET_UDP_PORT_UET;
}

int uet_frame_build_l2l4(uint8_t *buf, size_t cap,
			 const struct uet_frame_addr *a,
			 size_t udp_payload_bytes)
{
	struct uet_eth_hdr eth;
	struct uet_ipv4_hdr ip;
	struct uet_udp_hdr udp;
	int rc;

	if (udp_payload_bytes >
	    UINT16_MAX - UET_IPV4_HDR_BYTES - UET_UDP_HDR_BYTES)
		return -EINVAL;
	if (cap < UET_FRAME_PDS_OFFSET)
		return -ENOSPC;
	memcpy(eth.dst, a->dst_mac, UET_ETH_ADDR_LEN);
	memcpy(eth.src, a->src_mac, UET_ETH_ADDR_LEN);
	eth.ethertype = UET_ETHERTYPE_IPV4;
	memset(&ip, 0, sizeof(ip));
	ip.dscp = a->dscp;
	ip.ecn = a->ecn;
	ip.total_length_bytes =
		(uint16_t)(UET_IPV4_HDR_BYTES + UET_UDP_HDR_BYTES +
			   udp_payload_bytes);
	ip.id = a->ip_id;
	ip.df = true;
	ip.ttl = a->ttl;
	ip.protocol = UET_IPPROTO_UDP;
	ip.src = a->src_ip;
	ip.dst = a->dst_ip;
	udp.sport = a->entropy;
	udp.dport = a->udp_dport;
	udp.length_bytes = (uint16_t)(UET_UDP_HDR_BYTES + udp_payload_bytes);
	udp.checksum = 0; /* UET 1.0.3 3.5.10.1: zero on send */

	uet_eth_build(buf, cap, &eth);
	rc = uet_ipv4_build(buf + UET_ETH_HDR_BYTES, cap - UET_ETH_HDR_BYTES,
			    &ip);
	if (rc < 0)
		return rc;
	uet_udp_build(buf + UET_ETH_HDR_BYTES + UET_IPV4_HDR_BYTES,
		      cap - UET_ETH_HDR_BYTES - UET_IPV4_HDR_BYTES, &udp);
	return UET_FRAME_PDS_OFFSET;
}

int uet_frame_build(uint8_t *buf, size_t cap, const struct uet_frame_addr *a,
		    const struct uet_pds_hdr *pds,
		    const struct uet_ses_hdr *ses, const void *payload,
		    size_t payload_bytes)
{
	struct uet_pds_hdr p = *pds;
	size_t pds_bytes = uet_pds_hdr_bytes(pds->type);
	size_t ses_bytes = 0, total;
	uint8_t *q;
	int rc;

	if (pds_bytes == 0)
		return -ENOTSUP;
	if (ses != NULL) {
		if (pds->type == UET_PDS_TYPE_CP)
			return -EINVAL; /* its next_hdr bits are ctl_type */
		ses_bytes = uet_ses_hdr_bytes(ses->kind);
		if (ses_bytes == 0)
			return -EINVAL;
		p.next_hdr = ses->kind;
	}
	if (payload_bytes > UINT16_MAX)
		return -EINVAL;
	total = UET_FRAME_PDS_OFFSET + pds_bytes + ses_bytes + payload_bytes;
	if (cap < total)
		return -ENOSPC;
	rc = uet_frame_build_l2l4(buf, cap, a,
				  pds_bytes + ses_bytes + payload_bytes);
	if (rc < 0)
		return rc;
	q = buf + UET_FRAME_PDS_OFFSET;
	rc = uet_pds_build(q, pds_bytes, &p);
	if (rc < 0)
		return rc;
	q += pds_bytes;
	if (ses != NULL) {
		rc = uet_ses_build(q, ses_bytes, ses);
		if (rc < 0)
			return rc;
		q += ses_bytes;
	}
	if (payload != NULL && payload_bytes > 0)
		memcpy(q, payload, payload_bytes);
	return (int)total;
}

/* Checked IPv4 header of an Ethernet frame: its length, or -EBADMSG. */
static int frame_ipv4(const uint8_t *buf, size_t len, struct uet_ipv4_hdr *ip)
{
	if (len < UET_ETH_HDR_BYTES ||
	    uet_be16_load(buf + 12) != UET_ETHERTYPE_IPV4)
		return -EBADMSG;
	return uet_ipv4_parse(buf + UET_ETH_HDR_BYTES, len - UET_ETH_HDR_BYTES,
			      ip, NULL);
}

static void ipv4_rewrite_tos(uint8_t *iph, size_t hlen, uint8_t tos)
{
	iph[1] = tos;
	uet_be16_store(iph + 10, 0);
	uet_be16_store(iph + 10, uet_inet_checksum(iph, hlen));
}

int uet_frame_trim(uint8_t *buf, size_t len, uint8_t dscp)
{
	struct uet_ipv4_hdr ip;
	struct uet_udp_hdr udp;
	struct uet_pds_hdr pds;
	uint8_t *iph = buf + UET_ETH_HDR_BYTES;
	size_t hlen, keep;
	int rc;

	if (dscp >= 64)
		return -EINVAL;
	rc = frame_ipv4(buf, len, &ip);
	if (rc < 0)
		return rc;
	hlen = (size_t)rc;
	if (ip.protocol != UET_IPPROTO_UDP || ip.mf || ip.frag_offset != 0)
		return -EBADMSG;
	if (uet_udp_parse(iph + hlen, ip.total_length_bytes - hlen, &udp,
			  NULL) < 0)
		return -EBADMSG;
	rc = uet_pds_parse(iph + hlen + UET_UDP_HDR_BYTES,
			   udp.length_bytes - UET_UDP_HDR_BYTES, &pds, NULL);
	if (rc < 0)
		return -EBADMSG;
	if (!uet_pds_type_is_req(pds.type))
		return -EINVAL;
	keep = hlen + UET_UDP_HDR_BYTES + (size_t)rc;
	uet_be16_store(iph + 2, (uint16_t)keep);
	uet_be16_store(iph + hlen + 4, (uint16_t)(UET_UDP_HDR_BYTES + rc));
	ipv4_rewrite_tos(iph, hlen, (uint8_t)(dscp << 2 | ip.ecn));
	return (int)(UET_ETH_HDR_BYTES + keep);
}

int uet_frame_set_dscp(uint8_t *buf, size_t len, uint8_t dscp)
{
	struct uet_ipv4_hdr ip;
	int rc;

	if (dscp >= 64)
		return -EINVAL;
	rc = frame_ipv4(buf, len, &ip);
	if (rc < 0)
		return rc;
	ipv4_rewrite_tos(buf + UET_ETH_HDR_BYTES, (size_t)rc,
			 (uint8_t)(dscp << 2 | ip.ecn));
	return 0;
}

int uet_frame_mark_ce(uint8_t *buf, size_t len)
{
	struct uet_ipv4_hdr ip;
	int rc;

	rc = frame_ipv4(buf, len, &ip);
	if (rc < 0)
		return rc;
	if (ip.ecn == UET_ECN_NOT_ECT)
		return 0;
	ipv4_rewrite_tos(buf + UET_ETH_HDR_BYTES, (size_t)rc,
			 (uint8_t)(ip.dscp << 2 | UET_ECN_CE));
	return 1;
}
