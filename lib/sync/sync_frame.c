/* SPDX-License-Identifier: BSD-3-Clause */
/* Frames for lockstep: the trailer on mbuf chains, control frames in mbufs,
 * the per-port transmit queue, and the error record. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_mbuf.h>

#include "sync_private.h"
#include "uet_ipv4_text.h"
#include "uet_port.h"
#include "uet_wire_mbuf.h"

uint64_t sync_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
	       (uint64_t)ts.tv_nsec;
}

/* Headers as lib/sync reads them: Ethernet, IPv4 and UDP at most. */
static const struct uet_wire_cfg sync_wire = {
	.udp_dport = UET_UDP_PORT_UET,
	.depth = UET_FRAME_DEPTH_UDP,
};

/* Where the trailer goes: after the IP datagram of an IPv4 frame (1 if
 * f has a trailer there already), at the end of any other frame (a PFC
 * pause has no IP datagram: 2). */
static int trailer_offset(const struct rte_mbuf *m, struct uet_frame *f,
			  uint32_t *off)
{
	if (rte_pktmbuf_pkt_len(m) < UET_ETH_HDR_BYTES)
		return -EBADMSG;
	(void)uet_frame_parse_mbuf(&sync_wire, m, f, NULL);
	if (f->eth.ethertype != UET_ETHERTYPE_IPV4) {
		*off = m->pkt_len;
		return 2;
	}
	if (!f->has_ipv4)
		return -EBADMSG;
	*off = (uint32_t)f->ip_end;
	return f->has_trailer ? 1 : 0;
}

/* Cut a chain to len bytes, freeing the segments past it. */
static void mbuf_truncate(struct rte_mbuf *m, uint32_t len)
{
	struct rte_mbuf *seg = m, *rest;
	uint32_t off = 0;

	while (off + seg->data_len < len) {
		off += seg->data_len;
		seg = seg->next;
	}
	seg->data_len = (uint16_t)(len - off);
	rest = seg->next;
	seg->next = NULL;
	m->pkt_len = len;
	while (rest != NULL) {
		struct rte_mbuf *next = rest->next;

		rest->next = NULL;
		rte_pktmbuf_free_seg(rest);
		m->nb_segs--;
		rest = next;
	}
}

int sync_frame_cut_padding(struct rte_mbuf *m)
{
	struct uet_frame f;
	uint32_t off;
	int rc;

	rc = trailer_offset(m, &f, &off);
	if (rc < 0)
		return rc;
	if (off < m->pkt_len)
		mbuf_truncate(m, off);
	return 0;
}

int uet_sync_trailer_append(struct rte_mbuf *m, uet_time_t arrival_ps)
{
	uint8_t trailer[UET_LS_TRAILER_BYTES];
	struct rte_mbuf *last;
	char *p;
	int rc;

	rc = sync_frame_cut_padding(m);
	if (rc < 0)
		return rc;
	uet_ls_trailer_build(trailer, sizeof(trailer), arrival_ps);
	last = rte_pktmbuf_lastseg(m);
	if (rte_pktmbuf_tailroom(last) >= UET_LS_TRAILER_BYTES &&
	    RTE_MBUF_DIRECT(last) && rte_mbuf_refcnt_read(last) == 1) {
		p = rte_pktmbuf_append(m, UET_LS_TRAILER_BYTES);
		if (p == NULL)
			return -ENOMEM;
	} else {
		struct rte_mbuf *seg = rte_pktmbuf_alloc(m->pool);

		if (seg == NULL)
			return -ENOMEM;
		p = rte_pktmbuf_append(seg, UET_LS_TRAILER_BYTES);
		if (p == NULL || rte_pktmbuf_chain(m, seg) != 0) {
			rte_pktmbuf_free(seg);
			return -ENOMEM;
		}
	}
	memcpy(p, trailer, sizeof(trailer));
	return 0;
}

int sync_trailer_take(struct rte_mbuf *m, uet_time_t *arrival_ps,
		      enum uet_sync_drop *why)
{
	uint8_t buf[UET_LS_TRAILER_BYTES];
	struct uet_frame f;
	const uint8_t *p;
	uint32_t off;
	uet_time_t t;
	int rc, type;

