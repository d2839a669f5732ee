/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The wiring shared by uet-emu, uet-switch and uet-nic: from a loaded
 * scenario to a finished run of the roles this process hosts. uet_run()
 * is the sequence of a run; each step lives in the file run_private.h
 * names for it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_errno.h>
#include <rte_mempool.h>

#include "uet_port.h"
#include "run_clock.h"
#include "run_private.h"
#include "run_realtime.h"
#include "run_sizing.h"
#include "run_switch_records.h"
#include "run_workload.h"

uint64_t run_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
	       (uint64_t)ts.tv_nsec;
}

int uet_run_parse_range(const char *s, uint32_t *first, uint32_t *count)
{
	unsigned long a, b;
	char *end;

	errno = 0;
	a = strtoul(s, &end, 10);
	if (end == s || errno != 0 || a > UINT32_MAX)
		return -EINVAL;
	b = a;
	if (*end == '-') {
		const char *t = end + 1;

		b = strtoul(t, &end, 10);
		if (end == t || errno != 0 || b > UINT32_MAX || b < a)
			return -EINVAL;
	}
	if (*end != '\0')
		return -EINVAL;
	*first = (uint32_t)a;
	*count = (uint32_t)(b - a + 1);
	return 0;
}

/* The mbuf pool every hosted role takes frames from, sized from the
 * scenario (run_sizing.c) unless the caller did. */
