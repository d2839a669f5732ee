/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Values derived from the fabric when a scenario loads. The attributes whose
 * default is auto (the tiers' rates and delays, InitialBaseRTT,
 * InitialRetransmitTimeout, NsccTargetQdelay, the switch's TrimmingEnabled,
 * queue_limit, ECNKmin and ECNKmax) get their value here, written into their
 * own fields, so the NIC and the fabric read them as they read a value the file
 * set; and here is the text --print-config prints beside each
 * (docs/congestion-control.md, "Defaults derived from the fabric").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "config_private.h"
#include "uet_cc.h"
#include "uet_config.h"
#include "uet_packet_sizes.h"
#include "uet_time.h"
#include "uet_units.h"

/* Links of the longest path of any topology (a fat tree's core path). */
#define PATH_LINKS_MAX 6
#define PPM_ONE 1000000u

/* The rows whose default is auto, by their field in struct uet_scenario. */
static const struct {
	size_t offset;
	enum uet_auto_attr attr;
} auto_rows[] = {
	{offsetof(struct uet_scenario, topology.leaf_spine_rate_bps),
	 UET_AUTO_LEAF_SPINE_RATE},
	{offsetof(struct uet_scenario, topology.leaf_spine_delay_ps),
	 UET_AUTO_LEAF_SPINE_DELAY},
	{offsetof(struct uet_scenario, topology.agg_core_rate_bps),
	 UET_AUTO_AGG_CORE_RATE},
	{offsetof(struct uet_scenario, topology.agg_core_delay_ps),
	 UET_AUTO_AGG_CORE_DELAY},
	{offsetof(struct uet_scenario, pds.initial_retransmit_timeout_ps),
	 UET_AUTO_INITIAL_RTO},
	{offsetof(struct uet_scenario, pds.initial_base_rtt_ps),
	 UET_AUTO_INITIAL_BASE_RTT},
	{offsetof(struct uet_scenario, pds.nscc_target_qdelay_ps),
	 UET_AUTO_NSCC_TARGET_QDELAY},
	{offsetof(struct uet_scenario, sw.queue_limit_bytes),
	 UET_AUTO_QUEUE_LIMIT},
	{offsetof(struct uet_scenario, sw.ecn_kmin_bytes), UET_AUTO_ECN_KMIN},
	{offsetof(struct uet_scenario, sw.ecn_kmax_bytes), UET_AUTO_ECN_KMAX},
	{offsetof(struct uet_scenario, sw.trimming_enabled),
	 UET_AUTO_SWITCH_TRIMMING},
};

int cfg_auto_attr(const struct uet_attr *a)
{
	size_t i;

	if (a->def == NULL || strcmp(a->def, "auto") != 0)
		return -1;
	for (i = 0; i < sizeof(auto_rows) / sizeof(auto_rows[0]); i++)
		if (auto_rows[i].offset == a->offset)
			return (int)auto_rows[i].attr;
	return -1;
}

static bool is_auto(const struct uet_scenario *s, enum uet_auto_attr a)
{
	return (s->derived.auto_mask >> a) & 1u;
}

/* One link of a path, in the direction the data goes. */
struct derive_link {
	uint64_t rate_bps;
	uet_time_t delay_ps;
	bool switch_egress; /* sent by a switch port (it has a class queue) */
};

/*
 * The longest host-to-host path of the topology: the sender's NIC port
 * (min of DataRate and link_rate, nic.Delay), the tiers up and down, the
 * rack switch's port to the receiver (link_rate, link_delay). The ACK
 * goes back over links of the same rates and delays, in the other order.
 * Returns the number of links.
 */
