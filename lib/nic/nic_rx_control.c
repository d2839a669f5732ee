/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Control packets received (PDS type CP, wire format 4.4): the base-RTT
 * PROBE, answered at once (the page's "Base-RTT probe"), and CLOSE, which
 * ends the receiving side of its PDC. A CP with the AR flag is acknowledged
 * like a request (wire format 4.4: "a CP uses up a forward PSN"): our own
 * senders' CLOSE to our own NICs carries no AR, a foreign stack's may, and
 * then it must hear that its CLOSE was taken. Every other ctl_type is
 * counted in other_frames and dropped: the page uses none.
 */
#include <string.h>

#include "nic_private.h"

/* The receiving side that a CP from f's source names, or NULL: by its
 * number, or with SYN (a sender that never learnt the number) by the
 * sender's (address, PDC number, start PSN), as a data packet is. */
static struct nic_pdc *control_pdc(struct uet_nic *nic,
				   const struct uet_frame *f)
{
	const struct uet_pds_cp *cp = &f->pds.u.cp;
	struct nic_pdc *pdc;

	if (f->pds.flags & UET_PDS_CP_F_SYN)
		return nic_pdc_rx_find(
			nic, f->ip.src, cp->spdcid,
			uet_pds_start_psn(cp->psn, cp->syn.psn_offset));
	pdc = nic_pdc_lookup(nic, cp->dpdcid);

	if (pdc != NULL && (pdc->is_tx || pdc->peer_ip != f->ip.src ||
			    pdc->peer_pdc != cp->spdcid))
		pdc = NULL;
	return pdc;
}

/*
 * The ACK of a CLOSE with AR: the side's cumulative ACK and SACK bitmap
 * (info; a packet the sender gave up on leaves a gap before the CLOSE's
 * PSN), naming the CLOSE's PSN (ack_psn_offset), from side spdcid. Sent
 * at once, not held:
 * the hold is the acknowledged packet's way to host memory (the page's
 * "Acknowledgements"), and a CP carries nothing to host memory.
 */
static void close_acknowledge(struct uet_nic *nic, const struct uet_frame *f,
			      const struct uet_pds_ack_info *info,
			      uint16_t spdcid)
{
	const struct uet_pds_cp *cp = &f->pds.u.cp;
	int32_t off = uet_pds_psn_diff(cp->psn, info->cack_psn);
	struct nic_txq_item it;
	struct uet_pds_hdr h;

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_ACK_CC;
	if (f->ip.ecn == UET_ECN_CE)
		h.flags |= UET_PDS_ACK_F_M;
	if (f->pds.flags & UET_PDS_CP_F_RETX)
		h.flags |= UET_PDS_ACK_F_RETX;
	h.u.ack.ack_psn_offset =
		(int16_t)(off > INT16_MAX
				  ? INT16_MAX
				  : (off < INT16_MIN ? INT16_MIN : off));
	h.u.ack.cack_psn = info->cack_psn;
	h.u.ack.sack_psn_offset = info->sack_psn_offset;
	h.u.ack.sack_bitmap = info->sack_bitmap;
	h.u.ack.spdcid = spdcid;
	h.u.ack.dpdcid = cp->spdcid;
	h.u.ack.cc_type = UET_PDS_CC_TYPE_NSCC;
	if (nic_ctrl_item(nic, f->ip.src, f->udp.sport, &h, NIC_FRAME_ACK,
			  &it) < 0)
		return;
	it.mon.psn = cp->psn;
	nic->st.close_acks_sent++;
	nic->st.transport.acks_sent++;
	nic_port_send_ctrl(nic, &it);
}

/*
 * CLOSE ends the receiving side. It is remembered, as on its linger
 * timer: the CLOSE, a control frame, may overtake retransmissions still
 * queued in the data class, which must get an ACK, not open a side that
 * delivers them again. With AR, the CLOSE's PSN is taken as received
 * first, so that its ACK (and the remembered side's) acknowledges it;
 * a CLOSE with AR for a side already closed and remembered (its ACK was
 * lost, and the sender sends the CLOSE again) is answered from that
 * memory. An external host's sides are not remembered (nic_pdc.c), so
 * its CLOSE sent again finds nothing and is counted stale. A CLOSE without AR
 * for no side is dropped and counted apart (late_closes): a side that closed
 * on its linger timer is no fault.
 */
static void receive_close(struct uet_nic *nic, struct nic_pdc *pdc,
			  const struct uet_frame *f)
{
	const struct uet_pds_cp *cp = &f->pds.u.cp;
	bool ar = (f->pds.flags & UET_PDS_CP_F_AR) != 0;
	const struct nic_rx_closed *closed;
	struct uet_pds_ack_info info;

	if (pdc == NULL) {
		closed =
			ar ? nic_pdc_rx_closed_by_id(nic, f->ip.src, cp->spdcid,
						     cp->dpdcid, cp->psn)
			   : NULL;
		if (closed != NULL) {
			/* Every PSN through its cack had arrived: no
			 * bitmap (it starts just past the cack). */
			memset(&info, 0, sizeof(info));
			info.cack_psn = closed->cack_psn;
			info.sack_psn_offset = 1;
			close_acknowledge(nic, f, &info, closed->id);
		} else if (ar) {
			nic->st.transport.stale_packets++;
		} else {
			nic->st.transport.late_closes++;
		}
		return;
	}
	if (ar) {
		/* A CLOSE beyond the receive window is still a CLOSE: it is
		 * acknowledged with the side's cumulative ACK and bitmap as
		 * they stand. */
		(void)uet_pds_rx_receive(&pdc->rx, cp->psn);
		uet_pds_rx_ack(&pdc->rx, &info);
		close_acknowledge(nic, f, &info, pdc->id);
	}
	nic_pdc_rx_closed_add(pdc);
	nic_pdc_close(pdc);
}

/* A base-RTT probe is answered at once (no hold), even when its PDC has
 * gone. */
static void receive_probe(struct uet_nic *nic, struct nic_pdc *pdc,
			  const struct uet_frame *f)
{
	const struct uet_pds_cp *cp = &f->pds.u.cp;
	struct nic_txq_item it;
	struct uet_pds_hdr h;

	nic_rx_monitor(nic, f, pdc != NULL ? pdc->id : 0, UET_MON_PROBE);
	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_ACK_CC;
	h.flags = UET_PDS_ACK_F_P;
	h.u.ack.probe_opaque = cp->probe_opaque;
	h.u.ack.cack_psn = pdc != NULL ? uet_pds_rx_cack_psn(&pdc->rx) : 0;
	h.u.ack.spdcid = pdc != NULL ? pdc->id : 0;
	h.u.ack.dpdcid = cp->spdcid;
	h.u.ack.cc_type = UET_PDS_CC_TYPE_NSCC;
	/* Its row names no PSN (psn 0): a probe acknowledges none. */
	if (nic_ctrl_item(nic, f->ip.src, f->udp.sport, &h, NIC_FRAME_PROBE_ACK,
			  &it) < 0)
		return;
	nic->st.transport.acks_sent++;
	nic_port_send_ctrl(nic, &it);
}

void nic_rx_control(struct uet_nic *nic, const struct uet_frame *f)
{
	struct nic_pdc *pdc = control_pdc(nic, f);

	switch (f->pds.next_hdr) {
	case UET_CP_CLOSE:
		if (!NIC_FAULT(nic, UET_NIC_FAULT_CLOSE_IGNORED))
			receive_close(nic, pdc, f);
		break;
	case UET_CP_PROBE:
		if (!NIC_FAULT(nic, UET_NIC_FAULT_PROBE_IGNORED))
			receive_probe(nic, pdc, f);
		break;
	default:
		nic->st.transport.other_frames++;
		break;
	}
}
