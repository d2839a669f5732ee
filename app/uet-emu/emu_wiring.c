/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-emu's wiring: from a loaded scenario to a finished embedded run. The
 * switch (lib/fabric) and every NIC (lib/nic) are model components; each
 * NIC's link is a pair of ring ports; lib/sync's coordinator drives the
 * switch side, one participant per NIC the other, all polled round-robin
 * in this thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_mbuf.h>

#include "emu_wiring.h"
#include "emu_workload.h"
#include "uet_capture.h"
#include "uet_fabric.h"
#include "uet_host_addr.h"
#include "uet_nic.h"
#include "uet_port.h"
#include "uet_record.h"
#include "uet_ses.h"
#include "uet_sync.h"

/* The switch's MAC: outside the hosts' 02:00:00:00:xx:xx. */
static const uint8_t emu_switch_mac[6] = {0x02, 0, 0, 0x01, 0, 0};

/* Message flags, one byte per workload message. */
#define EMU_MSG_SENT 0x1u
#define EMU_MSG_ARRIVED 0x2u
#define EMU_MSG_COMPLETED 0x4u

/* Most lines of unfinished messages printed. */
#define EMU_SUMMARY_LINES 20u

/* Everything one run holds. */
struct emu {
	const struct uet_scenario *sc;
	uint32_t hosts;
	struct rte_mempool *mp;
	struct uet_port **sw_port;  /* switch side of host i's link */
	struct uet_port **nic_port; /* NIC side of host i's link */
	struct uet_fabric *fabric;
	struct uet_nic **nic;
	struct uet_capture **cap; /* port-i.pcap, NULL when pcap is off */
	int cap_err;		  /* first capture write error */
	struct uet_record *rec;
	struct uet_ses_arrivals *arrivals;
	struct uet_ses_pattern *pattern;
	struct emu_wl *wl;   /* a Chakra program, or NULL: messages */
	uint32_t n_messages; /* the list's or the program's */
	uint8_t *msg_flags;  /* by msg_id */
	uint32_t completed;
	struct uet_sync_coordinator *co;
	struct uet_sync_participant **pa;
	uint64_t start_ns;
};

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
	       (uint64_t)ts.tv_nsec;
}

/* mkdir -p: records and captures go into run.out. */
static int make_dirs(const char *path)
{
	char buf[UET_CONFIG_PATH_MAX];
	size_t i, n = strlen(path);

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -errno;
		buf[i] = path[i];
	}
	return 0;
}

static void on_completion(void *ctx, const struct uet_ses_completion *c)
{
	struct emu *e = ctx;
	uint8_t bit;

	if (c->msg_id >= e->n_messages)
		return;
	if (e->wl != NULL)
		emu_wl_completion(e->wl, c);
	switch (c->kind) {
	case UET_SES_SENT:
		bit = EMU_MSG_SENT;
		break;
	case UET_SES_ARRIVED:
		bit = EMU_MSG_ARRIVED;
		break;
	case UET_SES_COMPLETED:
		bit = EMU_MSG_COMPLETED;
		if (!(e->msg_flags[c->msg_id] & bit))
			e->completed++;
		break;
	default:
		return;
	}
	e->msg_flags[c->msg_id] |= bit;
}

/* The fabric's capture hook: both directions of host i's link go into
 * port-i.pcap, stamped with virtual time. */
static void on_capture(void *ctx, uint16_t port, const struct rte_mbuf *m,
		       uet_time_t time_ps, bool to_host)
{
	struct emu *e = ctx;
	int rc;

	(void)to_host;
	if (port >= e->hosts || e->cap[port] == NULL)
		return;
	rc = uet_capture_write_mbuf(e->cap[port], time_ps, m);
	if (rc < 0 && e->cap_err == 0)
		e->cap_err = rc;
}

