/* SPDX-License-Identifier: BSD-3-Clause */
/* uet-emu --print-launch-plan (run_launch_plan.h); docs/ports.md lists the
 * keys. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "run_launch_plan.h"
#include "uet_packet_sizes.h"
#include "uet_time.h"
#include "uet_wire_frame.h"
#include "uet_xring.h"

/* The workload program that runs embedded only ("" for a message list,
 * or a program in lockstep): over ports a program's completions cross the
 * processes in the lockstep's window notes, which a realtime run has not
 * (docs/workload.md, "Over ports"). */
static const char *embedded_only(const struct uet_scenario *sc)
{
	if (sc->run.clock != UET_CLOCK_REALTIME)
		return "";
	if (sc->workload.chakra[0] != '\0')
		return "workload.chakra";
	if (sc->workload.matrix[0] != '\0')
		return "workload.matrix";
	if (sc->workload.generate.pattern != UET_GENERATE_NONE)
		return "workload.generate";
	return "";
}

/* A link's rate in lockstep windows: the faster of the NIC's DataRate and
 * its downlink, as the embedded run sizes its rings (run_clock_local.c). */
static uint64_t link_bps(const struct uet_scenario *sc)
{
	return sc->nic.data_rate_bps > sc->topology.link_rate_bps
		       ? sc->nic.data_rate_bps
		       : sc->topology.link_rate_bps;
}

/* Full data frames, with the lockstep trailer, a link starts in one
 * window: the bytes of a lookahead at its rate, one frame already on the
 * wire and one for rounding, as uet_xring_frames_per_window() counts. */
static uint64_t full_frames_per_window(const struct uet_scenario *sc)
{
	uint64_t frame_bytes =
		uet_data_wire_bytes(sc->nic.rdma_data_mss_bytes) +
		UET_LS_TRAILER_BYTES;

	return uet_bytes_in_duration(sc->derived.lookahead_ps, link_bps(sc)) /
		       frame_bytes +
	       2u;
}

/* The largest data frame as a port carries it: the headers as built (no
 * FCS: no port carries one) and, in lockstep, the trailer. */
static uint64_t data_frame_bytes(const struct uet_scenario *sc)
{
	return (uint64_t)sc->nic.rdma_data_mss_bytes +
	       UET_DATA_HDR_FRAME_BYTES +
	       (sc->run.clock == UET_CLOCK_LOCKSTEP ? UET_LS_TRAILER_BYTES : 0);
}

static void print_external_hosts(const struct uet_scenario *sc, FILE *f)
{
	const char *sep = "";
	uint32_t h;

	fputs("external_hosts=", f);
	if (sc->sw.external_hosts[0] != '\0')
		for (h = 0; h < sc->topology.hosts; h++)
			if (uet_scenario_host_external(sc, h)) {
				fprintf(f, "%s%" PRIu32, sep, h);
				sep = " ";
			}
	fputc('\n', f);
}

int run_launch_plan_print(const struct uet_scenario *sc,
			  const struct run_sizing *sizing, const char *prog,
			  FILE *f)
{
	const bool lockstep = sc->run.clock == UET_CLOCK_LOCKSTEP;

	if (strchr(sc->run.out, '\n') != NULL) {
		fprintf(stderr,
			"%s: run.out holds a line break: the launch plan "
			"gives one value a line\n",
			prog);
		return -EINVAL;
	}
	fprintf(f, "hosts=%" PRIu32 "\n", sc->topology.hosts);
	fprintf(f, "clock=%s\n", lockstep ? "lockstep" : "realtime");
	fprintf(f, "out=%s\n", sc->run.out);
	print_external_hosts(sc, f);
	fprintf(f, "embedded_only=%s\n", embedded_only(sc));
	fprintf(f, "window_min_frames=%" PRIu32 "\n",
		lockstep ? uet_xring_frames_per_window(link_bps(sc),
						       sc->derived.lookahead_ps)
			 : 0u);
	fprintf(f, "window_full_frames=%" PRIu64 "\n",
		lockstep ? full_frames_per_window(sc) : 0u);
	fprintf(f, "window_frames=%" PRIu64 "\n", sizing->window_frames);
	fprintf(f, "mss_bytes=%" PRIu32 "\n", sc->nic.rdma_data_mss_bytes);
	fprintf(f, "mss_max_bytes=%u\n", (unsigned int)UET_MSS_MAX_BYTES);
	fprintf(f, "data_frame_bytes=%" PRIu64 "\n", data_frame_bytes(sc));
	return 0;
}
