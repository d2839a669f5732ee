/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The end of a run in words (for stderr, in one write: uet_run.c): what
 * the hosted NICs and the switch counted, the integrity check, the uplinks
 * between switches, and the messages that did not complete with how far
 * each got.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include <rte_common.h>

#include "uet_fabric.h"
#include "uet_nic.h"
#include "run_private.h"
#include "run_switch_records.h"
#include "run_workload.h"

/* Most lines of unfinished messages printed. */
#define RUN_SUMMARY_LINES 20u

/* How far a message got: "sent" is its last packet's first transmission,
 * so a message being sent when the run ended is "not all sent". */
static const char *missing(uint8_t flags, uet_time_t at_ps, uet_time_t end_ps)
{
	if (!(flags & RUN_MSG_SENT))
		return at_ps >= end_ps ? "not posted before the run ended"
				       : "posted, not all sent";
	if (!(flags & RUN_MSG_ARRIVED))
		return "sent, not arrived";
	return "arrived, not acknowledged";
}

/*
 * The integrity check's mark: payload bytes that differ from what was
 * sent are an integrity failure; in-flight bytes below zero, or PSNs not
 * all retired once every message completed, a bug in the accounting.
 * PSNs still in flight when an unfinished run ends are neither.
 */
static const char *integrity_mark(const struct uet_run_result *r)
{
	if (r->payload_mismatches != 0)
		return "  <- INTEGRITY FAILURE: payload bytes differ from what "
		       "was sent";
	if (r->in_flight_anomalies != 0 ||
	    (r->completed == r->messages && r->psns_retired != r->psns_taken))
		return "  <- ACCOUNTING ERROR: the in-flight or PSN counts do "
		       "not add up";
	return "";
}

/* Sum what the hosted NICs and the switch counted, for the summary and
 * the integrity check. */
void run_totals(const struct run *run, struct uet_run_result *r)
{
	struct uet_fabric_port_stats ps;
	struct uet_nic_stats ns;
	uint32_t i;

	for (i = 0; i < run->count; i++) {
		uet_nic_stats(run->nic[i], &ns);
		r->payload_mismatches += ns.payload_mismatches;
		r->in_flight_anomalies += ns.in_flight_anomalies;
		r->psns_taken += ns.psns_taken;
		r->psns_retired += ns.psns_retired;
	}
	/* Frames from the hosts; drops and trims at every switch port. */
	for (i = 0; run->has_switch && i < uet_fabric_port_count(run->fabric);
	     i++) {
		if (uet_fabric_port_stats(run->fabric, i, &ps) == 0) {
			if (i < run->hosts)
				r->frames += ps.rx_frames;
			r->switch_drops +=
				ps.drop_full_frames + ps.drop_random_frames +
				ps.drop_route_frames + ps.drop_control_frames;
			r->switch_trims += ps.trim_frames;
		}
	}
	if (run->has_switch)
		r->switch_drops += run_swrec_down_drops(run->fabric);
}

/* Port i's upward link, if it is the lower end of one between switches
 * (the lower tier's port comes first), with what it sent. */
static bool uplink_at(const struct run *run, uint32_t i,
		      struct uet_fabric_port_info *info,
		      struct uet_fabric_port_stats *ps)
{
	return uet_fabric_port_info(run->fabric, i, info) == 0 &&
	       info->peer >= 0 && (uint32_t)info->peer >= i &&
	       uet_fabric_port_stats(run->fabric, i, ps) == 0;
}

/*
 * One line per link between switches, in its upward direction: what the
 * lower switch sent up it, so that the spread of traffic over the uplinks
 * shows. Nothing for one switch. A large fabric (a k = 16 fat tree has 2,048
 * uplinks) gets one line of ranges instead; summary.csv has every uplink.
 */
