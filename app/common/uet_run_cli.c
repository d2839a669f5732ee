/* SPDX-License-Identifier: BSD-3-Clause */
/* The command line shared by uet-emu, uet-switch and uet-nic: arguments,
 * the scenario, EAL, signals, the run, the exit status. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>

#include "uet_config.h"
#include "uet_eal_private.h"
#include "uet_port.h"
#include "uet_run_cli.h"
#include "run_huge_pages.h"
#include "run_launch_plan.h"
#include "run_sizing.h"
#include "run_switch_records.h"

/* Whether a private EAL is cleaned up before the exit (above its use). */
#if defined(__SANITIZE_ADDRESS__)
#define RUN_CLI_CLEAN_EAL_AT_EXIT true
#else
#define RUN_CLI_CLEAN_EAL_AT_EXIT false
#endif

/*
 * Set by SIGINT and SIGTERM, read by the poll loop: the one piece of
 * process-wide mutable state, since a signal handler can reach no other.
 */
static volatile sig_atomic_t run_cli_stop;

/* uet-emu-mpi's ranks (uet_run_cli_set_ranks()), or NULL. */
static const struct uet_sync_ranks *run_cli_ranks;
static const char *run_cli_rank_out;

const volatile sig_atomic_t *uet_run_cli_stop_flag(void)
{
	return &run_cli_stop;
}

void uet_run_cli_set_ranks(const struct uet_sync_ranks *ranks,
			   const char *rank_out)
{
	run_cli_ranks = ranks;
	run_cli_rank_out = rank_out;
}

static void on_signal(int sig)
{
	run_cli_stop = sig; /* SIGINT and SIGTERM are not 0 */
}

static const char *role_prog(enum uet_run_role role)
{
	switch (role) {
	case UET_RUN_NICS:
		return "uet-nic";
	case UET_RUN_SWITCH:
		return "uet-switch";
	default:
		return "uet-emu";
	}
}

static void usage(FILE *f, const char *prog, enum uet_run_role role)
{
	if (role == UET_RUN_EMBEDDED) {
		fprintf(f,
			"usage: %s [EAL-ARGS --] [--print-config | "
			"--print-launch-plan]\n"
			"       [--out DIR] SCENARIO.yaml\n"
			"\n"
			"Runs a scenario: the switch and every NIC in this "
			"process,\n"
			"over ring ports, in lockstep virtual time (or "
			"realtime,\n"
			"as run.clock says). Records and captures go to the\n"
			"scenario's run.out folder.\n"
			"\n",
			prog);
	} else {
		fprintf(f,
			"usage: %s [EAL-ARGS --] %s--port DEV ... [--out "
			"DIR]\n"
			"       [--timeout-ms N] [--startup-ms N] [--start-at "
			"NS]\n"
			"       [--linger-ms N] [--print-config] [--config] "
			"SCENARIO.yaml\n"
			"\n"
			"%s"
			"  --port DEV      a port's device string "
			"(docs/ports.md), %s\n"
			"  --timeout-ms N  wall-clock bound on any wait for a "
			"peer\n"
			"                  (default 10000)\n"
			"  --startup-ms N  wall-clock bound on the handshake "
			"with\n"
			"                  peers still starting (default "
			"60000)\n"
			"  --start-at NS   realtime: the wall time (ns since "
			"1970,\n"
			"                  CLOCK_REALTIME) at which virtual "
			"time is 0,\n"
			"                  the same for every process of the "
			"run\n"
			"                  (default: when the ports are open)\n"
			"  --linger-ms N   realtime, uet-nic: keep serving the "
			"links\n"
			"                  N ms once the NICs' messages are "
			"done\n"
			"                  (default 1000)\n"
			"  --lcores N      uet-switch: run the fabric's parts "
			"on N\n"
			"                  lcores, whatever run.lcores says "
			"(1..64)\n",
			prog, role == UET_RUN_NICS ? "--nic A-B " : "",
			role == UET_RUN_NICS
				? "Runs NICs A..B of the scenario with "
				  "uet-switch, in lockstep or realtime "
				  "(run.clock).\n\n"
				  "  --nic A-B       the hosts to run (or "
				  "one: N)\n"
				: "Runs the scenario's switch with the uet-nic "
				  "processes, in lockstep or realtime "
				  "(run.clock);\n"
				  "in realtime it stops at run.end, on SIGINT "
				  "or SIGTERM, or after --timeout-ms with no "
				  "frame.\n\n",
			role == UET_RUN_NICS ? "one per NIC, in order"
					     : "one per host, in order");
	}
	fprintf(f,
		"  --out DIR       records and captures to DIR instead of\n"
		"                  the scenario's run.out\n"
		"  --print-config  print every effective attribute and exit\n"
		"%s"
		"  -h, --help      this text\n"
		"  --version       the version, and exit\n"
		"\n"
		"SIGINT or SIGTERM stops the run; the records are written.\n"
		"Exit status: 0 every message completed intact; 1 the run\n"
		"ended with messages not completed, or stopped, or a record\n"
		"could not be written; 2 bad arguments or scenario.\n"
		"\n"
		"Without EAL arguments: --no-huge -m 512 --no-pci "
		"--no-shconf\n"
		"--lcores=0@(every CPU it may use) --log-level=*:warning "
		"--no-telemetry "
		"--file-prefix=%s-<pid>\n",
		role == UET_RUN_EMBEDDED
			? "  --print-launch-plan  print what "
			  "scripts/uet-launch "
			  "needs,\n"
			  "                  key=value lines, and exit\n"
			: "",
		prog);
}

