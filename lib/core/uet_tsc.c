/* SPDX-License-Identifier: BSD-3-Clause */
#include "uet_tsc.h"

#include <time.h>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#define NS_PER_S UINT64_C(1000000000)
#define NS_PER_US UINT64_C(1000)
#define US_PER_MS 1000u

/* Pairs tried per end of the interval: one preempted read in a few is
 * common on a loaded 2-CPU machine, two in a row is not. */
#define TSC_PAIRS 5

static int mono_raw_ns(uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC_RAW, &ts) != 0)
		return -1;
	*ns = (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
	return 0;
}

#if defined(__x86_64__)
/* One end of the interval: the counter read between two clock reads, the
 * pair with the least time between its clock reads, and the clock taken
 * at its midpoint. The error is half that gap, tens of ns. */
static int tsc_sample(uint64_t *ns, uint64_t *tsc)
{
	uint64_t best_gap = UINT64_MAX;
	int i;

	for (i = 0; i < TSC_PAIRS; i++) {
		uint64_t before, after, t;

		if (mono_raw_ns(&before) < 0)
			return -1;
		t = __rdtsc();
		if (mono_raw_ns(&after) < 0)
			return -1;
		if (after - before < best_gap) {
			best_gap = after - before;
			*ns = before + best_gap / 2;
			*tsc = t;
		}
	}
	return 0;
}
#endif

int uet_tsc_mark_take(struct uet_tsc_mark *mark)
{
#if defined(__x86_64__)
	return tsc_sample(&mark->ns, &mark->tsc) < 0 ? -1 : 0;
#else
	(void)mark;
	return -1;
#endif
}

uint64_t uet_tsc_hz_since(const struct uet_tsc_mark *start, unsigned int us)
{
#if defined(__x86_64__)
	const uint64_t least_ns = (uint64_t)(us != 0 ? us : 1u) * NS_PER_US;
	struct uet_tsc_mark end;

	if (uet_tsc_mark_take(&end) < 0)
		return 0;
	if (end.ns < start->ns + least_ns) {
		const uint64_t left_ns = start->ns + least_ns - end.ns;
		struct timespec nap = {
			.tv_sec = (time_t)(left_ns / NS_PER_S),
			.tv_nsec = (long)(left_ns % NS_PER_S),
		};

		/* A signal may cut the nap short; the interval is measured,
		 * not assumed, so a shorter one only costs precision. */
		(void)nanosleep(&nap, NULL);
		if (uet_tsc_mark_take(&end) < 0)
			return 0;
	}
	if (end.ns <= start->ns || end.tsc <= start->tsc)
		return 0;
	return (uint64_t)((unsigned __int128)(end.tsc - start->tsc) * NS_PER_S /
			  (end.ns - start->ns));
#else
	(void)start;
	(void)us;
	return 0;
#endif
}

uint64_t uet_tsc_calibrate_hz(unsigned int ms)
{
	struct uet_tsc_mark start;

	if (uet_tsc_mark_take(&start) < 0)
		return 0;
	return uet_tsc_hz_since(&start, (ms != 0 ? ms : 1u) * US_PER_MS);
}

uint64_t uet_tsc_round_hz(uint64_t hz)
{
	return (hz + UET_TSC_HZ_STEP / 2) / UET_TSC_HZ_STEP * UET_TSC_HZ_STEP;
}
