/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How many lcores a run takes when run.lcores does not say: one per CPU it
 * may use that no other process is keeping busy.
 *
 * The lcores of a run meet at a barrier every window, so the run goes at
 * the pace of its slowest lcore: one that shares its CPU with a CPU-bound
 * process gets half of it, and waits out the other's time slices at the
 * barrier (the 16-host incast's loop went from 26 to 110 ms with one CPU
 * of two taken, the 1,024-host run from 1.7 s to 3.7-4.1 s). Records are
 * byte-identical for any lcore count, so the choice changes the wall time
 * only.
 *
 * "Busy" is read from the run queue: the tasks of other processes that
 * are runnable (running, or waiting for a CPU), the fourth field of
 * /proc/loadavg, which the kernel counts at the moment it is read. A
 * CPU-bound process is runnable at every read; a task that wakes for a
 * moment (a kernel worker, a shell) is seldom runnable at each of a few
 * reads apart, so the least of them counts: one as the program starts
 * (run_lcores_sample_early()), the others when the lcores are chosen,
 * after the scenario has loaded. The per-CPU times of /proc/stat
 * would say which CPU is busy, but they advance in 10 ms steps: telling a
 * busy CPU from an idle one takes some 100 ms of sampling, more than the
 * whole set-up of a small run.
 */
#ifndef RUN_LCORES_H
#define RUN_LCORES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Reads of the run queue the choice takes the least of. */
#define RUN_LCORES_SAMPLES 2u

/** One read of /proc/loadavg. */
struct run_lcores_sample {
	uint32_t running; /**< runnable tasks of the machine, ours included */
};

/** The choice and what it was made from. */
struct run_lcores_choice {
	uint32_t usable; /**< CPUs in the process's affinity mask */
	uint32_t online; /**< CPUs the machine has on line */
	uint32_t others; /**< other processes' runnable tasks (least read) */
	uint32_t busy;	 /**< of the usable CPUs, those taken by them */
	uint32_t lcores; /**< usable - busy, at least 1 */
	bool measured;	 /**< the run queue could be read */
};

/**
 * Parse one /proc/loadavg line ("0.70 0.99 0.52 3/180 12345").
 *
 * @return
 *   0, or -EINVAL when the line has no "running/total" field.
 */
int run_lcores_parse_loadavg(const char *line, struct run_lcores_sample *s);

/**
 * The rule: the lcores for @p usable CPUs (at least 1) of @p online, from
 * @p n reads of the run queue taken while this process had @p own_running
 * runnable tasks. Other processes' tasks are the least read less ours;
 * when the process may use only some of the machine's CPUs they are
 * assumed spread evenly over all of them. The CPUs they take are their
 * count on the usable CPUs rounded to the nearest (half a CPU's worth of
 * other work is a CPU taken), at most the usable CPUs; the run takes the
 * rest, and at least one. With no read (n == 0) it takes every usable CPU.
 *
 * @return
 *   c->lcores.
 */
uint32_t run_lcores_for_free_cpus(uint32_t usable, uint32_t online,
				  const struct run_lcores_sample *samples,
				  unsigned int n, uint32_t own_running,
				  struct run_lcores_choice *c);

/**
 * Read the run queue as the program starts, for run_lcores_choose(): from
 * the main thread, before any other thread of the process starts.
 */
void run_lcores_sample_early(void);

/**
 * Choose the lcores of this process now: its affinity mask, the CPUs on
 * line, and RUN_LCORES_SAMPLES reads of /proc/loadavg (the early one if
 * it was taken, then reads now), by run_lcores_for_free_cpus(). Called
 * from the main thread before any other thread of the process starts (its
 * own runnable tasks are then 1).
 *
 * @return
 *   c->lcores.
 */
uint32_t run_lcores_choose(struct run_lcores_choice *c);

/**
 * "2 CPUs usable, 1 busy with other processes" (or "... the run queue
 * could not be read"), for the sizing line and the summary.
 */
void run_lcores_why(const struct run_lcores_choice *c, char *buf, size_t len);

#endif /* RUN_LCORES_H */
