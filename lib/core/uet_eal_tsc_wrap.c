/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The EAL's fallback TSC calibration, shortened (uet_tsc.h says why).
 *
 * Only in a static DPDK link (-Ddpdk_link=static): meson.build links every
 * program with -Wl,--wrap=get_tsc_freq, so the EAL's own call of its Linux
 * calibration (in eal_common_timer.c, an object apart from eal_timer.c,
 * where the function lives) comes here. It is reached only when the CPU
 * did not say its frequency. Every program links lib/core, which is why
 * this file is here; it uses no DPDK header, since the EAL's own
 * declaration is private to it.
 */
#include <stdint.h>

#include "uet_tsc.h"

uint64_t __real_get_tsc_freq(void);
uint64_t __wrap_get_tsc_freq(void);

uint64_t __wrap_get_tsc_freq(void)
{
	uint64_t hz = uet_tsc_calibrate_hz(UET_TSC_CALIBRATION_MS);

	/* The EAL's 100 ms measurement when ours cannot be made. */
	if (hz == 0)
		return __real_get_tsc_freq();
	return uet_tsc_round_hz(hz);
}
