/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/wire: build and parse the frames uetemu puts on the wire, into and from
 * plain byte buffers, with no allocation. This header includes them all:
 *
 * - uet_wire_eth.h      Ethernet II, IPv4, UDP, the Internet checksum
 * - uet_wire_dscp.h     DSCP codepoints by role
 * - uet_wire_pds.h      PDS headers (requests, ACK, NACK, CP, RUDI, UUD)
 * - uet_wire_ses.h      SES requests and responses
 * - uet_wire_pfc.h      802.1Qbb PFC frames
 * - uet_wire_lockstep.h lockstep trailer and control frames
 * - uet_wire_frame.h    whole frames: build, parse, trim, sizes
 * - uet_wire_reason.h   reject reasons
 *
 * Conventions: builders take (buf, cap, ...) and return the bytes written or
 * -ENOSPC/-EINVAL; parsers take (buf, len, out, reason) and return the bytes
 * consumed (or 0) or -EBADMSG with *reason set. Parsers never read past len.
 */
#ifndef UET_WIRE_H
#define UET_WIRE_H

#include "uet_wire_reason.h"
#include "uet_wire_eth.h"
#include "uet_wire_dscp.h"
#include "uet_wire_pds.h"
#include "uet_wire_ses.h"
#include "uet_wire_pfc.h"
#include "uet_wire_lockstep.h"
#include "uet_wire_frame.h"

#endif /* UET_WIRE_H */
