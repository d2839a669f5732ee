/* SPDX-License-Identifier: BSD-3-Clause */
#include "sync_share.h"

#include <stddef.h>

static uint64_t item_weight(const uint32_t *weight, uint32_t i)
{
	return weight != NULL ? weight[i] : 1u;
}

/*
 * Walk the items once, adding up their weight. Run r's share ends at
 * total * (r + 1) / runs (compared multiplied by runs, to stay in
 * integers). When item i takes the sum to or past it, the run ends before
 * item i if that boundary is nearer and the run then still has an item,
 * else after it. Ending only once the share is reached, the first runs
 * would take up to an item too many each: at 1,024 hosts a fat tree's pod
 * is a sixth of one lcore's share on two.
 */
void sync_share_runs(const uint32_t *weight, uint32_t n, uint32_t runs,
		     uint32_t *first, uint32_t *count)
{
	uint64_t total = 0, acc = 0;
	uint32_t i, r = 0, start = 0;

	for (i = 0; i < n; i++)
		total += item_weight(weight, i);
	for (i = 0; i < n; i++) {
		const uint64_t before = acc;

		acc += item_weight(weight, i);
		while (r + 1 < runs && acc * runs >= total * (r + 1)) {
			const uint64_t t = total * (r + 1);
			const uint32_t end =
				i > start && t - before * runs < acc * runs - t
					? i
					: i + 1;

			first[r] = start;
			count[r] = end - start;
			start = end;
			r++;
		}
	}
	first[r] = start;
	count[r] = n - start;
	for (r++; r < runs; r++) {
		first[r] = n;
		count[r] = 0;
	}
}
