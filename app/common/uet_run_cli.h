/* SPDX-License-Identifier: BSD-3-Clause */
/* The command line shared by uet-emu, uet-switch and uet-nic. */
#ifndef UET_RUN_CLI_H
#define UET_RUN_CLI_H

#include "uet_run.h"

/** Exit status: messages not completed, or the run stopped on an error. */
#define UET_RUN_EXIT_INCOMPLETE 1
/** Exit status: bad arguments or scenario. */
#define UET_RUN_EXIT_USAGE 2

/**
 * The whole main of uet-emu (UET_RUN_EMBEDDED), uet-switch
 * (UET_RUN_SWITCH) or uet-nic (UET_RUN_NICS):
 *
 *   uet-emu [EAL-ARGS --] [--print-config] [--out DIR] SCENARIO.yaml
 *   PROG [EAL-ARGS --] [--nic A-B] --port DEV ... [--out DIR]
 *        [--timeout-ms N] [--print-config] [--config] SCENARIO.yaml
 *
 * @param argc
 *   As main's.
 * @param argv
 *   As main's.
 * @param role
 *   Which main.
 * @return
 *   The exit status: 0 the run ended with BYE and every message its NICs
 *   sent completed intact (and a program workload's every rank
 *   finished), UET_RUN_EXIT_INCOMPLETE, UET_RUN_EXIT_USAGE.
 */
int uet_run_cli_main(int argc, char **argv, enum uet_run_role role);

#endif /* UET_RUN_CLI_H */
