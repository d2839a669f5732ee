/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Recycled Entropy Packet Spraying (cc-and-multipath 1.6; the data-path
 * page's "Path feedback" and "Freezing and exploration").
 *
 * Normal mode: a cache (a ring of reps_cache_size entries) holds values that
 * came back good. A packet takes, in order: a random value while exploring;
 * else the oldest fresh cached value (each good for reps_usable_lifetime
 * packets); else a random value. An ACK without ECN, or a NACK of an
 * unmarked packet trimmed on the last hop (the receiver was busy, not the
 * path), writes the value at the ring's head; an ECN ACK, a last-hop NACK
 * with M (the NIC reports it as ECN) or a NACK of a packet trimmed on the
 * way leaves it out (discarded).
 *
 * A timeout, when neither frozen nor exploring, freezes the cache for
 * reps_freeze_ps: packets then cycle through every value written to the
 * cache, used or not (they are known-good paths); good values are still
 * recorded. The first feedback at or after the deadline empties the cache
 * and starts exploring with reps_explore_count random values; that feedback
 * is then handled as in normal mode.
 */
#include "lb_private.h"

static void reps_reset_cache(struct uet_lb *lb)
{
	uint32_t i;

	for (i = 0; i < UET_LB_REPS_CACHE_MAX; i++)
		lb->cache[i].valid = false;
	lb->cache_head = 0;
	lb->cache_filled = 0;
	lb->frozen_next = 0;
}

static uint16_t reps_random(struct uet_lb *lb)
{
	lb->n_random++;
	return uet_lb_random_entropy(lb);
}

static uint16_t reps_next_entropy(struct uet_lb *lb, uet_time_t now_ps)
{
	uint32_t size = lb->params.reps_cache_size, i;

	(void)now_ps;
	if (lb->frozen) {
		struct uet_lb_reps_entry *e;

		if (lb->cache_filled == 0)
			return reps_random(lb);
		if (lb->frozen_next >= lb->cache_filled)
			lb->frozen_next = 0;
		e = &lb->cache[lb->frozen_next++];
		lb->n_recycled++;
		return e->value;
	}
	if (lb->explore_left > 0) {
		lb->explore_left--;
		return reps_random(lb);
	}
	/* The oldest entry sits at the head once the ring has wrapped;
	 * before that, the slots from the head on are still empty. */
	for (i = 0; i < size; i++) {
		struct uet_lb_reps_entry *e =
			&lb->cache[(lb->cache_head + i) % size];

		if (!e->valid)
			continue;
		if (--e->uses_left == 0)
			e->valid = false;
		lb->n_recycled++;
		return e->value;
	}
	return reps_random(lb);
}

static void reps_recycle(struct uet_lb *lb, uint16_t entropy)
{
	uint32_t size = lb->params.reps_cache_size;
	struct uet_lb_reps_entry *e = &lb->cache[lb->cache_head];

	e->value = entropy;
	e->uses_left = (uint8_t)lb->params.reps_usable_lifetime;
	e->valid = true;
	lb->cache_head = (lb->cache_head + 1) % size;
	if (lb->cache_filled < size)
		lb->cache_filled++;
}

static void reps_feedback(struct uet_lb *lb, uint16_t entropy,
			  enum uet_lb_feedback what, uet_time_t now_ps)
{
	uint32_t off = (uint32_t)entropy - lb->params.entropy_base;

	if (lb->frozen && now_ps >= lb->freeze_until_ps) {
		lb->frozen = false;
		reps_reset_cache(lb);
		lb->explore_left = lb->params.reps_explore_count;
	}
	switch (what) {
	case UET_LB_GOOD:
	case UET_LB_TRIMMED_LASTHOP:
		/* Only a value of the group's range goes back on the wire. */
		if (entropy >= lb->params.entropy_base &&
		    off < lb->params.entropy_span)
			reps_recycle(lb, entropy);
		break;
	case UET_LB_TIMEOUT:
		if (!lb->frozen && lb->explore_left == 0) {
			lb->frozen = true;
			lb->freeze_until_ps =
				now_ps + lb->params.reps_freeze_ps;
			lb->frozen_next = 0;
			lb->n_freezes++;
		}
		break;
	default: /* ECN, TRIMMED: the value is discarded */
		break;
	}
}

const struct uet_lb_ops uet_lb_reps_ops = {
	.name = "reps",
	.next_entropy = reps_next_entropy,
	.feedback = reps_feedback,
};