static uint32_t longest_path(const struct uet_scenario *s,
			     struct derive_link path[PATH_LINKS_MAX])
{
	const struct uet_topology_config *t = &s->topology;
	const struct derive_link nic = {
		.rate_bps = s->nic.data_rate_bps < t->link_rate_bps
				    ? s->nic.data_rate_bps
				    : t->link_rate_bps,
		.delay_ps = s->nic.delay_ps,
	};
	const struct derive_link host = {t->link_rate_bps, t->link_delay_ps,
					 true};
	const struct derive_link tier1 = {t->leaf_spine_rate_bps,
					  t->leaf_spine_delay_ps, true};
	const struct derive_link tier2 = {t->agg_core_rate_bps,
					  t->agg_core_delay_ps, true};
	uint32_t n = 0;

	path[n++] = nic;
	if (t->kind == UET_TOPOLOGY_FAT_TREE) {
		/* Every fat tree has two pods or more: its longest path
		 * crosses the core. */
		path[n++] = tier1;
		path[n++] = tier2;
		path[n++] = tier2;
		path[n++] = tier1;
	} else if (t->kind == UET_TOPOLOGY_LEAF_SPINE && t->leaves > 1) {
		path[n++] = tier1;
		path[n++] = tier1;
	}
	path[n++] = host;
	return n;
}

static uint64_t data_frame_bytes(const struct uet_scenario *s)
{
	return (uint64_t)s->nic.rdma_data_mss_bytes + UET_DATA_HDR_WIRE_BYTES;
}

/* Saturating sum of durations: absurd attributes must not wrap. */
static uet_time_t add_ps(uet_time_t a, uet_time_t b)
{
	return a > UET_TIME_NEVER - b ? UET_TIME_NEVER : a + b;
}

static uet_time_t mul_ps(uet_time_t a, uint64_t n)
{
	return n != 0 && a > UET_TIME_NEVER / n ? UET_TIME_NEVER : a * n;
}

/* The parts of the round trip, summed over the links of the path. */
struct rtt_parts {
	uet_time_t delay_ps; /* every link's delay, both ways */
	uet_time_t data_ps;  /* a full data frame on every link */
	uet_time_t ack_ps;   /* an ACK on every link */
};

static uet_time_t network_rtt(const struct uet_scenario *s,
			      struct rtt_parts *parts)
{
	struct derive_link path[PATH_LINKS_MAX];
	uint32_t n = longest_path(s, path), i;
	struct rtt_parts p = {0};

	for (i = 0; i < n; i++) {
		p.delay_ps = add_ps(p.delay_ps, mul_ps(path[i].delay_ps, 2));
		p.data_ps = add_ps(p.data_ps,
				   uet_serialization_ps(data_frame_bytes(s),
							path[i].rate_bps));
		p.ack_ps =
			add_ps(p.ack_ps,
			       uet_serialization_ps(UET_CONFIG_ACK_WIRE_BYTES,
						    path[i].rate_bps));
	}
	if (parts != NULL)
		*parts = p;
	return add_ps(add_ps(p.delay_ps, p.data_ps), p.ack_ps);
}

/* The class queue limit of a switch port of this rate: queue_time_ps of
 * it when queue_limit is auto, else queue_limit. */
static uint64_t port_queue_bytes(const struct uet_scenario *s,
				 uint64_t rate_bps)
{
	if (s->derived.queue_time_ps != 0)
		return uet_bytes_in_duration(s->derived.queue_time_ps,
					     rate_bps);
	return s->sw.queue_limit_bytes;
}

/* The terms of the derived retransmission timeout. */
struct rto_parts {
	uet_time_t rtt_ps;	 /* the network's unloaded RTT */
	uint32_t queues;	 /* switch ports on the data path */
	uet_time_t queues_ps;	 /* a full class queue drained at each */
	uint32_t links;		 /* links of the ACK path */
	uet_time_t ack_block_ps; /* a data frame ahead of the ACK on each */
	uet_time_t hold_ps;	 /* the receiver's ACK hold of a packet */
	uint32_t cadence;	 /* packets before the next ACK request */
	uet_time_t cadence_ps;	 /* their serialization at the NIC's port */
};

