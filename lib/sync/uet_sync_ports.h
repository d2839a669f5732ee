/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lockstep over Ethernet ports (docs/lockstep.md):
 * the coordinator (the switch side) and the participant (the NIC side),
 * each a non-blocking state machine driven by a poll function, so that
 * the embedded mode polls every role round-robin in one thread and
 * uet-switch / uet-nic poll one role each in separate processes.
 *
 * A role owns the out() hook of its component: frames the component sends
 * get the 12-byte trailer (arrival time) and go on the port in order with
 * the control frames; frames received lose the trailer and reach the
 * component's deliver() with the arrival time the trailer carried.
 */
#ifndef UET_SYNC_PORTS_H
#define UET_SYNC_PORTS_H

#include <stdbool.h>
#include <stddef.h>

#include "uet_sync.h"
#include "uet_wire_lockstep.h"

struct rte_mbuf;
struct rte_mempool;
struct uet_port;

/** How often a participant repeats HELLO until WELCOME comes, ms. */
#define UET_SYNC_HELLO_INTERVAL_MS 500u

/** Bytes of window notes a window may carry, all NICs together
 * (docs/lockstep.md, "Window notes"): more is a protocol error. */
#define UET_SYNC_NOTES_WINDOW_MAX_BYTES (16u * 1024u * 1024u)

/**
 * A participant's notes of the window it just ran (docs/lockstep.md,
 * "Window notes"), asked for after the window and before its DONE. The
 * bytes are opaque to lib/sync; they are sent as NOTES frames at once.
 *
 * @param arg
 *   The conf's notes_arg.
 * @param window_end_ps
 *   T' of the window that ran.
 * @param bytes
 *   Set to the notes (the caller's; read before the call returns to the
 *   participant's poll, never kept).
 * @param len
 *   Set to their length, 0 for none (then bytes may stay unset).
 * @return
 *   0, or a negative errno that stops the run (ABORT INTERNAL).
 */
typedef int (*uet_sync_notes_out_fn)(void *arg, uet_time_t window_end_ps,
				     const void **bytes, size_t *len);

/**
 * The notes of a whole window: every NIC's, concatenated in port order
 * (= host order), once all its DONEs are in and before the next window
 * runs. Called once per window that ran, with len 0 when no NIC had notes.
 *
 * @param arg
 *   The conf's notes_arg.
 * @param window_end_ps
 *   T' of the window the notes are of.
 * @param bytes
 *   The notes, valid during the call only.
 * @param len
 *   Their length.
 * @return
 *   0, or a negative errno that stops the run (ABORT INTERNAL).
 */
typedef int (*uet_sync_notes_in_fn)(void *arg, uet_time_t window_end_ps,
				    const void *bytes, size_t len);

/**
 * Why a frame received on a lockstep port was dropped before the model
 * (docs/lockstep.md, "Foreign and broken frames"): a port may face stacks
 * that are not ours, and none of these stops a run.
 */
enum uet_sync_drop {
	/** IPv4 or MAC control with no lockstep trailer (a kernel's or a
	 * foreign stack's frame). */
	UET_SYNC_DROP_NO_TRAILER = 0,
	/** Too short for its headers: under an Ethernet header, an IPv4
	 * header or datagram cut short, a control frame that does not
	 * parse. */
	UET_SYNC_DROP_TRUNCATED,
	/** An EtherType that is neither IPv4, MAC control nor lockstep
	 * control (ARP, IPv6, anything else). */
	UET_SYNC_DROP_ETHERTYPE,
	/** A control frame of another run: its run id or nonce is not this
	 * run's, or a HELLO once the run is under way. */
	UET_SYNC_DROP_STALE,
	UET_SYNC_DROP_KINDS,
};

/** Frames one port dropped, by kind. */
struct uet_sync_port_drops {
	uint64_t n[UET_SYNC_DROP_KINDS];
};

/** @return the kind's name as in uet-ports.csv ("no_trailer", ...). */
const char *uet_sync_drop_name(enum uet_sync_drop kind);

