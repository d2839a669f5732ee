/* SPDX-License-Identifier: BSD-3-Clause */
/* A run of items its owner takes from the front, others from the back. */
#include "sync_steal.h"

static inline uint64_t span_make(uint32_t front, uint32_t end)
{
	return (uint64_t)end << 32 | front;
}

void sync_steal_reset(struct sync_steal *s, uint32_t first, uint32_t count)
{
	__atomic_store_n(&s->span, span_make(first, first + count),
			 __ATOMIC_RELAXED);
}

/* Take one item off the run, at the front or the back; the CAS fails
 * only when another lcore took one in between, and then retries on what
 * it saw. */
static bool steal_take(struct sync_steal *s, uint32_t *item, bool front)
{
	uint64_t span = __atomic_load_n(&s->span, __ATOMIC_ACQUIRE);

	for (;;) {
		uint32_t lo = (uint32_t)span, hi = (uint32_t)(span >> 32);
		uint64_t next;

		if (lo >= hi)
			return false;
		next = front ? span_make(lo + 1, hi) : span_make(lo, hi - 1);
		if (__atomic_compare_exchange_n(&s->span, &span, next, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			*item = front ? lo : hi - 1;
			return true;
		}
	}
}

bool sync_steal_front(struct sync_steal *s, uint32_t *item)
{
	return steal_take(s, item, true);
}

bool sync_steal_back(struct sync_steal *s, uint32_t *item)
{
	return steal_take(s, item, false);
}
