/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MPI clock role's state and the parts of it its files share
 * (run_clock_mpi.c: set-up and the role's ops; run_mpi_window.c: the
 * wiring's part of each window's message; run_mpi_end.c: what the ranks
 * add up and gather at the end).
 */
#ifndef RUN_MPI_H
#define RUN_MPI_H

#include <stdint.h>

#include "run_private.h"
#include "uet_sync_ranks.h"

struct uet_run_result;

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
	/* At rank 0, past two ranks: the arrivals the others told it in the
	 * window, passed on in its next message (id, time pairs). */
	uint64_t *relay;
	uint32_t n_relay, cap_relay;
};

static inline const struct uet_sync_ranks_ops *
run_mpi_ops(const struct run *run)
{
	return run->conf->ranks->ops;
}

/** Why the ranks' last collective failed (the library's text). */
static inline const char *run_mpi_text(const struct run *run)
{
	return run_mpi_ops(run)->error(run->conf->ranks->arg);
}

/* run_mpi_window.c: the wiring's part of a window's message
 * (uet_sync_ranks' pack, pack_root, unpack) and the capture hook that
 * keeps, beyond rank 0, the frames rank 0 writes. */
int run_mpi_pack(void *warg, uint8_t **buf, size_t *len, size_t *cap);
int run_mpi_pack_root(void *warg, uint8_t **buf, size_t *len, size_t *cap);
int run_mpi_unpack(void *warg, uint32_t r, const uint8_t *src, size_t len);
void run_mpi_on_capture(void *ctx, uint32_t port, const struct rte_mbuf *m,
			uet_time_t time_ps, bool to_host);

/* run_mpi_end.c: the role's report and combine (counts added up over
 * the ranks, the ports' counters gathered at rank 0). */
void run_mpi_report(struct run *run, int rc, struct uet_run_result *res);
void run_mpi_combine(struct run *run, struct uet_run_result *res);

#endif /* RUN_MPI_H */