struct cli {
	const char *path;
	const char *out;
	const char **ports;
	uint32_t n_ports;
	uint32_t nic_first, nic_count;
	bool have_nic;
	bool print_config;
	bool print_launch_plan; /* uet-emu only */
	unsigned long timeout_ms;
	unsigned long startup_ms;
	unsigned long linger_ms;
	unsigned long long start_at_ns; /* CLOCK_REALTIME, 0: none */
	unsigned long lcores;		/* uet-switch's --lcores, 0: none */
};

/* A positive number of ms that fits in 32 bits. */
static int parse_ms(const char *s, unsigned long *ms)
{
	char *end;

	errno = 0;
	*ms = strtoul(s, &end, 10);
	if (end == s || *end != '\0' || errno != 0 || *ms == 0 ||
	    *ms > UINT32_MAX)
		return -EINVAL;
	return 0;
}

static int parse(struct cli *c, int first, int argc, char **argv,
		 const char *prog, enum uet_run_role role)
{
	int i;

	for (i = first; i < argc; i++) {
		const char *a = argv[i];
		bool has_val = i + 1 < argc;

		if (strcmp(a, "--version") == 0) {
			printf("%s %s\n", prog, UET_VERSION);
			exit(0);
		} else if (role == UET_RUN_EMBEDDED &&
			   strcmp(a, "--out") != 0 &&
			   strcmp(a, "--print-config") != 0 &&
			   strcmp(a, "--print-launch-plan") != 0 &&
			   a[0] == '-' && strcmp(a, "-h") != 0 &&
			   strcmp(a, "--help") != 0) {
			fprintf(stderr, "%s: unexpected argument '%s'\n", prog,
				a);
			return -EINVAL;
		} else if (strcmp(a, "--port") == 0 && has_val) {
			c->ports[c->n_ports++] = argv[++i];
		} else if (strcmp(a, "--out") == 0 && has_val) {
			c->out = argv[++i];
		} else if (strcmp(a, "--print-config") == 0) {
			c->print_config = true;
		} else if (strcmp(a, "--print-launch-plan") == 0 &&
			   role == UET_RUN_EMBEDDED) {
			c->print_launch_plan = true;
		} else if (strcmp(a, "--config") == 0 && has_val) {
			c->path = argv[++i];
		} else if (strcmp(a, "--timeout-ms") == 0 && has_val) {
			if (parse_ms(argv[++i], &c->timeout_ms) < 0) {
				fprintf(stderr, "%s: bad --timeout-ms\n", prog);
				return -EINVAL;
			}
		} else if (strcmp(a, "--startup-ms") == 0 && has_val) {
			if (parse_ms(argv[++i], &c->startup_ms) < 0) {
				fprintf(stderr, "%s: bad --startup-ms\n", prog);
				return -EINVAL;
			}
		} else if (strcmp(a, "--linger-ms") == 0 && has_val) {
			if (parse_ms(argv[++i], &c->linger_ms) < 0) {
				fprintf(stderr, "%s: bad --linger-ms\n", prog);
				return -EINVAL;
			}
		} else if (strcmp(a, "--start-at") == 0 && has_val) {
			char *end;

			errno = 0;
			c->start_at_ns = strtoull(argv[++i], &end, 10);
			if (end == argv[i] || *end != '\0' || errno != 0 ||
			    c->start_at_ns == 0) {
				fprintf(stderr, "%s: bad --start-at '%s'\n",
					prog, argv[i]);
				return -EINVAL;
			}
		} else if (strcmp(a, "--lcores") == 0 && has_val &&
			   role == UET_RUN_SWITCH) {
			char *end;

			errno = 0;
			c->lcores = strtoul(argv[++i], &end, 10);
			if (end == argv[i] || *end != '\0' || errno != 0 ||
			    c->lcores == 0 ||
			    c->lcores > UET_CONFIG_LCORES_MAX) {
				fprintf(stderr,
					"%s: --lcores = '%s': must be between "
					"1 and %u\n",
					prog, argv[i], UET_CONFIG_LCORES_MAX);
				return -EINVAL;
			}
		} else if (strcmp(a, "--nic") == 0 && has_val &&
			   role == UET_RUN_NICS) {
			if (uet_run_parse_range(argv[++i], &c->nic_first,
						&c->nic_count) < 0) {
				fprintf(stderr, "%s: bad --nic '%s'\n", prog,
					argv[i]);
				return -EINVAL;
			}
			c->have_nic = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage(stdout, prog, role);
			exit(0);
		} else if (a[0] == '-' || c->path != NULL) {
			fprintf(stderr, "%s: unexpected argument '%s'\n", prog,
				a);
			return -EINVAL;
		} else {
			c->path = a;
		}
	}
	if (c->path == NULL ||
	    (role == UET_RUN_NICS && !c->have_nic && !c->print_config))
		return -EINVAL;
	return 0;
}

