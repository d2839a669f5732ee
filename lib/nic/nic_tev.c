/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The NIC's pool of per-packet events (fetch completions, retransmission
 * timers, arrivals, held ACKs, ingress releases): chunks with stable
 * addresses and a free list, so the per-packet path never allocates once
 * the pool has grown to the run's high-water mark.
 */
#include <errno.h>
#include <stdlib.h>

#include "nic_private.h"

static int tev_grow(struct uet_nic *nic)
{
	struct nic_tev_chunk *c = calloc(1, sizeof(*c));
	uint32_t i;

	if (c == NULL) {
		/* Counted: whoever wanted the event says what is lost. */
		nic->st.event_failures++;
		return -1;
	}
	c->next = nic->tev_chunks;
	nic->tev_chunks = c;
	for (i = 0; i < NIC_TEV_CHUNK; i++) {
		c->tev[i].nic = nic;
		c->tev[i].next_free = nic->tev_free;
		nic->tev_free = &c->tev[i];
	}
	return 0;
}

int nic_tev_reserve(struct uet_nic *nic)
{
	return nic->tev_free != NULL || tev_grow(nic) == 0 ? 0 : -ENOMEM;
}

struct nic_tev *nic_tev_get(struct uet_nic *nic, enum nic_tev_kind kind,
			    uet_event_fn fn)
{
	struct nic_tev *t;

	if (nic->tev_free == NULL && tev_grow(nic) < 0)
		return NULL;
	t = nic->tev_free;
	nic->tev_free = t->next_free;
	t->next_free = NULL;
	t->kind = (uint8_t)kind;
	t->in_use = true;
	t->m = NULL;
	t->ack.m = NULL;
	uet_event_init(&t->ev, fn, t);
	return t;
}

void nic_tev_put(struct nic_tev *t)
{
	struct uet_nic *nic = t->nic;

	t->in_use = false;
	t->m = NULL;
	t->next_free = nic->tev_free;
	nic->tev_free = t;
}

/* The frames an event still holds at teardown: an arrival's, and an ACK
 * waiting out its hold (an ACK_HOLD event keeps its frame in ack.m). */
static void tev_free_frames(struct nic_tev *t)
{
	if (!t->in_use)
		return;
	rte_pktmbuf_free(t->m);
	if (t->kind == NIC_TEV_ACK_HOLD)
		rte_pktmbuf_free(t->ack.m);
}

void nic_tev_pool_fini(struct uet_nic *nic)
{
	struct nic_tev_chunk *c, *next;
	uint32_t i;

	for (c = nic->tev_chunks; c != NULL; c = next) {
		next = c->next;
		for (i = 0; i < NIC_TEV_CHUNK; i++)
			tev_free_frames(&c->tev[i]);
		free(c);
	}
	nic->tev_chunks = NULL;
	nic->tev_free = NULL;
}
