/* SPDX-License-Identifier: BSD-3-Clause */
/* uet-emu's workload driver: a Chakra program run by lib/workload's engine
 * on the NICs of an embedded run. */
#ifndef RUN_WORKLOAD_H
#define RUN_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "uet_config.h"
#include "uet_ses.h"

struct uet_nic;
struct uet_record;
struct run_wl;

/**
 * Load the scenario's workload program (workload.chakra) with its
 * algorithms and reduce_chunk.
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
 * @return
 *   0, or the first post error (printed).
 */
int run_wl_start(struct run_wl *w, struct uet_nic *const *nics);

/**
 * Forward a NIC completion: SENT from the source NIC, ARRIVED from the
 * destination NIC; others are ignored. A failure is kept for
 * run_wl_error().
 */
void run_wl_completion(struct run_wl *w, const struct uet_ses_completion *c);

/** 0, or the first error of the engine (a run should stop on it). */
int run_wl_error(const struct run_wl *w);

/** Whether every rank's graph has finished. */
bool run_wl_done(const struct run_wl *w);

/** Print each rank's completion time (or what it still waits for). */
void run_wl_summary(const struct run_wl *w, FILE *f);

/**
 * Write workload.csv: each rank's trace (begin 0, end its last node) and
 * each of its collectives (begin ready, end finished); unfinished ends are
 * empty cells.
 *
 * @return
 *   0 or the record's error.
 */
int run_wl_write_record(const struct run_wl *w, struct uet_record *rec);

/** Free the driver; NULL is accepted. */
void run_wl_free(struct run_wl *w);

#endif /* RUN_WORKLOAD_H */
