/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Realtime mode (docs/lockstep.md, "Realtime"): no trailers, no control
 * frames. Virtual time is the monotonic clock's time since an epoch
 * divided by the dilation; a component runs each event when the clock
 * reaches its time, a frame it sends leaves its port when the clock reaches
 * the frame's modeled arrival at the far end, and a frame received is
 * stamped with the receiver's clock. Results depend on the host's load.
 */
#ifndef UET_SYNC_REALTIME_H
#define UET_SYNC_REALTIME_H

#include "uet_lateness.h"
#include "uet_sync.h"

struct uet_port;
struct uet_sync_port_drops;

/** The virtual clock of a realtime run. */
struct uet_sync_rt_clock {
	/** Monotonic wall ns at which virtual time is 0 (CLOCK_MONOTONIC,
	 * the same in every process of the machine). */
	uint64_t epoch_ns;
	/** Wall ps per virtual ps (run.time_dilation), >= 1. */
	uint32_t dilation;
};

/**
 * @return
 *   ps, the virtual time at monotonic wall time wall_ns; 0 before the
 *   epoch.
 */
uet_time_t uet_sync_rt_virtual_ps(const struct uet_sync_rt_clock *c,
				  uint64_t wall_ns);

/**
 * @return
 *   The monotonic wall ns at which virtual time reaches t_ps (rounded up);
 *   UINT64_MAX for UET_TIME_NEVER or beyond.
 */
uint64_t uet_sync_rt_wall_ns(const struct uet_sync_rt_clock *c,
			     uet_time_t t_ps);

/** How to set a realtime role up: one component and its ports. */
struct uet_sync_realtime_conf {
	/** The component's ports: its port i is ports[i]. */
	struct uet_port *const *ports;
	/** Number of ports, 1..UET_SYNC_PORTS_MAX. */
	uint32_t n_ports;
	/** The component; its out hook is taken over. */
	struct uet_component *component;
	/** The run's clock. */
	struct uet_sync_rt_clock clock;
	/** ps, no event at or after this time runs; the role finishes when
	 * the clock reaches it. */
	uet_time_t end_ps;
	/** Wall-clock limit on a port that takes no frame, ms; 0: default. */
	uint32_t timeout_ms;
};

/** Counters of a realtime role. */
struct uet_sync_rt_stats {
	uint64_t frames_rx; /**< frames received and delivered */
	uint64_t frames_tx; /**< frames the ports took */
	/** Frames the ports dropped before the component, all kinds
	 * (uet_sync_realtime_port_drops() has them by port and kind). */
	uint64_t foreign_frames;
	uint64_t events;   /**< events the component ran */
	uet_time_t now_ps; /**< ps, virtual time of the last poll */
	/** How late events ran: clock at the start minus the event's time. */
	struct uet_lateness lateness;
	/** ps, summed and largest delay of frames leaving after their time. */
	uint64_t tx_late_sum_ps;
	uet_time_t tx_late_max_ps;
};

struct uet_sync_realtime;

/**
 * Create a realtime role for a component.
 *
 * @return
 *   0, -EINVAL (no port, too many, no component, dilation 0), -ENOMEM.
 */
int uet_sync_realtime_create(struct uet_sync_realtime **rp,
			     const struct uet_sync_realtime_conf *conf);

/**
 * Do what is due now: deliver what the ports received (stamped with the
 * clock), run the events whose time has come, send the frames whose time
 * has come. Never waits.
 *
 * @param r
 *   The role.
 * @param wake_ns
 *   Out: the monotonic wall ns of the role's next event or frame to send
 *   (UINT64_MAX: none), so that the caller can sleep until then (or until
 *   a frame may have come).
 * @return
 *   UET_SYNC_RUNNING, UET_SYNC_FINISHED (the clock reached end_ps), or a
 *   negative errno (-ETIMEDOUT a port took nothing for timeout_ms, what a
 *   component returned); uet_sync_realtime_error() says why.
 */
int uet_sync_realtime_poll(struct uet_sync_realtime *r, uint64_t *wake_ns);

/**
 * Whether the role holds nothing: no pending event before end_ps, no
 * frame waiting to leave.
 */
bool uet_sync_realtime_idle(const struct uet_sync_realtime *r);

/** Counters. */
void uet_sync_realtime_stats(const struct uet_sync_realtime *r,
			     struct uet_sync_rt_stats *st);

/**
 * Frames port i dropped before the component, by kind, as uet-ports.csv
 * counts them (docs/records.md): truncated (under an Ethernet header, an
 * IPv4 header that does not parse or a total length past the frame),
 * ethertype (neither IPv4, MAC control nor lockstep control), stale (a
 * lockstep control frame, or anything received before the clock's
 * epoch); no_trailer is always 0 in realtime.
 *
 * @param r
 *   The role.
 * @param i
 *   Port index, < n_ports (anything else gives zeros).
 * @param d
 *   Filled in.
 */
void uet_sync_realtime_port_drops(const struct uet_sync_realtime *r, uint32_t i,
				  struct uet_sync_port_drops *d);

/**
 * @return
 *   The role's work so far: frames received and sent, events run. A poll
 *   that leaves it unchanged found nothing to do (the caller may nap).
 */
uint64_t uet_sync_realtime_work(const struct uet_sync_realtime *r);

/** @return the error text ("" while there is none). */
const char *uet_sync_realtime_error(const struct uet_sync_realtime *r);

/** Free a role and the frames it holds. NULL is accepted. */
void uet_sync_realtime_free(struct uet_sync_realtime *r);

#endif /* UET_SYNC_REALTIME_H */
