/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch's frames to the NICs, as its parts send them: each gets its
 * lockstep trailer (the arrival time) and waits in its port's queue for
 * the GRANT's flush. The parts may run on several lcores (sync_team.h),
 * so what the window notes besides the port's own queue goes to the
 * calling lcore's lane, and the lanes are merged when the window is over,
 * on one lcore: the earliest arrival sent, the frames counted, and the
 * first failure in the serial run's order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rte_mbuf.h>

#include "sync_coordinator_private.h"
#include "uet_port.h"

/* Keep a failure in the lane if it comes first in the serial order. */
static int __attribute__((format(printf, 4, 5)))
lane_fail(struct co_lane *lane, int err, uint32_t code, const char *fmt, ...)
{
	const uint32_t step = sync_team_step();
	va_list ap;

	if (lane->fail_err != 0 && lane->fail_step <= step)
		return err;
	lane->fail_err = err;
	lane->fail_step = step;
	lane->fail_code = code;
	va_start(ap, fmt);
	vsnprintf(lane->fail_text, sizeof(lane->fail_text), fmt, ap);
	va_end(ap);
	return err;
}

int co_out(void *ctx, uint32_t port, struct rte_mbuf *m, uet_time_t arrival_ps)
{
	struct uet_sync_coordinator *c = ctx;
	struct co_lane *lane = &c->lanes[sync_team_self()];
	struct co_port *p;
	int rc;

	if (c->error.err != 0) {
		rte_pktmbuf_free(m);
		return c->error.err;
	}
	if (port >= c->conf.n_ports) {
		rte_pktmbuf_free(m);
		return lane_fail(lane, -EINVAL, UET_LS_ABORT_INTERNAL,
				 "%s sent a frame on port %u, it has %u",
				 c->conf.component->name, port,
				 c->conf.n_ports);
	}
	p = &c->ports[port];
	if (arrival_ps < c->window_end_ps) {
		rte_pktmbuf_free(m);
		return lane_fail(
			lane, -ERANGE, UET_LS_ABORT_INTERNAL,
			"%s sent a frame on port %s arriving at %" PRIu64
			" ps, before the window end %" PRIu64
			" ps: the lookahead of %" PRIu64 " ps is broken",
			c->conf.component->name, uet_port_name(p->port),
			arrival_ps, c->window_end_ps, c->conf.lookahead_ps);
	}
	rc = uet_sync_trailer_append(m, arrival_ps);
	if (rc < 0) {
		rte_pktmbuf_free(m);
		return lane_fail(lane, rc, UET_LS_ABORT_INTERNAL,
				 "cannot put the trailer on a frame for port "
				 "%s: %s",
				 uet_port_name(p->port), strerror(-rc));
	}
	/* The port's queue and count: only the part that holds the port
	 * sends on it. */
	rc = sync_txq_push(&p->txq, m);
	if (rc < 0)
		return lane_fail(lane, rc, UET_LS_ABORT_INTERNAL,
				 "cannot queue a frame for port %s",
				 uet_port_name(p->port));
	p->data_tx_since_grant++;
	lane->data_frames_tx++;
	if (arrival_ps < lane->min_sent_ps)
		lane->min_sent_ps = arrival_ps;
	return 0;
}

void co_lanes_reset(struct uet_sync_coordinator *c)
{
	uint32_t i;

	for (i = 0; i < c->n_lanes; i++) {
		c->lanes[i].min_sent_ps = UET_TIME_NEVER;
		c->lanes[i].data_frames_tx = 0;
		c->lanes[i].fail_err = 0;
	}
}

int co_lanes_merge(struct uet_sync_coordinator *c)
{
	const struct co_lane *first = NULL;
	uint32_t i;

	c->min_sent_ps = UET_TIME_NEVER;
	for (i = 0; i < c->n_lanes; i++) {
		const struct co_lane *l = &c->lanes[i];

		c->stats.data_frames_tx += l->data_frames_tx;
		if (l->min_sent_ps < c->min_sent_ps)
			c->min_sent_ps = l->min_sent_ps;
		if (l->fail_err != 0 &&
		    (first == NULL || l->fail_step < first->fail_step))
			first = l;
	}
	if (first == NULL)
		return 0;
	return co_fail(c, first->fail_err, first->fail_code, "%s",
		       first->fail_text);
}
