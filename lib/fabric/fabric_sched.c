/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Scheduling between the traffic classes of a port: strict priority (the
 * highest class with a frame goes first) or weighted round robin (each
 * class in turn sends up to its weight in frames, then the next non-empty
 * class takes the turn).
 */
#include "fabric_private.h"

static int fabric_sched_strict(const struct fabric_port *p)
{
	int tc;

	for (tc = UET_FABRIC_TCS - 1; tc >= 0; tc--)
		if (!fabric_fifo_empty(&p->queue[tc]))
			return tc;
	return -1;
}

static int fabric_sched_wrr(struct fabric_port *p)
{
	const uint8_t *w = p->fab->conf.wrr_weight;
	unsigned int i;

	if (!fabric_fifo_empty(&p->queue[p->wrr_tc]) &&
	    p->wrr_sent < (w[p->wrr_tc] == 0 ? 1 : w[p->wrr_tc])) {
		p->wrr_sent++;
		return p->wrr_tc;
	}
	for (i = 1; i <= UET_FABRIC_TCS; i++) {
		const unsigned int tc = (p->wrr_tc + i) % UET_FABRIC_TCS;

		if (!fabric_fifo_empty(&p->queue[tc])) {
			p->wrr_tc = (uint8_t)tc;
			p->wrr_sent = 1;
			return (int)tc;
		}
	}
	return -1;
}

int fabric_sched_pick(struct fabric_port *p)
{
	if (p->fab->conf.sched == UET_FABRIC_SCHED_WRR)
		return fabric_sched_wrr(p);
	return fabric_sched_strict(p);
}
