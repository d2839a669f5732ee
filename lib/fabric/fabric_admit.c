/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Egress admission: a frame joins its traffic class queue if it fits under
 * the class limit (1.5 times it for a trimmable retransmission under the
 * UET policy); otherwise a trimmable one is trimmed to its headers and
 * offered to TC1, and anything else is dropped and counted. A lossless
 * class (PFC) is admitted by its ingress's headroom instead.
 */
#include <errno.h>

#include <rte_mbuf.h>

#include "fabric_meta.h"
#include "fabric_private.h"
#include "uet_wire.h"

/* The byte limit a frame of this role may fill a class queue of p to
 * (the switch's limit as p applies it: scaled down on a degraded link). */
static uint64_t fabric_admit_limit_bytes(const struct fabric_port *p, int role)
{
	const struct uet_fabric_conf *conf = &fabric_port_fab(p)->conf;
	const uint64_t limit = p->limit_bytes;

	if (conf->uet_policy && role == UET_DSCP_TRIMMABLE_RTX)
		return limit + limit / 2;
	return limit;
}

static bool fabric_admit_fits(const struct fabric_port *p, unsigned int tc,
			      uint32_t wire_bytes, uint64_t limit_bytes)
{
	return p->tcq[tc]->queue_bytes + wire_bytes <= limit_bytes;
}

/* Count a frame that found no room in class tc, and free it. */
static void fabric_admit_drop(struct fabric_port *p, unsigned int tc,
			      struct rte_mbuf *m, uint32_t wire_bytes)
{
	struct fabric_port_cold *cold = fabric_port_cold(p);
	struct fabric_tcq *cq = fabric_port_tcq(p, tc);

	/* An allocation that failed stops the run (the part's error). */
	if (cold != NULL) {
		cold->drop_full_frames++;
		cold->drop_full_bytes += wire_bytes;
	}
	if (cq != NULL) {
		cq->drop_frames++;
		cq->drop_bytes += wire_bytes;
	}
	rte_pktmbuf_free(m);
}

/*
 * Cut m to its IPv4, UDP and PDS request headers and re-mark it trimmed
 * (trimmed on the last hop on a port facing a NIC). Returns the new wire
 * bytes, or a negative errno when m cannot be trimmed (not a UET request).
 */
/* Bytes of a frame's first segment a trim reads: Ethernet, the IPv4
 * header (its IHL says how long), UDP and the longest PDS header. */
static uint32_t trim_hdr_bytes(const struct rte_mbuf *m)
{
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	uint32_t ihl_bytes = 60;

	if (rte_pktmbuf_data_len(m) > UET_ETH_HDR_BYTES)
		ihl_bytes = (uint32_t)(p[UET_ETH_HDR_BYTES] & 0x0fu) * 4u;
	return UET_ETH_HDR_BYTES + ihl_bytes + 8u + UET_PDS_MAX_BYTES;
}

static int fabric_admit_trim(const struct fabric_port *p, struct rte_mbuf *m)
{
	const struct uet_dscp_map *map = &fabric_port_fab(p)->conf.dscp;
	const uint8_t dscp =
		map->codepoint[p->faces_nic ? UET_DSCP_TRIMMED_LASTHOP
					    : UET_DSCP_TRIMMED];
	const uint32_t len = rte_pktmbuf_pkt_len(m);
	struct rte_mbuf *rest;
	int new_len;

	/* A NIC's data frame is a header mbuf chained to its payload: the
	 * trim reads and rewrites only the headers, so they must be whole
	 * in the first segment, and the payload segments just go. */
	if (rte_pktmbuf_data_len(m) < len &&
	    rte_pktmbuf_data_len(m) < trim_hdr_bytes(m) &&
	    rte_pktmbuf_linearize(m) < 0)
		return -ENOMEM;
	new_len = uet_frame_trim(rte_pktmbuf_mtod(m, uint8_t *), len, dscp);
	if (new_len < 0)
		return new_len;
	if ((uint32_t)new_len > rte_pktmbuf_data_len(m))
		return -EINVAL;
	rest = m->next;
	if (rest != NULL) {
		m->next = NULL;
		m->nb_segs = 1;
		rte_pktmbuf_free(rest);
	}
	m->data_len = (uint16_t)new_len;
	m->pkt_len = (uint32_t)new_len;
	fabric_meta_clear(m); /* its size and DSCP changed */
	return new_len + UET_ETH_FCS_BYTES;
}

int fabric_port_enqueue(struct fabric_port *p, struct rte_mbuf *m,
			uint32_t wire_bytes, uint8_t dscp, uint32_t ingress)
{
	struct uet_fabric *fab = fabric_port_fab(p);
	const struct uet_fabric_conf *conf = &fab->conf;
	const int role = conf->uet_policy || conf->trimming
				 ? uet_dscp_role_of(&conf->dscp, dscp)
				 : -ENOENT;
	const unsigned int tc =
		uet_dscp_class(conf->uet_policy, &conf->dscp, dscp);
	struct fabric_port_cold *cold;
	struct fabric_tcq *cq;
	int trimmed_bytes;

	fabric_port_settle_now(p);
	/* 0. A lossless class (PFC) has no egress limit: its ingress pauses
	 * the upstream at PFCXoff, and only a frame beyond the headroom is
	 * dropped. */
	if (fabric_pfc_lossless(conf, tc) && ingress != FABRIC_NO_PORT) {
		struct fabric_port *in = &fab->ports[ingress];

		if (fabric_pfc_admit(in, tc, wire_bytes))
			return fabric_port_join(p, tc, m, wire_bytes, ingress);
		cold = fabric_port_cold(in);
		if (cold != NULL)
			cold->pfc_headroom_drop_frames++;
		fabric_admit_drop(p, tc, m, wire_bytes);
		return 0;
	}
	/* 1. Its class queue, under the limit of its role. */
	if (fabric_admit_fits(p, tc, wire_bytes,
			      fabric_admit_limit_bytes(p, role)))
		return fabric_port_join(p, tc, m, wire_bytes, ingress);
	/* 2. No room: a trimmable packet is trimmed, when trimming is on
	 * (the configuration allows it only under the UET policy). */
	if (!conf->trimming || !conf->uet_policy ||
	    (role != UET_DSCP_TRIMMABLE && role != UET_DSCP_TRIMMABLE_RTX)) {
		fabric_admit_drop(p, tc, m, wire_bytes);
		return 0;
	}
	trimmed_bytes = fabric_admit_trim(p, m);
	if (trimmed_bytes < 0) {
		fabric_admit_drop(p, tc, m, wire_bytes);
		return 0;
	}
	cold = fabric_port_cold(p);
	cq = fabric_port_tcq(p, tc);
	if (cold != NULL)
		cold->trim_frames++;
	if (cq != NULL)
		cq->trim_frames++;
	/* 3. The trimmed header is offered to TC1 under the plain limit. */
	if (fabric_admit_fits(p, UET_TC_TRIMMED, (uint32_t)trimmed_bytes,
			      fabric_admit_limit_bytes(p, UET_DSCP_TRIMMED)))
		return fabric_port_join(p, UET_TC_TRIMMED, m,
					(uint32_t)trimmed_bytes, ingress);
	if (cold != NULL)
		cold->drop_trim_frames++;
	fabric_admit_drop(p, UET_TC_TRIMMED, m, (uint32_t)trimmed_bytes);
	return 0;
}
