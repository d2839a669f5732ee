/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The realtime side of the shared wiring (uet_run.c): one lib/sync
 * realtime role per hosted component, polled in turn with sleeps until
 * the next thing to do, the end conditions of a run with no BYE, and
 * uet-realtime.csv.
 */
#ifndef RUN_REALTIME_H
#define RUN_REALTIME_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "uet_lateness.h"
#include "uet_sync_realtime.h"

/** What the realtime roles of a process are made from. */
struct run_rt_conf {
	const char *prog;		/**< prefix of messages */
	struct uet_sync_rt_clock clock; /**< the run's clock */
	uet_time_t end_ps;		/**< run.end */
	uint32_t timeout_ms;		/**< port stall bound, 0: default */
	/** The switch component and its ports (one per host), or NULL. */
	struct uet_component *sw;
	struct uet_port *const *sw_ports;
	uint32_t sw_n_ports;
	/** The hosted NICs' components, their ports and names. */
	struct uet_component *const *nics;
	struct uet_port *const *nic_ports;
	const uint32_t *nic_ipv4; /**< host order */
	uint32_t n_nics;
};

/**
 * When a process is done before run.end: the NICs' side says their work
 * is over (then they linger), the switch's that it has been idle long
 * enough.
 */
typedef bool (*run_rt_done_fn)(void *arg);

struct run_rt;

/** Make the roles; -EINVAL, -ENOMEM (a message is printed). */
int run_rt_create(struct run_rt **rtp, const struct run_rt_conf *conf);

/**
 * Poll every role until the clock reaches run.end, stop is set (a normal
 * end in realtime: a switch serving external hosts runs until told), the
 * NICs are done (done_fn) and have lingered linger_ms, or the switch
 * heard nothing and held nothing for idle_ms of wall time.
 *
 * @return
 *   0, or the first negative errno of a role (its text printed).
 */
int run_rt_poll(struct run_rt *rt, const volatile sig_atomic_t *stop,
		run_rt_done_fn done_fn, void *done_arg, uint32_t linger_ms,
		uint32_t idle_ms);

/** Virtual time reached, events run and the lateness of every role. */
void run_rt_totals(const struct run_rt *rt, uet_time_t *now_ps,
		   uint64_t *events, struct uet_lateness *lateness);

/** Write OUT/uet-realtime.csv; 0 or a negative errno. */
int run_rt_write(const struct run_rt *rt, const char *out_dir);

/** One line of lateness per role on f. */
void run_rt_summary(const struct run_rt *rt, FILE *f);
/* The same figures as summary.csv rows (figure,value); nothing for NULL. */
void run_rt_summary_csv(const struct run_rt *rt, FILE *f);

/**
 * Frames a port dropped before its component, by kind: the switch's port
 * i (sw_side) or hosted NIC i's port. Zeros for a role that is not there.
 */
void run_rt_port_drops(const struct run_rt *rt, bool sw_side, uint32_t i,
		       struct uet_sync_port_drops *d);

/** Free the roles (NULL accepted). */
void run_rt_free(struct run_rt *rt);

#endif /* RUN_REALTIME_H */
