/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MPI clock role (uet-emu-mpi): one scenario over ranks. Every rank
 * builds the whole run (the switch and every NIC), runs its share of the
 * switch's parts and of the NICs, and lib/sync's transport over ranks
 * (uet_sync_ranks.h) keeps the ranks in lockstep. Rank 0 writes the
 * run's files: its share's rows and captures as uet-emu would, the other
 * ranks' as they send them each window, their ports' counters at the
 * end, so that the files are byte-identical to one process's
 * (docs/lockstep.md, "Over ranks"). The
 * MPI calls are the program's (app/uet-emu-mpi); this file makes none.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "uet_capture.h"

#include "uet_fabric.h"
#include "uet_nic.h"
#include "uet_record.h"
#include "uet_ses.h"
#include "uet_sync_local.h"
#include "uet_xring.h"
#include "run_clock.h"
#include "run_private.h"
#include "run_workload.h"

/* A host port's captures of the window, for rank 0 (a rank above 0
 * that runs the port's part): time, length and bytes of each frame. */
struct mpi_cap {
	uint8_t *buf;
	size_t len, cap;
};

/* What the role keeps beside the in-process lockstep. */
struct run_mpi {
	struct uet_sync_ranks rk; /* the conf's, with this role's hooks */
	uint32_t arrivals_sent;	  /* of run->arrived_log */
	struct mpi_cap *caps;	  /* per host, beyond rank 0 */
};

/* One port's counters at the end, from the rank that ran it. */
struct mpi_port {
	uint64_t port;
	struct uet_fabric_port_stats stats;
	struct uet_fabric_tc_record tc[UET_FABRIC_TCS];
};

/* Whether rank r says it failed (its value in a least-of vote). */
#define MPI_OK UINT64_MAX

static const struct uet_sync_ranks_ops *mpi_ops(const struct run *run)
{
	return run->conf->ranks->ops;
}

static const char *mpi_text(const struct run *run)
{
	return mpi_ops(run)->error(run->conf->ranks->arg);
}

static void mpi_together(const struct run *run)
{
	if (run->conf->ranks->together != NULL)
		*run->conf->ranks->together = true;
}

/*
 * Every rank loaded the same scenario (its hash as loaded, before the
 * per-rank output folder): the first rank that differs from rank 0 is
 * named, on every rank. Before run.out is touched: a refused run leaves
 * the last run's files.
 */
int run_clock_mpi_check(struct run *run, uint64_t hash)
{
	const struct uet_sync_ranks *rk = run->conf->ranks;
	const size_t *offs;
	const uint8_t *all;
	uint64_t h0, hr;
	uint32_t r;
	int rc;

	rc = mpi_ops(run)->allgather(rk->arg, &hash, sizeof(hash), &all, &offs);
	if (rc < 0) {
		fprintf(stderr,
			"%s: rank %u: the ranks could not compare their "
			"scenarios: %s\n",
			run->prog, rk->rank, mpi_text(run));
		return rc;
	}
	memcpy(&h0, all + offs[0], sizeof(h0));
	for (r = 1; r < rk->ranks; r++) {
		if (offs[r + 1] - offs[r] != sizeof(hr))
			return -EBADMSG;
		memcpy(&hr, all + offs[r], sizeof(hr));
		if (hr == h0)
			continue;
		if (rk->rank == 0)
			fprintf(stderr,
				"%s: rank %u loaded another scenario than rank "
				"0 (scenario hash %016" PRIx64
				" against %016" PRIx64
				"): every rank must run the same scenario "
				"file and settings\n",
				run->prog, r, hr, h0);
		/* Every rank found it: they end together. */
		mpi_together(run);
		return -EINVAL;
	}
	return 0;
}

