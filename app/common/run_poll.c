/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lockstep over ports: the hosted roles (the coordinator, the NICs'
 * participants) polled round-robin in this thread until the run ends,
 * yielding and then napping when a round moves nothing, so that the
 * processes sharing two CPUs are not held up by a spinner; and where each
 * window's wall time went (docs/lockstep.md, "Where a window's wall time
 * goes").
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/prctl.h>
#include <sys/resource.h>

#include <rte_lcore.h>

#include "uet_sync_ports.h"
#include "run_private.h"

/* After a failure (or a stop), poll every role twice more so that the
 * ABORTs in flight reach their peers. */
static void run_drain(struct run *run)
{
	uint32_t round, i;

	for (round = 0; round < 2; round++) {
		if (run->co != NULL)
			(void)uet_sync_coordinator_poll(run->co);
		for (i = 0; i < run->count; i++)
			(void)uet_sync_participant_poll(run->pa[i]);
	}
}

/* Idle rounds (nothing received or sent) a process spins through,
 * yielding, before it sleeps between rounds. */
#define RUN_IDLE_SPINS 8u
/* How long an idle process sleeps between rounds, us (UET_IDLE_SLEEP_US
 * overrides it; 0: yield only, as before). */
#define RUN_IDLE_SLEEP_US 50u

/* Frames the hosted roles have received and sent: a round that leaves it
 * unchanged did nothing. */
static uint64_t run_frames_moved(const struct run *run)
{
	struct uet_sync_stats st;
	uint64_t n = 0;
	uint32_t i;

	if (run->co != NULL) {
		uet_sync_coordinator_stats(run->co, &st);
		n += st.ctrl_frames_rx + st.data_frames_rx + st.foreign_frames +
		     st.ctrl_frames_tx + st.data_frames_tx;
	}
	for (i = 0; i < run->count; i++) {
		uet_sync_participant_stats(run->pa[i], &st);
		n += st.ctrl_frames_rx + st.data_frames_rx + st.foreign_frames +
		     st.ctrl_frames_tx + st.data_frames_tx;
	}
	return n;
}

static uint32_t run_idle_sleep_us(void)
{
	const char *v = getenv("UET_IDLE_SLEEP_US");

	return v != NULL && *v != '\0' ? (uint32_t)strtoul(v, NULL, 10)
				       : RUN_IDLE_SLEEP_US;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * UINT64_C(1000000000) +
	       (uint64_t)tv->tv_usec * 1000u;
}

