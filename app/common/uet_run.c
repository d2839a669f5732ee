/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The wiring shared by uet-emu, uet-switch and uet-nic: from a loaded
 * scenario to a finished run of the roles this process hosts. The switch
 * (lib/fabric) and the NICs (lib/nic) are model components; lib/sync's
 * coordinator drives the switch side, one participant per NIC the other,
 * all the hosted roles polled round-robin in this thread. Embedded, each
 * NIC's link is a ring port pair; otherwise each role has a real port.
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <rte_mbuf.h>

#include "uet_capture.h"
#include "uet_fabric.h"
#include "uet_host_addr.h"
#include "uet_nic.h"
#include "uet_port.h"
#include "uet_record.h"
#include "uet_run.h"
#include "run_switch_records.h"
#include "run_realtime.h"
#include "run_workload.h"
#include "uet_ses.h"
#include "uet_sync.h"

/* The switch's MAC: outside the hosts' 02:00:00:00:xx:xx. */
static const uint8_t run_switch_mac[6] = {0x02, 0, 0, 0x01, 0, 0};

/* Message flags, one byte per workload message. */
#define RUN_MSG_SENT 0x1u
#define RUN_MSG_ARRIVED 0x2u
#define RUN_MSG_COMPLETED 0x4u

/* Most lines of unfinished messages printed. */
#define RUN_SUMMARY_LINES 20u

/* Everything one run holds. */
struct run {
	const struct uet_run_conf *conf;
	const struct uet_scenario *sc;
	const char *prog;
	uint32_t hosts;
	bool has_switch; /* the switch runs here */
	uint32_t first;	 /* first hosted NIC */
	uint32_t count;	 /* hosted NICs */
	struct rte_mempool *mp;
	struct uet_port **sw_port;  /* switch side of host i's link */
	struct uet_port **nic_port; /* NIC side of hosted NIC i's link */
	struct uet_fabric *fabric;
	struct run_swrec *swrec;  /* switch-stats and occupancy records */
	struct uet_nic **nic;	  /* hosted NIC i is host first + i */
	struct uet_capture **cap; /* port-i.pcap, NULL when pcap is off */
	int cap_err;		  /* first capture write error */
	struct uet_record *rec;
	struct uet_ses_arrivals *arrivals;
	struct uet_ses_pattern *pattern;
	struct run_wl *wl;   /* a program, or NULL: the messages list */
	uint32_t n_messages; /* the list's or the program's */
	uint8_t *msg_flags;  /* by msg_id */
	uint32_t completed;
	uint32_t conf_messages; /* messages whose source is hosted */
	uint32_t arrived;	/* messages received by hosted NICs */
	uint32_t to_arrive;	/* messages whose destination is hosted */
	struct uet_sync_coordinator *co;
	struct uet_sync_participant **pa;
	struct run_rt *rt; /* realtime roles, or NULL: lockstep */
	uint64_t start_ns;
};

static uint64_t wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
	       (uint64_t)ts.tv_nsec;
}

static bool hosted(const struct run *e, uint32_t host)
{
	return host >= e->first && host - e->first < e->count;
}