/* The scenario, checked against the ports given. */
static int load(struct uet_scenario *sc, uint64_t *hash, const struct cli *c,
		const char *prog, enum uet_run_role role)
{
	struct uet_config_error err;
	uint32_t want;

	if (uet_scenario_load_file(sc, c->path, &err) < 0) {
		fprintf(stderr, "%s\n", err.message);
		return -EINVAL;
	}
	if (uet_scenario_hash(sc, hash) < 0) {
		fprintf(stderr, "%s: cannot hash the scenario\n", prog);
		goto fail;
	}
	if (c->out != NULL) {
		if (strlen(c->out) >= sizeof(sc->run.out)) {
			fprintf(stderr,
				"%s: --out = '%s': longer than %zu bytes\n",
				prog, c->out, sizeof(sc->run.out) - 1);
			goto fail;
		}
		snprintf(sc->run.out, sizeof(sc->run.out), "%s", c->out);
	}
	/* Over ranks, rank 0 writes the run's files; the others' go to a
	 * folder of their own (their captures go to rank 0's files:
	 * run_clock_mpi.c). */
	if (run_cli_ranks != NULL && run_cli_ranks->rank > 0 &&
	    run_cli_rank_out != NULL)
		snprintf(sc->run.out, sizeof(sc->run.out), "%s",
			 run_cli_rank_out);
	/* After the hash: the processes of a run share the scenario, and the
	 * switch's lcores change nothing in its results. */
	if (c->lcores != 0)
		sc->run.lcores = (uint32_t)c->lcores;
	if (c->start_at_ns != 0 && sc->run.clock != UET_CLOCK_REALTIME) {
		fprintf(stderr,
			"%s: --start-at applies only with run.clock "
			"realtime\n",
			prog);
		goto fail;
	}
	/* Names of links and ports are checked against the fabric's shape
	 * here, with the scenario, not once the fabric is built: by then
	 * run.out is open, and a refused scenario would have replaced the
	 * last run's records. */
	if (run_swrec_check_names(sc, prog) < 0)
		goto fail;
	if (c->print_config || c->print_launch_plan)
		return 0;
	if (role == UET_RUN_EMBEDDED && sc->sw.external_hosts[0] != '\0') {
		fprintf(stderr,
			"%s: switch.external_hosts: uet-emu has no port to "
			"an external endpoint; run uet-switch and uet-nic "
			"(scripts/uet-launch)\n",
			c->path);
		goto fail;
	}
	want = role == UET_RUN_NICS	? c->nic_count
	       : role == UET_RUN_SWITCH ? sc->topology.hosts
					: 0;
	if (c->n_ports != want) {
		fprintf(stderr, "%s: %u --port given, %u needed (%s)\n", prog,
			c->n_ports, want,
			role == UET_RUN_NICS ? "one per NIC"
					     : "one per host of the scenario");
		goto fail;
	}
	return 0;
fail:
	uet_scenario_free(sc);
	return -EINVAL;
}

