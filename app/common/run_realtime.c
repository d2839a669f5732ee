/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The realtime side of the shared wiring: the roles of the hosted
 * components polled in turn; between rounds the thread sleeps until the
 * next event or frame is due, but never longer than a short poll period,
 * since a frame may come at any time and is stamped when it is read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "run_realtime.h"
#include "uet_ipv4_text.h"
#include "uet_port.h"
#include "uet_record.h"
#include "uet_sync_ports.h"

/*
 * Wall ns between looks at the ports when nothing is due: a frame waits
 * this long at most before it is stamped (20 ns of virtual time at a
 * dilation of 1000), and an idle process still leaves the CPU to others.
 */
#define RT_POLL_NS UINT64_C(20000)
/*
 * Wall ns a thread keeps polling after the last round that did work, and
 * before an event or frame that is due, yielding the CPU between rounds
 * rather than napping: frames come in trains (a peer's burst, the ACKs of
 * a window), and a nap here ends some 30 us later than asked
 * (docs/lockstep.md, "Realtime"), longer than a whole round takes.
 */
#define RT_SPIN_NS UINT64_C(50000)
/* The kernel's default timer slack (50 us) would stretch every sleep. */
#define RT_TIMER_SLACK_NS 1000

struct run_rt {
	struct run_rt_conf conf;
	struct uet_sync_realtime *sw;
	struct uet_sync_realtime **nic;
	uint32_t *nic_ipv4; /* conf.nic_ipv4, copied */
	/* conf.sw_ports then conf.nic_ports, copied: for their counters */
	struct uet_port **ports;
	uint64_t work;	       /* the roles' work after the last round */
	uint64_t worked_ns;    /* wall ns of the last round that did work */
	uint64_t overshoot_ns; /* how late naps end, a running mean */
};

static uint64_t rt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
	       (uint64_t)ts.tv_nsec;
}

