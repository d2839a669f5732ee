/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The collectives of a run over ranks (uet_sync_ranks.h) as MPI calls:
 * each window's frames and rows as one MPI_Allgatherv (their sizes by an
 * MPI_Allgather first), the agreement as one MPI_Allreduce. The
 * communicator returns its errors, so that a failed call ends the run
 * with MPI's own text and the window it failed in, not an abort with
 * neither.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_ranks.h"

static int mpi_failed(struct mpi_ranks *m, const char *call, int rc)
{
	char text[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
		snprintf(text, sizeof(text), "MPI error %d", rc);
	snprintf(m->error, sizeof(m->error), "%s: %s", call, text);
	return -EIO;
}

static int ranks_allgather(void *arg, const void *send, size_t len,
			   const uint8_t **all, const size_t **offs)
{
	struct mpi_ranks *m = arg;
	const int n = (int)len;
	size_t total = 0;
	int r, rc;

	if (len > (size_t)INT32_MAX) {
		snprintf(m->error, sizeof(m->error),
			 "a window's message of %zu bytes is over MPI's "
			 "count limit",
			 len);
		return -E2BIG;
	}
	rc = MPI_Allgather(&n, 1, MPI_INT, m->counts, 1, MPI_INT, m->comm);
	if (rc != MPI_SUCCESS)
		return mpi_failed(m, "MPI_Allgather", rc);
	for (r = 0; r < m->size; r++) {
		m->offs[r] = total;
		m->displs[r] = (int)total;
		total += (size_t)m->counts[r];
	}
	m->offs[m->size] = total;
	if (total > (size_t)INT32_MAX) {
		snprintf(m->error, sizeof(m->error),
			 "a window's messages of %zu bytes are over MPI's "
			 "count limit",
			 total);
		return -E2BIG;
	}
	if (total > m->cap_all) {
		uint8_t *p = realloc(m->all, total);

		if (p == NULL)
			return -ENOMEM;
		m->all = p;
		m->cap_all = total;
	}
	rc = MPI_Allgatherv(send, n, MPI_BYTE, m->all, m->counts, m->displs,
			    MPI_BYTE, m->comm);
	if (rc != MPI_SUCCESS)
		return mpi_failed(m, "MPI_Allgatherv", rc);
	*all = m->all;
	*offs = m->offs;
	return 0;
}

static int ranks_reduce(struct mpi_ranks *m, uint64_t *v, uint32_t n, MPI_Op op)
{
	int rc;

	rc = MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, op, m->comm);
	return rc == MPI_SUCCESS ? 0 : mpi_failed(m, "MPI_Allreduce", rc);
}

static int ranks_min(void *arg, uint64_t *v, uint32_t n)
{
	return ranks_reduce(arg, v, n, MPI_MIN);
}

static int ranks_sum(void *arg, uint64_t *v, uint32_t n)
{
	return ranks_reduce(arg, v, n, MPI_SUM);
}

static int ranks_bcast(void *arg, void *buf, size_t len, uint32_t root)
{
	struct mpi_ranks *m = arg;
	int rc;

	rc = MPI_Bcast(buf, (int)len, MPI_BYTE, (int)root, m->comm);
	return rc == MPI_SUCCESS ? 0 : mpi_failed(m, "MPI_Bcast", rc);
}

static const char *ranks_error(void *arg)
{
	const struct mpi_ranks *m = arg;

	return m->error;
}

static const struct uet_sync_ranks_ops mpi_ranks_ops = {
	.allgather = ranks_allgather,
	.min = ranks_min,
	.sum = ranks_sum,
	.bcast = ranks_bcast,
	.error = ranks_error,
};

int mpi_ranks_init(struct mpi_ranks *m, MPI_Comm comm,
		   struct uet_sync_ranks *rk)
{
	memset(m, 0, sizeof(*m));
	m->comm = comm;
	MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
	MPI_Comm_rank(comm, &m->rank);
	MPI_Comm_size(comm, &m->size);
	m->counts = calloc((size_t)m->size, sizeof(*m->counts));
	m->displs = calloc((size_t)m->size, sizeof(*m->displs));
	m->offs = calloc((size_t)m->size + 1u, sizeof(*m->offs));
	if (m->counts == NULL || m->displs == NULL || m->offs == NULL) {
		mpi_ranks_fini(m);
		return -ENOMEM;
	}
	memset(rk, 0, sizeof(*rk));
	rk->rank = (uint32_t)m->rank;
	rk->ranks = (uint32_t)m->size;
	rk->ops = &mpi_ranks_ops;
	rk->arg = m;
	return 0;
}

void mpi_ranks_fini(struct mpi_ranks *m)
{
	free(m->counts);
	free(m->displs);
	free(m->offs);
	free(m->all);
	m->counts = NULL;
	m->displs = NULL;
	m->offs = NULL;
	m->all = NULL;
}
