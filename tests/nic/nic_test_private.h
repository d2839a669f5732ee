/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The NIC's private state (lib/nic/private/nic_private.h), for the tests
 * that check what its public interface does not show: the ring of closed
 * receiving sides, the ring of turns, a PDC's counters. The one way in
 * from tests/: the test executables that include this header are given
 * lib/nic/private (uet_nic_private_inc), which the NIC's dependants are
 * not.
 */
#ifndef NIC_TEST_PRIVATE_H
#define NIC_TEST_PRIVATE_H

#include "nic_private.h"

#endif /* NIC_TEST_PRIVATE_H */
