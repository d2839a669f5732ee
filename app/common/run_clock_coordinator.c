/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The coordinator clock role (uet-switch): lib/sync's coordinator on one
 * real port per host, the switch's side of lockstep frames on Ethernet
 * ports (docs/lockstep.md), polled in this thread (run_poll.c) until
 * every NIC said BYE; the switch's parts run on every lcore of the EAL
 * (run.lcores).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <unistd.h>

#include <rte_lcore.h>

#include "uet_fabric.h"
#include "uet_sync_ports.h"
#include "run_clock.h"
#include "run_private.h"
#include "run_workload.h"

/* A window's notes, every uet-nic's completions of a program: this
 * process's engine replays them all and flushes, its wake-up in the
 * switch's queue before the coordinator agrees on the next window. */
static int coordinator_notes_in(void *arg, uet_time_t window_end_ps,
				const void *bytes, size_t len)
{
	struct run *run = arg;

	return run_wl_notes_in(run->wl_notes, window_end_ps, bytes, len,
			       &uet_fabric_component(run->fabric)->evq);
}

static int coordinator_open(struct run *run, uint64_t scenario_hash)
{
	const struct uet_scenario *sc = run->sc;
	uet_time_t lookahead_ps;
	int rc;

	rc = run_lookahead(run, &lookahead_ps);
	if (rc == 0)
		rc = run_open_ports(run);
	if (rc == 0 && run->wl != NULL)
		rc = run_wl_notes_create(&run->wl_notes, run->wl,
					 RUN_WL_NOTES_NO_TAG, 0);
	if (rc < 0)
		return rc;
	struct uet_sync_coordinator_conf cc = {
		.ports = run->sw_port,
		.n_ports = run->hosts,
		.component = uet_fabric_component(run->fabric),
		.pool = run->mp,
		.lookahead_ps = lookahead_ps,
		.start_ps = 0,
		.end_ps = sc->run.end_ps,
		.scenario_hash = scenario_hash,
		/* Identity only: results never depend on it. */
		.nonce_seed = run_wall_ns() ^ (uint64_t)getpid(),
		.timeout_ms = run->conf->timeout_ms,
		.startup_timeout_ms = run->conf->startup_timeout_ms,
		.progress_fn = sc->run.progress ? run_clock_on_progress : NULL,
		.progress_arg = run,
		.progress_interval_ms = 1000,
		.window_fn = run_clock_on_window,
		.window_arg = run,
		/* Every lcore the EAL has: as many as the sizing chose. */
		.lcores = rte_lcore_count(),
		.notes_in_fn = run->wl != NULL ? coordinator_notes_in : NULL,
		.notes_arg = run,
	};

	rc = uet_sync_coordinator_create(&run->co, &cc);
	if (rc == 0 && cc.lcores > 1)
		fprintf(stderr, "%s: the fabric's %u parts on %u lcores\n",
			run->prog, cc.component->parts.n, cc.lcores);
	return rc;
}

static int coordinator_run(struct run *run)
{
	int rc = run_poll(run);

	/* Over ports, waiting for the peers' HELLO (their pools and ports
	 * still being made) is set-up: the run's wall time starts with the
	 * windows, as uet-emu's does. */
	run->start_ns = run->cpu0.mono_ns;
	return rc;
}

static const char *coordinator_error(const struct run *run)
{
	return run->co != NULL ? uet_sync_coordinator_error(run->co) : "";
}

static void coordinator_report(struct run *run, int rc,
			       struct uet_run_result *res)
{
	struct uet_sync_stats st;

	(void)rc;
	if (run->co == NULL)
		return;
	run_window_split(run);
	uet_sync_coordinator_stats(run->co, &st);
	res->virtual_ps = st.now_ps;
	res->windows = st.windows;
	res->events = run_total_events(run);
}

static void coordinator_close(struct run *run)
{
	uet_sync_coordinator_free(run->co);
	run->co = NULL;
	run_wl_notes_free(run->wl_notes);
	run->wl_notes = NULL;
}

const struct run_clock_ops run_clock_coordinator = {
	.name = "coordinator",
	.open = coordinator_open,
	.run = coordinator_run,
	.error = coordinator_error,
	.report = coordinator_report,
	.close = coordinator_close,
};
