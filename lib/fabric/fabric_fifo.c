/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric's frame FIFO: a ring of entries that doubles when full, so a
 * port's arrivals and output queue cost no allocation per frame.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "fabric_private.h"

int fabric_fifo_init(struct fabric_fifo *f, uint32_t cap)
{
	/* A power of two, so that an index wraps with a mask; 0 for a ring
	 * that takes its first slots at its first push. */
	f->slots = NULL;
	f->head = 0;
	f->len = 0;
	f->cap = 0;
	if ((cap & (cap - 1)) != 0)
		return -EINVAL;
	if (cap == 0)
		return 0;
	f->cap = cap;
	f->slots = calloc(cap, sizeof(*f->slots));
	if (f->slots == NULL) {
		f->cap = 0;
		return -ENOMEM;
	}
	return 0;
}

void fabric_fifo_fini(struct fabric_fifo *f)
{
	struct fabric_entry e;

	if (f->slots == NULL)
		return;
	while (!fabric_fifo_empty(f)) {
		fabric_fifo_pop(f, &e);
		rte_pktmbuf_free(e.m);
	}
	free(f->slots);
	f->slots = NULL;
	f->cap = 0;
}

/* Double the ring, unwrapping the entries to the start of the new one;
 * a ring never used takes its first slots. */
static int fabric_fifo_grow(struct fabric_fifo *f)
{
	const uint32_t cap = f->cap != 0 ? f->cap * 2 : FABRIC_FIFO_FIRST_SLOTS;
	struct fabric_entry *slots;
	uint32_t first;

	if (f->cap > UINT32_MAX / 2)
		return -ENOMEM;
	slots = calloc(cap, sizeof(*slots));
	if (slots == NULL)
		return -ENOMEM;
	if (f->slots != NULL) {
		/* Entries from head to the end of the array, then the
		 * wrapped ones. */
		first = f->cap - f->head;
		if (first > f->len)
			first = f->len;
		memcpy(slots, &f->slots[f->head], first * sizeof(*slots));
		memcpy(&slots[first], f->slots,
		       (f->len - first) * sizeof(*slots));
		free(f->slots);
	}
	f->slots = slots;
	f->head = 0;
	f->cap = cap;
	return 0;
}

int fabric_fifo_grow_push(struct fabric_fifo *f, const struct fabric_entry *e)
{
	const int ret = fabric_fifo_grow(f);

	if (ret < 0)
		return ret;
	f->slots[(f->head + f->len) & (f->cap - 1)] = *e;
	f->len++;
	return 0;
}
