/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Retransmission timers (data-path page, "Retransmission"): every data
 * packet sent arms one, none is ever cancelled; when a timer fires,
 * lib/pds's transmit-count guard says whether it still matters.
 *
 * A first transmission's timer expires a fixed time after the send, and
 * sends happen in time order, so those timers expire in the order they
 * were armed. They wait in a ring, the train, with one queue event for
 * the head, instead of one pooled event and one heap slot each: a NIC
 * with a full window kept some 500 timers in its heap, 92 KB of events
 * per NIC that every heap operation walked through. Each timer keeps the
 * insertion number it took when armed (uet_evq_take_seq), so the queue
 * runs it exactly where a timer of its own would have run: records are
 * unchanged. A retransmission's timer is backed off, so it would expire
 * after later first transmissions' timers; it takes a pooled event as
 * before. docs/performance.md, "The retransmission timer train", has the
 * measurements.
 */
#include <stdlib.h>
#include <string.h>

#include "nic_private.h"

/* Entries the ring starts with; it doubles when full. */
#define RTO_TRAIN_MIN_CAP 64u

static inline struct nic_rto_entry *train_at(struct nic_rto_train *tr,
					     uint32_t i)
{
	return &tr->ring[(tr->head + i) & (tr->cap - 1)];
}

/* Double the ring, the oldest entry first again. */
static int train_grow(struct nic_rto_train *tr)
{
	uint32_t cap = tr->cap == 0 ? RTO_TRAIN_MIN_CAP : 2 * tr->cap;
	struct nic_rto_entry *ring;
	uint32_t first;

	if (cap < tr->cap)
		return -1;
	ring = malloc((size_t)cap * sizeof(*ring));
	if (ring == NULL)
		return -1;
	if (tr->len > 0) {
		first = tr->cap - tr->head;
		if (first > tr->len)
			first = tr->len;
		memcpy(ring, &tr->ring[tr->head], first * sizeof(*ring));
		memcpy(ring + first, tr->ring,
		       (tr->len - first) * sizeof(*ring));
	}
	free(tr->ring);
	tr->ring = ring;
	tr->cap = cap;
	tr->head = 0;
	return 0;
}

/* The head's event: fire the oldest timer, and wait for the next. */
static void train_fire(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct uet_nic *nic = arg;
	struct nic_rto_train *tr = &nic->rto;
	struct nic_rto_entry e = *train_at(tr, 0);

	(void)ev;
	tr->head = (tr->head + 1) & (tr->cap - 1);
	tr->len--;
	/* Schedule the next head first: the timer that fires may arm
	 * another (a retransmission goes out in the same event). */
	if (tr->len > 0) {
		const struct nic_rto_entry *n = train_at(tr, 0);

		if (uet_evq_schedule_seq(q, &tr->ev, n->expiry_ps, n->seq) < 0) {
			/* Cannot happen (the head's slot was just freed);
			 * say so rather than lose the timers quietly. */
			nic->st.mbuf_failures += tr->len;
			tr->len = 0;
		}
	}
	nic_rto_fire(nic, e.pdc, e.pdc_gen, e.psn, e.count);
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

static void rto_start_pooled(struct uet_nic *nic, const struct nic_pdc *pdc,
			     uint32_t psn, uint32_t count,
			     uet_time_t expiry_ps)
{
	struct nic_tev *t = nic_tev_get(nic, NIC_TEV_RTO, tev_fire);

	if (t == NULL) {
		nic->st.mbuf_failures++;
		return;
	}
	t->pdc = pdc->id;
	t->pdc_gen = pdc->gen;
	t->psn = psn;
	t->count = count;
	uet_evq_schedule(&nic->comp.evq, &t->ev, expiry_ps);
}

void nic_rto_start(struct uet_nic *nic, struct nic_pdc *pdc, uint32_t psn,
		   uint32_t transmit_count, uet_time_t sent_ps)
{
	struct nic_rto_train *tr = &nic->rto;
	uet_time_t expiry_ps =
		sent_ps + uet_pds_rto_ps(&nic->p.pds, transmit_count);
	struct nic_rto_entry *e;

	if (transmit_count > 1 ||
	    (tr->len > 0 && expiry_ps < train_at(tr, tr->len - 1)->expiry_ps)) {
		rto_start_pooled(nic, pdc, psn, transmit_count, expiry_ps);
		return;
	}
	if (tr->len == tr->cap && train_grow(tr) < 0) {
		nic->st.mbuf_failures++;
		return;
	}
	e = train_at(tr, tr->len);
	*e = (struct nic_rto_entry){
		.expiry_ps = expiry_ps,
		.seq = uet_evq_take_seq(&nic->comp.evq),
		.psn = psn,
		.count = transmit_count,
		.pdc_gen = pdc->gen,
		.pdc = pdc->id,
	};
	tr->len++;
	if (tr->len == 1 && uet_evq_schedule_seq(&nic->comp.evq, &tr->ev,
						 expiry_ps, e->seq) < 0) {
		tr->len = 0;
		nic->st.mbuf_failures++;
	}
}

void nic_rto_init(struct uet_nic *nic)
{
	nic->rto = (struct nic_rto_train){0};
	uet_event_init(&nic->rto.ev, train_fire, nic);
}

void nic_rto_fini(struct uet_nic *nic)
{
	free(nic->rto.ring);
	nic->rto = (struct nic_rto_train){0};
}
