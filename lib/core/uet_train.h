/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A train: timed items that come due in the order they were pushed (the
 * frames arriving over one link, a NIC's first transmissions' timers),
 * kept in a ring with one queue event for the oldest. It costs one heap
 * slot, not one per item, and no event object per item. Each item keeps
 * the insertion number the queue handed out when it was pushed
 * (uet_evq_take_seq), so among same-time events it runs exactly where an
 * event of its own, scheduled at the push, would have run: switching a
 * stream of events to a train changes no result.
 */
#ifndef UET_TRAIN_H
#define UET_TRAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_event.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Largest item a train carries, bytes. */
#define UET_TRAIN_ITEM_MAX 48u

struct uet_train;

/**
 * Handler of an item come due. The train has already let go of it (the
 * handler may push more items).
 *
 * @param q
 *   The queue; uet_evq_now(q) is the item's time.
 * @param item
 *   A copy of the item, valid during the call.
 * @param arg
 *   The argument given to uet_train_init().
 */
typedef void (*uet_train_fn)(struct uet_evq *q, void *item, void *arg);

/** A train. Initialise with uet_train_init(). */
struct uet_train {
	struct uet_event ev; /**< the oldest item's time, while any */
	struct uet_evq *q;   /**< the queue it runs in */
	uint8_t *ring;	     /**< cap entries of stride bytes */
	uint32_t cap;	     /**< entries allocated, a power of two */
	uint32_t head;	     /**< the oldest */
	uint32_t len;	     /**< items waiting */
	uint32_t stride;     /**< bytes per entry: time, number, item */
	uint32_t item_bytes; /**< bytes per item */
	uet_train_fn fn;     /**< the handler */
	void *arg;	     /**< its argument */
};

/**
 * Initialise an empty train (it allocates at the first push).
 *
 * @param t
 *   The train.
 * @param q
 *   The queue its items run in.
 * @param item_bytes
 *   Size of an item, 1..UET_TRAIN_ITEM_MAX.
 * @param fn
 *   Handler of an item come due.
 * @param arg
 *   Its argument.
 * @return
 *   0, or -EINVAL.
 */
int uet_train_init(struct uet_train *t, struct uet_evq *q, uint32_t item_bytes,
		   uet_train_fn fn, void *arg);

/**
 * Free the train's memory; the items left never run (see
 * uet_train_item() to release what they hold first). Cancels its event.
 *
 * @param t
 *   The train.
 */
void uet_train_fini(struct uet_train *t);

/**
 * Whether an item due at time_ps may join the train: not before the
 * newest item's time.
 *
 * @param t
 *   The train.
 * @param time_ps
 *   ps.
 * @return
 *   true if uet_train_push() would keep the order.
 */
static inline bool uet_train_accepts(const struct uet_train *t,
				     uet_time_t time_ps);

/**
 * Add an item due at time_ps, after the others.
 *
 * @param t
 *   The train.
 * @param time_ps
 *   ps, at least uet_evq_now() and the newest item's time.
 * @param item
 *   item_bytes bytes, copied.
 * @return
 *   0; -ERANGE if time_ps is before the newest item's; -EINVAL if it is
 *   in the past or UET_TIME_NEVER; -ENOMEM. On error nothing changed.
 */
int uet_train_push(struct uet_train *t, uet_time_t time_ps, const void *item);

/**
 * Items waiting.
 *
 * @param t
 *   The train.
 * @return
 *   The count.
 */
static inline uint32_t uet_train_len(const struct uet_train *t)
{
	return t->len;
}

/**
 * The i-th oldest item waiting, for its owner to look at (or release what
 * it holds at teardown).
 *
 * @param t
 *   The train.
 * @param i
 *   0..uet_train_len() - 1.
 * @return
 *   The item in the ring.
 */
static inline void *uet_train_item(const struct uet_train *t, uint32_t i)
{
	return t->ring + (size_t)((t->head + i) & (t->cap - 1)) * t->stride +
	       2 * sizeof(uint64_t);
}

static inline bool uet_train_accepts(const struct uet_train *t,
				     uet_time_t time_ps)
{
	const uint8_t *tail;

	if (t->len == 0)
		return true;
	tail = t->ring +
	       (size_t)((t->head + t->len - 1) & (t->cap - 1)) * t->stride;
	return time_ps >= *(const uet_time_t *)(const void *)tail;
}

#ifdef __cplusplus
}
#endif

#endif /* UET_TRAIN_H */