int uet_run_parse_range(const char *s, uint32_t *first, uint32_t *count)
{
	unsigned long a, b;
	char *end;

	errno = 0;
	a = strtoul(s, &end, 10);
	if (end == s || errno != 0 || a > UINT32_MAX)
		return -EINVAL;
	b = a;
	if (*end == '-') {
		const char *t = end + 1;

		b = strtoul(t, &end, 10);
		if (end == t || errno != 0 || b > UINT32_MAX || b < a)
			return -EINVAL;
	}
	if (*end != '\0')
		return -EINVAL;
	*first = (uint32_t)a;
	*count = (uint32_t)(b - a + 1);
	return 0;
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

/* out/name, with or without a slash at the end of out. */
static void out_path(char *buf, size_t size, const char *out, const char *name)
{
	size_t n = strlen(out);

	snprintf(buf, size, "%s%s%s", out,
		 n > 0 && out[n - 1] == '/' ? "" : "/", name);
}

static void on_completion(void *ctx, const struct uet_ses_completion *c)
{
	struct run *e = ctx;
	uint8_t bit;

	if (c->msg_id >= e->n_messages)
		return;
	if (e->wl != NULL)
		run_wl_completion(e->wl, c);
	switch (c->kind) {
	case UET_SES_SENT:
		bit = RUN_MSG_SENT;
		break;
	case UET_SES_ARRIVED:
		bit = RUN_MSG_ARRIVED;
		if (!(e->msg_flags[c->msg_id] & bit) && e->wl == NULL &&
		    hosted(e, e->sc->workload.messages[c->msg_id].dst))
			e->arrived++;
		break;
	case UET_SES_COMPLETED:
		bit = RUN_MSG_COMPLETED;
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
	struct run *e = ctx;
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
	return e->cap_err;
}

static uint64_t total_events(const struct run *e)
{
	uint64_t n = 0;
	uint32_t i;

	if (e->has_switch && e->fabric != NULL)
		n += uet_fabric_component(e->fabric)->evq.n_run;
	for (i = 0; e->nic != NULL && i < e->count; i++)
		if (e->nic[i] != NULL)
			n += uet_nic_component(e->nic[i])->evq.n_run;
	return n;
}

static void on_progress(void *arg, const struct uet_sync_progress *p)
{
	struct run *e = arg;
	char vt[UET_UNITS_FMT_LEN];
	uint64_t events = total_events(e);
	uint64_t per_s =
		p->wall_ns ? events * 1000u / (p->wall_ns / 1000000u + 1) : 0;

	uet_time_format(p->now_ps, vt, sizeof(vt));
	fprintf(stderr,
		"%s: virtual %s, %u/%u messages done, %" PRIu64
		" windows, %" PRIu64 " events/s\n",
		e->prog, vt, e->completed, e->n_messages, p->windows, per_s);
}

/* The switch: run here, or (NICs only) made to ask it the downlink rates. */
static int run_wire_switch(struct run *e)
{
	struct uet_fabric_conf fc;
	int rc;

	rc = uet_fabric_conf_from_scenario(e->sc, &fc);
	if (rc == 0)
		rc = uet_fabric_create(&e->fabric, &fc);
	if (rc < 0) {
		fprintf(stderr, "%s: cannot create the switch: %s\n", e->prog,
			strerror(-rc));
		return rc;
	}
	if (e->has_switch && e->cap != NULL)
		uet_fabric_set_capture(e->fabric, on_capture, e);
	if (!e->has_switch)
		return 0;
	rc = run_swrec_failures(e->fabric, e->sc, e->prog);
	if (rc == 0)
		rc = run_swrec_open(&e->swrec, e->fabric, e->sc, e->prog);
	return rc;
}

static int run_lookahead(const struct run *e, uet_time_t *lookahead_ps);

/*
 * The hosted NICs, and the workload's messages whose source is hosted, each
 * posted to its source NIC at its time.
 */
static int run_wire_nics(struct run *e)
{
	const struct uet_scenario *sc = e->sc;
	struct uet_ses_callbacks cb = {
		.sent = on_completion,
		.arrived = on_completion,
		.completed = on_completion,
		.ctx = e,
	};
	uint32_t i;
	int rc;

	for (i = 0; i < e->count; i++) {
		uint32_t h = e->first + i;
		struct uet_nic_conf nc = {
			.scenario = sc,
			.index = h,
			.ip = uet_host_ipv4(h),
			.switch_downlink_bps =
				uet_fabric_downlink_rate_bps(e->fabric, h),
			.mempool = e->mp,
			.record = e->rec,
			.arrivals = e->arrivals,
			.pattern = e->pattern,
			.seed = sc->run.seed,
			.spraying = false,
		};

		uet_host_mac(h, nc.mac);
		memcpy(nc.switch_mac, run_switch_mac, sizeof(nc.switch_mac));
		rc = uet_nic_create(&e->nic[i], &nc);
		if (rc < 0) {
			fprintf(stderr, "%s: cannot create nic %u: %s\n",
				e->prog, h, strerror(-rc));
			return rc;
		}
		uet_nic_set_callbacks(e->nic[i], &cb);
	}
	if (e->wl != NULL) {
		uet_time_t lookahead_ps;

		/* A trigger crossing hosts waits one lookahead: the least
		 * that keeps every post in its NIC's future. */
		rc = run_lookahead(e, &lookahead_ps);
		if (rc == 0)
			rc = run_wl_start(e->wl, e->nic, lookahead_ps);
		return rc;
	}
	for (i = 0; i < sc->workload.message_count; i++) {
		const struct uet_workload_message *m =
			&sc->workload.messages[i];

		if (!hosted(e, m->src))
			continue;
		rc = uet_nic_post_message(e->nic[m->src - e->first],
					  uet_host_ipv4(m->dst), m->size_bytes,
					  m->at_ps, i);
		if (rc < 0) {
			fprintf(stderr,
				"%s: cannot post message %u (host %u -> "
				"%u, %" PRIu64 " bytes): %s\n",
				e->prog, i, m->src, m->dst, m->size_bytes,
				strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/* Records (NICs), captures (switch), the payload pattern and the arrival
 * table. */
static int run_open_outputs(struct run *e)
{
	const struct uet_scenario *sc = e->sc;
	const char *out = sc->run.out;
	struct uet_record_conf rc_conf = {
		.out_dir = out,
		.transport_stats = sc->records.enable_transport_stats,
		.stats_interval_ps = sc->records.nd_stats_report_interval_ps,
		.events = sc->records.enable_event_logging,
		.monitor = sc->records.enable_uet_monitor,
		.flows = sc->records.enable_flow_summary,
		.workload = e->wl != NULL,
		.cc_trace = sc->records.enable_cc_trace,
	};
	uint32_t i;
	int rc;

	rc = make_dirs(out);
	if (rc < 0) {
		fprintf(stderr, "%s: cannot create %s: %s\n", e->prog, out,
			strerror(-rc));
		return rc;
	}
	if (e->count > 0) {
		rc = uet_record_open(&e->rec, &rc_conf);
		if (rc < 0) {
			fprintf(stderr,
				"%s: cannot open the records in %s: %s\n",
				e->prog, out, strerror(-rc));
			return rc;
		}
	}
	if (e->has_switch && sc->records.enable_pcap) {
		e->cap = calloc(e->hosts, sizeof(*e->cap));
		if (e->cap == NULL)
			return -ENOMEM;
		for (i = 0; i < e->hosts; i++) {
			char name[32], path[UET_CONFIG_PATH_MAX + 32];

			snprintf(name, sizeof(name), "port-%u.pcap", i);
			out_path(path, sizeof(path), out, name);
			rc = uet_capture_open(&e->cap[i], path);
			if (rc < 0) {
				fprintf(stderr, "%s: cannot create %s: %s\n",
					e->prog, path, strerror(-rc));
				return rc;
			}
		}
	}
	rc = uet_ses_pattern_create(&e->pattern);
	if (rc == 0 && e->n_messages > 0)
		rc = uet_ses_arrivals_create(&e->arrivals, e->n_messages);
	return rc;
}

/* The lookahead, min(nic.Delay, topology.link_delay), derived by lib/config
 * (whose rules refuse 0 in lockstep; checked again for a hand-built
 * scenario). */
static int run_lookahead(const struct run *e, uet_time_t *lookahead_ps)
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

/* Wall ms between two tries to open a port whose peer is not up yet. */
#define RUN_OPEN_RETRY_MS 50u

/*
 * One real port from its device string. A NIC's port may need its peer
 * (a memif client fails to start until the switch's server socket exists,
 * and is refused with -ENOTCONN until the switch's port has started), so a
 * uet-nic retries for up to the run's timeout before giving up.
 */
static int run_open_port(struct run *e, struct uet_port **pp,
			 const char *devargs, const char *what, uint32_t host)
{
	struct uet_port_conf pc = {.pool = e->mp};
	uint32_t timeout_ms = e->conf->timeout_ms ? e->conf->timeout_ms
						  : UET_SYNC_TIMEOUT_MS_DEFAULT;
	uint64_t end_ns = wall_ns() + timeout_ms * UINT64_C(1000000);
	int rc;

	for (;;) {
		rc = uet_port_open(pp, devargs, &pc);
		if (rc == 0 || e->conf->role != UET_RUN_NICS ||
		    wall_ns() >= end_ns ||
		    (e->conf->stop != NULL && *e->conf->stop))
			break;
		usleep(RUN_OPEN_RETRY_MS * 1000u);
	}
	if (rc < 0)
		fprintf(stderr,
			"%s: cannot open the port of %s %u (%s)%s: %s\n",
			e->prog, what, host, devargs,
			e->conf->role == UET_RUN_NICS ? " in the time allowed"
						      : "",
			strerror(-rc));
	return rc;
}

/*
 * Drop whatever the ports received while they were being opened. An
 * af_packet port's socket receives from every interface of the namespace
 * between its creation and its bind to the port's interface, so a NIC's
 * HELLO may sit in another port's ring (the switch then saw one NIC on two
 * ports). Every port is bound once all are open: what is queued now is
 * dropped, and the peers repeat HELLO until WELCOME comes.
 */
static void run_drain_opened(struct uet_port **ports, uint32_t n)
{
	struct rte_mbuf *pkts[32];
	uint32_t i;
	uint16_t k;

	for (i = 0; i < n; i++) {
		if (ports[i] == NULL)
			continue;
		do {
			k = uet_port_rx_burst(ports[i], pkts, 32);
			rte_pktmbuf_free_bulk(pkts, k);
		} while (k > 0);
	}
}

/* The ports: a ring pair per NIC embedded, else the given devices. */
static int run_open_ports(struct run *e)
{
	const char *const *dev = e->conf->port_devargs;
	uint32_t i;
	int rc;

	if (e->conf->role == UET_RUN_EMBEDDED) {
		struct uet_port_conf pc = {.pool = e->mp};

		for (i = 0; i < e->hosts; i++) {
			char name[24];

			snprintf(name, sizeof(name), "l%u", i);
			rc = uet_port_pair_create(
				&e->sw_port[i], &e->nic_port[i], name, 0, &pc);
			if (rc < 0) {
				fprintf(stderr,
					"%s: cannot create the ports of nic "
					"%u: %s\n",
					e->prog, i, strerror(-rc));
				return rc;
			}
		}
		return 0;
	}
	if (dev == NULL) {
		fprintf(stderr, "%s: no ports given\n", e->prog);
		return -EINVAL;
	}
	for (i = 0; e->has_switch && i < e->hosts; i++) {
		rc = run_open_port(e, &e->sw_port[i], dev[i], "switch port", i);
		if (rc < 0)
			return rc;
	}
	for (i = 0; !e->has_switch && i < e->count; i++) {
		rc = run_open_port(e, &e->nic_port[i], dev[i], "nic",
				   e->first + i);
		if (rc < 0)
			return rc;
	}
	run_drain_opened(e->has_switch ? e->sw_port : e->nic_port,
			 e->has_switch ? e->hosts : e->count);
	return 0;
}

/* The lockstep roles hosted here. */
static int run_open_sync(struct run *e, uint64_t hash)
{
	const struct uet_scenario *sc = e->sc;
	uet_time_t lookahead_ps;
	uint32_t i;
	int rc;

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
			.nonce_seed = wall_ns() ^ (uint64_t)getpid(),
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
		};

		uet_host_mac(h, pc.mac);
		rc = uet_sync_participant_create(&e->pa[i], &pc);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Realtime: the ports, then one realtime role per hosted component, on a
 * clock shared with the other processes of the run. */
static int run_open_rt(struct run *e)
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
		c.clock.epoch_ns = wall_ns();
	else if (c.clock.epoch_ns < wall_ns())
		fprintf(stderr,
			"%s: ready %" PRIu64 " ms after the run's start: "
			"the first events run late\n",
			e->prog, (wall_ns() - c.clock.epoch_ns) / 1000000u);
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

/* After a failure (or a stop), poll every role twice more so that the
 * ABORTs in flight reach their peers. */
static void run_drain(struct run *e)
{
	uint32_t round, i;

	for (round = 0; round < 2; round++) {
		if (e->co != NULL)
			(void)uet_sync_coordinator_poll(e->co);
		for (i = 0; i < e->count; i++)
			(void)uet_sync_participant_poll(e->pa[i]);
	}
}

/*
 * Poll the hosted roles round-robin (the coordinator first, then the NICs
 * in host order) until all have finished or one fails. Across processes a
 * round that finds nothing to do yields the CPU to the peers.
 */
static int run_poll(struct run *e)
{
	const volatile sig_atomic_t *stop = e->conf->stop;
	bool yield = e->conf->role != UET_RUN_EMBEDDED;

	for (;;) {
		bool running = false;
		uint32_t i;
		int rc;

		if (stop != NULL && *stop) {
			fprintf(stderr, "%s: stopped by a signal\n", e->prog);
			return -EINTR;
		}
		if (e->co != NULL) {
			rc = uet_sync_coordinator_poll(e->co);
			if (rc < 0) {
				run_drain(e);
				return rc;
			}
			running = rc == UET_SYNC_RUNNING;
		}
		for (i = 0; i < e->count; i++) {
			rc = uet_sync_participant_poll(e->pa[i]);
			if (rc < 0) {
				run_drain(e);
				return rc;
			}
			if (rc == UET_SYNC_RUNNING)
				running = true;
		}
		if (!running)
			return 0;
		if (yield)
			sched_yield();
	}
}

/* Wall ms a NICs-only process keeps its ports open after its last BYE. */
#define RUN_LINGER_MS 1000u

/*
 * A NIC's BYE may still sit in the port's ring (memif: shared memory that
 * goes when the client disconnects): keep the ports open until the switch
 * has closed every link, or for RUN_LINGER_MS at most, dropping what comes.
 */
static void run_linger(struct run *e)
{
	uint64_t end_ns = wall_ns() + RUN_LINGER_MS * UINT64_C(1000000);
	struct rte_mbuf *pkts[32];

	while (wall_ns() < end_ns) {
		bool up = false;
		uint32_t i;

		for (i = 0; i < e->count; i++) {
			struct uet_port_link l;
			uint16_t n =
				uet_port_rx_burst(e->nic_port[i], pkts, 32);

			rte_pktmbuf_free_bulk(pkts, n);
			if (uet_port_link(e->nic_port[i], &l) == 0 && l.up)
				up = true;
		}
		if (!up)
			return;
		usleep(1000);
	}
}

static const char *missing(uint8_t flags)
{
	if (!(flags & RUN_MSG_SENT))
		return "not sent";
	if (!(flags & RUN_MSG_ARRIVED))
		return "sent, not arrived";
	return "arrived, not acknowledged";
}

/* Sum what the hosted NICs and the switch counted, for the summary and
 * the integrity check. */
static void run_totals(const struct run *e, struct uet_run_result *r)
{
	struct uet_fabric_port_stats ps;
	struct uet_nic_stats ns;
	uint32_t i;

	for (i = 0; i < e->count; i++) {
		uet_nic_stats(e->nic[i], &ns);
		r->payload_mismatches += ns.payload_mismatches;
		r->in_flight_anomalies += ns.in_flight_anomalies;
		r->psns_taken += ns.psns_taken;
		r->psns_retired += ns.psns_retired;
	}
	/* Frames from the hosts; drops and trims at every switch port. */
	for (i = 0; e->has_switch && i < uet_fabric_port_count(e->fabric);
	     i++) {
		if (uet_fabric_port_stats(e->fabric, (uint16_t)i, &ps) == 0) {
			if (i < e->hosts)
				r->frames += ps.rx_frames;
			r->switch_drops +=
				ps.drop_full_frames + ps.drop_random_frames +
				ps.drop_route_frames + ps.drop_control_frames;
			r->switch_trims += ps.trim_frames;
		}
	}
	if (e->has_switch)
		r->switch_drops += run_swrec_down_drops(e->fabric);
}

/*
 * One line per link between switches, in its upward direction (the lower
 * tier's port, which comes first): what the lower switch sent up it, so
 * that the spread of traffic over the uplinks shows. Nothing for one
 * switch.
 */
static void run_summary_links(const struct run *e)
{
	struct uet_fabric_port_info info;
	struct uet_fabric_port_stats ps;
	uint32_t i;

	for (i = 0; i < uet_fabric_port_count(e->fabric); i++) {
		if (uet_fabric_port_info(e->fabric, i, &info) < 0 ||
		    info.peer < 0 || (uint32_t)info.peer < i ||
		    uet_fabric_port_stats(e->fabric, (uint16_t)i, &ps) < 0)
			continue;
		fprintf(stderr,
			"%s: uplink %s from %s: %" PRIu64 " frames, %" PRIu64
			" bytes, %" PRIu64 " dropped, %" PRIu64
			" trimmed, peak queue %" PRIu64 " bytes\n",
			e->prog, info.link_name, info.switch_name, ps.tx_frames,
			ps.tx_bytes, ps.drop_full_frames, ps.trim_frames,
			ps.peak_queue_bytes);
	}
}

static void run_summary(const struct run *e, const struct uet_run_result *r)
{
	const struct uet_scenario *sc = e->sc;
	char vt[UET_UNITS_FMT_LEN], at[UET_UNITS_FMT_LEN];
	uint32_t i, shown = 0;

	uet_time_format(r->virtual_ps, vt, sizeof(vt));
	fprintf(stderr,
		"%s: %u of %u messages completed; virtual time %s, "
		"%" PRIu64 " windows, %" PRIu64 " events, %" PRIu64
		" ms of wall time\n",
		e->prog, r->completed, r->messages, vt, r->windows, r->events,
		r->wall_ns / 1000000u);
	fprintf(stderr,
		"%s: %" PRIu64 " frames through the switch, %" PRIu64
		" dropped there, %" PRIu64
		" trimmed there; payload mismatches %" PRIu64
		", in-flight anomalies %" PRIu64 ", PSNs taken %" PRIu64
		", retired %" PRIu64 "%s\n",
		e->prog, r->frames, r->switch_drops, r->switch_trims,
		r->payload_mismatches, r->in_flight_anomalies, r->psns_taken,
		r->psns_retired,
		uet_run_intact(r) ? "" : "  <- INTEGRITY FAILURE");
	if (e->has_switch)
		run_summary_links(e);
	if (e->wl != NULL) {
		run_wl_summary(e->wl, stderr);
		return;
	}
	for (i = 0; i < sc->workload.message_count; i++) {
		const struct uet_workload_message *m =
			&sc->workload.messages[i];

		if (!hosted(e, m->src) || (e->msg_flags[i] & RUN_MSG_COMPLETED))
			continue;
		if (shown++ == RUN_SUMMARY_LINES)
			continue;
		uet_time_format(m->at_ps, at, sizeof(at));
		fprintf(stderr,
			"%s: message %u (host %u -> %u, %" PRIu64
			" bytes, at %s): %s\n",
			e->prog, i, m->src, m->dst, m->size_bytes, at,
			missing(e->msg_flags[i]));
	}
	if (shown > RUN_SUMMARY_LINES)
		fprintf(stderr, "%s: ... and %u more not completed\n", e->prog,
			shown - RUN_SUMMARY_LINES);
}

/*
 * arrivals.csv of a NICs-only process: the arrival time of every message
 * its NICs received, so that the merge can fill the flows.csv cells of
 * senders in other processes (the embedded run shares one table).
 */
static int run_write_arrivals(const struct run *e)
{
	const struct uet_scenario *sc = e->sc;
	char path[UET_CONFIG_PATH_MAX + 32];
	uint32_t i;
	FILE *f;
	int rc = 0;

	out_path(path, sizeof(path), sc->run.out, "arrivals.csv");
	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	fprintf(f, "msg_id,arrived_ps\n");
	for (i = 0; i < sc->workload.message_count; i++) {
		uet_time_t t;

		if (!hosted(e, sc->workload.messages[i].dst))
			continue;
		t = uet_ses_arrivals_get(e->arrivals, i);
		if (t != UET_TIME_NEVER)
			fprintf(f, "%u,%" PRIu64 "\n", i, t);
	}
	if (fclose(f) != 0)
		rc = -EIO;
	return rc;
}

static void run_close(struct run *e)
{
	uint32_t i;

	run_rt_free(e->rt);
	uet_sync_coordinator_free(e->co);
	for (i = 0; e->pa != NULL && i < e->count; i++)
		uet_sync_participant_free(e->pa[i]);
	for (i = 0; e->nic != NULL && i < e->count; i++)
		uet_nic_destroy(e->nic[i]);
	run_swrec_free(e->swrec);
	uet_fabric_destroy(e->fabric);
	for (i = 0; e->sw_port != NULL && i < e->hosts; i++)
		uet_port_close(e->sw_port[i]);
	for (i = 0; e->nic_port != NULL && i < e->hosts; i++)
		uet_port_close(e->nic_port[i]);
	for (i = 0; e->cap != NULL && i < e->hosts; i++)
		uet_capture_close(e->cap[i]);
	if (uet_record_close(e->rec) < 0)
		fprintf(stderr, "%s: writing the records failed\n", e->prog);
	if (e->conf->role == UET_RUN_NICS && e->arrivals != NULL &&
	    run_write_arrivals(e) < 0)
		fprintf(stderr, "%s: writing arrivals.csv failed\n", e->prog);
	uet_ses_arrivals_free(e->arrivals);
	uet_ses_pattern_free(e->pattern);
	if (!e->conf->process_exits)
		rte_mempool_free(e->mp);
	free(e->sw_port);
	free(e->nic_port);
	free(e->nic);
	free(e->cap);
	free(e->pa);
	free(e->msg_flags);
	run_wl_free(e->wl);
}

/* Which roles the conf asks for, checked against the scenario. */
static int run_roles(struct run *e, const struct uet_run_conf *conf)
{
	switch (conf->role) {
	case UET_RUN_EMBEDDED:
		e->has_switch = true;
		e->first = 0;
		e->count = e->hosts;
		return 0;
	case UET_RUN_SWITCH:
		e->has_switch = true;
		return 0;
	case UET_RUN_NICS:
		if (conf->nic_count == 0 || conf->nic_first >= e->hosts ||
		    conf->nic_count > e->hosts - conf->nic_first) {
			fprintf(stderr,
				"%s: NICs %u-%u: the scenario has hosts 0-%u\n",
				e->prog, conf->nic_first,
				conf->nic_first + conf->nic_count - 1,
				e->hosts - 1);
			return -EINVAL;
		}
		e->first = conf->nic_first;
		e->count = conf->nic_count;
		for (uint32_t h = e->first; h < e->first + e->count; h++) {
			if (!uet_scenario_host_external(e->sc, h))
				continue;
			fprintf(stderr,
				"%s: host %u is external "
				"(switch.external_hosts): its endpoint is not "
				"an emulated NIC\n",
				e->prog, h);
			return -EINVAL;
		}
		return 0;
	}
	return -EINVAL;
}

int uet_run(const struct uet_run_conf *conf, struct uet_run_result *res)
{
	const struct uet_scenario *sc = conf->sc;
	struct uet_sync_stats st;
	struct run e;
	uint64_t hash = 0;
	unsigned int nb_mbufs;
	uint32_t i;
	int rc;

	memset(res, 0, sizeof(*res));
	memset(&e, 0, sizeof(e));
	e.conf = conf;
	e.sc = sc;
	e.prog = conf->prog != NULL ? conf->prog : "uet-run";
	e.hosts = sc->topology.hosts;
	rc = run_roles(&e, conf);
	if (rc < 0)
		return rc;
	e.n_messages = sc->workload.message_count;
	for (i = 0; i < sc->workload.message_count; i++)
		if (hosted(&e, sc->workload.messages[i].src))
			res->messages++;
	if (run_wl_wanted(sc)) {
		/* A rank's program runs on its own NIC, so a split run
		 * could host ranks per process; not wired yet. */
		if (!e.has_switch || e.count != e.hosts) {
			fprintf(stderr,
				"%s: %s runs in uet-emu only (the embedded "
				"run)\n",
				e.prog, run_wl_source(sc));
			return -ENOTSUP;
		}
		rc = run_wl_create(&e.wl, sc);
		if (rc < 0)
			return rc;
		if (run_wl_messages(e.wl) >= UINT32_MAX) {
			fprintf(stderr,
				"%s: the workload has too many "
				"messages\n",
				e.prog);
			run_wl_free(e.wl);
			return -E2BIG;
		}
		e.n_messages = (uint32_t)run_wl_messages(e.wl);
		res->messages = e.n_messages;
		res->workload = true;
	}
	hash = conf->scenario_hash;
	rc = hash != 0 ? 0 : uet_scenario_hash(sc, &hash);
	if (rc < 0)
		return rc;
	/* Frames in flight are bounded by the NICs' windows and the switch
	 * queues; 2,048 per link hosted here covers the default ones, within
	 * -m 512 (a pool is touched page by page as it is made). */
	nb_mbufs = (e.has_switch ? e.hosts : e.count) * 2048u + 4095u;
	if (nb_mbufs > 32767u)
		nb_mbufs = 32767u;
	e.mp = uet_port_pool_create("uet_run_pool", nb_mbufs, SOCKET_ID_ANY);
	e.sw_port = calloc(e.hosts, sizeof(*e.sw_port));
	e.nic_port = calloc(e.hosts, sizeof(*e.nic_port));
	e.nic = calloc(e.hosts, sizeof(*e.nic));
	e.pa = calloc(e.hosts, sizeof(*e.pa));
	e.msg_flags = calloc(e.n_messages + 1u, 1);
	if (e.mp == NULL || e.sw_port == NULL || e.nic_port == NULL ||
	    e.nic == NULL || e.pa == NULL || e.msg_flags == NULL) {
		fprintf(stderr, "%s: out of memory (mbuf pool of %u)\n", e.prog,
			nb_mbufs);
		rc = -ENOMEM;
		goto out;
	}
	e.conf_messages = res->messages;
	for (i = 0; i < sc->workload.message_count; i++)
		if (hosted(&e, sc->workload.messages[i].dst))
			e.to_arrive++;
	res->realtime = sc->run.clock == UET_CLOCK_REALTIME;
	rc = run_open_outputs(&e);
	if (rc == 0)
		rc = run_wire_switch(&e);
	if (rc == 0)
		rc = run_wire_nics(&e);
	if (rc == 0)
		rc = res->realtime ? run_open_rt(&e) : run_open_sync(&e, hash);
	if (rc < 0)
		goto out;

	e.start_ns = wall_ns();
	if (res->realtime)
		rc = run_rt_poll(
			e.rt, conf->stop, run_rt_done, &e,
			conf->rt_linger_ms ? conf->rt_linger_ms : 1000u,
			conf->timeout_ms ? conf->timeout_ms
					 : UET_SYNC_TIMEOUT_MS_DEFAULT);
	else
		rc = run_poll(&e);
	res->wall_ns = wall_ns() - e.start_ns;
	/* Lockstep: the BYE must not be lost with the link. */
	if (rc == 0 && conf->role == UET_RUN_NICS && !res->realtime)
		run_linger(&e);
	res->sync_err = rc;
	if (rc < 0) {
		const char *why =
			e.co != NULL ? uet_sync_coordinator_error(e.co) : "";

		fprintf(stderr, "%s: the run stopped: %s\n", e.prog,
			why[0] != '\0' ? why : strerror(-rc));
		for (i = 0; i < e.count; i++)
			if (uet_sync_participant_error(e.pa[i])[0] != '\0')
				fprintf(stderr, "%s: %s\n", e.prog,
					uet_sync_participant_error(e.pa[i]));
	}
	if (res->realtime) {
		run_rt_totals(e.rt, &res->virtual_ps, &res->events,
			      &res->lateness);
		if (run_rt_write(e.rt, sc->run.out) < 0)
			fprintf(stderr, "%s: writing uet-realtime.csv failed\n",
				e.prog);
	} else {
		if (e.co != NULL)
			uet_sync_coordinator_stats(e.co, &st);
		else
			uet_sync_participant_stats(e.pa[0], &st);
		res->virtual_ps = st.now_ps;
		res->windows = st.windows;
		res->events = total_events(&e);
	}
	res->completed = e.completed;
	res->workload_done = e.wl != NULL && run_wl_done(e.wl);
	if (e.wl != NULL && run_wl_write_record(e.wl, e.rec) < 0)
		fprintf(stderr, "%s: writing workload.csv failed\n", e.prog);
	if (run_swrec_finish(e.swrec, res->virtual_ps) < 0)
		fprintf(stderr, "%s: writing the switch records failed\n",
			e.prog);
	run_totals(&e, res);
	run_summary(&e, res);
	run_rt_summary(e.rt, stderr);
out:
	run_close(&e);
	return rc;
}
