/* SPDX-License-Identifier: BSD-3-Clause */
/* Two NICs back to back, for the lib/nic tests. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "eal_test.h"
#include "nic_harness.h"
#include "uet_run_params.h"
#include "uet_port.h"
#include "uet_wire.h"

uint32_t h_ip(int i)
{
	return (198u << 24) | (18u << 16) | (uint32_t)(i + 1);
}

static bool in_set(const uint32_t *set, uint32_t n, uint32_t v)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (set[i] == v)
			return true;
	return false;
}

static void classify(const uint8_t *buf, size_t len, struct h_frame *fr)
{
	struct uet_frame f;

	fr->kind = H_OTHER;
	if (uet_frame_parse(buf, len, &f, NULL) == 0 &&
	    f.kind == UET_FRAME_PFC) {
		fr->kind = H_PFC;
		fr->pfc_classes = f.l2.pfc.class_enable;
		fr->pfc_quanta0 = f.l2.pfc.quanta[0];
		return;
	}
	if (uet_frame_parse(buf, len, &f, NULL) < 0 || f.kind != UET_FRAME_UET)
		return;
	fr->ip_bytes = f.ip.total_length_bytes;
	fr->dscp = f.ip.dscp;
	fr->ttl = f.ip.ttl;
	fr->ecn = f.ip.ecn;
	fr->sport = f.udp.sport;
	fr->flags = f.pds.flags;
	switch (f.pds.type) {
	case UET_PDS_TYPE_RUD_CC_REQ:
		fr->kind = H_DATA;
		fr->psn = f.pds.u.req.psn;
		fr->spdcid = f.pds.u.req.spdcid;
		break;
	case UET_PDS_TYPE_ACK_CC:
		fr->kind = f.pds.flags & UET_PDS_ACK_F_P ? H_PROBE_ACK : H_ACK;
		fr->service_time = f.pds.u.ack.cc.nscc.service_time;
		fr->psn = f.pds.u.ack.cack_psn +
			  (uint32_t)(int32_t)f.pds.u.ack.ack_psn_offset;
		fr->spdcid = f.pds.u.ack.spdcid;
		break;
	case UET_PDS_TYPE_NACK:
		fr->kind = H_NACK;
		fr->psn = f.pds.u.nack.nack_psn;
		fr->nack_code = f.pds.u.nack.nack_code;
		break;
	case UET_PDS_TYPE_CP:
		fr->kind = f.pds.next_hdr == UET_CP_PROBE ? H_PROBE : H_CLOSE;
		break;
	default:
		break;
	}
}

struct link {
	struct nic_pair *pair;
	int from;
};

static struct link links[2];

static int link_out(void *ctx, uint32_t port, struct rte_mbuf *m,
		    uet_time_t arrival_ps)
{
	struct link *l = ctx;
	struct nic_pair *pair = l->pair;
	static uint8_t buf[10000];
	struct h_frame fr;
	struct uet_component *to = uet_nic_component(pair->nic[1 - l->from]);
	uint32_t len = rte_pktmbuf_pkt_len(m);
	const uint8_t *p = rte_pktmbuf_read(m, 0, len, buf);

	(void)port;
	memset(&fr, 0, sizeof(fr));
	fr.from = l->from;
	fr.arrival_ps = arrival_ps;
	fr.pkt_len = len;
	classify(p, len, &fr);
	if (fr.kind == H_DATA && l->from == 0) {
		uint32_t idx = pair->data_index++;

		if (pair->keep && idx == pair->keep_data &&
		    pair->kept == NULL) {
			pair->kept =
				rte_pktmbuf_copy(m, pair->mp, 0, UINT32_MAX);
			ck_assert_ptr_nonnull(pair->kept);
		}
		fr.dropped = in_set(pair->drop_data, pair->ndrop_data, idx);
		if (pair->hold && idx == pair->hold_data &&
		    pair->held == NULL) {
			/* Lost on the wire, kept whole (not freed below). */
			pair->held = m;
			fr.dropped = true;
		} else if (in_set(pair->trim_data, pair->ntrim_data, idx)) {
			/* A switch trims: cut a linear copy, then a new
			 * one-segment frame of what is left. */
			struct rte_mbuf *t = rte_pktmbuf_alloc(pair->mp);
			int n;

			if (p != buf)
				memcpy(buf, p, len);
			n = uet_frame_trim(buf, len, pair->trim_dscp);
			ck_assert_int_gt(n, 0);
			if (pair->trim_ce)
				ck_assert_int_eq(
					uet_frame_mark_ce(buf, (size_t)n), 1);
			memcpy(rte_pktmbuf_append(t, (uint16_t)n), buf,
			       (size_t)n);
			rte_pktmbuf_free(m);
			m = t;
			fr.trimmed = true;
		}
	}
	if (fr.kind == H_CLOSE && l->from == 0 && pair->drop_close)
		fr.dropped = true;
	if (fr.kind == H_ACK && l->from == 1)
		fr.dropped = in_set(pair->drop_ack, pair->ndrop_ack,
				    pair->ack_index++);
	pair->count[l->from][fr.kind]++;
	if (pair->nframes < H_MAX_FRAMES)
		pair->frames[pair->nframes++] = fr;
	if (fr.dropped) {
		if (m != pair->held)
			rte_pktmbuf_free(m);
		return 0;
	}
	return to->deliver(to, 0, m, arrival_ps);
}

