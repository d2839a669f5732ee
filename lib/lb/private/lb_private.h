/* SPDX-License-Identifier: BSD-3-Clause */
/* The balancers behind uet_lb_init, visible to lib/lb only. */
#ifndef UET_LB_PRIVATE_H
#define UET_LB_PRIVATE_H

#include "uet_lb.h"

/** One entropy value for the whole group. */
extern const struct uet_lb_ops uet_lb_single_ops;
/** Every value of [base, base + span) once per round, in a random order. */
extern const struct uet_lb_ops uet_lb_oblivious_ops;

/** Draw the group's one value (lb->params and lb->rng are set). */
void uet_lb_single_init(struct uet_lb *lb);
/** Start before the first round (lb->params and lb->rng are set). */
void uet_lb_oblivious_init(struct uet_lb *lb);

/** REPS: recycled values, freezing, exploration (lb_reps.c). */
extern const struct uet_lb_ops uet_lb_reps_ops;
/** Oblivious order, skipping penalised values (lb_bitmap.c). */
extern const struct uet_lb_ops uet_lb_bitmap_ops;

/** The next offset in [0, span) of the oblivious order (rounds drawn from
 * lb->rng); shared by oblivious spraying and the bitmap. */
uint32_t uet_lb_oblivious_next_offset(struct uet_lb *lb, uint32_t span);

/** A value drawn uniformly from the group's range. */
uint16_t uet_lb_random_entropy(struct uet_lb *lb);

/** Feedback hook of the balancers that ignore feedback. */
void uet_lb_feedback_ignore(struct uet_lb *lb, uint16_t entropy,
			    enum uet_lb_feedback what, uet_time_t now_ps);

#endif /* UET_LB_PRIVATE_H */
