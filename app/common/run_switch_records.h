/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch side of a run's outputs: the scenario's link failures handed
 * to the fabric, switch-stats.csv at the end of the run and the optional
 * switch-occupancy.csv time series (docs/records.md).
 */
#ifndef RUN_SWITCH_RECORDS_H
#define RUN_SWITCH_RECORDS_H

#include <stdint.h>

#include "uet_config.h"
#include "uet_fabric.h"

struct run_swrec;

/**
 * The names the scenario gives the fabric (topology.failures[].link,
 * switch.occupancy_ports), checked against its shape before anything is
 * built or opened: a scenario they refuse leaves run.out as it was.
 *
 * @return
 *   0, or -EINVAL after a message on stderr naming the entry, its value
 *   and how this fabric's links are named.
 */
int run_swrec_check_names(const struct uet_scenario *sc, const char *prog);

/**
 * Schedule topology.failures in the fabric, each link found by name.
 *
 * @return
 *   0, or a negative errno after a message on stderr naming the entry,
 *   its value and how this fabric's links are named.
 */
int run_swrec_failures(struct uet_fabric *fab, const struct uet_scenario *sc,
		       const char *prog);

/**
 * Open the switch records of a run (in run.out, which exists): the
 * occupancy series when switch.occupancy_ports names ports, and remember
 * whether switch-stats.csv is wanted.
 *
 * @param rp
 *   Set to the writer (NULL when neither record is wanted).
 * @return
 *   0, or a negative errno after a message on stderr.
 */
int run_swrec_open(struct run_swrec **rp, struct uet_fabric *fab,
		   const struct uet_scenario *sc, const char *prog);

/**
 * At the end of the run: the occupancy samples due until end_ps, and
 * switch-stats.csv as of end_ps. NULL is accepted.
 *
 * @return
 *   0, or -EIO.
 */
int run_swrec_finish(struct run_swrec *r, uet_time_t end_ps);

/** Close and free; NULL is accepted. */
void run_swrec_free(struct run_swrec *r);

/**
 * Frames lost to downed links at every port of the fabric.
 */
uint64_t run_swrec_down_drops(const struct uet_fabric *fab);

#endif /* RUN_SWITCH_RECORDS_H */
