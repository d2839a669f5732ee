/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Receiving a packet (the page's "Receiving a packet", "Trimmed packets
 * and NACKs" and the receiver's half of "Acknowledgements"): every arrival
 * parsed by lib/wire's mbuf reader, then the page's five steps, one
 * function each.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_prefetch.h>

#include "nic_private.h"
#include "uet_wire_mbuf.h"

static void ingress_release_now(struct uet_nic *nic, int tc, uint32_t bytes)
{
	nic_ingress_release(&nic->pools, tc, bytes);
	if (tc == NIC_TC_DATA)
		nic_pfc_pool_changed(nic);
}

static void ingress_release_event(struct uet_evq *q, struct uet_event *ev,
				  void *arg)
{
	struct nic_tev *t = arg;

	(void)q;
	(void)ev;
	ingress_release_now(t->nic, t->tc, t->bytes);
	nic_tev_put(t);
}

/* Step 1: the ingress pool of the packet's class, at its IP size. */
static bool receive_pool_charge(struct uet_nic *nic, int tc, uint32_t ip_bytes)
{
	if (!nic_ingress_charge(&nic->pools, tc, ip_bytes))
		return false;
	if (tc == NIC_TC_DATA)
		nic_pfc_pool_changed(nic);
	return true;
}

static void rx_linger(struct uet_evq *q, struct uet_event *ev, void *arg);

/* How long a receiving side waits with no packet before it closes: 4 x
 * the longest timeout, so that its sender has retransmitted by then. */
static uet_time_t rx_linger_ps(const struct uet_nic *nic)
{
	return 4 * uet_pds_rto_ps(&nic->p.pds,
				  nic->p.pds.max_rto_backoff_count + 1);
}

/* Whether ip is one of the external hosts: its frames are untrusted. */
bool nic_peer_external(const struct uet_nic *nic, uint32_t ip)
{
	uint32_t i;

	for (i = 0; i < nic->external_count; i++)
		if (nic->external_ips[i] == ip)
			return true;
	return false;
}

/* Step 2: the PDC, found by its destination PDC number, or for a SYN
 * packet by (source IPv4, source PDC number, start PSN), created if new.
 * A packet of a message whose side has closed on its linger timer finds
 * what that side remembered (*closed) instead. */
static struct nic_pdc *receive_find_pdc(struct uet_nic *nic,
					const struct uet_frame *f,
					const struct nic_rx_closed **closed)
{
	const struct uet_pds_req *req = &f->pds.u.req;
	struct nic_pdc *pdc;
	uint32_t start_psn;
	bool external;

	*closed = NULL;
	if (!(f->pds.flags & UET_PDS_REQ_F_SYN)) {
		pdc = nic_pdc_lookup(nic, req->dpdcid);
		if (pdc == NULL || pdc->is_tx || pdc->peer_ip != f->ip.src ||
		    pdc->peer_pdc != req->spdcid) {
			*closed = nic_pdc_rx_closed_by_id(
				nic, f->ip.src, req->spdcid, req->dpdcid,
				req->psn);
			if (*closed == NULL)
				nic->st.transport.stale_packets++;
			return NULL;
		}
		return pdc;
	}
	/* The start PSN is part of the name: a lingering side of an earlier
	 * PDC with the same number (its CLOSE lost) must not take this PDC's
	 * packets, or it would answer them with ACKs from its own PSN space
	 * and, pushed back by every packet, never close. */
	start_psn = uet_pds_start_psn(req->psn, req->syn.psn_offset);
	pdc = nic_pdc_rx_find(nic, f->ip.src, req->spdcid, start_psn);
	if (pdc != NULL)
		return pdc;
	/* A retransmission of a message that arrived whole: opening a new
	 * side would deliver it a second time. */
	*closed = nic_pdc_rx_closed_find(nic, f->ip.src, req->spdcid, start_psn,
					 req->psn);
	if (*closed != NULL)
		return NULL;
	external = nic->external_count > 0 && nic_peer_external(nic, f->ip.src);
	if (external && nic->external_rx_open >= NIC_EXTERNAL_RX_PDCS_MAX) {
		nic->st.transport.external_pdcs_refused++;
		return NULL;
	}
	pdc = calloc(1, sizeof(*pdc));
	if (pdc == NULL) {
		nic->st.transport.pdc_exhausted++;
		return NULL;
	}
	pdc->nic = nic;
	pdc->peer_pdc = req->spdcid;
	uet_event_init(&pdc->linger_ev, rx_linger, pdc);
	if (uet_pds_rx_init(&pdc->rx, start_psn, 64) < 0 ||
	    nic_pdc_open(nic, pdc, f->ip.src) < 0) {
		uet_pds_rx_fini(&pdc->rx);
		free(pdc);
		nic->st.transport.pdc_exhausted++;
		return NULL;
	}
	if (nic_pdc_rx_hash_add(pdc) < 0) {
		nic_pdc_close(pdc);
		nic->st.transport.pdc_exhausted++;
		return NULL;
	}
	if (external) {
		/* A foreign sender may open a side and never finish its
		 * message: the side's linger timer runs from the start, not
		 * from the arrival, so that it is reclaimed. */
		pdc->external = true;
		pdc->ext_msg_id = UET_RECORD_MSG_ID_NONE;
		nic->external_rx_open++;
		pdc->last_rx_ps = nic_now(nic);
		uet_evq_schedule(&nic->comp.evq, &pdc->linger_ev,
				 nic_now(nic) + rx_linger_ps(nic));
	}
	return pdc;
}

/* Step 3: a trimmed packet is answered at once by a NACK whose code
 * follows its codepoint, and goes no further. Its M flag echoes the
 * header's CE, as an ACK's does: a switch before the trimming one may have
 * marked it, and the sender's balancer wants that for a last-hop trim. */
static void receive_trimmed(struct uet_nic *nic, struct nic_pdc *pdc,
			    const struct uet_frame *f, bool last_hop)
{
	struct nic_txq_item it;
	struct uet_pds_hdr h;

	nic->st.transport.trimmed_received++;
	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_NACK;
	if (f->ip.ecn == UET_ECN_CE)
		h.flags |= UET_PDS_NACK_F_M;
	if (NIC_FAULT(nic, UET_NIC_FAULT_NACK_LASTHOP))
		last_hop = true;
	h.u.nack.nack_code =
		last_hop ? UET_NACK_TRIMMED_LASTHOP : UET_NACK_TRIMMED;
	if (NIC_FAULT(nic, UET_NIC_FAULT_NACK_CODE))
		h.u.nack.nack_code = UET_NACK_NO_RESOURCE;
	h.u.nack.nack_psn = f->pds.u.req.psn;
	h.u.nack.spdcid = pdc != NULL ? pdc->id : 0;
	if (pdc != NULL) {
		pdc->trims++;
		pdc->nacks++;
	}
	h.u.nack.dpdcid = f->pds.u.req.spdcid;
	/* The NACK carries the trimmed packet's entropy back. */
	if (nic_ctrl_item(nic, f->ip.src, f->udp.sport, &h, NIC_FRAME_NACK,
			  &it) < 0)
		return;
	nic->st.transport.nacks_sent++;
	nic_port_send_ctrl(nic, &it);
}

/* Check every delivered byte against the pattern, segment by segment. */
static bool payload_matches(const struct uet_nic *nic, const struct rte_mbuf *m,
			    const struct uet_frame *f)
{
	const struct uet_ses_std *std = &f->ses.u.std;
	uint32_t shift = uet_ses_pattern_shift(std->message_id, std->initiator);
	uint64_t msg_off = std->flags & UET_SES_F_SOM ? 0 : std->message_offset;
	size_t off = f->payload_offset, left = f->payload_bytes;
	const struct rte_mbuf *seg = m;

	while (seg != NULL && off >= seg->data_len) {
		off -= seg->data_len;
		seg = seg->next;
	}
	while (left > 0 && seg != NULL) {
		size_t n = seg->data_len - off;

		if (n > left)
			n = left;
		if (uet_ses_pattern_verify(
			    nic->payload->pattern, shift, msg_off,
			    rte_pktmbuf_mtod_offset(seg, const uint8_t *, off),
			    n) != 0)
			return false;
		msg_off += n;
		left -= n;
		off = 0;
		seg = seg->next;
	}
	return left == 0;
}

/* Step 4: deliver a new packet's payload to the host as a PCIe write;
 * its pool space goes back when the write is accepted. */
static void receive_deliver(struct uet_nic *nic, const struct rte_mbuf *m,
			    const struct uet_frame *f, uint32_t ip_bytes,
			    bool external)
{
	uet_time_t accepted_ps = nic_now(nic);
	uint32_t payload = (uint32_t)f->payload_bytes;
	struct nic_tev *t;

	/* Our pattern is ours: a foreign stack's payload is its own. */
	if (!external && !payload_matches(nic, m, f))
		nic->st.payload_mismatches++;
	if (uet_pcie_write(&nic->pcie, nic_now(nic), payload, &accepted_ps,
			   NULL) < 0)
		accepted_ps = nic_now(nic);
	nic->st.transport.pcie_write_bytes += payload;
	nic->st.transport.data_payload_bytes_delivered += payload;
	if (accepted_ps <= nic_now(nic) ||
	    (t = nic_tev_get(nic, NIC_TEV_INGRESS_FREE,
			     ingress_release_event)) == NULL) {
		ingress_release_now(nic, NIC_TC_DATA, ip_bytes);
		return;
	}
	t->tc = NIC_TC_DATA;
	t->bytes = ip_bytes;
	uet_evq_schedule(&nic->comp.evq, &t->ev, accepted_ps);
}

static void rx_linger(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct nic_pdc *pdc = arg;
	struct uet_nic *nic = pdc->nic;
	uet_time_t linger = rx_linger_ps(nic);

	(void)ev;
	if (uet_evq_now(q) - pdc->last_rx_ps >= linger && !pdc->rmsg.arrived) {
		/* Only an external host's side waits here unarrived: it
		 * stalled, and goes without being remembered (a retransmit
		 * of it finds no side and is dropped as stale). */
		nic->st.external_stalls_closed++;
		nic_pdc_close(pdc);
		return;
	}
	if (uet_evq_now(q) - pdc->last_rx_ps >= linger) {
		/* Its CLOSE was lost, or its sender still waits for an ACK
		 * that was: remember the side, to answer that sender. */
		nic_pdc_rx_closed_add(pdc);
		nic_pdc_close(pdc);
		return;
	}
	uet_evq_schedule(q, &pdc->linger_ev, pdc->last_rx_ps + linger);
}

/* The message arrived: its last packet is in and no gap remains. */
static void receive_check_arrived(struct uet_nic *nic, struct nic_pdc *pdc)
{
	struct uet_ses_msg_rx *msg = &pdc->rmsg;

	/* Every byte, not only the last packet with no gap before it: a
	 * request_length that its packets do not fill is no arrival. */
	if (!msg->eom_seen || msg->arrived ||
	    msg->delivered_bytes != msg->bytes ||
	    !uet_pds_rx_no_gap_through(&pdc->rx, msg->eom_psn))
		return;
	msg->arrived = true;
	msg->arrived_ps = nic_now(nic);
	nic->st.transport.msgs_arrived++;
	/* An external host's memory_key is that stack's, not one of our
	 * message numbers: it goes in no table of ours, and its completion
	 * says so. */
	if (pdc->external)
		nic->st.external_msgs_arrived++;
	else
		uet_ses_arrivals_set(nic->arrivals, msg->msg_id,
				     msg->arrived_ps);
	nic_complete(nic, UET_SES_ARRIVED, pdc);
	/* The sender's CLOSE ends this side; the linger timer ends it if the
	 * CLOSE is lost (4 x the longest timeout with no packet). */
	uet_evq_schedule(&nic->comp.evq, &pdc->linger_ev,
			 nic_now(nic) + rx_linger_ps(nic));
}

/* Step 5: the ACK, held for the receiver's PCIe service-time estimate;
 * ACKs leave in the order they were generated. */
static void ack_hold_done(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct nic_tev *t = arg;
	struct uet_nic *nic = t->nic;
	const struct nic_txq_item it = t->ack;

	(void)q;
	(void)ev;
	nic_tev_put(t);
	nic->st.transport.acks_sent++;
	nic_port_send_ctrl(nic, &it);
}

/* The ACK h for the data packet f leaves after hold_ps, not before the
 * ACK generated before it. */
static void ack_send_held(struct uet_nic *nic, const struct uet_frame *f,
			  const struct uet_pds_hdr *h, uet_time_t hold_ps)
{
	uet_time_t release_ps = nic_now(nic) + hold_ps;
	struct nic_tev *t;

	t = nic_tev_get(nic, NIC_TEV_ACK_HOLD, ack_hold_done);
	if (t == NULL)
		return;
	/* The ACK's source port carries the acknowledged packet's entropy. */
	if (nic_ctrl_item(nic, f->ip.src, f->udp.sport, h, NIC_FRAME_ACK,
			  &t->ack) < 0) {
		nic_tev_put(t);
		return;
	}
	t->ack.mon.psn = f->pds.u.req.psn;
	if (release_ps < nic->last_ack_release_ps)
		release_ps = nic->last_ack_release_ps;
	nic->last_ack_release_ps = release_ps;
	uet_evq_schedule(&nic->comp.evq, &t->ev, release_ps);
}

/* An ACK's header for data packet f with cumulative ACK cack_psn, from
 * this NIC's PDC number spdcid. */
static void ack_header(struct uet_pds_hdr *h, const struct uet_frame *f,
		       uint32_t cack_psn, uint16_t spdcid)
{
	int32_t off = uet_pds_psn_diff(f->pds.u.req.psn, cack_psn);

	memset(h, 0, sizeof(*h));
	h->type = UET_PDS_TYPE_ACK_CC;
	if (f->ip.ecn == UET_ECN_CE)
		h->flags |= UET_PDS_ACK_F_M;
	if (f->pds.flags & UET_PDS_REQ_F_RETX)
		h->flags |= UET_PDS_ACK_F_RETX;
	h->u.ack.ack_psn_offset =
		(int16_t)(off > INT16_MAX
				  ? INT16_MAX
				  : (off < INT16_MIN ? INT16_MIN : off));
	h->u.ack.cack_psn = cack_psn;
	h->u.ack.spdcid = spdcid;
	h->u.ack.dpdcid = f->pds.u.req.spdcid;
	h->u.ack.cc_type = UET_PDS_CC_TYPE_NSCC;
}

/* The faults of an ACK (nic_fault.c). cack-ahead claims one PSN more
 * than has arrived, while the message's last packet has not (so that the
 * claim stays inside what the sender has sent); the acknowledged PSN and
 * the bitmap's base stay where they were, so that only the cumulative
 * ACK is wrong. */
static void ack_faults(struct uet_nic *nic, const struct nic_pdc *pdc,
		       struct uet_pds_hdr *h)
{
	if (NIC_FAULT(nic, UET_NIC_FAULT_PDC_ZERO))
		h->u.ack.spdcid = 0;
	if (NIC_FAULT(nic, UET_NIC_FAULT_NO_SACK))
		h->u.ack.sack_bitmap = 0;
	if (NIC_FAULT(nic, UET_NIC_FAULT_NO_ECN_ECHO))
		h->flags &= (uint8_t)~UET_PDS_ACK_F_M;
	if (NIC_FAULT(nic, UET_NIC_FAULT_CACK_AHEAD) && !pdc->rmsg.eom_seen) {
		h->u.ack.cack_psn++;
		h->u.ack.ack_psn_offset--;
		h->u.ack.sack_psn_offset--;
	}
}

static void receive_acknowledge(struct uet_nic *nic, struct nic_pdc *pdc,
				const struct uet_frame *f, uint64_t hold_bytes)
{
	uet_time_t hold_ps = uet_pcie_ack_hold_ps(&nic->p.pcie, hold_bytes);
	struct uet_pds_ack_info info;
	struct uet_pds_hdr h;

	uet_pds_rx_ack(&pdc->rx, &info);
	ack_header(&h, f, info.cack_psn, pdc->id);
	h.u.ack.sack_psn_offset = info.sack_psn_offset;
	h.u.ack.sack_bitmap = info.sack_bitmap;
	h.u.ack.cc.nscc.service_time = uet_pds_service_time_steps(hold_ps);
	h.u.ack.cc.nscc.rcvd_bytes =
		(uint32_t)(pdc->rmsg.delivered_bytes & 0xffffffu);
	h.u.ack.cc.nscc.ooo_count =
		(uint16_t)(pdc->rx.stats.out_of_order & 0xffffu);
	ack_faults(nic, pdc, &h);
	ack_send_held(nic, f, &h, hold_ps);
}

/* A packet of a message whose side closed on its linger timer: every PSN
 * of it had arrived, so the ACK says so, and the sender completes (and
 * sends its CLOSE again). */
static void receive_acknowledge_closed(struct uet_nic *nic,
				       const struct nic_rx_closed *c,
				       const struct uet_frame *f,
				       uint64_t hold_bytes)
{
	uet_time_t hold_ps = uet_pcie_ack_hold_ps(&nic->p.pcie, hold_bytes);
	struct uet_pds_hdr h;

	nic->st.closed_side_acks++;
	ack_header(&h, f, c->cack_psn, c->id);
	h.u.ack.cc.nscc.service_time = uet_pds_service_time_steps(hold_ps);
	ack_send_held(nic, f, &h, hold_ps);
}

void nic_rx_monitor(struct uet_nic *nic, const struct uet_frame *f,
		    uint16_t pdc, enum uet_monitor_pkt kind)
{
	struct uet_monitor_row r = {0};

	if (!nic->monitor_on)
		return;
	r.time_ps = nic_now(nic);
	r.pdc = pdc;
	r.pkt = kind;
	r.dscp = f->ip.dscp;
	r.entropy = f->udp.sport;
	r.wire_bytes = uet_wire_bytes_of_ip(f->ip.total_length_bytes);
	if (kind == UET_MON_DATA || kind == UET_MON_TRIMMED) {
		r.psn = f->pds.u.req.psn;
		r.ar = (f->pds.flags & UET_PDS_REQ_F_AR) != 0;
		r.retx = (f->pds.flags & UET_PDS_REQ_F_RETX) != 0;
	} else if (kind == UET_MON_ACK) {
		struct uet_pds_ack_info info = {
			.cack_psn = f->pds.u.ack.cack_psn,
			.sack_psn_offset = f->pds.u.ack.sack_psn_offset,
		};

		r.psn = f->pds.u.ack.cack_psn +
			(uint32_t)(int32_t)f->pds.u.ack.ack_psn_offset;
		r.cack_psn = info.cack_psn;
		r.sack_base_psn = uet_pds_sack_base_psn(&info);
		r.sack_bitmap = f->pds.u.ack.sack_bitmap;
		r.service_time = f->pds.u.ack.cc.nscc.service_time;
	} else if (kind == UET_MON_NACK) {
		r.psn = f->pds.u.nack.nack_psn;
		r.nack_code = f->pds.u.nack.nack_code;
	} else {
		r.psn = f->pds.u.cp.psn;
	}
	nic_record_monitor(nic, &r);
}

/* Whether data packet f's payload lies inside the message its PDC
 * carries: the same request_length as the first packet's, and no byte
 * past it. */
static bool packet_fits(const struct uet_ses_msg_rx *msg,
			const struct uet_frame *f)
{
	const struct uet_ses_std *std = &f->ses.u.std;
	uint64_t off = std->flags & UET_SES_F_SOM ? 0 : std->message_offset;

	return std->request_length == msg->bytes &&
	       off + f->payload_bytes <= msg->bytes;
}

static void receive_data(struct uet_nic *nic, const struct rte_mbuf *m,
			 const struct uet_frame *f)
{
	int role = uet_dscp_role_of(&nic->p.dscp, f->ip.dscp);
	bool trimmed = f->trimmed || role == UET_DSCP_TRIMMED ||
		       role == UET_DSCP_TRIMMED_LASTHOP;
	int tc = trimmed ? NIC_TC_CONTROL : NIC_TC_DATA;
	uint32_t ip_bytes = f->ip.total_length_bytes;
	const struct nic_rx_closed *closed;
	uint64_t ooo_before, hold_bytes;
	struct nic_pdc *pdc;
	int rc;

	if (!trimmed && (!f->has_ses || f->ses.kind != UET_SES_REQUEST_STD)) {
		nic->st.transport.malformed_frames++;
		return;
	}
	if (!receive_pool_charge(nic, tc, ip_bytes)) {
		nic->st.transport.ingress_drops++;
		return;
	}
	/* Bytes waiting for the data class's PCIe link, this packet in. */
	hold_bytes = nic_ingress_used(&nic->pools, NIC_TC_DATA);
	pdc = receive_find_pdc(nic, f, &closed);
	nic_rx_monitor(nic, f,
		       pdc != NULL ? pdc->id
				   : (closed != NULL ? closed->id : 0),
		       trimmed ? UET_MON_TRIMMED : UET_MON_DATA);
	if (trimmed) {
		ingress_release_now(nic, tc, ip_bytes);
		receive_trimmed(nic, pdc, f, role == UET_DSCP_TRIMMED_LASTHOP);
		return;
	}
	if (pdc == NULL) {
		ingress_release_now(nic, tc, ip_bytes);
		if (closed != NULL) {
			nic->st.transport.data_pkts_received++;
			nic->st.transport.duplicates_received++;
			receive_acknowledge_closed(nic, closed, f, hold_bytes);
		}
		return;
	}
	pdc->last_rx_ps = nic_now(nic);
	if (!pdc->rmsg_known) {
		const struct uet_ses_std *std = &f->ses.u.std;

		uet_ses_msg_rx_init(&pdc->rmsg, std->memory_key,
				    std->request_length, std->message_id,
				    std->initiator);
		pdc->rmsg_known = true;
	}
	if (!packet_fits(&pdc->rmsg, f)) {
		nic->st.transport.misfit_packets++;
		ingress_release_now(nic, tc, ip_bytes);
		return;
	}
	ooo_before = pdc->rx.stats.out_of_order;
	rc = uet_pds_rx_receive(&pdc->rx, f->pds.u.req.psn);
	nic->st.transport.ooo_events += pdc->rx.stats.out_of_order - ooo_before;
	if (rc < 0) {
		/* Beyond the receive window (-ERANGE), or no memory to
		 * record it: dropped, no ACK. */
		nic->st.transport.out_of_window_packets++;
		ingress_release_now(nic, tc, ip_bytes);
		return;
	}
	nic->st.transport.data_pkts_received++;
	if (f->pds.flags & UET_PDS_REQ_F_RETX)
		pdc->retransmits++;
	if (rc == 1) {
		pdc->rx_packets++;
		receive_deliver(nic, m, f, ip_bytes, pdc->external);
		pdc->rmsg.delivered_bytes += f->payload_bytes;
		if (f->ses.u.std.flags & UET_SES_F_EOM) {
			pdc->rmsg.eom_psn = f->pds.u.req.psn;
			pdc->rmsg.eom_seen = true;
		}
		receive_check_arrived(nic, pdc);
	} else {
		nic->st.transport.duplicates_received++;
		ingress_release_now(nic, tc, ip_bytes);
	}
	if (NIC_FAULT(nic, UET_NIC_FAULT_NO_ACK) &&
	    f->pds.u.req.psn - pdc->rx.start_psn == 1)
		return;
	if (NIC_FAULT(nic, UET_NIC_FAULT_DUP_NO_ACK) && rc != 1)
		return;
	/* The fault ack-unrequested answers a packet without AR too, which
	 * only a sender at AckRequestEveryNthPacket > 1 can tell. */
	if (NIC_FAULT(nic, UET_NIC_FAULT_ACK_UNREQUESTED) ||
	    uet_pds_rx_acknowledges((f->pds.flags & UET_PDS_REQ_F_AR) != 0,
				    pdc->rmsg.eom_seen))
		receive_acknowledge(nic, pdc, f, hold_bytes);
}

static void receive_frame(struct uet_nic *nic, struct rte_mbuf *m)
{
	struct uet_frame f;

	/* An arrival starts the stats rows too: a NIC that only receives
	 * has them. */
	nic_stats_start(nic);
	/* The fault: one malformed frame, and the NIC hears nothing more
	 * (the frame is dropped as one of another protocol would be). */
	if (NIC_FAULT(nic, UET_NIC_FAULT_MALFORMED_DEAF) &&
	    nic->st.transport.malformed_frames > 0) {
		nic->st.transport.other_frames++;
	} else if (uet_frame_parse_mbuf(&nic->wire, m, &f, NULL) < 0) {
		nic->st.transport.malformed_frames++;
	} else if (f.kind == UET_FRAME_PFC) {
		nic_pfc_receive(nic, &f.l2.pfc);
	} else if (f.kind != UET_FRAME_UET || f.ip.dst != nic->ip) {
		nic->st.transport.other_frames++;
	} else if (f.ip.src == nic->ip) {
		nic->st.transport.own_source_frames++;
	} else {
		switch (f.pds.type) {
		case UET_PDS_TYPE_RUD_CC_REQ:
		case UET_PDS_TYPE_RUD_REQ:
			/* A plain RUD request (no CC state) is delivered and
			 * acknowledged as the page's data packet is: the two
			 * differ only in req_cc_state (wire format 4.1). */
			receive_data(nic, m, &f);
			break;
		case UET_PDS_TYPE_ACK_CC:
			nic_rx_monitor(nic, &f, f.pds.u.ack.dpdcid,
				       UET_MON_ACK);
			nic_rx_ack(nic, &f);
			break;
		case UET_PDS_TYPE_NACK:
			nic_rx_monitor(nic, &f, f.pds.u.nack.dpdcid,
				       UET_MON_NACK);
			nic_rx_nack(nic, &f);
			break;
		case UET_PDS_TYPE_CP:
			nic_rx_control(nic, &f);
			break;
		default:
			nic->st.transport.other_frames++;
			break;
		}
	}
	rte_pktmbuf_free(m);
}

/*
 * Fetch what the next frame of the train will read first: its headers
 * and its payload segment's mbuf (the payload check and the free read
 * both its lines). It was last touched by the switch a link delay ago;
 * at 1024 hosts a NIC's frame was cold by then, and this one's handling
 * covers the fetch.
 */
static void arrival_prefetch_next(const struct uet_nic *nic)
{
	const struct rte_mbuf *next, *seg;

	if (uet_train_len(&nic->rx_train) == 0)
		return;
	memcpy(&next, uet_train_item(&nic->rx_train, 0), sizeof(next));
	rte_prefetch0(rte_pktmbuf_mtod(next, const void *));
	seg = next->next;
	if (seg != NULL) {
		rte_prefetch0(seg);
		rte_prefetch0(RTE_PTR_ADD(seg, RTE_CACHE_LINE_SIZE));
	}
}

/* A frame of the rx train is fully received. */
static void arrival_due(struct uet_evq *q, void *item, void *arg)
{
	struct rte_mbuf *m;

	(void)q;
	memcpy(&m, item, sizeof(m));
	arrival_prefetch_next(arg);
	receive_frame(arg, m);
}

/* A frame that arrives out of order, in a pooled event. */
static void arrival_tev_due(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct nic_tev *t = arg;
	struct uet_nic *nic = t->nic;
	struct rte_mbuf *m = t->m;

	(void)q;
	(void)ev;
	nic_tev_put(t);
	receive_frame(nic, m);
}

int nic_rx_init(struct uet_nic *nic)
{
	return uet_train_init(&nic->rx_train, &nic->comp.evq,
			      sizeof(struct rte_mbuf *), arrival_due, nic);
}

void nic_rx_fini(struct uet_nic *nic)
{
	struct rte_mbuf *m;
	uint32_t i;

	for (i = 0; i < uet_train_len(&nic->rx_train); i++) {
		memcpy(&m, uet_train_item(&nic->rx_train, i), sizeof(m));
		rte_pktmbuf_free(m);
	}
	uet_train_fini(&nic->rx_train);
}

/*
 * Frames come from one link, in the order they arrive, so they wait in
 * a train (lib/core/uet_train.h): one queue event for the next, none per
 * frame. One out of order (a caller's choice, not a link's) takes a
 * pooled event.
 */
int nic_deliver(struct uet_component *c, uint32_t port, struct rte_mbuf *m,
		uet_time_t arrival_ps)
{
	struct uet_nic *nic = (struct uet_nic *)c;
	struct nic_tev *t;
	int rc;

	(void)port;
	if (arrival_ps < nic_now(nic)) {
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	if (uet_train_accepts(&nic->rx_train, arrival_ps)) {
		rc = uet_train_push(&nic->rx_train, arrival_ps, &m);
		if (rc < 0) {
			nic->st.event_failures++;
			rte_pktmbuf_free(m);
		}
		return rc;
	}
	t = nic_tev_get(nic, NIC_TEV_RX, arrival_tev_due);
	if (t == NULL) {
		rte_pktmbuf_free(m);
		return -ENOMEM;
	}
	t->m = m;
	return uet_evq_schedule(&nic->comp.evq, &t->ev, arrival_ps);
}
