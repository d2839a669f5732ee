/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lockstep synchronisation (DESIGN.md section 3, docs/lockstep.md) over
 * ports: the coordinator (the switch side) and the participant (the NIC
 * side), each a non-blocking state machine driven by a poll function, so
 * that the embedded mode polls every role round-robin in one thread and
 * uet-switch / uet-nic poll one role each in separate processes.
 *
 * A role owns the out() hook of its component: frames the component sends
 * get the 12-byte trailer (arrival time) and go on the port in order with
 * the control frames; frames received lose the trailer and reach the
 * component's deliver() with the arrival time the trailer carried.
 */
#ifndef UET_SYNC_H
#define UET_SYNC_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "uet_component.h"
#include "uet_lateness.h"
#include "uet_time.h"
#include "uet_wire_lockstep.h"

struct rte_mbuf;
struct rte_mempool;
struct uet_port;

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
/** How often a participant repeats HELLO until WELCOME comes, ms. */
#define UET_SYNC_HELLO_INTERVAL_MS 500u
/** Most ports (NICs) one coordinator serves. */
#define UET_SYNC_PORTS_MAX 1024u
/** Longest error text kept by a role, NUL included. */
#define UET_SYNC_ERROR_BYTES 384u

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
};

/**
 * Called by the coordinator at most every progress_interval_ms of wall
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
 *   end before start), -ENOMEM.
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
 *   -EPROTO an unexpected frame, -ECONNABORTED a NIC aborted, -ERANGE a
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
 *   0, -EINVAL (no port, component or pool), -ENOMEM.
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

/*
 * The in-process lockstep (uet-emu): the switch and every NIC in this
 * process, the NICs spread over worker lcores, the windows and the order
 * of every delivery those of the protocol over ports (docs/lockstep.md,
 * "In one process"), so the records are the same as a run of uet-switch
 * and uet-nic, and the same for any number of lcores.
 */

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

/** @return the error text ("" while there is none). */
const char *uet_sync_local_error(const struct uet_sync_local *l);

/** Free the run and the frames it still holds. NULL is accepted. */
void uet_sync_local_free(struct uet_sync_local *l);

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

/*
 * Realtime mode (docs/lockstep.md, "Realtime"): no trailers, no control
 * frames. Virtual time is the monotonic clock's time since an epoch
 * divided by the dilation; a component runs each event when the clock
 * reaches its time, a frame it sends leaves its port when the clock reaches
 * the frame's modeled arrival at the far end, and a frame received is
 * stamped with the receiver's clock. Results depend on the host's load.
 */

/** The virtual clock of a realtime run. */
struct uet_sync_rt_clock {
	/** Monotonic wall ns at which virtual time is 0 (CLOCK_MONOTONIC,
	 * the same in every process of the machine). */
	uint64_t epoch_ns;
	/** Wall ps per virtual ps (run.time_dilation), >= 1. */
	uint32_t dilation;
};

/**
 * @return
 *   ps, the virtual time at monotonic wall time wall_ns; 0 before the
 *   epoch.
 */
uet_time_t uet_sync_rt_virtual_ps(const struct uet_sync_rt_clock *c,
				  uint64_t wall_ns);

/**
 * @return
 *   The monotonic wall ns at which virtual time reaches t_ps (rounded up);
 *   UINT64_MAX for UET_TIME_NEVER or beyond.
 */
uint64_t uet_sync_rt_wall_ns(const struct uet_sync_rt_clock *c,
			     uet_time_t t_ps);

/** How to set a realtime role up: one component and its ports. */
struct uet_sync_realtime_conf {
	/** The component's ports: its port i is ports[i]. */
	struct uet_port *const *ports;
	/** Number of ports, 1..UET_SYNC_PORTS_MAX. */
	uint32_t n_ports;
	/** The component; its out hook is taken over. */
	struct uet_component *component;
	/** The run's clock. */
	struct uet_sync_rt_clock clock;
	/** ps, no event at or after this time runs; the role finishes when
	 * the clock reaches it. */
	uet_time_t end_ps;
	/** Wall-clock limit on a port that takes no frame, ms; 0: default. */
	uint32_t timeout_ms;
};

/** Counters of a realtime role. */
struct uet_sync_rt_stats {
	uint64_t frames_rx;	 /**< frames received and delivered */
	uint64_t frames_tx;	 /**< frames the ports took */
	uint64_t foreign_frames; /**< not IPv4 (or lockstep control): dropped */
	uint64_t events;	 /**< events the component ran */
	uet_time_t now_ps;	 /**< ps, virtual time of the last poll */
	/** How late events ran: clock at the start minus the event's time. */
	struct uet_lateness lateness;
	/** ps, summed and largest delay of frames leaving after their time. */
	uint64_t tx_late_sum_ps;
	uet_time_t tx_late_max_ps;
};

struct uet_sync_realtime;

/**
 * Create a realtime role for a component.
 *
 * @return
 *   0, -EINVAL (no port, too many, no component, dilation 0), -ENOMEM.
 */
int uet_sync_realtime_create(struct uet_sync_realtime **rp,
			     const struct uet_sync_realtime_conf *conf);

/**
 * Do what is due now: deliver what the ports received (stamped with the
 * clock), run the events whose time has come, send the frames whose time
 * has come. Never waits.
 *
 * @param r
 *   The role.
 * @param wake_ns
 *   Out: the monotonic wall ns of the role's next event or frame to send
 *   (UINT64_MAX: none), so that the caller can sleep until then (or until
 *   a frame may have come).
 * @return
 *   UET_SYNC_RUNNING, UET_SYNC_FINISHED (the clock reached end_ps), or a
 *   negative errno (-ETIMEDOUT a port took nothing for timeout_ms, what a
 *   component returned); uet_sync_realtime_error() says why.
 */
int uet_sync_realtime_poll(struct uet_sync_realtime *r, uint64_t *wake_ns);

/**
 * Whether the role holds nothing: no pending event before end_ps, no
 * frame waiting to leave.
 */
bool uet_sync_realtime_idle(const struct uet_sync_realtime *r);

/** Counters. */
void uet_sync_realtime_stats(const struct uet_sync_realtime *r,
			     struct uet_sync_rt_stats *st);

/**
 * @return
 *   The role's work so far: frames received and sent, events run. A poll
 *   that leaves it unchanged found nothing to do (the caller may nap).
 */
uint64_t uet_sync_realtime_work(const struct uet_sync_realtime *r);

/** @return the error text ("" while there is none). */
const char *uet_sync_realtime_error(const struct uet_sync_realtime *r);

/** Free a role and the frames it holds. NULL is accepted. */
void uet_sync_realtime_free(struct uet_sync_realtime *r);

#endif /* UET_SYNC_H */