/* The process's CPU time and context switches so far. */
static void run_cpu_now(struct run_cpu *c, uint64_t naps)
{
	struct timespec ts;
	struct rusage ru;

	memset(c, 0, sizeof(*c));
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return;
	c->user_ns = tv_ns(&ru.ru_utime);
	c->sys_ns = tv_ns(&ru.ru_stime);
	c->vcsw = (uint64_t)ru.ru_nvcsw;
	c->ivcsw = (uint64_t)ru.ru_nivcsw;
	c->faults = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
	c->naps = naps;
	c->mono_ns = run_wall_ns();
	if (clock_gettime(CLOCK_REALTIME, &ts) == 0)
		c->real_ns = (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
			     (uint64_t)ts.tv_nsec;
}

/* Whether every role hosted here is past the handshake. */
static bool run_started(const struct run *run)
{
	struct uet_sync_stats st;
	uint32_t i;

	if (run->co != NULL) {
		uet_sync_coordinator_stats(run->co, &st);
		if (st.windows == 0)
			return false;
	}
	for (i = 0; i < run->count; i++)
		if (!uet_sync_participant_welcomed(run->pa[i]))
			return false;
	return true;
}

/* Poll every hosted role once, the coordinator first, then the NICs in
 * host order. @return 1 some role runs on, 0 all finished, or the first
 * failure. */
static int run_round(struct run *run)
{
	bool running = false;
	uint32_t i;
	int rc;

	if (run->co != NULL) {
		rc = uet_sync_coordinator_poll(run->co);
		if (rc < 0)
			return rc;
		running = rc == UET_SYNC_RUNNING;
	}
	for (i = 0; i < run->count; i++) {
		rc = uet_sync_participant_poll(run->pa[i]);
		if (rc < 0)
			return rc;
		if (rc == UET_SYNC_RUNNING)
			running = true;
	}
	return running ? 1 : 0;
}

/*
 * Poll the hosted roles round-robin until all have finished or one fails.
 * Across processes a round that finds nothing to do yields the CPU to the
 * peers, and after a few such rounds the process sleeps 50 us between
 * rounds: on two CPUs shared by three processes a yielding spinner still
 * holds its CPU for its time slice, so the peer it waits for ran
 * milliseconds late (docs/lockstep.md, "Where a window's wall time goes").
 * A uet-nic on several lcores runs the handshake here, then its windows on
 * the lcores (run_nic_lcores.c).
 */
static int run_poll_rounds(struct run *run, uint64_t *naps_out)
{
	const volatile sig_atomic_t *stop = run->conf->stop;
	bool yield = run->conf->role != UET_RUN_EMBEDDED;
	bool lcores = run_nic_lcores(run) > 1, started = false;
	struct timespec nap = {0, 0};
	uint64_t moved = 0, now_moved, *naps = naps_out;
	uint32_t idle = 0, sleep_us = yield ? run_idle_sleep_us() : 0;
	int rc;

	nap.tv_nsec = (long)sleep_us * 1000L;
	if (sleep_us > 0)
		(void)prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);

	for (;;) {
		if (stop != NULL && *stop) {
			fprintf(stderr, "%s: stopped by a signal\n", run->prog);
			return -EINTR;
		}
		rc = run_round(run);
		if (rc < 0) {
			run_drain(run);
			return rc;
		}
		if (rc == 0)
			break;
		if (!started && run_started(run)) {
			/* The windows start: what went before is set-up. */
			started = true;
			run_cpu_now(&run->cpu0, *naps);
			if (lcores)
				break;
		}
		if (!yield)
			continue;
		now_moved = sleep_us > 0 ? run_frames_moved(run) : 0;
		if (now_moved != moved) {
			moved = now_moved;
			idle = 0;
		}
		if (sleep_us > 0 && ++idle > RUN_IDLE_SPINS) {
			(void)nanosleep(&nap, NULL);
			(*naps)++;
		} else {
			sched_yield();
		}
	}
	if (rc > 0 && lcores) {
		rc = run_poll_nic_lcores(run);
		if (rc == -EINTR)
			fprintf(stderr, "%s: stopped by a signal\n", run->prog);
		else if (rc < 0)
			run_drain(run);
	}
	return rc;
}

/* The rounds, and the process's CPU time over them. */
int run_poll(struct run *run)
{
	uint64_t naps = 0;
	int rc;

	run_cpu_now(&run->cpu0, 0);
	rc = run_poll_rounds(run, &naps);
	run_cpu_now(&run->cpu1, naps);
	return rc;
}

/*
 * Where a lockstep window's wall time went in this process (docs/lockstep.md,
 * "Where a window's wall time goes"): in the models, in rx (bursts, trailers
 * off, control frames parsed) and tx (bursts: the PMD's copy, the kernel's
 * send), and the rest waiting for a peer. A uet-nic sums its NICs' figures;
 * on several lcores its waiting is the wall time less the busy time of an
 * average lcore.
 */
