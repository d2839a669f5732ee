/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MPI clock role's part of each window's message (uet_sync_ranks'
 * pack, pack_root and unpack): the arrivals a rank's NICs saw, a
 * program's completions of the window (run_workload.h), beyond rank 0
 * its NICs' record rows of the window and the captures of its
 * parts' host ports, which rank 0 writes into the run's files in one
 * process's order (docs/lockstep.md, "Over ranks").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "uet_capture.h"
#include "uet_record.h"
#include "uet_ses.h"
#include "run_mpi.h"
#include "run_workload.h"

/* Room for more bytes at *buf (len used of cap). */
static int mpi_room(uint8_t **buf, size_t len, size_t *cap, size_t more)
{
	size_t c = *cap != 0 ? *cap : 4096u;
	uint8_t *p;

	if (len + more <= *cap)
		return 0;
	while (c < len + more)
		c *= 2;
	p = realloc(*buf, c);
	if (p == NULL)
		return -ENOMEM;
	*buf = p;
	*cap = c;
	return 0;
}

/* A program's completions of the window (run_workload.h): every rank
 * replays them into its engine before its flush. */
static int mpi_pack_wl(struct run *run, uint8_t **buf, size_t *len, size_t *cap)
{
	const size_t need = run_wl_log_bytes(run->wl);
	size_t used;
	int rc;

	if (mpi_room(buf, *len, cap, need) < 0)
		return -ENOMEM;
	rc = run_wl_pack_log(run->wl, *buf + *len, need, &used);
	if (rc == 0)
		*len += used;
	return rc;
}

/*
 * This rank's part of a window's message to each rank it exchanges
 * with: the arrivals its NICs saw (a sender's flows.csv row names its
 * message's arrival, and the sender may be on any rank). Past two ranks
 * a rank exchanges only with those its parts have links to, and rank 0,
 * so rank 0 passes on, a window later, every arrival another rank told
 * it: a message completes at its sender two windows after its arrival
 * at the earliest (its last ACK crosses two links at least), so the
 * sender's rank has it in time.
 */
int run_mpi_pack(void *warg, uint8_t **buf, size_t *len, size_t *cap)
{
	struct run *run = warg;
	struct run_mpi *m = run->mpi;
	const uint32_t n =
		__atomic_load_n(&run->n_arrived_log, __ATOMIC_ACQUIRE);
	const uint32_t k = n - m->arrivals_sent + m->n_relay;
	uint32_t i;
	uint8_t *p;

	if (mpi_room(buf, *len, cap, sizeof(k) + (size_t)k * 16u) < 0)
		return -ENOMEM;
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
	if (m->n_relay > 0)
		memcpy(p, m->relay, (size_t)m->n_relay * 16u);
	p += (size_t)m->n_relay * 16u;
	m->arrivals_sent = n;
	m->n_relay = 0;
	*len = (size_t)(p - *buf);
	return run->wl != NULL ? mpi_pack_wl(run, buf, len, cap) : 0;
}

/* Beyond rank 0, its NICs' record rows of the window, for rank 0: a
 * count of NICs, then each NIC's index and its rows. */
static int mpi_pack_rows(struct run *run, uint8_t **buf, size_t *len,
			 size_t *cap)
{
	const struct run_mpi *m = run->mpi;
	uint32_t i, views = 0;
	size_t views_at = *len;

	if (mpi_room(buf, *len, cap, sizeof(views)) < 0)
		return -ENOMEM;
	*len += sizeof(views);
	for (i = m->rk.nic_first;
	     run->nic_rec != NULL && i < m->rk.nic_first + m->rk.nic_count;
	     i++) {
		int rc;

		if (uet_record_view_bytes(run->nic_rec[i]) == 0)
			continue;
		if (mpi_room(buf, *len, cap, sizeof(i)) < 0)
			return -ENOMEM;
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
void run_mpi_on_capture(void *ctx, uint32_t port, const struct rte_mbuf *m,
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

/* This rank's part of its message to rank 0 only: its NICs' rows of
 * the window, then its captures: a count of ports, then each port, its
 * bytes' length and its frames. */
int run_mpi_pack_root(void *warg, uint8_t **buf, size_t *len, size_t *cap)
{
	struct run *run = warg;
	struct run_mpi *m = run->mpi;
	uint32_t i, ports = 0;
	size_t need = sizeof(ports), at;
	int rc = mpi_pack_rows(run, buf, len, cap);

	if (rc < 0)
		return rc;

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

/* An arrival another rank told rank 0, passed on in its next message. */
static int mpi_relay(struct run_mpi *m, uint64_t id, uint64_t t)
{
	if (m->n_relay == m->cap_relay) {
		const uint32_t c = m->cap_relay != 0 ? 2 * m->cap_relay : 64u;
		uint64_t *p = realloc(m->relay, (size_t)c * 16u);

		if (p == NULL)
			return -ENOMEM;
		m->relay = p;
		m->cap_relay = c;
	}
	m->relay[2 * m->n_relay] = id;
	m->relay[2 * m->n_relay + 1] = t;
	m->n_relay++;
	return 0;
}

/* Rank r's NICs' rows into rank 0's views of them, flushed with the
 * others' in host order; *at moves past them. */
static int mpi_unpack_rows(struct run *run, const uint8_t *src, size_t len,
			   size_t *at)
{
	const struct run_mpi *m = run->mpi;
	uint32_t views, i;

	if (len - *at < sizeof(views))
		return -EBADMSG;
	memcpy(&views, src + *at, sizeof(views));
	*at += sizeof(views);
	for (i = 0; i < views; i++) {
		uint32_t nic;
		size_t used;
		int rc;

		if (len - *at < sizeof(nic))
			return -EBADMSG;
		memcpy(&nic, src + *at, sizeof(nic));
		*at += sizeof(nic);
		/* Rows of a NIC this rank runs come from no other. */
		if (nic >= run->count ||
		    (nic >= m->rk.nic_first &&
		     nic - m->rk.nic_first < m->rk.nic_count) ||
		    run->nic_rec == NULL)
			return -EBADMSG;
		rc = uet_record_view_import(run->nic_rec[nic], src + *at,
					    len - *at, &used);
		if (rc < 0)
			return rc;
		*at += used;
	}
	return 0;
}

/* Rank r's part: its arrivals into the table (at rank 0, past two ranks,
 * kept to pass on), and at rank 0 its NICs' rows and its captures. */
int run_mpi_unpack(void *warg, uint32_t r, const uint8_t *src, size_t len)
{
	struct run *run = warg;
	struct run_mpi *m = run->mpi;
	const bool relay =
		m->rk.rank == 0 && m->rk.ranks > 2 && !m->rk.all_peers;
	uint32_t k, i;
	size_t at = sizeof(k);
	int rc;

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
		if (run->arrivals == NULL || id >= run->n_messages)
			continue;
		uet_ses_arrivals_set(run->arrivals, id, t);
		if (relay && mpi_relay(m, id, t) < 0)
			return -ENOMEM;
	}
	if (run->wl != NULL) {
		size_t used;

		rc = run_wl_replay(run->wl, src + at, len - at, &used);
		if (rc == -EBADMSG)
			return rc;
		/* The engine's failure is kept: the window fails on it. */
		at += used;
	}
	if (m->rk.rank != 0 || r == 0)
		return 0;
	rc = mpi_unpack_rows(run, src, len, &at);
	return rc < 0 ? rc : mpi_unpack_captures(run, src + at, len - at);
}
