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
 *
 * An item its owner knows will do nothing when it comes due (a timer of
 * a packet already acknowledged) may leave early (uet_train_drop_front):
 * its place is kept as a ghost, its time alone in 4 bytes, and at that
 * time the handler is called with no item. The queue runs as many events
 * at the same times as before, so a run's windows and event counts do not
 * change; only the memory does, from every item armed in the last timeout
 * to those that still matter.
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
 *   A copy of the item, valid during the call; NULL for a ghost (an item
 *   uet_train_drop_front() let go of early).
 * @param arg
 *   The argument given to uet_train_init().
 */
typedef void (*uet_train_fn)(struct uet_evq *q, void *item, void *arg);

/**
 * Whether an item will do nothing when it comes due (see
 * uet_train_drop_front()).
 *
 * @param item
 *   The item, in the ring.
 * @param arg
 *   The caller's argument.
 */
typedef bool (*uet_train_dead_fn)(const void *item, void *arg);

/** A train. Initialise with uet_train_init(). */
struct uet_train {
	struct uet_event ev; /**< the oldest ghost's or item's time */
	struct uet_evq *q;   /**< the queue it runs in */
	uint8_t *ring;	     /**< cap entries of stride bytes */
	uint32_t cap;	     /**< entries allocated, a power of two */
	uint32_t head;	     /**< the oldest */
	uint32_t len;	     /**< items waiting */
	uint32_t stride;     /**< bytes per entry: time, number, item */
	uint32_t item_bytes; /**< bytes per item */
	uet_time_t last_ps;  /**< ps, the newest item's time */
	/** Ghosts, all due before the items: each word is the ps from the
	 * ghost before (UINT32_MAX: the time follows in two words). */
	uint32_t *ghosts;
	uint32_t ghost_cap;	  /**< words allocated, a power of two */
	uint32_t ghost_head;	  /**< the oldest ghost's word */
	uint32_t ghost_words;	  /**< words in use */
	uint32_t ghost_len;	  /**< ghosts waiting */
	uet_time_t ghost_head_ps; /**< ps, the oldest ghost's time */
	uet_time_t ghost_tail_ps; /**< ps, the newest ghost's time */
	uet_train_fn fn;	  /**< the handler */
	void *arg;		  /**< its argument */
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
 * newest item's time (ghosts included).
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
 * Make room for one more item, so that the next uet_train_push() of an
 * item it accepts cannot fail (a caller that must not fail after it has
 * committed to the item reserves first).
 *
 * @param t
 *   The train.
 * @return
 *   0, or -ENOMEM.
 */
int uet_train_reserve(struct uet_train *t);

/**
 * Let the oldest items go while dead() says they will do nothing when
 * they come due: each leaves a ghost that keeps its time (the handler is
 * called then, with no item). The first item dead() calls alive stays,
 * with every item after it.
 *
 * @param t
 *   The train.
 * @param dead
 *   Asked about each oldest item in turn.
 * @param arg
 *   Its argument.
 * @return
 *   Items let go; fewer than dead() allowed if no memory was left for a
 *   ghost.
 */
uint32_t uet_train_drop_front(struct uet_train *t, uet_train_dead_fn dead,
			      void *arg);

/**
 * Ghosts waiting (items let go early whose time has not come).
 *
 * @param t
 *   The train.
 * @return
 *   The count.
 */
static inline uint32_t uet_train_ghosts(const struct uet_train *t)
{
	return t->ghost_len;
}

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
	return (t->len == 0 && t->ghost_len == 0) || time_ps >= t->last_ps;
}

#ifdef __cplusplus
}
#endif

#endif /* UET_TRAIN_H */
