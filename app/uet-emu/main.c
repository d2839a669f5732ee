/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-emu: the embedded default. The switch and every NIC of a scenario in
 * one process, joined by ring ports, in lockstep (or realtime, as
 * run.clock says). See uet_run_cli.h for the command line and the exit
 * status.
 */
#include "uet_run_cli.h"

int main(int argc, char **argv)
{
	return uet_run_cli_main(argc, argv, UET_RUN_EMBEDDED, NULL);
}
