/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-emu: the embedded default. The switch and every NIC of a scenario in
 * one process, joined by ring ports, in lockstep (or realtime, as
 * run.clock says).
 *
 *   uet-emu [EAL-ARGS --] [--print-config] SCENARIO.yaml
 *
 * Exit status: 0 every message completed (and, with a program workload,
 * workload.chakra, matrix or generate, every rank's graph); 1 the run
 * ended with messages not completed, or stopped on an error; 2 bad
 * arguments or scenario.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "uet_run.h"
#include "uet_config.h"
#include "uet_port.h"

#define EMU_EXIT_INCOMPLETE 1
#define EMU_EXIT_USAGE 2

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uet-emu [EAL-ARGS --] [--print-config] SCENARIO.yaml\n"
		"\n"
		"Runs a scenario: the switch and every NIC in this process,\n"
		"over ring ports, in lockstep virtual time (or realtime,\n"
		"as run.clock says). Records and\n"
		"captures go to the scenario's run.out folder.\n"
		"\n"
		"  --print-config  print every effective attribute and exit\n"
		"  --out DIR       write records and captures to DIR instead\n"
		"                  of the scenario's run.out\n"
		"  -h, --help      this text\n"
		"\n"
		"Without EAL arguments: --no-huge -m 512 --no-pci --no-shconf\n"
		"--lcores=0@(every CPU it may use) --log-level=*:warning\n"
		"--no-telemetry\n"
		"--file-prefix=uet-emu-<pid>\n");
}

/* EAL with the user's arguments, or the project's defaults (no hugepages,
 * one lcore, a file prefix of our own). */
static int eal_init(int argc, char **argv, bool user)
{
	char prefix[64];

	if (user)
		return rte_eal_init(argc, argv) < 0 ? -rte_errno : 0;
	snprintf(prefix, sizeof(prefix), "uet-emu-%d", (int)getpid());
	return uet_eal_init_default(prefix);
}

int main(int argc, char **argv)
{
	struct uet_config_error err;
	struct uet_scenario sc;
	struct uet_run_result res;
	struct uet_run_conf conf = {.prog = "uet-emu",
				    .role = UET_RUN_EMBEDDED};
	const char *path = NULL;
	bool print_config = false;
	const char *out_dir = NULL;
	int app_first = 1, eal_argc = 0;
	int i, rc;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			eal_argc = i;
			app_first = i + 1;
			break;
		}
	for (i = app_first; i < argc; i++) {
		if (strcmp(argv[i], "--print-config") == 0) {
			print_config = true;
		} else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
			out_dir = argv[++i];
		} else if (strcmp(argv[i], "-h") == 0 ||
			   strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' || path != NULL) {
			fprintf(stderr, "uet-emu: unexpected argument '%s'\n",
				argv[i]);
			usage(stderr);
			return EMU_EXIT_USAGE;
		} else {
			path = argv[i];
		}
	}
	if (path == NULL) {
		usage(stderr);
		return EMU_EXIT_USAGE;
	}
	if (uet_scenario_load_file(&sc, path, &err) < 0) {
		fprintf(stderr, "%s\n", err.message);
		return EMU_EXIT_USAGE;
	}
	if (out_dir != NULL) {
		if (strlen(out_dir) >= sizeof(sc.run.out)) {
			fprintf(stderr,
				"uet-emu: --out = '%s': longer than %zu "
				"bytes\n",
				out_dir, sizeof(sc.run.out) - 1);
			uet_scenario_free(&sc);
			return EMU_EXIT_USAGE;
		}
		snprintf(sc.run.out, sizeof(sc.run.out), "%s", out_dir);
	}
	if (print_config) {
		rc = uet_scenario_print_config(&sc, stdout);
		uet_scenario_free(&sc);
		return rc < 0 ? EMU_EXIT_INCOMPLETE : 0;
	}
	if (sc.sw.external_hosts[0] != '\0') {
		fprintf(stderr,
			"%s: switch.external_hosts: uet-emu has no port to "
			"an external endpoint; run uet-switch and uet-nic "
			"(scripts/uet-launch)\n",
			path);
		uet_scenario_free(&sc);
		return EMU_EXIT_USAGE;
	}
	/* "uet-emu -- s.yaml": no EAL arguments, so the defaults. */
	rc = eal_init(eal_argc, argv, eal_argc > 1);
	if (rc < 0) {
		fprintf(stderr, "uet-emu: EAL initialisation failed: %s\n",
			strerror(-rc));
		uet_scenario_free(&sc);
		return EMU_EXIT_INCOMPLETE;
	}
	conf.sc = &sc;
	rc = uet_run(&conf, &res);
	uet_scenario_free(&sc);
	rte_eal_cleanup();
	if (rc < 0 || res.completed != res.messages || !uet_run_intact(&res) ||
	    (res.workload && !res.workload_done))
		return EMU_EXIT_INCOMPLETE;
	return 0;
}
