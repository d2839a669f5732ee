/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A group's balancer: checks the entropy range, seeds the group's own
 * generator, picks the algorithm, and counts feedback for the records.
 */
#include <errno.h>
#include <string.h>

#include "lb_private.h"

int uet_lb_init(struct uet_lb *lb, const struct uet_lb_params *params,
		uint64_t seed, uint64_t stream)
{
	struct uet_lb fresh;

	if (lb == NULL || params == NULL)
		return -EINVAL;
	/* The values must fit a UDP source port: [base, base + span) within
	 * 0..65535, and at least one value to choose. */
	if (params->entropy_span == 0 ||
	    (uint32_t)params->entropy_base + params->entropy_span > 65536)
		return -EINVAL;

	/* Build in a local copy so that a failed init leaves *lb as it was. */
	memset(&fresh, 0, sizeof(fresh));
	fresh.params = *params;
	uet_rng_seed(&fresh.rng, seed, stream);
	switch (params->algo) {
	case UET_LB_SINGLE_PATH:
		fresh.ops = &uet_lb_single_ops;
		uet_lb_single_init(&fresh);
		break;
	case UET_LB_OBLIVIOUS:
		fresh.ops = &uet_lb_oblivious_ops;
		uet_lb_oblivious_init(&fresh);
		break;
	case UET_LB_REPS:
		if (params->reps_cache_size == 0 ||
		    params->reps_cache_size > UET_LB_REPS_CACHE_MAX ||
		    params->reps_usable_lifetime == 0 ||
		    params->reps_usable_lifetime > UINT8_MAX ||
		    params->reps_freeze_ps == 0)
			return -EINVAL;
		fresh.ops = &uet_lb_reps_ops;
		break;
	case UET_LB_BITMAP:
		if (params->bitmap_paths == 0 ||
		    params->bitmap_paths > UET_LB_BITMAP_MAX ||
		    params->bitmap_paths > params->entropy_span)
			return -EINVAL;
		fresh.ops = &uet_lb_bitmap_ops;
		uet_lb_oblivious_init(&fresh);
		break;
	default:
		return -EINVAL;
	}
	*lb = fresh;
	return 0;
}

void uet_lb_params_default(struct uet_lb_params *params)
{
	memset(params, 0, sizeof(*params));
	params->algo = UET_LB_SINGLE_PATH;
	params->entropy_base = UET_LB_ENTROPY_BASE_DEFAULT;
	params->entropy_span = UET_LB_ENTROPY_SPAN_DEFAULT;
	params->reps_cache_size = UET_LB_REPS_CACHE_DEFAULT;
	params->reps_usable_lifetime = UET_LB_REPS_LIFETIME_DEFAULT;
	params->reps_freeze_ps = UET_LB_REPS_FREEZE_PS_DEFAULT;
	params->reps_explore_count = UET_LB_REPS_EXPLORE_DEFAULT;
	params->bitmap_paths = UET_LB_BITMAP_PATHS_DEFAULT;
}

uint16_t uet_lb_random_entropy(struct uet_lb *lb)
{
	return (uint16_t)(lb->params.entropy_base +
			  uet_rng_bounded(&lb->rng, lb->params.entropy_span));
}

void uet_lb_feedback(struct uet_lb *lb, uint16_t entropy,
		     enum uet_lb_feedback what, uet_time_t now_ps)
{
	/* The kind indexes the counters: an unknown one must not write
	 * outside them. */
	if ((unsigned int)what > UET_LB_TIMEOUT)
		return;
	lb->n_feedback[what]++;
	lb->ops->feedback(lb, entropy, what, now_ps);
}

void uet_lb_feedback_ignore(struct uet_lb *lb, uint16_t entropy,
			    enum uet_lb_feedback what, uet_time_t now_ps)
{
	(void)lb;
	(void)entropy;
	(void)what;
	(void)now_ps;
}
