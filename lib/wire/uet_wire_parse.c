/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frame parser: classify a frame and read its headers layer by layer
 * from a head of the frame that may be shorter than the frame (the first
 * segment of an mbuf chain). Each layer reads its own header from the head
 * only and checks its lengths against the whole frame; a header that runs
 * past the head is reported (-EAGAIN) so that the caller can give a longer
 * head. The lockstep trailer after the IP datagram is a step of its own:
 * in a chain it sits in the last segment, far from the headers.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "uet_wire_be.h"
#include "uet_wire_frame.h"

/* The frame as the parser sees it: its first head_len bytes at head. */
struct frame_view {
	const uint8_t *head;
	size_t head_len;
	size_t len; /* the whole frame */
};

/* Bytes of [off, limit) that lie in the head. */
static size_t in_head(const struct frame_view *v, size_t off, size_t limit)
{
	size_t end = limit < v->head_len ? limit : v->head_len;

	return off < end ? end - off : 0;
}

/* The head ends inside a header: not a verdict on the frame. */
static int head_short(enum uet_wire_reason *reason)
{
	if (reason != NULL)
		*reason = UET_WIRE_OK;
	return -EAGAIN;
}

/* Which PDS types are followed by the SES header their next_hdr names.
 * NACKs and CPs are not: a CP's bits are its ctl_type and some senders put
 * next_hdr on NACKs that carry nothing we need. */
static bool pds_carries_ses(unsigned int type)
{
	switch (type) {
	case UET_PDS_TYPE_NACK:
	case UET_PDS_TYPE_NACK_CCX:
	case UET_PDS_TYPE_CP:
		return false;
	default:
		return true;
	}
}

/*
 * PDS and SES headers. Their parsers read a header from the front of the
 * bytes they are given and reject only bytes too few for it, so they are
 * given what the head holds: a reject on a head shorter than the datagram
 * may be the head's (-EAGAIN).
 */
static int parse_uet(const struct frame_view *v, size_t udp_end,
		     struct uet_frame *out, enum uet_wire_reason *reason)
{
	size_t off = out->pds_offset;
	size_t avail = in_head(v, off, udp_end);
	int rc;

	rc = uet_pds_parse(v->head + off, avail, &out->pds, reason);
	if (rc < 0)
		return avail < udp_end - off ? head_short(reason) : rc;
	off += (size_t)rc;
	if (pds_carries_ses(out->pds.type) &&
	    out->pds.next_hdr != UET_SES_NONE) {
		if (off == udp_end && uet_pds_type_is_req(out->pds.type)) {
			/* Only a switch's trim leaves a request that names
			 * an SES header without one. */
			out->trimmed = true;
		} else {
			avail = in_head(v, off, udp_end);
			rc = uet_ses_parse(out->pds.next_hdr, v->head + off,
					   avail, &out->ses, reason);
			if (rc < 0)
				return avail < udp_end - off
					       ? head_short(reason)
					       : rc;
			out->has_ses = true;
			out->ses_offset = off;
			off += (size_t)rc;
		}
	}
	out->payload_offset = off;
	out->payload_bytes = udp_end - off;
	return 0;
}

/* The IPv4 header: its parser checks the total length against the rest
 * of the frame and reads IHL * 4 bytes, which must be in the head. */
static int parse_ipv4_hdr(const struct frame_view *v, struct uet_frame *out,
			  enum uet_wire_reason *reason)
{
	const size_t l3 = UET_ETH_HDR_BYTES;
	size_t rest = v->len - l3, avail = in_head(v, l3, v->len);
	size_t need = UET_IPV4_HDR_BYTES;

	if (avail > 0 && (v->head[l3] & 0x0fu) * 4u > need)
		need = (v->head[l3] & 0x0fu) * 4u;
	if (avail < need && avail < rest)
		return head_short(reason);
	return uet_ipv4_parse(v->head + l3, rest, &out->ip, reason);
}

static int parse_ipv4(const struct uet_wire_cfg *cfg,
		      const struct frame_view *v, struct uet_frame *out,
		      enum uet_wire_reason *reason)
{
	size_t l4, udp_end;
	int rc;

	rc = parse_ipv4_hdr(v, out, reason);
	if (rc < 0)
		return rc;
	out->has_ipv4 = true;
	l4 = UET_ETH_HDR_BYTES + (size_t)rc;
	out->ip_end = UET_ETH_HDR_BYTES + out->ip.total_length_bytes;
	if (out->ip.mf || out->ip.frag_offset != 0 ||
	    out->ip.protocol != UET_IPPROTO_UDP)
		return 0;
	/* The UDP parser wants the IP payload's length: only its 8 bytes
	 * are read. */
	if (in_head(v, l4, out->ip_end) < UET_UDP_HDR_BYTES &&
	    in_head(v, l4, out->ip_end) < out->ip_end - l4)
		return head_short(reason);
	rc = uet_udp_parse(v->head + l4, out->ip_end - l4, &out->udp, reason);
	if (rc < 0)
		return rc;
	out->has_udp = true;
	if (out->udp.dport != cfg->udp_dport)
		return 0;
	out->kind = UET_FRAME_UET;
	out->pds_offset = l4 + UET_UDP_HDR_BYTES;
	udp_end = out->ip_end;
	if (cfg->depth == UET_FRAME_DEPTH_UDP) {
		out->payload_offset = out->pds_offset;
		out->payload_bytes = udp_end - out->pds_offset;
		return 0;
	}
	return parse_uet(v, udp_end, out, reason);
}