/* What only one process can run (every rank finds it; rank 0 says it). */
static int mpi_refuse(const struct run *run)
{
	const uint32_t ranks = run->conf->ranks->ranks;
	const bool say = run->conf->ranks->rank == 0;

	if (run->sc->run.clock == UET_CLOCK_REALTIME) {
		if (say)
			fprintf(stderr,
				"%s: run.clock realtime runs in one process: "
				"over "
				"ranks a run is in lockstep (run.clock: "
				"lockstep)\n",
				run->prog);
		return -ENOTSUP;
	}
	if (run->wl != NULL && ranks > 1) {
		if (say)
			fprintf(stderr,
				"%s: %s runs on one rank only: its triggers "
				"tie "
				"hosts together through one workload engine "
				"(run "
				"it with -np 1, or in uet-emu)\n",
				run->prog, run_wl_source(run->sc));
		return -ENOTSUP;
	}
	return 0;
}

/* This rank's part of a window's message: the arrivals its NICs saw
 * (every rank's senders write them in flows.csv), then, beyond rank 0,
 * its NICs' record rows of the window. */
static int mpi_pack(void *warg, uint8_t **buf, size_t *len, size_t *cap)
{
	struct run *run = warg;
	struct run_mpi *m = run->mpi;
	const uint32_t n =
		__atomic_load_n(&run->n_arrived_log, __ATOMIC_ACQUIRE);
	const uint32_t k = n - m->arrivals_sent;
	size_t need = *len + sizeof(uint32_t) * 2 + (size_t)k * 16u;
	uint32_t i, views = 0;
	uint8_t *p;
	size_t views_at;

	if (need > *cap) {
		size_t c = *cap != 0 ? *cap : 4096u;

		while (c < need)
			c *= 2;
		p = realloc(*buf, c);
		if (p == NULL)
			return -ENOMEM;
		*buf = p;
		*cap = c;
	}
	p = *buf + *len;
	memcpy(p, &k, sizeof(k));
	p += sizeof(k);
	for (i = m->arrivals_sent; i < n; i++) {
		const uint64_t id = run->arrived_log[i];
		const uint64_t t = uet_ses_arrivals_get(run->arrivals, id);

		memcpy(p, &id, sizeof(id));
		memcpy(p + 8, &t, sizeof(t));
		p += 16;
	}
	m->arrivals_sent = n;
	views_at = (size_t)(p - *buf);
	*len = views_at + sizeof(views);
	for (i = m->rk.nic_first; m->rk.rank > 0 && run->nic_rec != NULL &&
				  i < m->rk.nic_first + m->rk.nic_count;
	     i++) {
		int rc;

		if (uet_record_view_bytes(run->nic_rec[i]) == 0)
			continue;
		if (*len + sizeof(i) > *cap) {
			p = realloc(*buf, *cap * 2);
			if (p == NULL)
				return -ENOMEM;
			*buf = p;
			*cap *= 2;
		}
		memcpy(*buf + *len, &i, sizeof(i));
		*len += sizeof(i);
		rc = uet_record_view_export(run->nic_rec[i], buf, len, cap);
		if (rc < 0)
			return rc;
		views++;
	}
	memcpy(*buf + views_at, &views, sizeof(views));
	return 0;
}

/*
 * The fabric's capture hook beyond rank 0: the frames of the host ports
 * of this rank's parts are kept for rank 0, which writes them into its
 * files in the window's message (each port's from one part, so in the
 * order one process writes them). Several lcores call it at once, each
 * for the ports of its parts.
 */
static void mpi_on_capture(void *ctx, uint32_t port, const struct rte_mbuf *m,
			   uet_time_t time_ps, bool to_host)
{
	struct run *run = ctx;
	struct mpi_cap *c;
	const uint32_t len = rte_pktmbuf_pkt_len(m);
	const size_t need = sizeof(uint64_t) + sizeof(len) + len;
	const void *d;
	uint8_t *at;

	(void)to_host;
	if (port >= run->hosts || run->mpi->caps == NULL)
		return;
	c = &run->mpi->caps[port];
	if (c->len + need > c->cap) {
		size_t n = c->cap != 0 ? c->cap * 2 : 16384u;
		uint8_t *p;

		while (n < c->len + need)
			n *= 2;
		p = realloc(c->buf, n);
		if (p == NULL) {
			__atomic_store_n(&run->cap_err, -ENOMEM,
					 __ATOMIC_RELAXED);
			return;
		}
		c->buf = p;
		c->cap = n;
	}
	at = c->buf + c->len;
	memcpy(at, &time_ps, sizeof(uint64_t));
	memcpy(at + sizeof(uint64_t), &len, sizeof(len));
	at += sizeof(uint64_t) + sizeof(len);
	d = rte_pktmbuf_read(m, 0, len, at);
	if (d != at)
		memcpy(at, d, len);
	c->len += need;
}