/* After each switch window: stop on a fabric or capture failure. */
static int on_window(void *arg, uet_time_t window_end_ps)
{
	struct emu *e = arg;
	int rc;

	(void)window_end_ps;
	rc = uet_fabric_error(e->fabric);
	if (rc < 0)
		return rc;
	if (e->wl != NULL && emu_wl_error(e->wl) < 0)
		return emu_wl_error(e->wl);
	return e->cap_err;
}

static uint64_t total_events(const struct emu *e)
{
	uint64_t n = uet_fabric_component(e->fabric)->evq.n_run;
	uint32_t i;

	for (i = 0; i < e->hosts; i++)
		n += uet_nic_component(e->nic[i])->evq.n_run;
	return n;
}

static void on_progress(void *arg, const struct uet_sync_progress *p)
{
	struct emu *e = arg;
	char vt[UET_UNITS_FMT_LEN];
	uint64_t events = total_events(e);
	uint64_t per_s =
		p->wall_ns ? events * 1000u / (p->wall_ns / 1000000u + 1) : 0;

	uet_time_format(p->now_ps, vt, sizeof(vt));
	fprintf(stderr,
		"uet-emu: virtual %s, %u/%u messages done, %" PRIu64
		" windows, %" PRIu64 " events/s\n",
		vt, e->completed, e->n_messages, p->windows,
		per_s);
}

/*
 * The components: the switch, the NICs, and the workload's messages, each
 * posted to its source NIC at its time.
 */
