/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packets on the wire (the page's "Packets on the wire"): data frames as a
 * header mbuf chained to an external-buffer mbuf that points into the
 * read-only payload pattern (no payload copy, no heap), and the control
 * frames (ACK, NACK, CP), all ECN ECT(1) with TTL 255.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>

#include "nic_private.h"

static void frame_addr(const struct uet_nic *nic, uint32_t dst_ip, uint8_t dscp,
		       uint16_t entropy, struct uet_frame_addr *a)
{
	uet_frame_addr_default(a);
	memcpy(a->dst_mac, nic->switch_mac, sizeof(a->dst_mac));
	memcpy(a->src_mac, nic->mac, sizeof(a->src_mac));
	a->src_ip = nic->ip;
	a->dst_ip = dst_ip;
	a->dscp = dscp;
	a->ecn = UET_ECN_ECT1;
	a->ttl = 255;
	a->entropy = entropy;
	a->udp_dport = nic->p.udp_dport;
}

/* A frame's own shared-info going: the pattern is its owner's. */
static void payload_unattached_cb(void *addr, void *opaque)
{
	(void)addr;
	(void)opaque;
}

/*
 * The shared-info a payload mbuf is attached with. Given the caller's
 * pattern (which outlives every frame, uet_nic_conf), each mbuf carries
 * its own, in its own data room (unused while the pattern is attached),
 * so that freeing a frame writes a line of that frame only. One counter
 * per NIC, bumped by the NIC at every frame and dropped by whichever
 * lcore frees it (the receiver's, often another), moved its line between
 * the cores twice a frame on two lcores, and was a cache miss a frame on
 * one. A NIC with a pattern of its own counts every frame on its one
 * shared-info instead, so that the pattern lives until the last is freed.
 */
static struct rte_mbuf_ext_shared_info *payload_shinfo(struct nic_payload *pl,
						       struct rte_mbuf *p)
{
	struct rte_mbuf_ext_shared_info *si = p->buf_addr;

	if (pl->owned != NULL || p->buf_len < sizeof(*si)) {
		rte_mbuf_ext_refcnt_update(&pl->shinfo, 1);
		return &pl->shinfo;
	}
	si->free_cb = payload_unattached_cb;
	si->fcb_opaque = NULL;
	rte_mbuf_ext_refcnt_set(si, 1);
	return si;
}

/* The payload's mbuf: attached to the pattern where this segment's bytes
 * are (payload_shinfo says who keeps the pattern alive). */
static struct rte_mbuf *payload_mbuf(struct uet_nic *nic,
				     const struct nic_pdc *pdc,
				     uint64_t msg_offset_bytes,
				     uint32_t payload_bytes)
{
	struct nic_payload *pl = nic->payload;
	struct rte_mbuf *p = rte_pktmbuf_alloc(nic->payload_mp);
	uint32_t shift =
		uet_ses_pattern_shift(pdc->msg.message_id, pdc->msg.initiator);
	const uint8_t *at =
		uet_ses_pattern_at(pl->pattern, shift, msg_offset_bytes);
	size_t off = (size_t)(at - pl->pattern->bytes);

	if (p == NULL)
		return NULL;
	rte_pktmbuf_attach_extbuf(
		p, (void *)(uintptr_t)at,
		pl->iova == RTE_BAD_IOVA ? RTE_BAD_IOVA : pl->iova + off,
		(uint16_t)payload_bytes, payload_shinfo(pl, p));
	p->data_off = 0;
	p->data_len = (uint16_t)payload_bytes;
	p->pkt_len = payload_bytes;
	return p;
}

struct rte_mbuf *nic_frame_data(struct uet_nic *nic, struct nic_pdc *pdc,
				uint32_t psn,
				const struct uet_pds_tx_packet *pkt, bool ar,
				bool retx, uint8_t dscp)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_ses_std *std = &ses.u.std;
	struct rte_mbuf *h, *p;
	uint8_t *buf;

	h = rte_pktmbuf_alloc(nic->mp);
	if (h == NULL)
		return NULL;
	buf = (uint8_t *)rte_pktmbuf_append(h, UET_DATA_HDR_FRAME_BYTES);
	if (buf == NULL)
		goto fail;
	frame_addr(nic, pdc->dst_ip, dscp, pkt->entropy, &a);
	if (uet_frame_build_l2l4(buf, UET_DATA_HDR_FRAME_BYTES, &a,
				 UET_PDS_CC_REQ_BYTES + UET_SES_STD_BYTES +
					 pkt->payload_bytes) < 0)
		goto fail;
	/* 2. The PDS request header: PSN, AR, RETX, and SYN with the
	 * overlay until an ACK has named the receiver's PDC. */
	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_RUD_CC_REQ;
	pds.next_hdr = UET_SES_REQUEST_STD;
	if (NIC_FAULT(nic, UET_NIC_FAULT_NO_RETX_FLAG))
		retx = false;
	pds.flags =
		(ar ? UET_PDS_REQ_F_AR : 0) | (retx ? UET_PDS_REQ_F_RETX : 0);
	pds.u.req.psn = psn;
	pds.u.req.spdcid = pdc->id;
	if (pdc->syn) {
		pds.flags |= UET_PDS_REQ_F_SYN;
		pds.u.req.syn.psn_offset =
			(uint16_t)((psn - pdc->start_psn) & 0x0fffu);
	} else {
		pds.u.req.dpdcid = pdc->peer_pdc;
	}
	if (uet_pds_build(buf + UET_FRAME_PDS_OFFSET, UET_PDS_CC_REQ_BYTES,
			  &pds) < 0)
		goto fail;
	/* 1. The semantic header: a SEND with the message's details. The
	 * scenario-wide message number rides in match_bits (memory_key). */
	memset(&ses, 0, sizeof(ses));
	ses.kind = UET_SES_REQUEST_STD;
	std->opcode = UET_SES_OP_SEND;
	std->flags = (pkt->msg_offset_bytes == 0 ? UET_SES_F_SOM : 0) |
		     (pkt->last_of_message ? UET_SES_F_EOM : 0);
	std->message_id = pdc->msg.message_id;
	std->initiator = pdc->msg.initiator;
	std->memory_key = pdc->msg.msg_id;
	std->request_length = (uint32_t)pdc->msg.bytes;
	if (pkt->msg_offset_bytes != 0) {
		std->payload_length = (uint16_t)pkt->payload_bytes;
		std->message_offset = (uint32_t)pkt->msg_offset_bytes;
	}
	if (uet_ses_build(buf + UET_FRAME_PDS_OFFSET + UET_PDS_CC_REQ_BYTES,
			  UET_SES_STD_BYTES, &ses) < 0)
		goto fail;
	if (pkt->payload_bytes == 0)
		return h;
	p = payload_mbuf(nic, pdc, pkt->msg_offset_bytes, pkt->payload_bytes);
	if (p == NULL)
		goto fail;
	if (rte_pktmbuf_chain(h, p) != 0) {
		rte_pktmbuf_free(p);
		goto fail;
	}
	return h;
fail:
	rte_pktmbuf_free(h);
	return NULL;
}

