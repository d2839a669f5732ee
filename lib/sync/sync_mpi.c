/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The window engine's transport over ranks (uet_sync_ranks.h,
 * docs/lockstep.md, "Over ranks"). Each rank runs the lcores' window of
 * its own NICs and of its own parts of the switch
 * (uet_sync_rank_shares()); the others' stand in for theirs and never
 * run. What crosses ranks in a window (a NIC's frames to a part another
 * rank holds, a part's frames to another rank's part or NIC) is taken
 * out of its ring after the window, as one message to each rank, and
 * put into the same ring of the stand-in there, in the same order: the
 * ring is read in the next window, as in one process, so every part and
 * NIC takes the same frames in the same order. The agreement is one
 * least-of over the ranks: the next event, the first rank that failed,
 * whether a rank was stopped.
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
#include <rte_prefetch.h>

#include "sync_local_private.h"
#include "sync_mpi_frame.h"
#include "uet_log.h"

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

/* What a frame in a rank's message is for: where the receiver puts it. */
enum mpi_frame_kind {
	/* NIC a's frame to the switch: the receiver holds a's part. */
	MPI_FRAME_NIC_OUT = 1,
	/* Part a's frame on its ring b to a part the receiver holds. */
	MPI_FRAME_PART,
	/* The switch's frame to NIC a, which the receiver runs. */
	MPI_FRAME_NIC_IN,
};

/* Frames fetched ahead of the one being packed. */
#define PACK_AHEAD 4u

static int msg_room(struct sync_rank_msg *m, size_t more)
{
	size_t cap = m->cap != 0 ? m->cap : 4096u;
	uint8_t *p;

	if (m->len + more <= m->cap)
		return 0;
	while (cap < m->len + more)
		cap *= 2;
	p = realloc(m->buf, cap);
	if (p == NULL)
		return -ENOMEM;
	m->buf = p;
	m->cap = cap;
	return 0;
}

/* Every frame of ring into rank r's message (sync_mpi_frame.h), the
 * ring emptied. */
static int pack_ring(struct uet_sync_local *local, struct uet_xring *ring,
		     uint32_t r, uint32_t kind, uint32_t a, uint32_t b)
{
	struct sync_rank_msg *m = &local->peer_msg[r];
	const uint32_t k = uet_xring_count(ring);
	uint32_t i, got;
	int rc = 0;

	if (k == 0)
		return 0;
	if (k > local->cap_msg_frames) {
		void *p = realloc(local->msg_frames,
				  k * sizeof(*local->msg_frames));
		void *q = p == NULL ? NULL
				    : realloc(local->msg_mbufs,
					      k * sizeof(*local->msg_mbufs));

		if (p != NULL)
			local->msg_frames = p;
		if (q == NULL)
			return -ENOMEM;
		local->msg_mbufs = q;
		local->cap_msg_frames = k;
	}
	got = uet_xring_take(ring, local->msg_frames, k);
	/* The frames' mbufs are cold by now (they crossed the fabric): the
	 * ones a few ahead are fetched while this one is coded. */
	for (i = 0; i < got && i < PACK_AHEAD; i++)
		rte_prefetch0(local->msg_frames[i].m);
	for (i = 0; i < got; i++) {
		struct uet_xframe *f = &local->msg_frames[i];
		const struct sync_frame_head h = {
			.arrival_ps = f->arrival_ps,
			.kind = kind,
			.a = a,
			.b = b,
			.port = f->port,
		};

		if (i + PACK_AHEAD < got)
			rte_prefetch0(local->msg_frames[i + PACK_AHEAD].m);
		if (f->m->next != NULL)
			rte_prefetch0(f->m->next);
		if (rc == 0)
			rc = msg_room(m, sync_frame_bound(f->m));
		if (rc == 0) {
			m->len += sync_frame_encode(&local->coder,
						    m->buf + m->len, &h, f->m);
			m->frames++;
		}
		local->msg_mbufs[i] = f->m;
	}
	rte_pktmbuf_free_bulk(local->msg_mbufs, got);
	return rc;
}

