/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-ports.csv (docs/records.md): one row per port this process drove,
 * with the frames it carried and those it dropped before the model, by
 * kind (foreign, broken, stale: docs/lockstep.md). A port over veth faces
 * whatever else is on the link; a run that had such frames says so on
 * stderr too. Written by uet-switch and uet-nic in lockstep, and by every
 * program in realtime (uet-emu's ring ports included); the embedded
 * lockstep run has no ports.
 */
#include <inttypes.h>
#include <stdio.h>

#include "run_private.h"
#include "run_realtime.h"
#include "uet_outfile.h"
#include "uet_port.h"
#include "uet_sync_ports.h"

static void port_row(FILE *f, const struct run *run, const char *side,
		     uint32_t host, const struct uet_port *port,
		     const struct uet_sync_port_drops *d)
{
	struct uet_port_stats st = {0};
	uint64_t total = 0;
	uint32_t k;

	(void)uet_port_stats(port, &st);
	fprintf(f, "%s,%u,%s,%" PRIu64 ",%" PRIu64, side, host,
		uet_port_name(port), st.rx_frames, st.tx_frames);
	for (k = 0; k < UET_SYNC_DROP_KINDS; k++) {
		fprintf(f, ",%" PRIu64, d->n[k]);
		total += d->n[k];
	}
	fputc('\n', f);
	if (total == 0)
		return;
	fprintf(stderr,
		"%s: port %s (%s side of host %u) dropped %" PRIu64
		" frames not of this run:",
		run->prog, uet_port_name(port), side, host, total);
	for (k = 0; k < UET_SYNC_DROP_KINDS; k++)
		fprintf(stderr, " %s %" PRIu64,
			uet_sync_drop_name((enum uet_sync_drop)k), d->n[k]);
	fputc('\n', stderr);
}

int run_write_port_records(const struct run *run)
{
	struct uet_sync_port_drops d;
	struct uet_outfile out;
	char path[4096];
	uint32_t i, k;
	FILE *f;

	if (run->co == NULL && run->pa == NULL && run->rt == NULL)
		return 0;
	run_out_path(path, sizeof(path), run->sc->run.out, "uet-ports.csv");
	if (uet_outfile_open(&out, path) < 0)
		return -1;
	f = out.f;
	fputs("side,host,port,rx_frames,tx_frames", f);
	for (k = 0; k < UET_SYNC_DROP_KINDS; k++)
		fprintf(f, ",%s", uet_sync_drop_name((enum uet_sync_drop)k));
	fputc('\n', f);
	for (i = 0; run->has_switch && run->sw_port != NULL && i < run->hosts;
	     i++) {
		if (run->sw_port[i] == NULL)
			continue;
		if (run->rt != NULL)
			run_rt_port_drops(run->rt, true, i, &d);
		else if (run->co != NULL)
			uet_sync_coordinator_port_drops(run->co, i, &d);
		else
			continue;
		port_row(f, run, "switch", i, run->sw_port[i], &d);
	}
	for (i = 0; run->nic_port != NULL && i < run->count; i++) {
		if (run->nic_port[i] == NULL)
			continue;
		if (run->rt != NULL)
			run_rt_port_drops(run->rt, false, i, &d);
		else if (run->pa != NULL && run->pa[i] != NULL)
			uet_sync_participant_port_drops(run->pa[i], &d);
		else
			continue;
		port_row(f, run, "nic", run->first + i, run->nic_port[i], &d);
	}
	/* Renamed to uet-ports.csv only when whole. */
	return uet_outfile_close(&out, 0) == 0 ? 0 : -1;
}
