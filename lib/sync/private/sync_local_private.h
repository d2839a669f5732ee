/* SPDX-License-Identifier: BSD-3-Clause */
/* The in-process lockstep's state, shared by its set-up and hooks
 * (sync_local.c) and its windows over the lcores (sync_local_window.c). */
#ifndef SYNC_LOCAL_PRIVATE_H
#define SYNC_LOCAL_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_lcore.h>
#include <rte_per_lcore.h>

#include "sync_engine.h"
#include "sync_mpi_frame.h"
#include "sync_park.h"
#include "sync_private.h"
#include "sync_steal.h"
#include "uet_sync_local.h"
#include "uet_xring.h"

/* Frames a NIC takes from its ring at a time. */
#define LOCAL_DELIVER_BURST 32u

/* Each way per NIC, when the wiring does not say (conf.ring_frames). */
#define LOCAL_RING_FRAMES_DEFAULT 256u

/* One NIC and what crosses its link. */
struct local_nic {
	struct uet_sync_local *local;
	struct uet_component *comp;
	uint32_t index;
	/* Run by another rank: never run here, its frames to the switch
	 * copied from its rank's message, the switch's to it dropped. */
	bool remote;
	/* The rings each way, by window parity: in window w the switch
	 * fills inbox[w & 1] and the NIC takes inbox[(w - 1) & 1]; the NIC
	 * fills outbox[w & 1] and the switch (its part, port_feed) takes
	 * outbox[(w - 1) & 1]. No ring has its writer and its reader in
	 * one window, so the NICs and the switch's parts may run at once. */
	struct uet_xring inbox[2];
	struct uet_xring outbox[2];
	uet_time_t next_event_ps;
	uint64_t events;
	/* Written by the NIC's lcore: */
	uint32_t out_sent;     /* put in the window it runs */
	uet_time_t out_min_ps; /* earliest arrival put in the window */
	struct sync_error error;
	/* Written by the switch part that holds the NIC's host port: */
	struct sync_error sw_error; /* the switch's out() to this NIC */
};

/* What one lcore runs: a contiguous share of the NICs and a run of the
 * switch's parts, the last of which another lcore may take
 * (sync_steal.h). */
struct local_worker {
	/* Its run of parts, taken from by other lcores: a line of its
	 * own. */
	struct sync_steal parts __rte_cache_aligned;
	struct uet_sync_local *local;
	unsigned int lcore_id;
	uint32_t first, count;		 /* NICs */
	uint32_t part_first, part_count; /* the switch's parts */
	uint32_t seen_gen;
	uint32_t spins; /* its spin budget before it sleeps (sync_park.h) */
	int64_t ran;	/* events the parts it ran ran in the phase */
	/* The first failed part it ran, in part order. */
	struct sync_first_failure part_fail;
	uint64_t parts_stolen; /* parts of other lcores it ran, in all */
	/* Of its NICs after the NIC phase, so that the serial step reads
	 * a few words per lcore, not a line per NIC: */
	uet_time_t nic_next_ps;	   /* the earliest next event */
	uet_time_t nic_out_min_ps; /* the earliest frame sent */
	uint64_t nic_sent;	   /* frames sent */
	uint32_t nic_failed;	   /* the first that failed, or UINT32_MAX */
	/* The same of what the switch's parts it ran sent the NICs: */
	uet_time_t sw_sent_min_ps;
	uint64_t sw_sent;
	uint32_t sw_failed; /* the first NIC it could not pass one to */
	/* Wall ns it spent running its share, by phase: the balance of
	 * the lcores (uet_sync_local_lcore_busy). */
	uint64_t busy_ns[2];
};

enum local_phase {
	LOCAL_PHASE_NICS = 0,
	LOCAL_PHASE_SWITCH,
	/* Both, one after the other on each lcore, with no barrier
	 * between: a fed switch's parts need nothing of the NICs' window
	 * (the rings by window parity above). */
	LOCAL_PHASE_WINDOW,
	LOCAL_PHASE_QUIT,
};

/* This rank's message to one other, a window. */
struct sync_rank_msg {
	uint8_t *buf;
	size_t len, cap;
	uint32_t frames;
};

/* A ring of one of this rank's parts to a part of rank `rank`. */
struct sync_rank_ring {
	uint32_t part, slot, rank;
};

