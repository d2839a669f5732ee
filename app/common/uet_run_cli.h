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
 * @param port_open
 *   uet_port_open for uet-switch and uet-nic; NULL for uet-emu, which
 *   opens no real port. Given by the main so that only the programs that
 *   open real ports link the ethdev port code and, through it, the PMDs
 *   (af_packet, af_xdp, memif, pcap, ring) and their libraries: their
 *   loading and constructors were a fifth of a small run's start.
 * @return
 *   The exit status: 0 the run ended with BYE and every message its NICs
 *   sent completed intact (and a program workload's every rank
 *   finished), UET_RUN_EXIT_INCOMPLETE, UET_RUN_EXIT_USAGE.
 */
int uet_run_cli_main(int argc, char **argv, enum uet_run_role role,
		     int (*port_open)(struct uet_port **portp,
				      const char *devargs,
				      const struct uet_port_conf *conf));

/**
 * uet-emu-mpi, before uet_run_cli_main(): the run is spread over @p ranks
 * (uet_sync_ranks.h); a rank above 0 writes its files to @p rank_out, a
 * folder of its own (rank 0 writes the run's into run.out).
 */
void uet_run_cli_set_ranks(const struct uet_sync_ranks *ranks,
			   const char *rank_out);

/** The flag SIGINT and SIGTERM set (the signal's number), for a program
 * whose own waits must end on them too (uet-emu-mpi's collectives). */
const volatile sig_atomic_t *uet_run_cli_stop_flag(void);

#endif /* UET_RUN_CLI_H */
