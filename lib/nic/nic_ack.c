/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sender's side of acknowledgements and loss recovery (the page's
 * "Acknowledgements", "Base-RTT probe", "Trimmed packets and NACKs" and
 * "Retransmission timer"): lib/pds decides what an ACK retires and whether
 * a NACK or a timer acts; this file feeds the group's window, congestion
 * control and balancer, and restarts the transmit process.
 */
#include <errno.h>
#include <string.h>

#include "nic_private.h"

/* A sending PDC that an ACK or NACK from ip names, or NULL. */
static struct nic_pdc *sender_pdc(struct uet_nic *nic, uint16_t id, uint32_t ip)
{
	struct nic_pdc *pdc = nic_pdc_lookup(nic, id);

	if (pdc == NULL || !pdc->is_tx || pdc->dst_ip != ip) {
		nic->st.transport.stale_packets++;
		return NULL;
	}
	return pdc;
}

/* One small control probe after the first data ACK of each message. */
static void send_probe(struct uet_nic *nic, struct nic_pdc *pdc)
{
	uint16_t opaque = nic->next_probe_opaque++;
	uint32_t slot = opaque % NIC_PROBE_SLOTS;
	struct nic_probe_slot *s;
	struct nic_txq_item it;
	struct uet_pds_hdr h;

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_CP;
	h.next_hdr = UET_CP_PROBE;
	h.u.cp.probe_opaque = opaque;
	h.u.cp.psn = pdc->tx.next_psn;
	h.u.cp.spdcid = pdc->id;
	h.u.cp.dpdcid = pdc->peer_pdc;
	h.u.cp.payload = pdc->tx.base_psn;
	/* A PDC whose ACKs never named the receiver's side (a stack that
	 * writes PDC 0 in them) probes with SYN and the PSN offset, as its
	 * data packets go (wire format 4.1): with destination PDC 0 and no
	 * SYN, no receiver could place it. */
	if (pdc->syn) {
		h.flags |= UET_PDS_CP_F_SYN;
		h.u.cp.syn.psn_offset =
			(uint16_t)((h.u.cp.psn - pdc->start_psn) & 0x0fffu);
	}
	if (nic_ctrl_item(nic, pdc->dst_ip,
			  uet_lb_next_entropy(&pdc->group->lb, nic_now(nic)),
			  &h, NIC_FRAME_PROBE, &it) < 0)
		return;
	s = nic_probe_take(nic, slot, pdc->group);
	if (s == NULL) {
		rte_pktmbuf_free(it.m);
		nic->st.mbuf_failures++;
		return;
	}
	s->opaque = opaque;
	s->sent_ps = UET_TIME_NEVER;
	it.psn = slot; /* the sent hook stamps the slot */
	nic->st.transport.probes_sent++;
	nic_port_send_ctrl(nic, &it);
}

void nic_probe_sent(struct uet_nic *nic, uint32_t slot)
{
	if (slot < nic->probes_cap)
		nic->probes[slot].sent_ps = nic_now(nic);
}

static void probe_acked(struct uet_nic *nic, const struct uet_frame *f)
{
	uint16_t opaque = f->pds.u.ack.probe_opaque;
	uint32_t slot = opaque % NIC_PROBE_SLOTS;
	struct nic_probe_slot *s =
		slot < nic->probes_cap ? &nic->probes[slot] : NULL;
	struct nic_group *g;
	enum uet_cc_reason r0;
	uint64_t w0;

	if (s == NULL || s->group == NULL || s->opaque != opaque ||
	    s->sent_ps == UET_TIME_NEVER) {
		nic->st.transport.late_probe_acks++;
		return;
	}
	nic->st.transport.probe_acks_received++;
	g = s->group;
	w0 = g->cc.window_bytes;
	r0 = g->cc.last_reason;
	uet_cc_on_probe_rtt(&g->cc, nic_now(nic) - s->sent_ps);
	nic_record_cc(nic, g, "probe", w0, r0);
	nic_probe_release(nic, s);
}

/* The sender closes its PDC when the message completes, and tells the
 * receiver with a CP CLOSE so that it can close its side. A CLOSE to an
 * external host asks for an ACK (AR, wire format 4.4): nothing here waits
 * for it (the PDC closes at once, its ACK is counted stale), but it shows
 * on the wire whether the foreign stack took the CLOSE, which the
 * conformance run checks. Our own NICs' CLOSEs to each other carry no AR,
 * as the page's traffic never did. A PDC that never learnt the
 * receiver's number (its ACKs named none) closes with SYN and the PSN
 * offset, as its data packets went (wire format 4.4). */