static struct rte_mbuf *ctrl_mbuf(struct uet_nic *nic, uint32_t dst_ip,
				  uint16_t entropy, const struct uet_pds_hdr *h)
{
	size_t pds_bytes = uet_pds_hdr_bytes(h->type);
	struct uet_frame_addr a;
	struct rte_mbuf *m;
	uint8_t *buf;

	m = rte_pktmbuf_alloc(nic->mp);
	if (m == NULL)
		return NULL;
	buf = (uint8_t *)rte_pktmbuf_append(
		m, (uint16_t)(UET_FRAME_PDS_OFFSET + pds_bytes));
	frame_addr(nic, dst_ip, nic->p.dscp.codepoint[UET_DSCP_CONTROL],
		   entropy, &a);
	if (buf == NULL ||
	    uet_frame_build_l2l4(buf, UET_FRAME_PDS_OFFSET + pds_bytes, &a,
				 pds_bytes) < 0 ||
	    uet_pds_build(buf + UET_FRAME_PDS_OFFSET, pds_bytes, h) < 0) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	return m;
}

/* The monitor row of a control frame, from its header. */
static void ctrl_monitor(const struct uet_pds_hdr *h,
			 struct uet_monitor_row *mon)
{
	switch (h->type) {
	case UET_PDS_TYPE_ACK_CC: {
		const struct uet_pds_ack_info info = {
			.cack_psn = h->u.ack.cack_psn,
			.sack_psn_offset = h->u.ack.sack_psn_offset,
		};

		mon->pkt = UET_MON_ACK;
		mon->pdc = h->u.ack.spdcid;
		mon->retx = (h->flags & UET_PDS_ACK_F_RETX) != 0;
		mon->cack_psn = info.cack_psn;
		mon->sack_base_psn = uet_pds_sack_base_psn(&info);
		mon->sack_bitmap = h->u.ack.sack_bitmap;
		mon->service_time = h->u.ack.cc.nscc.service_time;
		break;
	}
	case UET_PDS_TYPE_NACK:
		mon->pkt = UET_MON_NACK;
		mon->pdc = h->u.nack.spdcid;
		mon->psn = h->u.nack.nack_psn;
		mon->nack_code = h->u.nack.nack_code;
		break;
	default:
		/* A CP: the CSV's PROBE row stands for CLOSE too. */
		mon->pkt = UET_MON_PROBE;
		mon->pdc = h->u.cp.spdcid;
		mon->psn = h->u.cp.psn;
		break;
	}
}

