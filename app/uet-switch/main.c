/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-switch: the switch of a scenario on real ports (veth, memif, physical
 * NICs), one per host, coordinating the uet-nic processes in lockstep.
 * See uet_run_cli.h for the command line.
 */
#include "uet_run_cli.h"

int main(int argc, char **argv)
{
	return uet_run_cli_main(argc, argv, UET_RUN_SWITCH, uet_port_open);
}
