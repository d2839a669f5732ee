/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Classification: the traffic class a packet takes in a switch port, from
 * its codepoint's role under the UET policy, or DSCP / 8 otherwise.
 */
#include <stdbool.h>
#include <stdint.h>

#include "uet_fabric.h"

unsigned int uet_fabric_classify(bool uet_policy,
				 const struct uet_dscp_map *map, uint8_t dscp)
{
	if (!uet_policy || map == NULL)
		return (unsigned int)(dscp & 0x3f) / 8;
	switch (uet_dscp_role_of(map, dscp)) {
	case UET_DSCP_CONTROL:
		return UET_FABRIC_TC_CONTROL;
	case UET_DSCP_TRIMMED:
	case UET_DSCP_TRIMMED_LASTHOP:
		return UET_FABRIC_TC_TRIMMED;
	default:
		/* Data of every kind, and codepoints no role has. */
		return UET_FABRIC_TC_DATA;
	}
}
