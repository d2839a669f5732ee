/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The penalty bitmap ("EV skip", cc-and-multipath 1.6): the group sprays
 * over bitmap_paths values base..base + paths - 1 in the oblivious order,
 * and each value keeps a penalty 0..15: ECN +1, a trim on the way +4, a
 * timeout +15, capped at 15. Choosing walks the oblivious order and skips
 * every penalised value, taking one off the penalty of the first one it
 * skips only, so a penalty of n costs a value about n rounds. When every
 * value of a whole round is penalised, the first one is used.
 * Good ACKs and last-hop trims (the receiver's fault) change nothing.
 */
#include "lb_private.h"

static uint16_t bitmap_next_entropy(struct uet_lb *lb, uet_time_t now_ps)
{
	uint32_t paths = lb->params.bitmap_paths, i, first = 0;
	bool skipped = false;

	(void)now_ps;
	for (i = 0; i < paths; i++) {
		uint32_t off = uet_lb_oblivious_next_offset(lb, paths);

		if (lb->penalty[off] == 0)
			return (uint16_t)(lb->params.entropy_base + off);
		lb->n_skipped++;
		if (!skipped) {
			skipped = true;
			first = off;
			lb->penalty[off]--;
		}
	}
	return (uint16_t)(lb->params.entropy_base + first);
}

static void bitmap_feedback(struct uet_lb *lb, uint16_t entropy,
			    enum uet_lb_feedback what, uet_time_t now_ps)
{
	uint32_t off = (uint32_t)entropy - lb->params.entropy_base;
	uint32_t add;

	(void)now_ps;
	if (entropy < lb->params.entropy_base || off >= lb->params.bitmap_paths)
		return;
	switch (what) {
	case UET_LB_ECN:
		add = UET_LB_BITMAP_PEN_ECN;
		break;
	case UET_LB_TRIMMED:
		add = UET_LB_BITMAP_PEN_TRIMMED;
		break;
	case UET_LB_TIMEOUT:
		add = UET_LB_BITMAP_PEN_TIMEOUT;
		break;
	default:
		return;
	}
	add += lb->penalty[off];
	lb->penalty[off] =
		(uint8_t)(add > UET_LB_BITMAP_PEN_MAX ? UET_LB_BITMAP_PEN_MAX
						      : add);
}

const struct uet_lb_ops uet_lb_bitmap_ops = {
	.name = "bitmap",
	.next_entropy = bitmap_next_entropy,
	.feedback = bitmap_feedback,
};