/*
 * The longest a first transmission's ACK takes when nothing is lost: the
 * unloaded RTT; a full data-class queue at each switch port the packet
 * crosses; on each link of the ACK's way back, a data frame already being
 * serialized (the control class waits for it, nothing preempts); the
 * receiver's ACK hold for one packet; and, with AckRequestEveryNthPacket
 * N, the N - 1 packets the sender serializes before the packet whose ACK
 * request covers this one. No more: a timeout beyond it only delays the
 * recovery of a real loss.
 */
static uet_time_t derived_rto(const struct uet_scenario *s,
			      struct rto_parts *parts)
{
	struct derive_link path[PATH_LINKS_MAX];
	uint32_t n = longest_path(s, path), i;
	uint64_t frame = data_frame_bytes(s);
	struct rto_parts p = {0};
	uet_time_t rto;

	p.rtt_ps = s->derived.network_rtt_ps;
	p.links = n;
	for (i = 0; i < n; i++) {
		if (path[i].switch_egress) {
			p.queues++;
			p.queues_ps = add_ps(
				p.queues_ps,
				uet_serialization_ps(
					port_queue_bytes(s, path[i].rate_bps),
					path[i].rate_bps));
		}
		p.ack_block_ps =
			add_ps(p.ack_block_ps,
			       uet_serialization_ps(frame, path[i].rate_bps));
	}
	p.hold_ps = uet_serialization_ps((uint64_t)s->nic.rdma_data_mss_bytes +
						 UET_DATA_HDR_IP_BYTES,
					 s->nic.lane_bps * s->nic.lane_count);
	p.cadence = s->pds.ack_request_every_nth_packet > 0
			    ? s->pds.ack_request_every_nth_packet - 1
			    : 0;
	p.cadence_ps = mul_ps(uet_serialization_ps(frame, path[0].rate_bps),
			      p.cadence);
	if (parts != NULL)
		*parts = p;
	rto = add_ps(add_ps(p.rtt_ps, p.queues_ps), p.ack_block_ps);
	return add_ps(add_ps(rto, p.hold_ps), p.cadence_ps);
}

/* ppm of bytes, rounded down. */
static uint64_t ppm_of(uint64_t bytes, uint32_t ppm)
{
	if (bytes > UINT64_MAX / PPM_ONE)
		return bytes / PPM_ONE * ppm;
	return bytes * ppm / PPM_ONE;
}

