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
 * Start the program: create the engine over the NICs (rank h posts on
 * nics[h - nics_first]) and post what needs nothing at time 0 on this
 * process's NICs (run_wl_set_share(), called before).
 *
 * @param nics
 *   The NICs of hosts nics_first onwards, at least this process's;
 *   must outlive the driver.
 * @param nics_first
 *   The host of nics[0].
 * @param trigger_delay_ps
 *   ps from a trigger's activation on one host to the start it causes on
 *   another: at least the lockstep lookahead.
 * @return
 *   0, or the first post error (printed).
 */
int run_wl_start(struct run_wl *w, struct uet_nic *const *nics,
		 uint32_t nics_first, uet_time_t trigger_delay_ps);

/**
 * Over MPI ranks or ports: the NICs this process runs (its posts go to
 * them only; over ranks the start's went to every NIC, over ports the
 * share is set before the start) and whether to log its completions for
 * the other processes. Without a call, every NIC is this process's and
 * nothing is logged.
 */
void run_wl_set_share(struct run_wl *w, uint32_t nic_first, uint32_t nic_count,
		      bool log);

/**
 * Whether this process writes the program's records (workload.csv,
 * workload-messages.csv) and summary rows: every process but a uet-nic
 * (over ports the switch's engine writes them; it sees every
 * completion). Without a call: it does.
 */
void run_wl_set_keeper(struct run_wl *w, bool keeper);

/** The program's messages whose source is one of count hosts from first
 * (each rank posts the messages numbered from its msg_base). */
uint64_t run_wl_messages_from(const struct run_wl *w, uint32_t first,
			      uint32_t count);

/**
 * After every NIC has run a window (the switch's window hook), and over
 * ranks or ports every process's completions of the window are in: apply
 * what the window's completions changed on other hosts (the engine's
 * flush: the starts of cross-host triggers, the activations of triggers
 * several hosts activate), post on this process's NICs, and keep a
 * wake-up event in wake_q (the same on every rank) no later than the
 * earliest such post, so that the next window reaches it. A NIC whose
 * own completion decides a post posts at once.
 *
 * @param wake_q
 *   The switch's event queue (it decides the next window); NULL in a
 *   process without the switch (a uet-nic).
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

/** Distinct ranks rank sends to over the program (its windows that can
 * be open at once). */
uint32_t run_wl_send_peers(const struct run_wl *w, uint32_t rank);

/** 0, or the first error of the engine (a run should stop on it). */
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

/*
 * Over ports (run_workload_notes.c, docs/workload.md "Over ports"): each
 * window's completions travel as the lockstep's window notes. A uet-nic
 * process's notes are its tag (its first host), then its packed log
 * (run_wl_pack_log()); every process replays the others' and flushes
 * before the next window runs.
 */
struct run_wl_notes;

/**
 * The notes of one process.
 *
 * @param tag
 *   Its first host, or RUN_WL_NOTES_NO_TAG for the switch's process,
 *   which sends no notes and replays every process's.
 * @param nics
 *   Its NICs' participants, each of which calls run_wl_notes_out() after
 *   each window: the last of them sends the process's log.
 * @return
 *   0, -ENOMEM.
 */
#define RUN_WL_NOTES_NO_TAG UINT32_MAX
int run_wl_notes_create(struct run_wl_notes **np, struct run_wl *w,
			uint32_t tag, uint32_t nics);

/** A participant's notes of the window that ended at window_end_ps (the
 * lockstep's notes_out_fn): none but for the process's last NIC to end
 * it, which sends the process's log. 0 or a negative errno. */
int run_wl_notes_out(struct run_wl_notes *n, uet_time_t window_end_ps,
		     const void **bytes, size_t *len);

/**
 * A window's notes, every process's (the lockstep's notes_in_fn): the
 * first call of a window replays every other process's log and flushes
 * (run_wl_flush(w, wake_q)); later calls of the same window, on the
 * process's other ports, do nothing.
 *
 * @return
 *   0; -EBADMSG (not notes of this program, named on stderr); the
 *   engine's or the flush's error.
 */
int run_wl_notes_in(struct run_wl_notes *n, uet_time_t window_end_ps,
		    const void *bytes, size_t len, struct uet_evq *wake_q);

/** Free; NULL is accepted. */
void run_wl_notes_free(struct run_wl_notes *n);

#endif /* RUN_WORKLOAD_H */
