/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A team of lcores that runs the windows of a component made of parts
 * (lib/core/uet_component.h): uet-switch's fabric on run.lcores lcores,
 * under the coordinator's clock, as uet-emu's lcores run it under the
 * in-process lockstep.
 *
 * The calling lcore is member 0 and runs the serial steps (the
 * component's window_begin and window_end); the others wait parked
 * between windows (sync_park.h). Within a window each member runs its
 * own contiguous run of parts, of about equal weight (sync_share.h), then
 * takes the last parts of the others' runs (sync_steal.h). A part's
 * inputs and outputs are its own, so which member ran it changes nothing:
 * a window's result is the serial uet_component_run_window()'s, errors
 * included (the first failure in part order is the one kept).
 *
 * A component's out hook, called as its parts run, may ask which member
 * calls it and which step it is in (sync_team_self(), sync_team_step()),
 * to keep per-member state and to order its own failures as the parts'.
 */
#ifndef SYNC_TEAM_H
#define SYNC_TEAM_H

#include <stdint.h>

#include "uet_component.h"
#include "uet_time.h"

struct sync_team;

/** The step of a window that runs before every part (window_begin). */
#define SYNC_TEAM_STEP_BEGIN 0u
/** The step after every part (window_end), and outside any window. */
#define SYNC_TEAM_STEP_END UINT32_MAX

/**
 * Make a team of n members: the calling lcore (the EAL's main lcore),
 * then the first n - 1 worker lcores, started at once and parked.
 *
 * @return
 *   0; -EINVAL if comp has no parts (or no part_run) or n is 0;
 *   -ERANGE if the EAL has fewer than n lcores; -ENOMEM; or what
 *   rte_eal_remote_launch() returned (the members started are stopped).
 */
int sync_team_create(struct sync_team **tp, struct uet_component *comp,
		     uint32_t n);

/** Members, the calling lcore included. */
uint32_t sync_team_size(const struct sync_team *t);

/**
 * Run the window [start_ps, end_ps) of the component on every member:
 * what uet_component_run_window() does, its parts side by side.
 *
 * @return
 *   events run, or the error of the first failing step in order:
 *   window_begin, the parts by index, window_end.
 */
int64_t sync_team_run_window(struct sync_team *t, uet_time_t start_ps,
			     uet_time_t end_ps);

/** The calling lcore's member index in the team running now, 0 outside
 * any team's workers (the calling lcore itself is member 0). */
uint32_t sync_team_self(void);

/**
 * The step the calling member is in: SYNC_TEAM_STEP_BEGIN, 1 + the part it
 * runs, or SYNC_TEAM_STEP_END. Steps order failures as the serial run
 * meets them.
 */
uint32_t sync_team_step(void);

/** Stop the members and free the team (NULL: nothing). */
void sync_team_free(struct sync_team *t);

#endif /* SYNC_TEAM_H */
