/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The window engine: what every lockstep transport shares
 * (docs/lockstep.md). One rule makes the windows, one order delivers a window's
 * frames, one rule names the failure that stops a run, and one sequence of
 * steps runs each window:
 *
 *   start     the transport's handshake, if it has one;
 *   run       this share's window [T, T'): its NICs and the switch's
 *             parts (or, over ports, the GRANTs and the switch);
 *   exchange  what crossed the share's boundary in the window handed
 *             over (frames between ranks, the NICs' DONEs);
 *   agree     the next window: every share's least next event, worst
 *             error and frame counts combined (a barrier, DONE and
 *             GRANT, an all-reduce);
 *   finish    the last frames and the goodbyes once nothing is left.
 *
 * A transport plugs in as an ops table, DPDK's eth_dev_ops way: lcores in
 * one process (sync_local.c), lockstep frames on Ethernet ports
 * (sync_coordinator.c leads, sync_participant.c follows).
 * The mandatory callbacks are checked once, when the transport registers
 * (sync_engine_init()). A step that must wait for a peer returns -EAGAIN
 * and the engine takes it up again at the next poll, so a transport over
 * ports never blocks; the others never return -EAGAIN and run a whole
 * window per call.
 */
#ifndef SYNC_ENGINE_H
#define SYNC_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "uet_component.h"
#include "uet_time.h"

struct uet_xframe;

/** A window [start_ps, end_ps). */
struct sync_window {
	uet_time_t start_ps; /**< ps, T */
	uet_time_t end_ps;   /**< ps, T' */
	uint64_t seq;	     /**< windows run before this one */
};

/**
 * What a share says at the end of a window (agree()'s input), and what the
 * run as a whole says (its output).
 */
struct sync_vote {
	/** ps, the least pending event, frames on their way included;
	 * UET_TIME_NEVER: none. */
	uet_time_t next_ps;
	/**
	 * A follower's agreement only: the next window as the leader
	 * granted it; given_end_ps 0: the rule makes it from next_ps.
	 */
	uet_time_t given_start_ps;
	uet_time_t given_end_ps;
	/** Frames the share sent across its boundary in the window, and
	 * frames it received: the run's totals agree. */
	uint64_t frames_sent;
	uint64_t frames_received;
};

/** A lockstep transport: how the shares of a run keep the windows. */
struct sync_transport_ops {
	/** Name, for messages ("lcores", "mpi", "ports"). */
	const char *name;
	/**
	 * Windows come from the agreement (a participant: the switch
	 * grants them), the first one too; else the engine makes them.
	 */
	bool follower;
	/** Optional: the handshake. 0 done, -EAGAIN not yet, or < 0. */
	int (*start)(void *ctx);
	/** Mandatory: run this share's window. 0, -EAGAIN or < 0. */
	int (*run)(void *ctx, const struct sync_window *w);
	/** Mandatory: hand over what crossed in the window. 0, -EAGAIN or
	 * < 0. */
	int (*exchange)(void *ctx, const struct sync_window *w);
	/**
	 * Mandatory: fill in this share's vote (next_ps, counts) and agree
	 * with the others: @p v holds the run's on return 0. -EAGAIN (the
	 * vote is kept: it is called again with what it filled in), or < 0.
	 */
	int (*agree)(void *ctx, const struct sync_window *w,
		     struct sync_vote *v);
	/** Optional: after the last window. 0, -EAGAIN or < 0. */
	int (*finish)(void *ctx, const struct sync_window *last);
};

/** What the engine needs of a run. */
struct sync_engine_conf {
	uet_time_t lookahead_ps; /**< ps, L > 0 */
	uet_time_t start_ps;	 /**< ps, start of the first window */
	uet_time_t end_ps;	 /**< ps, no event at or after it runs */
	/** The component whose horizon bounds every window (the switch: a
	 * link failure), or NULL: none. */
	const struct uet_component *horizon;
};

enum sync_step {
	SYNC_STEP_START = 0,
	SYNC_STEP_RUN,
	SYNC_STEP_EXCHANGE,
	SYNC_STEP_AGREE,
	SYNC_STEP_FINISH,
	SYNC_STEP_FINISHED,
	SYNC_STEP_FAILED,
};

/** One run's windows, driven through a transport's ops. */
struct sync_engine {
	const struct sync_transport_ops *ops;
	void *ctx;
	struct sync_engine_conf conf;
	enum sync_step step;
	struct sync_window win; /**< the window being run, or last run */
	struct sync_vote vote;	/**< the agreement under way */
	bool voting;		/**< vote filled in, agree() waiting */
	int err;		/**< the failure, once FAILED */
	uint64_t windows;	/**< windows run */
	/* Wall ns in each kind of step, over the windows: the share's
	 * model work (run) against what keeping the shares together
	 * cost (exchange and agree, the waits for peers included). */
	uint64_t run_ns;
	uint64_t sync_ns;
	uint64_t step_ns; /**< when the step under way began */
};

/**
 * The window rule: T' = min(E + L, horizon, end), E + L saturating at
 * UET_TIME_NEVER.
 */
uet_time_t sync_window_end(uet_time_t e_ps, uet_time_t lookahead_ps,
			   uet_time_t horizon_ps, uet_time_t end_ps);

/**
 * Register a transport: check its mandatory callbacks, set the engine up
 * at its first step. Nothing runs until the first poll.
 *
 * @return
 *   0, or -EINVAL (a mandatory callback missing; unless the transport
 *   follows, lookahead 0 or end before start).
 */
int sync_engine_init(struct sync_engine *eng,
		     const struct sync_transport_ops *ops, void *ctx,
		     const struct sync_engine_conf *conf);

/**
 * Take the steps that can be taken now.
 *
 * @return
 *   UET_SYNC_RUNNING (a step waits for a peer: poll again),
 *   UET_SYNC_FINISHED, or the failure a step returned (the engine stays
 *   failed; the transport holds the text).
 */
int sync_engine_poll(struct sync_engine *eng);

/** Whether the windows have started (the handshake is over). */
static inline bool sync_engine_started(const struct sync_engine *eng)
{
	return eng->step != SYNC_STEP_START;
}

/** Whether the engine is done, well or not. */
static inline bool sync_engine_over(const struct sync_engine *eng)
{
	return eng->step == SYNC_STEP_FINISHED || eng->step == SYNC_STEP_FAILED;
}

/**
 * The first failure in the order of the shares, parts or NICs that may
 * fail at once (on several lcores, on several ranks): whichever ran
 * first, the lowest index names the run's failure, so the message is the
 * same on any number of lcores or ranks.
 */
struct sync_first_failure {
	uint32_t at; /**< index of the failure kept */
	int err;     /**< 0: none yet */
};

static inline void sync_first_failure_reset(struct sync_first_failure *f)
{
	f->at = UINT32_MAX;
	f->err = 0;
}

/** Keep err of index at if it comes before the one kept (err < 0). */
static inline void sync_first_failure_note(struct sync_first_failure *f,
					   uint32_t at, int err)
{
	if (err < 0 && (f->err == 0 || at < f->at)) {
		f->at = at;
		f->err = err;
	}
}

/**
 * The delivery order of a window's frames: (arrival, port, order on the
 * port), the key of lib/xring's uet_xframe_cmp(), which lib/fabric's parts
 * sort by too. Sorts n frames (scratch: room for n).
 */
void sync_deliver_order(struct uet_xframe *f, uint32_t n,
			struct uet_xframe *scratch);

#endif /* SYNC_ENGINE_H */
