/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frame reader on rte_mbufs: lib/wire's parser applied to a frame in
 * one segment or a chain, used by the NIC's receive path, the switch and
 * lib/sync. Headers are read in place from the first segment when they
 * lie in it (the NIC's own data frames: 102 bytes of headers, then the
 * payload in segments of its own), copied only when a header straddles
 * segments; payload is never read. Built as its own library
 * (uet_wire_mbuf_dep), so that lib/wire itself stays free of DPDK.
 */
#ifndef UET_WIRE_MBUF_H
#define UET_WIRE_MBUF_H

#include <rte_mbuf.h>

#include "uet_wire_frame.h"

/**
 * Classify and parse a frame held in an mbuf (chain), as
 * uet_frame_parse_cfg() does for a buffer: the same result, field for
 * field, whatever the segments.
 *
 * @param cfg
 *   Configuration (its depth says how far to read).
 * @param m
 *   The frame; not changed.
 * @param out
 *   Filled; offsets are from the start of the frame.
 * @param reason
 *   Set to UET_WIRE_OK or the first reject reason (may be NULL).
 * @return
 *   0 (out->kind says what it is), or -EBADMSG.
 */
int uet_frame_parse_mbuf(const struct uet_wire_cfg *cfg,
			 const struct rte_mbuf *m, struct uet_frame *out,
			 enum uet_wire_reason *reason);

/**
 * The EtherType of a frame in an mbuf, without parsing further.
 *
 * @param m
 *   The frame.
 * @return
 *   The EtherType (host order), or -EBADMSG if the frame is shorter than
 *   an Ethernet header.
 */
int uet_frame_mbuf_ethertype(const struct rte_mbuf *m);

#endif /* UET_WIRE_MBUF_H */