/* The auto attributes, in the order they depend on each other. */
static void derive_auto(struct uet_scenario *s)
{
	struct uet_topology_config *t = &s->topology;
	struct uet_scenario_derived *d = &s->derived;
	struct derive_link path[PATH_LINKS_MAX];
	uint32_t bdps;

	if (is_auto(s, UET_AUTO_LEAF_SPINE_RATE))
		t->leaf_spine_rate_bps = t->link_rate_bps;
	if (is_auto(s, UET_AUTO_LEAF_SPINE_DELAY))
		t->leaf_spine_delay_ps = t->link_delay_ps;
	if (is_auto(s, UET_AUTO_AGG_CORE_RATE))
		t->agg_core_rate_bps = t->link_rate_bps;
	if (is_auto(s, UET_AUTO_AGG_CORE_DELAY))
		t->agg_core_delay_ps = t->link_delay_ps;
	d->longest_path_links = longest_path(s, path);
	d->network_rtt_ps = network_rtt(s, NULL);
	if (is_auto(s, UET_AUTO_INITIAL_BASE_RTT))
		s->pds.initial_base_rtt_ps = d->network_rtt_ps;
	if (is_auto(s, UET_AUTO_NSCC_TARGET_QDELAY))
		s->pds.nscc_target_qdelay_ps =
			s->nic.trimming_enabled
				? s->pds.initial_base_rtt_ps * 3 / 4
				: s->pds.initial_base_rtt_ps;
	/* NICs that mark their packets trimmable ask for trimming switches,
	 * where a switch may trim at all (the UET policy, no lossless
	 * class: the rule of uet_config_rules.c). */
	if (is_auto(s, UET_AUTO_SWITCH_TRIMMING))
		s->sw.trimming_enabled = s->nic.trimming_enabled &&
					 s->sw.uet_policy_enabled &&
					 d->pfc_class_mask == 0;
	/* One BDP with trimming (a full queue trims, and the NACK brings the
	 * packet back within an RTT); drop tail gets five, as the reference
	 * gives it, so that bursts are queued rather than timed out. */
	bdps = s->sw.trimming_enabled ? 1 : UET_CONFIG_QUEUE_BDPS_NO_TRIM;
	d->queue_time_ps = is_auto(s, UET_AUTO_QUEUE_LIMIT)
				   ? mul_ps(d->network_rtt_ps, bdps)
				   : 0;
	/* The host links' queues; the fabric gives a port of another rate
	 * its own (queue_time_ps). */
	s->sw.queue_limit_bytes = port_queue_bytes(s, t->link_rate_bps);
	/* ECN at 20% and 80% of the port's BDP: of its auto queue over the
	 * BDPs it holds, or of the queue_limit that was set. */
	if (d->queue_time_ps == 0)
		bdps = 1;
	d->ecn_kmin_ppm = is_auto(s, UET_AUTO_ECN_KMIN)
				  ? UET_CONFIG_ECN_KMIN_PPM / bdps
				  : 0;
	d->ecn_kmax_ppm = is_auto(s, UET_AUTO_ECN_KMAX)
				  ? UET_CONFIG_ECN_KMAX_PPM / bdps
				  : 0;
	if (d->ecn_kmin_ppm != 0)
		s->sw.ecn_kmin_bytes =
			ppm_of(s->sw.queue_limit_bytes, d->ecn_kmin_ppm);
	if (d->ecn_kmax_ppm != 0)
		s->sw.ecn_kmax_bytes =
			ppm_of(s->sw.queue_limit_bytes, d->ecn_kmax_ppm);
	if (is_auto(s, UET_AUTO_INITIAL_RTO))
		s->pds.initial_retransmit_timeout_ps = derived_rto(s, NULL);
}

void cfg_derive(struct uet_scenario *s)
{
	/* The lists, read once here for the models (the rules reject a bad
	 * one; it reads as PFC off and equal weights meanwhile). */
	(void)uet_config_pfc_class_mask(s->sw.pfc_classes,
					&s->derived.pfc_class_mask);
	(void)uet_config_wrr_weights(s->sw.wrr_weights, s->derived.wrr_weight);
	derive_auto(s);
	/* 1.5 x DataRate x InitialBaseRTT when no window is set. */
	if (s->pds.fixed_window_bytes != 0) {
		s->derived.fixed_window_bytes = s->pds.fixed_window_bytes;
	} else {
		uint64_t bdp_bytes = uet_bytes_in_duration(
			s->pds.initial_base_rtt_ps, s->nic.data_rate_bps);
		s->derived.fixed_window_bytes = bdp_bytes > UINT64_MAX / 3
							? UINT64_MAX
							: bdp_bytes * 3 / 2;
	}
	/* A frame crossing between a NIC and the switch takes at least the
	 * NIC's Delay (NIC to switch) or the host link's delay (switch to
	 * NIC): the smaller is how far one side can run ahead of the other.
	 * Every NIC has the same Delay. The fabric runs in parts that meet
	 * over links between switches (a leaf-spine's, a fat tree's
	 * aggregation-core links; docs/performance.md), and their delay
	 * bounds it too. */
	s->derived.lookahead_ps = s->nic.delay_ps < s->topology.link_delay_ps
					  ? s->nic.delay_ps
					  : s->topology.link_delay_ps;
	if (s->topology.kind == UET_TOPOLOGY_LEAF_SPINE &&
	    s->topology.leaf_spine_delay_ps < s->derived.lookahead_ps)
		s->derived.lookahead_ps = s->topology.leaf_spine_delay_ps;
	if (s->topology.kind == UET_TOPOLOGY_FAT_TREE &&
	    s->topology.agg_core_delay_ps < s->derived.lookahead_ps)
		s->derived.lookahead_ps = s->topology.agg_core_delay_ps;
}

