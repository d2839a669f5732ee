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
	/* A power of two, so that an index wraps with a mask. */
	if (cap == 0 || (cap & (cap - 1)) != 0)
		return -EINVAL;
	f->slots = calloc(cap, sizeof(*f->slots));
	if (f->slots == NULL)
		return -ENOMEM;
	f->head = 0;
	f->len = 0;
	f->cap = cap;
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

/* Double the ring, unwrapping the entries to the start of the new one. */
static int fabric_fifo_grow(struct fabric_fifo *f)
{
	struct fabric_entry *slots;
	uint32_t first;

	if (f->cap > UINT32_MAX / 2)
		return -ENOMEM;
	slots = calloc((size_t)f->cap * 2, sizeof(*slots));
	if (slots == NULL)
		return -ENOMEM;
	/* Entries from head to the end of the array, then the wrapped ones. */
	first = f->cap - f->head;
	if (first > f->len)
		first = f->len;
	memcpy(slots, &f->slots[f->head], first * sizeof(*slots));
	memcpy(&slots[first], f->slots, (f->len - first) * sizeof(*slots));
	free(f->slots);
	f->slots = slots;
	f->head = 0;
	f->cap *= 2;
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
