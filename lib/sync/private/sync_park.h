/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A counter that lcores wait on between the phases of a window: spin a
 * while, then sleep in the kernel until the writer wakes them.
 *
 * How long to spin depends on the machine's load, so each waiter learns
 * it from its own last waits: a step longer after a wait its spin ended,
 * the least after one it slept through. On CPUs of their own, phases end
 * within tens of microseconds and a sleeper pays a wake-up about as long:
 * the all-to-all benchmark's loop (tests/bench/all-to-all-8.yaml, 2
 * lcores) takes 18 ms so, 30 ms with a fixed 10 us spin. With another
 * process on a CPU (a nice-5 fuzzer), a long spin spends the lcore's
 * share of it for nothing: 38-42 ms so, 95-162 ms with a fixed 80-320 us
 * spin; a sleeper, woken by the writer, preempts that process at once.
 * sched_yield() is no way to wait: it hands a busy CPU's other process
 * the rest of its time slice: 84-88 ms under that load (and 18-42 ms
 * idle).
 */
#ifndef SYNC_PARK_H
#define SYNC_PARK_H

#include <stdbool.h>
#include <stdint.h>

/** A counter and how many lcores sleep on it. */
struct sync_park {
	uint32_t value;	   /**< the counter, read with acquire */
	uint32_t sleepers; /**< lcores asleep in (or going to) the kernel */
};

/** Pauses a waiter spins at the least (about 10 us here) and the most
 * (about 160 us) before it sleeps. */
#define SYNC_PARK_SPINS_MIN 1024u
#define SYNC_PARK_SPINS_MAX 16384u

/**
 * Wait until the counter differs from old (equal false) or equals want
 * (equal true).
 *
 * @param p
 *   The counter.
 * @param v
 *   old or want.
 * @param equal
 *   Which of the two conditions.
 * @param spins
 *   The waiter's own spin budget, 0 at first (the most): one
 *   SYNC_PARK_SPINS_MIN longer after a wait the spin ended, up to
 *   SYNC_PARK_SPINS_MAX; SYNC_PARK_SPINS_MIN after one it slept through.
 * @return
 *   The counter's value that ended the wait (acquire).
 */
uint32_t sync_park_wait(struct sync_park *p, uint32_t v, bool equal,
			uint32_t *spins);

/**
 * Add to the counter (release) and wake every sleeper.
 *
 * @param p
 *   The counter.
 * @param add
 *   What to add.
 */
void sync_park_add(struct sync_park *p, uint32_t add);

/**
 * Set the counter without waking anyone (nobody waits for this value).
 *
 * @param p
 *   The counter.
 * @param v
 *   The value.
 */
void sync_park_set(struct sync_park *p, uint32_t v);

#endif /* SYNC_PARK_H */