/* A 802.1Qbb pause: other MAC control opcodes (802.3x PAUSE) are not
 * ours. */
static int parse_mac_control(const struct frame_view *v, struct uet_frame *out,
			     enum uet_wire_reason *reason)
{
	size_t avail = in_head(v, 0, v->len);
	int rc;

	if (v->len >= UET_ETH_HDR_BYTES + 2) {
		if (avail < UET_ETH_HDR_BYTES + 2)
			return head_short(reason);
		if (uet_be16_load(v->head + UET_ETH_HDR_BYTES) !=
		    UET_PFC_OPCODE)
			return 0;
	}
	rc = uet_pfc_parse(v->head, avail, &out->l2.pfc, reason);
	if (rc < 0)
		return avail < v->len ? head_short(reason) : rc;
	out->kind = UET_FRAME_PFC;
	return 0;
}

static int parse_lockstep(const struct frame_view *v, struct uet_frame *out,
			  enum uet_wire_reason *reason)
{
	size_t avail = in_head(v, 0, v->len);
	int rc;

	rc = uet_ls_ctrl_parse(v->head, avail, &out->l2.ls, reason);
	if (rc < 0)
		return avail < v->len ? head_short(reason) : rc;
	out->kind = UET_FRAME_LOCKSTEP;
	return 0;
}

int uet_frame_parse_head(const struct uet_wire_cfg *cfg, const uint8_t *head,
			 size_t head_len, size_t len, struct uet_frame *out,
			 enum uet_wire_reason *reason)
{
	const struct frame_view v = {
		.head = head,
		.head_len = head_len < len ? head_len : len,
		.len = len,
	};
	int rc;

	if (reason != NULL)
		*reason = UET_WIRE_OK;
	memset(out, 0, offsetof(struct uet_frame, l2));
	if (v.head_len < UET_ETH_HDR_BYTES && v.head_len < len)
		return head_short(reason);
	rc = uet_eth_parse(head, v.head_len, &out->eth, reason);
	if (rc < 0)
		return rc;
	switch (out->eth.ethertype) {
	case UET_ETHERTYPE_IPV4:
		rc = parse_ipv4(cfg, &v, out, reason);
		break;
	case UET_ETHERTYPE_MAC_CONTROL:
		rc = parse_mac_control(&v, out, reason);
		break;
	case UET_ETHERTYPE_LOCKSTEP:
		rc = parse_lockstep(&v, out, reason);
		break;
	default:
		rc = 0;
		break;
	}
	if (rc < 0)
		out->kind = UET_FRAME_OTHER;
	return rc;
}

int uet_frame_parse_trailer(struct uet_frame *f, const uint8_t *tail,
			    size_t tail_bytes, enum uet_wire_reason *reason)
{
	int rc;

	if (tail_bytes < 4 || memcmp(tail, UET_LS_TRAILER_MAGIC, 4) != 0)
		return 0;
	rc = uet_ls_trailer_parse(tail, tail_bytes, &f->arrival_ps, reason);
	if (rc < 0) {
		f->kind = UET_FRAME_OTHER;
		return rc;
	}
	f->has_trailer = true;
	return 0;
}

int uet_frame_parse_cfg(const struct uet_wire_cfg *cfg, const uint8_t *buf,
			size_t len, struct uet_frame *out,
			enum uet_wire_reason *reason)
{
	int rc, trc;

	rc = uet_frame_parse_head(cfg, buf, len, len, out, reason);
	if (!out->has_ipv4 || out->ip_end == len)
		return rc;
	trc = uet_frame_parse_trailer(out, buf + out->ip_end, len - out->ip_end,
				      rc < 0 ? NULL : reason);
	return rc < 0 ? rc : trc;
}

int uet_frame_parse(const uint8_t *buf, size_t len, struct uet_frame *out,
		    enum uet_wire_reason *reason)
{
	struct uet_wire_cfg cfg;

	uet_wire_cfg_default(&cfg);
	return uet_frame_parse_cfg(&cfg, buf, len, out, reason);
}

const char *uet_frame_kind_name(unsigned int kind)
{
	static const char *const names[] = {"OTHER", "UET", "PFC", "LOCKSTEP"};

	if (kind >= sizeof(names) / sizeof(names[0]))
		return "UNKNOWN";
	return names[kind];
}
