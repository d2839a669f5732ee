/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the files of the shared wiring see of one run: `struct run`, and
 * one entry per step of uet_run() (uet_run.c reads as that sequence).
 *
 *   run_models.c    the roles hosted here: the switch, the NICs, the
 *                   workload's posts, the completion counts
 *   run_outputs.c   the output folder, records, captures, arrivals.csv
 *   run_ports.c     ring pairs (embedded) or real ports, opened, drained,
 *                   lingered on
 *   run_clock.c     the clock role (run_clock.h: local, MPI,
 *                   coordinator, participant, realtime; one file each):
 *                   picked, opened, run, reported
 *   run_poll.c      lockstep over ports: the poll loop, and where a
 *                   window's wall time went
 *   run_nic_lcores.c  uet-nic's participants polled over several lcores
 *   run_summary.c   the totals and the closing summary
 *   run_summary_csv.c  summary.csv: the summary's figures
 *   run_wall_csv.c  wall-time.csv: the run's wall-clock figures
 *   run_port_records.c  uet-ports.csv: what each lockstep port carried
 *                   and dropped
 */
#ifndef RUN_PRIVATE_H
#define RUN_PRIVATE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "uet_config.h"
#include "uet_run.h"

struct rte_mempool;
struct uet_capture;
struct uet_fabric;
struct uet_nic;
struct uet_port;
struct uet_record;
struct uet_ses_arrivals;
struct uet_ses_pattern;
struct uet_sync_coordinator;
struct uet_sync_participant;
struct uet_sync_local;
struct run_clock_ops;
struct run_mpi;
struct run_rt;
struct run_swrec;
struct run_wl;
struct run_wl_notes;

/* The mbuf pool's name, in messages. */
#define RUN_POOL_NAME "uet_run_pool"
#define RUN_PAYLOAD_POOL_NAME "uet_run_payloads"

/* Message flags, one byte per workload message. */
#define RUN_MSG_SENT 0x1u
#define RUN_MSG_ARRIVED 0x2u
#define RUN_MSG_COMPLETED 0x4u

struct run;

/* What a hosted NIC's participant hands its window hook. */
struct run_nic_ctx {
	struct run *run;
	uint32_t i; /* hosted NIC i */
};

/* Everything one run holds. */
struct run {
	const struct uet_run_conf *conf;
	const struct uet_scenario *sc;
	const char *prog;
	uint32_t hosts;
	bool has_switch; /* the switch runs here */
	uint32_t first;	 /* first hosted NIC */
	uint32_t count;	 /* hosted NICs */
	struct rte_mempool *mp;
	struct rte_mempool *payload_mp; /* embedded: the payloads' mbufs
					 * (run_sizing.c), or NULL */
	uint32_t pool_mbufs;		/* its size */
	bool pool_derived; /* derived from the scenario, not run.mbufs */
	/* Roles (run_models.c). */
	struct uet_fabric *fabric;
	struct uet_nic **nic; /* hosted NIC i is host first + i */
	struct run_wl *wl;    /* a program, or NULL: the messages list */
	/* Over ports, a program's completions in the window notes
	 * (run_workload_notes.c), or NULL. */
	struct run_wl_notes *wl_notes;
	uint32_t n_messages;	/* the list's or the program's */
	uint8_t *msg_flags;	/* by msg_id */
	uint32_t completed;	/* messages whose sender completed */
	uint32_t conf_messages; /* messages whose source is hosted */
	uint32_t arrived;	/* messages received by hosted NICs */
	uint32_t to_arrive;	/* messages whose destination is hosted */
	/* Outputs (run_outputs.c). */
	struct run_swrec *swrec;  /* switch-stats and occupancy records */
	struct uet_capture **cap; /* port-i.pcap, NULL when pcap is off */
	int cap_err;		  /* first capture write error */
	int out_lock_fd; /* run.out's lock (run_out_lock.c) + 1, or 0 */
	struct uet_record *rec;
	/* NIC i's view of rec (its rows wait there until its window ends),
	 * or NULL: rec itself. uet-emu flushes the views in host order after
	 * each window; uet-nic, whose NICs may run on several lcores, flushes
	 * each NIC's after its own window, under rec_lock. */
	struct uet_record **nic_rec;
	pthread_mutex_t rec_lock;
	struct uet_ses_arrivals *arrivals;
	struct uet_ses_pattern *pattern;
	/* Ports (run_ports.c). */
	struct uet_port **sw_port;  /* switch side of host i's link */
	struct uet_port **nic_port; /* NIC side of hosted NIC i's link */
	/* Clock (run_clock.h: the role, and the state of each role). */
	const struct run_clock_ops *clock;
	struct uet_sync_coordinator *co;
	struct uet_sync_participant **pa;
	struct run_nic_ctx *pa_ctx;   /* the participants' window hooks */
	struct uet_sync_local *local; /* uet-emu's in-process lockstep */
	/* Over MPI ranks (run_clock_mpi.c): the role's state, and the
	 * messages whose arrival this rank's NICs saw, in order, for the
	 * other ranks (written from any NIC lcore). */
	struct run_mpi *mpi;
	uint64_t *arrived_log;
	uint32_t n_arrived_log;
	struct run_rt *rt; /* realtime roles, or NULL: lockstep */
	uint64_t start_ns;
	/* Lockstep over ports: the process's CPU time and context switches
	 * from the end of the handshake to the end of the windows, for the
	 * per-window split (run_clock.c). */
	struct run_cpu {
		uint64_t user_ns, sys_ns;
		uint64_t vcsw, ivcsw; /* voluntary, involuntary */
		uint64_t faults;      /* page faults, minor and major */
		uint64_t naps;	      /* idle sleeps of the polling loop */
		uint64_t mono_ns;     /* CLOCK_MONOTONIC when taken */
		uint64_t real_ns;     /* CLOCK_REALTIME when taken */
	} cpu0, cpu1;
};

