/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The realtime clock role (run.clock realtime, any program): one lib/sync
 * realtime role per hosted component on its real or ring ports, virtual
 * time from the wall clock shared with the other processes of the run
 * (docs/lockstep.md, "Realtime"; the polling in run_realtime.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "uet_fabric.h"
#include "uet_host_addr.h"
#include "uet_nic.h"
#include "uet_port.h"
#include "run_clock.h"
#include "run_private.h"
#include "run_realtime.h"

/* The ports, then one realtime role per hosted component, on a clock
 * shared with the other processes of the run. */
static int realtime_open(struct run *run, uint64_t scenario_hash)
{
	struct uet_component **comps;
	uint32_t *ips;
	struct run_rt_conf c = {
		.prog = run->prog,
		.clock = {.epoch_ns = run->conf->rt_epoch_ns,
			  .dilation = run->sc->run.time_dilation},
		.end_ps = run->sc->run.end_ps,
		.timeout_ms = run->conf->timeout_ms,
	};
	uint32_t i;
	int rc;

	(void)scenario_hash;
	rc = run_open_ports(run);
	if (rc < 0)
		return rc;
	comps = calloc(run->count + 1u, sizeof(*comps));
	ips = calloc(run->count + 1u, sizeof(*ips));
	if (comps == NULL || ips == NULL) {
		free(comps);
		free(ips);
		return -ENOMEM;
	}
	for (i = 0; i < run->count; i++) {
		comps[i] = uet_nic_component(run->nic[i]);
		ips[i] = uet_host_ipv4(run->first + i);
	}
	if (run->has_switch) {
		c.sw = uet_fabric_component(run->fabric);
		c.sw_ports = run->sw_port;
		c.sw_n_ports = run->hosts;
	}
	c.nics = comps;
	c.nic_ports = run->nic_port;
	c.nic_ipv4 = ips;
	c.n_nics = run->count;
	if (c.clock.epoch_ns == 0)
		c.clock.epoch_ns = run_wall_ns();
	else if (c.clock.epoch_ns < run_wall_ns())
		fprintf(stderr,
			"%s: ready %" PRIu64 " ms after the run's start: "
			"the first events run late\n",
			run->prog,
			(run_wall_ns() - c.clock.epoch_ns) / 1000000u);
	for (i = 0; run->has_switch && i < run->hosts; i++)
		if (uet_scenario_host_external(run->sc, i))
			fprintf(stderr,
				"%s: port %s faces host %u, an external UET "
				"endpoint\n",
				run->prog, uet_port_name(run->sw_port[i]), i);
	rc = run_rt_create(&run->rt, &c);
	free(comps);
	free(ips);
	return rc;
}

/* A NICs process is done when every message it sends has
 * completed and every message it receives has arrived. */
static bool run_rt_done(void *arg)
{
	const struct run *run = arg;

	return run->wl == NULL && run->completed >= run->conf_messages &&
	       run->arrived >= run->to_arrive;
}

/* Until run.end, a stop, the NICs done and lingered, or the switch idle
 * (res->wall_ns is the wall time of it). */
static int realtime_run(struct run *run)
{
	const struct uet_run_conf *conf = run->conf;

	return run_rt_poll(run->rt, conf->stop, run_rt_done, run,
			   conf->rt_linger_ms ? conf->rt_linger_ms : 1000u,
			   conf->timeout_ms ? conf->timeout_ms
					    : UET_SYNC_TIMEOUT_MS_DEFAULT);
}

/* Each role printed its own failure (run_realtime.c). */
static const char *realtime_error(const struct run *run)
{
	(void)run;
	return "";
}

static void realtime_report(struct run *run, int rc, struct uet_run_result *res)
{
	(void)rc;
	if (run->rt == NULL)
		return;
	run_rt_totals(run->rt, &res->virtual_ps, &res->events, &res->lateness);
	if (run_rt_write(run->rt, run->sc->run.out) < 0)
		fprintf(stderr, "%s: writing uet-realtime.csv failed\n",
			run->prog);
}

static void realtime_close(struct run *run)
{
	run_rt_free(run->rt);
	run->rt = NULL;
}

const struct run_clock_ops run_clock_realtime = {
	.name = "realtime",
	.open = realtime_open,
	.run = realtime_run,
	.error = realtime_error,
	.report = realtime_report,
	.close = realtime_close,
};
