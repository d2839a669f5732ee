/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Priority flow control at the switch: XOFF when an ingress port's bytes
 * in a lossless class reach PFCXoff and XON when they fall to PFCXon
 * (hysteresis), pause frames out of the ingress port ahead of its data,
 * the headroom, no egress limit on a lossless class, egress pauses for the
 * quanta or until a resume, and XOFF sent again while the congestion
 * lasts.
 */
#include "fabric_test.h"

/* One frame out of the fabric, data or pause. */
struct pt_out {
	uint32_t port;
	bool pfc;
	uint16_t tag;	   /* data: the IPv4 identification */
	uint8_t classes;   /* pause: the class-enable vector */
	uint16_t quanta0;  /* pause: class 0's quanta */
	uet_time_t now_ps; /* the fabric's time when it left */
	uet_time_t arrival_ps;
};

struct pt_env {
	struct ft_env ft; /* first: out_ctx points at both */
	struct pt_out out[128];
	unsigned int n;
};

/* 400 Gbps: a 64-byte pause frame (60 + FCS) takes 1,280 ps. */
#define PT_SER_PFC_PS UINT64_C(1280)
/* One quantum at 400 Gbps: 512 bit times, 1.28 ns. */
#define PT_QUANTUM_PS UINT64_C(1280)

static int pt_out_fn(void *ctx, uint32_t port, struct rte_mbuf *m,
		     uet_time_t arrival_ps)
{
	struct pt_env *env = ctx;
	const uint8_t *buf = rte_pktmbuf_mtod(m, const uint8_t *);
	struct pt_out *o;
	struct uet_frame f;

	ck_assert_uint_lt(env->n, 128);
	o = &env->out[env->n++];
	memset(o, 0, sizeof(*o));
	o->port = port;
	o->now_ps = uet_fabric_port_now(env->ft.fab, port);
	o->arrival_ps = arrival_ps;
	ck_assert_int_eq(uet_frame_parse(buf, rte_pktmbuf_pkt_len(m), &f, NULL),
			 0);
	if (f.kind == UET_FRAME_PFC) {
		struct uet_pfc pfc;

		ck_assert_uint_eq(rte_pktmbuf_pkt_len(m), UET_PFC_FRAME_BYTES);
		ck_assert_int_eq(
			uet_pfc_parse(buf, rte_pktmbuf_pkt_len(m), &pfc, NULL),
			0);
		o->pfc = true;
		o->classes = pfc.class_enable;
		o->quanta0 = pfc.quanta[0];
		/* From the switch port's own address. */
		ck_assert_uint_eq(pfc.src[0], 0x02);
		ck_assert_uint_eq(pfc.src[3], 0x01);
		ck_assert_uint_eq(pfc.src[5], port);
	} else {
		o->tag = f.ip.id;
	}
	rte_pktmbuf_free(m);
	return 0;
}

/* 8 hosts at 400 Gbps, no UET policy (DSCP 0 is TC0), TC0 lossless. */
static void pt_conf(struct uet_fabric_conf *conf, uint64_t xoff, uint64_t xon,
		    uint64_t headroom, uint16_t quanta)
{
	ft_conf(conf);
	conf->pfc_classes = 0x01;
	conf->pfc_xoff_bytes = xoff;
	conf->pfc_xon_bytes = xon;
	conf->pfc_headroom_bytes = headroom;
	conf->pfc_pause_quanta = quanta;
}

static void pt_open(struct pt_env *env, const char *what,
		    const struct uet_fabric_conf *conf)
{
	memset(env, 0, sizeof(*env));
	ft_open(&env->ft, what, conf);
	env->ft.c->out_ctx = env;
	env->ft.c->out = pt_out_fn;
}

/* A PFC frame from host port's NIC pausing class 0 for quanta. */
static void pt_pause(struct pt_env *env, uint16_t port, uint16_t quanta,
		     uet_time_t at_ps)
{
	struct uet_pfc pfc = {.class_enable = 0x01, .quanta = {quanta}};
	uint8_t buf[UET_PFC_FRAME_BYTES];

	ck_assert_int_eq(uet_host_mac(port, pfc.src), 0);
	ck_assert_int_eq(uet_pfc_build(buf, sizeof(buf), &pfc),
			 UET_PFC_FRAME_BYTES);
	ft_deliver(&env->ft, port, ft_raw(&env->ft, buf, UET_PFC_FRAME_BYTES),
		   at_ps);
}

