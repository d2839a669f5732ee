/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A contiguous run of items (the switch's parts an lcore owns) that its
 * owner takes from the front and any other lcore may take from the back
 * once its own run is done.
 *
 * The parts' weights (lib/sync/sync_share.h) are a guess made before the
 * run; the work of a part moves with the traffic and the lcores' speed
 * with the host's load. With stealing, an lcore that finished its run
 * early takes the last parts of a slower one instead of waiting at the
 * barrier, while each lcore still runs its own neighbouring parts in the
 * common case. Which lcore ran a part changes nothing in the records:
 * a part's inputs and outputs are its own (lib/core/uet_component.h).
 *
 * The run is one 64-bit word (front in the low half, end in the high
 * half) changed by compare-and-swap, so a take is lock-free and an item
 * is taken exactly once.
 */
#ifndef SYNC_STEAL_H
#define SYNC_STEAL_H

#include <stdbool.h>
#include <stdint.h>

/** One lcore's run of items, [front, end). */
struct sync_steal {
	uint64_t span;
};

/** Set the run to items first..first+count-1 (serial, between phases). */
void sync_steal_reset(struct sync_steal *s, uint32_t first, uint32_t count);

/**
 * The owner's take: the front item.
 *
 * @return
 *   true with *item set; false when the run is empty.
 */
bool sync_steal_front(struct sync_steal *s, uint32_t *item);

/**
 * Another lcore's take: the last item.
 *
 * @return
 *   true with *item set; false when the run is empty.
 */
bool sync_steal_back(struct sync_steal *s, uint32_t *item);

#endif /* SYNC_STEAL_H */