/* The window's captures into this rank's message to rank 0: a count of
 * ports, then each port, its bytes' length and its frames. */
static int mpi_pack_root(void *warg, uint8_t **buf, size_t *len, size_t *cap)
{
	struct run *run = warg;
	struct run_mpi *m = run->mpi;
	uint32_t i, ports = 0;
	size_t need = sizeof(ports), at;

	for (i = 0; m->caps != NULL && i < run->hosts; i++)
		if (m->caps[i].len > 0)
			need += 2 * sizeof(uint32_t) + m->caps[i].len;
	if (*len + need > *cap) {
		size_t c = *cap != 0 ? *cap : 4096u;
		uint8_t *p;

		while (c < *len + need)
			c *= 2;
		p = realloc(*buf, c);
		if (p == NULL)
			return -ENOMEM;
		*buf = p;
		*cap = c;
	}
	at = *len + sizeof(ports);
	for (i = 0; m->caps != NULL && i < run->hosts; i++) {
		const uint32_t n = (uint32_t)m->caps[i].len;

		if (n == 0)
			continue;
		memcpy(*buf + at, &i, sizeof(i));
		memcpy(*buf + at + sizeof(i), &n, sizeof(n));
		memcpy(*buf + at + 2 * sizeof(i), m->caps[i].buf, n);
		at += 2 * sizeof(i) + n;
		m->caps[i].len = 0;
		ports++;
	}
	memcpy(*buf + *len, &ports, sizeof(ports));
	*len = at;
	return 0;
}

/* Rank r's captures of the window into rank 0's files. */
static int mpi_unpack_captures(struct run *run, const uint8_t *src, size_t len)
{
	uint32_t ports, i;
	size_t at = sizeof(ports);

	if (len < sizeof(ports))
		return -EBADMSG;
	memcpy(&ports, src, sizeof(ports));
	for (i = 0; i < ports; i++) {
		uint32_t port, n;
		size_t end;

		if (len - at < 2 * sizeof(port))
			return -EBADMSG;
		memcpy(&port, src + at, sizeof(port));
		memcpy(&n, src + at + sizeof(port), sizeof(n));
		at += 2 * sizeof(port);
		if (len - at < n || port >= run->hosts || run->cap == NULL)
			return -EBADMSG;
		for (end = at + n; at < end;) {
			uint64_t t;
			uint32_t flen;
			int rc;

			if (end - at < sizeof(t) + sizeof(flen))
				return -EBADMSG;
			memcpy(&t, src + at, sizeof(t));
			memcpy(&flen, src + at + sizeof(t), sizeof(flen));
			at += sizeof(t) + sizeof(flen);
			if (end - at < flen)
				return -EBADMSG;
			rc = run->cap[port] == NULL
				     ? 0
				     : uet_capture_write(run->cap[port], t,
							 src + at, flen);
			if (rc < 0 && run->cap_err == 0)
				run->cap_err = rc;
			at += flen;
		}
	}
	return 0;
}

/* Rank r's part: its arrivals into the table, and at rank 0 its NICs'
 * rows into their views, flushed with the others' in host order, then
 * its captures into the files. */
