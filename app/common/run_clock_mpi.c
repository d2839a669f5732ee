/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MPI clock role (uet-emu-mpi): one scenario over ranks. Every rank
 * builds the whole run (the switch and every NIC), runs its share of the
 * switch's parts and of the NICs, and lib/sync's transport over ranks
 * (uet_sync_ranks.h) keeps the ranks in lockstep. Rank 0 writes the
 * run's files: its share's rows and captures as uet-emu would, the other
 * ranks' as they send them each window, their ports' counters at the
 * end, so that the files are byte-identical to one process's
 * (docs/lockstep.md, "Over ranks"). This file sets the role up (the
 * scenario's hash, what runs on one rank only, each rank's share);
 * run_mpi_window.c is the wiring's part of each window's message,
 * run_mpi_end.c what the ranks add up at the end. A program workload's
 * engine runs whole on every rank, each window's completions shared
 * between all ranks (run_workload.c). The MPI calls are the
 * program's (app/uet-emu-mpi); these files make none.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_mbuf.h>

#include "uet_fabric.h"
#include "uet_nic.h"
#include "uet_record.h"
#include "uet_ses.h"
#include "uet_sync_local.h"
#include "uet_xring.h"
#include "run_clock.h"
#include "run_mpi.h"
#include "run_workload.h"

/* Whether rank r says it failed (its value in a least-of vote). */
#define MPI_OK UINT64_MAX

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

	rc = run_mpi_ops(run)->allgather(rk->arg, &hash, sizeof(hash), &all,
					 &offs);
	if (rc < 0) {
		fprintf(stderr,
			"%s: rank %u: the ranks could not compare their "
			"scenarios: %s\n",
			run->prog, rk->rank, run_mpi_text(run));
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
	return 0;
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

/* The NICs and switch parts this rank runs (either may be none). */
static void mpi_share_line(const struct run *run)
{
	const struct uet_sync_ranks *rk = &run->mpi->rk;
	char nics[48] = "no NICs", parts[48] = "";

	if (rk->nic_count > 0)
		snprintf(nics, sizeof(nics), "NICs %u-%u", rk->nic_first,
			 rk->nic_first + rk->nic_count - 1u);
	if (rk->part_count > 0)
		snprintf(parts, sizeof(parts), " and switch parts %u-%u",
			 rk->part_first, rk->part_first + rk->part_count - 1u);
	fprintf(stderr, "%s: rank %u of %u runs %s%s\n", run->prog, rk->rank,
		rk->ranks, nics, parts);
}

/* Past two ranks, which ranks this one exchanges messages with (those
 * its share has links to, and rank 0). */
static void mpi_peers_line(const struct run *run)
{
	const struct run_mpi *m = run->mpi;
	char line[512];
	size_t at = 0;
	uint32_t r;

	for (r = 0; r < m->rk.ranks && at < sizeof(line) - 16u; r++)
		if (uet_sync_local_rank_peer(run->local, r))
			at += (size_t)snprintf(line + at, sizeof(line) - at,
					       " %u", r);
	line[at] = '\0';
	fprintf(stderr, "%s: rank %u of %u exchanges messages with ranks%s\n",
		run->prog, m->rk.rank, m->rk.ranks, line);
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
	m->rk.pack = run_mpi_pack;
	m->rk.pack_root = run_mpi_pack_root;
	m->rk.unpack = run_mpi_unpack;
	m->rk.warg = run;
	/* Contiguous shares of the switch's parts and of the NICs, as the
	 * lcores take theirs; the occupancy samples are the whole
	 * switch's, taken where it runs: on rank 0. */
	m->rk.switch_on_rank0 = run->sc->sw.occupancy_ports[0] != '\0';
	/* A program's engine runs whole on every rank: each hears every
	 * rank's completions of a window before its flush (run_workload.c). */
	m->rk.all_peers = run->wl != NULL;
	(void)scenario_hash; /* compared already (run_clock_mpi_check) */
	ok = uet_sync_rank_shares(uet_fabric_component(run->fabric), run->count,
				  &m->rk);
	if (ok == 0 && m->rk.rank > 0 && run->cap != NULL) {
		m->caps = calloc(run->hosts, sizeof(*m->caps));
		if (m->caps == NULL)
			ok = -ENOMEM;
		else
			uet_fabric_set_capture(run->fabric, run_mpi_on_capture,
					       run);
	}
	if (ok == 0)
		ok = mpi_refuse(run);
	if (ok == 0 && run->wl != NULL)
		run_wl_set_share(run->wl, m->rk.nic_first, m->rk.nic_count,
				 m->rk.ranks > 1);
	if (ok == 0 && m->rk.ranks > 1)
		mpi_share_line(run);
	if (ok == 0)
		ok = mpi_local(run);
	if (ok == 0 && m->rk.ranks > 2)
		mpi_peers_line(run);
	/* Every rank set up, or none runs: a rank that could not waits for
	 * nothing, and the others are told which. */
	failed = ok < 0 ? m->rk.rank : MPI_OK;
	rc = run_mpi_ops(run)->min(m->rk.arg, &failed, 1);
	if (rc == 0)
		mpi_together(run);
	if (rc < 0) {
		fprintf(stderr,
			"%s: rank %u: the ranks could not agree they are "
			"set up: %s\n",
			run->prog, m->rk.rank, run_mpi_text(run));
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
	if (run->mpi != NULL)
		free(run->mpi->relay);
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
	.report = run_mpi_report,
	.combine = run_mpi_combine,
	.close = mpi_close,
};