static void send_close(struct uet_nic *nic, struct nic_pdc *pdc)
{
	struct nic_txq_item it;
	struct uet_pds_hdr h;

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_CP;
	h.next_hdr = UET_CP_CLOSE;
	h.u.cp.psn = pdc->tx.next_psn;
	h.u.cp.spdcid = pdc->id;
	h.u.cp.dpdcid = pdc->peer_pdc;
	if (nic->external_count > 0 && nic_peer_external(nic, pdc->dst_ip))
		h.flags |= UET_PDS_CP_F_AR;
	if (pdc->syn) {
		h.flags |= UET_PDS_CP_F_SYN;
		h.u.cp.syn.psn_offset =
			(uint16_t)((h.u.cp.psn - pdc->start_psn) & 0x0fffu);
	}
	if (nic_ctrl_item(nic, pdc->dst_ip,
			  uet_lb_next_entropy(&pdc->group->lb, nic_now(nic)),
			  &h, NIC_FRAME_CLOSE, &it) < 0)
		return;
	nic->st.closes_sent++;
	nic_port_send_ctrl(nic, &it);
}

/** What the retire callback gathers from one ACK. */
struct retire_ctx {
	struct uet_nic *nic;
	uint32_t acked_psn; /**< the PSN whose AR drew the ACK */
	bool rtt_valid;	    /**< it was retired now, sent once */
	uet_time_t rtt_ps;  /**< its round trip */
	uint32_t retired;   /**< PSNs retired */
};

static void on_retire(void *arg, uint32_t psn,
		      const struct uet_pds_tx_packet *pkt,
		      bool rtt_sample_valid)
{
	struct retire_ctx *c = arg;

	c->retired++;
	c->nic->st.psns_retired++;
	if (psn == c->acked_psn && rtt_sample_valid) {
		c->rtt_valid = true;
		c->rtt_ps = nic_now(c->nic) - pkt->sent_ps;
	}
}

void nic_rx_ack(struct uet_nic *nic, const struct uet_frame *f)
{
	const struct uet_pds_ack *a = &f->pds.u.ack;
	struct retire_ctx ctx = {.nic = nic};
	struct uet_pds_tx_ack_result res;
	struct uet_pds_ack_info info;
	struct uet_cc_ack cca = {0};
	enum uet_cc_reason r0;
	uint64_t w0;
	bool ecn = (f->pds.flags & UET_PDS_ACK_F_M) != 0;
	struct nic_group *g;
	struct nic_pdc *pdc;
	int rc;

	if (f->pds.flags & UET_PDS_ACK_F_P) {
		probe_acked(nic, f);
		return;
	}
	pdc = sender_pdc(nic, a->dpdcid, f->ip.src);
	if (pdc == NULL)
		return;
	nic->st.transport.acks_received++;
	g = pdc->group;
	/* The first ACK names the receiver's PDC: SYN is over. Only an ACK
	 * whose cumulative ACK lies in this PDC's PSN space counts: this
	 * PDC's number may be a reused one, and the receiver's lingering
	 * side of the earlier PDC (its CLOSE lost) still ACKs that PDC's
	 * late duplicates to it. Taking its number would send every later
	 * packet to the old side, which never ACKs them in this space. */
	/* PDC number 0 is reserved (wire format 4.1): an ACK naming it
	 * names no side, and the packets keep SYN, which any receiver can
	 * place. */
	if (pdc->syn && a->spdcid != 0 &&
	    a->cack_psn + 1 - pdc->start_psn <=
		    pdc->tx.next_psn - pdc->start_psn) {
		pdc->peer_pdc = a->spdcid;
		pdc->syn = false;
	}
	info.cack_psn = a->cack_psn;
	info.sack_psn_offset = a->sack_psn_offset;
	info.sack_bitmap = a->sack_bitmap;
	ctx.acked_psn = a->cack_psn + (uint32_t)(int32_t)a->ack_psn_offset;
	memset(&res, 0, sizeof(res));
	rc = uet_pds_tx_ack(&pdc->tx, &info, on_retire, &ctx, &res);
	/* An ACK whose cumulative ACK lies beyond every PSN sent (lib/pds
	 * -ERANGE) retires nothing: it is not this PDC's (the lingering side
	 * of an earlier PDC of the same number), or the receiver is broken.
	 * It is counted as stale below, and draws no probe: the page's probe
	 * follows the first data ACK, which this is not. */
	if (rc == -ERANGE)
		nic->st.transport.stale_packets++;
	nic_pdc_sync(nic, pdc);
	nic_rto_acked(nic);
	nic_in_flight_sub(nic, g, res.retired_in_flight_bytes);
	cca.now_ps = nic_now(nic);
	cca.acked_bytes = res.retired_bytes;
	cca.ecn = ecn;
	cca.rtt_valid = ctx.rtt_valid;
	cca.rtt_ps = ctx.rtt_ps;
	cca.service_ps = uet_pds_service_time_ps(a->cc.nscc.service_time);
	cca.in_flight_bytes = g->in_flight_bytes;
	cca.rcv_cwnd_pend = a->cc.nscc.rcv_cwnd_pend;
	w0 = g->cc.window_bytes;
	r0 = g->cc.last_reason;
	uet_cc_on_ack(&g->cc, &cca);
	nic_record_cc(nic, g, "ack", w0, r0);
	/* The ACK's source port is the acknowledged packet's entropy. */
	uet_lb_feedback(&g->lb, f->udp.sport, ecn ? UET_LB_ECN : UET_LB_GOOD,
			nic_now(nic));
	if (!pdc->probe_sent && rc != -ERANGE) {
		pdc->probe_sent = true;
		send_probe(nic, pdc);
	}
	nic_transmit_on_feedback(nic, g);
	if (uet_ses_msg_tx_acked(&pdc->msg, ctx.retired, nic_now(nic))) {
		/* Completion: the message's time is its last ACK. */
		nic->st.transport.msgs_completed++;
		nic_complete(nic, UET_SES_COMPLETED, pdc);
		send_close(nic, pdc);
		nic_pdc_close(pdc);
	}
}

