/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/sync's collectives over ranks (uet_sync_ranks.h) made of MPI calls
 * on one communicator. */
#ifndef MPI_RANKS_H
#define MPI_RANKS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "uet_sync_ranks.h"

/* The tag of the windows' messages (the only point-to-point ones). */
#define MPI_RANKS_TAG 30

/** The MPI side of a run's ranks. */
struct mpi_ranks {
	MPI_Comm comm;
	int rank, size;
	int *counts;  /**< per rank, for MPI_Allgatherv */
	int *displs;  /**< per rank */
	size_t *offs; /**< size + 1, what allgather() returns */
	uint8_t *all; /**< every rank's bytes */
	size_t cap_all;
	int count;	   /**< this rank's bytes, while they are gathered */
	MPI_Request *reqs; /**< 2 * size: the window's sends, receives */
	char *posted;	   /**< per rank: its message's receive posted */
	uint8_t **recv;	   /**< per rank: its message of the window */
	size_t *cap_recv;
	uint8_t *buf; /**< what a reduction or a broadcast works on */
	size_t cap_buf;
	/** ns a wait for the other ranks may take (0: no limit); past it
	 * the wait ends, -ETIMEDOUT, and timed_out is set. */
	uint64_t timeout_ns;
	bool timed_out;
	/** Set by a signal: a wait for the other ranks ends (-EINTR). */
	const volatile sig_atomic_t *stop;
	char error[MPI_MAX_ERROR_STRING + 64];
};

/** Set @p m up on @p comm (errors returned, not fatal) and fill @p rk
 * with this rank and the ops. 0 or -ENOMEM. */
int mpi_ranks_init(struct mpi_ranks *m, MPI_Comm comm,
		   struct uet_sync_ranks *rk);

void mpi_ranks_fini(struct mpi_ranks *m);

#endif /* MPI_RANKS_H */
