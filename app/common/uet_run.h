/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The wiring shared by uet-emu, uet-switch and uet-nic: from a loaded
 * scenario to a finished lockstep run of the roles this process hosts (the
 * switch, some NICs, or both over ring ports), with the records and
 * captures of those roles.
 */
#ifndef UET_RUN_H
#define UET_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "uet_config.h"
#include "uet_lateness.h"
#include "uet_port.h"
#include "uet_sync_ranks.h"

/** Which roles this process hosts. */
enum uet_run_role {
	/** The switch and every NIC, joined by ring port pairs (uet-emu). */
	UET_RUN_EMBEDDED = 0,
	/** The switch only, one real port per host (uet-switch). */
	UET_RUN_SWITCH,
	/** Some NICs, one real port each (uet-nic). */
	UET_RUN_NICS,
};

/** What this process runs. */
struct uet_run_conf {
	/** The loaded scenario; records and captures go to its run.out. */
	const struct uet_scenario *sc;
	/** Program name, the prefix of every message ("uet-nic"). */
	const char *prog;
	/** The roles hosted. */
	enum uet_run_role role;
	/** UET_RUN_NICS: first host index hosted. */
	uint32_t nic_first;
	/** UET_RUN_NICS: number of hosts hosted (nic_first.. consecutive). */
	uint32_t nic_count;
	/**
	 * Device strings (docs/ports.md) of the ports: UET_RUN_SWITCH one per
	 * host, in host order; UET_RUN_NICS one per hosted NIC, in order.
	 * Ignored by UET_RUN_EMBEDDED.
	 */
	const char *const *port_devargs;
	/**
	 * Hash of the scenario as loaded, before command-line overrides such
	 * as the output folder (which differs per process and must not make
	 * the HELLOs disagree); 0: the hash of sc.
	 */
	uint64_t scenario_hash;
	/** Wall-clock bound on any wait for a peer, ms; 0: the default. */
	uint32_t timeout_ms;
	/**
	 * Wall-clock bound on the handshake with the peers (HELLO until
	 * WELCOME), ms, counted from this process's first poll: the peer
	 * processes may still be starting; 0: the lockstep default (60 s).
	 */
	uint32_t startup_timeout_ms;
	/**
	 * Set by a signal handler to stop the run (then the run returns
	 * -EINTR with its records flushed); NULL: none.
	 */
	const volatile sig_atomic_t *stop;
	/**
	 * The process exits right after the run (uet-switch, uet-nic): the
	 * mbuf pool is left to rte_eal_cleanup(), which unmaps it, because
	 * rte_mempool_free() zeroes every byte of it first (DPDK clears
	 * freed heap memory), which took 9 s for 170 MB on a loaded host.
	 */
	bool process_exits;
	/**
	 * Realtime (run.clock realtime): the CLOCK_MONOTONIC ns at which
	 * virtual time is 0, the same for every process of the run so that
	 * their clocks agree; 0: when this process's ports are open.
	 */
	uint64_t rt_epoch_ns;
	/**
	 * CLOCK_MONOTONIC ns when the program started (its main()), for the
	 * set-up time of the result; 0: uet_run()'s own start.
	 */
	uint64_t launch_ns;
	/**
	 * Realtime, NICs: wall ms the process keeps serving its links once
	 * every message it sends has completed and every message it receives
	 * has arrived (a peer may still retransmit); 0: 1000.
	 */
	uint32_t rt_linger_ms;
	/**
	 * The mbuf pool's size and data room (the CLI sizes the run before
	 * EAL starts, run_sizing.h); 0: uet_run() sizes it.
	 */
	uint32_t mbufs;
	uint32_t mbuf_data_bytes;
	/** Embedded: the payload pool's size (run_sizing.h); 0 with mbufs
	 * set: payloads take the one pool's mbufs. */
	uint32_t payload_mbufs;
	/** Whether mbufs was derived (else run.mbufs set it), for messages. */
	bool mbufs_derived;
	/**
	 * How the real ports (port_devargs) are opened: uet_port_open(), given
	 * by the mains of uet-switch and uet-nic. NULL in uet-emu, which opens
	 * none: it then links no ethdev port code nor any PMD
	 * (uet_run_cli.h).
	 */
	int (*port_open)(struct uet_port **portp, const char *devargs,
			 const struct uet_port_conf *conf);
	/**
	 * Why the run has its lcores ("2 CPUs usable, 1 busy with other
	 * processes: 1 lcore"), for the summary; NULL: run.lcores said.
	 */
	const char *lcores_why;
	/**
	 * UET_RUN_EMBEDDED over MPI ranks (uet-emu-mpi): this rank, its
	 * share of the NICs and the collectives; rank 0 writes the run's
	 * records and summary. NULL: one process.
	 */
	const struct uet_sync_ranks *ranks;
};

