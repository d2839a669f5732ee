/* SPDX-License-Identifier: BSD-3-Clause */
/* The lcores of a run without run.lcores: the CPUs it may use that other
 * processes leave free (run_lcores.h). */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

#include "run_lcores.h"

int run_lcores_parse_loadavg(const char *line, struct run_lcores_sample *s)
{
	double avg1, avg5, avg15;
	uint32_t running, total;

	if (sscanf(line, "%lf %lf %lf %" SCNu32 "/%" SCNu32, &avg1, &avg5,
		   &avg15, &running, &total) != 5)
		return -EINVAL;
	s->running = running;
	return 0;
}

uint32_t run_lcores_for_free_cpus(uint32_t usable, uint32_t online,
				  const struct run_lcores_sample *samples,
				  unsigned int n, uint32_t own_running,
				  struct run_lcores_choice *c)
{
	uint32_t least = UINT32_MAX;
	uint64_t on_usable_x2;
	unsigned int i;

	c->usable = usable > 0 ? usable : 1u;
	c->online = online >= c->usable ? online : c->usable;
	c->measured = n > 0;
	for (i = 0; i < n; i++)
		if (samples[i].running < least)
			least = samples[i].running;
	c->others = n == 0 || least <= own_running ? 0 : least - own_running;
	/* Their share on the usable CPUs, twice over so that half a CPU
	 * rounds up: others x usable / online + 1/2. */
	on_usable_x2 = 2u * (uint64_t)c->others * c->usable / c->online;
	c->busy = (uint32_t)((on_usable_x2 + 1u) / 2u);
	if (c->busy > c->usable)
		c->busy = c->usable;
	c->lcores = c->usable > c->busy ? c->usable - c->busy : 1u;
	return c->lcores;
}

static int read_loadavg(struct run_lcores_sample *s)
{
	char line[128];
	FILE *f = fopen("/proc/loadavg", "r");
	int rc = -EIO;

	if (f == NULL)
		return -errno;
	if (fgets(line, sizeof(line), f) != NULL)
		rc = run_lcores_parse_loadavg(line, s);
	fclose(f);
	return rc;
}

/*
 * The read taken as the program starts, before the scenario loads: the
 * process's one piece of state here, written by its main thread before any
 * other thread exists and read by run_lcores_choose() on the same thread.
 * Spacing the reads by the set-up's own work rather than by sleeps keeps
 * a loaded machine from making the process wait for its CPU again after
 * each sleep (a few ms each when other processes are running).
 */
static struct run_lcores_sample lcores_early;
static bool lcores_early_taken;

void run_lcores_sample_early(void)
{
	lcores_early_taken = read_loadavg(&lcores_early) == 0;
}

uint32_t run_lcores_choose(struct run_lcores_choice *c)
{
	struct run_lcores_sample samples[RUN_LCORES_SAMPLES];
	unsigned int n = 0, i;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	int usable = 0;

	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		usable = CPU_COUNT(&set);
	if (lcores_early_taken)
		samples[n++] = lcores_early;
	for (i = n; i < RUN_LCORES_SAMPLES; i++)
		if (read_loadavg(&samples[n]) == 0)
			n++;
	/* The main thread, reading: the process's one runnable task. */
	return run_lcores_for_free_cpus(usable > 0 ? (uint32_t)usable : 1u,
					online > 0 ? (uint32_t)online : 1u,
					samples, n, 1u, c);
}

void run_lcores_why(const struct run_lcores_choice *c, char *buf, size_t len)
{
	if (!c->measured)
		snprintf(buf, len,
			 "%" PRIu32 " CPU%s usable; the run queue could not "
			 "be read",
			 c->usable, c->usable == 1 ? "" : "s");
	else
		snprintf(buf, len,
			 "%" PRIu32 " CPU%s usable, %" PRIu32
			 " busy with other processes",
			 c->usable, c->usable == 1 ? "" : "s", c->busy);
}