/* Append to buf (used bytes so far in *at); text past len is cut. */
__attribute__((format(printf, 4, 5))) static void
put(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*at >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at = *at + (size_t)n < len ? *at + (size_t)n : len;
}

/* A duration as the scenario writes it ("14.0544us"). */
static const char *fmt_ps(uet_time_t ps, char buf[CFG_VALUE_LEN])
{
	if (uet_time_format(ps, buf, CFG_VALUE_LEN) < 0)
		snprintf(buf, CFG_VALUE_LEN, "%" PRIu64 "ps", ps);
	return buf;
}

static const char *fmt_bps(uint64_t bps, char buf[CFG_VALUE_LEN])
{
	if (uet_rate_format(bps, buf, CFG_VALUE_LEN) < 0)
		snprintf(buf, CFG_VALUE_LEN, "%" PRIu64 "bps", bps);
	return buf;
}

/* Whether some switch port of the fabric runs at another rate than the
 * host links (its queue limit then differs from queue_limit's). */
static bool rates_differ(const struct uet_scenario *s)
{
	const struct uet_topology_config *t = &s->topology;

	if (t->kind == UET_TOPOLOGY_SINGLE_SWITCH)
		return false;
	if (t->leaf_spine_rate_bps != t->link_rate_bps)
		return true;
	return t->kind == UET_TOPOLOGY_FAT_TREE &&
	       t->agg_core_rate_bps != t->link_rate_bps;
}

static void explain_rtt(const struct uet_scenario *s, char *buf, size_t len,
			size_t *at)
{
	char a[CFG_VALUE_LEN], b[CFG_VALUE_LEN], c[CFG_VALUE_LEN];
	struct rtt_parts p;

	network_rtt(s, &p);
	put(buf, len, at,
	    "the fabric's longest unloaded RTT, %u links each way: delays %s "
	    "+ a %" PRIu64 "-byte data frame %s + a %u-byte ACK %s",
	    s->derived.longest_path_links, fmt_ps(p.delay_ps, a),
	    data_frame_bytes(s), fmt_ps(p.data_ps, b),
	    UET_CONFIG_ACK_WIRE_BYTES, fmt_ps(p.ack_ps, c));
}

static void explain_rto(const struct uet_scenario *s, char *buf, size_t len,
			size_t *at)
{
	char a[CFG_VALUE_LEN], b[CFG_VALUE_LEN], c[CFG_VALUE_LEN];
	char d[CFG_VALUE_LEN];
	struct rto_parts p;

	derived_rto(s, &p);
	put(buf, len, at,
	    "the fabric's RTT %s + a full queue at each of the path's %u "
	    "switch port%s %s + a data frame ahead of the ACK on each of %u "
	    "links %s + the ACK hold of a packet %s",
	    fmt_ps(p.rtt_ps, a), p.queues, p.queues == 1 ? "" : "s",
	    fmt_ps(p.queues_ps, b), p.links, fmt_ps(p.ack_block_ps, c),
	    fmt_ps(p.hold_ps, d));
	if (p.cadence != 0) {
		char e[CFG_VALUE_LEN];

		put(buf, len, at,
		    " + %u packet%s sent before the next ACK request %s",
		    p.cadence, p.cadence == 1 ? "" : "s",
		    fmt_ps(p.cadence_ps, e));
	}
}

