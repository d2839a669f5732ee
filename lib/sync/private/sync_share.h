/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Cutting a row of weighted items (the switch's parts, in topology order)
 * into contiguous runs, one per lcore, of about equal weight: neighbouring
 * switches share an lcore and the frames between them stay in its cache.
 * Each run ends at the item boundary nearest its share of the total. An
 * item is never split, so an item heavier than a share leaves a later run
 * short, or empty.
 */
#ifndef SYNC_SHARE_H
#define SYNC_SHARE_H

#include <stdint.h>

/**
 * Cut items 0..n-1 into @p runs contiguous runs.
 *
 * @param weight
 *   Weight of each item; NULL: 1 each.
 * @param n
 *   Items.
 * @param runs
 *   Runs (lcores), at least 1.
 * @param first, count
 *   Out, @p runs each: run r holds items first[r]..first[r]+count[r]-1;
 *   an empty run has first[r] = n (or the end of the one before) and
 *   count 0. The runs cover every item once, in order.
 */
void sync_share_runs(const uint32_t *weight, uint32_t n, uint32_t runs,
		     uint32_t *first, uint32_t *count);

#endif /* SYNC_SHARE_H */