	type = uet_frame_mbuf_ethertype(m);
	if (type < 0) {
		*why = UET_SYNC_DROP_TRUNCATED;
		return -ENOENT;
	}
	/* The model sends nothing else: whatever else comes is not ours,
	 * even if it happens to end like a trailer. */
	if (type != UET_ETHERTYPE_IPV4 && type != UET_ETHERTYPE_MAC_CONTROL) {
		*why = UET_SYNC_DROP_ETHERTYPE;
		return -ENOENT;
	}
	rc = trailer_offset(m, &f, &off);
	if (rc < 0) {
		*why = UET_SYNC_DROP_TRUNCATED;
		return -ENOENT;
	}
	*why = UET_SYNC_DROP_NO_TRAILER;
	if (rc == 0)
		return -ENOENT;
	if (rc == 1) {
		t = f.arrival_ps;
	} else {
		/* Not IPv4: the trailer is the frame's last 12 bytes. */
		if (m->pkt_len < UET_ETH_HDR_BYTES + UET_LS_TRAILER_BYTES)
			return -ENOENT;
		off = m->pkt_len - UET_LS_TRAILER_BYTES;
		p = rte_pktmbuf_read(m, off, UET_LS_TRAILER_BYTES, buf);
		if (uet_ls_trailer_parse(p, UET_LS_TRAILER_BYTES, &t, NULL) < 0)
			return -ENOENT;
	}
	mbuf_truncate(m, off);
	if (arrival_ps != NULL)
		*arrival_ps = t;
	return 0;
}

int uet_sync_trailer_strip(struct rte_mbuf *m, uet_time_t *arrival_ps)
{
	enum uet_sync_drop why;

	return sync_trailer_take(m, arrival_ps, &why);
}

const char *uet_sync_drop_name(enum uet_sync_drop kind)
{
	static const char *const names[UET_SYNC_DROP_KINDS] = {
		[UET_SYNC_DROP_NO_TRAILER] = "no_trailer",
		[UET_SYNC_DROP_TRUNCATED] = "truncated",
		[UET_SYNC_DROP_ETHERTYPE] = "ethertype",
		[UET_SYNC_DROP_STALE] = "stale",
	};

	return (unsigned int)kind < UET_SYNC_DROP_KINDS ? names[kind] : "?";
}

int sync_txq_push(struct sync_txq *q, struct rte_mbuf *m)
{
	if (q->len == q->cap) {
		uint32_t cap = q->cap ? q->cap * 2 : 256;
		struct rte_mbuf **pkts;
		uint32_t i;

		pkts = malloc(sizeof(*pkts) * cap);
		if (pkts == NULL) {
			rte_pktmbuf_free(m);
			return -ENOMEM;
		}
		for (i = 0; i < q->len; i++)
			pkts[i] = q->pkts[(q->head + i) & (q->cap - 1)];
		free(q->pkts);
		q->pkts = pkts;
		q->cap = cap;
		q->head = 0;
	}
	q->pkts[(q->head + q->len) & (q->cap - 1)] = m;
	q->len++;
	return 0;
}

int sync_txq_flush(struct sync_txq *q, struct uet_port *port,
		   uint32_t timeout_ms, uint64_t now_ns)
{
	bool took = false;

	while (q->len > 0) {
		/* A burst from the head up to the end of the slots. */
		uint32_t run = q->cap - q->head;
		uint16_t n = (uint16_t)(q->len < run ? q->len : run);
		uint16_t sent;

		if (n > 512)
			n = 512;
		sent = uet_port_tx_burst(port, q->pkts + q->head, n);
		q->head = (q->head + sent) & (q->cap - 1);
		q->len -= sent;
		if (sent > 0) {
			took = true;
			q->bursts++;
		}
		if (sent < n)
			break;
	}
	if (q->len == 0 || took) {
		q->stall_since_ns = 0;
		return 0;
	}
	if (q->stall_since_ns == 0)
		q->stall_since_ns = now_ns;
	if (now_ns - q->stall_since_ns >
	    (uint64_t)timeout_ms * UINT64_C(1000000))
		return -ETIMEDOUT;
	return 0;
}