int run_rt_create(struct run_rt **rtp, const struct run_rt_conf *conf)
{
	struct run_rt *rt;
	uint32_t i;
	int rc;

	rt = calloc(1, sizeof(*rt));
	if (rt == NULL)
		return -ENOMEM;
	rt->conf = *conf;
	rt->nic = calloc(conf->n_nics + 1u, sizeof(*rt->nic));
	rt->nic_ipv4 = calloc(conf->n_nics + 1u, sizeof(*rt->nic_ipv4));
	rt->ports = calloc(conf->sw_n_ports + conf->n_nics + 1u,
			   sizeof(*rt->ports));
	if (rt->nic == NULL || rt->nic_ipv4 == NULL || rt->ports == NULL) {
		free(rt->nic);
		free(rt->nic_ipv4);
		free(rt->ports);
		free(rt);
		return -ENOMEM;
	}
	if (conf->n_nics > 0) {
		memcpy(rt->nic_ipv4, conf->nic_ipv4,
		       conf->n_nics * sizeof(*rt->nic_ipv4));
		memcpy(rt->ports + conf->sw_n_ports, conf->nic_ports,
		       conf->n_nics * sizeof(*rt->ports));
	}
	if (conf->sw_n_ports > 0)
		memcpy(rt->ports, conf->sw_ports,
		       conf->sw_n_ports * sizeof(*rt->ports));
	/* The caller's arrays need not outlive this call. */
	rt->conf.nic_ipv4 = rt->nic_ipv4;
	rt->conf.nics = NULL;
	rt->conf.nic_ports = NULL;
	rt->conf.sw_ports = NULL;
	*rtp = rt;
	(void)prctl(PR_SET_TIMERSLACK, RT_TIMER_SLACK_NS, 0, 0, 0);
	if (conf->sw != NULL) {
		struct uet_sync_realtime_conf c = {
			.ports = conf->sw_ports,
			.n_ports = conf->sw_n_ports,
			.component = conf->sw,
			.clock = conf->clock,
			.end_ps = conf->end_ps,
			.timeout_ms = conf->timeout_ms,
		};

		rc = uet_sync_realtime_create(&rt->sw, &c);
		if (rc < 0) {
			fprintf(stderr, "%s: cannot set the switch up: %s\n",
				conf->prog, strerror(-rc));
			return rc;
		}
	}
	for (i = 0; i < conf->n_nics; i++) {
		struct uet_sync_realtime_conf c = {
			.ports = &conf->nic_ports[i],
			.n_ports = 1,
			.component = conf->nics[i],
			.clock = conf->clock,
			.end_ps = conf->end_ps,
			.timeout_ms = conf->timeout_ms,
		};

		rc = uet_sync_realtime_create(&rt->nic[i], &c);
		if (rc < 0) {
			fprintf(stderr, "%s: cannot set %s up: %s\n",
				conf->prog, conf->nics[i]->name, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

/* Poll one role, adding its work to *work; on an error print why. */
static int rt_poll_one(const struct run_rt *rt, struct uet_sync_realtime *r,
		       uint64_t *wake_ns, bool *running, uint64_t *work)
{
	uint64_t w;
	int rc = uet_sync_realtime_poll(r, &w);

	if (rc < 0) {
		fprintf(stderr, "%s: the run stopped: %s\n", rt->conf.prog,
			uet_sync_realtime_error(r));
		return rc;
	}
	if (rc == UET_SYNC_RUNNING)
		*running = true;
	if (w < *wake_ns)
		*wake_ns = w;
	*work += uet_sync_realtime_work(r);
	return 0;
}

/*
 * Between two rounds. Something due now: the next round at once. Work done
 * lately, or something due within RT_SPIN_NS: yield the CPU (another
 * process on it runs, if any) and come back. Otherwise nap until the next
 * thing is due, RT_POLL_NS at most, ending early by how late naps have
 * been ending (the mean, learnt here).
 */
static void rt_pause(struct run_rt *rt, uint64_t now, uint64_t wake,
		     uint64_t work)
{
	struct timespec ts;
	uint64_t until, woke;

	if (work != rt->work) {
		rt->work = work;
		rt->worked_ns = now;
	}
	if (wake <= now)
		return;
	if (now - rt->worked_ns < RT_SPIN_NS ||
	    wake - now < RT_SPIN_NS + rt->overshoot_ns) {
		sched_yield();
		return;
	}
	until = wake - rt->overshoot_ns;
	if (until > now + RT_POLL_NS)
		until = now + RT_POLL_NS;
	ts.tv_sec = (time_t)(until / 1000000000u);
	ts.tv_nsec = (long)(until % 1000000000u);
	(void)clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	woke = rt_now_ns();
	/* A mean over about eight naps; a nap a signal ended early counts
	 * as on time. */
	rt->overshoot_ns = rt->overshoot_ns - rt->overshoot_ns / 8u +
			   (woke > until ? (woke - until) / 8u : 0);
	if (rt->overshoot_ns > RT_SPIN_NS)
		rt->overshoot_ns = RT_SPIN_NS;
}

static uint64_t rt_frames_rx(const struct run_rt *rt)
{
	struct uet_sync_rt_stats st;

	if (rt->sw == NULL)
		return 0;
	uet_sync_realtime_stats(rt->sw, &st);
	return st.frames_rx;
}

int run_rt_poll(struct run_rt *rt, const volatile sig_atomic_t *stop,
		run_rt_done_fn done_fn, void *done_arg, uint32_t linger_ms,
		uint32_t idle_ms)
{
	uint64_t done_since = 0, heard_ns = rt->conf.clock.epoch_ns;
	uint64_t heard_rx = 0;

	for (;;) {
		uint64_t wake = UINT64_MAX, now, work = 0;
		bool running = false;
		uint32_t i;
		int rc;

		if (stop != NULL && *stop) {
			fprintf(stderr, "%s: stopped by a signal\n",
				rt->conf.prog);
			return 0;
		}
		if (rt->sw != NULL) {
			rc = rt_poll_one(rt, rt->sw, &wake, &running, &work);
			if (rc < 0)
				return rc;
		}
		for (i = 0; i < rt->conf.n_nics; i++) {
			rc = rt_poll_one(rt, rt->nic[i], &wake, &running,
					 &work);
			if (rc < 0)
				return rc;
		}
		if (!running)
			return 0;
		now = rt_now_ns();
		if (rt->conf.n_nics > 0 && done_fn != NULL &&
		    done_fn(done_arg)) {
			if (done_since == 0)
				done_since = now;
			if (now - done_since >= (uint64_t)linger_ms * 1000000u)
				return 0;
		}
		if (rt->sw != NULL && now > rt->conf.clock.epoch_ns) {
			uint64_t rx = rt_frames_rx(rt);

			if (rx != heard_rx || !uet_sync_realtime_idle(rt->sw)) {
				heard_rx = rx;
				heard_ns = now;
			} else if (now - heard_ns >=
				   (uint64_t)idle_ms * 1000000u) {
				fprintf(stderr,
					"%s: no frame for %u ms and nothing "
					"pending: the run is over\n",
					rt->conf.prog, idle_ms);
				return 0;
			}
		}
		rt_pause(rt, now, wake, work);
	}
}

static void rt_add(const struct uet_sync_realtime *r, uet_time_t *now_ps,
		   uint64_t *events, struct uet_lateness *lateness)
{
	struct uet_sync_rt_stats st;

	uet_sync_realtime_stats(r, &st);
	if (st.now_ps > *now_ps)
		*now_ps = st.now_ps;
	*events += st.events;
	uet_lateness_merge(lateness, &st.lateness);
}

void run_rt_totals(const struct run_rt *rt, uet_time_t *now_ps,
		   uint64_t *events, struct uet_lateness *lateness)
{
	uint32_t i;

	*now_ps = 0;
	*events = 0;
	uet_lateness_init(lateness);
	if (rt == NULL)
		return;
	if (rt->sw != NULL)
		rt_add(rt->sw, now_ps, events, lateness);
	for (i = 0; i < rt->conf.n_nics; i++)
		if (rt->nic[i] != NULL)
			rt_add(rt->nic[i], now_ps, events, lateness);
}

/* A row for role r named name; st must live as long as the row. */
static void rt_row(const struct uet_sync_realtime *r, const char *name,
		   struct uet_sync_rt_stats *st, struct uet_realtime_row *row)
{
	uet_sync_realtime_stats(r, st);
	memset(row, 0, sizeof(*row));
	row->component = name;
	row->events = st->events;
	row->frames_rx = st->frames_rx;
	row->frames_tx = st->frames_tx;
	row->foreign_frames = st->foreign_frames;
	row->tx_late_mean_ps =
		st->frames_tx ? st->tx_late_sum_ps / st->frames_tx : 0;
	row->tx_late_max_ps = st->tx_late_max_ps;
	row->lateness = &st->lateness;
}

int run_rt_write(const struct run_rt *rt, const char *out_dir)
{
	uint32_t n = rt->conf.n_nics + 1u, k = 0, i;
	struct uet_sync_rt_stats *st = calloc(n, sizeof(*st));
	struct uet_realtime_row *rows = calloc(n, sizeof(*rows));
	char(*names)[UET_IPV4_TEXT_BYTES] = calloc(n, sizeof(*names));
	char path[512];
	size_t len = strlen(out_dir);
	int rc;

	if (st == NULL || rows == NULL || names == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	if (rt->sw != NULL) {
		rt_row(rt->sw, "switch", &st[k], &rows[k]);
		k++;
	}
	for (i = 0; i < rt->conf.n_nics; i++) {
		if (rt->nic[i] == NULL)
			continue;
		uet_ipv4_format(rt->conf.nic_ipv4[i], names[k]);
		rt_row(rt->nic[i], names[k], &st[k], &rows[k]);
		k++;
	}
	snprintf(path, sizeof(path), "%s%suet-realtime.csv", out_dir,
		 len > 0 && out_dir[len - 1] == '/' ? "" : "/");
	rc = uet_record_realtime_write(path, rows, k);
out:
	free(st);
	free(rows);
	free(names);
	return rc;
}

/*
 * Frames the host dropped on ports first..first+n-1 before the role read
 * them: a full receive ring (af_packet's framecnt, an AF_XDP fill ring),
 * counted by the port (docs/ports.md, "Counters"). Realtime has no frame
 * counts to check against, so this is how loss on the transport shows.
 */
static uint64_t rt_host_drops(const struct run_rt *rt, uint32_t first,
			      uint32_t n)
{
	struct uet_port_stats ps;
	uint64_t drops = 0;
	uint32_t i;

	for (i = first; i < first + n; i++)
		if (rt->ports[i] != NULL &&
		    uet_port_stats(rt->ports[i], &ps) == 0)
			drops += ps.rx_missed;
	return drops;
}

/* The ports of role r in rt->ports: the switch's, or NIC i's one port. */
static void rt_role_ports(const struct run_rt *rt,
			  const struct uet_sync_realtime *r, uint32_t *first,
			  uint32_t *n)
{
	uint32_t i = 0;

	if (r == rt->sw) {
		*first = 0;
		*n = rt->conf.sw_n_ports;
		return;
	}
	while (i < rt->conf.n_nics && rt->nic[i] != r)
		i++;
	*first = rt->conf.sw_n_ports + i;
	*n = 1;
}

static void rt_summary_one(const struct run_rt *rt,
			   const struct uet_sync_realtime *r, const char *name,
			   FILE *f)
{
	struct uet_sync_rt_stats st;
	uint32_t first, n;
	uint64_t p99, drops;

	uet_sync_realtime_stats(r, &st);
	p99 = uet_lateness_quantile_upper_ns(&st.lateness, 990);
	fprintf(f,
		"%s: lateness of %s: %" PRIu64 " events, mean %" PRIu64
		" ps, 99%% %s %" PRIu64 " ns, max %" PRIu64
		" ps (virtual time); %" PRIu64 " frames in, %" PRIu64 " out\n",
		rt->conf.prog, name, st.events,
		uet_lateness_mean_ps(&st.lateness),
		p99 == UINT64_MAX ? "not under" : "under",
		p99 == UINT64_MAX
			? uet_lateness_bucket_upper_ns(UET_LATENESS_BUCKETS - 2)
			: p99,
		st.lateness.max_ps, st.frames_rx, st.frames_tx);
	rt_role_ports(rt, r, &first, &n);
	drops = rt_host_drops(rt, first, n);
	if (drops > 0)
		fprintf(f,
			"%s: %s lost %" PRIu64 " frames on the host: its "
			"ports' receive rings were full (size them for a "
			"window, docs/ports.md)\n",
			rt->conf.prog, name, drops);
}

void run_rt_summary(const struct run_rt *rt, FILE *f)
{
	char name[UET_IPV4_TEXT_BYTES];
	uint32_t i;

	if (rt == NULL)
		return;
	if (rt->sw != NULL)
		rt_summary_one(rt, rt->sw, "the switch", f);
	for (i = 0; i < rt->conf.n_nics; i++) {
		if (rt->nic[i] == NULL)
			continue;
		uet_ipv4_format(rt->conf.nic_ipv4[i], name);
		rt_summary_one(rt, rt->nic[i], name, f);
	}
}

static void rt_summary_csv_one(const struct run_rt *rt,
			       const struct uet_sync_realtime *r,
			       const char *name, FILE *f)
{
	struct uet_sync_rt_stats st;
	uint32_t first, n;
	uint64_t p99;

	uet_sync_realtime_stats(r, &st);
	p99 = uet_lateness_quantile_upper_ns(&st.lateness, 990);
	fprintf(f, "lateness.%s.events,%" PRIu64 "\n", name, st.events);
	fprintf(f, "lateness.%s.mean_ps,%" PRIu64 "\n", name,
		uet_lateness_mean_ps(&st.lateness));
	/* Empty when the 99th percentile is beyond the last bucket. */
	if (p99 == UINT64_MAX)
		fprintf(f, "lateness.%s.p99_under_ns,\n", name);
	else
		fprintf(f, "lateness.%s.p99_under_ns,%" PRIu64 "\n", name, p99);
	fprintf(f, "lateness.%s.max_ps,%" PRIu64 "\n", name,
		st.lateness.max_ps);
	fprintf(f, "lateness.%s.frames_in,%" PRIu64 "\n", name, st.frames_rx);
	fprintf(f, "lateness.%s.frames_out,%" PRIu64 "\n", name, st.frames_tx);
	rt_role_ports(rt, r, &first, &n);
	fprintf(f, "lateness.%s.host_drops,%" PRIu64 "\n", name,
		rt_host_drops(rt, first, n));
}

void run_rt_summary_csv(const struct run_rt *rt, FILE *f)
{
	char name[UET_IPV4_TEXT_BYTES];
	uint32_t i;

	if (rt == NULL)
		return;
	if (rt->sw != NULL)
		rt_summary_csv_one(rt, rt->sw, "switch", f);
	for (i = 0; i < rt->conf.n_nics; i++) {
		if (rt->nic[i] == NULL)
			continue;
		uet_ipv4_format(rt->conf.nic_ipv4[i], name);
		rt_summary_csv_one(rt, rt->nic[i], name, f);
	}
}

void run_rt_port_drops(const struct run_rt *rt, bool sw_side, uint32_t i,
		       struct uet_sync_port_drops *d)
{
	if (sw_side && rt->sw != NULL)
		uet_sync_realtime_port_drops(rt->sw, i, d);
	else if (!sw_side && i < rt->conf.n_nics && rt->nic[i] != NULL)
		uet_sync_realtime_port_drops(rt->nic[i], 0, d);
	else
		memset(d, 0, sizeof(*d));
}

void run_rt_free(struct run_rt *rt)
{
	uint32_t i;

	if (rt == NULL)
		return;
	uet_sync_realtime_free(rt->sw);
	for (i = 0; i < rt->conf.n_nics; i++)
		uet_sync_realtime_free(rt->nic[i]);
	free(rt->nic);
	free(rt->nic_ipv4);
	free(rt->ports);
	free(rt);
}
