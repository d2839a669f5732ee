/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run's clock: in lockstep, lib/sync's coordinator for the switch and
 * one participant per hosted NIC, polled round-robin in this thread or,
 * in a uet-nic hosting several NICs, over its lcores (run_nic_lcores.c)
 * (docs/lockstep.md); in realtime, one realtime role per hosted component
 * on a clock shared with the other processes (run_realtime.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_lcore.h>

#include "uet_fabric.h"
#include "uet_host_addr.h"
#include "uet_nic.h"
#include "uet_port.h"
#include "uet_sync_local.h"
#include "uet_sync_ports.h"
#include "uet_xring.h"
#include "run_private.h"
#include "run_realtime.h"
#include "run_workload.h"

/* The lookahead, min(nic.Delay, topology.link_delay), derived by lib/config
 * (whose rules refuse 0 in lockstep; checked again for a hand-built
 * scenario). */
int run_lookahead(const struct run *e, uet_time_t *lookahead_ps)
{
	const uet_time_t l = e->sc->derived.lookahead_ps;

	if (l == 0) {
		fprintf(stderr,
			"%s: lockstep needs nic.Delay and "
			"topology.link_delay above 0 (the lookahead)\n",
			e->prog);
		return -EINVAL;
	}
	*lookahead_ps = l;
	return 0;
}

/* After each switch window: stop on a fabric or capture failure. */
static int on_window(void *arg, uet_time_t window_end_ps)
{
	struct run *e = arg;
	int rc;

	(void)window_end_ps;
	rc = uet_fabric_error(e->fabric);
	if (rc < 0)
		return rc;
	/* Every NIC has run the window: cross-host trigger posts now. */
	if (e->wl != NULL &&
	    run_wl_flush(e->wl, &uet_fabric_component(e->fabric)->evq) < 0)
		return run_wl_error(e->wl);
	if (e->wl != NULL && run_wl_error(e->wl) < 0)
		return run_wl_error(e->wl);
	if (e->cap_err < 0)
		return e->cap_err;
	/* The posts just made wrote rows: they go before the next window's. */
	return run_flush_nic_records(e);
}

/*
 * A frame a NIC could not build for want of an mbuf is a frame the model
 * never sent: stop the run, naming the pool and the key, rather than let
 * it recover (or stall) on a loss the scenario did not ask for.
 */
static int check_pool(struct run *e, uint32_t first, uint32_t count,
		      uet_time_t window_end_ps)
{
	char vt[UET_UNITS_FMT_LEN];
	uint32_t i;

	for (i = first; i < first + count; i++) {
		if (uet_nic_mbuf_failures(e->nic[i]) == 0)
			continue;
		uet_time_format(window_end_ps, vt, sizeof(vt));
		fprintf(stderr,
			"%s: the mbuf pool %s (%u mbufs, %s) ran dry before "
			"%s of virtual time: nic %u could not build a frame. "
			"More frames were in flight than it holds; set "
			"run.mbufs above %u (docs/performance.md, "
			"\"Sizing\")\n",
			e->prog, RUN_POOL_NAME, e->pool_mbufs,
			e->pool_derived ? "derived from the scenario"
					: "run.mbufs",
			vt, e->first + i, e->pool_mbufs);
		return -ENOBUFS;
	}
	return 0;
}

/* uet-emu, after every NIC ran the window: their rows, in host order. */
static int on_nics_done(void *arg, uet_time_t window_end_ps)
{
	struct run *e = arg;
	int rc = check_pool(e, 0, e->count, window_end_ps);

	return rc < 0 ? rc : run_flush_nic_records(e);
}

/* uet-nic, after one of its NICs' windows (on that NIC's lcore). */
static int on_nic_window(void *arg, uet_time_t window_end_ps)
{
	const struct run_nic_ctx *c = arg;
	int rc = check_pool(c->e, c->i, 1, window_end_ps);

	return rc < 0 ? rc : run_flush_nic_record(c->e, c->i);
}

static void on_progress(void *arg, const struct uet_sync_progress *p)
{
	struct run *e = arg;
	char vt[UET_UNITS_FMT_LEN];
	uint64_t events = run_total_events(e);
	uint64_t per_s =
		p->wall_ns ? events * 1000u / (p->wall_ns / 1000000u + 1) : 0;

	uet_time_format(p->now_ps, vt, sizeof(vt));
	fprintf(stderr,
		"%s: virtual %s, %u/%u messages done, %" PRIu64
		" windows, %" PRIu64 " events/s\n",
		e->prog, vt, e->completed, e->n_messages, p->windows, per_s);
}

/* The lockstep roles hosted here. */
int run_open_sync(struct run *e, uint64_t hash)
{
	const struct uet_scenario *sc = e->sc;
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
	if (e->has_switch) {
		struct uet_sync_coordinator_conf cc = {
			.ports = e->sw_port,
			.n_ports = e->hosts,
			.component = uet_fabric_component(e->fabric),
			.pool = e->mp,
			.lookahead_ps = lookahead_ps,
			.start_ps = 0,
			.end_ps = sc->run.end_ps,
			.scenario_hash = hash,
			/* Identity only: results never depend on it. */
			.nonce_seed = run_wall_ns() ^ (uint64_t)getpid(),
			.timeout_ms = e->conf->timeout_ms,
			.startup_timeout_ms = e->conf->startup_timeout_ms,
			.progress_fn = sc->run.progress ? on_progress : NULL,
			.progress_arg = e,
			.progress_interval_ms = 1000,
			.window_fn = on_window,
			.window_arg = e,
		};

		rc = uet_sync_coordinator_create(&e->co, &cc);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < e->count; i++) {
		uint32_t h = e->first + i;
		struct uet_sync_participant_conf pc = {
			.port = e->nic_port[i],
			.component = uet_nic_component(e->nic[i]),
			.pool = e->mp,
			.nic_id = (uint16_t)h,
			.ipv4 = uet_host_ipv4(h),
			.scenario_hash = hash,
			.timeout_ms = e->conf->timeout_ms,
			.startup_timeout_ms = e->conf->startup_timeout_ms,
			.window_fn = on_nic_window,
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

/*
 * uet-emu: the in-process lockstep over every EAL lcore (run.lcores asked
 * the EAL for them), the NICs spread over them in host order.
 */
int run_open_local(struct run *e)
{
	const struct uet_scenario *sc = e->sc;
	struct uet_sync_local_conf lc = {
		.sw = uet_fabric_component(e->fabric),
		.n_nics = e->count,
		.start_ps = 0,
		.end_ps = sc->run.end_ps,
		.nics_done_fn = on_nics_done,
		.window_fn = on_window,
		.window_arg = e,
		.progress_fn = sc->run.progress ? on_progress : NULL,
		.progress_arg = e,
		.progress_interval_ms = 1000,
		.stop = e->conf->stop,
	};
	unsigned int ids[RTE_MAX_LCORE], id;
	struct uet_component **comps;
	uint32_t n = 0, i;
	int rc;

	rc = run_lookahead(e, &lc.lookahead_ps);
	if (rc < 0)
		return rc;
	/* A NIC's rings hold what its link can carry in a window: the
	 * faster of its data rate and its downlink bounds both ways. */
	lc.ring_frames = uet_xring_frames_per_window(
		sc->nic.data_rate_bps > sc->topology.link_rate_bps
			? sc->nic.data_rate_bps
			: sc->topology.link_rate_bps,
		lc.lookahead_ps);
	comps = calloc(e->count, sizeof(*comps));
	if (comps == NULL)
		return -ENOMEM;
	for (i = 0; i < e->count; i++)
		comps[i] = uet_nic_component(e->nic[i]);
	ids[n++] = rte_get_main_lcore();
	RTE_LCORE_FOREACH_WORKER(id)
	{
		ids[n++] = id;
	}
	/* A connection matrix's triggers tie ranks together through the
	 * workload engine: such runs take their NICs in host order on one
	 * lcore, so that trigger counts build up in the same order. */
	if (e->wl != NULL && run_wl_ties_ranks(e->wl))
		n = 1;
	lc.nics = comps;
	lc.lcore_ids = ids;
	lc.n_lcores = n;
	rc = uet_sync_local_create(&e->local, &lc);
	free(comps);
	/* Rows written while the run was set up (the posts) come first. */
	if (rc == 0)
		rc = run_flush_nic_records(e);
	return rc;
}

/* Realtime: the ports, then one realtime role per hosted component, on a
 * clock shared with the other processes of the run. */
int run_open_rt(struct run *e)
{
	struct uet_component **comps;
	uint32_t *ips;
	struct run_rt_conf c = {
		.prog = e->prog,
		.clock = {.epoch_ns = e->conf->rt_epoch_ns,
			  .dilation = e->sc->run.time_dilation},
		.end_ps = e->sc->run.end_ps,
		.timeout_ms = e->conf->timeout_ms,
	};
	uint32_t i;
	int rc;

	rc = run_open_ports(e);
	if (rc < 0)
		return rc;
	comps = calloc(e->count + 1u, sizeof(*comps));
	ips = calloc(e->count + 1u, sizeof(*ips));
	if (comps == NULL || ips == NULL) {
		free(comps);
		free(ips);
		return -ENOMEM;
	}
	for (i = 0; i < e->count; i++) {
		comps[i] = uet_nic_component(e->nic[i]);
		ips[i] = uet_host_ipv4(e->first + i);
	}
	if (e->has_switch) {
		c.sw = uet_fabric_component(e->fabric);
		c.sw_ports = e->sw_port;
		c.sw_n_ports = e->hosts;
	}
	c.nics = comps;
	c.nic_ports = e->nic_port;
	c.nic_ipv4 = ips;
	c.n_nics = e->count;
	if (c.clock.epoch_ns == 0)
		c.clock.epoch_ns = run_wall_ns();
	else if (c.clock.epoch_ns < run_wall_ns())
		fprintf(stderr,
			"%s: ready %" PRIu64 " ms after the run's start: "
			"the first events run late\n",
			e->prog, (run_wall_ns() - c.clock.epoch_ns) / 1000000u);
	for (i = 0; e->has_switch && i < e->hosts; i++)
		if (uet_scenario_host_external(e->sc, i))
			fprintf(stderr,
				"%s: port %s faces host %u, an external UET "
				"endpoint\n",
				e->prog, uet_port_name(e->sw_port[i]), i);
	rc = run_rt_create(&e->rt, &c);
	free(comps);
	free(ips);
	return rc;
}

/* Realtime: a NICs process is done when every message it sends has
 * completed and every message it receives has arrived. */
static bool run_rt_done(void *arg)
{
	const struct run *e = arg;

	return e->wl == NULL && e->completed >= e->conf_messages &&
	       e->arrived >= e->to_arrive;
}

/* The run itself, from the first poll to the end (BYE, run.end in
 * realtime, a failure or a stop); res->wall_ns is its wall time. */
int run_clock_poll(struct run *e)
{
	const struct uet_run_conf *conf = e->conf;
	int rc;

	e->start_ns = run_wall_ns();
	if (e->local != NULL)
		return uet_sync_local_run(e->local);
	if (e->rt != NULL)
		return run_rt_poll(
			e->rt, conf->stop, run_rt_done, e,
			conf->rt_linger_ms ? conf->rt_linger_ms : 1000u,
			conf->timeout_ms ? conf->timeout_ms
					 : UET_SYNC_TIMEOUT_MS_DEFAULT);
	rc = run_poll(e);
	/* Over ports, waiting for the peers' HELLO or WELCOME (their pools
	 * and ports still being made) is set-up: the run's wall time starts
	 * with the windows, as uet-emu's does. */
	e->start_ns = e->cpu0.mono_ns;
	/* Lockstep: the BYE must not be lost with the link. */
	if (rc == 0 && conf->role == UET_RUN_NICS)
		run_linger(e);
	return rc;
}
/*
 * How the embedded run's lcores spent the loop: each one's busy time in
 * the NICs' phases and the switch's, and what is left of the loop's wall
 * time (barriers, and on lcore 0 the serial steps between the phases).
 * Shows whether more lcores wait on an unbalanced share or on the
 * machine (docs/performance.md).
 */
static void run_lcore_balance(const struct run *e, uint64_t wall_ns)
{
	const uint32_t n = uet_sync_local_lcores(e->local);
	uint64_t nics_ns, sw_ns;
	uint32_t i;

	for (i = 0; n > 1 && i < n; i++) {
		if (uet_sync_local_lcore_busy(e->local, i, &nics_ns, &sw_ns) <
		    0)
			return;
		fprintf(stderr,
			"%s: lcore %u of %u: NIC phases %.1f ms, switch phases "
			"%.1f ms, the rest %.1f ms; %" PRIu64
			" parts taken from other lcores\n",
			e->prog, i, n, (double)nics_ns / 1e6,
			(double)sw_ns / 1e6,
			wall_ns > nics_ns + sw_ns
				? (double)(wall_ns - nics_ns - sw_ns) / 1e6
				: 0.0,
			uet_sync_local_lcore_parts_taken(e->local, i));
	}
}

/* Why the run stopped (when it did), and where the clock got to. */
void run_clock_report(struct run *e, int rc, struct uet_run_result *res)
{
	struct uet_sync_stats st;
	uint32_t i;

	if (rc < 0) {
		const char *why =
			e->co != NULL	   ? uet_sync_coordinator_error(e->co)
			: e->local != NULL ? uet_sync_local_error(e->local)
					   : "";

		fprintf(stderr, "%s: the run stopped: %s\n", e->prog,
			why[0] != '\0' ? why : strerror(-rc));
		for (i = 0; e->pa != NULL && i < e->count; i++)
			if (uet_sync_participant_error(e->pa[i])[0] != '\0')
				fprintf(stderr, "%s: %s\n", e->prog,
					uet_sync_participant_error(e->pa[i]));
	}
	if (e->rt != NULL) {
		run_rt_totals(e->rt, &res->virtual_ps, &res->events,
			      &res->lateness);
		if (run_rt_write(e->rt, e->sc->run.out) < 0)
			fprintf(stderr, "%s: writing uet-realtime.csv failed\n",
				e->prog);
		return;
	}
	if (e->local == NULL)
		run_window_split(e);
	if (e->local != NULL) {
		uet_sync_local_stats(e->local, &st);
		/* The figure bench-ports divides the runs over ports by. */
		if (st.windows > 0) {
			fprintf(stderr,
				"%s: wall per lockstep window: %.1f us "
				"(%" PRIu64 " windows, %.3f ms)\n",
				e->prog,
				(double)res->wall_ns / 1e3 / (double)st.windows,
				st.windows, (double)res->wall_ns / 1e6);
			run_lcore_balance(e, res->wall_ns);
		}
	} else if (e->co != NULL)
		uet_sync_coordinator_stats(e->co, &st);
	else
		uet_sync_participant_stats(e->pa[0], &st);
	res->virtual_ps = st.now_ps;
	res->windows = st.windows;
	res->events = run_total_events(e);
}

void run_close_clock(struct run *e)
{
	uint32_t i;

	run_rt_free(e->rt);
	uet_sync_local_free(e->local);
	uet_sync_coordinator_free(e->co);
	for (i = 0; e->pa != NULL && i < e->count; i++)
		uet_sync_participant_free(e->pa[i]);
	free(e->pa);
	free(e->pa_ctx);
}
