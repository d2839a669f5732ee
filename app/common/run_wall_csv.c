/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wall-time.csv in run.out: the run's wall-clock figures (set-up, the
 * loop, the mean window, each lcore's busy time, where a window over
 * ports went), the ones printed on stderr. They follow the host, so they
 * live in a file of their own: two identical lockstep runs give the same
 * bytes in every other file of run.out (docs/records.md, "wall-time.csv").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/resource.h>

#include "uet_sync_local.h"
#include "run_private.h"

static void row_u64(FILE *f, const char *figure, uint64_t v)
{
	fprintf(f, "%s,%" PRIu64 "\n", figure, v);
}

/* Embedded on several lcores: how each spent the loop (the figures of
 * the summary's "lcore I of N" lines). */
static void lcores(const struct run *run, const struct uet_run_result *r,
		   FILE *f)
{
	uint64_t nics_ns, switch_ns, busy_ns;
	uint32_t n, i;

	if (run->local == NULL)
		return;
	n = uet_sync_local_lcores(run->local);
	for (i = 0; n > 1 && i < n; i++) {
		if (uet_sync_local_lcore_busy(run->local, i, &nics_ns,
					      &switch_ns) < 0)
			return;
		busy_ns = nics_ns + switch_ns;
		fprintf(f,
			"lcore.%u.nic_phases_us,%" PRIu64
			"\nlcore.%u.switch_phases_us,%" PRIu64
			"\nlcore.%u.rest_us,%" PRIu64
			"\nlcore.%u.parts_taken,%" PRIu64 "\n",
			i, nics_ns / 1000u, i, switch_ns / 1000u, i,
			r->wall_ns > busy_ns ? (r->wall_ns - busy_ns) / 1000u
					     : 0,
			i, uet_sync_local_lcore_parts_taken(run->local, i));
	}
}

/* The process's memory as it ends: its peak resident size, and how much
 * of its anonymous memory the kernel backs with transparent huge pages
 * (run_huge_pages.c, drivers/uet_port_pool.c). Both follow the host. */
#define RUN_WALL_HUGE_PAGES_MIN_KIB (64u * 1024u)
static void memory(FILE *f)
{
	char line[128];
	struct rusage ru;
	FILE *smaps;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return;
	row_u64(f, "peak_rss_kib", (uint64_t)ru.ru_maxrss);
	/* smaps_rollup walks every page table of the process: a small run
	 * (which asks for no huge pages) does not pay for it. */
	if ((uint64_t)ru.ru_maxrss < RUN_WALL_HUGE_PAGES_MIN_KIB)
		return;
	smaps = fopen("/proc/self/smaps_rollup", "r");
	if (smaps == NULL)
		return;
	while (fgets(line, sizeof(line), smaps) != NULL) {
		unsigned long long kib;

		if (sscanf(line, "AnonHugePages: %llu kB", &kib) == 1) {
			row_u64(f, "huge_pages_kib", kib);
			break;
		}
	}
	fclose(smaps);
}

/* Lockstep over ports: where a window's wall time went, per window. */
static void window_costs(const struct run *run, FILE *f)
{
	struct run_window_costs c;

	if (!run_window_costs(run, &c))
		return;
	row_u64(f, "window.model_ns", c.model_ns / c.windows);
	row_u64(f, "window.rx_ns", c.rx_ns / c.windows);
	row_u64(f, "window.tx_ns", c.tx_ns / c.windows);
	row_u64(f, "window.waiting_ns", c.waiting_ns / c.windows);
	row_u64(f, "cpu_user_us",
		(run->cpu1.user_ns - run->cpu0.user_ns) / 1000u);
	row_u64(f, "cpu_system_us",
		(run->cpu1.sys_ns - run->cpu0.sys_ns) / 1000u);
}

int run_wall_csv(const struct run *run, const struct uet_run_result *r)
{
	char path[UET_CONFIG_PATH_MAX + 16], tmp[UET_CONFIG_PATH_MAX + 32];
	FILE *f;
	int rc = 0;

	run_out_path(path, sizeof(path), run->sc->run.out, "wall-time.csv");
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (f == NULL)
		return -errno;
	fprintf(f, "figure,value\n");
	row_u64(f, "setup_ms", r->setup_ns / 1000000u);
	row_u64(f, "wall_ms", r->wall_ns / 1000000u);
	if (r->windows > 0)
		row_u64(f, "window.wall_ns", r->wall_ns / r->windows);
	lcores(run, r, f);
	window_costs(run, f);
	memory(f);
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
