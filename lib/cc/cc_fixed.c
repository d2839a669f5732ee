/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fixed window: the group may keep params.window_bytes nominal bytes in
 * flight, always. ACKs, trims and timeouts leave the window alone; the
 * shared code in uet_cc.c still counts them and keeps the base RTT, so the
 * records look the same whichever algorithm runs.
 */
#include <errno.h>

#include "cc_private.h"

static uint64_t fixed_window_bytes(const struct uet_cc *cc)
{
	return cc->window_bytes;
}

static void fixed_on_ack(struct uet_cc *cc, const struct uet_cc_ack *ack)
{
	(void)cc;
	(void)ack;
}

static void fixed_on_trim(struct uet_cc *cc, uet_time_t now_ps,
			  uint32_t nominal_bytes, bool last_hop,
			  uint64_t in_flight_bytes)
{
	(void)in_flight_bytes;
	(void)cc;
	(void)now_ps;
	(void)nominal_bytes;
	(void)last_hop;
}

static void fixed_on_timeout(struct uet_cc *cc, uet_time_t now_ps,
			     uint32_t nominal_bytes)
{
	(void)cc;
	(void)now_ps;
	(void)nominal_bytes;
}

const struct uet_cc_ops uet_cc_fixed_ops = {
	.name = "fixed",
	.window_bytes = fixed_window_bytes,
	.on_ack = fixed_on_ack,
	.on_trim = fixed_on_trim,
	.on_timeout = fixed_on_timeout,
};

int uet_cc_fixed_init(struct uet_cc *cc)
{
	/* A zero window would never let the group send: a scenario error,
	 * not a state to run in. */
	if (cc->params.window_bytes == 0)
		return -EINVAL;
	cc->window_bytes = cc->params.window_bytes;
	cc->ops = &uet_cc_fixed_ops;
	return 0;
}
