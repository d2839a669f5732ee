/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU's time-stamp counter frequency, measured against the kernel's
 * CLOCK_MONOTONIC_RAW over a short interval.
 *
 * DPDK's EAL needs this figure at start. It asks the CPU first (CPUID leaf
 * 0x15, or an MSR); where the CPU will not say, which is the usual case in
 * a virtual machine, the EAL sleeps 100 ms and counts. A bracketed
 * measurement over 10 ms is as exact as the EAL keeps it (it rounds to
 * 10 MHz), so the programs measure for 10 ms instead (uet_eal_tsc_wrap.c)
 * and a run starts 90 ms sooner.
 */
#ifndef UET_TSC_H
#define UET_TSC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The resolution the EAL keeps: its figure is a multiple of 10 MHz. */
#define UET_TSC_HZ_STEP UINT64_C(10000000)

/** How long uet_tsc_calibrate_hz() measures for the EAL. */
#define UET_TSC_CALIBRATION_MS 10u

/**
 * The time-stamp counter's frequency in Hz, measured over @p ms
 * milliseconds (at least 1): each end of the interval is a counter read
 * between two clock reads, the tightest of a few pairs, so a preemption
 * at either end costs one more pair, not the figure. 0 on a CPU without a
 * time-stamp counter the project knows how to read (not x86-64), or when
 * the clock cannot be read.
 */
uint64_t uet_tsc_calibrate_hz(unsigned int ms);

/** @p hz rounded to the nearest multiple of UET_TSC_HZ_STEP. */
uint64_t uet_tsc_round_hz(uint64_t hz);

#ifdef __cplusplus
}
#endif

#endif /* UET_TSC_H */
