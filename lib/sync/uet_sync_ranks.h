/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One run spread over ranks (processes, on one machine or many): each
 * rank runs a contiguous share of the NICs and of the switch's parts, and
 * the window engine (sync_engine.h) keeps them in lockstep through the
 * collectives given here (docs/lockstep.md, "Over ranks"). The program
 * that links MPI gives them (app/uet-emu-mpi); lib/sync makes no MPI call
 * itself, so it builds and is tested without MPI.
 */
#ifndef UET_SYNC_RANKS_H
#define UET_SYNC_RANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rte_mempool;

/** The collectives a run over ranks needs; every one is mandatory and
 * every rank calls them in the same order. 0 or a negative errno. */
struct uet_sync_ranks_ops {
	/**
	 * Every rank's @p len bytes at @p send to every rank: on return
	 * rank r's bytes are (*all)[(*offs)[r] .. (*offs)[r + 1]) (buffers
	 * the callee keeps until the next call).
	 */
	int (*allgather)(void *arg, const void *send, size_t len,
			 const uint8_t **all, const size_t **offs);
	/**
	 * One message to each rank r with @p peers[r] != 0 (NULL: every
	 * other rank) and one from each, of any size (0 too): @p send[r]
	 * of @p send_len[r] bytes goes to rank r; on return rank r's to
	 * this one is @p recv[r] of @p recv_len[r] bytes (buffers the
	 * callee keeps until the next call; NULL and 0 for a rank not a
	 * peer). The relation is the same both ways (r is q's peer iff q
	 * is r's); the entries of this rank are not used. Every rank
	 * calls it once a window: a window's frames and rows, one batched
	 * message per pair of ranks that have links between them.
	 */
	int (*exchange)(void *arg, const uint8_t *peers,
			const uint8_t *const *send, const size_t *send_len,
			const uint8_t **recv, size_t *recv_len);
	/** Element-wise least of @p n values over the ranks, in place. */
	int (*min)(void *arg, uint64_t *v, uint32_t n);
	/** Element-wise sum of @p n values over the ranks, in place. */
	int (*sum)(void *arg, uint64_t *v, uint32_t n);
	/** @p len bytes of rank @p root to every rank. */
	int (*bcast)(void *arg, void *buf, size_t len, uint32_t root);
	/** Why the last collective failed (the library's own text). */
	const char *(*error)(void *arg);
};

/** This rank, its share, and how it talks to the others. */
struct uet_sync_ranks {
	uint32_t rank;	/**< this one, 0 .. ranks - 1 */
	uint32_t ranks; /**< >= 1 */
	/** This rank's NICs: nic_first .. nic_first + nic_count - 1 (may be
	 * none when there are more ranks than hosts), and its units of the
	 * switch (its parts; one unit, rank 0's, for a switch not in
	 * parts): uet_sync_rank_shares() deals them. */
	uint32_t nic_first, nic_count;
	uint32_t part_first, part_count;
	/** Every part on rank 0 (what the wiring cannot gather from the
	 * ranks: a switch's occupancy samples); uet_sync_rank_shares()
	 * reads it. */
	bool switch_on_rank0;
	/** Every rank exchanges with every other each window, linked or
	 * not (a workload engine that must hear every rank's completions
	 * of the window before the window ends); else only ranks with
	 * links between their shares, and rank 0. */
	bool all_peers;
	const struct uet_sync_ranks_ops *ops;
	void *arg; /**< the ops' */
	/** Where the frames of other ranks are rebuilt: their bytes in
	 * mbufs of @p mp, their shared segments (below) in mbufs of
	 * @p attach_mp (NULL: @p mp) attached to this rank's copy. */
	struct rte_mempool *mp, *attach_mp;
	/**
	 * Bytes every rank holds alike, at the same offsets (the NICs'
	 * payload pattern): a frame's segment that lies within them
	 * crosses as its offset, not its bytes. NULL: every byte crosses.
	 */
	const void *shared;
	size_t shared_len;
	/**
	 * The wiring's part of this rank's message of each window (its
	 * NICs' record rows, say), appended to *buf (len bytes used of
	 * cap, grown with realloc); NULL: none. Also called once after the
	 * last window, for what the NICs wrote as it ended.
	 */
	int (*pack)(void *warg, uint8_t **buf, size_t *len, size_t *cap);
	/**
	 * The wiring's part for rank 0 only (what only its files need:
	 * another rank's captures), after pack()'s in this rank's message
	 * to rank 0; NULL: none. Not called on rank 0.
	 */
	int (*pack_root)(void *warg, uint8_t **buf, size_t *len, size_t *cap);
	/** What the wiring does with rank @p rank's part (pack()'s, then,
	 * at rank 0, pack_root()'s); NULL: none. */
	int (*unpack)(void *warg, uint32_t rank, const uint8_t *src,
		      size_t len);
	void *warg;
	/**
	 * Set to true by the run once every rank knows how the run ends
	 * (they found together that the scenarios differ, or they agreed
	 * whether every rank set up): from then a failing rank leaves the
	 * others nothing to wait for. Until then a rank that stops (its
	 * scenario does not load, its outputs cannot open) must end the
	 * others itself (MPI_Abort). NULL: not told.
	 */
	bool *together;
};

/** Where a run's keeping of the ranks together went, summed over its
 * windows (uet_sync_local_rank_costs()): wall ns and what was sent. */
struct uet_sync_ranks_costs {
	uint64_t pack_ns;   /**< building this rank's messages */
	uint64_t send_ns;   /**< the exchange's MPI calls and waits */
	uint64_t unpack_ns; /**< taking in the others' messages */
	uint64_t agree_ns;  /**< the agreement, waiting for the slowest */
	/** The same two, each window the least over the ranks: what they
	 * cost the rank that came last, with no wait for a slower one. */
	uint64_t least_send_ns;
	uint64_t least_agree_ns;
	uint64_t bytes;	 /**< this rank's message bytes sent */
	uint64_t frames; /**< frames in them */
};

struct uet_component;

/**
 * Deal a run's NICs and its switch's parts out over the ranks, into
 * @p rk (rank and ranks set): contiguous runs of parts of about equal
 * weight (the weights the lcores use), and the NICs whose host ports
 * those parts hold, when the switch has a part for each rank at least
 * and its host ports' parts come in host order; else the NICs evenly
 * (uet_sync_rank_share()) and every part on rank 0, as with
 * @p rk->switch_on_rank0. Every rank's shares are the same function of
 * the switch and the rank.
 *
 * @return 0, or -ENOMEM.
 */
int uet_sync_rank_shares(const struct uet_component *sw, uint32_t n_nics,
			 struct uet_sync_ranks *rk);

/** The share of rank @p rank of @p n items over @p ranks ranks:
 * contiguous, sizes differing by one at most, lower ranks first. */
static inline void uet_sync_rank_share(uint32_t n, uint32_t ranks,
				       uint32_t rank, uint32_t *first,
				       uint32_t *count)
{
	const uint32_t a = (uint32_t)((uint64_t)n * rank / ranks);
	const uint32_t b = (uint32_t)((uint64_t)n * (rank + 1u) / ranks);

	*first = a;
	*count = b - a;
}

#endif /* UET_SYNC_RANKS_H */
