/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * summary.csv in run.out: every figure of the summary printed on stderr
 * (run_summary.c), one row each, for scripts and tests that must not parse
 * the prose. Two columns, figure and value; the figures are named in
 * docs/records.md ("summary.csv"). The wall-clock figures are in
 * wall-time.csv (run_wall_csv.c), so that two runs of the same lockstep
 * scenario write the same bytes here.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "uet_fabric.h"
#include "uet_nic.h"
#include "run_private.h"
#include "run_realtime.h"
#include "run_workload.h"

static const char *state(uint8_t flags)
{
	if (!(flags & RUN_MSG_SENT))
		return "not_sent";
	if (!(flags & RUN_MSG_ARRIVED))
		return "sent";
	return "arrived";
}

static void row_u64(FILE *f, const char *figure, uint64_t v)
{
	fprintf(f, "%s,%" PRIu64 "\n", figure, v);
}

/* Per link between switches, in its upward direction, as the prose. */
static void uplinks(const struct run *run, FILE *f)
{
	struct uet_fabric_port_info info;
	struct uet_fabric_port_stats ps;
	uint32_t i;

	for (i = 0; i < uet_fabric_port_count(run->fabric); i++) {
		if (uet_fabric_port_info(run->fabric, i, &info) < 0 ||
		    info.peer < 0 || (uint32_t)info.peer < i ||
		    uet_fabric_port_stats(run->fabric, i, &ps) < 0)
			continue;
		fprintf(f,
			"uplink.%s.frames,%" PRIu64 "\nuplink.%s.bytes,%" PRIu64
			"\nuplink.%s.dropped,%" PRIu64
			"\nuplink.%s.trimmed,%" PRIu64
			"\nuplink.%s.peak_queue_bytes,%" PRIu64 "\n",
			info.link_name, ps.tx_frames, info.link_name,
			ps.tx_bytes, info.link_name, ps.drop_full_frames,
			info.link_name, ps.trim_frames, info.link_name,
			ps.peak_queue_bytes);
	}
}

/* The messages of the list whose source is here and that did not
 * complete: how far each got (all of them, where the prose shows 20). */
static void unfinished(const struct run *run, FILE *f)
{
	const struct uet_scenario *sc = run->sc;
	uint32_t i, n = 0;

	for (i = 0; i < sc->workload.message_count; i++) {
		const struct uet_workload_message *m =
			&sc->workload.messages[i];

		if (!run_hosted(run, m->src) ||
		    (run->msg_flags[i] & RUN_MSG_COMPLETED))
			continue;
		fprintf(f, "message.%u,%s\n", i, state(run->msg_flags[i]));
		n++;
	}
	row_u64(f, "not_completed", n);
}

/*
 * Whether a signal stopped the run before its end, which one and at what
 * virtual time: its PSNs still in flight were never retired, so intact is
 * 0, and without these rows a reader took it for a broken data path.
 */
static void interrupted(const struct uet_run_result *r, FILE *f)
{
	row_u64(f, "interrupted", r->interrupted_by != 0 ? 1u : 0u);
	if (r->interrupted_by == 0) {
		fprintf(f, "interrupted_by,\ninterrupted_at_ps,\n");
		return;
	}
	fprintf(f, "interrupted_by,%s\n",
		r->interrupted_by == SIGINT ? "SIGINT" : "SIGTERM");
	row_u64(f, "interrupted_at_ps", r->virtual_ps);
}

/*
 * A run with external hosts: what the hosted NICs and the switch dropped
 * or refused of what those hosts sent, and the messages that came from
 * them. Only such runs have these rows, so that every other run's file is
 * what it was.
 */
