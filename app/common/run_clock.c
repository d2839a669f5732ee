/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run's clock (run_clock.h): the role picked by what the process
 * hosts and the scenario's clock, its mandatory callbacks checked, and
 * the hooks its lockstep roles share: after each window (fabric errors,
 * cross-host trigger posts, captures, the NICs' record rows), after the
 * NICs' phase, the progress line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "uet_fabric.h"
#include "uet_nic.h"
#include "uet_sync.h"
#include "run_clock.h"
#include "run_private.h"
#include "run_workload.h"

/* The lookahead, min(nic.Delay, topology.link_delay), derived by lib/config
 * (whose rules refuse 0 in lockstep; checked again for a hand-built
 * scenario). */
int run_lookahead(const struct run *run, uet_time_t *lookahead_ps)
{
	const uet_time_t l = run->sc->derived.lookahead_ps;

	if (l == 0) {
		fprintf(stderr,
			"%s: lockstep needs nic.Delay and "
			"topology.link_delay above 0 (the lookahead)\n",
			run->prog);
		return -EINVAL;
	}
	*lookahead_ps = l;
	return 0;
}

int run_clock_on_window(void *arg, uet_time_t window_end_ps)
{
	struct run *run = arg;
	int rc;

	(void)window_end_ps;
	rc = uet_fabric_error(run->fabric);
	if (rc < 0)
		return rc;
	/* Every NIC has run the window: cross-host trigger posts now;
	 * over ports once the window's notes are in (run_workload_notes.c). */
	if (run->wl != NULL && run->wl_notes == NULL &&
	    run_wl_flush(run->wl, &uet_fabric_component(run->fabric)->evq) < 0)
		return run_wl_error(run->wl);
	if (run->wl != NULL && run_wl_error(run->wl) < 0)
		return run_wl_error(run->wl);
	if (run->cap_err < 0)
		return run->cap_err;
	/* The posts just made wrote rows: they go before the next window's. */
	return run_flush_nic_records(run);
}

/*
 * A frame a NIC could not build for want of an mbuf is a frame the model
 * never sent: stop the run, naming the pool and the key, rather than let
 * it recover (or stall) on a loss the scenario did not ask for.
 */
static int check_pool(struct run *run, uint32_t first, uint32_t count,
		      uet_time_t window_end_ps)
{
	char vt[UET_UNITS_FMT_LEN];
	uint32_t i;

	for (i = first; i < first + count; i++) {
		if (uet_nic_mbuf_failures(run->nic[i]) == 0)
			continue;
		uet_time_format(window_end_ps, vt, sizeof(vt));
		fprintf(stderr,
			"%s: the mbuf pool %s (%u mbufs, %s) ran dry before "
			"%s of virtual time: nic %u could not build a frame. "
			"More frames were in flight than it holds; set "
			"run.mbufs above %u (docs/performance.md, "
			"\"Sizing\")\n",
			run->prog, RUN_POOL_NAME, run->pool_mbufs,
			run->pool_derived ? "derived from the scenario"
					  : "run.mbufs",
			vt, run->first + i, run->pool_mbufs);
		return -ENOBUFS;
	}
	return 0;
}

int run_clock_on_nics_done(void *arg, uet_time_t window_end_ps)
{
	struct run *run = arg;
	int rc = check_pool(run, 0, run->count, window_end_ps);

	return rc < 0 ? rc : run_flush_nic_records(run);
}

int run_clock_on_nic_window(void *arg, uet_time_t window_end_ps)
{
	const struct run_nic_ctx *c = arg;
	int rc = check_pool(c->run, c->i, 1, window_end_ps);

	return rc < 0 ? rc : run_flush_nic_record(c->run, c->i);
}

void run_clock_on_progress(void *arg, const struct uet_sync_progress *p)
{
	struct run *run = arg;
	char vt[UET_UNITS_FMT_LEN];
	uint64_t events = run_total_events(run);
	uint64_t per_s =
		p->wall_ns ? events * 1000u / (p->wall_ns / 1000000u + 1) : 0;

	uet_time_format(p->now_ps, vt, sizeof(vt));
	fprintf(stderr,
		"%s: virtual %s, %u/%u messages done, %" PRIu64
		" windows, %" PRIu64 " events/s",
		run->prog, vt, run->completed, run->n_messages, p->windows,
		per_s);
	/* Shares in other processes: what keeping them together costs. */
	if (run->clock->sync_cost && p->windows > 0)
		fprintf(stderr, ", sync %.1f us a window, model/sync %.2f",
			(double)p->sync_ns / 1e3 / (double)p->windows,
			p->sync_ns > 0
				? (double)p->model_ns / (double)p->sync_ns
				: 0.0);
	fputc('\n', stderr);
}

void run_clock_sync_line(const struct run *run, uint64_t windows,
			 uint64_t model_ns, uint64_t sync_ns)
{
	if (windows == 0)
		return;
	fprintf(stderr,
		"%s: per window: model %.1f us, sync %.1f us (model/sync "
		"%.2f; %" PRIu64 " windows)\n",
		run->prog, (double)model_ns / 1e3 / (double)windows,
		(double)sync_ns / 1e3 / (double)windows,
		sync_ns > 0 ? (double)model_ns / (double)sync_ns : 0.0,
		windows);
}

/* Which role: realtime whatever the process hosts, else by role. */
static const struct run_clock_ops *run_clock_pick(const struct run *run)
{
	/* Over ranks the role says what it cannot run (realtime). */
	if (run->conf->ranks != NULL)
		return &run_clock_mpi;
	if (run->sc->run.clock == UET_CLOCK_REALTIME)
		return &run_clock_realtime;
	switch (run->conf->role) {
	case UET_RUN_EMBEDDED:
		return &run_clock_local;
	case UET_RUN_SWITCH:
		return &run_clock_coordinator;
	default:
		return &run_clock_participant;
	}
}

int run_clock_open(struct run *run, uint64_t scenario_hash)
{
	const struct run_clock_ops *ops = run_clock_pick(run);

	/* Registration: every callback of a role is mandatory. */
	if (ops->open == NULL || ops->run == NULL || ops->error == NULL ||
	    ops->report == NULL || ops->close == NULL) {
		fprintf(stderr, "%s: the %s clock role is incomplete\n",
			run->prog, ops->name);
		return -EINVAL;
	}
	run->clock = ops;
	return ops->open(run, scenario_hash);
}

int run_clock_poll(struct run *run)
{
	run->start_ns = run_wall_ns();
	return run->clock->run(run);
}

void run_clock_report(struct run *run, int rc, struct uet_run_result *res)
{
	if (run->clock == NULL)
		return;
	if (rc < 0) {
		const char *why = run->clock->error(run);

		fprintf(stderr, "%s: the run stopped: %s\n", run->prog,
			why[0] != '\0' ? why : strerror(-rc));
	}
	run->clock->report(run, rc, res);
}

void run_close_clock(struct run *run)
{
	if (run->clock != NULL)
		run->clock->close(run);
}
