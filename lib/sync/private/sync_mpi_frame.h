/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How a frame crosses ranks in a window's message (sync_mpi_frame.c):
 * its header, the mbuf's dynamic fields, then each segment, as its bytes
 * or, when the segment lies in the bytes every rank holds alike (the
 * payload pattern), as its place there. The receiver rebuilds the same
 * chain: a segment's bytes in an mbuf of its own, a shared segment an
 * mbuf attached to its own copy of the shared bytes, so a data packet's
 * payload never crosses as bytes (docs/lockstep.md, "Over ranks").
 */
#ifndef SYNC_MPI_FRAME_H
#define SYNC_MPI_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "uet_time.h"

/** What the message says of a frame beside its bytes. */
struct sync_frame_head {
	uet_time_t arrival_ps;
	uint32_t kind; /* where the receiver puts it (sync_mpi.c) */
	uint32_t a, b;
	uint32_t port;
};

struct sync_frame_refs;

/* Mbufs of a pool taken a batch at a time: a batch's cache misses
 * overlap, where one at a time each waits for the last (most of a
 * window's 1,500 rebuilt frames come from mbufs long cold). */
#define SYNC_FRAME_STASH 32u

struct sync_frame_stash {
	struct rte_mempool *mp;
	struct rte_mbuf *m[SYNC_FRAME_STASH];
	uint32_t n, at;
};

/** One rank's coder: the shared bytes, the pools its frames come from. */
struct sync_frame_coder {
	const uint8_t *shared; /* NULL: every byte crosses */
	size_t shared_len;
	struct sync_frame_stash bytes;	/* a segment's bytes */
	struct sync_frame_stash attach; /* a shared segment's mbuf */
	/* The shared-info each shared segment is attached with, one per
	 * key (a NIC, a part), so that no count passes 16 bits. */
	struct sync_frame_refs *refs;
	uint32_t n_keys;
};

/**
 * Set up @p fc: @p shared (@p shared_len bytes, NULL: none), the pools
 * (@p attach_mp NULL: @p mp) and @p n_keys shared-infos. 0 or -ENOMEM.
 */
int sync_frame_coder_init(struct sync_frame_coder *fc, const void *shared,
			  size_t shared_len, struct rte_mempool *mp,
			  struct rte_mempool *attach_mp, uint32_t n_keys);

/** Let go of the coder; its shared-infos live on while a frame it
 * rebuilt does. */
void sync_frame_coder_fini(struct sync_frame_coder *fc);

/** Bytes @p m takes in a message (at most: its shared segments as
 * bytes). */
size_t sync_frame_bound(const struct rte_mbuf *m);

/**
 * Frame @p m with @p h at @p dst (sync_frame_bound() bytes free): the
 * bytes written. The caller still owns @p m.
 */
size_t sync_frame_encode(const struct sync_frame_coder *fc, uint8_t *dst,
			 const struct sync_frame_head *h,
			 const struct rte_mbuf *m);

/** The head of the frame at @p src (@p avail bytes), before decoding
 * it: 0, or -EBADMSG (too short). */
int sync_frame_peek(const uint8_t *src, size_t avail,
		    struct sync_frame_head *h);

/**
 * The frame at @p src (@p avail bytes) rebuilt in *@p m, its shared
 * segments attached with the shared-info of @p key (< n_keys): the
 * bytes it took, or -EBADMSG (malformed, or a shared place outside the
 * shared bytes), -ENOBUFS (a pool ran dry), -EMSGSIZE (a segment larger
 * than an mbuf of the pool).
 */
int sync_frame_decode(struct sync_frame_coder *fc, const uint8_t *src,
		      size_t avail, uint32_t key, struct rte_mbuf **m,
		      size_t *used);

#endif /* SYNC_MPI_FRAME_H */
