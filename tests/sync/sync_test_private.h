/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sync's private parts (lib/sync/private/), for the unit tests that
 * check them on their own: the futex park, the lcores' shares of the
 * parts, the stealing of parts, the window engine, a frame's coding
 * over ranks. The one way in from
 * tests/: the test executables that include this header are given
 * lib/sync/private (uet_sync_private_inc), which lib/sync's dependants
 * are not.
 */
#ifndef SYNC_TEST_PRIVATE_H
#define SYNC_TEST_PRIVATE_H

#include "sync_engine.h"
#include "sync_mpi_frame.h"
#include "sync_park.h"
#include "sync_share.h"
#include "sync_steal.h"
#include "sync_team.h"

#endif /* SYNC_TEST_PRIVATE_H */
