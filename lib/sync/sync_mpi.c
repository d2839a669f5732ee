/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The window engine's transport over ranks (uet_sync_ranks.h,
 * docs/lockstep.md, "Over ranks"). Each rank runs the lcores' window of
 * its own NICs and of a whole copy of the switch; what crosses ranks is
 * what the NICs send the switch. After the NICs' phase of a window every
 * rank hands every other one its NICs' frames of the window (and the
 * wiring's part: the NICs' record rows); each rank copies the others'
 * into the outboxes of the NICs that stand in for theirs, so every copy
 * of the switch takes the same frames in the same order and sends the
 * same frames back: a rank keeps those for its own NICs and drops the
 * rest. The agreement is one least-of over the ranks: the next event,
 * the first rank that failed, whether a rank was stopped.
 *
 * The windows, the delivery order and the first-failure rule are the
 * engine's and the lcores' (sync_engine.c, sync_local_window.c), so the
 * records are those of one process for any number of ranks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "sync_local_private.h"
#include "uet_log.h"

/* One frame in a rank's message, its bytes after it. */
struct mpi_frame_hdr {
	uint32_t nic;
	uint32_t len;
	uint64_t arrival_ps;
};

/* What the failing rank tells the others. */
struct mpi_failure {
	int32_t err;
	char text[UET_SYNC_ERROR_BYTES];
};

/* The agreement's values, each the least over the ranks. */
enum {
	MPI_VOTE_NEXT = 0,
	MPI_VOTE_FAILED,
	MPI_VOTE_RUNNING,
	/* Wall ns of this rank's exchange of the window and of its
	 * agreement of the window before: their least over the ranks is
	 * what the transport cost, without the wait for a slower rank. */
	MPI_VOTE_SEND_NS,
	MPI_VOTE_AGREE_NS,
	MPI_VOTE_N
};

static int msg_room(struct uet_sync_local *local, size_t more)
{
	size_t cap = local->msg_cap != 0 ? local->msg_cap : 4096u;
	uint8_t *p;

	if (local->msg_len + more <= local->msg_cap)
		return 0;
	while (cap < local->msg_len + more)
		cap *= 2;
	p = realloc(local->msg, cap);
	if (p == NULL)
		return -ENOMEM;
	local->msg = p;
	local->msg_cap = cap;
	return 0;
}

/* NIC n's frames of the window into the message; they stay in its outbox,
 * in the same order (so with the same order numbers), for this rank's
 * switch. */
static int pack_nic(struct uet_sync_local *local, struct local_nic *n,
		    uint32_t x, uint32_t *count)
{
	struct uet_xring *out = &n->outbox[x];
	const uint32_t k = uet_xring_count(out);
	uint32_t i, got;
	int rc = 0;

	if (k == 0)
		return 0;
	if (k > local->cap_msg_frames) {
		void *p = realloc(local->msg_frames,
				  k * sizeof(*local->msg_frames));

		if (p == NULL)
			return -ENOMEM;
		local->msg_frames = p;
		local->cap_msg_frames = k;
	}
	got = uet_xring_take(out, local->msg_frames, k);
	for (i = 0; i < got; i++) {
		struct uet_xframe *f = &local->msg_frames[i];
		const struct mpi_frame_hdr h = {
			.nic = n->index,
			.len = rte_pktmbuf_pkt_len(f->m),
			.arrival_ps = f->arrival_ps,
		};

		if (rc == 0)
			rc = msg_room(local, sizeof(h) + h.len);
		if (rc == 0) {
			uint8_t *at = local->msg + local->msg_len;
			const void *d;

			memcpy(at, &h, sizeof(h));
			d = rte_pktmbuf_read(f->m, 0, h.len, at + sizeof(h));
			if (d != at + sizeof(h))
				memcpy(at + sizeof(h), d, h.len);
			local->msg_len += sizeof(h) + h.len;
			(*count)++;
		}
		if (uet_xring_put(out, f->m, f->arrival_ps, f->port) < 0) {
			rte_pktmbuf_free(f->m);
			rc = -ENOMEM;
		}
	}
	return rc;
}