static void pt_data(struct pt_env *env, uint16_t port, uint16_t tag,
		    uet_time_t at_ps)
{
	ft_deliver(&env->ft, port,
		   ft_frame(&env->ft, port, 0, FT_PAYLOAD_BIG, tag), at_ps);
}

/* The pause frames that left port, in order. */
static unsigned int pt_pauses(const struct pt_env *env, uint16_t port,
			      const struct pt_out **got, unsigned int max)
{
	unsigned int i, n = 0;

	for (i = 0; i < env->n; i++)
		if (env->out[i].pfc && env->out[i].port == port && n < max)
			got[n++] = &env->out[i];
	return n;
}

static void pt_close(struct pt_env *env)
{
	ft_close(&env->ft);
}

/*
 * Hosts 1 and 2 each send four full frames to host 0 at line rate (host
 * 2 one ps behind): the port to host 0 drains one per 84,040 ps, so
 * host 2's bytes in the switch reach 3 frames (12,606 = PFCXoff) at its
 * fourth frame, T0 + 3 x 84,040 + 1: one XOFF leaves port 2 then, ahead
 * of everything, 1,280 ps long. Host 1's never pass 2 frames. Host 2's
 * fall to 2 frames (still above PFCXon: no second XOFF, no XON) and to one
 * frame (4,202 = PFCXon) at T0 + 6 x 84,040, when the XON leaves.
 */
START_TEST(test_xoff_at_xoff_once_then_xon_at_xon)
{
	struct uet_fabric_conf conf;
	struct uet_fabric_port_stats st;
	const struct pt_out *p[4];
	struct pt_env env;
	unsigned int i;

	pt_conf(&conf, 3 * FT_WIRE_BIG, FT_WIRE_BIG, 4 * FT_WIRE_BIG, 0xffff);
	pt_open(&env, "hyst", &conf);
	for (i = 0; i < 4; i++) {
		pt_data(&env, 1, (uint16_t)(10 + i),
			FT_T0_PS + i * FT_SER_BIG_PS);
		pt_data(&env, 2, (uint16_t)(20 + i),
			FT_T0_PS + i * FT_SER_BIG_PS + 1);
	}
	ft_run(&env.ft);
	ck_assert_uint_eq(pt_pauses(&env, 1, p, 4), 0);
	ck_assert_uint_eq(pt_pauses(&env, 2, p, 4), 2);
	ck_assert_uint_eq(p[0]->classes, 0x01);
	ck_assert_uint_eq(p[0]->quanta0, 0xffff);
	ck_assert_uint_eq(p[0]->now_ps,
			  FT_T0_PS + 3 * FT_SER_BIG_PS + 1 + PT_SER_PFC_PS);
	ck_assert_uint_eq(p[0]->arrival_ps, p[0]->now_ps + FT_DELAY_PS);
	ck_assert_uint_eq(p[1]->classes, 0x01);
	ck_assert_uint_eq(p[1]->quanta0, 0);
	ck_assert_uint_eq(p[1]->now_ps,
			  FT_T0_PS + 6 * FT_SER_BIG_PS + PT_SER_PFC_PS);
	st = ft_stats(&env.ft, 2);
	ck_assert_uint_eq(st.pfc_tx_xoff_frames, 1);
	ck_assert_uint_eq(st.pfc_tx_xon_frames, 1);
	ck_assert_uint_eq(st.tx_frames, 2);
	ck_assert_uint_eq(st.tx_bytes, 2 * 64);
	ck_assert_uint_eq(st.tc[0].peak_ingress_bytes, 3 * FT_WIRE_BIG);
	ck_assert_uint_eq(st.tc[0].ingress_bytes, 0);
	ck_assert_uint_eq(ft_stats(&env.ft, 1).tc[0].peak_ingress_bytes,
			  2 * FT_WIRE_BIG);
	/* Every data frame reached host 0. */
	st = ft_stats(&env.ft, 0);
	ck_assert_uint_eq(st.tx_frames, 8);
	ck_assert_uint_eq(st.drop_full_frames, 0);
	pt_close(&env);
}
END_TEST

