/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The collectives of a run over ranks (uet_sync_ranks.h) as MPI calls:
 * each window's frames and rows as one message to each other rank
 * (MPI_Isend, taken with MPI_Improbe and MPI_Imrecv, its size unknown
 * beforehand), the agreement as one MPI_Iallreduce. Each is waited for
 * with MPI_Test, so that a rank told to stop (SIGTERM: mpirun ends the
 * job when a rank dies) leaves the wait, and closes its files as an
 * interrupted run does, instead of hanging in it; and a rank that does
 * not answer within the timeout (alive but hung, or stopped) ends the
 * wait with a message naming it. The communicator returns its errors,
 * so that a failed call ends the run with MPI's own text and the window
 * it failed in, not an abort with neither.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static uint64_t ranks_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Between two tests of a wait begun at t0: a stop or the timeout ends
 * it (the text says which); 0: test again. */
static int ranks_still(struct mpi_ranks *m, uint64_t t0, const char *call)
{
	if (m->stop != NULL && *m->stop != 0) {
		snprintf(m->error, sizeof(m->error),
			 "%s: stopped by a signal while waiting for the other "
			 "ranks",
			 call);
		return -EINTR;
	}
	if (m->timeout_ns != 0 && ranks_now_ns() - t0 >= m->timeout_ns) {
		m->timed_out = true;
		return -ETIMEDOUT;
	}
	/* More ranks than CPUs: let the others run. */
	sched_yield();
	return 0;
}

/* Wait for a non-blocking collective, a stop or the timeout. A wait
 * left so leaves the request: the run ends, and MPI with it. */
static int ranks_wait(struct mpi_ranks *m, MPI_Request *req, const char *call)
{
	const uint64_t t0 = ranks_now_ns();
	int done = 0, rc;

	/* A rank that hung once is not waited for again: the run ends,
	 * its first text kept. */
	if (m->timed_out)
		return -ETIMEDOUT;

	for (;;) {
		rc = MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS)
			return mpi_failed(m, call, rc);
		if (done)
			return 0;
		rc = ranks_still(m, t0, call);
		/* Which rank is late a collective does not say; of two,
		 * it is the other one. */
		if (rc == -ETIMEDOUT && m->size == 2)
			snprintf(
				m->error, sizeof(m->error),
				"%s: rank %d did not join it within %.1f s (it "
				"hangs, or is stopped)",
				call, 1 - m->rank, (double)m->timeout_ns / 1e9);
		else if (rc == -ETIMEDOUT)
			snprintf(m->error, sizeof(m->error),
				 "%s: not every rank joined it within %.1f s "
				 "(a rank hangs, or is stopped)",
				 call, (double)m->timeout_ns / 1e9);
		if (rc < 0)
			return rc;
	}
}

/* Room for n bytes of rank r's message. */
static int ranks_room(struct mpi_ranks *m, int r, size_t n)
{
	uint8_t *p;

	if (n <= m->cap_recv[r])
		return 0;
	p = realloc(m->recv[r], n);
	if (p == NULL)
		return -ENOMEM;
	m->recv[r] = p;
	m->cap_recv[r] = n;
	return 0;
}

/* Post the receive of rank r's message of the window if it has come. */
static int ranks_probe(struct mpi_ranks *m, int r, size_t *recv_len)
{
	MPI_Message msg;
	MPI_Status st;
	int flag = 0, count = 0, rc;

	rc = MPI_Improbe(r, MPI_RANKS_TAG, m->comm, &flag, &msg, &st);
	if (rc != MPI_SUCCESS)
		return mpi_failed(m, "MPI_Improbe", rc);
	if (!flag)
		return 0;
	rc = MPI_Get_count(&st, MPI_BYTE, &count);
	if (rc != MPI_SUCCESS)
		return mpi_failed(m, "MPI_Get_count", rc);
	/* Never an empty buffer: MPI may be given no NULL. */
	if (ranks_room(m, r, (size_t)count + 1u) < 0)
		return -ENOMEM;
	rc = MPI_Imrecv(m->recv[r], count, MPI_BYTE, &msg,
			&m->reqs[m->size + r]);
	if (rc != MPI_SUCCESS)
		return mpi_failed(m, "MPI_Imrecv", rc);
	recv_len[r] = (size_t)count;
	m->posted[r] = 1;
	return 1;
}

