/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Retransmission timers (data-path page, "Retransmission"): every data
 * packet sent arms one, none is ever cancelled; when a timer fires,
 * lib/pds's transmit-count guard says whether it still matters.
 *
 * A first transmission's timer expires a fixed time after the send, and
 * sends happen in time order, so those timers expire in the order they
 * were armed: they wait in a train (lib/core/uet_train.h), one queue
 * event for the oldest, instead of one pooled event and one heap slot
 * each (a NIC with a full window kept some 500 timers in its heap, 92 KB
 * of events per NIC). The train keeps each timer's place among same-time
 * events, so records are unchanged. A retransmission's timer is backed
 * off, so it would expire after later first transmissions' timers; it
 * takes a pooled event as before. docs/performance.md, "The
 * retransmission timer train", has the measurements.
 */
#include <errno.h>

#include "nic_private.h"

/* A timer in the train is due. A ghost is one that left early: it was
 * going to be ignored. */
static void train_fire(struct uet_evq *q, void *item, void *arg)
{
	const struct nic_rto_entry *e = item;
	struct uet_nic *nic = arg;

	(void)q;
	if (e == NULL) {
		nic->st.rto_ignored++;
		return;
	}
	nic_rto_fire(nic, e->pdc, e->pdc_gen, e->psn, e->count);
}

/* Whether a timer will do nothing when it fires: its PDC has closed, or
 * its packet is no longer in flight on the transmission it guards
 * (acknowledged, or queued or sent again). Nothing brings it back. */
static bool rto_dead(const void *item, void *arg)
{
	const struct nic_rto_entry *e = item;
	struct nic_pdc *pdc = nic_pdc_lookup_gen(arg, e->pdc, e->pdc_gen);
	const struct uet_pds_tx_packet *pkt =
		pdc != NULL ? uet_pds_tx_packet(&pdc->tx, e->psn) : NULL;

	return pkt == NULL || pkt->state != UET_PDS_TX_IN_FLIGHT ||
	       pkt->transmit_count != e->count;
}

/*
 * An ACK has come: the oldest timers whose packets it (or an earlier one)
 * acknowledged leave the train as ghosts, 4 bytes each instead of 32, so
 * that the train holds about what is in flight rather than every packet
 * sent in the last timeout (at 8,192 hosts, a timeout of 367 us held a
 * whole 2 MB message's 512 timers per NIC). Each still fires, as nothing,
 * at its time.
 */
void nic_rto_acked(struct uet_nic *nic)
{
	if (uet_train_len(&nic->rto) > 0)
		(void)uet_train_drop_front(&nic->rto, rto_dead, nic);
}

/* A timer outside the train, in a pooled event. */
static void tev_fire(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct nic_tev *t = arg;
	struct uet_nic *nic = t->nic;
	uint32_t psn = t->psn, count = t->count, gen = t->pdc_gen;
	uint16_t pdc = t->pdc;

	(void)q;
	(void)ev;
	nic_tev_put(t);
	nic_rto_fire(nic, pdc, gen, psn, count);
}

static int rto_start_pooled(struct uet_nic *nic, const struct nic_pdc *pdc,
			    uint32_t psn, uint32_t count, uet_time_t expiry_ps)
{
	struct nic_tev *t = nic_tev_get(nic, NIC_TEV_RTO, tev_fire);

	if (t == NULL)
		return -ENOMEM;
	t->pdc = pdc->id;
	t->pdc_gen = pdc->gen;
	t->psn = psn;
	t->count = count;
	uet_evq_schedule(&nic->comp.evq, &t->ev, expiry_ps);
	return 0;
}

int nic_rto_start(struct uet_nic *nic, struct nic_pdc *pdc, uint32_t psn,
		  uint32_t transmit_count, uet_time_t sent_ps)
{
	uet_time_t expiry_ps =
		sent_ps +
		uet_pds_rto_ps(&nic->p.pds,
			       NIC_FAULT(nic, UET_NIC_FAULT_NO_BACKOFF)
				       ? 1
				       : transmit_count);
	const struct nic_rto_entry e = {
		.psn = psn,
		.count = transmit_count,
		.pdc_gen = pdc->gen,
		.pdc = pdc->id,
	};

	if (transmit_count == 1 && uet_train_accepts(&nic->rto, expiry_ps) &&
	    uet_train_push(&nic->rto, expiry_ps, &e) == 0)
		return 0;
	/* A retransmission's, one out of the train's order, or one the
	 * train had no room for. */
	return rto_start_pooled(nic, pdc, psn, transmit_count, expiry_ps);
}

int nic_rto_init(struct uet_nic *nic)
{
	return uet_train_init(&nic->rto, &nic->comp.evq,
			      sizeof(struct nic_rto_entry), train_fire, nic);
}

void nic_rto_fini(struct uet_nic *nic)
{
	uet_train_fini(&nic->rto);
}