/*
 * A lossless class has no egress limit (queue_limit is one frame here):
 * host 1's frames join until its ingress holds PFCXoff + PFCHeadroom (3
 * frames), the second one sends XOFF, the fourth is dropped and counted
 * as a headroom drop; XON leaves when host 1's bytes fall to one frame.
 */
START_TEST(test_lossless_class_headroom_not_queue_limit)
{
	struct uet_fabric_conf conf;
	struct uet_fabric_port_stats st;
	const struct pt_out *p[4];
	struct pt_env env;
	unsigned int i;

	pt_conf(&conf, 2 * FT_WIRE_BIG, FT_WIRE_BIG, FT_WIRE_BIG, 0xffff);
	conf.queue_limit_bytes = FT_WIRE_BIG;
	pt_open(&env, "headroom", &conf);
	for (i = 0; i < 4; i++)
		pt_data(&env, 1, (uint16_t)(10 + i), FT_T0_PS + i);
	ft_run(&env.ft);
	ck_assert_uint_eq(pt_pauses(&env, 1, p, 4), 2);
	ck_assert_uint_eq(p[0]->quanta0, 0xffff);
	ck_assert_uint_eq(p[0]->now_ps, FT_T0_PS + 1 + PT_SER_PFC_PS);
	ck_assert_uint_eq(p[1]->quanta0, 0);
	ck_assert_uint_eq(p[1]->now_ps,
			  FT_T0_PS + 2 * FT_SER_BIG_PS + PT_SER_PFC_PS);
	st = ft_stats(&env.ft, 1);
	ck_assert_uint_eq(st.pfc_headroom_drop_frames, 1);
	ck_assert_uint_eq(st.tc[0].peak_ingress_bytes, 3 * FT_WIRE_BIG);
	st = ft_stats(&env.ft, 0);
	ck_assert_uint_eq(st.tx_frames, 3);
	ck_assert_uint_eq(st.tc[0].drop_frames, 1);
	ck_assert_uint_eq(st.drop_full_frames, 1);
	ck_assert_uint_eq(st.tc[0].peak_queue_bytes, 3 * FT_WIRE_BIG);
	pt_close(&env);
}
END_TEST

/*
 * Host 0 pauses class 0 for 100 quanta (128,000 ps at 400 Gbps) at T0: a
 * frame for it that arrives at T0 + 1,000 starts at T0 + 128,000, while a
 * TC2 frame (DSCP 16, not lossless) is not held. The time paused is
 * counted.
 */
START_TEST(test_egress_pause_holds_class_for_its_quanta)
{
	struct uet_fabric_conf conf;
	struct uet_fabric_port_stats st;
	struct pt_env env;
	struct rte_mbuf *m;

	pt_conf(&conf, 1u << 20, 1u << 19, 1u << 20, 0xffff);
	pt_open(&env, "equanta", &conf);
	pt_pause(&env, 0, 100, FT_T0_PS);
	pt_data(&env, 1, 1, FT_T0_PS + 1000);
	m = ft_frame(&env.ft, 2, 0, FT_PAYLOAD_SMALL, 2);
	ck_assert_int_eq(uet_frame_set_dscp(rte_pktmbuf_mtod(m, uint8_t *),
					    rte_pktmbuf_pkt_len(m), 16),
			 0);
	ft_deliver(&env.ft, 2, m, FT_T0_PS + 2000);
	ft_run(&env.ft);
	ck_assert_uint_eq(env.n, 2);
	ck_assert_uint_eq(env.out[0].tag, 2);
	ck_assert_uint_eq(env.out[0].now_ps, FT_T0_PS + 2000 + FT_SER_SMALL_PS);
	ck_assert_uint_eq(env.out[1].tag, 1);
	ck_assert_uint_eq(env.out[1].now_ps,
			  FT_T0_PS + 100 * PT_QUANTUM_PS + FT_SER_BIG_PS);
	st = ft_stats(&env.ft, 0);
	ck_assert_uint_eq(st.pfc_rx_xoff_frames, 1);
	ck_assert_uint_eq(st.tc[0].paused_ps, 100 * PT_QUANTUM_PS);
	ck_assert_uint_eq(st.tc[2].paused_ps, 0);
	pt_close(&env);
}
END_TEST

