/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run's clock roles (docs/lockstep.md, docs/distributed.md): one ops
 * table a role, one file a role, picked once by what the process hosts
 * and the scenario's clock, so that a new role is a new file:
 *
 *   run_clock_local.c        uet-emu: the in-process lockstep over lcores
 *   run_clock_coordinator.c  uet-switch: lockstep frames, the switch's side
 *   run_clock_participant.c  uet-nic: lockstep frames, the NICs' side
 *   run_clock_realtime.c     any program with run.clock realtime
 *   run_clock_mpi.c          uet-emu-mpi: one run over MPI ranks (its
 *                            window's message in run_mpi_window.c, its
 *                            end in run_mpi_end.c)
 *
 * run_clock.c picks the role, checks its mandatory callbacks, and holds
 * the hooks the lockstep roles share (after a window, after the NICs'
 * phase, the progress line).
 */
#ifndef RUN_CLOCK_H
#define RUN_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_time.h"

struct run;
struct uet_run_result;
struct uet_sync_progress;

/** A clock role. Every callback is mandatory but combine. */
struct run_clock_ops {
	/** Name, for messages ("local", "coordinator", ...). */
	const char *name;
	/** Its shares run in other processes (MPI ranks): the progress
	 * line and the summary say what keeping them together costs. */
	bool sync_cost;
	/** Make the role's clock for the hosted models (ports opened where
	 * it has any); 0 or a negative errno (a message printed). */
	int (*open)(struct run *run, uint64_t scenario_hash);
	/** The run, from the first poll to the end; run->start_ns is when the
	 * windows started. 0 or a negative errno. */
	int (*run)(struct run *run);
	/** Why the run stopped, "" when the role has no text. */
	const char *(*error)(const struct run *run);
	/** Virtual time, windows and events into res, the role's own
	 * lines on stderr (rc: how the run ended). */
	void (*report)(struct run *run, int rc, struct uet_run_result *res);
	/** Optional: the hosted NICs' totals (run_totals()) made the
	 * run's, where other processes ran some of them (MPI ranks). */
	void (*combine)(struct run *run, struct uet_run_result *res);
	/** Free what open made (also after a failed open). */
	void (*close)(struct run *run);
};

extern const struct run_clock_ops run_clock_local;
extern const struct run_clock_ops run_clock_coordinator;
extern const struct run_clock_ops run_clock_participant;
extern const struct run_clock_ops run_clock_realtime;
extern const struct run_clock_ops run_clock_mpi;

/* The hooks the lockstep roles share (run_clock.c). */

/** After each switch window: stop on a fabric, workload or capture
 * failure; cross-host trigger posts; the posts' record rows. */
int run_clock_on_window(void *arg, uet_time_t window_end_ps);
/** uet-emu, after every NIC ran the window: the pool checked, their rows
 * in host order. */
int run_clock_on_nics_done(void *arg, uet_time_t window_end_ps);
/** uet-nic, after one of its NICs' windows (on that NIC's lcore). */
int run_clock_on_nic_window(void *arg, uet_time_t window_end_ps);
/** The progress line (run.progress), once a wall second. */
void run_clock_on_progress(void *arg, const struct uet_sync_progress *p);
/** Where the windows' wall time went, in the closing summary: per window,
 * the model's work, the sync cost and their ratio. */
void run_clock_sync_line(const struct run *run, uint64_t windows,
			 uint64_t model_ns, uint64_t sync_ns);

#endif /* RUN_CLOCK_H */
