/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The egress queues and the network port (the page's "Packets on the
 * wire", step 5): one FIFO per traffic class, control (class 1) served
 * before data (class 0), frames serialized back to back at the link's rate
 * with no interframe gap. When serialization ends the frame leaves with
 * its arrival time at the rack switch, a data packet's egress reservation
 * is released and its retransmission timer starts.
 */
#include <errno.h>
#include <stdlib.h>

#include "nic_private.h"

int nic_txq_push(struct nic_txq *q, const struct nic_txq_item *item)
{
	if (q->count == q->cap) {
		uint32_t cap = q->cap ? q->cap * 2 : 256;
		struct nic_txq_item *t = malloc(cap * sizeof(*t));
		uint32_t i;

		if (t == NULL)
			return -ENOMEM;
		for (i = 0; i < q->count; i++)
			t[i] = q->items[(q->head + i) & (q->cap - 1)];
		free(q->items);
		q->items = t;
		q->cap = cap;
		q->head = 0;
	}
	q->items[(q->head + q->count) & (q->cap - 1)] = *item;
	q->count++;
	return 0;
}

/* Pop the head of q if the switch has not paused its class. */
static bool txq_pop_unpaused(const struct uet_nic *nic, struct nic_txq *q,
			     struct nic_txq_item *item);

static bool txq_pop(struct nic_txq *q, struct nic_txq_item *item)
{
	if (q->count == 0)
		return false;
	*item = q->items[q->head];
	q->head = (q->head + 1) & (q->cap - 1);
	q->count--;
	return true;
}

static bool txq_pop_unpaused(const struct uet_nic *nic, struct nic_txq *q,
			     struct nic_txq_item *item)
{
	if (q->count == 0 || !nic_pfc_may_send(nic, q->items[q->head].m))
		return false;
	return txq_pop(q, item);
}

void nic_port_kick(struct uet_nic *nic)
{
	struct nic_txq_item *it = &nic->on_port;
	uet_time_t end_ps;

	if (nic->port_busy)
		return;
	/* The NIC's own pause frames first, never paused. Then control
	 * before data: an ACK never waits behind a window of data, which
	 * would inflate the peer's RTT samples. A queue whose head's class
	 * the switch paused waits (PFC). */
	if (!txq_pop(&nic->pfc_txq, it) &&
	    !txq_pop_unpaused(nic, &nic->txq[NIC_TC_CONTROL], it) &&
	    !txq_pop_unpaused(nic, &nic->txq[NIC_TC_DATA], it))
		return;
	nic->port_busy = true;
	end_ps = nic_now(nic) +
		 uet_serialization_ps(it->wire_bytes, nic->p.port_rate_bps);
	uet_evq_schedule(&nic->comp.evq, &nic->port_ev, end_ps);
}

/* A data packet's serialization has ended: release its reservation, start
 * its timer, and count its first transmission toward the message's
 * transmit completion. */
static void data_sent(struct uet_nic *nic, const struct nic_txq_item *it)
{
	struct nic_pdc *pdc = nic_pdc_lookup_gen(nic, it->pdc, it->pdc_gen);
	const struct uet_pds_tx_packet *pkt;

	nic_egress_release(nic, it->wire_bytes);
	nic->st.transport.data_pkts_sent++;
	if (pdc == NULL)
		return;
	pkt = uet_pds_tx_packet(&pdc->tx, it->psn);
	nic->st.transport.data_payload_bytes_sent +=
		pkt != NULL ? pkt->payload_bytes : 0;
	if (uet_pds_tx_sent(&pdc->tx, it->psn, nic_now(nic)) == 0)
		nic_rto_start(nic, pdc, it->psn, pkt->transmit_count,
			      nic_now(nic));
	if (it->kind == NIC_FRAME_DATA &&
	    uet_ses_msg_tx_first_sent(&pdc->msg, nic_now(nic)))
		nic_complete(nic, UET_SES_SENT, pdc);
}

void nic_port_end(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct uet_nic *nic = arg;
	struct nic_txq_item it = nic->on_port;
	uet_time_t now = nic_now(nic);
	int rc;

	(void)q;
	(void)ev;
	nic->port_busy = false;
	it.mon.time_ps = now;
	it.mon.tx = true;
	if (it.kind != NIC_FRAME_PFC)
		nic_record_monitor(nic, &it.mon);
	rc = uet_component_out(&nic->comp, 0, it.m, now + nic->p.delay_ps);
	if (rc < 0)
		nic->st.mbuf_failures++;
	switch (it.kind) {
	case NIC_FRAME_DATA:
	case NIC_FRAME_DATA_RETX:
		data_sent(nic, &it);
		break;
	case NIC_FRAME_PROBE:
		nic_probe_sent(nic, it.psn);
		break;
	default:
		break;
	}
	nic_port_kick(nic);
}

void nic_send_control(struct uet_nic *nic, struct rte_mbuf *m,
		      uint32_t wire_bytes, enum nic_frame_kind kind,
		      uint32_t tag, const struct uet_monitor_row *mon)
{
	struct nic_txq_item it = {0};

	it.m = m;
	it.wire_bytes = wire_bytes;
	it.kind = (uint8_t)kind;
	if (mon != NULL)
		it.mon = *mon;
	it.psn = tag; /* a probe's slot */
	it.mon.wire_bytes = wire_bytes;
	if (nic_txq_push(&nic->txq[NIC_TC_CONTROL], &it) < 0) {
		rte_pktmbuf_free(m);
		nic->st.mbuf_failures++;
		return;
	}
	nic_port_kick(nic);
}

void nic_txqs_fini(struct uet_nic *nic)
{
	struct nic_txq_item it;
	int tc;

	if (nic->port_busy) {
		rte_pktmbuf_free(nic->on_port.m);
		nic->port_busy = false;
	}
	for (tc = 0; tc < NIC_TC_COUNT; tc++) {
		while (txq_pop(&nic->txq[tc], &it))
			rte_pktmbuf_free(it.m);
		free(nic->txq[tc].items);
		nic->txq[tc].items = NULL;
	}
	while (txq_pop(&nic->pfc_txq, &it))
		rte_pktmbuf_free(it.m);
	free(nic->pfc_txq.items);
	nic->pfc_txq.items = NULL;
}
