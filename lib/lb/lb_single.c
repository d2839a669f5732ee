/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Single path: the group draws one entropy value when it is created and puts
 * it on every packet, retransmissions included. The data-path page has a
 * retransmission take a new value from the group's spraying; the NIC does
 * ask, and single path answers with the same value, because single path
 * means one path: the switches hash every packet of the group the same way.
 * A new group (a new PDC after the previous ones closed) draws again.
 */
#include "lb_private.h"

void uet_lb_single_init(struct uet_lb *lb)
{
	lb->path_entropy =
		(uint16_t)(lb->params.entropy_base +
			   uet_rng_bounded(&lb->rng, lb->params.entropy_span));
}

static uint16_t single_next_entropy(struct uet_lb *lb, uet_time_t now_ps)
{
	(void)now_ps;
	return lb->path_entropy;
}

const struct uet_lb_ops uet_lb_single_ops = {
	.name = "single_path",
	.next_entropy = single_next_entropy,
	.feedback = uet_lb_feedback_ignore,
};
