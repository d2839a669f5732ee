/* SPDX-License-Identifier: BSD-3-Clause */
/* uet-emu's wiring: the embedded run of a scenario (switch and every NIC in
 * one process over ring ports), from a loaded scenario to the records. */
#ifndef EMU_WIRING_H
#define EMU_WIRING_H

#include <stdint.h>

#include "uet_config.h"

/** What a run ended with. */
struct emu_result {
	uint32_t messages;     /**< messages in the workload */
	uint32_t completed;    /**< messages whose sender completed */
	int sync_err;	       /**< 0, or the lockstep error (negative) */
	uet_time_t virtual_ps; /**< ps, virtual time reached */
	uint64_t windows;      /**< lockstep windows */
	uint64_t events;       /**< events run, every component */
	uint64_t wall_ns;      /**< wall time of the run */
};

/**
 * Run a scenario in embedded lockstep mode (EAL must be initialised):
 * mempool, one ring port pair per NIC, the fabric and the NICs, records and
 * captures in run.out, the workload's messages posted, the run, and a
 * summary of the messages that did not complete on stderr.
 *
 * @param sc
 *   The loaded scenario.
 * @param res
 *   Filled in (also when the run fails).
 * @return
 *   0 when the run ended with BYE (res says how many messages completed),
 *   or a negative errno with a message printed on stderr.
 */
int emu_run(const struct uet_scenario *sc, struct emu_result *res);

#endif /* EMU_WIRING_H */
