/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The MPI clock role's part of each window's message (uet_sync_ranks'
 * pack, pack_root and unpack): the arrivals a rank's NICs saw, beyond
 * rank 0 its NICs' record rows of the window and the captures of its
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

/* This rank's part of a window's message: the arrivals its NICs saw
 * (every rank's senders write them in flows.csv), then, beyond rank 0,
 * its NICs' record rows of the window. */
int run_mpi_pack(void *warg, uint8_t **buf, size_t *len, size_t *cap)
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

/* The window's captures into this rank's message to rank 0: a count of
 * ports, then each port, its bytes' length and its frames. */
int run_mpi_pack_root(void *warg, uint8_t **buf, size_t *len, size_t *cap)
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
int run_mpi_unpack(void *warg, uint32_t r, const uint8_t *src, size_t len)
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
