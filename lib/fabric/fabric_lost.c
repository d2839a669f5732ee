/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * switch.external_lost_copies, for conformance runs (scripts/uet-conform,
 * docs/interop.md, case timeout-backoff): the first data packet an
 * external host sends is lost at its switch port, it and its
 * retransmissions (the same PDC and PSN) up to the count. A trim would
 * draw a NACK and a retransmission at once; a loss leaves only the host's
 * retransmission timer, whose backoff the case judges. The frames are
 * lost once the port has received them, so a capture of the link (which
 * sees a frame before the switch does) has each transmission and its time.
 */
#include <rte_mbuf.h>

#include "fabric_private.h"
#include "uet_wire.h"
#include "uet_wire_mbuf.h"

bool fabric_lost(struct fabric_port *in, const struct rte_mbuf *m,
		 uint32_t copies)
{
	static const struct uet_wire_cfg cfg = {
		.udp_dport = UET_UDP_PORT_UET,
		.depth = UET_FRAME_DEPTH_ALL,
	};
	struct fabric_port_cold *cold = fabric_port_cold(in);
	struct uet_frame f;

	if (cold == NULL || cold->drop_lost_frames >= copies)
		return false;
	/* Only a request with its payload: a trimmed one would be lost
	 * without the host having sent it whole. */
	if (uet_frame_parse_mbuf(&cfg, m, &f, NULL) < 0 ||
	    f.kind != UET_FRAME_UET || !uet_pds_type_is_req(f.pds.type) ||
	    f.trimmed)
		return false;
	if (!cold->lost_chosen) {
		cold->lost_chosen = true;
		cold->lost_pdc = f.pds.u.req.spdcid;
		cold->lost_psn = f.pds.u.req.psn;
	}
	if (f.pds.u.req.spdcid != cold->lost_pdc ||
	    f.pds.u.req.psn != cold->lost_psn)
		return false;
	cold->drop_lost_frames++;
	return true;
}