/* Where a frame of rank r goes here, or NULL: not one it may send. */
static struct uet_xring *frame_ring(struct uet_sync_local *local,
				    const struct sync_frame_head *h)
{
	struct uet_component *sw = local->conf.sw;
	const uint32_t x = (uint32_t)(local->seq & 1u);

	switch (h->kind) {
	case MPI_FRAME_NIC_OUT:
		if (h->a >= local->conf.n_nics || !local->nics[h->a].remote ||
		    !sync_unit_here(local, local->nic_unit[h->a]))
			return NULL;
		return &local->nics[h->a].outbox[x];
	case MPI_FRAME_PART:
		if (sw->parts.out_ring == NULL || h->a >= sw->parts.n ||
		    sync_unit_here(local, h->a))
			return NULL;
		return sw->parts.out_ring(sw, h->a, h->b, x, NULL);
	case MPI_FRAME_NIC_IN:
		if (h->a >= local->conf.n_nics || local->nics[h->a].remote)
			return NULL;
		return &local->nics[h->a].inbox[x];
	default:
		return NULL;
	}
}

/* The key of the shared-info a frame's shared segments are attached
 * with: its NIC, or its part. */
static uint32_t frame_key(const struct uet_sync_local *local,
			  const struct sync_frame_head *h)
{
	return h->kind == MPI_FRAME_PART ? local->conf.n_nics + h->a : h->a;
}

/* Rank r's message of @p len bytes at src: its frames into the rings
 * they go to here, then the wiring's part. */