int nic_ctrl_item(struct uet_nic *nic, uint32_t dst_ip, uint16_t entropy,
		  const struct uet_pds_hdr *h, enum nic_frame_kind kind,
		  struct nic_txq_item *it)
{
	memset(it, 0, sizeof(*it));
	it->m = ctrl_mbuf(nic, dst_ip, entropy, h);
	if (it->m == NULL) {
		nic->st.mbuf_failures++;
		return -ENOMEM;
	}
	it->kind = (uint8_t)kind;
	it->wire_bytes =
		uet_wire_bytes_of_ip(UET_IPV4_HDR_BYTES + UET_UDP_HDR_BYTES +
				     (uint32_t)uet_pds_hdr_bytes(h->type));
	ctrl_monitor(h, &it->mon);
	it->mon.dscp = nic->p.dscp.codepoint[UET_DSCP_CONTROL];
	it->mon.entropy = entropy;
	it->mon.wire_bytes = it->wire_bytes;
	return 0;
}

/* Called when the last reference to the NIC's shared-info goes: only
 * after the NIC has dropped its own hold at destroy (and, with a pattern
 * of its own, its last frame has gone); then it frees what the NIC
 * allocated. */
static void payload_free_cb(void *addr, void *opaque)
{
	struct nic_payload *pl = opaque;

	(void)addr;
	uet_ses_pattern_free(pl->owned);
	free(pl);
}

int nic_payload_create(struct uet_nic *nic,
		       const struct uet_ses_pattern *shared)
{
	struct nic_payload *pl = calloc(1, sizeof(*pl));
	int rc;

	if (pl == NULL)
		return -ENOMEM;
	if (shared == NULL) {
		rc = uet_ses_pattern_create(&pl->owned);
		if (rc < 0) {
			free(pl);
			return rc;
		}
		shared = pl->owned;
	}
	pl->pattern = shared;
	pl->iova = rte_eal_iova_mode() == RTE_IOVA_VA
			   ? (rte_iova_t)(uintptr_t)shared->bytes
			   : RTE_BAD_IOVA;
	pl->shinfo.free_cb = payload_free_cb;
	pl->shinfo.fcb_opaque = pl;
	rte_mbuf_ext_refcnt_set(&pl->shinfo, 1);
	nic->payload = pl;
	return 0;
}

void nic_payload_release(struct nic_payload *pl)
{
	if (pl == NULL)
		return;
	if (rte_mbuf_ext_refcnt_update(&pl->shinfo, -1) == 0)
		payload_free_cb(NULL, pl);
}