/** What a run ended with (counted over the roles this process hosts). */
struct uet_run_result {
	uint32_t messages;  /**< workload messages whose source is here */
	uint32_t completed; /**< of those, messages whose sender completed */
	/** Messages the list expects from external hosts to NICs here
	 * (switch.external_hosts), and of those, the ones that arrived
	 * whole. */
	uint32_t expected, expected_arrived;
	bool workload;	       /**< a program ran (not a list) */
	bool workload_done;    /**< ... and every rank's trace finished */
	int sync_err;	       /**< 0, or the lockstep error (negative) */
	uet_time_t virtual_ps; /**< ps, virtual time reached */
	uint64_t windows;      /**< lockstep windows */
	uint64_t events;       /**< events run, every hosted component */
	uint64_t wall_ns;      /**< wall time of the run */
	uint64_t setup_ns;     /**< wall time from launch_ns to the run */
	uint64_t frames;       /**< frames the switch received from NICs */
	uint64_t switch_drops; /**< frames the switch dropped (any reason) */
	uint64_t switch_trims; /**< frames the switch trimmed */
	/* Integrity of the run, summed over the hosted NICs: */
	uint64_t payload_mismatches;  /**< delivered bytes unlike those sent */
	uint64_t in_flight_anomalies; /**< in-flight bytes would go negative */
	uint64_t psns_taken;	      /**< data PSNs created */
	uint64_t psns_retired;	      /**< data PSNs acknowledged */
	/* Realtime only, over the hosted components: */
	bool realtime;		      /**< the run was realtime */
	struct uet_lateness lateness; /**< how late events ran */

	/** The signal (SIGINT, SIGTERM) that stopped the run before its
	 * end, through conf->stop; 0: none did. */
	int interrupted_by;
};

/** Whether a finished run kept every promise the data path makes: every
 * delivered byte equal to what was sent, in-flight bytes never negative,
 * every PSN retired exactly once. */
static inline bool uet_run_intact(const struct uet_run_result *r)
{
	return r->payload_mismatches == 0 && r->in_flight_anomalies == 0 &&
	       r->psns_retired == r->psns_taken;
}

/**
 * Run the hosted roles of a scenario in lockstep or realtime, as
 * run.clock says (EAL must be initialised): mempool, ports, the
 * components, records (NICs) and captures (switch) in run.out, the hosted
 * NICs' messages posted, the run, and a summary on stderr. A realtime run
 * also writes uet-realtime.csv (each hosted component's lateness). A
 * UET_RUN_NICS process also writes
 * arrivals.csv (msg_id,arrived_ps of the messages its NICs received), from
 * which scripts/uet-merge-records fills the arrival times that senders in
 * other processes could not know.
 *
 * @param conf
 *   What to run.
 * @param res
 *   Filled in (also when the run fails).
 * @return
 *   0 when the run ended with BYE (res says how many messages completed),
 *   or a negative errno with a message printed on stderr (-EINTR: stopped
 *   by conf->stop).
 */
int uet_run(const struct uet_run_conf *conf, struct uet_run_result *res);

/**
 * Parse a host range "N" or "A-B" (inclusive).
 *
 * @return
 *   0 with *first and *count set, or -EINVAL.
 */
int uet_run_parse_range(const char *s, uint32_t *first, uint32_t *count);

#endif /* UET_RUN_H */
