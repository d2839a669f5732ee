/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A model component (one emulated NIC, or the whole switch fabric) as the
 * synchronisation layer (lib/sync) sees it: an event queue, frames in, frames
 * out. The component never touches a port; the wiring (embedded rings, veth,
 * memif) lives in lib/sync and the apps.
 *
 * Frames are rte_mbufs, but this header only names the type, so lib/core
 * stays free of DPDK.
 */
#ifndef UET_COMPONENT_H
#define UET_COMPONENT_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_event.h"
#include "uet_time.h"

struct rte_mbuf;
struct uet_component;
struct uet_xring;

/**
 * Put a frame on one of the component's ports. The frame reaches the far end
 * of the link at arrival_ps (serialization and link delay included), which
 * the lockstep trailer carries. The callee owns the mbuf from then on, also
 * on error.
 *
 * @return 0, or a negative errno (the run must stop: the transport may not
 *   lose frames).
 */
typedef int (*uet_component_out_fn)(void *ctx, uint32_t port,
				    struct rte_mbuf *m, uet_time_t arrival_ps);

/**
 * Hand the component a frame that arrives on its port at arrival_ps (never
 * earlier than the component's current time). The component schedules the
 * arrival in its event queue and owns the mbuf from then on.
 *
 * @return 0, or a negative errno (a malformed frame is counted and dropped by
 *   the component and returns 0: only internal failures are errors).
 */
typedef int (*uet_component_deliver_fn)(struct uet_component *c, uint32_t port,
					struct rte_mbuf *m,
					uet_time_t arrival_ps);

/**
 * A component made of parts that run side by side within a window (the
 * fabric's partitions, docs/performance.md): lib/sync calls window_begin
 * once, part_run for every part (in any order, on any lcores, at the same
 * time), then window_end once. A part's events and the frames it sends to
 * another part stay its own until the next window, so parts never touch
 * each other's state inside a window.
 */
struct uet_component_parts {
	/** Number of parts, >= 1. */
	uint32_t n;
	/** Work of part i relative to the others (for sharing parts among
	 * lcores), or NULL: equal. */
	const uint32_t *weight;
	/**
	 * Serial, before the parts run the window [start_ps, end_ps): what
	 * happens at start_ps to the component as a whole (a link failure).
	 * @return 0 or a negative errno.
	 */
	int (*window_begin)(struct uet_component *c, uet_time_t start_ps,
			    uet_time_t end_ps);
	/**
	 * Part i takes the frames the window brought it and runs its events
	 * before end_ps. Safe to call for different parts at once.
	 * @return events run, or a negative errno.
	 */
	int64_t (*part_run)(struct uet_component *c, uint32_t part,
			    uet_time_t end_ps);
	/**
	 * Serial, once every part has run: what the parts kept aside for
	 * the component as a whole (record rows, errors).
	 * @return 0 or a negative errno.
	 */
	int (*window_end)(struct uet_component *c, uet_time_t end_ps);
	/** Earliest pending event of any part or frame between parts. */
	uet_time_t (*next_time)(const struct uet_component *c);
	/**
	 * The earliest time after after_ps at which a window must end,
	 * because something happens to the whole component then (a link
	 * failure), or UET_TIME_NEVER.
	 */
	uet_time_t (*horizon)(const struct uet_component *c,
			      uet_time_t after_ps);
	/**
	 * Optional. From now on the frames of port @p port come from
	 * @p rings instead of deliver(). rings[w & 1] is filled by a single
	 * writer (lib/sync's in-process lockstep: the port's NIC) during
	 * window w, counting the windows the parts run from 0; at the start
	 * of window w + 1 the part that holds the port takes all of it
	 * itself, on its own lcore, with the window's other arrivals. The
	 * writer fills the other ring meanwhile, so the NIC and the part
	 * may run at the same time. The frames keep deliver()'s rules (not
	 * before the part's time, in arrival order on the port).
	 * @return 0 or a negative errno.
	 */
	int (*port_feed)(struct uet_component *c, uint32_t port,
			 struct uet_xring *rings);
	/*
	 * Optional, for a component whose parts are spread over processes
	 * (lib/sync over ranks, uet_sync_ranks.h): each process runs its
	 * own parts and moves what crosses to the others between windows.
	 */
	/** The part that holds port @p port. */
	uint32_t (*port_part)(const struct uet_component *c, uint32_t port);
	/** Part @p part's own earliest pending event, or earliest frame it
	 * sent the other parts in the window last run; the component's
	 * own queue and horizon not included. */
	uet_time_t (*part_next_time)(const struct uet_component *c,
				     uint32_t part);
	/** How many rings part @p part sends other parts frames on. */
	uint32_t (*out_rings)(const struct uet_component *c, uint32_t part);
	/**
	 * Part @p part's ring @p s (below out_rings()) of window parity
	 * @p x: filled by the part in the windows w with w & 1 == x, taken
	 * by part *to at the start of window w + 1, each frame's port the
	 * one it arrives on.
	 */
	struct uet_xring *(*out_ring)(struct uet_component *c, uint32_t part,
				      uint32_t s, uint32_t x, uint32_t *to);
	/** Set by lib/sync's realtime role: parts run as the clock goes, so
	 * a frame between parts may be taken after its arrival time. */
	bool realtime;
};

/** What every component exposes to lib/sync. */
struct uet_component {
	/** Name for messages ("nic 198.18.0.3", "switch"). */
	char name[48];
	/** Its events; lib/sync runs them window by window. */
	struct uet_evq evq;
	/** How frames come in (set by the component). */
	uet_component_deliver_fn deliver;
	/** How frames go out (set by the wiring before the run). */
	uet_component_out_fn out;
	/** Context for out. */
	void *out_ctx;
	/** Parts that run side by side (n 0: the component is one queue,
	 * evq). */
	struct uet_component_parts parts;
};

/**
 * Send a frame through the component's wiring.
 */
static inline int uet_component_out(struct uet_component *c, uint32_t port,
				    struct rte_mbuf *m, uet_time_t arrival_ps)
{
	return c->out(c->out_ctx, port, m, arrival_ps);
}

/** The component's earliest pending event (any part's). */
static inline uet_time_t uet_component_next_time(const struct uet_component *c)
{
	return c->parts.n != 0 ? c->parts.next_time(c)
			       : uet_evq_next_time(&c->evq);
}

/** When a window starting at after_ps must end at the latest. */
static inline uet_time_t uet_component_horizon(const struct uet_component *c,
					       uet_time_t after_ps)
{
	return c->parts.n != 0 && c->parts.horizon != NULL
		       ? c->parts.horizon(c, after_ps)
		       : UET_TIME_NEVER;
}

/**
 * Run one window [start_ps, end_ps) of the component in the calling
 * thread: its queue, or every part in turn between window_begin and
 * window_end.
 *
 * @return
 *   Events run, or a negative errno.
 */
static inline int64_t uet_component_run_window(struct uet_component *c,
					       uet_time_t start_ps,
					       uet_time_t end_ps)
{
	int64_t n = 0, r;
	uint32_t i;
	int rc;

	if (c->parts.n == 0)
		return uet_evq_run_until(&c->evq, end_ps);
	if (c->parts.window_begin != NULL) {
		rc = c->parts.window_begin(c, start_ps, end_ps);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < c->parts.n; i++) {
		r = c->parts.part_run(c, i, end_ps);
		if (r < 0)
			return r;
		n += r;
	}
	if (c->parts.window_end != NULL) {
		rc = c->parts.window_end(c, end_ps);
		if (rc < 0)
			return rc;
	}
	return n;
}

#endif /* UET_COMPONENT_H */