static int mpi_unpack(void *warg, uint32_t r, const uint8_t *src, size_t len)
{
	struct run *run = warg;
	const struct run_mpi *m = run->mpi;
	uint32_t k, views, i, first, count;
	size_t at = sizeof(k);

	/* A rank that could not build its message sent none of this. */
	if (len == 0)
		return 0;
	if (len < sizeof(k))
		return -EBADMSG;
	memcpy(&k, src, sizeof(k));
	if ((len - at) / 16u < k)
		return -EBADMSG;
	for (i = 0; i < k; i++, at += 16) {
		uint64_t id, t;

		memcpy(&id, src + at, sizeof(id));
		memcpy(&t, src + at + 8, sizeof(t));
		if (run->arrivals != NULL && id < run->n_messages)
			uet_ses_arrivals_set(run->arrivals, id, t);
	}
	if (len - at < sizeof(views))
		return -EBADMSG;
	memcpy(&views, src + at, sizeof(views));
	at += sizeof(views);
	first = m->rk.nic_first;
	count = m->rk.nic_count;
	for (i = 0; i < views; i++) {
		uint32_t nic;
		size_t used;
		int rc;

		if (len - at < sizeof(nic))
			return -EBADMSG;
		memcpy(&nic, src + at, sizeof(nic));
		at += sizeof(nic);
		/* Rows of a NIC this rank runs come from no other. */
		if (nic >= run->count ||
		    (nic >= first && nic - first < count) ||
		    run->nic_rec == NULL)
			return -EBADMSG;
		rc = uet_record_view_import(run->nic_rec[nic], src + at,
					    len - at, &used);
		if (rc < 0)
			return rc;
		at += used;
	}
	return m->rk.rank == 0 && r != 0
		       ? mpi_unpack_captures(run, src + at, len - at)
		       : 0;
}

/* This rank's share of the in-process lockstep. */
static int mpi_local(struct run *run)
{
	const struct uet_scenario *sc = run->sc;
	struct run_mpi *m = run->mpi;
	struct uet_sync_local_conf lc = {
		.sw = uet_fabric_component(run->fabric),
		.n_nics = run->count,
		.start_ps = 0,
		.end_ps = sc->run.end_ps,
		.nics_done_fn = run_clock_on_nics_done,
		.window_fn = run_clock_on_window,
		.window_arg = run,
		.progress_fn = sc->run.progress && m->rk.rank == 0
				       ? run_clock_on_progress
				       : NULL,
		.progress_arg = run,
		.progress_interval_ms = 1000,
		.stop = run->conf->stop,
		.ranks = &m->rk,
	};
	unsigned int ids[RTE_MAX_LCORE], id;
	struct uet_component **comps;
	uint32_t n = 0, i;
	int rc;

	rc = run_lookahead(run, &lc.lookahead_ps);
	if (rc < 0)
		return rc;
	lc.ring_frames = uet_xring_frames_per_window(
		sc->nic.data_rate_bps > sc->topology.link_rate_bps
			? sc->nic.data_rate_bps
			: sc->topology.link_rate_bps,
		lc.lookahead_ps);
	run->arrived_log =
		calloc(run->n_messages + 1u, sizeof(*run->arrived_log));
	comps = calloc(run->count, sizeof(*comps));
	if (comps == NULL || run->arrived_log == NULL) {
		free(comps);
		return -ENOMEM;
	}
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
	if (rc < 0)
		fprintf(stderr, "%s: rank %u: cannot set up its share: %s\n",
			run->prog, m->rk.rank, strerror(-rc));
	/* Rows written while the run was set up (the posts) come first:
	 * every rank wrote them for every NIC, rank 0's are the run's. */
	if (rc == 0)
		rc = run_flush_nic_records(run);
	return rc;
}

