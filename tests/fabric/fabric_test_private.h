/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric's private state (lib/fabric/private/fabric_private.h), for
 * the tests and tools that look inside it: the FIFO of a queue, the bytes
 * an idle port holds. The one way in from tests/: the executables that
 * include this header are given lib/fabric/private
 * (uet_fabric_private_inc), which the fabric's dependants are not.
 */
#ifndef FABRIC_TEST_PRIVATE_H
#define FABRIC_TEST_PRIVATE_H

#include "fabric_private.h"

#endif /* FABRIC_TEST_PRIVATE_H */
