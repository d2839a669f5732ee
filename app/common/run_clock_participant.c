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

static int participant_open(struct run *e, uint64_t scenario_hash)
{
	uet_time_t lookahead_ps;
	uint32_t i;
	int rc;

	e->pa = calloc(e->hosts, sizeof(*e->pa));
	e->pa_ctx = calloc(e->hosts, sizeof(*e->pa_ctx));
	if (e->pa == NULL || e->pa_ctx == NULL)
		return -ENOMEM;
	rc = run_lookahead(e, &lookahead_ps);
	if (rc == 0)
		rc = run_open_ports(e);
	if (rc < 0)
		return rc;
	for (i = 0; i < e->count; i++) {
		uint32_t h = e->first + i;
		struct uet_sync_participant_conf pc = {
			.port = e->nic_port[i],
			.component = uet_nic_component(e->nic[i]),
			.pool = e->mp,
			.nic_id = (uint16_t)h,
			.ipv4 = uet_host_ipv4(h),
			.scenario_hash = scenario_hash,
			.timeout_ms = e->conf->timeout_ms,
			.startup_timeout_ms = e->conf->startup_timeout_ms,
			.window_fn = run_clock_on_nic_window,
			.window_arg = &e->pa_ctx[i],
		};

		e->pa_ctx[i].e = e;
		e->pa_ctx[i].i = i;
		uet_host_mac(h, pc.mac);
		rc = uet_sync_participant_create(&e->pa[i], &pc);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int participant_run(struct run *e)
{
	int rc = run_poll(e);

	/* Waiting for WELCOME (the switch's pools and ports still being
	 * made) is set-up: the run's wall time starts with the windows. */
	e->start_ns = e->cpu0.mono_ns;
	/* The BYE must not be lost with the link. */
	if (rc == 0)
		run_linger(e);
	return rc;
}

/* Each NIC says why it stopped (report). */
static const char *participant_error(const struct run *e)
{
	(void)e;
	return "";
}

static void participant_report(struct run *e, int rc,
			       struct uet_run_result *res)
{
	struct uet_sync_stats st;
	uint32_t i;

	for (i = 0; rc < 0 && e->pa != NULL && i < e->count; i++)
		if (e->pa[i] != NULL &&
		    uet_sync_participant_error(e->pa[i])[0] != '\0')
			fprintf(stderr, "%s: %s\n", e->prog,
				uet_sync_participant_error(e->pa[i]));
	if (e->pa == NULL || e->count == 0 || e->pa[0] == NULL)
		return;
	run_window_split(e);
	uet_sync_participant_stats(e->pa[0], &st);
	res->virtual_ps = st.now_ps;
	res->windows = st.windows;
	res->events = run_total_events(e);
}

static void participant_close(struct run *e)
{
	uint32_t i;

	for (i = 0; e->pa != NULL && i < e->count; i++)
		uet_sync_participant_free(e->pa[i]);
	free(e->pa);
	free(e->pa_ctx);
	e->pa = NULL;
	e->pa_ctx = NULL;
}

const struct run_clock_ops run_clock_participant = {
	.name = "participant",
	.open = participant_open,
	.run = participant_run,
	.error = participant_error,
	.report = participant_report,
	.close = participant_close,
};
