/* SPDX-License-Identifier: BSD-3-Clause */
/* The workload engine's state, shared by wl_engine.c (the rank graphs)
 * and wl_trigger.c (triggers and the flush). */
#ifndef WL_ENGINE_PRIVATE_H
#define WL_ENGINE_PRIVATE_H

#include <stdint.h>

#include "wl_private.h"

#define NO_NODE UINT32_MAX

/* A (peer, tag) channel of a rank: its sends (source side) or its
 * receives (destination side). */
struct wl_chan {
	uint32_t peer;
	uint64_t tag;
	uint32_t count;	     /* messages over the run */
	uint32_t next;	     /* next sequence number to hand out */
	uet_time_t *arr_ps;  /* receive side: arrival by seq, or NEVER */
	uint32_t *wait_node; /* receive side: RECV waiting for seq */
};

struct wl_rank_state {
	uint32_t *pending;     /* dependencies not finished, by node */
	uet_time_t *ready_ps;  /* latest dependency finish, by node */
	uet_time_t *finish_ps; /* NEVER until finished, by node */
	uint32_t *succ_off; /* successors of node i: succ[off[i]..off[i+1]) */
	uint32_t *succ;
	uint32_t *chan;	      /* SEND/RECV: index in send/recv channels */
	struct wl_chan *send; /* sorted by (peer, tag) */
	uint32_t n_send;
	struct wl_chan *recv; /* sorted by (peer, tag) */
	uint32_t n_recv;
	uint32_t n_finished;
	uint32_t n_posted; /* messages posted so far */
	uet_time_t end_ps; /* latest finish so far */
};

/* A posted message. */
struct wl_msg {
	uint32_t src, dst;
	uint32_t node;	    /* the SEND node at src */
	uint32_t recv_chan; /* channel index at dst */
	uint32_t seq;	    /* sequence on its channel */
	uint8_t arrived, sent, posted;
	uet_time_t posted_ps, sent_ps, arrived_ps;
};

/* Run state of a trigger. */
struct wl_trig_state {
	uint32_t activations; /* so far */
	uint32_t next;	      /* multishot: next target to start */
	uint8_t fired;	      /* oneshot, barrier: targets started */
};

struct wl_work {
	uint32_t rank, node;
};

/* Activated by nodes of no rank yet, or of several ranks. */
#define TRIG_NO_RANK UINT32_MAX
#define TRIG_SHARED (UINT32_MAX - 1u)
/* A deferred item that activates its trigger (not one target's start). */
#define DEFER_ACTIVATE UINT32_MAX

/* What a completion changed beyond its rank, for uet_wl_engine_flush(). */
struct wl_deferred {
	uet_time_t t_ps; /* the activation's time */
	uint32_t rank;	 /* the activating rank */
	uint32_t seq;	 /* the rank's own order of its deferred items */
	uint32_t trig;	 /* trigger index */
	uint32_t target; /* index in its targets, or DEFER_ACTIVATE */
};

struct uet_wl_engine {
	const struct uet_wl_program *prog;
	uet_wl_post_fn post;
	void *ctx;
	struct wl_rank_state *rs;
	struct wl_msg *msgs;
	struct wl_trig_state *trig;
	uint32_t *trig_rank; /* the one rank activating it, or TRIG_SHARED */
	uet_time_t trigger_delay_ps;
	struct wl_deferred *deferred; /* for uet_wl_engine_flush() */
	uint32_t n_deferred, cap_deferred;
	uint32_t *defer_seq;   /* by rank: deferred items made so far */
	struct wl_work *queue; /* finished nodes to propagate (FIFO ring) */
	uint32_t q_cap, q_head, q_len;
	int err;
};

/* wl_engine.c: start node n of rank r (its ready time set), and
 * propagate every queued finish; 0 or the engine's first error. */
void wl_node_start(struct uet_wl_engine *e, uint32_t r, uint32_t n);
int wl_drain(struct uet_wl_engine *e);

/* wl_trigger.c: which rank activates each trigger (at creation), and a
 * node naming trigger k that finished on rank r at t. */
void wl_trigger_ranks(struct uet_wl_engine *e);
void wl_trigger_activate(struct uet_wl_engine *e, uint32_t k, uint32_t r,
			 uet_time_t t);

#endif /* WL_ENGINE_PRIVATE_H */
