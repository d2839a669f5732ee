/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a run needs of the machine (mbufs, EAL memory, lcores), derived
 * from the scenario before EAL starts (run_sizing.c).
 */
#ifndef RUN_SIZING_H
#define RUN_SIZING_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_config.h"
#include "uet_run.h"
#include "run_lcores.h"

/** The figures, and what they came from. */
struct run_sizing {
	uint32_t lcores; /**< EAL lcores to ask for */
	/** Without run.lcores: the free CPUs lcores came from (else zero). */
	struct run_lcores_choice lcores_choice;
	/** Without run.lcores: one lcore, the fabric being small
	 * (SIZING_ONE_LCORE_HOSTS). */
	bool small_fabric;
	uint32_t mbufs;		/**< the pool's size (run.mbufs, or derived) */
	uint32_t derived_mbufs; /**< what the scenario derives */
	bool derived;		/**< mbufs is derived_mbufs */
	uint32_t mbuf_data_bytes; /**< data room of each mbuf */
	/** Embedded: mbufs of the payload pool (one a data frame, attached
	 * to the pattern); 0: payloads take mbufs of the one pool. */
	uint32_t payload_mbufs;
	uint64_t pool_bytes;	/**< memory the pools take, full */
	uint32_t eal_mem_mb;	/**< EAL -m */
	uint64_t groups;	/**< windows that can be open at once */
	uint64_t window_frames; /**< frames of the largest window */
	uint64_t frames;	/**< frames the roles can hold at once */
	/** Frames in flight when every window is open once: what the run
	 * is expected to hold at its peak (frames allows retransmitted
	 * copies too). */
	uint64_t expected_frames;
	uint64_t model_bytes;	 /**< the models' memory, expected */
	uint64_t messages;	 /**< workload messages of the hosted NICs */
	uint64_t messages_bytes; /**< their memory, expected */
	uint64_t frames_bytes;	 /**< expected_frames' memory */
	uint64_t expected_bytes; /**< the run's peak memory, expected */
	/** Address space the run reserves: EAL's memory, the expected peak,
	 * the pools' rings (against RLIMIT_AS). */
	uint64_t reserved_bytes;
};

/**
 * Size a run of role (hosting NICs first..first+count-1).
 *
 * @param prog
 *   Prefix of the message printed when the machine cannot take it.
 * @return
 *   0; -ENOMEM (the machine has less memory available than the run needs;
 *   a message names the figure and run.mbufs); what loading the workload
 *   returned (its message printed).
 */
int run_size(const struct uet_scenario *sc, enum uet_run_role role,
	     uint32_t first, uint32_t count, const char *prog,
	     struct run_sizing *sizing);

#endif /* RUN_SIZING_H */
