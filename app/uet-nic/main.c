/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-nic: one or more emulated NICs of a scenario, each on a real port
 * (veth, memif, a physical NIC), in lockstep with uet-switch.
 * See uet_run_cli.h for the command line.
 */
#include "uet_run_cli.h"

int main(int argc, char **argv)
{
	return uet_run_cli_main(argc, argv, UET_RUN_NICS, uet_port_open);
}