static int unpack(struct uet_sync_local *local, uint32_t r, const uint8_t *src,
		  size_t len)
{
	const struct uet_sync_ranks *rk = local->conf.ranks;
	uint32_t n_frames, i;
	size_t at = sizeof(n_frames);

	if (len < sizeof(n_frames))
		return -EBADMSG;
	memcpy(&n_frames, src, sizeof(n_frames));
	for (i = 0; i < n_frames; i++) {
		struct sync_frame_head h;
		struct uet_xring *ring;
		struct rte_mbuf *m;
		size_t used;
		int rc;

		if (sync_frame_peek(src + at, len - at, &h) < 0)
			return -EBADMSG;
		ring = frame_ring(local, &h);
		if (ring == NULL)
			return local_fail(&local->error, -EBADMSG,
					  "rank %u sent a frame (kind %u of "
					  "%u, %u) this rank does not take",
					  r, h.kind, h.a, h.b);
		rc = sync_frame_decode(&local->coder, src + at, len - at,
				       frame_key(local, &h), &m, &used);
		if (rc == -ENOBUFS)
			return local_fail(&local->error, -ENOMEM,
					  "no mbuf for a frame from rank %u: "
					  "the pool ran dry",
					  r);
		if (rc < 0)
			return rc;
		if (uet_xring_put(ring, m, h.arrival_ps, h.port) < 0) {
			rte_pktmbuf_free(m);
			return local_fail(&local->error, -ENOMEM,
					  "cannot queue a frame from rank %u",
					  r);
		}
		if (h.arrival_ps < local->remote_min_ps)
			local->remote_min_ps = h.arrival_ps;
		local->stats.data_frames_rx++;
		at += used;
	}
	if (rk->unpack != NULL && len > at)
		return rk->unpack(rk->warg, r, src + at, len - at);
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

/*
 * What crosses from this rank in the window, into each rank's message:
 * its NICs' frames to parts another rank holds, its parts' frames to
 * other ranks' parts, and to other ranks' NICs (what part of it @p what
 * says: SYNC_CROSS_*). Every ring packed is emptied: the frames are the
 * other rank's now.
 */
static int pack_frames(struct uet_sync_local *local, unsigned int what)
{
	struct uet_component *sw = local->conf.sw;
	const struct uet_sync_ranks *rk = local->conf.ranks;
	const uint32_t x = (uint32_t)(local->seq & 1u);
	uint32_t i;
	int rc = 0;

	for (i = rk->nic_first; (what & SYNC_CROSS_NIC_OUT) && rc == 0 &&
				i < rk->nic_first + rk->nic_count;
	     i++) {
		const uint32_t u = local->nic_unit[i];

		if (!sync_unit_here(local, u))
			rc = pack_ring(local, &local->nics[i].outbox[x],
				       local->unit_rank[u], MPI_FRAME_NIC_OUT,
				       i, 0);
	}
	for (i = 0;
	     (what & SYNC_CROSS_PARTS) && rc == 0 && i < local->n_rank_rings;
	     i++) {
		const struct sync_rank_ring *g = &local->rank_rings[i];

		rc = pack_ring(
			local,
			sw->parts.out_ring(sw, g->part, g->slot, x, NULL),
			g->rank, MPI_FRAME_PART, g->part, g->slot);
	}
	for (i = 0;
	     (what & SYNC_CROSS_NIC_IN) && rc == 0 && i < local->conf.n_nics;
	     i++) {
		struct local_nic *n = &local->nics[i];

		if (n->remote && uet_xring_count(&n->inbox[x]) > 0)
			rc = pack_ring(local, &n->inbox[x], local->nic_rank[i],
				       MPI_FRAME_NIC_IN, i, 0);
	}
	return rc;
}

/* This rank's messages: each begins with its count of frames, then the
 * frames, then the wiring's part (the same to every rank). */
static int pack(struct uet_sync_local *local, unsigned int what, bool wiring)
{
	const struct uet_sync_ranks *rk = local->conf.ranks;
	uint32_t r;
	int rc = 0;

	for (r = 0; r < rk->ranks; r++) {
		struct sync_rank_msg *m = &local->peer_msg[r];

		m->len = 0;
		m->frames = 0;
		if (rc == 0)
			rc = msg_room(m, sizeof(uint32_t));
		if (rc == 0)
			m->len = sizeof(uint32_t);
	}
	if (rc == 0)
		rc = pack_frames(local, what);
	local->wire_len = 0;
	if (rc == 0 && wiring && rk->pack != NULL)
		rc = rk->pack(rk->warg, &local->wire, &local->wire_len,
			      &local->wire_cap);
	for (r = 0; rc == 0 && r < rk->ranks; r++) {
		struct sync_rank_msg *m = &local->peer_msg[r];

		memcpy(m->buf, &m->frames, sizeof(m->frames));
		local->rank_costs.frames += m->frames;
		/* No frame leaves but over a link (find_peers()). */
		if (r != rk->rank && !local->peers[r] && m->frames > 0)
			rc = -EPROTO;
		if (r == rk->rank || !local->peers[r] || local->wire_len == 0)
			continue;
		rc = msg_room(m, local->wire_len);
		if (rc == 0) {
			memcpy(m->buf + m->len, local->wire, local->wire_len);
			m->len += local->wire_len;
		}
	}
	/* Rank 0's own part goes straight into its message. */
	if (rc == 0 && wiring && rk->rank != 0 && rk->pack_root != NULL)
		rc = rk->pack_root(rk->warg, &local->peer_msg[0].buf,
				   &local->peer_msg[0].len,
				   &local->peer_msg[0].cap);
	return rc;
}

static int exchange(struct uet_sync_local *local, unsigned int what,
		    bool wiring)
{
	const struct uet_sync_ranks *rk = local->conf.ranks;
	static const uint32_t none; /* a message of no frame */
	uint32_t r;
	int rc, built;
	uint64_t t0, t1;

	/* One rank has nobody to tell: its NICs' rows are its files'. */
	if (rk->ranks == 1)
		return 0;
	t0 = sync_wall_ns();
	built = pack(local, what, wiring);
	if (built < 0)
		/* Sent anyway, empty: the others wait for it. The failure
		 * is this rank's of the window, agreed on at its end. */
		local_fail(&local->error, built,
			   "rank %u: cannot build its message of window "
			   "[%" PRIu64 ", %" PRIu64 ") ps: %s",
			   rk->rank, local->window_start_ps,
			   local->window_end_ps, strerror(-built));
	for (r = 0; r < rk->ranks; r++) {
		const struct sync_rank_msg *m = &local->peer_msg[r];

		local->peer_send[r] =
			built < 0 ? (const uint8_t *)&none : m->buf;
		local->peer_send_len[r] = r == rk->rank || !local->peers[r] ? 0
					  : built < 0 ? sizeof(none)
						      : m->len;
		local->rank_costs.bytes += local->peer_send_len[r];
	}
	t1 = sync_wall_ns();
	local->rank_costs.pack_ns += t1 - t0;
	rc = rk->ops->exchange(rk->arg, local->peers, local->peer_send,
			       local->peer_send_len, local->peer_recv,
			       local->peer_recv_len);
	t0 = sync_wall_ns();
	local->rank_costs.send_ns += t0 - t1;
	local->send_window_ns += t0 - t1;
	if (rc < 0)
		return ranks_failed(local, rc, "the exchange of frames");
	for (r = 0; r < rk->ranks; r++) {
		if (r == rk->rank || !local->peers[r])
			continue;
		rc = unpack(local, r, local->peer_recv[r],
			    local->peer_recv_len[r]);
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

int sync_mpi_cross(struct uet_sync_local *local, unsigned int what)
{
	const uint64_t t0 = sync_wall_ns();
	int rc = exchange(local, what, (what & SYNC_CROSS_NIC_OUT) != 0);

	local->cross_ns += sync_wall_ns() - t0;
	return rc;
}

int sync_mpi_last(struct uet_sync_local *local)
{
	int rc = exchange(local, 0, true);

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
	local->send_window_ns = 0;
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