static int mpi_open(struct run *run, uint64_t scenario_hash)
{
	struct run_mpi *m = calloc(1, sizeof(*m));
	uint64_t failed;
	int rc, ok;

	if (m == NULL)
		return -ENOMEM;
	run->mpi = m;
	m->rk = *run->conf->ranks;
	m->rk.mp = run->mp;
	m->rk.attach_mp = run->payload_mp;
	/* The payload pattern is the same bytes on every rank: a data
	 * packet's payload crosses as its place in it. */
	if (run->pattern != NULL) {
		m->rk.shared = run->pattern->bytes;
		m->rk.shared_len = UET_SES_PATTERN_BYTES;
	}
	m->rk.pack = mpi_pack;
	m->rk.pack_root = mpi_pack_root;
	m->rk.unpack = mpi_unpack;
	m->rk.warg = run;
	/* Contiguous shares of the switch's parts and of the NICs, as the
	 * lcores take theirs; the occupancy samples are the whole
	 * switch's, taken where it runs: on rank 0. */
	m->rk.switch_on_rank0 = run->sc->sw.occupancy_ports[0] != '\0';
	(void)scenario_hash; /* compared already (run_clock_mpi_check) */
	ok = uet_sync_rank_shares(uet_fabric_component(run->fabric), run->count,
				  &m->rk);
	if (ok == 0 && m->rk.rank > 0 && run->cap != NULL) {
		m->caps = calloc(run->hosts, sizeof(*m->caps));
		if (m->caps == NULL)
			ok = -ENOMEM;
		else
			uet_fabric_set_capture(run->fabric, mpi_on_capture,
					       run);
	}
	if (ok == 0)
		ok = mpi_refuse(run);
	if (ok == 0 && m->rk.ranks > 1 && m->rk.part_count > 0)
		fprintf(stderr,
			"%s: rank %u of %u runs NICs %u-%u and switch parts "
			"%u-%u\n",
			run->prog, m->rk.rank, m->rk.ranks, m->rk.nic_first,
			m->rk.nic_first + m->rk.nic_count - 1u,
			m->rk.part_first,
			m->rk.part_first + m->rk.part_count - 1u);
	else if (ok == 0 && m->rk.ranks > 1)
		fprintf(stderr, "%s: rank %u of %u runs NICs %u-%u\n",
			run->prog, m->rk.rank, m->rk.ranks, m->rk.nic_first,
			m->rk.nic_first + m->rk.nic_count - 1u);
	if (ok == 0)
		ok = mpi_local(run);
	/* Every rank set up, or none runs: a rank that could not waits for
	 * nothing, and the others are told which. */
	failed = ok < 0 ? m->rk.rank : MPI_OK;
	rc = mpi_ops(run)->min(m->rk.arg, &failed, 1);
	if (rc == 0)
		mpi_together(run);
	if (rc < 0) {
		fprintf(stderr,
			"%s: rank %u: the ranks could not agree they are "
			"set up: %s\n",
			run->prog, m->rk.rank, mpi_text(run));
		return rc;
	}
	if (failed != MPI_OK && ok == 0) {
		if (m->rk.rank == 0)
			fprintf(stderr,
				"%s: rank %" PRIu64
				" could not set up its share of the run (its "
				"message above): no rank runs it\n",
				run->prog, failed);
		return -ECANCELED;
	}
	return ok;
}

static int mpi_run(struct run *run)
{
	return uet_sync_local_run(run->local);
}

static const char *mpi_error(const struct run *run)
{
	return run->local != NULL ? uet_sync_local_error(run->local) : "";
}

/* Where rank 0's sync went, per window: what the ranks' own line
 * (run_clock_sync_line) sums, split. */
static void mpi_split_line(const struct run *run, uint64_t windows)
{
	struct uet_sync_ranks_costs c;
	const double w = (double)windows;

	if (windows == 0 || run->mpi->rk.ranks < 2)
		return;
	uet_sync_local_rank_costs(run->local, &c);
	fprintf(stderr,
		"%s: rank 0's sync per window: pack %.1f us, exchange %.1f "
		"us, unpack %.1f us, agreement %.1f us; for the last rank "
		"in: exchange %.1f us, agreement %.1f us; sent %.0f bytes, "
		"%.1f frames a window\n",
		run->prog, (double)c.pack_ns / 1e3 / w,
		(double)c.send_ns / 1e3 / w, (double)c.unpack_ns / 1e3 / w,
		(double)c.agree_ns / 1e3 / w, (double)c.least_send_ns / 1e3 / w,
		(double)c.least_agree_ns / 1e3 / w, (double)c.bytes / w,
		(double)c.frames / w);
}