static void run_summary_links(const struct run *run, FILE *f)
{
	const uint32_t ports = uet_fabric_port_count(run->fabric);
	struct uet_fabric_port_info info;
	struct uet_fabric_port_stats ps;
	uint64_t fr_lo = UINT64_MAX, fr_hi = 0, by_lo = UINT64_MAX, by_hi = 0;
	uint64_t dropped = 0, trimmed = 0, peak = 0;
	uint32_t i, n = 0;

	for (i = 0; i < ports; i++) {
		if (!uplink_at(run, i, &info, &ps))
			continue;
		n++;
		fr_lo = RTE_MIN(fr_lo, ps.tx_frames);
		fr_hi = RTE_MAX(fr_hi, ps.tx_frames);
		by_lo = RTE_MIN(by_lo, ps.tx_bytes);
		by_hi = RTE_MAX(by_hi, ps.tx_bytes);
		dropped += ps.drop_full_frames;
		trimmed += ps.trim_frames;
		peak = RTE_MAX(peak, ps.peak_queue_bytes);
	}
	if (n > RUN_SUMMARY_LIST_MAX) {
		fprintf(f,
			"%s: %u uplinks: %" PRIu64 "-%" PRIu64
			" frames and %" PRIu64 "-%" PRIu64
			" bytes each, %" PRIu64 " dropped, %" PRIu64
			" trimmed, peak queue up to %" PRIu64
			" bytes (each uplink in summary.csv)\n",
			run->prog, n, fr_lo, fr_hi, by_lo, by_hi, dropped,
			trimmed, peak);
		return;
	}
	for (i = 0; i < ports; i++)
		if (uplink_at(run, i, &info, &ps))
			fprintf(f,
				"%s: uplink %s from %s: %" PRIu64
				" frames, %" PRIu64 " bytes, %" PRIu64
				" dropped, %" PRIu64
				" trimmed, peak queue %" PRIu64 " bytes\n",
				run->prog, info.link_name, info.switch_name,
				ps.tx_frames, ps.tx_bytes, ps.drop_full_frames,
				ps.trim_frames, ps.peak_queue_bytes);
}

/* The messages the list expects from external hosts: how many arrived,
 * and each that did not. */
static void run_summary_expected(const struct run *run,
				 const struct uet_run_result *r, FILE *f)
{
	const struct uet_scenario *sc = run->sc;
	uint32_t i, shown = 0;

	if (r->expected == 0)
		return;
	fprintf(f,
		"%s: %u of %u messages expected from external hosts arrived "
		"whole\n",
		run->prog, r->expected_arrived, r->expected);
	for (i = 0; i < sc->workload.message_count; i++) {
		const struct uet_workload_message *m =
			&sc->workload.messages[i];

		if (!run_expected(run, i) ||
		    (run->msg_flags[i] & RUN_MSG_ARRIVED) != 0)
			continue;
		if (shown++ == RUN_SUMMARY_LINES)
			continue;
		fprintf(f,
			"%s: message %u (external host %u -> %u, %" PRIu64
			" bytes): expected, not arrived\n",
			run->prog, i, m->src, m->dst, m->size_bytes);
	}
	if (shown > RUN_SUMMARY_LINES)
		fprintf(f, "%s: ... and %u more not arrived\n", run->prog,
			shown - RUN_SUMMARY_LINES);
}

void run_summary(const struct run *run, const struct uet_run_result *r, FILE *f)
{
	const struct uet_scenario *sc = run->sc;
	char vt[UET_UNITS_FMT_LEN], at[UET_UNITS_FMT_LEN];
	uint32_t i, shown = 0;

	uet_time_format(r->virtual_ps, vt, sizeof(vt));
	fprintf(f,
		"%s: %u of %u messages completed; virtual time %s, "
		"%" PRIu64 " windows, %" PRIu64 " events, %" PRIu64
		" ms of wall time after %" PRIu64 " ms of set-up\n",
		run->prog, r->completed, r->messages, vt, r->windows, r->events,
		r->wall_ns / 1000000u, r->setup_ns / 1000000u);
	if (run->conf->lcores_why != NULL)
		fprintf(f, "%s: lcores: %s\n", run->prog,
			run->conf->lcores_why);
	fprintf(f,
		"%s: %" PRIu64 " frames through the switch, %" PRIu64
		" dropped there, %" PRIu64
		" trimmed there; payload mismatches %" PRIu64
		", in-flight anomalies %" PRIu64 ", PSNs taken %" PRIu64
		", retired %" PRIu64 "%s\n",
		run->prog, r->frames, r->switch_drops, r->switch_trims,
		r->payload_mismatches, r->in_flight_anomalies, r->psns_taken,
		r->psns_retired, integrity_mark(r));
	if (run->has_switch)
		run_summary_links(run, f);
	if (run->wl != NULL) {
		run_wl_summary(run->wl, f);
		return;
	}
	for (i = 0; i < sc->workload.message_count; i++) {
		const struct uet_workload_message *m =
			&sc->workload.messages[i];

		if (!run_hosted(run, m->src) ||
		    (run->msg_flags[i] & RUN_MSG_COMPLETED))
			continue;
		if (shown++ == RUN_SUMMARY_LINES)
			continue;
		uet_time_format(m->at_ps, at, sizeof(at));
		fprintf(f,
			"%s: message %u (host %u -> %u, %" PRIu64
			" bytes, at %s): %s\n",
			run->prog, i, m->src, m->dst, m->size_bytes, at,
			missing(run->msg_flags[i], m->at_ps, r->virtual_ps));
	}
	if (shown > RUN_SUMMARY_LINES)
		fprintf(f, "%s: ... and %u more not completed\n", run->prog,
			shown - RUN_SUMMARY_LINES);
	run_summary_expected(run, r, f);
}
