/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The collectives of a run over ranks (uet_sync_ranks.h) as MPI calls:
 * each window's frames and rows as one MPI_Iallgatherv (their sizes by an
 * MPI_Iallgather first), the agreement as one MPI_Iallreduce. Each is
 * waited for with MPI_Test, so that a rank told to stop (SIGTERM: mpirun
 * ends the job when a rank dies) leaves the wait, and closes its files
 * as an interrupted run does, instead of hanging in it. The
 * communicator returns its errors, so that a failed call ends the run
 * with MPI's own text and the window it failed in, not an abort with
 * neither.
 */
#include <errno.h>
#include <sched.h>
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

/* Wait for a non-blocking collective, or for a stop. A stopped wait
 * leaves the request: the run ends, and MPI with it. */
static int ranks_wait(struct mpi_ranks *m, MPI_Request *req, const char *call)
{
	int done = 0, rc;

	for (;;) {
		rc = MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS)
			return mpi_failed(m, call, rc);
		if (done)
			return 0;
		if (m->stop != NULL && *m->stop != 0) {
			snprintf(m->error, sizeof(m->error),
				 "%s: stopped by a signal while waiting for "
				 "the other ranks",
				 call);
			return -EINTR;
		}
		/* More ranks than CPUs: let the others run. */
		sched_yield();
	}
}

static int ranks_allgather(void *arg, const void *send, size_t len,
			   const uint8_t **all, const size_t **offs)
{
	struct mpi_ranks *m = arg;
	size_t total = 0;
	MPI_Request req;
	int r, rc;

	if (len > (size_t)INT32_MAX) {
		snprintf(m->error, sizeof(m->error),
			 "a window's message of %zu bytes is over MPI's "
			 "count limit",
			 len);
		return -E2BIG;
	}
	m->count = (int)len;
	rc = MPI_Iallgather(&m->count, 1, MPI_INT, m->counts, 1, MPI_INT,
			    m->comm, &req);
	if (rc != MPI_SUCCESS)
		return mpi_failed(m, "MPI_Iallgather", rc);
	rc = ranks_wait(m, &req, "MPI_Iallgather");
	if (rc < 0)
		return rc;
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
	rc = MPI_Iallgatherv(send, m->count, MPI_BYTE, m->all, m->counts,
			     m->displs, MPI_BYTE, m->comm, &req);
	if (rc != MPI_SUCCESS)
		return mpi_failed(m, "MPI_Iallgatherv", rc);
	rc = ranks_wait(m, &req, "MPI_Iallgatherv");
	if (rc < 0)
		return rc;
	*all = m->all;
	*offs = m->offs;
	return 0;
}

/* Room for n bytes in m->buf: a collective left behind by a stop still
 * owns its buffer, so it is never the caller's stack. */
static int ranks_buf(struct mpi_ranks *m, size_t n)
{
	void *p;

	if (n <= m->cap_buf)
		return 0;
	p = realloc(m->buf, n);
	if (p == NULL)
		return -ENOMEM;
	m->buf = p;
	m->cap_buf = n;
	return 0;
}

static int ranks_reduce(struct mpi_ranks *m, uint64_t *v, uint32_t n, MPI_Op op)
{
	const size_t bytes = (size_t)n * sizeof(*v);
	MPI_Request req;
	int rc;

	if (ranks_buf(m, bytes) < 0)
		return -ENOMEM;
	memcpy(m->buf, v, bytes);
	rc = MPI_Iallreduce(MPI_IN_PLACE, m->buf, (int)n, MPI_UINT64_T, op,
			    m->comm, &req);
	if (rc != MPI_SUCCESS)
		return mpi_failed(m, "MPI_Iallreduce", rc);
	rc = ranks_wait(m, &req, "MPI_Iallreduce");
	if (rc == 0)
		memcpy(v, m->buf, bytes);
	return rc;
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
	MPI_Request req;
	int rc;

	if (ranks_buf(m, len) < 0)
		return -ENOMEM;
	memcpy(m->buf, buf, len);
	rc = MPI_Ibcast(m->buf, (int)len, MPI_BYTE, (int)root, m->comm, &req);
	if (rc != MPI_SUCCESS)
		return mpi_failed(m, "MPI_Ibcast", rc);
	rc = ranks_wait(m, &req, "MPI_Ibcast");
	if (rc == 0)
		memcpy(buf, m->buf, len);
	return rc;
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
	free(m->buf);
	m->buf = NULL;
	m->counts = NULL;
	m->displs = NULL;
	m->offs = NULL;
	m->all = NULL;
}
