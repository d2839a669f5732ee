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
static int run_clear_outputs(const struct run *e, const char *out)
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
				e->prog, path, strerror(-rc));
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
int run_open_outputs(struct run *e)
{
	const struct uet_scenario *sc = e->sc;
	const char *out = sc->run.out;
	struct uet_record_conf rc_conf = {
		.out_dir = out,
		.transport_stats = sc->records.enable_transport_stats,
		.stats_interval_ps = sc->records.nd_stats_report_interval_ps,
		.events = sc->records.enable_event_logging,
		.monitor = sc->records.enable_uet_monitor,
		.flows = sc->records.enable_flow_summary,
		.workload = e->wl != NULL,
		.cc_trace = sc->records.enable_cc_trace,
		.max_file_bytes = sc->records.max_file_bytes,
	};
	uint32_t i;
	int rc;

	rc = make_dirs(out);
	if (rc < 0) {
		fprintf(stderr, "%s: cannot create %s: %s\n", e->prog, out,
			strerror(-rc));
		return rc;
	}
	rc = run_lock_out(e, out);
	if (rc == 0)
		rc = run_clear_outputs(e, out);
	if (rc < 0)
		return rc;
	if (e->count > 0) {
		rc = uet_record_open(&e->rec, &rc_conf);
		if (rc < 0) {
			fprintf(stderr,
				"%s: cannot open the records in %s: %s\n",
				e->prog, out, strerror(-rc));
			return rc;
		}
	}
	/* In one process the NICs may run on several lcores: each writes its
	 * own view (uet-emu flushes them in host order between the windows'
	 * phases, uet-nic each after its NIC's window). */
	pthread_mutex_init(&e->rec_lock, NULL);
	if (e->conf->role != UET_RUN_SWITCH && e->rec != NULL) {
		e->nic_rec = calloc(e->count, sizeof(*e->nic_rec));
		if (e->nic_rec == NULL)
			return -ENOMEM;
		for (i = 0; i < e->count; i++) {
			rc = uet_record_view_create(&e->nic_rec[i], e->rec);
			if (rc < 0)
				return rc;
		}
	}
	if (e->has_switch && sc->records.enable_pcap) {
		e->cap = calloc(e->hosts, sizeof(*e->cap));
		if (e->cap == NULL)
			return -ENOMEM;
		if (uet_scenario_pcap_auto_limited(sc))
			fprintf(stderr,
				"%s: %u hosts: capturing the links of hosts "
				"0-%u only (records.PcapHosts: all, or hosts "
				"and ranges such as 0-63,4096, for others)\n",
				e->prog, e->hosts,
				UET_CONFIG_PCAP_AUTO_FEW - 1u);
		for (i = 0; i < e->hosts; i++) {
			char name[32], path[UET_CONFIG_PATH_MAX + 32];

			if (!uet_scenario_pcap_host(sc, i))
				continue;
			snprintf(name, sizeof(name), "port-%u.pcap", i);
			run_out_path(path, sizeof(path), out, name);
			rc = uet_capture_open(&e->cap[i], path);
			if (rc < 0) {
				fprintf(stderr, "%s: cannot create %s: %s\n",
					e->prog, path, strerror(-rc));
				return rc;
			}
			uet_capture_set_max_bytes(e->cap[i],
						  sc->records.max_file_bytes);
		}
	}
	rc = uet_ses_pattern_create(&e->pattern);
	if (rc == 0 && e->n_messages > 0)
		rc = uet_ses_arrivals_create(&e->arrivals, e->n_messages);
	return rc;
}

struct uet_record *run_nic_record(const struct run *e, uint32_t i)
{
	return e->nic_rec != NULL ? e->nic_rec[i] : e->rec;
}

int run_flush_nic_records(struct run *e)
{
	/* In host order, each window's rows merged in the records' order,
	 * so that closing them needs no sort of a whole file. */
	return e->nic_rec != NULL ? uet_record_views_flush(e->nic_rec, e->count)
				  : 0;
}

