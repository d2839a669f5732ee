/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric: creation from a configuration, delivery of frames to its
 * ports, and the switch's steps on a frame fully received: count and
 * capture it, set aside control frames, the random drop, the route by IPv4
 * destination, egress admission.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include "fabric_meta.h"
#include "fabric_private.h"
#include "uet_host_addr.h"
#include "uet_wire.h"
#include "uet_wire_mbuf.h"

/* What a received frame is to the switch. */
enum fabric_class {
	FABRIC_CLASS_IPV4,	/* a valid IPv4 header: route it */
	FABRIC_CLASS_CONTROL,	/* MAC control (PFC) or lockstep control */
	FABRIC_CLASS_MALFORMED, /* anything else */
};

/*
 * Classify a frame and find its wire size: the frame and its FCS, less a
 * lockstep trailer after the IP datagram (modeled sizes never count it).
 * lib/wire's mbuf reader reads Ethernet, IPv4 and UDP (the switch needs
 * no PDS), in place where the headers are in the first segment.
 */
static enum fabric_class fabric_classify(const struct rte_mbuf *m,
					 struct uet_frame *f,
					 struct uet_fabric_flow *flow,
					 uint32_t *wire_bytes)
{
	static const struct uet_wire_cfg cfg = {
		.udp_dport = UET_UDP_PORT_UET,
		.depth = UET_FRAME_DEPTH_UDP,
	};

	/* A reject says only how far the layers went: a switch routes any
	 * valid IPv4 header, whatever follows it. */
	(void)uet_frame_parse_mbuf(&cfg, m, f, NULL);
	*wire_bytes = (f->has_trailer ? (uint32_t)f->ip_end
				      : rte_pktmbuf_pkt_len(m)) +
		      UET_ETH_FCS_BYTES;
	if (f->has_ipv4) {
		flow->src_ipv4 = f->ip.src;
		flow->dst_ipv4 = f->ip.dst;
		flow->protocol = f->ip.protocol;
		/* The UDP ports, of an unfragmented datagram, for the
		 * flow hash. */
		if (f->has_udp) {
			flow->src_port = f->udp.sport;
			flow->dst_port = f->udp.dport;
		}
		return FABRIC_CLASS_IPV4;
	}
	if (f->eth.ethertype == UET_ETHERTYPE_MAC_CONTROL ||
	    f->eth.ethertype == UET_ETHERTYPE_LOCKSTEP)
		return FABRIC_CLASS_CONTROL;
	return FABRIC_CLASS_MALFORMED;
}

/*
 * The switch's steps on a frame whose last bit reached port in at now.
 * Forwarding takes no time: the frame joins its output queue at once.
 */
void fabric_receive(struct uet_fabric *fab, struct fabric_port *in,
		    struct rte_mbuf *m)
{
	const uet_time_t now = fabric_port_now(in);
	struct fabric_part *pt = in->part;
	struct fabric_port_cold *cold;
	struct uet_fabric_flow flow = {0};
	struct fabric_meta *meta;
	struct uet_frame f;
	uint8_t dscp;
	uint32_t wire_bytes;
	enum fabric_class cls;
	int host = -ENOENT;
	int port;
	int ret;

	/* 1. Received: count and show it. A data frame from another switch
	 * brings what the first switch read of it. */
	meta = fabric_meta_of(m);
	if (meta != NULL && in->peer >= 0 && meta->valid) {
		cls = FABRIC_CLASS_IPV4;
		flow = meta->flow;
		wire_bytes = meta->wire_bytes;
		dscp = meta->dscp;
		host = meta->host;
		/* The switch's own pause frames come from a pool its
		 * frames do: the mbuf's first line is read once a part,
		 * not at every hop. */
		if (pt->pfc_pool == NULL)
			pt->pfc_pool = m->pool;
	} else {
		/* Parsed: the mbuf's first line is in the cache. */
		pt->pfc_pool = m->pool;
		cls = fabric_classify(m, &f, &flow, &wire_bytes);
		dscp = f.has_ipv4 ? f.ip.dscp : 0;
		if (cls == FABRIC_CLASS_IPV4)
			host = fabric_routes_lookup(&fab->routes,
						    flow.dst_ipv4);
		if (meta != NULL) {
			meta->valid = cls == FABRIC_CLASS_IPV4;
			meta->flow = flow;
			meta->wire_bytes = wire_bytes;
			meta->host = host;
			meta->dscp = dscp;
		}
	}
	/* 0. Over a link that is down nothing is received. */
	if (fabric_link_drop(fab, in, m, wire_bytes, dscp))
		return;
	in->rx_frames++;
	in->rx_bytes += wire_bytes;
	if (fab->capture != NULL && in->peer < 0)
		fab->capture(fab->capture_ctx, in->id, m, now, false);

