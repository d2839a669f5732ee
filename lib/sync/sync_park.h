/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A counter that lcores wait on between the phases of a window: spin a
 * little, then sleep in the kernel until the writer wakes them.
 *
 * sched_yield() is no way to wait here: on a CPU shared with another
 * process (a build, a nice-19 fuzzer) a yielding lcore gives that process
 * the rest of its time slice, milliseconds, and the phase it waits for is
 * over long before it runs again. A futex sleeper is woken by the writer
 * and, being the one that waited, preempts such a process at once.
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
 * @return
 *   The counter's value that ended the wait (acquire).
 */
uint32_t sync_park_wait(struct sync_park *p, uint32_t v, bool equal);

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
