/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The local clock role (uet-emu): lib/sync's in-process lockstep, the
 * switch and every NIC of the scenario in this process, the NICs and the
 * fabric's parts spread over the EAL's lcores (docs/lockstep.md, "In one
 * process"; docs/performance.md, "Worker lcores").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_lcore.h>

#include "uet_fabric.h"
#include "uet_nic.h"
#include "uet_sync_local.h"
#include "uet_xring.h"
#include "run_clock.h"
#include "run_private.h"
#include "run_workload.h"

/*
 * The in-process lockstep over every EAL lcore (run.lcores asked the EAL
 * for them), the NICs spread over them in host order.
 */
static int local_open(struct run *run, uint64_t scenario_hash)
{
	const struct uet_scenario *sc = run->sc;
	struct uet_sync_local_conf lc = {
		.sw = uet_fabric_component(run->fabric),
		.n_nics = run->count,
		.start_ps = 0,
		.end_ps = sc->run.end_ps,
		.nics_done_fn = run_clock_on_nics_done,
		.window_fn = run_clock_on_window,
		.window_arg = run,
		.progress_fn = sc->run.progress ? run_clock_on_progress : NULL,
		.progress_arg = run,
		.progress_interval_ms = 1000,
		.stop = run->conf->stop,
	};
	unsigned int ids[RTE_MAX_LCORE], id;
	struct uet_component **comps;
	uint32_t n = 0, i;
	int rc;

	(void)scenario_hash;
	rc = run_lookahead(run, &lc.lookahead_ps);
	if (rc < 0)
		return rc;
	/* A NIC's rings hold what its link can carry in a window: the
	 * faster of its data rate and its downlink bounds both ways. */
	lc.ring_frames = uet_xring_frames_per_window(
		sc->nic.data_rate_bps > sc->topology.link_rate_bps
			? sc->nic.data_rate_bps
			: sc->topology.link_rate_bps,
		lc.lookahead_ps);
	comps = calloc(run->count, sizeof(*comps));
	if (comps == NULL)
		return -ENOMEM;
	for (i = 0; i < run->count; i++)
		comps[i] = uet_nic_component(run->nic[i]);
	ids[n++] = rte_get_main_lcore();
	RTE_LCORE_FOREACH_WORKER(id)
	{
		ids[n++] = id;
	}
	lc.nics = comps;
	lc.lcore_ids = ids;
	lc.n_lcores = n;
	rc = uet_sync_local_create(&run->local, &lc);
	free(comps);
	/* Rows written while the run was set up (the posts) come first. */
	if (rc == 0)
		rc = run_flush_nic_records(run);
	return rc;
}

/*
 * How the embedded run's lcores spent the loop: each one's busy time in
 * the NICs' phases and the switch's, and what is left of the loop's wall
 * time (barriers, and on lcore 0 the serial steps between the phases).
 * Shows whether more lcores wait on an unbalanced share or on the
 * machine (docs/performance.md).
 */
static void run_lcore_balance(const struct run *run, uint64_t wall_ns)
{
	const uint32_t n = uet_sync_local_lcores(run->local);
	uint64_t nics_ns, sw_ns;
	uint32_t i;

	for (i = 0; n > 1 && i < n; i++) {
		if (uet_sync_local_lcore_busy(run->local, i, &nics_ns, &sw_ns) <
		    0)
			return;
		fprintf(stderr,
			"%s: lcore %u of %u: NIC phases %.1f ms, switch phases "
			"%.1f ms, the rest %.1f ms; %" PRIu64
			" parts taken from other lcores\n",
			run->prog, i, n, (double)nics_ns / 1e6,
			(double)sw_ns / 1e6,
			wall_ns > nics_ns + sw_ns
				? (double)(wall_ns - nics_ns - sw_ns) / 1e6
				: 0.0,
			uet_sync_local_lcore_parts_taken(run->local, i));
	}
}

static int local_run(struct run *run)
{
	return uet_sync_local_run(run->local);
}

static const char *local_error(const struct run *run)
{
	return run->local != NULL ? uet_sync_local_error(run->local) : "";
}

static void local_report(struct run *run, int rc, struct uet_run_result *res)
{
	struct uet_sync_stats st;

	(void)rc;
	if (run->local == NULL)
		return;
	uet_sync_local_stats(run->local, &st);
	/* The figure bench-ports divides the runs over ports by. */
	if (st.windows > 0) {
		fprintf(stderr,
			"%s: wall per lockstep window: %.1f us (%" PRIu64
			" windows, %.3f ms)\n",
			run->prog,
			(double)res->wall_ns / 1e3 / (double)st.windows,
			st.windows, (double)res->wall_ns / 1e6);
		run_lcore_balance(run, res->wall_ns);
	}
	res->virtual_ps = st.now_ps;
	res->windows = st.windows;
	res->events = run_total_events(run);
}

static void local_close(struct run *run)
{
	uet_sync_local_free(run->local);
	run->local = NULL;
}

const struct run_clock_ops run_clock_local = {
	.name = "local",
	.open = local_open,
	.run = local_run,
	.error = local_error,
	.report = local_report,
	.close = local_close,
};
