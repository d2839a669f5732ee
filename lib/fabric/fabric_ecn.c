/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ECN marking, RED-like: an ECT frame is CE-marked with a probability that
 * is 0 below kmin bytes of class queue occupancy, 1 at or above kmax, and
 * rises linearly between. Draws come from the fabric's ECN stream, and only
 * between the two thresholds, so runs stay reproducible. A degraded
 * link's port scales both thresholds with its rate (fabric_link.c).
 */
#include <rte_mbuf.h>

#include "fabric_private.h"
#include "uet_wire.h"

bool fabric_ecn_mark(struct fabric_port *p, struct rte_mbuf *m,
		     uint64_t occupancy_bytes)
{
	const uint64_t kmin = p->ecn_kmin_applied;
	const uint64_t kmax = p->ecn_kmax_applied;

	if (occupancy_bytes < kmin)
		return false;
	if (occupancy_bytes < kmax &&
	    uet_rng_bounded(&p->part->ecn_rng, kmax - kmin) >=
		    occupancy_bytes - kmin)
		return false;
	/* A NIC's data frame is a header mbuf chained to its payload: the
	 * marker checks the IPv4 total length against the length it is
	 * given, so it gets the frame's, and reads only the headers, which
	 * must then be whole in the first segment (at most 14 + 60 bytes). */
	if (rte_pktmbuf_data_len(m) < rte_pktmbuf_pkt_len(m) &&
	    rte_pktmbuf_data_len(m) < UET_ETH_HDR_BYTES + 60 &&
	    rte_pktmbuf_linearize(m) < 0)
		return false;
	return uet_frame_mark_ce(rte_pktmbuf_mtod(m, uint8_t *),
				 rte_pktmbuf_pkt_len(m)) == 1;
}
