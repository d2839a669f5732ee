/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The egress queues and the network port (the page's "Packets on the
 * wire", step 5): one FIFO per traffic class, control (class 1) served
 * before data (class 0), frames serialized back to back at the link's rate
 * with no interframe gap. When serialization ends the frame leaves with
 * its arrival time at the rack switch and the port tells its sent hook
 * (the transmit side: a data packet's reservation, its timer; a probe's
 * send time). The port knows nothing of PDCs, timers or completions.
 */
#include <errno.h>
#include <stdlib.h>

#include "nic_private.h"

static int txq_push(struct nic_txq *q, const struct nic_txq_item *item,
		    bool with_row)
{
	uint32_t i, slot;

	if (q->count == q->cap) {
		uint32_t cap = q->cap ? q->cap * 2 : NIC_TXQ_FIRST;
		struct nic_txq_slot *t = malloc(cap * sizeof(*t));
		struct uet_monitor_row *r =
			with_row ? malloc(cap * sizeof(*r)) : NULL;

		if (t == NULL || (with_row && r == NULL)) {
			free(t);
			free(r);
			return -ENOMEM;
		}
		for (i = 0; i < q->count; i++) {
			t[i] = q->items[(q->head + i) & (q->cap - 1)];
			if (with_row)
				r[i] = q->mons[(q->head + i) & (q->cap - 1)];
		}
		free(q->items);
		free(q->mons);
		q->items = t;
		q->mons = r;
		q->cap = cap;
		q->head = 0;
	}
	slot = (q->head + q->count) & (q->cap - 1);
	q->items[slot] = (struct nic_txq_slot){
		.m = item->m,
		.wire_bytes = item->wire_bytes,
		.psn = item->psn,
		.pdc_gen = item->pdc_gen,
		.pdc = item->pdc,
		.kind = item->kind,
	};
	if (with_row)
		q->mons[slot] = item->mon;
	q->count++;
	return 0;
}

static bool txq_pop(struct nic_txq *q, struct nic_txq_item *item)
{
	const struct nic_txq_slot *s;

	if (q->count == 0)
		return false;
	s = &q->items[q->head];
	item->m = s->m;
	item->wire_bytes = s->wire_bytes;
	item->psn = s->psn;
	item->pdc_gen = s->pdc_gen;
	item->pdc = s->pdc;
	item->kind = s->kind;
	if (q->mons != NULL)
		item->mon = q->mons[q->head];
	q->head = (q->head + 1) & (q->cap - 1);
	/* Emptied: start again at slot 0, a line still in the cache. */
	if (--q->count == 0)
		q->head = 0;
	return true;
}

/* The head of q, if the switch has not paused its class. */
static bool txq_pop_unpaused(const struct uet_nic *nic, struct nic_txq *q,
			     struct nic_txq_item *item)
{
	if (q->count == 0 || !nic_pfc_may_send(nic, q->items[q->head].m))
		return false;
	return txq_pop(q, item);
}

void nic_port_kick(struct uet_nic *nic)
{
	struct nic_port *port = &nic->port;
	struct nic_txq_item *it = &port->on_port;
	uet_time_t end_ps;

	if (port->busy)
		return;
	/* The NIC's own pause frames first, never paused. Then control
	 * before data: an ACK never waits behind a window of data, which
	 * would inflate the peer's RTT samples. A queue whose head's class
	 * the switch paused waits (PFC). */
	if (!txq_pop(&port->pfc_txq, it) &&
	    !txq_pop_unpaused(nic, &port->txq[NIC_TC_CONTROL], it) &&
	    !txq_pop_unpaused(nic, &port->txq[NIC_TC_DATA], it))
		return;
	port->busy = true;
	end_ps = nic_now(nic) +
		 uet_serialization_ps(it->wire_bytes, nic->p.port_rate_bps);
	uet_evq_schedule(&nic->comp.evq, &port->ev, end_ps);
}

/* Serialization has ended: the frame leaves, due at the rack switch a
 * Delay later, and the sent hook is told. */
static void port_end(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct uet_nic *nic = arg;
	struct nic_port *port = &nic->port;
	struct nic_txq_item it = port->on_port;
	uet_time_t now = nic_now(nic);

	(void)q;
	(void)ev;
	port->busy = false;
	it.mon.time_ps = now;
	it.mon.tx = true;
	if (it.kind != NIC_FRAME_PFC)
		nic_record_monitor(nic, &it.mon);
	if (uet_component_out(&nic->comp, 0, it.m, now + nic->p.delay_ps) < 0)
		nic->st.mbuf_failures++;
	port->sent(nic, &it);
	nic_port_kick(nic);
}

void nic_port_init(struct uet_nic *nic, nic_port_sent_fn sent)
{
	uet_event_init(&nic->port.ev, port_end, nic);
	nic->port.sent = sent;
}

int nic_port_queue(struct uet_nic *nic, int tc, const struct nic_txq_item *it)
{
	int rc = txq_push(&nic->port.txq[tc], it, nic->monitor_on);

	if (rc == 0)
		nic_port_kick(nic);
	return rc;
}

int nic_port_queue_pause(struct uet_nic *nic, const struct nic_txq_item *it)
{
	int rc = txq_push(&nic->port.pfc_txq, it, nic->monitor_on);

	if (rc == 0)
		nic_port_kick(nic);
	return rc;
}

bool nic_port_idle(const struct uet_nic *nic)
{
	const struct nic_port *port = &nic->port;

	return !port->busy && port->txq[NIC_TC_DATA].count == 0 &&
	       port->txq[NIC_TC_CONTROL].count == 0 && port->pfc_txq.count == 0;
}

void nic_port_send_ctrl(struct uet_nic *nic, const struct nic_txq_item *it)
{
	if (nic_port_queue(nic, NIC_TC_CONTROL, it) < 0) {
		rte_pktmbuf_free(it->m);
		nic->st.mbuf_failures++;
	}
}

static void txq_fini(struct nic_txq *q)
{
	struct nic_txq_item it;

	while (txq_pop(q, &it))
		rte_pktmbuf_free(it.m);
	free(q->items);
	free(q->mons);
	q->items = NULL;
	q->mons = NULL;
}

void nic_port_fini(struct uet_nic *nic)
{
	struct nic_port *port = &nic->port;
	int tc;

	if (port->busy) {
		rte_pktmbuf_free(port->on_port.m);
		port->busy = false;
	}
	for (tc = 0; tc < NIC_TC_COUNT; tc++)
		txq_fini(&port->txq[tc]);
	txq_fini(&port->pfc_txq);
}