static void on_sent(void *ctx, const struct uet_ses_completion *c)
{
	struct nic_pair *pair = ctx;

	pair->sent[c->src_ip == h_ip(0) ? 0 : 1]++;
}

static void on_arrived(void *ctx, const struct uet_ses_completion *c)
{
	struct nic_pair *pair = ctx;

	if (c->external && pair->external_match && c->match_msg_id != NULL)
		*c->match_msg_id = pair->external_match_id;
	if (c->external)
		pair->arrived_external[c->dst_ip == h_ip(0) ? 0 : 1]++;
	else
		pair->arrived[c->dst_ip == h_ip(0) ? 0 : 1]++;
}

static void on_completed(void *ctx, const struct uet_ses_completion *c)
{
	struct nic_pair *pair = ctx;

	pair->completed[c->src_ip == h_ip(0) ? 0 : 1]++;
	pair->last_completed_ps = c->time_ps;
}

static const char harness_pds[] =
	"pds: {InitialBaseRTT: 4us, InitialRetransmitTimeout: 20us}\n";

void h_init(struct nic_pair *pair)
{
	/* EAL starts once per (forked) test process; a test may run
	 * several scenarios. */
	static bool eal_up;
	static unsigned int pools;
	struct uet_scenario sc;
	char name[32];

	memset(pair, 0, sizeof(*pair));
	if (!eal_up) {
		uet_test_eal("test_nic", "h");
		eal_up = true;
	}
	snprintf(name, sizeof(name), "h_mp%u", pools++);
	pair->mp = rte_pktmbuf_pool_create(
		name, 16383, 256, 0, RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	ck_assert_ptr_nonnull(pair->mp);
	/* Two NICs back to back, not the default switch the auto values
	 * are derived for: the timings these tests work out assume a 4 us
	 * base RTT and a 20 us timeout. */
	ck_assert_int_eq(uet_scenario_load_string(&sc, "nic-harness",
						  harness_pds,
						  strlen(harness_pds), NULL),
			 0);
	ck_assert_int_eq(uet_run_nic_params(&sc, 0, &pair->p), 0);
	pair->p.lb.algo = UET_LB_OBLIVIOUS;
	pair->trim_dscp = UET_DSCP_DEFAULT_TRIMMED;
}

void h_start(struct nic_pair *pair)
{
	struct uet_ses_callbacks cb = {
		.sent = on_sent,
		.arrived = on_arrived,
		.completed = on_completed,
		.ctx = pair,
	};
	struct uet_nic_params p1 = pair->p;
	int i;

	if (pair->nic1_lane_count != 0)
		p1.pcie.lane_count = pair->nic1_lane_count;
	for (i = 0; i < 2; i++) {
		struct uet_nic_conf c = {
			.params = i == 1 ? &p1 : &pair->p,
			.index = (uint32_t)i,
			.ip = h_ip(i),
			.mac = {2, 0, 0, 0, 0, (uint8_t)(i + 1)},
			.switch_mac = {2, 0, 0, 0, 0xff, 0xff},
			.mempool = pair->mp,
			.record = pair->rec,
			.arrivals = pair->arrivals,
			.pattern = pair->pattern,
			.seed = 42,
			.external_ips = pair->external_ips,
			.external_count = pair->external_count,
		};
		struct uet_component *comp;

		ck_assert_int_eq(uet_nic_create(&pair->nic[i], &c), 0);
		comp = uet_nic_component(pair->nic[i]);
		links[i].pair = pair;
		links[i].from = i;
		comp->out = link_out;
		comp->out_ctx = &links[i];
		uet_nic_set_callbacks(pair->nic[i], &cb);
	}
}

void h_run(struct nic_pair *pair, uet_time_t end_ps)
{
	for (;;) {
		struct uet_evq *q0 = &uet_nic_component(pair->nic[0])->evq;
		struct uet_evq *q1 = &uet_nic_component(pair->nic[1])->evq;
		uet_time_t t0 = uet_evq_next_time(q0);
		uet_time_t t1 = uet_evq_next_time(q1);

		if (t0 == UET_TIME_NEVER && t1 == UET_TIME_NEVER)
			return;
		if ((t0 <= t1 ? t0 : t1) >= end_ps)
			return;
		uet_evq_run_one(t0 <= t1 ? q0 : q1);
	}
}

void h_deliver(struct nic_pair *pair, int i, struct rte_mbuf *m,
	       uet_time_t arrival_ps)
{
	struct uet_component *to = uet_nic_component(pair->nic[i]);

	ck_assert_int_eq(to->deliver(to, 0, m, arrival_ps), 0);
}

void h_check_invariants(struct nic_pair *pair)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct uet_nic_stats s;

		uet_nic_stats(pair->nic[i], &s);
		ck_assert_uint_eq(s.in_flight_anomalies, 0);
		ck_assert_uint_eq(s.payload_mismatches, 0);
		ck_assert_uint_eq(s.psns_retired, s.psns_taken);
		ck_assert_uint_eq(s.transport.in_flight_bytes, 0);
		ck_assert_uint_eq(s.transport.egress_pool_used_bytes, 0);
		ck_assert(uet_nic_idle(pair->nic[i]));
	}
}

