/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lockstep and realtime clocks (docs/lockstep.md):
 * what every role shares. Each role has its own header:
 *
 *   uet_sync_ports.h     lockstep frames on Ethernet ports: the
 *                        coordinator (the switch side), the participant
 *                        (a NIC), the embedded round-robin, the trailer
 *   uet_sync_local.h     the in-process lockstep over lcores (uet-emu)
 *   uet_sync_realtime.h  realtime: virtual time from the wall clock
 *
 * The lockstep roles run one window engine (sync_engine.h): one rule
 * makes the windows, one order delivers their frames, whatever carries
 * them.
 */
#ifndef UET_SYNC_H
#define UET_SYNC_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "uet_component.h"
#include "uet_time.h"

/** What a poll function returns besides a negative errno. */
enum uet_sync_status {
	UET_SYNC_FINISHED = 0, /**< the run ended with BYE */
	UET_SYNC_RUNNING = 1,  /**< poll again */
};

/** Default wall-clock limit on any wait for a peer, ms. */
#define UET_SYNC_TIMEOUT_MS_DEFAULT 10000u
/**
 * Default wall-clock limit on the handshake (HELLO until WELCOME), ms:
 * processes start at different times and making a process's mbuf pool
 * and ports took up to 6 s on a loaded two-CPU host.
 */
#define UET_SYNC_STARTUP_TIMEOUT_MS_DEFAULT 60000u
/**
 * How long a participant waits for the switch in a running window, ms,
 * given its timeout_ms: a quarter longer than the switch waits for a NIC.
 * When a NIC dies, the switch's wait for it starts about one window before
 * the other NICs' wait for the switch; on a loaded host that lead was lost
 * to scheduling and a surviving NIC stopped the run without naming the dead
 * one.
 */
#define UET_SYNC_NIC_WAIT_MS(timeout_ms)                                       \
	((uint64_t)(timeout_ms) + (uint64_t)(timeout_ms) / 4u)
/** Most ports (NICs) one coordinator or realtime role serves. */
#define UET_SYNC_PORTS_MAX 1024u
/** Longest error text kept by a role, NUL included. */
#define UET_SYNC_ERROR_BYTES 384u

/** Counters of one role. */
struct uet_sync_stats {
	uint64_t windows;	 /**< windows granted (coordinator) or run */
	uint64_t data_frames_tx; /**< data frames put on the port(s) */
	uint64_t data_frames_rx; /**< data frames received and delivered */
	uint64_t ctrl_frames_tx; /**< control frames sent */
	uint64_t ctrl_frames_rx; /**< control frames received */
	uint64_t foreign_frames; /**< frames dropped before the model, all
				  * kinds (enum uet_sync_drop) */
	uint64_t events;	 /**< events the component ran */
	uet_time_t now_ps;	 /**< ps, end of the last window run */
	/*
	 * Where the role's wall time went (roles over ports only): in the
	 * component (deliver and run), in port bursts, control frames and
	 * the per-frame trailer work, and the rest (from the first poll to
	 * the last) waiting for a peer.
	 */
	uint64_t wall_ns;	/**< wall ns, first poll to the last */
	uint64_t wall_model_ns; /**< wall ns in the component */
	uint64_t wall_io_ns;	/**< wall ns in bursts and frame handling:
				 * wall_rx_ns + wall_tx_ns */
	uint64_t wall_rx_ns;	/**< wall ns in rx bursts and in taking the
				 * frames apart (trailers off, control
				 * frames parsed) */
	uint64_t wall_tx_ns;	/**< wall ns in tx bursts (the PMD's copy,
				 * the kernel's send) */
	uint64_t rx_bursts;	/**< rx bursts that brought frames */
	uint64_t tx_bursts;	/**< tx bursts that took frames */
};

/** What the progress callback sees. */
struct uet_sync_progress {
	uet_time_t now_ps; /**< ps, virtual time reached */
	uint64_t windows;  /**< windows granted so far */
	uint64_t events;   /**< events the switch component ran */
	uint64_t wall_ns;  /**< ns of wall time since the first poll */
	/** Wall ns the windows' runs took (the model's work), and what
	 * keeping the shares together took (exchange and agreement, the
	 * waits for peers included), over the windows so far. */
	uint64_t model_ns;
	uint64_t sync_ns;
};

/**
 * Called by a lockstep role at most every progress_interval_ms of wall
 * time, between windows.
 *
 * @param arg
 *   The conf's progress_arg.
 * @param p
 *   Where the run is.
 */
typedef void (*uet_sync_progress_fn)(void *arg,
				     const struct uet_sync_progress *p);

/**
 * Called after each window the role's component ran, so that the wiring can
 * stop the run on a failure the component could not return from an event
 * (uet_fabric_error(), for example).
 *
 * @param arg
 *   The conf's window_arg.
 * @param window_end_ps
 *   ps, end of the window just run.
 * @return
 *   0 to go on, or a negative errno: the run stops with an ABORT (code
 *   INTERNAL) and the poll returns that errno.
 */
typedef int (*uet_sync_window_fn)(void *arg, uet_time_t window_end_ps);

#endif /* UET_SYNC_H */