/* Counts every rank adds to: its NICs' events, completions, arrivals,
 * and each message's flags (one rank sets each bit). */
static int mpi_sum_counts(struct run *run, uint64_t *nic_events)
{
	const struct run_mpi *m = run->mpi;
	uint64_t c[3], *flags;
	uint32_t i;
	int rc;

	/* The fabric's: its parts' here, its own queue's (run by every
	 * rank alike) once. */
	c[0] = uet_fabric_events(run->fabric) -
	       (m->rk.rank != 0 ? uet_fabric_component(run->fabric)->evq.n_run
				: 0);
	for (i = m->rk.nic_first; i < m->rk.nic_first + m->rk.nic_count; i++)
		c[0] += uet_nic_component(run->nic[i])->evq.n_run;
	const uint64_t mine = c[0];

	c[1] = run->completed;
	c[2] = run->arrived;
	rc = mpi_ops(run)->sum(m->rk.arg, c, 3);
	if (rc < 0)
		return rc;
	*nic_events = c[0];
	/* The events are the model's work: how evenly the shares split it. */
	if (m->rk.ranks > 1)
		fprintf(stderr,
			"%s: rank %u of %u ran %" PRIu64
			" events, %.1f%% of the run's\n",
			run->prog, m->rk.rank, m->rk.ranks, mine,
			c[0] > 0 ? 100.0 * (double)mine / (double)c[0] : 0.0);
	run->completed = (uint32_t)c[1];
	run->arrived = (uint32_t)c[2];
	flags = calloc(run->n_messages + 1u, sizeof(*flags));
	if (flags == NULL)
		return -ENOMEM;
	for (i = 0; i < run->n_messages; i++)
		flags[i] = run->msg_flags[i];
	rc = mpi_ops(run)->sum(m->rk.arg, flags, run->n_messages);
	for (i = 0; rc == 0 && i < run->n_messages; i++)
		run->msg_flags[i] = (uint8_t)flags[i];
	free(flags);
	return rc;
}

/*
 * The counters of the ports of the parts other ranks ran, given to rank
 * 0's fabric, so that its records and summary read every port's (the
 * switch's records are written after the run, from the counters).
 */
static int mpi_gather_ports(struct run *run, uet_time_t end_ps)
{
	const struct run_mpi *m = run->mpi;
	const struct uet_sync_ranks *rk = &m->rk;
	struct uet_component *sw = uet_fabric_component(run->fabric);
	const uint32_t n_ports = uet_fabric_port_count(run->fabric);
	const uint8_t **send = calloc(rk->ranks, sizeof(*send));
	const uint8_t **recv = calloc(rk->ranks, sizeof(*recv));
	size_t *send_len = calloc(rk->ranks, sizeof(*send_len));
	size_t *recv_len = calloc(rk->ranks, sizeof(*recv_len));
	struct mpi_port *mine = NULL;
	uint32_t n = 0, p, r, i;
	unsigned int tc;
	int rc = -ENOMEM;

	if (send == NULL || recv == NULL || send_len == NULL ||
	    recv_len == NULL)
		goto out;
	if (rk->rank != 0 && sw->parts.n != 0) {
		mine = calloc(n_ports + 1u, sizeof(*mine));
		if (mine == NULL)
			goto out;
		for (p = 0; p < n_ports; p++) {
			const uint32_t q = sw->parts.port_part(sw, p);
			struct mpi_port *o = &mine[n];

			if (q < rk->part_first ||
			    q - rk->part_first >= rk->part_count)
				continue;
			o->port = p;
			uet_fabric_port_stats(run->fabric, p, &o->stats);
			for (tc = 0; tc < UET_FABRIC_TCS; tc++)
				uet_fabric_tc_record(run->fabric, p, tc, end_ps,
						     &o->tc[tc]);
			n++;
		}
	}
	for (r = 0; r < rk->ranks; r++)
		send[r] = (const uint8_t *)mine;
	send_len[0] = rk->rank != 0 ? n * sizeof(*mine) : 0;
	rc = mpi_ops(run)->exchange(rk->arg, send, send_len, recv, recv_len);
	for (r = 1; rc == 0 && rk->rank == 0 && r < rk->ranks; r++) {
		for (i = 0; rc == 0 && i < recv_len[r] / sizeof(*mine); i++) {
			struct mpi_port o;

			memcpy(&o, recv[r] + i * sizeof(o), sizeof(o));
			rc = uet_fabric_port_give(run->fabric, (uint32_t)o.port,
						  &o.stats, o.tc);
		}
	}
out:
	free(mine);
	free(send);
	free(recv);
	free(send_len);
	free(recv_len);
	return rc;
}

