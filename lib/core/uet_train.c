/* SPDX-License-Identifier: BSD-3-Clause */
/* A train of timed items in push order, one event for the oldest. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_train.h"

/* Entries the ring starts with; it doubles when full. */
#define TRAIN_MIN_CAP 64u

/* Copy an item of n bytes in 8-byte words (a train's entries have room
 * for the last partial one): a few moves, where memcpy of a size the
 * compiler cannot see is a call, 1.5% of a 1,024-host run. */
static inline void item_copy(void *dst, const void *src, uint32_t n)
{
	uint32_t w;

	for (w = 0; w + 8 <= n; w += 8)
		memcpy((uint8_t *)dst + w, (const uint8_t *)src + w, 8);
	if (w < n)
		memcpy((uint8_t *)dst + w, (const uint8_t *)src + w, n - w);
}

/* An entry: the due time and the insertion number, then the item. */
struct train_key {
	uet_time_t time_ps;
	uint64_t seq;
};

static inline struct train_key *train_key_at(const struct uet_train *t,
					     uint32_t i)
{
	return (struct train_key *)(void *)(t->ring + (size_t)((t->head + i) &
							       (t->cap - 1)) *
							      t->stride);
}

/* Double the ring, the oldest entry first again. */
static int train_grow(struct uet_train *t)
{
	uint32_t cap = t->cap == 0 ? TRAIN_MIN_CAP : 2 * t->cap;
	uint8_t *ring;
	uint32_t first;

	if (cap < t->cap)
		return -ENOMEM;
	ring = malloc((size_t)cap * t->stride);
	if (ring == NULL)
		return -ENOMEM;
	if (t->len > 0) {
		first = t->cap - t->head;
		if (first > t->len)
			first = t->len;
		memcpy(ring, t->ring + (size_t)t->head * t->stride,
		       (size_t)first * t->stride);
		memcpy(ring + (size_t)first * t->stride, t->ring,
		       (size_t)(t->len - first) * t->stride);
	}
	free(t->ring);
	t->ring = ring;
	t->cap = cap;
	t->head = 0;
	return 0;
}

/* Words a ghost's time takes after the one before: a delta, or the
 * escape and the time itself. */
#define GHOST_ESCAPE UINT32_MAX
#define GHOST_FIRST_WORDS 64u

static inline uint32_t ghost_word(const struct uet_train *t, uint32_t i)
{
	return t->ghosts[(t->ghost_head + i) & (t->ghost_cap - 1)];
}

/* Words of the ghost starting i words past the oldest. */
static inline uint32_t ghost_size(const struct uet_train *t, uint32_t i)
{
	return ghost_word(t, i) == GHOST_ESCAPE ? 3u : 1u;
}

/* Time of the ghost i words past the oldest, given the one before's. */
static inline uet_time_t ghost_time(const struct uet_train *t, uint32_t i,
				    uet_time_t before_ps)
{
	uint32_t w = ghost_word(t, i);

	if (w != GHOST_ESCAPE)
		return before_ps + w;
	return (uet_time_t)ghost_word(t, i + 1) << 32 | ghost_word(t, i + 2);
}

static int ghost_room(struct uet_train *t, uint32_t words)
{
	uint32_t cap = t->ghost_cap, i;
	uint32_t *g;

	if (t->ghost_words + words <= cap)
		return 0;
	cap = cap != 0 ? 2 * cap : GHOST_FIRST_WORDS;
	if (cap < t->ghost_cap)
		return -ENOMEM;
	g = malloc((size_t)cap * sizeof(*g));
	if (g == NULL)
		return -ENOMEM;
	for (i = 0; i < t->ghost_words; i++)
		g[i] = ghost_word(t, i);
	free(t->ghosts);
	t->ghosts = g;
	t->ghost_cap = cap;
	t->ghost_head = 0;
	return 0;
}

static void ghost_put(struct uet_train *t, uint32_t w)
{
	t->ghosts[(t->ghost_head + t->ghost_words++) & (t->ghost_cap - 1)] = w;
}

/* An item becomes the newest ghost (its time only). */
static int ghost_push(struct uet_train *t, uet_time_t time_ps)
{
	uet_time_t delta = time_ps - t->ghost_tail_ps;
	bool escape = t->ghost_len > 0 && delta >= GHOST_ESCAPE;

	if (ghost_room(t, escape ? 3u : 1u) < 0)
		return -ENOMEM;
	if (t->ghost_len == 0) {
		/* The oldest: its time is ghost_head_ps. */
		t->ghost_head_ps = time_ps;
		ghost_put(t, 0);
	} else if (!escape) {
		ghost_put(t, (uint32_t)delta);
	} else {
		ghost_put(t, GHOST_ESCAPE);
		ghost_put(t, (uint32_t)(time_ps >> 32));
		ghost_put(t, (uint32_t)time_ps);
	}
	t->ghost_tail_ps = time_ps;
	t->ghost_len++;
	return 0;
}