/** How to set a coordinator up. */
struct uet_sync_coordinator_conf {
	/** One port per NIC; the switch component's port i is ports[i]. */
	struct uet_port *const *ports;
	/** Number of ports, 1..UET_SYNC_PORTS_MAX. */
	uint32_t n_ports;
	/** The switch component; its out hook is taken over. */
	struct uet_component *component;
	/** Pool for control frames and trailer segments. */
	struct rte_mempool *pool;
	/** ps, lookahead L (smallest NIC Delay), > 0. */
	uet_time_t lookahead_ps;
	/** ps, virtual time of the first window's start. */
	uet_time_t start_ps;
	/** ps, no event at or after this time runs; UET_TIME_NEVER: none. */
	uet_time_t end_ps;
	/** Hash of the scenario; every HELLO must carry the same. */
	uint64_t scenario_hash;
	/** Seed of the run id and nonce (a run's identity, not its results).
	 */
	uint64_t nonce_seed;
	/** Wall-clock limit on waiting for any NIC, ms; 0: the default. */
	uint32_t timeout_ms;
	/** Wall-clock limit on waiting for every NIC's HELLO from the first
	 * poll, ms; 0: UET_SYNC_STARTUP_TIMEOUT_MS_DEFAULT. */
	uint32_t startup_timeout_ms;
	/** Progress callback, or NULL. */
	uet_sync_progress_fn progress_fn;
	/** Its argument. */
	void *progress_arg;
	/** Wall ms between progress calls; 0 with a callback: 1000. */
	uint32_t progress_interval_ms;
	/** Check after each window, or NULL. */
	uet_sync_window_fn window_fn;
	/** Its argument. */
	void *window_arg;
	/** lcores that run the switch's parts: the calling one, then the
	 * EAL's first workers; 0 or 1: the calling one alone. The records
	 * are the same for any count. */
	uint32_t lcores;
	/** Each window's notes, all NICs' in port order, once its DONEs
	 * are in; NULL: not wanted here (the NICs that asked still get
	 * them). */
	uet_sync_notes_in_fn notes_in_fn;
	/** Its argument. */
	void *notes_arg;
	/** Bytes of notes a window may carry, all NICs together; 0:
	 * UET_SYNC_NOTES_WINDOW_MAX_BYTES (the most it may be). */
	uint32_t notes_window_max_bytes;
};

/** How to set a participant up. */
struct uet_sync_participant_conf {
	/** The port to the switch. */
	struct uet_port *port;
	/** The NIC component; its out hook is taken over (port 0 only). */
	struct uet_component *component;
	/** Pool for control frames and trailer segments. */
	struct rte_mempool *pool;
	/** The NIC's id (host index). */
	uint16_t nic_id;
	/** The NIC's IPv4 address, host order. */
	uint32_t ipv4;
	/** The NIC's MAC address. */
	uint8_t mac[UET_ETH_ADDR_LEN];
	/** Hash of the scenario the NIC loaded. */
	uint64_t scenario_hash;
	/**
	 * Wall-clock limit on waiting for the switch, ms; 0: the default.
	 * Once the run is under way the NIC waits a quarter longer
	 * (UET_SYNC_NIC_WAIT_MS): with equal settings on both sides the
	 * switch, which knows which NIC fell silent, stops the run first.
	 */
	uint32_t timeout_ms;
	/** Wall-clock limit on waiting for WELCOME from the first poll, ms;
	 * 0: UET_SYNC_STARTUP_TIMEOUT_MS_DEFAULT. */
	uint32_t startup_timeout_ms;
	/** Check after each window, or NULL. */
	uet_sync_window_fn window_fn;
	/** Its argument. */
	void *window_arg;
	/** The NIC's notes of each window, sent before its DONE; NULL:
	 * none, no NOTES frame leaves this port. */
	uet_sync_notes_out_fn notes_out_fn;
	/** Each window's notes, all NICs' in port order, given when the
	 * next GRANT (or BYE) comes, before anything of the next window
	 * runs. Set exactly when wants_notes is. */
	uet_sync_notes_in_fn notes_in_fn;
	/** Argument of both. */
	void *notes_arg;
	/** This port takes the window notes: HELLO says so (flags bit 0).
	 * One port per uet-nic process is enough: every port gets the
	 * same. */
	bool wants_notes;
};

struct uet_sync_coordinator;
struct uet_sync_participant;

/**
 * Create a coordinator. Nothing is sent until the first poll.
 *
 * @param cp
 *   Set to the new coordinator.
 * @param conf
 *   Ports, component, times; copied.
 * @return
 *   0, -EINVAL (no port, too many, no component or pool, lookahead 0,
 *   end before start, notes_window_max_bytes over
 *   UET_SYNC_NOTES_WINDOW_MAX_BYTES), -ENOMEM.
 */
int uet_sync_coordinator_create(struct uet_sync_coordinator **cp,
				const struct uet_sync_coordinator_conf *conf);

/**
 * Do whatever can be done now without waiting: receive, send, run a window.
 *
 * @return
 *   UET_SYNC_RUNNING, UET_SYNC_FINISHED (BYE sent and answered by every
 *   NIC), or a negative errno, after which the run is over and an ABORT
 *   went to every NIC: -EINVAL scenario hash mismatch, -ETIMEDOUT a NIC
 *   silent too long, -EIO frames lost,
 *   -EPROTO an unexpected frame (NOTES of another window, after the
 *   NIC's DONE, or over UET_SYNC_NOTES_WINDOW_MAX_BYTES in a window
 *   included), -ECONNABORTED a NIC aborted, -ERANGE a
 *   component broke the lookahead, or what failed inside (-ENOMEM).
 *   uet_sync_coordinator_error() says what and names the NIC and port.
 *   Foreign, broken and stale frames never stop the run: they are
 *   counted (uet_sync_coordinator_port_drops()) and dropped.
 */
