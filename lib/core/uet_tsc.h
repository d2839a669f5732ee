/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU's time-stamp counter frequency, measured against the kernel's
 * CLOCK_MONOTONIC_RAW over a short interval.
 *
 * DPDK's EAL needs this figure at start. It asks the CPU first (CPUID leaf
 * 0x15, or an MSR); where the CPU will not say, which is the usual case in
 * a virtual machine, the EAL sleeps 100 ms and counts. Each end of a
 * bracketed measurement is off by tens of ns, so over 250 us the figure is
 * within some 40 ppm (measured on the 2-CPU VM under load: 12 ppm on
 * average, 38 at worst, over 200 us), about a hundred times finer than
 * the 10 MHz (0.45% at 2.2 GHz) the EAL rounds it to. The programs take
 * the first end when they start and the second when the EAL asks, some
 * hundreds of us of set-up later, napping only if fewer than
 * UET_TSC_CALIBRATION_US have passed (uet_eal_tsc_wrap.c): a run starts
 * without the EAL's 100 ms sleep, and, since uet-emu reaches the EAL
 * about 0.6 ms after its start, without any sleep. (A least interval of
 * 2 ms made a 16-host run nap about 1.2 ms, a fifth of its wall time.)
 */
#ifndef UET_TSC_H
#define UET_TSC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The resolution the EAL keeps: its figure is a multiple of 10 MHz. */
#define UET_TSC_HZ_STEP UINT64_C(10000000)

/** The least interval a figure for the EAL is measured over, us. */
#define UET_TSC_CALIBRATION_US 250u

/** One end of a measurement: the counter and the clock at one instant. */
struct uet_tsc_mark {
	uint64_t ns;  /**< CLOCK_MONOTONIC_RAW, ns */
	uint64_t tsc; /**< the time-stamp counter then */
};

/**
 * Take one end of a measurement: a counter read between two clock reads,
 * the tightest of a few pairs (so a preemption at that end costs one more
 * pair, not the figure).
 *
 * @return
 *   0, or -1 on a CPU without a time-stamp counter the project knows how
 *   to read (not x86-64), or when the clock cannot be read.
 */
int uet_tsc_mark_take(struct uet_tsc_mark *mark);

/**
 * The time-stamp counter's frequency in Hz, measured from @p start to
 * now, after a nap if fewer than @p us microseconds (at least 1) have
 * passed since @p start. 0 when the counter or the clock cannot be read.
 */
uint64_t uet_tsc_hz_since(const struct uet_tsc_mark *start, unsigned int us);

/**
 * The time-stamp counter's frequency in Hz, measured over @p ms
 * milliseconds (at least 1) from now: uet_tsc_hz_since() from a mark taken
 * now. 0 as uet_tsc_hz_since().
 */
uint64_t uet_tsc_calibrate_hz(unsigned int ms);

/** @p hz rounded to the nearest multiple of UET_TSC_HZ_STEP. */
uint64_t uet_tsc_round_hz(uint64_t hz);

#ifdef __cplusplus
}
#endif

#endif /* UET_TSC_H */
