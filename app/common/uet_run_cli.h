/* SPDX-License-Identifier: BSD-3-Clause */
/* The command line shared by uet-switch and uet-nic. */
#ifndef UET_RUN_CLI_H
#define UET_RUN_CLI_H

#include "uet_run.h"

/** Exit status: messages not completed, or the run stopped on an error. */
#define UET_RUN_EXIT_INCOMPLETE 1
/** Exit status: bad arguments or scenario. */
#define UET_RUN_EXIT_USAGE 2

/**
 * The whole main of uet-switch (UET_RUN_SWITCH) or uet-nic
 * (UET_RUN_NICS):
 *
 *   PROG [EAL-ARGS --] [--nic A-B] --port DEV ... [--out DIR]
 *        [--timeout-ms N] [--config] SCENARIO.yaml
 *
 * @param argc
 *   As main's.
 * @param argv
 *   As main's.
 * @param role
 *   UET_RUN_SWITCH or UET_RUN_NICS.
 * @return
 *   The exit status: 0 the run ended with BYE (uet-nic: and every message
 *   its NICs sent completed intact), UET_RUN_EXIT_INCOMPLETE,
 *   UET_RUN_EXIT_USAGE.
 */
int uet_run_cli_main(int argc, char **argv, enum uet_run_role role);

#endif /* UET_RUN_CLI_H */
