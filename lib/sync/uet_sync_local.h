/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The in-process lockstep (uet-emu): the switch and every NIC in this
 * process, the NICs spread over worker lcores, the windows and the order
 * of every delivery those of the protocol over ports (docs/lockstep.md,
 * "In one process"), so the records are the same as a run of uet-switch
 * and uet-nic, and the same for any number of lcores.
 */
#ifndef UET_SYNC_LOCAL_H
#define UET_SYNC_LOCAL_H

#include "uet_sync.h"
#include "uet_sync_ranks.h"

/** How to set up an in-process run. */
struct uet_sync_local_conf {
	/** The switch component: its port i faces nics[i]. Its out hook is
	 * taken over. */
	struct uet_component *sw;
	/** The NIC components, by host; each one's out hook is taken over. */
	struct uet_component *const *nics;
	/** Number of NICs, >= 1. */
	uint32_t n_nics;
	/** ps, lookahead L, > 0. */
	uet_time_t lookahead_ps;
	/**
	 * Frames one NIC's link carries in a window, each way: what the
	 * rings between the NICs and the switch start with when first used
	 * (they grow beyond it; nothing is lost). 0: 256.
	 */
	uint32_t ring_frames;
	/** ps, start of the first window. */
	uet_time_t start_ps;
	/** ps, no event at or after this time runs. */
	uet_time_t end_ps;
	/**
	 * EAL lcores to run the NICs on: lcore_ids[0] is the calling
	 * (main) lcore, the others must be idle workers. n_lcores 0 or 1:
	 * the calling lcore only (lcore_ids may be NULL). Never more are
	 * used than there are NICs.
	 */
	const unsigned int *lcore_ids;
	uint32_t n_lcores;
	/**
	 * Called on the main lcore after every NIC ran the window and before
	 * the switch's window ends (the wiring flushes what it kept per
	 * NIC, in host order), or NULL. A switch not fed (port_feed) has
	 * not run the window yet; a fed one's parts ran it beside the NICs
	 * and have not ended it.
	 */
	uet_sync_window_fn nics_done_fn;
	/** Called on the main lcore after the switch ran the window, or
	 * NULL. */
	uet_sync_window_fn window_fn;
	/** Argument of both. */
	void *window_arg;
	/** Progress callback, or NULL; every progress_interval_ms (0: 1000). */
	uet_sync_progress_fn progress_fn;
	void *progress_arg;
	uint32_t progress_interval_ms;
	/** Set by a signal handler: the run stops at the next window with
	 * -EINTR; NULL: none. */
	const volatile sig_atomic_t *stop;
	/**
	 * The run spread over ranks (uet_sync_ranks.h): this process runs
	 * the NICs and the switch's parts of its share, the others stand
	 * in for those of the other ranks (what crosses comes from and goes
	 * to their ranks), and the windows are agreed over the ranks. NULL:
	 * everything runs here.
	 * Copied; must outlive the run.
	 */
	const struct uet_sync_ranks *ranks;
};

struct uet_sync_local;

/**
 * Set an in-process run up (nothing runs until uet_sync_local_run()).
 *
 * @return
 *   0, -EINVAL (no switch or NIC, lookahead 0, end before start, several
 *   lcores and no ids), -ENOMEM.
 */
int uet_sync_local_create(struct uet_sync_local **lp,
			  const struct uet_sync_local_conf *conf);

/**
 * Run every window until nothing is pending before the end (or a
 * failure, or a stop), then hand the NICs the switch's last frames (as the
 * protocol does before BYE). Worker lcores are launched for the run and
 * have returned when this does.
 *
 * @return
 *   0, or a negative errno with uet_sync_local_error() saying why (the
 *   first failing NIC in host order): -ERANGE a component broke the
 *   lookahead, -EINTR stopped, what a component or callback returned.
 */
int uet_sync_local_run(struct uet_sync_local *l);

/** Counters: windows, frames the switch sent and received, the virtual
 * time reached, events (every component). */
void uet_sync_local_stats(const struct uet_sync_local *l,
			  struct uet_sync_stats *st);

/** @return the lcores the run is spread over (1 without workers). */
uint32_t uet_sync_local_lcores(const struct uet_sync_local *l);

/**
 * The wall time lcore @p i (0: the calling one) spent running its share
 * of the NICs' phases and of the switch's, summed over the windows so
 * far; the rest of a window it waited at a barrier or (lcore 0) ran the
 * serial steps between the phases. 0, or -EINVAL for no such lcore.
 */
int uet_sync_local_lcore_busy(const struct uet_sync_local *l, uint32_t i,
			      uint64_t *nics_ns, uint64_t *switch_ns);

/**
 * The switch's parts lcore @p i ran from other lcores' runs (taken when
 * its own run was done, sync_steal.h), summed over the windows so far; 0
 * for no such lcore.
 */
uint64_t uet_sync_local_lcore_parts_taken(const struct uet_sync_local *l,
					  uint32_t i);

/**
 * Where the windows' wall time went, summed over the windows so far: in
 * the models' work (every lcore's phases and the serial steps), and in
 * keeping the shares together (over ranks: the exchange of what crossed
 * and the agreement, waiting for the slowest rank included).
 */
void uet_sync_local_costs(const struct uet_sync_local *l, uint64_t *model_ns,
			  uint64_t *sync_ns);

/** Over ranks, the split of the sync cost (zeros otherwise). */
void uet_sync_local_rank_costs(const struct uet_sync_local *l,
			       struct uet_sync_ranks_costs *c);

/** Over ranks, whether this rank exchanges messages with rank @p r
 * (past two ranks: the ranks its parts and NICs have links to, and
 * between rank 0 and every rank); false otherwise. */
bool uet_sync_local_rank_peer(const struct uet_sync_local *l, uint32_t r);

/** @return the error text ("" while there is none). */
const char *uet_sync_local_error(const struct uet_sync_local *l);

/** Free the run and the frames it still holds. NULL is accepted. */
void uet_sync_local_free(struct uet_sync_local *l);

#endif /* UET_SYNC_LOCAL_H */
