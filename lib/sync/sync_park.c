/* SPDX-License-Identifier: BSD-3-Clause */
/* Spin, then sleep on a futex: the wait between a window's phases. */
#include <limits.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_pause.h>

#include "sync_park.h"

static bool reached(uint32_t now, uint32_t v, bool equal)
{
	return equal ? now == v : now != v;
}

uint32_t sync_park_wait(struct sync_park *p, uint32_t v, bool equal,
			uint32_t *spins)
{
	uint32_t n, i, now;

	n = *spins == 0 ? SYNC_PARK_SPINS_MAX : *spins;
	for (i = 0; i < n; i++) {
		now = __atomic_load_n(&p->value, __ATOMIC_ACQUIRE);
		if (reached(now, v, equal)) {
			/* Spinning paid: spin a little longer next time. */
			*spins = n + SYNC_PARK_SPINS_MIN > SYNC_PARK_SPINS_MAX
					 ? SYNC_PARK_SPINS_MAX
					 : n + SYNC_PARK_SPINS_MIN;
			return now;
		}
		rte_pause();
	}
	/* It did not: the CPU is better left to whoever has work. */
	*spins = SYNC_PARK_SPINS_MIN;
	for (;;) {
		/* Announce the sleeper before the last look at the counter
		 * (both sequentially consistent): a writer that adds after
		 * that look sees the sleeper and wakes it, and the kernel
		 * refuses to sleep on a counter that moved meanwhile. */
		__atomic_fetch_add(&p->sleepers, 1, __ATOMIC_SEQ_CST);
		now = __atomic_load_n(&p->value, __ATOMIC_SEQ_CST);
		if (!reached(now, v, equal))
			syscall(SYS_futex, &p->value, FUTEX_WAIT_PRIVATE, now,
				NULL, NULL, 0);
		__atomic_fetch_sub(&p->sleepers, 1, __ATOMIC_RELAXED);
		now = __atomic_load_n(&p->value, __ATOMIC_ACQUIRE);
		if (reached(now, v, equal))
			return now;
	}
}

void sync_park_add(struct sync_park *p, uint32_t add)
{
	__atomic_fetch_add(&p->value, add, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST) != 0)
		syscall(SYS_futex, &p->value, FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
			NULL, 0);
}

void sync_park_set(struct sync_park *p, uint32_t v)
{
	__atomic_store_n(&p->value, v, __ATOMIC_RELAXED);
}