/* CLOCK_MONOTONIC, ns. */
uint64_t run_wall_ns(void);

/* Whether host is one of the NICs hosted here. */
static inline bool run_hosted(const struct run *run, uint32_t host)
{
	return host >= run->first && host - run->first < run->count;
}

/* Whether message i of the list is one an external host is expected to
 * send to a NIC here (switch.external_hosts). */
bool run_expected(const struct run *run, uint32_t i);
/* Of those, the ones that arrived whole. */
uint32_t run_expected_arrived(const struct run *run);

/* out/name, with or without a slash at the end of out. */
void run_out_path(char *buf, size_t size, const char *out, const char *name);

/* run_models.c */
int run_roles(struct run *run, const struct uet_run_conf *conf);
int run_workload_open(struct run *run, struct uet_run_result *res);
int run_wire_nics(struct run *run);
/* Both, the switch built on a worker lcore meanwhile where there is one. */
int run_wire_models(struct run *run);
uint64_t run_total_events(const struct run *run);
void run_models_close(struct run *run);

/* run_outputs.c */
int run_open_outputs(struct run *run);
int run_outputs_attach_switch(struct run *run);
/* NIC i's records: its view in uet-emu, else the records. */
struct uet_record *run_nic_record(const struct run *run, uint32_t i);
/* Every view's rows into the files, in host order. */
int run_flush_nic_records(struct run *run);
/* NIC i's view into the files; safe from any lcore. */
int run_flush_nic_record(struct run *run, uint32_t i);
/* 0, or -EIO when a record or capture could not be written whole (each
 * failure named on stderr). */
int run_close_outputs(struct run *run);

/* run_out_lock.c: run.out owned by this run (RUN_OUT_LOCK_NAME locked),
 * from before it clears the folder until its files are closed. -EBUSY
 * when another run holds it, named on stderr. */
#define RUN_OUT_LOCK_NAME ".uet-run.lock"
int run_lock_out(struct run *run, const char *out);
void run_unlock_out(struct run *run);

/* run_ports.c */
int run_open_ports(struct run *run);
void run_linger(struct run *run);
void run_close_ports(struct run *run);
/* After a failed run: the ports whose kernel interface is down or gone,
 * named on stderr (run_port_links.c). */
void run_report_port_links(const struct run *run);

/* run_clock.c: the clock role (run_clock.h), picked and opened; the run;
 * why it stopped and where it got to; closed. */
int run_lookahead(const struct run *run, uet_time_t *lookahead_ps);
int run_clock_open(struct run *run, uint64_t scenario_hash);
int run_clock_poll(struct run *run);
/* Over MPI ranks (run_clock_mpi.c): every rank loaded the same scenario;
 * -EINVAL (rank 0 names the first that differs) or what MPI said. */
int run_clock_mpi_check(struct run *run, uint64_t scenario_hash);
void run_clock_report(struct run *run, int rc, struct uet_run_result *res);
void run_close_clock(struct run *run);

/* run_poll.c: lockstep over ports, polled in this thread. */
/* Poll the hosted roles until the run ends, a role fails or a signal
 * stops it; the process's CPU time over it in run->cpu0 and run->cpu1. */
int run_poll(struct run *run);
/* Where the lockstep windows' wall time went in this process, summed over
 * the windows (the hosted NICs' in a uet-nic). */
struct run_window_costs {
	uint64_t windows;
	uint64_t wall_ns;     /* first poll to the last */
	uint64_t model_ns;    /* in the components */
	uint64_t rx_ns;	      /* in rx bursts and frame handling */
	uint64_t tx_ns;	      /* in tx bursts */
	uint64_t waiting_ns;  /* the rest: waiting for a peer */
	uint64_t data_frames; /* in and out */
	uint64_t ctrl_frames; /* in and out */
	uint64_t rx_bursts, tx_bursts;
	unsigned int lcores; /* the NICs' lcores (a uet-nic), else 1 */
};
/* Fill c; false when no window ran over ports in this process. */
bool run_window_costs(const struct run *run, struct run_window_costs *c);
/* Print where a window's wall time went in this process. */
void run_window_split(const struct run *run);

/* run_port_records.c: uet-ports.csv (lockstep over ports only).
 * 0, or -1 when the file cannot be written. */
int run_write_port_records(const struct run *run);

/* run_nic_lcores.c: uet-nic's participants over several lcores. */
/* The lcores its NICs are polled on (1: the poll loop of run_clock.c). */
unsigned int run_nic_lcores(const struct run *run);
/* Poll every participant, each on one lcore, until all finished or one
 * failed; 0 or the first failure in host order. */
int run_poll_nic_lcores(struct run *run);

/* run_summary.c */
void run_totals(const struct run *run, struct uet_run_result *r);
/* The end of the run in words, to f. */
void run_summary(const struct run *run, const struct uet_run_result *r,
		 FILE *f);
/* run_summary_csv.c: the same figures into run.out/summary.csv; 0 or a
 * negative errno. */
int run_summary_csv(const struct run *run, const struct uet_run_result *r);
/* run_wall_csv.c: the run's wall-clock figures into run.out/wall-time.csv,
 * the one file that differs between two identical runs; 0 or a negative
 * errno. */
int run_wall_csv(const struct run *run, const struct uet_run_result *r);

#endif /* RUN_PRIVATE_H */