/*
 * A packet is lost: trimmed on the way (last_hop: at the receiver's
 * port) or its timer expired. The one reaction to both: out of the
 * group's window, congestion control's reaction and its cc-trace row, the
 * balancer told what happened on the packet's path, and the transmit
 * process restarted for the retransmission lib/pds has queued.
 */
enum nic_loss {
	NIC_LOSS_TRIMMED,
	NIC_LOSS_TRIMMED_LASTHOP,
	NIC_LOSS_TIMEOUT,
};

static void loss_react(struct uet_nic *nic, struct nic_group *g,
		       uint32_t nominal, uint16_t entropy, enum nic_loss loss,
		       enum uet_lb_feedback lbf)
{
	const uet_time_t now = nic_now(nic);
	const uint64_t w0 = g->cc.window_bytes;
	const enum uet_cc_reason r0 = g->cc.last_reason;

	nic_in_flight_sub(nic, g, nominal);
	if (loss == NIC_LOSS_TIMEOUT)
		uet_cc_on_timeout(&g->cc, now, nominal);
	else
		uet_cc_on_trim(&g->cc, now, nominal,
			       loss == NIC_LOSS_TRIMMED_LASTHOP,
			       g->in_flight_bytes);
	nic_record_cc(nic, g, loss == NIC_LOSS_TIMEOUT ? "timeout" : "trim", w0,
		      r0);
	uet_lb_feedback(&g->lb, entropy, lbf, now);
	nic_transmit_on_feedback(nic, g);
}

void nic_rx_nack(struct uet_nic *nic, const struct uet_frame *f)
{
	const struct uet_pds_nack *n = &f->pds.u.nack;
	const struct uet_pds_tx_packet *pkt;
	struct nic_pdc *pdc;
	uint32_t nominal;
	uint16_t entropy;
	bool last_hop = n->nack_code == UET_NACK_TRIMMED_LASTHOP;
	bool marked = (f->pds.flags & UET_PDS_NACK_F_M) != 0;
	enum uet_lb_feedback lbf;

	pdc = sender_pdc(nic, n->dpdcid, f->ip.src);
	if (pdc == NULL)
		return;
	nic->st.transport.nacks_received++;
	pdc->nacks++;
	if (n->nack_code != UET_NACK_TRIMMED && !last_hop)
		return;
	pkt = uet_pds_tx_packet(&pdc->tx, n->nack_psn);
	if (pkt == NULL)
		return;
	nominal = pkt->nominal_bytes;
	entropy = pkt->entropy;
	/* Only a NACK for an outstanding packet acts. */
	if (uet_pds_tx_nack(&pdc->tx, n->nack_psn) != 1)
		return;
	nic_pdc_sync(nic, pdc);
	pdc->trims++;
	/* A trim on the way blames the path. A last-hop trim is the
	 * receiver's port overflowing (incast), so the path is judged by its
	 * CE mark alone, as an ACK would judge it (cc-and-multipath 1.2). */
	if (!last_hop)
		lbf = UET_LB_TRIMMED;
	else
		lbf = marked ? UET_LB_ECN : UET_LB_TRIMMED_LASTHOP;
	loss_react(nic, pdc->group, nominal, entropy,
		   last_hop ? NIC_LOSS_TRIMMED_LASTHOP : NIC_LOSS_TRIMMED, lbf);
}

void nic_rto_fire(struct uet_nic *nic, uint16_t pdc_id, uint32_t pdc_gen,
		  uint32_t psn, uint32_t count)
{
	struct nic_pdc *pdc = nic_pdc_lookup_gen(nic, pdc_id, pdc_gen);
	const struct uet_pds_tx_packet *pkt;
	uint32_t nominal;
	uint16_t entropy;

	pkt = pdc != NULL ? uet_pds_tx_packet(&pdc->tx, psn) : NULL;
	if (pkt == NULL) {
		nic->st.rto_ignored++;
		return;
	}
	nominal = pkt->nominal_bytes;
	entropy = pkt->entropy;
	/* The transmit-count guard: a timer of an acknowledged packet, or
	 * of an earlier transmission, does nothing. */
	if (uet_pds_tx_timeout(&pdc->tx, psn, count) != 1) {
		nic->st.rto_ignored++;
		return;
	}
	nic_pdc_sync(nic, pdc);
	nic->st.transport.rto_expiries++;
	pdc->timeouts++;
	loss_react(nic, pdc->group, nominal, entropy, NIC_LOSS_TIMEOUT,
		   UET_LB_TIMEOUT);
}
