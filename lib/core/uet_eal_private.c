/* SPDX-License-Identifier: BSD-3-Clause */
/* Whether the EAL serves this process alone (uet_eal_private.h). */
#include "uet_eal_private.h"

/* Written by the main thread before rte_eal_init(), read during it. */
static bool eal_private;

void uet_eal_private_set(bool private_eal)
{
	eal_private = private_eal;
}

bool uet_eal_private(void)
{
	return eal_private;
}
