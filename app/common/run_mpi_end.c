/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MPI clock role's end: the counts of the summary added up over the
 * ranks (events, completions, arrivals, each message's flags, the
 * integrity figures), the counters of the ports other ranks ran given to
 * rank 0's fabric, and rank 0's lines on where a window's time went.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_fabric.h"
#include "uet_nic.h"
#include "uet_sync_local.h"
#include "run_clock.h"
#include "run_mpi.h"

/* One port's counters at the end, from the rank that ran it. */
struct mpi_port {
	uint64_t port;
	struct uet_fabric_port_stats stats;
	struct uet_fabric_tc_record tc[UET_FABRIC_TCS];
};

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
	rc = run_mpi_ops(run)->sum(m->rk.arg, c, 3);
	if (rc < 0)
		return rc;
	*nic_events = c[0];
	/* The events are the model's work: how evenly the shares split it;
	 * the wall of this rank's model and sync, how evenly it ran. */
	if (m->rk.ranks > 1) {
		uint64_t model_ns, sync_ns;

		uet_sync_local_costs(run->local, &model_ns, &sync_ns);
		fprintf(stderr,
			"%s: rank %u of %u ran %" PRIu64
			" events, %.1f%% of the run's, in %.1f ms of model "
			"and %.1f ms of sync\n",
			run->prog, m->rk.rank, m->rk.ranks, mine,
			c[0] > 0 ? 100.0 * (double)mine / (double)c[0] : 0.0,
			(double)model_ns / 1e6, (double)sync_ns / 1e6);
	}
	run->completed = (uint32_t)c[1];
	run->arrived = (uint32_t)c[2];
	flags = calloc(run->n_messages + 1u, sizeof(*flags));
	if (flags == NULL)
		return -ENOMEM;
	for (i = 0; i < run->n_messages; i++)
		flags[i] = run->msg_flags[i];
	rc = run_mpi_ops(run)->sum(m->rk.arg, flags, run->n_messages);
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
	rc = run_mpi_ops(run)->exchange(rk->arg, NULL, send, send_len, recv,
					recv_len);
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

void run_mpi_report(struct run *run, int rc, struct uet_run_result *res)
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
			run->prog, run->mpi->rk.rank, run_mpi_text(run));
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
			run->prog, run->mpi->rk.rank, run_mpi_text(run));
}

/* The NICs' integrity counts, over the ranks (each NIC's are where it
 * ran; the others' stand-ins count nothing). */
void run_mpi_combine(struct run *run, struct uet_run_result *res)
{
	uint64_t c[4] = {res->payload_mismatches, res->in_flight_anomalies,
			 res->psns_taken, res->psns_retired};

	if (run->mpi == NULL ||
	    run_mpi_ops(run)->sum(run->mpi->rk.arg, c, 4) < 0)
		return;
	res->payload_mismatches = c[0];
	res->in_flight_anomalies = c[1];
	res->psns_taken = c[2];
	res->psns_retired = c[3];
}
