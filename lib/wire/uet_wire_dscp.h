/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DSCP codepoints by packet role (the data-path page's "Packet marking").
 * The UET specification names the roles but fixes no values: the operator
 * configures them. The defaults keep DSCP / 8 at 0 for data and 1 for control.
 */
#ifndef UET_WIRE_DSCP_H
#define UET_WIRE_DSCP_H

#include <stdbool.h>
#include <stdint.h>

/** The role a DSCP codepoint names. */
enum uet_dscp_role {
	UET_DSCP_NO_TRIM = 0,	  /**< data a switch must not trim */
	UET_DSCP_TRIMMABLE,	  /**< data a switch may trim */
	UET_DSCP_TRIMMABLE_RTX,	  /**< a retransmission, trimmable */
	UET_DSCP_CONTROL,	  /**< ACK, NACK, probe */
	UET_DSCP_TRIMMED,	  /**< written by a trimming switch */
	UET_DSCP_TRIMMED_LASTHOP, /**< trimmed on a NIC-facing port */
	UET_DSCP_ROLE_COUNT
};

/* Default codepoints, one per role. */
#define UET_DSCP_DEFAULT_NO_TRIM 0
#define UET_DSCP_DEFAULT_TRIMMABLE 1
#define UET_DSCP_DEFAULT_TRIMMABLE_RTX 2
#define UET_DSCP_DEFAULT_CONTROL 8
#define UET_DSCP_DEFAULT_TRIMMED 9
#define UET_DSCP_DEFAULT_TRIMMED_LASTHOP 10

/** Codepoint (0-63) of each role, indexed by enum uet_dscp_role. */
struct uet_dscp_map {
	uint8_t codepoint[UET_DSCP_ROLE_COUNT];
};

/**
 * Fill a map with the default codepoints (0, 1, 2, 8, 9, 10).
 *
 * @param map
 *   Map to fill.
 */
void uet_dscp_map_default(struct uet_dscp_map *map);

/**
 * Check a map: every codepoint below 64 and the six distinct.
 *
 * @param map
 *   Map to check.
 * @return
 *   0 if valid, -ERANGE if a codepoint is >= 64, -EINVAL if two roles share
 *   a codepoint.
 */
int uet_dscp_map_validate(const struct uet_dscp_map *map);

/**
 * Role of a codepoint.
 *
 * @param map
 *   A valid map.
 * @param dscp
 *   Codepoint found in a packet.
 * @return
 *   The role (>= 0), or -ENOENT if no role has this codepoint.
 */
int uet_dscp_role_of(const struct uet_dscp_map *map, uint8_t dscp);

/** Traffic classes of a link (DSCP / 8 gives 0..7). */
#define UET_TC_COUNT 8

/** Traffic classes under the UET policy (switch.UETPolicyEnabled). */
enum uet_tc {
	UET_TC_DATA = 0,    /**< every packet not below */
	UET_TC_TRIMMED = 1, /**< trimmed and trimmed-on-last-hop */
	UET_TC_CONTROL = 2, /**< ACKs, NACKs, probes */
};

/**
 * The traffic class of a packet with a codepoint, as every switch port and
 * the NIC's PFC read it. Under the UET policy: control TC2, trimmed and
 * trimmed-on-last-hop TC1, every other codepoint (a codepoint no role has
 * included) TC0. Otherwise DSCP / 8.
 *
 * @param uet_policy
 *   switch.UETPolicyEnabled.
 * @param map
 *   Codepoint of each role; read only under the UET policy.
 * @param dscp
 *   The packet's codepoint, 0..63.
 * @return
 *   The class, 0..UET_TC_COUNT - 1.
 */
unsigned int uet_dscp_class(bool uet_policy, const struct uet_dscp_map *map,
			    uint8_t dscp);

/**
 * Name of a role ("no-trim", "trimmable", ...).
 *
 * @param role
 *   A role.
 * @return
 *   A constant string; "unknown" for values out of range.
 */
const char *uet_dscp_role_name(enum uet_dscp_role role);

#endif /* UET_WIRE_DSCP_H */