int cfg_auto_explain(const struct uet_scenario *s, const struct uet_attr *a,
		     char *buf, size_t len)
{
	int id = cfg_auto_attr(a);
	char v[CFG_VALUE_LEN], x[CFG_VALUE_LEN];
	size_t at = 0;

	if (id < 0 || len == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (a->type == UET_ATTR_SIZE)
		snprintf(v, sizeof(v), "%" PRIu64 " bytes",
			 cfg_field_get(a, s));
	else if (cfg_format_value(a, cfg_field_get(a, s), v, sizeof(v)) < 0)
		snprintf(v, sizeof(v), "?");
	put(buf, len, &at, "%s = ", v);
	switch ((enum uet_auto_attr)id) {
	case UET_AUTO_LEAF_SPINE_RATE:
	case UET_AUTO_AGG_CORE_RATE:
		put(buf, len, &at, "topology.link_rate");
		break;
	case UET_AUTO_LEAF_SPINE_DELAY:
	case UET_AUTO_AGG_CORE_DELAY:
		put(buf, len, &at, "topology.link_delay");
		break;
	case UET_AUTO_INITIAL_BASE_RTT:
		explain_rtt(s, buf, len, &at);
		break;
	case UET_AUTO_INITIAL_RTO:
		explain_rto(s, buf, len, &at);
		break;
	case UET_AUTO_NSCC_TARGET_QDELAY:
		put(buf, len, &at, "%s x InitialBaseRTT %s",
		    s->nic.trimming_enabled ? "0.75" : "1",
		    fmt_ps(s->pds.initial_base_rtt_ps, x));
		put(buf, len, &at,
		    s->nic.trimming_enabled ? " (nic.TrimmingEnabled)"
					    : " (no trimming)");
		break;
	case UET_AUTO_QUEUE_LIMIT: {
		char y[CFG_VALUE_LEN];
		uint64_t bdps =
			s->derived.queue_time_ps / s->derived.network_rtt_ps;

		put(buf, len, &at,
		    "%" PRIu64 " BDP%s (%s), topology.link_rate %s x the "
		    "fabric's RTT %s",
		    bdps, bdps == 1 ? "" : "s",
		    s->sw.trimming_enabled ? "switch.TrimmingEnabled"
					   : "drop tail",
		    fmt_bps(s->topology.link_rate_bps, x),
		    fmt_ps(s->derived.network_rtt_ps, y));
		if (bdps != 1)
			put(buf, len, &at, " x %" PRIu64, bdps);
		if (rates_differ(s))
			put(buf, len, &at,
			    "; a port of another rate holds as long at its "
			    "own rate");
		break;
	}
	case UET_AUTO_ECN_KMIN:
	case UET_AUTO_ECN_KMAX: {
		uint32_t ppm = id == UET_AUTO_ECN_KMIN
				       ? s->derived.ecn_kmin_ppm
				       : s->derived.ecn_kmax_ppm;
		uint32_t bdp_ppm = id == UET_AUTO_ECN_KMIN
					   ? UET_CONFIG_ECN_KMIN_PPM
					   : UET_CONFIG_ECN_KMAX_PPM;

		if (ppm == bdp_ppm)
			put(buf, len, &at, "%u%% of queue_limit",
			    bdp_ppm / 10000u);
		else
			put(buf, len, &at, "%u%% of a BDP, %u%% of queue_limit",
			    bdp_ppm / 10000u, ppm / 10000u);
		if (s->derived.queue_time_ps != 0 && rates_differ(s))
			put(buf, len, &at, ", of its own on every port");
		break;
	}
	case UET_AUTO_SWITCH_TRIMMING:
		put(buf, len, &at,
		    "nic.TrimmingEnabled, under UETPolicyEnabled with no "
		    "PFCClasses");
		break;
	case UET_AUTO_COUNT:
		return -EINVAL;
	}
	return (int)at;
}

/* A full-size packet at its nominal size (the PDS's count). */
int uet_scenario_nscc(const struct uet_scenario *s, struct uet_nscc_derived *d)
{
	struct uet_cc_params p = {
		.algo = UET_CC_NSCC,
		.data_rate_bps = s->nic.data_rate_bps,
		.initial_base_rtt_ps = s->pds.initial_base_rtt_ps,
		.mtu_nominal_bytes =
			uet_data_ip_bytes(s->nic.rdma_data_mss_bytes),
		.nscc_target_qdelay_ps = s->pds.nscc_target_qdelay_ps,
		.nscc_initial_window_bytes = s->pds.nscc_initial_window_bytes,
		.trimming = s->nic.trimming_enabled,
	};

	return uet_nscc_derive(&p, d);
}
