/* SPDX-License-Identifier: BSD-3-Clause */
/* uet-emu's wiring: the embedded run of a scenario (switch and every NIC in
 * one process over ring ports), from a loaded scenario to the records. */
#ifndef EMU_WIRING_H
#define EMU_WIRING_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_config.h"

/** What a run ended with. */
struct emu_result {
	uint32_t messages;     /**< messages in the workload */
	uint32_t completed;    /**< messages whose sender completed */
	bool workload;	       /**< a Chakra program ran (not a list) */
	bool workload_done;    /**< ... and every rank's trace finished */
	int sync_err;	       /**< 0, or the lockstep error (negative) */
	uet_time_t virtual_ps; /**< ps, virtual time reached */
	uint64_t windows;      /**< lockstep windows */
	uint64_t events;       /**< events run, every component */
	uint64_t wall_ns;      /**< wall time of the run */
	uint64_t frames;       /**< frames the switch received from NICs */
	uint64_t switch_drops; /**< frames the switch dropped (any reason) */
	/* Integrity of the run, summed over the NICs: */
	uint64_t payload_mismatches; /**< delivered bytes unlike those sent */
	uint64_t in_flight_anomalies; /**< in-flight bytes would go negative */
	uint64_t psns_taken;	     /**< data PSNs created */
	uint64_t psns_retired;	     /**< data PSNs acknowledged */
};

/** Whether a finished run kept every promise the data path makes: every
 * delivered byte equal to what was sent, in-flight bytes never negative,
 * every PSN retired exactly once. */
static inline int
emu_result_intact(const struct emu_result *r)
{
	return r->payload_mismatches == 0 && r->in_flight_anomalies == 0 &&
	       r->psns_retired == r->psns_taken;
}

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
