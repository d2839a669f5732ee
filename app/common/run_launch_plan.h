/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What scripts/uet-launch needs to know of a scenario, as the C code
 * derives it (uet-emu --print-launch-plan): the hosts, the clock, the
 * records' folder, the external hosts, whether the workload runs only
 * embedded, and the frames a link carries in one window, which size the
 * ports' rings. One key=value a line, so that the launcher reads it
 * without parsing YAML, units or addresses.
 */
#ifndef RUN_LAUNCH_PLAN_H
#define RUN_LAUNCH_PLAN_H

#include <stdio.h>

#include "uet_config.h"
#include "run_sizing.h"

/**
 * Print the launch plan of a loaded scenario.
 *
 * @param sc
 *   The scenario (run.out already set from --out).
 * @param sizing
 *   The embedded run's sizing (its largest window's frames).
 * @param prog
 *   Prefix of an error message.
 * @param f
 *   Where to print.
 * @return
 *   0, or -EINVAL (a message printed) when a value cannot be one line.
 */
int run_launch_plan_print(const struct uet_scenario *sc,
			  const struct run_sizing *sizing, const char *prog,
			  FILE *f);

#endif /* RUN_LAUNCH_PLAN_H */