	/* 2. A PFC frame pauses this port's egress; other control frames
	 * are the sync layer's, and never meant for the switch. */
	if (cls == FABRIC_CLASS_CONTROL) {
		if (f.kind == UET_FRAME_PFC) {
			fabric_pfc_receive(in, &f.l2.pfc);
		} else {
			cold = fabric_port_cold(in);
			if (cold != NULL)
				cold->drop_control_frames++;
		}
		rte_pktmbuf_free(m);
		return;
	}

	/* An external host's frames come from its own address or from
	 * nobody: another host's would be a forgery the switch forwards. */
	if (in->external && cls == FABRIC_CLASS_IPV4 &&
	    flow.src_ipv4 != uet_host_ipv4(in->id)) {
		cold = fabric_port_cold(in);
		if (cold != NULL)
			cold->drop_source_frames++;
		rte_pktmbuf_free(m);
		return;
	}
	/* A conformance run's loss of its first data packet (fabric_lost.c),
	 * after the frame was received and captured. */
	if (in->external && fab->conf.external_lost_copies > 0 &&
	    cls == FABRIC_CLASS_IPV4 &&
	    fabric_lost(in, m, fab->conf.external_lost_copies)) {
		rte_pktmbuf_free(m);
		return;
	}

	/* 3. Random drop: one draw for every other frame, whatever the
	 * rate, so the draws depend only on the order of arrivals. */
	if (uet_rng_chance_ppm(&pt->rng, fab->conf.drop_rate_ppm)) {
		cold = fabric_port_cold(in);
		if (cold != NULL) {
			cold->drop_random_frames++;
			cold->drop_random_bytes += wire_bytes;
		}
		rte_pktmbuf_free(m);
		return;
	}

	/* 4. Route by IPv4 destination, the flow hash picking among
	 * equal-cost next hops. */
	port = cls == FABRIC_CLASS_IPV4
		       ? fabric_next_port_to(fab, in->sw, host, &flow)
		       : -EBADMSG;
	if (port < 0) {
		cold = fabric_port_cold(in);
		if (cold != NULL) {
			cold->drop_route_frames++;
			cold->drop_route_bytes += wire_bytes;
		}
		rte_pktmbuf_free(m);
		return;
	}

	/* 5. Egress admission at the port facing the destination: its
	 * class queue, trimmed into TC1, or dropped; lost if its link is
	 * down (blackholed, or no way left). */
	if (fabric_link_drop(fab, &fab->ports[port], m, wire_bytes, dscp))
		return;
	ret = fabric_port_enqueue(&fab->ports[port], m, wire_bytes, dscp,
				  in->id);
	if (ret < 0)
		fabric_part_fail(pt, ret);
}

static int fabric_deliver(struct uet_component *c, uint32_t port,
			  struct rte_mbuf *m, uet_time_t arrival_ps)
{
	/* The component is the fabric's first member. */
	struct uet_fabric *fab = (struct uet_fabric *)c;