static void untrusted(const struct run *run, FILE *f)
{
	struct uet_fabric_port_stats ps;
	struct uet_nic_stats ns, sum;
	uint64_t spoofed = 0, lost = 0;
	uint32_t i, n;

	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < run->count; i++) {
		uet_nic_stats(run->nic[i], &ns);
		sum.transport.malformed_frames += ns.transport.malformed_frames;
		sum.transport.other_frames += ns.transport.other_frames;
		sum.transport.stale_packets += ns.transport.stale_packets;
		sum.transport.own_source_frames +=
			ns.transport.own_source_frames;
		sum.transport.misfit_packets += ns.transport.misfit_packets;
		sum.transport.pdc_exhausted += ns.transport.pdc_exhausted;
		sum.transport.external_pdcs_refused +=
			ns.transport.external_pdcs_refused;
		sum.external_stalls_closed += ns.external_stalls_closed;
		sum.external_msgs_arrived += ns.external_msgs_arrived;
	}
	for (i = 0; run->has_switch && i < run->hosts; i++)
		if (uet_fabric_port_stats(run->fabric, i, &ps) == 0) {
			spoofed += ps.drop_source_frames;
			lost += ps.drop_lost_frames;
		}
	row_u64(f, "nic.malformed_frames", sum.transport.malformed_frames);
	row_u64(f, "nic.other_frames", sum.transport.other_frames);
	row_u64(f, "nic.stale_packets", sum.transport.stale_packets);
	row_u64(f, "nic.own_source_frames", sum.transport.own_source_frames);
	row_u64(f, "nic.misfit_packets", sum.transport.misfit_packets);
	row_u64(f, "nic.pdc_exhausted", sum.transport.pdc_exhausted);
	row_u64(f, "nic.external_pdcs_refused",
		sum.transport.external_pdcs_refused);
	row_u64(f, "nic.external_stalls_closed", sum.external_stalls_closed);
	row_u64(f, "nic.external_msgs_arrived", sum.external_msgs_arrived);
	row_u64(f, "switch.spoofed_frames", spoofed);
	/* Only runs that lose packets on purpose have the row. */
	if (run->sc->sw.external_lost_copies > 0)
		row_u64(f, "switch.lost_frames", lost);
	if (run->wl != NULL)
		return;
	n = 0;
	for (i = 0; i < run->sc->workload.message_count; i++) {
		if (!run_expected(run, i))
			continue;
		n++;
		if ((run->msg_flags[i] & RUN_MSG_ARRIVED) == 0)
			fprintf(f, "expected.%u,not_arrived\n", i);
	}
	row_u64(f, "expected", n);
	row_u64(f, "expected_arrived", run_expected_arrived(run));
}

int run_summary_csv(const struct run *run, const struct uet_run_result *r)
{
	char path[UET_CONFIG_PATH_MAX + 16], tmp[UET_CONFIG_PATH_MAX + 32];
	FILE *f;
	int rc = 0;

	run_out_path(path, sizeof(path), run->sc->run.out, "summary.csv");
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (f == NULL)
		return -errno;
	fprintf(f, "figure,value\n");
	row_u64(f, "messages", r->messages);
	row_u64(f, "completed", r->completed);
	row_u64(f, "virtual_ps", r->virtual_ps);
	row_u64(f, "windows", r->windows);
	row_u64(f, "events", r->events);
	row_u64(f, "frames", r->frames);
	row_u64(f, "switch_drops", r->switch_drops);
	row_u64(f, "switch_trims", r->switch_trims);
	row_u64(f, "payload_mismatches", r->payload_mismatches);
	row_u64(f, "in_flight_anomalies", r->in_flight_anomalies);
	row_u64(f, "psns_taken", r->psns_taken);
	row_u64(f, "psns_retired", r->psns_retired);
	row_u64(f, "intact", uet_run_intact(r) ? 1u : 0u);
	interrupted(r, f);
	if (run->has_switch)
		uplinks(run, f);
	if (run->wl != NULL)
		run_wl_summary_csv(run->wl, f);
	else
		unfinished(run, f);
	run_rt_summary_csv(run->rt, f);
	if (run->sc->sw.external_hosts[0] != '\0')
		untrusted(run, f);
	if (ferror(f))
		rc = -EIO;
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0)
		remove(tmp);
	return rc;
}
