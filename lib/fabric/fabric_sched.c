/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Scheduling between the traffic classes of a port: strict priority (the
 * highest class with a frame goes first) or weighted round robin (each
 * class in turn sends up to its weight in frames, then the next non-empty
 * class takes the turn). A class its far end paused (PFC) is passed over
 * as if empty.
 */
#include "fabric_private.h"

/* A class may send: it has a frame and, if lossless, the far end has not
 * paused it (pauses of other classes are ignored, as 802.1Qbb says for
 * classes without PFC). */
static bool fabric_sched_ready(const struct fabric_port *p, unsigned int tc)
{
	return (p->backlog >> tc & 1u) &&
	       (!fabric_pfc_lossless(&fabric_port_fab(p)->conf, tc) ||
		!fabric_pfc_paused(p, tc));
}

static int fabric_sched_strict(const struct fabric_port *p)
{
	/* Only the classes with a frame, highest first: the port's backlog
	 * bits spare a look at every class queue. */
	unsigned int left = p->backlog & ((1u << UET_FABRIC_TCS) - 1u);

	while (left != 0) {
		const unsigned int tc = 31u - (unsigned int)__builtin_clz(left);

		if (fabric_sched_ready(p, tc))
			return (int)tc;
		left &= ~(1u << tc);
	}
	return -1;
}

static int fabric_sched_wrr(struct fabric_port *p)
{
	const uint8_t *w = fabric_port_fab(p)->conf.wrr_weight;
	unsigned int i;

	if (fabric_sched_ready(p, p->wrr_tc) &&
	    p->wrr_sent < (w[p->wrr_tc] == 0 ? 1 : w[p->wrr_tc])) {
		p->wrr_sent++;
		return p->wrr_tc;
	}
	for (i = 1; i <= UET_FABRIC_TCS; i++) {
		const unsigned int tc = (p->wrr_tc + i) % UET_FABRIC_TCS;

		if (fabric_sched_ready(p, tc)) {
			p->wrr_tc = (uint8_t)tc;
			p->wrr_sent = 1;
			return (int)tc;
		}
	}
	return -1;
}

int fabric_sched_pick(struct fabric_port *p)
{
	if (fabric_port_fab(p)->conf.sched == UET_FABRIC_SCHED_WRR)
		return fabric_sched_wrr(p);
	return fabric_sched_strict(p);
}
