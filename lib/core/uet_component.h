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

#include <stdint.h>

#include "uet_event.h"
#include "uet_time.h"

struct rte_mbuf;
struct uet_component;

/**
 * Put a frame on one of the component's ports. The frame reaches the far end
 * of the link at arrival_ps (serialization and link delay included), which
 * the lockstep trailer carries. The callee owns the mbuf from then on, also
 * on error.
 *
 * @return 0, or a negative errno (the run must stop: the transport may not
 *   lose frames).
 */
typedef int (*uet_component_out_fn)(void *ctx, uint16_t port,
				    struct rte_mbuf *m, uet_time_t arrival_ps);

/**
 * Hand the component a frame that arrives on its port at arrival_ps (never
 * earlier than the component's current time). The component schedules the
 * arrival in its event queue and owns the mbuf from then on.
 *
 * @return 0, or a negative errno (a malformed frame is counted and dropped by
 *   the component and returns 0: only internal failures are errors).
 */
typedef int (*uet_component_deliver_fn)(struct uet_component *c, uint16_t port,
					struct rte_mbuf *m,
					uet_time_t arrival_ps);

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
};

/**
 * Send a frame through the component's wiring.
 */
static inline int uet_component_out(struct uet_component *c, uint16_t port,
				    struct rte_mbuf *m, uet_time_t arrival_ps)
{
	return c->out(c->out_ctx, port, m, arrival_ps);
}

#endif /* UET_COMPONENT_H */
