/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frames crossing from one lcore's part of a run to another's in lockstep:
 * an SPSC rte_ring of (frame, arrival time, port, order) elements, sized
 * from the scenario for what one window can carry, with a spill-over
 * array behind it so that a window that carries more (a realtime window
 * runs as long as the wall clock took) loses nothing.
 *
 * One writer and one reader, and in lockstep a window barrier between
 * them: lib/fabric's partitions (a ring per pair of parts linked by a
 * cable, per window parity) and lib/sync's in-process lockstep (a ring
 * each way per NIC) use it.
 */
#ifndef UET_XRING_H
#define UET_XRING_H

#include <stdint.h>

#include "uet_time.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_mbuf;
struct rte_ring;

/** A frame on its way: what the receiver needs to take it in order. */
struct uet_xframe {
	struct rte_mbuf *m;
	uet_time_t arrival_ps; /**< ps, at the receiver's port */
	uint32_t port;	       /**< the receiver's port */
	uint32_t order;	       /**< its place among the frames put since
				* the ring was last emptied */
};

/** A ring of frames. Zero-initialise, then uet_xring_init() or
 * uet_xring_init_array(). */
struct uet_xring {
	struct rte_ring *r; /* elements of struct uet_xframe; NULL: an
			     * array ring */
	void *mem;	    /* the ring's memory (not the EAL's heap) */
	/* Frames beyond the ring's room, after those in it (an array
	 * ring's only store). */
	struct uet_xframe *spill;
	uint32_t n_spill, cap_spill, spill_head;
	uint32_t spill_first; /* entries the spill-over starts with */
	uint32_t put;	      /* frames put since it was last emptied */
	uint64_t spilled;     /* frames that went to the spill-over, ever
			       * (an rte_ring's overflow) */
};

/**
 * Set up @p x for at least @p frames frames in its ring (rounded up to a
 * power of two, at least 32). The ring's memory comes from the C heap, not
 * the EAL's, whose size run_sizing.c fixes before the fabric exists.
 * 0, or -ENOMEM.
 */
int uet_xring_init(struct uet_xring *x, const char *name, uint32_t frames);

/**
 * Set up @p x without an rte_ring: its frames in a growable array only,
 * which takes memory at the first put (@p frames entries, at most 16:
 * memory follows the frames a window carries, not its worst case) and
 * doubles when full. For a writer and a reader that never run at
 * the same time (each in its own window, a barrier between): all of its
 * state is in @p x and the array, no header lines of its own, nothing
 * atomic, and no memory touched before it is used. 0 always.
 */
int uet_xring_init_array(struct uet_xring *x, uint32_t frames);

/**
 * Put a frame (its order is the count put since the ring was emptied).
 * The writer's side. 0, or -ENOMEM when the spill-over cannot grow (the
 * frame stays the caller's).
 */
int uet_xring_put(struct uet_xring *x, struct rte_mbuf *m,
		  uet_time_t arrival_ps, uint32_t port);

/** Frames waiting: the reader's side, or either side between windows. */
uint32_t uet_xring_count(const struct uet_xring *x);

/**
 * Take up to @p max frames into @p dst in the order they were put; the
 * reader's side. When it takes the last, the ring is empty and orders
 * start again at 0. Returns the number taken.
 */
uint32_t uet_xring_take(struct uet_xring *x, struct uet_xframe *dst,
			uint32_t max);

/**
 * Sort frames in the order a component takes a window's frames: arrival
 * time, then port, then order (a port has one sender, so each link stays
 * FIFO). The keys of one window's frames are distinct, so the result does
 * not depend on the algorithm.
 *
 * @param f
 *   The frames.
 * @param n
 *   How many.
 * @param scratch
 *   Room for n frames, overwritten.
 */
void uet_xframe_sort(struct uet_xframe *f, uint32_t n,
		     struct uet_xframe *scratch);

/** qsort()'s comparison of two frames by the same key. */
int uet_xframe_cmp(const void *a, const void *b);

/** Free the frames still waiting and the ring. */
void uet_xring_fini(struct uet_xring *x);

/**
 * Frames a link of @p rate_bps can start in @p window_ps: the ring size
 * that never spills in lockstep, where a window is at most the lookahead
 * (one minimum frame of 64 bytes per serialization, plus the one already
 * on the wire and one for rounding).
 */
uint32_t uet_xring_frames_per_window(uint64_t rate_bps, uet_time_t window_ps);

#ifdef __cplusplus
}
#endif

#endif /* UET_XRING_H */