/*
 * uet-emu --print-launch-plan: the plan of the embedded run's sizing (its
 * largest window). @return the exit status.
 */
static int print_launch_plan(const struct uet_scenario *sc, const char *prog)
{
	struct run_sizing sizing;
	int rc;

	rc = run_size(sc, UET_RUN_EMBEDDED, 0, sc->topology.hosts, prog,
		      &sizing);
	if (rc == 0)
		rc = run_launch_plan_print(sc, &sizing, prog, stdout);
	if (rc == -ENOMEM)
		return UET_RUN_EXIT_INCOMPLETE;
	return rc < 0 ? UET_RUN_EXIT_USAGE : 0;
}

/* A CLOCK_REALTIME instant as CLOCK_MONOTONIC ns (the run's clocks are
 * monotonic; the processes agree on wall time to a few us). */
static uint64_t realtime_to_monotonic_ns(unsigned long long at_ns)
{
	struct timespec r, m;
	uint64_t r_ns, m_ns;

	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	r_ns = (uint64_t)r.tv_sec * UINT64_C(1000000000) + (uint64_t)r.tv_nsec;
	m_ns = (uint64_t)m.tv_sec * UINT64_C(1000000000) + (uint64_t)m.tv_nsec;
	if (at_ns >= r_ns)
		return m_ns + (at_ns - r_ns);
	/* In the past: as far back on the monotonic clock, not before 1. */
	return r_ns - at_ns < m_ns ? m_ns - (r_ns - at_ns) : 1;
}

/*
 * Why the run has its lcores, when run.lcores did not say: "2 CPUs
 * usable, 1 busy with other processes: 1 lcore" (and the NICs, when
 * fewer than the free CPUs). Empty for run.lcores and a realtime
 * uet-switch.
 */
static void lcores_why(const struct uet_scenario *sc, enum uet_run_role role,
		       const struct run_sizing *sizing, uint32_t nics,
		       char *buf, size_t len)
{
	const struct run_lcores_choice *c = &sizing->lcores_choice;
	size_t n;

	buf[0] = '\0';
	if (sc->run.lcores != 0 || len == 0 ||
	    (role == UET_RUN_SWITCH && sc->run.clock == UET_CLOCK_REALTIME))
		return;
	run_lcores_why(c, buf, len);
	n = strlen(buf);
	if (sizing->small_fabric && n < len)
		n += (size_t)snprintf(buf + n, len - n,
				      ", %u hosts (a small fabric)",
				      sc->topology.hosts);
	else if (sizing->lcores < c->lcores && n < len)
		n += (size_t)snprintf(
			buf + n, len - n,
			sizing->lcores == nics ? ", %u NIC%s"
					       : ", at most %u%s",
			sizing->lcores,
			sizing->lcores == 1 || sizing->lcores != nics ? ""
								      : "s");
	if (n < len)
		snprintf(buf + n, len - n, ": %u lcore%s", sizing->lcores,
			 sizing->lcores == 1 ? "" : "s");
}

