/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a run leaves in run.out: the NICs' records, the switch's records
 * and one capture per host link (when the switch runs here), and, in a
 * NICs-only process, arrivals.csv for the merge. Also the two tables the
 * NICs share, the payload pattern and the arrival times.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "uet_capture.h"
#include "uet_fabric.h"
#include "uet_outfile.h"
#include "uet_record.h"
#include "uet_ses.h"
#include "run_private.h"
#include "run_switch_records.h"

/* mkdir -p: records and captures go into run.out. */
static int make_dirs(const char *path)
{
	char buf[UET_CONFIG_PATH_MAX];
	size_t i, n = strlen(path);

	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return -errno;
		buf[i] = path[i];
	}
	return 0;
}

/*
 * Every file a run writes into run.out (docs/records.md), besides the
 * captures port-H.pcap. A run clears them all as it opens its outputs, so
 * that the folder never holds two runs: a file this run does not write
 * (summary.csv until the end, a record it has off, the capture of a host
 * it does not have) would otherwise pass for this run's.
 */
static const char *const run_out_names[] = {
	"summary.csv",
	"summary.csv.tmp",
	"flows.csv",
	"uet-transport-stats.csv",
	"uet-events.csv",
	"uet-monitor.csv",
	"uet-cc-trace.csv",
	"workload.csv",
	"workload-messages.csv",
	"uet-ports.csv",
	"switch-stats.csv",
	"switch-occupancy.csv",
	"arrivals.csv",
	"uet-realtime.csv",
};

/* Whether name (a file in run.out) is one a run writes: a name of
 * run_out_names or port-H.pcap, either with UET_OUTFILE_SUFFIX. */