int uet_sync_coordinator_poll(struct uet_sync_coordinator *c);

/**
 * Counters.
 *
 * @param c
 *   The coordinator.
 * @param st
 *   Filled in.
 */
void uet_sync_coordinator_stats(const struct uet_sync_coordinator *c,
				struct uet_sync_stats *st);

/**
 * Why the run stopped.
 *
 * @return
 *   The error text ("" while there is none).
 */
const char *uet_sync_coordinator_error(const struct uet_sync_coordinator *c);

/**
 * @return
 *   The enum uet_ls_abort_code of the error, 0 while there is none.
 */
uint32_t uet_sync_coordinator_abort_code(const struct uet_sync_coordinator *c);

/**
 * Frames port i of the coordinator dropped before the model, by kind.
 *
 * @param c
 *   The coordinator.
 * @param i
 *   Port index, < n_ports (anything else gives zeros).
 * @param d
 *   Filled in.
 */
void uet_sync_coordinator_port_drops(const struct uet_sync_coordinator *c,
				     uint32_t i, struct uet_sync_port_drops *d);

/**
 * Free a coordinator and the frames it still queues; the component's out
 * hook is left dangling (do not run the component afterwards). NULL is
 * accepted.
 */
void uet_sync_coordinator_free(struct uet_sync_coordinator *c);

/**
 * Create a participant. HELLO goes out at the first poll.
 *
 * @return
 *   0, -EINVAL (no port, component or pool; wants_notes without
 *   notes_in_fn or the other way round), -ENOMEM.
 */
int uet_sync_participant_create(struct uet_sync_participant **pp,
				const struct uet_sync_participant_conf *conf);

/**
 * Do whatever can be done now: HELLO, deliver frames, run a granted window,
 * DONE, answer BYE.
 *
 * @return
 *   UET_SYNC_RUNNING, UET_SYNC_FINISHED (BYE received and answered), or a
 *   negative errno as for uet_sync_coordinator_poll() (-ECONNABORTED: the
 *   switch sent ABORT); uet_sync_participant_error() says why.
 */
int uet_sync_participant_poll(struct uet_sync_participant *p);

/**
 * Whether the switch has welcomed the participant (the handshake is
 * over; the windows run from its next GRANT on), or the run has ended.
 */
bool uet_sync_participant_welcomed(const struct uet_sync_participant *p);

/** Counters. */
void uet_sync_participant_stats(const struct uet_sync_participant *p,
				struct uet_sync_stats *st);

/** Frames the participant's port dropped before the model, by kind. */
void uet_sync_participant_port_drops(const struct uet_sync_participant *p,
				     struct uet_sync_port_drops *d);

/** @return the error text ("" while there is none). */
const char *uet_sync_participant_error(const struct uet_sync_participant *p);

/** @return the enum uet_ls_abort_code of the error, 0 when none. */
uint32_t uet_sync_participant_abort_code(const struct uet_sync_participant *p);

/** Free a participant and the frames it still queues. NULL is accepted. */
void uet_sync_participant_free(struct uet_sync_participant *p);

/**
 * The embedded mode: poll the coordinator, then each participant in array
 * order, round-robin in the calling thread until every role has finished
 * or one fails. Every wait inside is bounded by the roles' timeouts.
 *
 * @param c
 *   The coordinator.
 * @param parts
 *   The participants (any order: results do not depend on it).
 * @param n
 *   Number of participants.
 * @return
 *   0 when all finished, or the first negative errno a role returned (its
 *   _error() text says why).
 */
int uet_sync_run_embedded(struct uet_sync_coordinator *c,
			  struct uet_sync_participant *const *parts,
			  uint32_t n);

/**
 * Put the lockstep trailer on a data frame: right after the IP datagram of
 * an Ethernet/IPv4 frame (replacing any padding), or at the end of any
 * other frame. The mbuf may be a chain; the trailer goes into the last
 * segment's tailroom or into a new segment from the mbuf's pool.
 *
 * @return
 *   0, -EBADMSG (shorter than an Ethernet header, or a bad IPv4 header),
 *   -ENOMEM.
 */
int uet_sync_trailer_append(struct rte_mbuf *m, uet_time_t arrival_ps);

/**
 * Take the lockstep trailer off a data frame (where
 * uet_sync_trailer_append() put it) and read its arrival time.
 *
 * @return
 *   0, or -ENOENT when no trailer is there (the mbuf is unchanged).
 */
int uet_sync_trailer_strip(struct rte_mbuf *m, uet_time_t *arrival_ps);

#endif /* UET_SYNC_PORTS_H */