static int run_open_pool(struct run *run)
{
	const struct uet_run_conf *conf = run->conf;
	struct run_sizing sizing;
	int rc;

	if (conf->mbufs != 0) {
		sizing.mbufs = conf->mbufs;
		sizing.mbuf_data_bytes = conf->mbuf_data_bytes;
		sizing.payload_mbufs = conf->payload_mbufs;
		sizing.derived = conf->mbufs_derived;
	} else {
		rc = run_size(run->sc, conf->role, run->first, run->count,
			      run->prog, &sizing);
		if (rc < 0)
			return rc;
	}
	run->pool_mbufs = sizing.mbufs;
	run->pool_derived = sizing.derived;
	/* Embedded, no frame reaches a device: the pools' memory is the
	 * process's, not EAL's (uet_port_pool.c). */
	run->mp = conf->role == UET_RUN_EMBEDDED
			  ? uet_port_pool_create_local(RUN_POOL_NAME,
						       sizing.mbufs,
						       sizing.mbuf_data_bytes)
			  : uet_port_pool_create_growing(
				    RUN_POOL_NAME, sizing.mbufs,
				    sizing.mbuf_data_bytes, SOCKET_ID_ANY);
	if (run->mp == NULL) {
		fprintf(stderr,
			"%s: cannot make the mbuf pool %s of %u mbufs (%s): "
			"%s; set run.mbufs lower or give EAL more memory "
			"(-m)\n",
			run->prog, RUN_POOL_NAME, sizing.mbufs,
			sizing.derived ? "derived from the scenario"
				       : "run.mbufs",
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	if (sizing.payload_mbufs == 0)
		return 0;
	run->payload_mp = uet_port_pool_create_attach(RUN_PAYLOAD_POOL_NAME,
						      sizing.payload_mbufs);
	if (run->payload_mp == NULL) {
		fprintf(stderr,
			"%s: cannot make the payload mbuf pool %s of %u mbufs: "
			"%s; give EAL more memory (-m)\n",
			run->prog, RUN_PAYLOAD_POOL_NAME, sizing.payload_mbufs,
			rte_strerror(rte_errno));
		return -ENOMEM;
	}
	return 0;
}

/*
 * The summary's lines go to stderr in one write: stderr is unbuffered, so
 * each line was a write(2) of its own, 52 of them for a 16-host run (an
 * uplink a line), each a wake-up of the reader at the other end of a
 * pipe. Printed as they are made when no memory stream can be had.
 */
static void run_say_summary(const struct run *run,
			    const struct uet_run_result *res)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (f == NULL)
		f = stderr;
	/* Over ranks every rank has the run's totals; rank 0 says them. */
	if (run->conf->ranks == NULL || run->conf->ranks->rank == 0)
		run_summary(run, res, f);
	run_rt_summary(run->rt, f);
	if (f == stderr)
		return;
	if (fclose(f) == 0 && len > 0)
		fwrite(text, 1, len, stderr);
	free(text);
}

/* What the run leaves once it is over: records, summary. Returns -EIO
 * when a record could not be written. */
static int run_finish(struct run *run, int rc, struct uet_run_result *res)
{
	int out = 0;

	res->sync_err = rc;
	/* Only a run the signal cut short: a realtime run ends on it. */
	res->interrupted_by = rc == -EINTR && run->conf->stop != NULL
				      ? (int)*run->conf->stop
				      : 0;
	run_clock_report(run, rc, res);
	if (rc < 0 && rc != -EINTR)
		run_report_port_links(run);
	res->completed = run->completed;
	res->expected_arrived = run_expected_arrived(run);
	res->workload_done = run->wl != NULL && run_wl_done(run->wl);
	if (run->wl != NULL && run_wl_write_record(run->wl, run->rec) < 0) {
		fprintf(stderr, "%s: writing workload.csv failed\n", run->prog);
		out = -EIO;
	}
	if (run_write_port_records(run) < 0) {
		fprintf(stderr, "%s: writing uet-ports.csv failed\n",
			run->prog);
		out = -EIO;
	}
	if (run_swrec_finish(run->swrec, res->virtual_ps) < 0) {
		fprintf(stderr, "%s: writing the switch records failed\n",
			run->prog);
		out = -EIO;
	}
	run_totals(run, res);
	if (run->clock != NULL && run->clock->combine != NULL)
		run->clock->combine(run, res);
	run_say_summary(run, res);
	if (run_summary_csv(run, res) < 0) {
		fprintf(stderr, "%s: writing summary.csv failed\n", run->prog);
		out = -EIO;
	}
	if (run_wall_csv(run, res) < 0) {
		fprintf(stderr, "%s: writing wall-time.csv failed\n",
			run->prog);
		out = -EIO;
	}
	return out;
}

/*
 * The models' memory (every NIC's tables, the fabric's ports and queues)
 * is left to the exit when the process is about to end: freeing it gives
 * nothing back that the exit does not, and took 10-18 ms of a 1,024-host
 * run, on one lcore. A build with AddressSanitizer frees it still, so
 * that its leak check sees the run release all it should.
 */
#if defined(__SANITIZE_ADDRESS__)
#define RUN_FREE_MODELS_AT_EXIT true
#else
#define RUN_FREE_MODELS_AT_EXIT false
#endif

/* Everything the run opened, closed; -EIO when an output was not written
 * whole. */
static int run_close(struct run *run)
{
	int rc;

	run_close_clock(run);
	if (!run->conf->process_exits || RUN_FREE_MODELS_AT_EXIT)
		run_models_close(run);
	run_close_ports(run);
	rc = run_close_outputs(run);
	/* The pools are left to the exit (uet_run_conf.process_exits):
	 * freeing one drains it mbuf by mbuf and, for its header in EAL's
	 * heap, zeroes its MiB of per-lcore caches (pages the run never
	 * touched). A build with AddressSanitizer frees the embedded run's,
	 * whose rings are in the C heap, for its leak check. */
	if (!run->conf->process_exits ||
	    (RUN_FREE_MODELS_AT_EXIT && run->conf->role == UET_RUN_EMBEDDED)) {
		rte_mempool_free(run->payload_mp);
		rte_mempool_free(run->mp);
	}
	return rc;
}

int uet_run(const struct uet_run_conf *conf, struct uet_run_result *res)
{
	const uint64_t launch_ns =
		conf->launch_ns != 0 ? conf->launch_ns : run_wall_ns();
	const struct uet_scenario *sc = conf->sc;
	struct run run;
	uint64_t hash = conf->scenario_hash;
	int rc, out_rc = 0;

	memset(res, 0, sizeof(*res));
	memset(&run, 0, sizeof(run));
	run.conf = conf;
	run.sc = sc;
	run.prog = conf->prog != NULL ? conf->prog : "uet-run";
	run.hosts = sc->topology.hosts;
	res->realtime = sc->run.clock == UET_CLOCK_REALTIME;

	rc = run_roles(&run, conf);
	/* Everything that can refuse the scenario, before run.out is
	 * touched. */
	if (rc == 0 && run.has_switch)
		rc = run_swrec_check_names(sc, run.prog);
	if (rc == 0)
		rc = run_workload_open(&run, res);
	if (rc == 0 && hash == 0)
		rc = uet_scenario_hash(sc, &hash);
	if (rc == 0 && conf->ranks != NULL)
		rc = run_clock_mpi_check(&run, hash);
	if (rc == 0)
		rc = run_open_pool(&run);
	if (rc == 0)
		rc = run_open_outputs(&run);
	if (rc == 0)
		rc = run_wire_models(&run);
	if (rc == 0)
		rc = run_clock_open(&run, hash);
	if (rc < 0)
		goto out;

	rc = run_clock_poll(&run);
	res->wall_ns = run_wall_ns() - run.start_ns;
	res->setup_ns = run.start_ns - launch_ns;
	out_rc = run_finish(&run, rc, res);
out:
	/* Records that could not be written fail the run (non-zero exit):
	 * what it measured is not all there. */
	if (run_close(&run) < 0 && out_rc == 0)
		out_rc = -EIO;
	return rc < 0 ? rc : out_rc;
}