static int emu_wire_components(struct emu *e)
{
	const struct uet_scenario *sc = e->sc;
	struct uet_ses_callbacks cb = {
		.sent = on_completion,
		.arrived = on_completion,
		.completed = on_completion,
		.ctx = e,
	};
	struct uet_fabric_conf fc;
	uint32_t i;
	int rc;

	rc = uet_fabric_conf_from_scenario(sc, &fc);
	if (rc == 0)
		rc = uet_fabric_create(&e->fabric, &fc);
	if (rc < 0) {
		fprintf(stderr, "uet-emu: cannot create the switch: %s\n",
			strerror(-rc));
		return rc;
	}
	if (e->cap != NULL)
		uet_fabric_set_capture(e->fabric, on_capture, e);
	for (i = 0; i < e->hosts; i++) {
		struct uet_nic_conf nc = {
			.scenario = sc,
			.index = i,
			.ip = uet_host_ipv4(i),
			.switch_downlink_bps =
				uet_fabric_downlink_rate_bps(e->fabric, i),
			.mempool = e->mp,
			.record = e->rec,
			.arrivals = e->arrivals,
			.pattern = e->pattern,
			.seed = sc->run.seed,
			.spraying = false,
		};

		uet_host_mac(i, nc.mac);
		memcpy(nc.switch_mac, emu_switch_mac, sizeof(nc.switch_mac));
		rc = uet_nic_create(&e->nic[i], &nc);
		if (rc < 0) {
			fprintf(stderr, "uet-emu: cannot create nic %u: %s\n",
				i, strerror(-rc));
			return rc;
		}
		uet_nic_set_callbacks(e->nic[i], &cb);
	}
	if (e->wl != NULL)
		return emu_wl_start(e->wl, e->nic);
	for (i = 0; i < sc->workload.message_count; i++) {
		const struct uet_workload_message *m =
			&sc->workload.messages[i];

		rc = uet_nic_post_message(e->nic[m->src], uet_host_ipv4(m->dst),
					  m->size_bytes, m->at_ps, i);
		if (rc < 0) {
			fprintf(stderr,
				"uet-emu: cannot post message %u (host %u -> "
				"%u, %" PRIu64 " bytes): %s\n",
				i, m->src, m->dst, m->size_bytes,
				strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/* Records, captures, the payload pattern and the arrival table. */
static int emu_open_outputs(struct emu *e)
{
	const struct uet_scenario *sc = e->sc;
	const char *out = sc->run.out;
	size_t n = strlen(out);
	struct uet_record_conf rc_conf = {
		.out_dir = out,
		.transport_stats = sc->records.enable_transport_stats,
		.stats_interval_ps = sc->records.nd_stats_report_interval_ps,
		.events = sc->records.enable_event_logging,
		.monitor = sc->records.enable_uet_monitor,
		.flows = sc->records.enable_flow_summary,
		.workload = e->wl != NULL,
	};
	uint32_t i;
	int rc;

	rc = make_dirs(out);
	if (rc < 0) {
		fprintf(stderr, "uet-emu: cannot create %s: %s\n", out,
			strerror(-rc));
		return rc;
	}
	rc = uet_record_open(&e->rec, &rc_conf);
	if (rc < 0) {
		fprintf(stderr, "uet-emu: cannot open the records in %s: %s\n",
			out, strerror(-rc));
		return rc;
	}
	if (sc->records.enable_pcap) {
		e->cap = calloc(e->hosts, sizeof(*e->cap));
		if (e->cap == NULL)
			return -ENOMEM;
		for (i = 0; i < e->hosts; i++) {
			char path[UET_CONFIG_PATH_MAX + 32];

			snprintf(path, sizeof(path), "%s%sport-%u.pcap", out,
				 n > 0 && out[n - 1] == '/' ? "" : "/", i);
			rc = uet_capture_open(&e->cap[i], path);
			if (rc < 0) {
				fprintf(stderr,
					"uet-emu: cannot create %s: %s\n", path,
					strerror(-rc));
				return rc;
			}
		}
	}
	rc = uet_ses_pattern_create(&e->pattern);
	if (rc == 0 && e->n_messages > 0)
		rc = uet_ses_arrivals_create(&e->arrivals, e->n_messages);
	return rc;
}

/* The transport: one ring port pair per NIC, and the lockstep roles. */
static int emu_open_sync(struct emu *e, uint64_t hash)
{
	const struct uet_scenario *sc = e->sc;
	struct uet_port_conf pc = {.pool = e->mp};
	uet_time_t lookahead_ps = sc->derived.lookahead_ps;
	uint32_t i;
	int rc;

	/* Frames the switch sends arrive link_delay after they leave: the
	 * lookahead must not exceed it either. */
	if (sc->topology.link_delay_ps < lookahead_ps)
		lookahead_ps = sc->topology.link_delay_ps;
	if (lookahead_ps == 0) {
		fprintf(stderr,
			"uet-emu: lockstep needs nic.Delay and "
			"topology.link_delay above 0 (the lookahead)\n");
		return -EINVAL;
	}
	for (i = 0; i < e->hosts; i++) {
		char name[24];

		snprintf(name, sizeof(name), "l%u", i);
		rc = uet_port_pair_create(&e->sw_port[i], &e->nic_port[i], name,
					  0, &pc);
		if (rc < 0) {
			fprintf(stderr,
				"uet-emu: cannot create the ports of nic %u: "
				"%s\n",
				i, strerror(-rc));
			return rc;
		}
	}
	{
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
			.nonce_seed = wall_ns() ^ (uint64_t)getpid(),
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
	for (i = 0; i < e->hosts; i++) {
		struct uet_sync_participant_conf pc2 = {
			.port = e->nic_port[i],
			.component = uet_nic_component(e->nic[i]),
			.pool = e->mp,
			.nic_id = (uint16_t)i,
			.ipv4 = uet_host_ipv4(i),
			.scenario_hash = hash,
		};

		uet_host_mac(i, pc2.mac);
		rc = uet_sync_participant_create(&e->pa[i], &pc2);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static const char *missing(uint8_t flags)
{
	if (!(flags & EMU_MSG_SENT))
		return "not sent";
	if (!(flags & EMU_MSG_ARRIVED))
		return "sent, not arrived";
	return "arrived, not acknowledged";
}

/* Sum what the NICs and the switch counted, for the summary and the
 * integrity check. */
static void emu_totals(const struct emu *e, struct emu_result *r)
{
	struct uet_fabric_port_stats ps;
	struct uet_nic_stats ns;
	uint32_t i;

	for (i = 0; i < e->hosts; i++) {
		uet_nic_stats(e->nic[i], &ns);
		r->payload_mismatches += ns.payload_mismatches;
		r->in_flight_anomalies += ns.in_flight_anomalies;
		r->psns_taken += ns.psns_taken;
		r->psns_retired += ns.psns_retired;
		if (uet_fabric_port_stats(e->fabric, (uint16_t)i, &ps) == 0) {
			r->frames += ps.rx_frames;
			r->switch_drops += ps.drop_full_frames +
					   ps.drop_random_frames +
					   ps.drop_route_frames +
					   ps.drop_control_frames;
		}
	}
}

static void emu_summary(const struct emu *e, const struct emu_result *r)
{
	const struct uet_scenario *sc = e->sc;
	char vt[UET_UNITS_FMT_LEN], at[UET_UNITS_FMT_LEN];
	uint32_t i, shown = 0;

	uet_time_format(r->virtual_ps, vt, sizeof(vt));
	fprintf(stderr,
		"uet-emu: %u of %u messages completed; virtual time %s, "
		"%" PRIu64 " windows, %" PRIu64 " events, %" PRIu64
		" ms of wall time\n",
		r->completed, r->messages, vt, r->windows, r->events,
		r->wall_ns / 1000000u);
	fprintf(stderr,
		"uet-emu: %" PRIu64 " frames through the switch, %" PRIu64
		" dropped there; payload mismatches %" PRIu64
		", in-flight anomalies %" PRIu64 ", PSNs taken %" PRIu64
		", retired %" PRIu64 "%s\n",
		r->frames, r->switch_drops, r->payload_mismatches,
		r->in_flight_anomalies, r->psns_taken, r->psns_retired,
		emu_result_intact(r) ? "" : "  <- INTEGRITY FAILURE");
	if (e->wl != NULL) {
		emu_wl_summary(e->wl, stderr);
		return;
	}
	for (i = 0; i < sc->workload.message_count; i++) {
		const struct uet_workload_message *m =
			&sc->workload.messages[i];

		if (e->msg_flags[i] & EMU_MSG_COMPLETED)
			continue;
		if (shown++ == EMU_SUMMARY_LINES)
			continue;
		uet_time_format(m->at_ps, at, sizeof(at));
		fprintf(stderr,
			"uet-emu: message %u (host %u -> %u, %" PRIu64
			" bytes, at %s): %s\n",
			i, m->src, m->dst, m->size_bytes, at,
			missing(e->msg_flags[i]));
	}
	if (shown > EMU_SUMMARY_LINES)
		fprintf(stderr, "uet-emu: ... and %u more not completed\n",
			shown - EMU_SUMMARY_LINES);
}

static void emu_close(struct emu *e)
{
	uint32_t i;

	uet_sync_coordinator_free(e->co);
	for (i = 0; e->pa != NULL && i < e->hosts; i++)
		uet_sync_participant_free(e->pa[i]);
	for (i = 0; e->nic != NULL && i < e->hosts; i++)
		uet_nic_destroy(e->nic[i]);
	uet_fabric_destroy(e->fabric);
	for (i = 0; i < e->hosts; i++) {
		if (e->sw_port != NULL)
			uet_port_close(e->sw_port[i]);
		if (e->nic_port != NULL)
			uet_port_close(e->nic_port[i]);
		if (e->cap != NULL)
			uet_capture_close(e->cap[i]);
	}
	if (uet_record_close(e->rec) < 0)
		fprintf(stderr, "uet-emu: writing the records failed\n");
	uet_ses_arrivals_free(e->arrivals);
	uet_ses_pattern_free(e->pattern);
	rte_mempool_free(e->mp);
	free(e->sw_port);
	free(e->nic_port);
	free(e->nic);
	free(e->cap);
	free(e->pa);
	free(e->msg_flags);
	emu_wl_free(e->wl);
}

int emu_run(const struct uet_scenario *sc, struct emu_result *res)
{
	struct uet_sync_stats st;
	struct emu e;
	uint64_t hash = 0;
	unsigned int nb_mbufs;
	uint32_t i;
	int rc;

	memset(res, 0, sizeof(*res));
	memset(&e, 0, sizeof(e));
	e.sc = sc;
	e.hosts = sc->topology.hosts;
	e.n_messages = sc->workload.message_count;
	rc = uet_scenario_hash(sc, &hash);
	if (rc < 0)
		return rc;
	if (sc->workload.chakra[0] != '\0') {
		rc = emu_wl_create(&e.wl, sc);
		if (rc < 0)
			return rc;
		if (emu_wl_messages(e.wl) >= UINT32_MAX) {
			fprintf(stderr, "uet-emu: the workload has too many "
					"messages\n");
			emu_wl_free(e.wl);
			return -E2BIG;
		}
		e.n_messages = (uint32_t)emu_wl_messages(e.wl);
		res->workload = true;
	}
	res->messages = e.n_messages;
	/* Frames in flight are bounded by the NICs' windows and the switch
	 * queues; 2,048 per host covers the default ones, within -m 512. */
	nb_mbufs = e.hosts * 2048u + 4095u;
	if (nb_mbufs > 32767u)
		nb_mbufs = 32767u;
	e.mp = uet_port_pool_create("uet_emu_pool", nb_mbufs, SOCKET_ID_ANY);
	e.sw_port = calloc(e.hosts, sizeof(*e.sw_port));
	e.nic_port = calloc(e.hosts, sizeof(*e.nic_port));
	e.nic = calloc(e.hosts, sizeof(*e.nic));
	e.pa = calloc(e.hosts, sizeof(*e.pa));
	e.msg_flags = calloc(e.n_messages + 1u, 1);
	if (e.mp == NULL || e.sw_port == NULL || e.nic_port == NULL ||
	    e.nic == NULL || e.pa == NULL || e.msg_flags == NULL) {
		fprintf(stderr, "uet-emu: out of memory (mbuf pool of %u)\n",
			nb_mbufs);
		rc = -ENOMEM;
		goto out;
	}
	rc = emu_open_outputs(&e);
	if (rc == 0)
		rc = emu_wire_components(&e);
	if (rc == 0)
		rc = emu_open_sync(&e, hash);
	if (rc < 0)
		goto out;

	e.start_ns = wall_ns();
	rc = uet_sync_run_embedded(e.co, e.pa, e.hosts);
	res->wall_ns = wall_ns() - e.start_ns;
	res->sync_err = rc;
	if (rc < 0) {
		fprintf(stderr, "uet-emu: the run stopped: %s\n",
			uet_sync_coordinator_error(e.co)[0] != '\0'
				? uet_sync_coordinator_error(e.co)
				: strerror(-rc));
		for (i = 0; i < e.hosts; i++)
			if (uet_sync_participant_error(e.pa[i])[0] != '\0')
				fprintf(stderr, "uet-emu: %s\n",
					uet_sync_participant_error(e.pa[i]));
	}
	uet_sync_coordinator_stats(e.co, &st);
	res->virtual_ps = st.now_ps;
	res->windows = st.windows;
	res->events = total_events(&e);
	res->completed = e.completed;
	res->workload_done = e.wl != NULL && emu_wl_done(e.wl);
	if (e.wl != NULL && emu_wl_write_record(e.wl, e.rec) < 0)
		fprintf(stderr, "uet-emu: writing workload.csv failed\n");
	emu_totals(&e, res);
	emu_summary(&e, res);
out:
	emu_close(&e);
	return rc;
}
