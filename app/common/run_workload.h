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
 * Over MPI ranks: the NICs this rank runs (its posts go to them only;
 * the start's went to every NIC) and whether to log its completions for the
 * other ranks. Without a call, every NIC is this process's and nothing is
 * logged.
 */
void run_wl_set_share(struct run_wl *w, uint32_t nic_first, uint32_t nic_count,
		      bool log);

/**
 * After every NIC has run a window (the switch's window hook), and over
 * ranks every rank's completions of the window are in: apply what the
 * window's completions changed on other hosts (the engine's flush: the
 * starts of cross-host triggers, the activations of triggers several
 * hosts activate), post on this process's NICs, and keep a wake-up event
 * in wake_q (the same on every rank)
 * no later than the earliest such post, so that the next window reaches
 * it. A NIC whose own completion decides a post posts at once.
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
 * run_wl_error(). Logged for the other ranks when run_wl_set_share()
 * said so.
 */
void run_wl_completion(struct run_wl *w, const struct uet_ses_completion *c);

/** Bytes run_wl_pack_log() writes now. */
size_t run_wl_log_bytes(const struct run_wl *w);

/**
 * This rank's completions since the last pack, in the order its engine
 * took them (a count, then (message | ARRIVED bit, time) pairs), into
 * dst; the log is emptied. A window without completions is its count.
 *
 * @return
 *   0; -ENOSPC (room below run_wl_log_bytes()).
 */
int run_wl_pack_log(struct run_wl *w, uint8_t *dst, size_t room, size_t *used);

/**
 * Another rank's packed completions into this engine, in their order
 * (its posts are skipped: their NICs' owner made them).
 *
 * @param used
 *   Set to the bytes read.
 * @return
 *   0; -EBADMSG (not a log); the engine's error (kept).
 */
int run_wl_replay(struct run_wl *w, const uint8_t *src, size_t len,
		  size_t *used);

/** 0, or the first error of the engine (a run should stop on it). */
/** Distinct ranks rank sends to over the program (its windows that can
 * be open at once). */
uint32_t run_wl_send_peers(const struct run_wl *w, uint32_t rank);

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