/* Why the exchange timed out: the first rank whose message has not come,
 * or, all come, the first that has not taken this rank's. */
static void ranks_exchange_late(struct mpi_ranks *m)
{
	int r, flag = 0;

	for (r = 0; r < m->size; r++)
		if (r != m->rank && !m->posted[r]) {
			snprintf(m->error, sizeof(m->error),
				 "no message from rank %d within %.1f s (it "
				 "hangs, or is stopped)",
				 r, (double)m->timeout_ns / 1e9);
			return;
		}
	for (r = 0; r < m->size; r++) {
		if (r == m->rank || m->reqs[r] == MPI_REQUEST_NULL ||
		    MPI_Test(&m->reqs[r], &flag, MPI_STATUS_IGNORE) !=
			    MPI_SUCCESS ||
		    flag)
			continue;
		snprintf(m->error, sizeof(m->error),
			 "rank %d did not take this rank's message within "
			 "%.1f s (it hangs, or is stopped)",
			 r, (double)m->timeout_ns / 1e9);
		return;
	}
	snprintf(m->error, sizeof(m->error),
		 "the exchange did not end within %.1f s",
		 (double)m->timeout_ns / 1e9);
}

static int ranks_exchange(void *arg, const uint8_t *peers,
			  const uint8_t *const *send, const size_t *send_len,
			  const uint8_t **recv, size_t *recv_len)
{
	struct mpi_ranks *m = arg;
	uint64_t t0;
	int r, rc, left = 0, done = 0;

	if (m->timed_out)
		return -ETIMEDOUT; /* the text says which rank */

	for (r = 0; r < 2 * m->size; r++)
		m->reqs[r] = MPI_REQUEST_NULL;
	for (r = 0; r < m->size; r++) {
		/* Neither this rank nor one it has no link to is waited
		 * for. */
		m->posted[r] = r == m->rank || (peers != NULL && !peers[r]);
		recv_len[r] = 0;
		recv[r] = NULL;
		if (m->posted[r])
			continue;
		left++;
		if (send_len[r] > (size_t)INT_MAX) {
			snprintf(m->error, sizeof(m->error),
				 "a window's message of %zu bytes to rank %d "
				 "is over MPI's count limit",
				 send_len[r], r);
			return -E2BIG;
		}
		rc = MPI_Isend(send[r], (int)send_len[r], MPI_BYTE, r,
			       MPI_RANKS_TAG, m->comm, &m->reqs[r]);
		if (rc != MPI_SUCCESS)
			return mpi_failed(m, "MPI_Isend", rc);
	}
	t0 = ranks_now_ns();
	for (;;) {
		for (r = 0; left > 0 && r < m->size; r++) {
			if (m->posted[r])
				continue;
			rc = ranks_probe(m, r, recv_len);
			if (rc < 0)
				return rc;
			left -= rc;
		}
		rc = MPI_Testall(2 * m->size, m->reqs, &done,
				 MPI_STATUSES_IGNORE);
		if (rc != MPI_SUCCESS)
			return mpi_failed(m, "MPI_Testall", rc);
		if (done && left == 0)
			break;
		rc = ranks_still(m, t0, "the exchange");
		if (rc == -ETIMEDOUT)
			ranks_exchange_late(m);
		if (rc < 0)
			return rc;
	}
	for (r = 0; r < m->size; r++)
		recv[r] = r != m->rank && (peers == NULL || peers[r])
				  ? m->recv[r]
				  : NULL;
	return 0;
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
	.exchange = ranks_exchange,
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
	m->reqs = calloc(2u * (size_t)m->size, sizeof(*m->reqs));
	m->posted = calloc((size_t)m->size, sizeof(*m->posted));
	m->recv = calloc((size_t)m->size, sizeof(*m->recv));
	m->cap_recv = calloc((size_t)m->size, sizeof(*m->cap_recv));
	if (m->counts == NULL || m->displs == NULL || m->offs == NULL ||
	    m->reqs == NULL || m->posted == NULL || m->recv == NULL ||
	    m->cap_recv == NULL) {
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
	int r;

	for (r = 0; m->recv != NULL && r < m->size; r++)
		free(m->recv[r]);
	free(m->recv);
	free(m->cap_recv);
	free(m->reqs);
	free(m->posted);
	m->recv = NULL;
	m->cap_recv = NULL;
	m->reqs = NULL;
	m->posted = NULL;
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