/* A resume (quanta 0) ends the pause early: the frame starts with it. */
START_TEST(test_egress_pause_ends_at_xon)
{
	struct uet_fabric_conf conf;
	struct uet_fabric_port_stats st;
	struct pt_env env;

	pt_conf(&conf, 1u << 20, 1u << 19, 1u << 20, 0xffff);
	pt_open(&env, "exon", &conf);
	pt_pause(&env, 0, 0xffff, FT_T0_PS);
	pt_data(&env, 1, 1, FT_T0_PS + 1000);
	pt_pause(&env, 0, 0, FT_T0_PS + 50000);
	ft_run(&env.ft);
	ck_assert_uint_eq(env.n, 1);
	ck_assert_uint_eq(env.out[0].now_ps, FT_T0_PS + 50000 + FT_SER_BIG_PS);
	st = ft_stats(&env.ft, 0);
	ck_assert_uint_eq(st.pfc_rx_xoff_frames, 1);
	ck_assert_uint_eq(st.pfc_rx_xon_frames, 1);
	ck_assert_uint_eq(st.tc[0].paused_ps, 50000);
	pt_close(&env);
}
END_TEST

/*
 * With PFCPauseQuanta 10 (12,800 ps) an XOFF is sent again every 6,400
 * ps while the ingress stays at or above PFCXon: host 0 pauses the
 * switch, host 1's two frames reach PFCXoff at T0 + 1,001 and stay until
 * host 0 resumes at T0 + 30,000; the first leaves 84,040 ps later and the
 * XON goes then. XOFFs at T0 + 1,001 + k x 6,400 for k = 0 to 17.
 */
START_TEST(test_xoff_refreshed_at_half_the_pause)
{
	struct uet_fabric_conf conf;
	const struct pt_out *p[32];
	struct pt_env env;
	unsigned int k, n;

	pt_conf(&conf, 2 * FT_WIRE_BIG, FT_WIRE_BIG, 4 * FT_WIRE_BIG, 10);
	pt_open(&env, "refresh", &conf);
	pt_pause(&env, 0, 0xffff, FT_T0_PS);
	pt_data(&env, 1, 1, FT_T0_PS + 1000);
	pt_data(&env, 1, 2, FT_T0_PS + 1001);
	pt_pause(&env, 0, 0, FT_T0_PS + 30000);
	ft_run(&env.ft);
	n = pt_pauses(&env, 1, p, 32);
	ck_assert_uint_eq(n, 19);
	for (k = 0; k < 18; k++) {
		ck_assert_uint_eq(p[k]->quanta0, 10);
		ck_assert_uint_eq(p[k]->now_ps,
				  FT_T0_PS + 1001 + k * 6400 + PT_SER_PFC_PS);
	}
	ck_assert_uint_eq(p[18]->quanta0, 0);
	ck_assert_uint_eq(p[18]->now_ps,
			  FT_T0_PS + 30000 + FT_SER_BIG_PS + PT_SER_PFC_PS);
	ck_assert_uint_eq(ft_stats(&env.ft, 1).pfc_tx_xoff_frames, 18);
	pt_close(&env);
}
END_TEST

/* The port of switch sw on the link named link. */
static uint32_t pt_port(struct pt_env *env, const char *sw, const char *link)
{
	struct uet_fabric_port_info info;
	uint32_t i;

	for (i = 0; i < uet_fabric_port_count(env->ft.fab); i++) {
		ck_assert_int_eq(uet_fabric_port_info(env->ft.fab, i, &info),
				 0);
		if (strcmp(info.switch_name, sw) == 0 &&
		    strcmp(info.link_name, link) == 0)
			return i;
	}
	ck_abort_msg("no port of %s on %s", sw, link);
	return 0;
}

