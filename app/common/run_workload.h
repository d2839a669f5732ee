/* SPDX-License-Identifier: BSD-3-Clause */
/* uet-emu's workload driver: a program (Chakra traces, a connection matrix
 * or a generator) run by lib/workload's engine on the NICs of an embedded
 * run. */
#ifndef RUN_WORKLOAD_H
#define RUN_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "uet_config.h"
#include "uet_ses.h"

struct uet_evq;
struct uet_nic;
struct uet_record;
struct run_wl;

/** Whether the scenario's workload is a program (workload.chakra, .matrix
 * or .generate) rather than the messages list. */
bool run_wl_wanted(const struct uet_scenario *sc);

/** The scenario key of the program's source ("workload.chakra", ...). */
const char *run_wl_source(const struct uet_scenario *sc);

/**
 * Load the scenario's workload program: Chakra traces (with the
 * algorithms and reduce_chunk), a connection matrix, or a generator's
 * messages.
 *
 * @param wp
 *   Set to the driver.
 * @param sc
 *   The scenario; must outlive the driver.
 * @return
 *   0; -ENOENT, -EINVAL (a bad trace, printed on stderr); -ENOMEM.
 */
int run_wl_create(struct run_wl **wp, const struct uet_scenario *sc);

/** Messages of the program: the message numbers are 0 to this - 1. */
uint64_t run_wl_messages(const struct run_wl *w);

/**
 * Start the program: create the engine over the NICs (rank i posts on
 * nics[i]) and post what needs nothing at time 0.
 *
 * @param nics
 *   One NIC per host; must outlive the driver.
 * @param trigger_delay_ps
 *   ps from a trigger's activation on one host to the start it causes on
 *   another: at least the lockstep lookahead.
 * @return
 *   0, or the first post error (printed).
 */
int run_wl_start(struct run_wl *w, struct uet_nic *const *nics,
		 uet_time_t trigger_delay_ps);

/**
 * After every NIC has run a window (the switch's window hook): post what
 * one host's completion started on another host during the window, and
 * keep a wake-up event in wake_q no later than the earliest such post, so
 * that the next window reaches it. A NIC whose own completion decides a
 * post posts at once; only cross-host triggers wait for this.
 *
 * @param wake_q
 *   The switch's event queue (it decides the next window).
 * @return
 *   0, or the first post error (kept for run_wl_error()).
 */
int run_wl_flush(struct run_wl *w, struct uet_evq *wake_q);

/**
 * Forward a NIC completion: SENT from the source NIC, ARRIVED from the
 * destination NIC; others are ignored. A failure is kept for
 * run_wl_error().
 */
void run_wl_completion(struct run_wl *w, const struct uet_ses_completion *c);

/** 0, or the first error of the engine (a run should stop on it). */
/** Distinct ranks rank sends to over the program (its windows that can
 * be open at once). */
uint32_t run_wl_send_peers(const struct run_wl *w, uint32_t rank);

/**
 * Whether one rank's completions can change another rank's state (a
 * connection matrix's triggers): then the NICs must run in host order on
 * one lcore for the run to be the same whatever the lcores.
 */
bool run_wl_ties_ranks(const struct run_wl *w);

int run_wl_error(const struct run_wl *w);

/** Whether every rank's graph has finished. */
bool run_wl_done(const struct run_wl *w);

/* Most uplinks or ranks the closing summary lists one line each; a run
 * with more gets a line of ranges (the records have every one). */
#define RUN_SUMMARY_LIST_MAX 32u

/** Print each rank's completion time (or what it still waits for); many
 * completed ranks in one line. */
void run_wl_summary(const struct run_wl *w, FILE *f);
/* The same figures as summary.csv rows (figure,value). */
void run_wl_summary_csv(const struct run_wl *w, FILE *f);

/**
 * Write workload.csv: each rank's trace (begin 0, end its last node) and
 * each of its collectives (begin ready, end finished); unfinished ends are
 * empty cells. Then workload-messages.csv: every posted message with its
 * origin (matrix line, generated index, trace node) and times.
 *
 * @return
 *   0 or the record's error.
 */
int run_wl_write_record(const struct run_wl *w, struct uet_record *rec);

/** Free the driver; NULL is accepted. */
void run_wl_free(struct run_wl *w);

#endif /* RUN_WORKLOAD_H */