int uet_run_cli_main(int argc, char **argv, enum uet_run_role role,
		     int (*port_open)(struct uet_port **portp,
				      const char *devargs,
				      const struct uet_port_conf *conf))
{
	/* Over ranks the program is uet-emu-mpi, whose messages say so. */
	const char *prog =
		run_cli_ranks != NULL ? "uet-emu-mpi" : role_prog(role);
	struct uet_run_conf conf = {.prog = prog, .role = role};
	struct timespec launch;
	struct cli c = {.timeout_ms = 0};
	struct uet_run_result res;
	struct run_sizing sizing;
	struct uet_scenario sc;
	struct sigaction sa;
	char why[160];
	int app_first = 1, eal_argc = 0;
	int i, rc;

	/* Set-up is timed from here: the EAL, the pool, the models. */
	clock_gettime(CLOCK_MONOTONIC, &launch);
	/* The run queue before the scenario loads (run_lcores.h). */
	run_lcores_sample_early();
	conf.launch_ns = (uint64_t)launch.tv_sec * 1000000000u +
			 (uint64_t)launch.tv_nsec;
	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			eal_argc = i;
			app_first = i + 1;
			break;
		}
	c.ports = calloc((size_t)argc, sizeof(*c.ports));
	if (c.ports == NULL)
		return UET_RUN_EXIT_INCOMPLETE;
	if (parse(&c, app_first, argc, argv, prog, role) < 0) {
		usage(stderr, prog, role);
		free(c.ports);
		return UET_RUN_EXIT_USAGE;
	}
	if (load(&sc, &conf.scenario_hash, &c, prog, role) < 0) {
		free(c.ports);
		return UET_RUN_EXIT_USAGE;
	}
	if (c.print_launch_plan) {
		rc = print_launch_plan(&sc, prog);
		uet_scenario_free(&sc);
		free(c.ports);
		return rc;
	}
	if (c.print_config) {
		int sized = -EINVAL;

		rc = uet_scenario_print_config(&sc, stdout);
		if (rc == 0)
			sized = run_size(&sc, role,
					 role == UET_RUN_NICS ? c.nic_first : 0,
					 role == UET_RUN_NICS ? c.nic_count
					 : role == UET_RUN_EMBEDDED
						 ? sc.topology.hosts
						 : 0,
					 prog, &sizing);
		if (sized == 0) {
			lcores_why(&sc, role, &sizing,
				   role == UET_RUN_NICS ? c.nic_count
							: sc.topology.hosts,
				   why, sizeof(why));
			printf("# sizing (%s): %u lcores; %u mbufs of %u data "
			       "bytes (%" PRIu64 " MiB at most)%s: %" PRIu64
			       " windows at once x %" PRIu64
			       " frames, or the buffers on the way; EAL -m "
			       "%u; expected peak about %" PRIu64
			       " MiB (models %" PRIu64 " MiB, %" PRIu64
			       " messages %" PRIu64 " MiB, %" PRIu64
			       " frames in flight %" PRIu64 " MiB)%s%s\n",
			       prog, sizing.lcores, sizing.mbufs,
			       sizing.mbuf_data_bytes, sizing.pool_bytes >> 20,
			       sizing.derived ? ", derived" : " (run.mbufs)",
			       sizing.groups, sizing.window_frames,
			       sizing.eal_mem_mb, sizing.expected_bytes >> 20,
			       sizing.model_bytes >> 20, sizing.messages,
			       sizing.messages_bytes >> 20,
			       sizing.expected_frames,
			       sizing.frames_bytes >> 20,
			       why[0] != '\0' ? "; " : "", why);
		}
		uet_scenario_free(&sc);
		free(c.ports);
		/* What the run would refuse (a workload that does not load,
		 * more memory than the machine has) fails here alike. */
		if (rc == 0 && sized < 0)
			return sized == -ENOMEM ? UET_RUN_EXIT_INCOMPLETE
						: UET_RUN_EXIT_USAGE;
		return rc < 0 ? UET_RUN_EXIT_INCOMPLETE : 0;
	}
	/* The pool, EAL's memory and the lcores follow from the scenario. */
	rc = run_size(&sc, role, role == UET_RUN_NICS ? c.nic_first : 0,
		      role == UET_RUN_NICS	 ? c.nic_count
		      : role == UET_RUN_EMBEDDED ? sc.topology.hosts
						 : 0,
		      prog, &sizing);
	if (rc < 0) {
		uet_scenario_free(&sc);
		free(c.ports);
		return rc == -ENOMEM ? UET_RUN_EXIT_INCOMPLETE
				     : UET_RUN_EXIT_USAGE;
	}
	/* Before EAL and any output: a large run may start again here. Not
	 * a rank of uet-emu-mpi: MPI is up, and an exec would leave it. */
	if (role == UET_RUN_EMBEDDED && run_cli_ranks == NULL)
		(void)run_huge_pages_exec(&sizing, argv, prog);
	if (eal_argc > 1) {
		uet_eal_tidy_at_exit();
		rc = rte_eal_init(eal_argc, argv) < 0 ? -rte_errno : 0;
	} else {
		char prefix[64];

		snprintf(prefix, sizeof(prefix), "%s-%d", prog, (int)getpid());
		/* The embedded run shares nothing with another process: no
		 * runtime folder, private memory (uet_eal_private.h). */
		uet_eal_private_set(role == UET_RUN_EMBEDDED);
		rc = uet_eal_init_sized(prefix, sizing.lcores,
					sizing.eal_mem_mb);
	}
	if (rc < 0) {
		fprintf(stderr, "%s: EAL initialisation failed: %s\n", prog,
			strerror(-rc));
		uet_scenario_free(&sc);
		free(c.ports);
		return UET_RUN_EXIT_INCOMPLETE;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	lcores_why(&sc, role, &sizing,
		   role == UET_RUN_NICS ? c.nic_count : sc.topology.hosts, why,
		   sizeof(why));
	conf.sc = &sc;
	conf.lcores_why = why[0] != '\0' ? why : NULL;
	conf.mbufs = sizing.mbufs;
	conf.mbuf_data_bytes = sizing.mbuf_data_bytes;
	conf.payload_mbufs = sizing.payload_mbufs;
	conf.mbufs_derived = sizing.derived;
	conf.nic_first = c.nic_first;
	conf.nic_count = c.nic_count;
	conf.port_devargs = c.ports;
	conf.port_open = port_open;
	conf.timeout_ms = (uint32_t)c.timeout_ms;
	conf.startup_timeout_ms = (uint32_t)c.startup_ms;
	conf.stop = &run_cli_stop;
	conf.ranks = run_cli_ranks;
	conf.process_exits = true;
	conf.rt_linger_ms = (uint32_t)c.linger_ms;
	if (c.start_at_ns != 0)
		conf.rt_epoch_ns = realtime_to_monotonic_ns(c.start_at_ns);
	rc = uet_run(&conf, &res);
	if (rc == -EINTR && run_cli_stop != 0) {
		char vt[UET_UNITS_FMT_LEN];

		uet_time_format(res.virtual_ps, vt, sizeof(vt));
		fprintf(stderr,
			"%s: interrupted by %s at %s of virtual time: the "
			"records in %s hold the run so far\n",
			prog, run_cli_stop == SIGINT ? "SIGINT" : "SIGTERM", vt,
			sc.run.out);
	}
	uet_scenario_free(&sc);
	free(c.ports);
	/*
	 * Only the embedded run (ring ports) cleans EAL up. With real ports
	 * DPDK 22.11 unmaps its heap there while the interrupt thread may
	 * still be serving a memif socket (the peer closing its side as it
	 * exits), which crashed in rte_intr_fd_get() or printed "EAL: Error:
	 * Invalid memory". The ports are closed and the records written; the
	 * kernel reclaims the rest at exit, with every thread gone at once.
	 * An EAL private to the process (uet_eal_private.h) leaves nothing
	 * outside it either: the exit reclaims what rte_eal_cleanup() would
	 * unmap, without its walk of every memory segment (0.5 ms of a
	 * 16-host run's CPU). A build with AddressSanitizer cleans up still.
	 */
	if (role == UET_RUN_EMBEDDED &&
	    (!uet_eal_private() || RUN_CLI_CLEAN_EAL_AT_EXIT))
		rte_eal_cleanup();
	if (rc < 0 || res.completed != res.messages ||
	    res.expected_arrived != res.expected || !uet_run_intact(&res) ||
	    (res.workload && !res.workload_done))
		return UET_RUN_EXIT_INCOMPLETE;
	return 0;
}