static void frame_free(void *addr, void *opaque)
{
	(void)addr;
	free(opaque);
}

/*
 * A copy of a frame from another rank: one mbuf of the pool (as the frame
 * took one header mbuf where it was built) holding the bytes in a buffer
 * of the C heap, freed with the mbuf. The pool's mbufs hold headers only
 * (a data frame's payload is attached to the pattern where it is built),
 * so copying into them took a chain of dozens a frame and ran the pool
 * dry.
 */
static struct rte_mbuf *frame_copy(struct rte_mempool *mp, const uint8_t *src,
				   uint32_t len)
{
	struct rte_mbuf_ext_shared_info *shinfo;
	uint16_t buf_len;
	struct rte_mbuf *m;
	size_t size;
	uint8_t *buf;

	size = (size_t)RTE_PKTMBUF_HEADROOM + len + sizeof(*shinfo) + 8u;
	if (size > UINT16_MAX)
		return NULL;
	m = rte_pktmbuf_alloc(mp);
	if (m == NULL)
		return NULL;
	buf = malloc(size);
	if (buf == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	buf_len = (uint16_t)size;
	shinfo = rte_pktmbuf_ext_shinfo_init_helper(buf, &buf_len, frame_free,
						    buf);
	if (shinfo == NULL) {
		free(buf);
		rte_pktmbuf_free(m);
		return NULL;
	}
	rte_pktmbuf_attach_extbuf(m, buf, RTE_BAD_IOVA, buf_len, shinfo);
	m->data_off = RTE_PKTMBUF_HEADROOM;
	memcpy(buf + RTE_PKTMBUF_HEADROOM, src, len);
	m->data_len = (uint16_t)len;
	m->pkt_len = len;
	return m;
}

/* Rank r's frames into the outboxes of the NICs that stand in for its. */
static int unpack_frames(struct uet_sync_local *local, uint32_t r,
			 const uint8_t *src, size_t len, size_t *used)
{
	const uint32_t x = (uint32_t)(local->seq & 1u);
	uint32_t n_frames, i;
	size_t at = sizeof(n_frames);

	if (len < sizeof(n_frames))
		return -EBADMSG;
	memcpy(&n_frames, src, sizeof(n_frames));
	for (i = 0; i < n_frames; i++) {
		struct mpi_frame_hdr h;
		struct rte_mbuf *m;

		if (len - at < sizeof(h))
			return -EBADMSG;
		memcpy(&h, src + at, sizeof(h));
		at += sizeof(h);
		if (len - at < h.len || h.nic >= local->conf.n_nics ||
		    !local->nics[h.nic].remote)
			return local_fail(&local->error, -EBADMSG,
					  "rank %u sent a frame of nic %u, "
					  "not one of its NICs",
					  r, h.nic);
		m = frame_copy(local->conf.ranks->mp, src + at, h.len);
		if (m == NULL)
			return local_fail(&local->error, -ENOMEM,
					  "no mbuf for a frame of nic %u from "
					  "rank %u: the pool ran dry",
					  h.nic, r);
		if (uet_xring_put(&local->nics[h.nic].outbox[x], m,
				  h.arrival_ps, h.nic) < 0) {
			rte_pktmbuf_free(m);
			return local_fail(&local->error, -ENOMEM,
					  "cannot queue a frame of nic %u",
					  h.nic);
		}
		if (h.arrival_ps < local->remote_min_ps)
			local->remote_min_ps = h.arrival_ps;
		local->stats.data_frames_rx++;
		at += h.len;
	}
	*used = at;
	return 0;
}

/* The collective failed: the library's text, the rank, the window. */
static int ranks_failed(struct uet_sync_local *local, int rc, const char *what)
{
	const struct uet_sync_ranks *rk = local->conf.ranks;

	return local_fail(&local->error, rc < 0 ? rc : -EIO,
			  "rank %u: %s over the ranks failed in window "
			  "[%" PRIu64 ", %" PRIu64 ") ps: %s",
			  rk->rank, what, local->window_start_ps,
			  local->window_end_ps, rk->ops->error(rk->arg));
}

/* This rank's message: its NICs' frames, then the wiring's part. */
static int pack(struct uet_sync_local *local, bool frames)
{
	const struct uet_sync_ranks *rk = local->conf.ranks;
	const uint32_t x = (uint32_t)(local->seq & 1u);
	uint32_t n_frames = 0, i;
	int rc;

	local->msg_len = 0;
	rc = msg_room(local, sizeof(n_frames));
	if (rc < 0)
		return rc;
	local->msg_len = sizeof(n_frames);
	for (i = rk->nic_first; frames && i < rk->nic_first + rk->nic_count;
	     i++) {
		rc = pack_nic(local, &local->nics[i], x, &n_frames);
		if (rc < 0)
			return rc;
	}
	memcpy(local->msg, &n_frames, sizeof(n_frames));
	local->rank_costs.frames += n_frames;
	return rk->pack != NULL ? rk->pack(rk->warg, &local->msg,
					   &local->msg_len, &local->msg_cap)
				: 0;
}

static int exchange(struct uet_sync_local *local, bool frames)
{
	const struct uet_sync_ranks *rk = local->conf.ranks;
	static const uint32_t none; /* a message of no frame */
	const uint8_t *msg;
	size_t len;
	uint32_t r;
	int rc, built;
	uint64_t t0, t1;

	/* One rank has nobody to tell: its NICs' rows are its files'. */
	if (rk->ranks == 1)
		return 0;
	t0 = sync_wall_ns();
	built = pack(local, frames);
	if (built < 0) {
		/* Sent anyway, empty: the others wait for it. The failure
		 * is this rank's of the window, agreed on at its end. */
		local_fail(&local->error, built,
			   "rank %u: cannot build its message of window "
			   "[%" PRIu64 ", %" PRIu64 ") ps: %s",
			   rk->rank, local->window_start_ps,
			   local->window_end_ps, strerror(-built));
		msg = (const uint8_t *)&none;
		len = sizeof(none);
	} else {
		msg = local->msg;
		len = local->msg_len;
	}
	for (r = 0; r < rk->ranks; r++) {
		local->peer_send[r] = msg;
		local->peer_send_len[r] = r != rk->rank ? len : 0;
	}
	t1 = sync_wall_ns();
	local->rank_costs.pack_ns += t1 - t0;
	local->rank_costs.bytes += (uint64_t)len * (rk->ranks - 1u);
	rc = rk->ops->exchange(rk->arg, local->peer_send, local->peer_send_len,
			       local->peer_recv, local->peer_recv_len);
	t0 = sync_wall_ns();
	local->rank_costs.send_ns += t0 - t1;
	local->send_window_ns = t0 - t1;
	if (rc < 0)
		return ranks_failed(local, rc, "the exchange of frames");
	local->remote_min_ps = UET_TIME_NEVER;
	for (r = 0; r < rk->ranks; r++) {
		const uint8_t *src = local->peer_recv[r];
		const size_t n = local->peer_recv_len[r];
		size_t used = 0;

		if (r == rk->rank)
			continue;
		rc = unpack_frames(local, r, src, n, &used);
		if (rc == 0 && rk->unpack != NULL)
			rc = rk->unpack(rk->warg, r, src + used, n - used);
		if (rc < 0)
			return local_fail(&local->error, rc,
					  "rank %u: the message of rank %u in "
					  "window [%" PRIu64 ", %" PRIu64
					  ") ps is not one it can read: %s",
					  rk->rank, r, local->window_start_ps,
					  local->window_end_ps, strerror(-rc));
	}
	local->rank_costs.unpack_ns += sync_wall_ns() - t0;
	return built;
}

/* What the switch sent the other ranks' NICs in the window before: their
 * ranks' copies of the switch sent them the same, and they take those. */
static void drop_remote_inboxes(struct uet_sync_local *local)
{
	uint32_t i;

	if (local->seq == 0)
		return;
	for (i = 0; i < local->conf.n_nics; i++)
		if (local->nics[i].remote &&
		    uet_xring_count(
			    &local->nics[i].inbox[(local->seq - 1u) & 1u]) > 0)
			local_nic_deliver(&local->nics[i], local->seq - 1u);
}

int sync_mpi_cross(struct uet_sync_local *local)
{
	const uint64_t t0 = sync_wall_ns();
	int rc;

	drop_remote_inboxes(local);
	rc = exchange(local, true);

	local->cross_ns += sync_wall_ns() - t0;
	return rc;
}

int sync_mpi_last(struct uet_sync_local *local)
{
	int rc = exchange(local, false);

	if (rc < 0)
		UET_LOG(ERROR, SYNC, "lockstep: %s", local->error.text);
	return rc;
}

/* The lcores' window; its failure is kept for the agreement, so that
 * every rank takes part in it. */
static int mpi_run(void *ctx, const struct sync_window *w)
{
	struct uet_sync_local *local = ctx;

	local->rank_err = local_transport_ops.run(ctx, w);
	return 0;
}

static int mpi_exchange(void *ctx, const struct sync_window *w)
{
	return local_transport_ops.exchange(ctx, w);
}

/*
 * The next window's E, the least over the ranks (each rank's includes the
 * frames on their way to its NICs and those of the other ranks' NICs it
 * took in); a failure anywhere stops every rank, the first failing rank's
 * text on all.
 */
static int mpi_agree(void *ctx, const struct sync_window *w,
		     struct sync_vote *v)
{
	struct uet_sync_local *local = ctx;
	const struct uet_sync_ranks *rk = local->conf.ranks;
	const bool stopped = local->rank_stop != NULL && *local->rank_stop;
	uint64_t vote[MPI_VOTE_N];
	struct mpi_failure f;
	uint64_t t0;
	int rc;

	vote[MPI_VOTE_NEXT] =
		local->rank_err < 0 ? UET_TIME_NEVER : sync_local_next(local);
	vote[MPI_VOTE_FAILED] = local->rank_err < 0 ? rk->rank : UINT64_MAX;
	vote[MPI_VOTE_RUNNING] = stopped ? 0 : 1;
	vote[MPI_VOTE_SEND_NS] = local->send_window_ns;
	vote[MPI_VOTE_AGREE_NS] = local->agree_window_ns;
	t0 = sync_wall_ns();
	rc = rk->ops->min(rk->arg, vote, MPI_VOTE_N);
	local->agree_window_ns = sync_wall_ns() - t0;
	local->rank_costs.agree_ns += local->agree_window_ns;
	if (rc < 0)
		return ranks_failed(local, rc, "the agreement");
	local->rank_costs.least_send_ns += vote[MPI_VOTE_SEND_NS];
	local->rank_costs.least_agree_ns += vote[MPI_VOTE_AGREE_NS];
	if (vote[MPI_VOTE_FAILED] != UINT64_MAX) {
		const uint32_t root = (uint32_t)vote[MPI_VOTE_FAILED];

		memset(&f, 0, sizeof(f));
		f.err = local->rank_err;
		memcpy(f.text, local->error.text, sizeof(f.text));
		rc = rk->ops->bcast(rk->arg, &f, sizeof(f), root);
		if (rc < 0)
			return ranks_failed(local, rc, "the failure's message");
		f.text[sizeof(f.text) - 1] = '\0';
		local->error.err = 0;
		return local_fail(&local->error, f.err < 0 ? f.err : -EIO,
				  "rank %u of %u failed in window [%" PRIu64
				  ", %" PRIu64 ") ps: %s",
				  root, rk->ranks, w->start_ps, w->end_ps,
				  f.text);
	}
	if (vote[MPI_VOTE_RUNNING] == 0)
		return local_fail(&local->error, -EINTR,
				  "stopped by a signal at %" PRIu64
				  " ps of virtual time",
				  w->end_ps);
	v->next_ps = vote[MPI_VOTE_NEXT];
	return 0;
}

const struct sync_transport_ops mpi_transport_ops = {
	.name = "mpi",
	.run = mpi_run,
	.exchange = mpi_exchange,
	.agree = mpi_agree,
};