bool run_window_costs(const struct run *run, struct run_window_costs *c)
{
	struct uet_sync_stats st;
	uint64_t busy_ns;
	uint32_t i;

	memset(c, 0, sizeof(*c));
	c->lcores = 1;
	if (run->co != NULL) {
		uet_sync_coordinator_stats(run->co, &st);
		c->model_ns = st.wall_model_ns;
		c->rx_ns = st.wall_rx_ns;
		c->tx_ns = st.wall_tx_ns;
		c->wall_ns = st.wall_ns;
		c->windows = st.windows;
		c->ctrl_frames = st.ctrl_frames_rx + st.ctrl_frames_tx;
		c->data_frames = st.data_frames_rx + st.data_frames_tx;
		c->rx_bursts = st.rx_bursts;
		c->tx_bursts = st.tx_bursts;
	} else {
		c->lcores = run_nic_lcores(run);
		for (i = 0; run->pa != NULL && i < run->count; i++) {
			uet_sync_participant_stats(run->pa[i], &st);
			c->model_ns += st.wall_model_ns;
			c->rx_ns += st.wall_rx_ns;
			c->tx_ns += st.wall_tx_ns;
			c->ctrl_frames += st.ctrl_frames_rx + st.ctrl_frames_tx;
			c->data_frames += st.data_frames_rx + st.data_frames_tx;
			c->rx_bursts += st.rx_bursts;
			c->tx_bursts += st.tx_bursts;
			if (st.wall_ns > c->wall_ns)
				c->wall_ns = st.wall_ns;
			if (st.windows > c->windows)
				c->windows = st.windows;
		}
	}
	if (c->windows == 0 || c->wall_ns == 0)
		return false;
	busy_ns = (c->model_ns + c->rx_ns + c->tx_ns) / c->lcores;
	c->waiting_ns = c->wall_ns > busy_ns ? c->wall_ns - busy_ns : 0;
	return true;
}

/*
 * The figures of run_window_costs() per window on stderr, then the
 * process's CPU time, context switches, naps and page faults per window,
 * and when the windows ran (for perf report --time on a perf record -k
 * CLOCK_MONOTONIC).
 */
void run_window_split(const struct run *run)
{
	const struct run_cpu *a = &run->cpu0, *b = &run->cpu1;
	struct run_window_costs c;
	unsigned int lcores;
	double w;

	if (!run_window_costs(run, &c))
		return;
	/* The switch's model step is timed on its main lcore, the team of
	 * lcores that runs its parts included: its lcores are those. */
	lcores = run->co != NULL ? rte_lcore_count() : c.lcores;
	w = (double)c.windows;
	fprintf(stderr,
		"%s: wall per lockstep window: %.1f us: model %.1f, rx %.1f, "
		"tx %.1f, waiting %.1f (%" PRIu64 " windows, %.3f ms; %u "
		"lcore%s)\n",
		run->prog, (double)c.wall_ns / 1e3 / w,
		(double)c.model_ns / 1e3 / w, (double)c.rx_ns / 1e3 / w,
		(double)c.tx_ns / 1e3 / w, (double)c.waiting_ns / 1e3 / w,
		c.windows, (double)c.wall_ns / 1e6, lcores,
		lcores > 1 ? "s" : "");
	fprintf(stderr,
		"%s: frames per lockstep window: %.1f data and %.1f control "
		"(in and out), %.2f rx and %.2f tx bursts\n",
		run->prog, (double)c.data_frames / w, (double)c.ctrl_frames / w,
		(double)c.rx_bursts / w, (double)c.tx_bursts / w);
	/* The whole process (every lcore, the kernel's work in its system
	 * calls), from the end of the handshake to the last window. */
	fprintf(stderr,
		"%s: CPU per lockstep window: user %.1f us, system %.1f us; "
		"%.2f voluntary and %.2f involuntary context switches, %.2f "
		"naps, %.1f page faults; windows from %.6f to %.6f s "
		"(CLOCK_MONOTONIC), %.6f to %.6f (CLOCK_REALTIME)\n",
		run->prog, (double)(b->user_ns - a->user_ns) / 1e3 / w,
		(double)(b->sys_ns - a->sys_ns) / 1e3 / w,
		(double)(b->vcsw - a->vcsw) / w,
		(double)(b->ivcsw - a->ivcsw) / w,
		(double)(b->naps - a->naps) / w,
		(double)(b->faults - a->faults) / w, (double)a->mono_ns / 1e9,
		(double)b->mono_ns / 1e9, (double)a->real_ns / 1e9,
		(double)b->real_ns / 1e9);
}
