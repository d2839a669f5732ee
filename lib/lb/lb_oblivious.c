/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Oblivious spraying: packets of a group take the span's values in rounds,
 * each value exactly once per round, in an order drawn afresh each round, so
 * the group's packets spread evenly over the paths whatever the switches'
 * hash. Feedback changes nothing.
 *
 * Span a power of two (the default, 16384): value = base + (pos XOR key),
 * pos counting 0..span-1 and key drawn in [0, span) at each round's start;
 * XOR with a fixed key is a bijection on [0, span).
 *
 * Other spans: value = base + (key + pos * step) mod span, key drawn in
 * [0, span) and step drawn coprime to span at each round's start; a step
 * coprime to span walks the whole residue ring before it repeats.
 */
#include "lb_private.h"

static uint32_t gcd_u32(uint32_t a, uint32_t b)
{
	while (b != 0) {
		uint32_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static bool span_is_pow2(uint32_t span)
{
	return (span & (span - 1)) == 0;
}

static void oblivious_new_round(struct uet_lb *lb, uint32_t span)
{
	lb->round_key = (uint32_t)uet_rng_bounded(&lb->rng, span);
	if (span_is_pow2(span)) {
		lb->round_step = 1;
		return;
	}
	/* Reject steps that share a factor with span: more than one step in
	 * six is coprime to any span below 2^16 (the worst is 30030, with
	 * 19%), so this ends fast, and the number of draws depends only on
	 * the generator: deterministic. */
	do {
		lb->round_step =
			1 + (uint32_t)uet_rng_bounded(&lb->rng, span - 1);
	} while (gcd_u32(lb->round_step, span) != 1);
}

void uet_lb_oblivious_init(struct uet_lb *lb)
{
	/* The first round is drawn on the first packet, like every other
	 * round: a group that never sends draws nothing. */
	lb->round_pos = 0;
	lb->round_key = 0;
	lb->round_step = 1;
}

uint32_t uet_lb_oblivious_next_offset(struct uet_lb *lb, uint32_t span)
{
	uint32_t off;

	if (lb->round_pos == 0)
		oblivious_new_round(lb, span);
	if (span_is_pow2(span))
		off = lb->round_pos ^ lb->round_key;
	else
		off = (uint32_t)(((uint64_t)lb->round_pos * lb->round_step +
				  lb->round_key) %
				 span);
	lb->round_pos = lb->round_pos + 1 == span ? 0 : lb->round_pos + 1;
	return off;
}

static uint16_t oblivious_next_entropy(struct uet_lb *lb, uet_time_t now_ps)
{
	(void)now_ps;
	return (uint16_t)(lb->params.entropy_base +
			  uet_lb_oblivious_next_offset(
				  lb, lb->params.entropy_span));
}

const struct uet_lb_ops uet_lb_oblivious_ops = {
	.name = "oblivious",
	.next_entropy = oblivious_next_entropy,
	.feedback = uet_lb_feedback_ignore,
};