void h_fini(struct nic_pair *pair)
{
	rte_pktmbuf_free(pair->kept);
	rte_pktmbuf_free(pair->held);
	uet_nic_destroy(pair->nic[0]);
	uet_nic_destroy(pair->nic[1]);
	rte_mempool_free(pair->mp);
}

struct uet_nic_stats h_stats(struct nic_pair *pair, int i)
{
	struct uet_nic_stats s;

	uet_nic_stats(pair->nic[i], &s);
	return s;
}

const struct h_frame *h_nth_frame(const struct nic_pair *pair, int from,
				  enum h_kind kind, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < pair->nframes; i++)
		if (pair->frames[i].from == from &&
		    pair->frames[i].kind == kind && n-- == 0)
			return &pair->frames[i];
	return NULL;
}

void h_run_one_message(struct nic_pair *pair, uint64_t bytes)
{
	h_start(pair);
	ck_assert_int_eq(
		uet_nic_post_message(pair->nic[0], h_ip(1), bytes, 0, 7), 0);
	h_run(pair, RUN_END_PS);
	ck_assert_uint_eq(pair->sent[0], 1);
	ck_assert_uint_eq(pair->arrived[1], 1);
	ck_assert_uint_eq(pair->completed[0], 1);
	h_check_invariants(pair);
}