static bool run_out_name(const char *name)
{
	const size_t sfx = strlen(UET_OUTFILE_SUFFIX);
	size_t n = strlen(name), i;

	if (n > sfx && strcmp(name + n - sfx, UET_OUTFILE_SUFFIX) == 0)
		n -= sfx;
	for (i = 0; i < RTE_DIM(run_out_names); i++)
		if (strlen(run_out_names[i]) == n &&
		    strncmp(name, run_out_names[i], n) == 0)
			return true;
	if (n <= strlen("port-.pcap") || strncmp(name, "port-", 5) != 0 ||
	    strncmp(name + n - 5, ".pcap", 5) != 0)
		return false;
	for (i = 5; i < n - 5; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return true;
}

/* Remove an earlier run's files from run.out (run_out_names). */
static int run_clear_outputs(const struct run *run, const char *out)
{
	char path[UET_CONFIG_PATH_MAX + 300];
	struct dirent *d;
	int rc = 0;
	DIR *dir;

	dir = opendir(out);
	if (dir == NULL)
		return -errno;
	while ((d = readdir(dir)) != NULL) {
		if (!run_out_name(d->d_name))
			continue;
		run_out_path(path, sizeof(path), out, d->d_name);
		if (unlink(path) < 0 && errno != ENOENT) {
			rc = -errno;
			fprintf(stderr,
				"%s: cannot remove %s, an earlier run's: %s\n",
				run->prog, path, strerror(-rc));
			break;
		}
	}
	closedir(dir);
	return rc;
}

void run_out_path(char *buf, size_t size, const char *out, const char *name)
{
	size_t n = strlen(out);

	snprintf(buf, size, "%s%s%s", out,
		 n > 0 && out[n - 1] == '/' ? "" : "/", name);
}

/* Records (NICs), captures (switch), the payload pattern and the arrival
 * table. */
int run_open_outputs(struct run *run)
{
	const struct uet_scenario *sc = run->sc;
	const char *out = sc->run.out;
	struct uet_record_conf rc_conf = {
		.out_dir = out,
		.transport_stats = sc->records.enable_transport_stats,
		.stats_interval_ps = sc->records.nd_stats_report_interval_ps,
		.events = sc->records.enable_event_logging,
		.monitor = sc->records.enable_uet_monitor,
		.flows = sc->records.enable_flow_summary,
		/* Over ports a program's records are the switch's process's
		 * (run_workload.c): its engine hears every completion. */
		.workload = run->wl != NULL && run->conf->role != UET_RUN_NICS,
		.cc_trace = sc->records.enable_cc_trace,
		.max_file_bytes = sc->records.max_file_bytes,
	};
	uint32_t i;
	int rc;

	rc = make_dirs(out);
	if (rc < 0) {
		fprintf(stderr, "%s: cannot create %s: %s\n", run->prog, out,
			strerror(-rc));
		return rc;
	}
	rc = run_lock_out(run, out);
	if (rc == 0)
		rc = run_clear_outputs(run, out);
	if (rc < 0)
		return rc;
	if (run->count == 0 && run->wl != NULL) {
		/* uet-switch: no NIC's records, a program's. */
		struct uet_record_conf wl_only = {
			.out_dir = out,
			.workload = true,
			.max_file_bytes = rc_conf.max_file_bytes,
		};

		rc_conf = wl_only;
	}
	if (run->count > 0 || run->wl != NULL) {
		rc = uet_record_open(&run->rec, &rc_conf);
		if (rc < 0) {
			fprintf(stderr,
				"%s: cannot open the records in %s: %s\n",
				run->prog, out, strerror(-rc));
			return rc;
		}
	}
	/* In one process the NICs may run on several lcores: each writes its
	 * own view (uet-emu flushes them in host order between the windows'
	 * phases, uet-nic each after its NIC's window). */
	pthread_mutex_init(&run->rec_lock, NULL);
	if (run->conf->role != UET_RUN_SWITCH && run->rec != NULL) {
		run->nic_rec = calloc(run->count, sizeof(*run->nic_rec));
		if (run->nic_rec == NULL)
			return -ENOMEM;
		for (i = 0; i < run->count; i++) {
			rc = uet_record_view_create(&run->nic_rec[i], run->rec);
			if (rc < 0)
				return rc;
		}
	}
	if (run->has_switch && sc->records.enable_pcap) {
		run->cap = calloc(run->hosts, sizeof(*run->cap));
		if (run->cap == NULL)
			return -ENOMEM;
		if (uet_scenario_pcap_auto_limited(sc))
			fprintf(stderr,
				"%s: %u hosts: capturing the links of hosts "
				"0-%u only (records.PcapHosts: all, or hosts "
				"and ranges such as 0-63,4096, for others)\n",
				run->prog, run->hosts,
				UET_CONFIG_PCAP_AUTO_FEW - 1u);
		for (i = 0; i < run->hosts; i++) {
			char name[32], path[UET_CONFIG_PATH_MAX + 32];

			if (!uet_scenario_pcap_host(sc, i))
				continue;
			snprintf(name, sizeof(name), "port-%u.pcap", i);
			run_out_path(path, sizeof(path), out, name);
			rc = uet_capture_open(&run->cap[i], path);
			if (rc < 0) {
				fprintf(stderr, "%s: cannot create %s: %s\n",
					run->prog, path, strerror(-rc));
				return rc;
			}
			uet_capture_set_max_bytes(run->cap[i],
						  sc->records.max_file_bytes);
		}
	}
	rc = uet_ses_pattern_create(&run->pattern);
	if (rc == 0 && run->n_messages > 0)
		rc = uet_ses_arrivals_create(&run->arrivals, run->n_messages);
	return rc;
}

struct uet_record *run_nic_record(const struct run *run, uint32_t i)
{
	return run->nic_rec != NULL ? run->nic_rec[i] : run->rec;
}

int run_flush_nic_records(struct run *run)
{
	/* In host order, each window's rows merged in the records' order,
	 * so that closing them needs no sort of a whole file. */
	return run->nic_rec != NULL
		       ? uet_record_views_flush(run->nic_rec, run->count)
		       : 0;
}

int run_flush_nic_record(struct run *run, uint32_t i)
{
	int rc;

	if (run->nic_rec == NULL)
		return 0;
	pthread_mutex_lock(&run->rec_lock);
	rc = uet_record_view_flush(run->nic_rec[i]) < 0 ? -EIO : 0;
	pthread_mutex_unlock(&run->rec_lock);
	return rc;
}

/* The fabric's capture hook: both directions of host i's link go into
 * port-i.pcap, stamped with virtual time. */
static void on_capture(void *ctx, uint32_t port, const struct rte_mbuf *m,
		       uet_time_t time_ps, bool to_host)
{
	struct run *run = ctx;
	int rc;

	(void)to_host;
	if (port >= run->hosts || run->cap[port] == NULL)
		return;
	rc = uet_capture_write_mbuf(run->cap[port], time_ps, m);
	/* The fabric's parts may write captures from several lcores (each
	 * port's file from one): the first error only needs to be kept. */
	if (rc < 0)
		__atomic_store_n(&run->cap_err, rc, __ATOMIC_RELAXED);
}

/* The switch's outputs, once the fabric exists: captures and its records. */
int run_outputs_attach_switch(struct run *run)
{
	int rc;

	if (run->cap != NULL)
		uet_fabric_set_capture(run->fabric, on_capture, run);
	rc = run_swrec_failures(run->fabric, run->sc, run->prog);
	if (rc == 0)
		rc = run_swrec_open(&run->swrec, run->fabric, run->sc,
				    run->prog);
	return rc;
}

/*
 * arrivals.csv of a NICs-only process: the arrival time of every message
 * its NICs received, so that the merge can fill the flows.csv cells of
 * senders in other processes (the embedded run shares one table). A
 * program's destinations are known as its messages are posted: the table
 * holds only what this process's NICs received.
 */
static int run_write_arrivals(const struct run *run)
{
	const struct uet_scenario *sc = run->sc;
	char path[UET_CONFIG_PATH_MAX + 32];
	struct uet_outfile out;
	uint32_t i;
	FILE *f;
	int rc;

	run_out_path(path, sizeof(path), sc->run.out, "arrivals.csv");
	rc = uet_outfile_open(&out, path);
	if (rc < 0)
		return rc;
	f = out.f;
	fprintf(f, "msg_id,arrived_ps\n");
	for (i = 0; i < run->n_messages; i++) {
		uet_time_t t;

		if (run->wl == NULL &&
		    !run_hosted(run, sc->workload.messages[i].dst))
			continue;
		t = uet_ses_arrivals_get(run->arrivals, i);
		if (t != UET_TIME_NEVER)
			fprintf(f, "%u,%" PRIu64 "\n", i, t);
	}
	/* Renamed to arrivals.csv only when whole. */
	return uet_outfile_close(&out, 0);
}

/* Captures and records closed, each renamed from NAME.partial to NAME when
 * whole (a failure names its file), arrivals.csv written. */
int run_close_outputs(struct run *run)
{
	uint32_t i;
	int rc = 0;

	run_swrec_free(run->swrec);
	for (i = 0; run->cap != NULL && i < run->hosts; i++)
		if (uet_capture_close(run->cap[i]) < 0)
			rc = -EIO;
	for (i = 0; run->nic_rec != NULL && i < run->count; i++)
		if (uet_record_close(run->nic_rec[i]) < 0)
			rc = -EIO;
	free(run->nic_rec);
	/* Each file in the order its data defines, the same in every run
	 * mode: closing sorts one whose rows were not written so. */
	if (uet_record_close_in_order(run->rec) < 0)
		rc = -EIO;
	run->rec = NULL;
	if (run->conf->role == UET_RUN_NICS && run->arrivals != NULL &&
	    run_write_arrivals(run) < 0) {
		fprintf(stderr, "%s: writing arrivals.csv failed\n", run->prog);
		rc = -EIO;
	}
	if (rc < 0)
		fprintf(stderr,
			"%s: writing the records and captures in %s failed: "
			"the files named above are not there\n",
			run->prog, run->sc->run.out);
	uet_ses_arrivals_free(run->arrivals);
	uet_ses_pattern_free(run->pattern);
	free(run->cap);
	run_unlock_out(run);
	return rc;
}