static void mpi_report(struct run *run, int rc, struct uet_run_result *res)
{
	struct uet_sync_stats st;
	uint64_t nic_events = 0;

	(void)rc;
	if (run->local == NULL)
		return;
	uet_sync_local_stats(run->local, &st);
	if (mpi_sum_counts(run, &nic_events) < 0)
		fprintf(stderr,
			"%s: rank %u: the ranks could not add up their "
			"counts: %s\n",
			run->prog, run->mpi->rk.rank, mpi_text(run));
	if (st.windows > 0 && run->mpi->rk.rank == 0)
		fprintf(stderr,
			"%s: wall per lockstep window: %.1f us (%" PRIu64
			" windows, %.3f ms, %u ranks)\n",
			run->prog,
			(double)res->wall_ns / 1e3 / (double)st.windows,
			st.windows, (double)res->wall_ns / 1e6,
			run->mpi->rk.ranks);
	if (run->mpi->rk.rank == 0) {
		uint64_t model_ns, sync_ns;

		uet_sync_local_costs(run->local, &model_ns, &sync_ns);
		run_clock_sync_line(run, st.windows, model_ns, sync_ns);
		mpi_split_line(run, st.windows);
	}
	res->virtual_ps = st.now_ps;
	res->windows = st.windows;
	res->events = nic_events; /* and the fabric's, over the ranks */
	if (mpi_gather_ports(run, st.now_ps) < 0)
		fprintf(stderr,
			"%s: rank %u: the ranks could not gather the switch's "
			"ports: %s\n",
			run->prog, run->mpi->rk.rank, mpi_text(run));
}

/* The NICs' integrity counts, over the ranks (each NIC's are where it
 * ran; the others' stand-ins count nothing). */
static void mpi_combine(struct run *run, struct uet_run_result *res)
{
	uint64_t c[4] = {res->payload_mismatches, res->in_flight_anomalies,
			 res->psns_taken, res->psns_retired};

	if (run->mpi == NULL || mpi_ops(run)->sum(run->mpi->rk.arg, c, 4) < 0)
		return;
	res->payload_mismatches = c[0];
	res->in_flight_anomalies = c[1];
	res->psns_taken = c[2];
	res->psns_retired = c[3];
}

static void mpi_close(struct run *run)
{
	uint32_t i;

	for (i = 0;
	     run->mpi != NULL && run->mpi->caps != NULL && i < run->hosts; i++)
		free(run->mpi->caps[i].buf);
	if (run->mpi != NULL)
		free(run->mpi->caps);
	uet_sync_local_free(run->local);
	run->local = NULL;
	free(run->arrived_log);
	run->arrived_log = NULL;
	free(run->mpi);
	run->mpi = NULL;
}

const struct run_clock_ops run_clock_mpi = {
	.name = "mpi",
	.sync_cost = true,
	.open = mpi_open,
	.run = mpi_run,
	.error = mpi_error,
	.report = mpi_report,
	.combine = mpi_combine,
	.close = mpi_close,
};