/*
 * The train's event does not move when the oldest item becomes a ghost:
 * it stays at the time and number of the oldest of ghosts and items,
 * which that item was if it was the oldest.
 */
uint32_t uet_train_drop_front(struct uet_train *t, uet_train_dead_fn dead,
			      void *arg)
{
	uint32_t n = 0;

	while (t->len > 0 && dead(uet_train_item(t, 0), arg)) {
		if (ghost_push(t, train_key_at(t, 0)->time_ps) < 0)
			break;
		t->head = (t->head + 1) & (t->cap - 1);
		if (--t->len == 0)
			t->head = 0;
		n++;
	}
	return n;
}

/*
 * The oldest ghost is due: let go of it, wait for the next (a ghost, at
 * number 0: a ghost does nothing, so where it runs among the events of
 * its time changes nothing; or the oldest item, at its own number), and
 * tell the handler.
 */
static void ghost_due(struct uet_evq *q, struct uet_train *t)
{
	uint32_t size = ghost_size(t, 0);

	t->ghost_head = (t->ghost_head + size) & (t->ghost_cap - 1);
	t->ghost_words -= size;
	if (--t->ghost_len > 0) {
		t->ghost_head_ps = ghost_time(t, 0, t->ghost_head_ps);
		(void)uet_evq_schedule_seq(q, &t->ev, t->ghost_head_ps, 0);
	} else {
		t->ghost_head = 0;
		if (t->len > 0) {
			const struct train_key *k = train_key_at(t, 0);

			(void)uet_evq_schedule_seq(q, &t->ev, k->time_ps,
						   k->seq);
		}
	}
	t->fn(q, NULL, t->arg);
}

/* The oldest item is due: let go of it, wait for the next, run it. */
static void train_due(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct uet_train *t = arg;
	uint64_t item[UET_TRAIN_ITEM_MAX / sizeof(uint64_t)];

	(void)ev;
	if (t->ghost_len > 0) {
		ghost_due(q, t);
		return;
	}
	item_copy(item, uet_train_item(t, 0), t->item_bytes);
	t->head = (t->head + 1) & (t->cap - 1);
	/* Emptied: the next item takes slot 0 again, whose line is
	 * likely still cached, rather than marching through the ring. */
	if (--t->len == 0) {
		t->head = 0;
	} else {
		const struct train_key *k = train_key_at(t, 0);

		/* Cannot fail: the slot the event just left is free, and
		 * the next item is not earlier than this one. */
		(void)uet_evq_schedule_seq(q, &t->ev, k->time_ps, k->seq);
	}
	t->fn(q, item, t->arg);
}

int uet_train_init(struct uet_train *t, struct uet_evq *q, uint32_t item_bytes,
		   uet_train_fn fn, void *arg)
{
	if (t == NULL || q == NULL || fn == NULL || item_bytes == 0 ||
	    item_bytes > UET_TRAIN_ITEM_MAX)
		return -EINVAL;
	*t = (struct uet_train){
		.q = q,
		.stride = (uint32_t)sizeof(struct train_key) +
			  ((item_bytes + 7u) & ~7u),
		.item_bytes = item_bytes,
		.fn = fn,
		.arg = arg,
	};
	uet_event_init(&t->ev, train_due, t);
	return 0;
}

void uet_train_fini(struct uet_train *t)
{
	if (t == NULL || t->q == NULL)
		return;
	if (uet_event_pending(&t->ev))
		(void)uet_evq_cancel(t->q, &t->ev);
	free(t->ring);
	free(t->ghosts);
	t->ring = NULL;
	t->ghosts = NULL;
	t->cap = t->head = t->len = 0;
	t->ghost_cap = t->ghost_head = t->ghost_words = t->ghost_len = 0;
}

int uet_train_reserve(struct uet_train *t)
{
	return t->len < t->cap ? 0 : train_grow(t);
}

int uet_train_push(struct uet_train *t, uet_time_t time_ps, const void *item)
{
	struct train_key *k;
	int rc;

	if (time_ps < uet_evq_now(t->q) || time_ps == UET_TIME_NEVER)
		return -EINVAL;
	if (!uet_train_accepts(t, time_ps))
		return -ERANGE;
	if (t->len == t->cap && (rc = train_grow(t)) < 0)
		return rc;
	k = train_key_at(t, t->len);
	k->time_ps = time_ps;
	k->seq = uet_evq_take_seq(t->q);
	item_copy((uint8_t *)k + sizeof(*k), item, t->item_bytes);
	/* A number taken by a push that then fails leaves a gap in the
	 * queue's count, which orders nothing differently. Ghosts waiting
	 * have the event already. */
	if (t->len == 0 && t->ghost_len == 0 &&
	    (rc = uet_evq_schedule_seq(t->q, &t->ev, time_ps, k->seq)) < 0)
		return rc;
	t->len++;
	t->last_ps = time_ps;
	return 0;
}
