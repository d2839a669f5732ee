/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The participant clock role (uet-nic): one lib/sync participant per
 * hosted NIC, each on its own real port to uet-switch, the NICs' side of
 * lockstep frames on Ethernet ports (docs/lockstep.md), polled in this
 * thread or over the process's lcores (run_poll.c, run_nic_lcores.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "uet_host_addr.h"
#include "uet_nic.h"
#include "uet_sync_ports.h"
#include "run_clock.h"
#include "run_private.h"
#include "run_workload.h"

/* A program's completions over ports (run_workload_notes.c): this
 * process's log goes out with its last NIC's notes of a window; every
 * port takes the window's notes, the first to come replays and flushes. */
static int participant_notes_out(void *arg, uet_time_t window_end_ps,
				 const void **bytes, size_t *len)
{
	struct run *run = arg;

	return run_wl_notes_out(run->wl_notes, window_end_ps, bytes, len);
}

static int participant_notes_in(void *arg, uet_time_t window_end_ps,
				const void *bytes, size_t len)
{
	struct run *run = arg;

	return run_wl_notes_in(run->wl_notes, window_end_ps, bytes, len, NULL);
}

static int participant_open(struct run *run, uint64_t scenario_hash)
{
	uet_time_t lookahead_ps;
	uint32_t i;
	int rc;

	run->pa = calloc(run->hosts, sizeof(*run->pa));
	run->pa_ctx = calloc(run->hosts, sizeof(*run->pa_ctx));
	if (run->pa == NULL || run->pa_ctx == NULL)
		return -ENOMEM;
	rc = run_lookahead(run, &lookahead_ps);
	if (rc == 0)
		rc = run_open_ports(run);
	if (rc == 0 && run->wl != NULL)
		rc = run_wl_notes_create(&run->wl_notes, run->wl, run->first,
					 run->count);
	if (rc < 0)
		return rc;
	for (i = 0; i < run->count; i++) {
		uint32_t h = run->first + i;
		struct uet_sync_participant_conf pc = {
			.port = run->nic_port[i],
			.component = uet_nic_component(run->nic[i]),
			.pool = run->mp,
			.nic_id = (uint16_t)h,
			.ipv4 = uet_host_ipv4(h),
			.scenario_hash = scenario_hash,
			.timeout_ms = run->conf->timeout_ms,
			.startup_timeout_ms = run->conf->startup_timeout_ms,
			.window_fn = run_clock_on_nic_window,
			.window_arg = &run->pa_ctx[i],
			.notes_out_fn =
				run->wl != NULL ? participant_notes_out : NULL,
			.notes_in_fn =
				run->wl != NULL ? participant_notes_in : NULL,
			.notes_arg = run,
			.wants_notes = run->wl != NULL,
		};

		run->pa_ctx[i].run = run;
		run->pa_ctx[i].i = i;
		uet_host_mac(h, pc.mac);
		rc = uet_sync_participant_create(&run->pa[i], &pc);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int participant_run(struct run *run)
{
	int rc = run_poll(run);

	/* Waiting for WELCOME (the switch's pools and ports still being
	 * made) is set-up: the run's wall time starts with the windows. */
	run->start_ns = run->cpu0.mono_ns;
	/* The BYE must not be lost with the link. */
	if (rc == 0)
		run_linger(run);
	return rc;
}

/* Each NIC says why it stopped (report). */
static const char *participant_error(const struct run *run)
{
	(void)run;
	return "";
}

static void participant_report(struct run *run, int rc,
			       struct uet_run_result *res)
{
	struct uet_sync_stats st;
	uint32_t i;

	for (i = 0; rc < 0 && run->pa != NULL && i < run->count; i++)
		if (run->pa[i] != NULL &&
		    uet_sync_participant_error(run->pa[i])[0] != '\0')
			fprintf(stderr, "%s: %s\n", run->prog,
				uet_sync_participant_error(run->pa[i]));
	if (run->pa == NULL || run->count == 0 || run->pa[0] == NULL)
		return;
	run_window_split(run);
	uet_sync_participant_stats(run->pa[0], &st);
	res->virtual_ps = st.now_ps;
	res->windows = st.windows;
	res->events = run_total_events(run);
}

static void participant_close(struct run *run)
{
	uint32_t i;

	for (i = 0; run->pa != NULL && i < run->count; i++)
		uet_sync_participant_free(run->pa[i]);
	free(run->pa);
	free(run->pa_ctx);
	run->pa = NULL;
	run->pa_ctx = NULL;
	run_wl_notes_free(run->wl_notes);
	run->wl_notes = NULL;
}

const struct run_clock_ops run_clock_participant = {
	.name = "participant",
	.open = participant_open,
	.run = participant_run,
	.error = participant_error,
	.report = participant_report,
	.close = participant_close,
};