	if (c == NULL || m == NULL) {
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	if (port >= fab->conf.hosts) {
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	return fabric_part_deliver(fab, port, m, arrival_ps);
}

int uet_fabric_create(struct uet_fabric **fabp,
		      const struct uet_fabric_conf *conf)
{
	struct uet_fabric *fab;
	uint32_t i;
	int ret;

	if (fabp == NULL || conf == NULL || conf->hosts == 0 ||
	    conf->hosts > UET_HOST_MAX_COUNT || conf->link_rate_bps == 0)
		return -EINVAL;
	fabric_meta_register();
	fab = calloc(1, sizeof(*fab));
	if (fab == NULL)
		return -ENOMEM;
	fab->conf = *conf;
	snprintf(fab->comp.name, sizeof(fab->comp.name), "switch");
	fab->comp.deliver = fabric_deliver;
	/* The component's own queue takes only what the wiring puts there
	 * (a workload's wake-up); the ports' events are in their parts. */
	ret = uet_evq_init(&fab->comp.evq);
	if (ret < 0)
		goto fail;
	ret = fabric_routes_init(&fab->routes, conf->hosts);
	if (ret < 0)
		goto fail;
	ret = fabric_topo_build(fab);
	if (ret < 0)
		goto fail;
	for (i = 0; i < conf->external_count; i++)
		if (conf->external_hosts[i] < conf->hosts)
			fab->ports[conf->external_hosts[i]].external = true;
	fab->conf.external_hosts = NULL;
	fab->conf.external_count = 0;
	ret = fabric_links_init(fab);
	if (ret < 0)
		goto fail;
	/* The ports' events are all a part ever schedules. */
	ret = fabric_parts_init(fab);
	if (ret < 0)
		goto fail;
	for (i = 0; i < fab->n_ports; i++) {
		ret = fabric_port_init(&fab->ports[i], fab, i);
		if (ret < 0)
			goto fail;
	}
	*fabp = fab;
	return 0;
fail:
	/* Ports not initialised are zeroed, which fini accepts. */
	uet_fabric_destroy(fab);
	return ret;
}

void uet_fabric_destroy(struct uet_fabric *fab)
{
	if (fab == NULL)
		return;
	/* Events first, so that none is left pointing into a port. */
	uet_evq_fini(&fab->comp.evq);
	fabric_parts_fini(fab);
	if (fab->ports != NULL) {
		for (uint32_t i = 0; i < fab->n_ports; i++)
			fabric_port_fini(&fab->ports[i]);
		free(fab->ports);
	}
	fabric_links_fini(fab);
	fabric_topo_free(fab);
	fabric_routes_fini(&fab->routes);
	free(fab->given);
	free(fab);
}

struct uet_component *uet_fabric_component(struct uet_fabric *fab)
{
	return fab == NULL ? NULL : &fab->comp;
}

void uet_fabric_set_capture(struct uet_fabric *fab, uet_fabric_capture_fn fn,
			    void *ctx)
{
	if (fab == NULL)
		return;
	fab->capture = fn;
	fab->capture_ctx = ctx;
}

int uet_fabric_port_stats(const struct uet_fabric *fab, uint32_t port,
			  struct uet_fabric_port_stats *stats)
{
	unsigned int tc;

	if (fab == NULL || stats == NULL || port >= fab->n_ports)
		return -EINVAL;
	if (fab->given != NULL && fab->given[port].set) {
		*stats = fab->given[port].stats;
		return 0;
	}
	fabric_port_stats(&fab->ports[port], stats);
	/* A pause still running counts up to now. */
	for (tc = 0; tc < UET_FABRIC_TCS; tc++)
		stats->tc[tc].paused_ps =
			fabric_pfc_paused_ps(&fab->ports[port], tc);
	return 0;
}

int uet_fabric_port_give(struct uet_fabric *fab, uint32_t port,
			 const struct uet_fabric_port_stats *stats,
			 const struct uet_fabric_tc_record *tc)
{
	if (fab == NULL || stats == NULL || tc == NULL || port >= fab->n_ports)
		return -EINVAL;
	if (fab->given == NULL) {
		fab->given = calloc(fab->n_ports, sizeof(*fab->given));
		if (fab->given == NULL)
			return -ENOMEM;
	}
	fab->given[port].set = true;
	fab->given[port].stats = *stats;
	memcpy(fab->given[port].tc, tc, sizeof(fab->given[port].tc));
	return 0;
}

uint32_t uet_fabric_switch_count(const struct uet_fabric *fab)
{
	return fab == NULL ? 0 : fab->n_switches;
}

uint32_t uet_fabric_port_count(const struct uet_fabric *fab)
{
	return fab == NULL ? 0 : fab->n_ports;
}

int uet_fabric_port_info(const struct uet_fabric *fab, uint32_t port,
			 struct uet_fabric_port_info *info)
{
	const struct fabric_port *p;

	if (fab == NULL || info == NULL || port >= fab->n_ports)
		return -EINVAL;
	p = &fab->ports[port];
	memset(info, 0, sizeof(*info));
	info->sw = p->sw;
	info->host = p->peer < 0 ? (int32_t)port : -1;
	info->peer = p->peer;
	info->rate_bps = p->rate_bps;
	info->delay_ps = p->delay_ps;
	snprintf(info->switch_name, sizeof(info->switch_name), "%s",
		 fab->switches[p->sw].name);
	fabric_topo_link_name(fab, port, info->link_name,
			      sizeof(info->link_name));
	return 0;
}

int uet_fabric_error(const struct uet_fabric *fab)
{
	uint32_t q;

	if (fab == NULL)
		return -EINVAL;
	if (fab->error != 0)
		return fab->error;
	/* The first part's, in part order: the same whatever ran them. */
	for (q = 0; q < fab->n_parts; q++)
		if (fab->parts[q].error != 0)
			return fab->parts[q].error;
	return 0;
}

uint64_t uet_fabric_events(const struct uet_fabric *fab)
{
	uint64_t n;
	uint32_t q;

	if (fab == NULL)
		return 0;
	n = fab->comp.evq.n_run;
	for (q = 0; q < fab->n_parts; q++)
		n += fab->parts[q].evq.n_run;
	return n;
}

uint32_t uet_fabric_part_count(const struct uet_fabric *fab)
{
	return fab == NULL ? 0 : fab->n_parts;
}
