/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a switch learnt of a data frame, carried in the mbuf (a dynamic
 * field) to the next switch, so that a frame crossing a fat tree is parsed
 * once, where it enters the fabric from a host, not at every hop: its flow
 * (the route's hash), destination host, DSCP and wire size do not change
 * on the way. A trim
 * changes them: the trimmed frame is parsed again at its next switch. The
 * switch's own frames (PFC pauses) carry no such field.
 */
#ifndef FABRIC_META_H
#define FABRIC_META_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>
#include <rte_mbuf_dyn.h>

#include "uet_fabric.h"

struct fabric_meta {
	struct uet_fabric_flow flow;
	uint32_t wire_bytes;
	int32_t host; /* the destination's host index, or -ENOENT: no host
		       * has the address (looked up once, not per hop) */
	uint8_t dscp;
	bool valid; /* set where the fabric parsed the frame */
};

/* The field's offset in the mbuf, or -1: no room, every hop parses. */
extern int fabric_meta_offset;

/* Register the field (once per process; later calls find it). */
void fabric_meta_register(void);

static inline struct fabric_meta *fabric_meta_of(struct rte_mbuf *m)
{
	return fabric_meta_offset < 0 ? NULL
				      : RTE_MBUF_DYNFIELD(m, fabric_meta_offset,
							  struct fabric_meta *);
}

/* Forget what the frame carries (a frame the switch built, or changed). */
static inline void fabric_meta_clear(struct rte_mbuf *m)
{
	struct fabric_meta *meta = fabric_meta_of(m);

	if (meta != NULL)
		meta->valid = false;
}

#endif /* FABRIC_META_H */