/*
 * Pauses cross the links between switches: in a leaf-spine of 2 leaves,
 * 1 spine and 2 hosts per leaf, host 2 pauses class 0 and host 0 sends 8
 * frames to it. leaf1 fills and pauses the spine, the spine pauses leaf0,
 * leaf0 pauses host 0; when host 2 resumes at T0 + 20 us every queue
 * drains, the resumes go back the same way, and nothing is dropped.
 */
START_TEST(test_pause_backs_up_hop_by_hop_through_a_leaf_spine)
{
	struct uet_fabric_conf conf;
	struct uet_fabric_port_stats st;
	const struct pt_out *p[4];
	struct pt_env env;
	uint32_t leaf1_up, spine_down1, spine_down0, leaf0_up, i, data = 0;

	pt_conf(&conf, 2 * FT_WIRE_BIG, FT_WIRE_BIG, 20 * FT_WIRE_BIG, 0xffff);
	ft_leaf_spine(&conf, 2, 1, 2);
	conf.tier1_delay_ps = FT_DELAY_PS;
	pt_open(&env, "hop", &conf);
	leaf1_up = pt_port(&env, "leaf1", "leaf1-spine0");
	spine_down1 = pt_port(&env, "spine0", "leaf1-spine0");
	leaf0_up = pt_port(&env, "leaf0", "leaf0-spine0");
	spine_down0 = pt_port(&env, "spine0", "leaf0-spine0");
	pt_pause(&env, 2, 0xffff, FT_T0_PS);
	for (i = 0; i < 48; i++)
		ft_deliver(&env.ft, 0,
			   ft_frame(&env.ft, 0, 2, FT_PAYLOAD_BIG,
				    (uint16_t)(1 + i)),
			   FT_T0_PS + 1000 + i * FT_SER_BIG_PS);
	pt_pause(&env, 2, 0, FT_T0_PS + 20000000);
	ft_run(&env.ft);
	for (i = 0; i < env.n; i++)
		if (!env.out[i].pfc) {
			ck_assert_uint_eq(env.out[i].port, 2);
			ck_assert_uint_ge(env.out[i].now_ps,
					  FT_T0_PS + 20000000);
			data++;
		}
	ck_assert_uint_eq(data, 48);
	ck_assert_uint_eq(pt_pauses(&env, 0, p, 4), 2);
	ck_assert_uint_eq(p[0]->quanta0, 0xffff);
	ck_assert_uint_eq(p[1]->quanta0, 0);
	ck_assert_uint_lt(p[0]->now_ps, FT_T0_PS + 20000000);
	ck_assert_uint_gt(p[1]->now_ps, FT_T0_PS + 20000000);
	/* Host 0's pause leaves at T0 + 2.44 us, its resume 4.79 us after
	 * host 2's. */
	ck_assert_uint_eq(p[0]->now_ps, FT_T0_PS + 2439440);
	ck_assert_uint_eq(p[1]->now_ps, FT_T0_PS + 24785640);
	for (i = 0; i < uet_fabric_port_count(env.ft.fab); i++)
		ck_assert_uint_eq(
			ft_stats(&env.ft, (uint16_t)i).drop_full_frames, 0);
	/* Each hop: one XOFF and one XON from the ingress that filled, one
	 * pause on the egress facing it. The switches' ingresses peak at 14
	 * frames: 2 (PFCXoff) and 12 in flight over 2 x 500 ns. Host 0
	 * ignores pauses here, so its ingress reaches 20 frames. */
	st = ft_stats(&env.ft, 0);
	ck_assert_uint_eq(st.pfc_tx_xoff_frames, 1);
	ck_assert_uint_eq(st.pfc_tx_xon_frames, 1);
	ck_assert_uint_eq(st.tc[0].peak_ingress_bytes, 20 * FT_WIRE_BIG);
	ck_assert_uint_eq(ft_stats(&env.ft, 2).tc[0].paused_ps, 20000000);
	st = ft_stats(&env.ft, (uint16_t)leaf1_up);
	ck_assert_uint_eq(st.pfc_tx_xoff_frames, 1);
	ck_assert_uint_eq(st.pfc_tx_xon_frames, 1);
	ck_assert_uint_eq(st.tc[0].peak_ingress_bytes, 14 * FT_WIRE_BIG);
	st = ft_stats(&env.ft, (uint16_t)spine_down1);
	ck_assert_uint_eq(st.pfc_rx_xoff_frames, 1);
	ck_assert_uint_eq(st.pfc_rx_xon_frames, 1);
	ck_assert_uint_eq(st.tc[0].paused_ps, 19839400);
	st = ft_stats(&env.ft, (uint16_t)spine_down0);
	ck_assert_uint_eq(st.pfc_tx_xoff_frames, 1);
	ck_assert_uint_eq(st.pfc_tx_xon_frames, 1);
	ck_assert_uint_eq(st.tc[0].peak_ingress_bytes, 14 * FT_WIRE_BIG);
	st = ft_stats(&env.ft, (uint16_t)leaf0_up);
	ck_assert_uint_eq(st.pfc_rx_xoff_frames, 1);
	ck_assert_uint_eq(st.pfc_rx_xon_frames, 1);
	ck_assert_uint_eq(st.tc[0].paused_ps, 20840680);
	pt_close(&env);
}
END_TEST

