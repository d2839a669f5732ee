/* SPDX-License-Identifier: BSD-3-Clause */
/* The embedded mode: every role of a run polled round-robin in one thread
 * over ring ports. */
#include <stdbool.h>

#include "uet_sync_ports.h"

/* After the first error, poll every role once more so that the ABORTs in
 * flight reach their peers and each role records why it stopped. */
static void drain(struct uet_sync_coordinator *c,
		  struct uet_sync_participant *const *parts, uint32_t n)
{
	uint32_t round, i;

	for (round = 0; round < 2; round++) {
		(void)uet_sync_coordinator_poll(c);
		for (i = 0; i < n; i++)
			(void)uet_sync_participant_poll(parts[i]);
	}
}

int uet_sync_run_embedded(struct uet_sync_coordinator *c,
			  struct uet_sync_participant *const *parts, uint32_t n)
{
	for (;;) {
		bool running;
		uint32_t i;
		int rc;

		rc = uet_sync_coordinator_poll(c);
		if (rc < 0) {
			drain(c, parts, n);
			return rc;
		}
		running = rc == UET_SYNC_RUNNING;
		for (i = 0; i < n; i++) {
			rc = uet_sync_participant_poll(parts[i]);
			if (rc < 0) {
				drain(c, parts, n);
				return rc;
			}
			if (rc == UET_SYNC_RUNNING)
				running = true;
		}
		if (!running)
			return 0;
	}
}