int run_flush_nic_record(struct run *e, uint32_t i)
{
	int rc;

	if (e->nic_rec == NULL)
		return 0;
	pthread_mutex_lock(&e->rec_lock);
	rc = uet_record_view_flush(e->nic_rec[i]) < 0 ? -EIO : 0;
	pthread_mutex_unlock(&e->rec_lock);
	return rc;
}

/* The fabric's capture hook: both directions of host i's link go into
 * port-i.pcap, stamped with virtual time. */
static void on_capture(void *ctx, uint32_t port, const struct rte_mbuf *m,
		       uet_time_t time_ps, bool to_host)
{
	struct run *e = ctx;
	int rc;

	(void)to_host;
	if (port >= e->hosts || e->cap[port] == NULL)
		return;
	rc = uet_capture_write_mbuf(e->cap[port], time_ps, m);
	/* The fabric's parts may write captures from several lcores (each
	 * port's file from one): the first error only needs to be kept. */
	if (rc < 0)
		__atomic_store_n(&e->cap_err, rc, __ATOMIC_RELAXED);
}

/* The switch's outputs, once the fabric exists: captures and its records. */
int run_outputs_attach_switch(struct run *e)
{
	int rc;

	if (e->cap != NULL)
		uet_fabric_set_capture(e->fabric, on_capture, e);
	rc = run_swrec_failures(e->fabric, e->sc, e->prog);
	if (rc == 0)
		rc = run_swrec_open(&e->swrec, e->fabric, e->sc, e->prog);
	return rc;
}

/*
 * arrivals.csv of a NICs-only process: the arrival time of every message
 * its NICs received, so that the merge can fill the flows.csv cells of
 * senders in other processes (the embedded run shares one table).
 */
static int run_write_arrivals(const struct run *e)
{
	const struct uet_scenario *sc = e->sc;
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
	for (i = 0; i < sc->workload.message_count; i++) {
		uet_time_t t;

		if (!run_hosted(e, sc->workload.messages[i].dst))
			continue;
		t = uet_ses_arrivals_get(e->arrivals, i);
		if (t != UET_TIME_NEVER)
			fprintf(f, "%u,%" PRIu64 "\n", i, t);
	}
	/* Renamed to arrivals.csv only when whole. */
	return uet_outfile_close(&out, 0);
}

/* Captures and records closed, each renamed from NAME.partial to NAME when
 * whole (a failure names its file), arrivals.csv written. */
int run_close_outputs(struct run *e)
{
	bool had_records = e->rec != NULL;
	uint32_t i;
	int rc = 0;

	run_swrec_free(e->swrec);
	for (i = 0; e->cap != NULL && i < e->hosts; i++)
		if (uet_capture_close(e->cap[i]) < 0)
			rc = -EIO;
	for (i = 0; e->nic_rec != NULL && i < e->count; i++)
		if (uet_record_close(e->nic_rec[i]) < 0)
			rc = -EIO;
	free(e->nic_rec);
	if (uet_record_close(e->rec) < 0)
		rc = -EIO;
	e->rec = NULL;
	/* Rows in the order their data defines, the same in every run mode
	 * (of whole files only). */
	if (had_records && rc == 0 && uet_record_order(e->sc->run.out) < 0) {
		fprintf(stderr, "%s: ordering the records failed\n", e->prog);
		rc = -EIO;
	}
	if (e->conf->role == UET_RUN_NICS && e->arrivals != NULL &&
	    run_write_arrivals(e) < 0) {
		fprintf(stderr, "%s: writing arrivals.csv failed\n", e->prog);
		rc = -EIO;
	}
	if (rc < 0)
		fprintf(stderr,
			"%s: writing the records and captures in %s failed: "
			"the files named above are not there\n",
			e->prog, e->sc->run.out);
	uet_ses_arrivals_free(e->arrivals);
	uet_ses_pattern_free(e->pattern);
	free(e->cap);
	run_unlock_out(e);
	return rc;
}