/* MAC control frames that are not PFC (too short for one, or an 802.3x
 * PAUSE, opcode 0x0001) are counted and dropped; they pause nothing. */
START_TEST(test_mac_control_not_pfc_dropped_pauses_nothing)
{
	struct uet_fabric_conf conf;
	struct uet_fabric_port_stats st;
	struct uet_pfc pfc = {.class_enable = 0x01, .quanta = {0xffff}};
	uint8_t buf[UET_PFC_FRAME_BYTES];
	struct pt_env env;

	pt_conf(&conf, 1u << 20, 1u << 19, 1u << 20, 0xffff);
	pt_open(&env, "notpfc", &conf);
	ck_assert_int_eq(uet_pfc_build(buf, sizeof(buf), &pfc),
			 UET_PFC_FRAME_BYTES);
	ft_deliver(&env.ft, 0, ft_raw(&env.ft, buf, UET_PFC_BYTES - 1),
		   FT_T0_PS);
	buf[14] = 0x00; /* opcode 0x0001: 802.3x PAUSE */
	ft_deliver(&env.ft, 0, ft_raw(&env.ft, buf, UET_PFC_FRAME_BYTES),
		   FT_T0_PS + 10);
	pt_data(&env, 1, 1, FT_T0_PS + 1000);
	ft_run(&env.ft);
	st = ft_stats(&env.ft, 0);
	ck_assert_uint_eq(st.drop_control_frames, 2);
	ck_assert_uint_eq(st.pfc_rx_xoff_frames + st.pfc_rx_xon_frames, 0);
	ck_assert_uint_eq(st.tc[0].paused_ps, 0);
	ck_assert_uint_eq(env.n, 1);
	ck_assert_uint_eq(env.out[0].now_ps, FT_T0_PS + 1000 + FT_SER_BIG_PS);
	pt_close(&env);
}
END_TEST

static Suite *pfc_suite(void)
{
	Suite *s = suite_create("fabric_pfc");
	TCase *tc = tcase_create("pfc");

	tcase_add_test(tc, test_xoff_at_xoff_once_then_xon_at_xon);
	tcase_add_test(tc, test_lossless_class_headroom_not_queue_limit);
	tcase_add_test(tc, test_egress_pause_holds_class_for_its_quanta);
	tcase_add_test(tc, test_egress_pause_ends_at_xon);
	tcase_add_test(tc, test_xoff_refreshed_at_half_the_pause);
	tcase_add_test(tc, test_pause_backs_up_hop_by_hop_through_a_leaf_spine);
	tcase_add_test(tc, test_mac_control_not_pfc_dropped_pauses_nothing);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(pfc_suite)
