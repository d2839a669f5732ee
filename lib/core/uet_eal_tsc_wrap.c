/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The EAL's fallback TSC calibration, measured across the program's own
 * set-up rather than a sleep (uet_tsc.h says why).
 *
 * Only in a static DPDK link (-Ddpdk_link=static): meson.build links every
 * program with -Wl,--wrap=get_tsc_freq, so the EAL's own call of its Linux
 * calibration (in eal_common_timer.c, an object apart from eal_timer.c,
 * where the function lives) comes here. It is reached only when the CPU
 * did not say its frequency. Every program links lib/core, which is why
 * this file is here; it uses no DPDK header, since the EAL's own
 * declaration is private to it.
 */
#include <stdbool.h>
#include <stdint.h>

#include "uet_tsc.h"

uint64_t __real_get_tsc_freq(void);
uint64_t __wrap_get_tsc_freq(void);

/* The first end of the measurement, taken as the program starts (before
 * main()), so that the set-up before the EAL asks is the interval. Written
 * once, before any thread is started. */
static struct uet_tsc_mark eal_tsc_start;
static bool eal_tsc_started;

static void __attribute__((constructor)) eal_tsc_mark_start(void)
{
	eal_tsc_started = uet_tsc_mark_take(&eal_tsc_start) == 0;
}

uint64_t __wrap_get_tsc_freq(void)
{
	uint64_t hz = eal_tsc_started ? uet_tsc_hz_since(&eal_tsc_start,
							 UET_TSC_CALIBRATION_US)
				      : 0;

	/* The EAL's 100 ms measurement when ours cannot be made. */
	if (hz == 0)
		return __real_get_tsc_freq();
	return uet_tsc_round_hz(hz);
}
