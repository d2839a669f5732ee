/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A stand-in network for the engine's unit tests: a message posted at t
 * is sent at t + bytes * FAKE_PS_PER_BYTE and arrives FAKE_LATENCY_PS
 * after that. Events run in (time, post order) order, each one a window
 * of its own: the engine's deferred trigger work is flushed after it.
 */
#ifndef FAKE_NET_H
#define FAKE_NET_H

#include <stdint.h>
#include <stdlib.h>

#include "uet_workload.h"

#define FAKE_LATENCY_PS UINT64_C(1000000)
#define FAKE_PS_PER_BYTE UINT64_C(20)
#define FAKE_MAX_EVENTS 65536u

struct fake_ev {
	uet_time_t t;
	uint64_t seq;
	uint64_t msg;
	int arrival; /* 1 arrival, 0 transmit completion */
};

struct fake_net {
	struct fake_ev ev[FAKE_MAX_EVENTS];
	uint32_t n;
	uint64_t seq;
	uint64_t posts;
	uint64_t bytes;
	struct uet_wl_engine *e;
};

static inline void fake_push(struct fake_net *f, uet_time_t t, uint64_t msg,
			     int arrival)
{
	f->ev[f->n++] = (struct fake_ev){t, f->seq++, msg, arrival};
}

static inline int fake_post(void *ctx, uint32_t src, uint32_t dst,
			    uint64_t bytes, uet_time_t at_ps, uint64_t msg_id)
{
	struct fake_net *f = ctx;
	uet_time_t sent = at_ps + bytes * FAKE_PS_PER_BYTE;

	(void)src;
	(void)dst;
	if (f->n + 2 > FAKE_MAX_EVENTS)
		return -12;
	f->posts++;
	f->bytes += bytes;
	fake_push(f, sent, msg_id, 0);
	fake_push(f, sent + FAKE_LATENCY_PS, msg_id, 1);
	return 0;
}

/* Run every event; returns the first engine error or 0. */
static inline int fake_run(struct fake_net *f)
{
	for (;;) {
		uint32_t i, best = 0;
		struct fake_ev ev;
		/* A window per event: what the last one deferred, first. */
		int rc = uet_wl_engine_flush(f->e);

		if (rc < 0)
			return rc;
		if (f->n == 0)
			break;
		for (i = 1; i < f->n; i++)
			if (f->ev[i].t < f->ev[best].t ||
			    (f->ev[i].t == f->ev[best].t &&
			     f->ev[i].seq < f->ev[best].seq))
				best = i;
		ev = f->ev[best];
		f->ev[best] = f->ev[--f->n];
		rc = ev.arrival ? uet_wl_engine_arrived(f->e, ev.msg, ev.t)
				: uet_wl_engine_sent(f->e, ev.msg, ev.t);
		if (rc < 0)
			return rc;
	}
	return 0;
}

#endif /* FAKE_NET_H */