struct uet_sync_local {
	struct uet_sync_local_conf conf;
	struct local_nic *nics;
	struct local_worker *workers; /* [0] is the calling lcore */
	uint32_t n_workers;
	bool launched;
	bool fed;     /* the switch's parts take the NICs' frames themselves */
	uint64_t seq; /* the window being run, from 0: its parity picks the
		       * rings */
	/* The phase the workers are told to run, published by gen. */
	enum local_phase phase;
	struct sync_park gen;
	struct sync_park done; /* workers (beyond [0]) that finished it */
	/* The switch's window. */
	struct uet_xframe *sorted;
	struct uet_xframe *sort_tmp; /* the sort's scratch */
	uint32_t n_sorted, cap_sorted;
	uet_time_t window_start_ps, window_end_ps;
	uet_time_t min_sent_ps; /* earliest arrival the switch sent */
	/* Over ranks (sync_mpi.c): the earliest arrival of the frames the
	 * other ranks' NICs sent in the window, and this rank's failure
	 * of the window, agreed on with the others before any stops. */
	uet_time_t remote_min_ps;
	int rank_err;
	uint64_t cross_ns; /* wall ns in the exchanges, over the windows */
	struct uet_sync_ranks_costs rank_costs; /* their split (sync_mpi.c) */
	uint64_t send_window_ns;  /* the exchange's MPI wall, this window */
	uint64_t agree_window_ns; /* the agreement's, the window before */
	const volatile sig_atomic_t *rank_stop;
	/* Per rank: what goes to it and what came from it, a window. */
	const uint8_t **peer_send, **peer_recv;
	size_t *peer_send_len, *peer_recv_len;
	struct sync_rank_msg *peer_msg; /* per rank: this rank's to it */
	uint8_t *peers; /* per rank: whether the two exchange messages */
	uint8_t *wire;	/* the wiring's part of the window, to every rank */
	size_t wire_len, wire_cap;
	/* Who runs what (uet_sync_rank_shares()): the unit (part, or the
	 * switch as one) that holds each NIC's host port, the rank of each
	 * unit and of each NIC. */
	uint32_t *nic_unit, *unit_rank, *nic_rank;
	/* This rank's parts' rings to parts of other ranks. */
	struct sync_rank_ring *rank_rings;
	uint32_t n_rank_rings;
	struct sync_frame_coder coder; /* how frames cross (sync_mpi_frame.h) */
	struct uet_xframe *msg_frames; /* a ring's frames, while packed */
	struct rte_mbuf **msg_mbufs;   /* their mbufs, freed at once */
	uint32_t cap_msg_frames;
	struct sync_engine eng; /* the windows */
	uint64_t start_ns, progress_ns;
	struct uet_sync_stats stats;
	struct sync_error error;
};

/** Keep the first error of e (a NIC's, the switch's, the run's). */
int local_fail(struct sync_error *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** The lcore's worker, for what sw_out notes: the switch's parts do not
 * know which lcore runs them. */
RTE_DECLARE_PER_LCORE(struct local_worker *, local_self);

/** Hand a NIC what the switch sent it in window w, in the order it was
 * sent. */
void local_nic_deliver(struct local_nic *n, uint64_t w);

/** Phase 1 for one NIC: the frames the switch sent it in the window
 * before, then its window run to end_ps. */
void local_nic_window(struct local_nic *n, uet_time_t end_ps);

/** E of the window just run: the least next event of the switch, of the
 * NICs, and of the frames on their way between them. */
uet_time_t sync_local_next(const struct uet_sync_local *local);

/** The engine's ops over the lcores of one process. */
extern const struct sync_transport_ops local_transport_ops;

/* Over ranks (sync_mpi.c). */

/** The engine's ops over ranks: the lcores' run, then the agreement of
 * every rank. */
extern const struct sync_transport_ops mpi_transport_ops;

/* What a crossing hands over (sync_mpi_cross()). */
#define SYNC_CROSS_NIC_OUT 1u /* NICs' frames to other ranks' parts */
#define SYNC_CROSS_PARTS 2u   /* parts' frames to other ranks' parts */
#define SYNC_CROSS_NIC_IN 4u  /* parts' frames to other ranks' NICs */

/** Whether this rank runs unit (part) u of the switch. */
static inline bool sync_unit_here(const struct uet_sync_local *local,
				  uint32_t u)
{
	const struct uet_sync_ranks *rk = local->conf.ranks;

	return rk == NULL ||
	       (u >= rk->part_first && u - rk->part_first < rk->part_count);
}

/** After a window's phase: what crossed to other ranks in it (@p what)
 * to them, as one message to each, theirs into the rings of the
 * stand-ins here; with the NICs' frames, the wiring's part. Every rank
 * calls it alike in every window. */
int sync_mpi_cross(struct uet_sync_local *local, unsigned int what);

/** Set up who runs what over the ranks (sync_mpi.c). 0 or -ENOMEM,
 * -ENOTSUP (a switch in parts without the ops a split needs). */
int sync_mpi_setup(struct uet_sync_local *local);

/** What sync_mpi_setup() took. */
void sync_mpi_free(struct uet_sync_local *local);

/** The switch's next event as this process sees it: over ranks, that of
 * the parts it runs, and of the switch as a whole (its own queue, a
 * link's change). */
uet_time_t sync_local_switch_next(const struct uet_sync_local *local);

/** After the last window: the wiring's part once more (the rows the
 * NICs wrote as the run ended). */
int sync_mpi_last(struct uet_sync_local *local);

#endif /* SYNC_LOCAL_PRIVATE_H */
