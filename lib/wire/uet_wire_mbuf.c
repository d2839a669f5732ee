/* SPDX-License-Identifier: BSD-3-Clause */
/* The frame reader on mbufs: in place from the first segment, a copy of
 * the head only when a header straddles segments. */
#include <errno.h>

#include "uet_wire_be.h"
#include "uet_wire_mbuf.h"

int uet_frame_parse_mbuf(const struct uet_wire_cfg *cfg,
			 const struct rte_mbuf *m, struct uet_frame *out,
			 enum uet_wire_reason *reason)
{
	uint8_t copy[UET_FRAME_HEAD_BYTES], tail_copy[UET_LS_TRAILER_BYTES];
	const size_t len = rte_pktmbuf_pkt_len(m);
	const uint8_t *head = rte_pktmbuf_mtod(m, const uint8_t *);
	size_t head_len = rte_pktmbuf_data_len(m), tail_bytes;
	const uint8_t *tail;
	int rc, trc;

	rc = uet_frame_parse_head(cfg, head, head_len, len, out, reason);
	if (rc == -EAGAIN) {
		/* A header runs into the next segment: read the head, which
		 * holds every header, into one buffer. */
		head_len = len < sizeof(copy) ? len : sizeof(copy);
		head = rte_pktmbuf_read(m, 0, (uint32_t)head_len, copy);
		if (head == NULL)
			return -EBADMSG; /* pkt_len beyond the segments */
		rc = uet_frame_parse_head(cfg, head, head_len, len, out,
					  reason);
		if (rc == -EAGAIN)
			rc = -EBADMSG; /* cannot be: the head holds them all */
	}
	if (!out->has_ipv4 || out->ip_end == len)
		return rc;
	/* The bytes after the datagram, in the last segment of a chain. */
	tail_bytes = len - out->ip_end;
	if (tail_bytes > UET_LS_TRAILER_BYTES)
		tail_bytes = UET_LS_TRAILER_BYTES;
	if (out->ip_end + tail_bytes <= head_len)
		tail = head + out->ip_end;
	else
		tail = rte_pktmbuf_read(m, (uint32_t)out->ip_end,
					(uint32_t)tail_bytes, tail_copy);
	if (tail == NULL)
		return rc < 0 ? rc : -EBADMSG;
	trc = uet_frame_parse_trailer(out, tail, tail_bytes,
				      rc < 0 ? NULL : reason);
	return rc < 0 ? rc : trc;
}

int uet_frame_mbuf_ethertype(const struct rte_mbuf *m)
{
	uint8_t copy[2];
	const uint8_t *p;

	if (rte_pktmbuf_pkt_len(m) < UET_ETH_HDR_BYTES)
		return -EBADMSG;
	p = rte_pktmbuf_read(m, 12, sizeof(copy), copy);
	return p != NULL ? uet_be16_load(p) : -EBADMSG;
}