void sync_txq_drop(struct sync_txq *q)
{
	while (q->len > 0) {
		rte_pktmbuf_free(q->pkts[q->head]);
		q->head = (q->head + 1) & (q->cap - 1);
		q->len--;
	}
	q->stall_since_ns = 0;
}

void sync_txq_fini(struct sync_txq *q)
{
	sync_txq_drop(q);
	free(q->pkts);
	memset(q, 0, sizeof(*q));
}

struct rte_mbuf *sync_ctrl_mbuf(struct rte_mempool *pool,
				const uint8_t dst[UET_ETH_ADDR_LEN],
				const uint8_t src[UET_ETH_ADDR_LEN],
				const struct uet_ls_ctrl *c)
{
	uint8_t buf[SYNC_CTRL_MAX_BYTES];
	struct rte_mbuf *m;
	char *p;
	int len;

	len = uet_ls_ctrl_build(buf, sizeof(buf), dst, src, c);
	if (len < 0)
		return NULL;
	m = rte_pktmbuf_alloc(pool);
	if (m == NULL)
		return NULL;
	p = rte_pktmbuf_append(m, (uint16_t)len);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(p, buf, (size_t)len);
	return m;
}

bool sync_is_ctrl(const struct rte_mbuf *m)
{
	return uet_frame_mbuf_ethertype(m) == UET_ETHERTYPE_LOCKSTEP;
}

int sync_ctrl_parse(struct rte_mbuf *m, struct uet_ls_ctrl *c,
		    uint8_t src[UET_ETH_ADDR_LEN], const char **reason)
{
	enum uet_wire_reason why = UET_WIRE_OK;
	const uint8_t *type;
	struct uet_frame f;
	uint8_t type_copy;
	int rc;

	/* lib/wire reads a chain's head through a copy of its own, and a
	 * NOTES frame's bytes must point into the mbuf: such a chain is
	 * made one segment first (a chain of another type is read as it
	 * is). */
	type = rte_pktmbuf_read(m, UET_ETH_HDR_BYTES + 5, 1, &type_copy);
	if (!rte_pktmbuf_is_contiguous(m) && type != NULL &&
	    *type == UET_LS_NOTES && rte_pktmbuf_linearize(m) != 0) {
		if (reason != NULL)
			*reason = uet_wire_reason_str(UET_WIRE_LS_TRUNC);
		return -EBADMSG;
	}
	rc = uet_frame_parse_mbuf(&sync_wire, m, &f, &why);
	if (rc == 0 && f.kind != UET_FRAME_LOCKSTEP) {
		rc = -EBADMSG;
		why = UET_WIRE_LS_ETHERTYPE;
	}
	if (rc < 0) {
		if (reason != NULL)
			*reason = uet_wire_reason_str(why);
		return rc;
	}
	*c = f.l2.ls;
	if (src != NULL)
		memcpy(src, f.eth.src, UET_ETH_ADDR_LEN);
	return 0;
}

void sync_abort_fill(struct uet_ls_ctrl *c, const struct sync_error *e)
{
	size_t n = strlen(e->text);

	if (n > UET_LS_ABORT_TEXT_MAX)
		n = UET_LS_ABORT_TEXT_MAX;
	c->type = UET_LS_ABORT;
	c->u.abort.code = e->code;
	c->u.abort.text_len = (uint16_t)n;
	memcpy(c->u.abort.text, e->text, n);
}

const char *sync_ipv4_str(uint32_t ipv4, char buf[16])
{
	uet_ipv4_format(ipv4, buf);
	return buf;
}

int sync_code_errno(uint32_t code)
{
	switch (code) {
	case UET_LS_ABORT_SCENARIO_MISMATCH:
		return -EINVAL;
	case UET_LS_ABORT_STALE_RUN:
		return -ESTALE;
	case UET_LS_ABORT_PEER_TIMEOUT:
		return -ETIMEDOUT;
	case UET_LS_ABORT_FRAME_LOSS:
		return -EIO;
	case UET_LS_ABORT_PROTOCOL:
		return -EPROTO;
	default:
		return -ECONNABORTED;
	}
}
