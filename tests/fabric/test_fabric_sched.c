/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Scheduling between classes (strict priority, weighted round robin) and
 * ECN CE marking on class occupancy, at enqueue and at dequeue.
 */
#include "fabric_test.h"

/* A big frame from port's host to host 0 with codepoint dscp. */
static void st_send(struct ft_env *env, uint16_t port, uint8_t dscp,
		    uint16_t tag, uet_time_t at_ps)
{
	struct rte_mbuf *m = ft_frame(env, port, 0, FT_PAYLOAD_BIG, tag);

	ck_assert_int_eq(uet_frame_set_dscp(rte_pktmbuf_mtod(m, uint8_t *),
					    rte_pktmbuf_pkt_len(m), dscp),
			 0);
	ft_deliver(env, port, m, at_ps);
}

START_TEST(test_strict_priority_control_before_queued_data)
{
	struct uet_fabric_conf conf;
	struct ft_env env;

	ft_conf(&conf);
	conf.uet_policy = true;
	uet_dscp_map_default(&conf.dscp);
	ft_open(&env, "strict", &conf);
	st_send(&env, 1, UET_DSCP_DEFAULT_NO_TRIM, 1, FT_T0_PS);
	st_send(&env, 3, UET_DSCP_DEFAULT_NO_TRIM, 3, FT_T0_PS + 1);
	st_send(&env, 2, UET_DSCP_DEFAULT_CONTROL, 2, FT_T0_PS + 2);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 3);
	ft_assert_out(&env, 0, 0, 1, FT_T0_PS + FT_SER_BIG_PS);
	ft_assert_out(&env, 1, 0, 2, FT_T0_PS + 2 * FT_SER_BIG_PS);
	ft_assert_out(&env, 2, 0, 3, FT_T0_PS + 3 * FT_SER_BIG_PS);
	ft_close(&env);
}
END_TEST

START_TEST(test_wrr_weights_2_to_1_interleave_classes)
{
	struct uet_fabric_conf conf;
	struct ft_env env;
	const uint16_t want[7] = {11, 21, 22, 12, 23, 24, 13};
	unsigned int i;

	ft_conf(&conf);
	conf.sched = UET_FABRIC_SCHED_WRR;
	conf.wrr_weight[0] = 2;
	conf.wrr_weight[1] = 1;
	ft_open(&env, "wrr", &conf);
	/* Without the UET policy, DSCP 8 is TC1 and DSCP 0 TC0. */
	for (i = 0; i < 3; i++)
		st_send(&env, 1, 8, (uint16_t)(11 + i), FT_T0_PS + i);
	for (i = 0; i < 4; i++)
		st_send(&env, 2, 0, (uint16_t)(21 + i), FT_T0_PS + 1 + i);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 7);
	for (i = 0; i < 7; i++)
		ft_assert_out(&env, i, 0, want[i],
			      FT_T0_PS + (i + 1) * FT_SER_BIG_PS);
	ft_close(&env);
}
END_TEST

/* ECN field of each tag as it left the switch. */
struct st_ecn {
	uint8_t ecn[8];
};

static void st_capture(void *ctx, uint32_t port, const struct rte_mbuf *m,
		       uet_time_t time_ps, bool to_host)
{
	struct st_ecn *seen = ctx;
	struct uet_ipv4_hdr ip;

	(void)port;
	(void)time_ps;
	if (!to_host)
		return;
	ck_assert_int_gt(
		uet_ipv4_parse(rte_pktmbuf_mtod(m, const uint8_t *) +
				       UET_ETH_HDR_BYTES,
			       rte_pktmbuf_pkt_len(m) - UET_ETH_HDR_BYTES, &ip,
			       NULL),
		0);
	ck_assert_uint_lt(ip.id, 8);
	seen->ecn[ip.id] = ip.ecn;
}

/* Split m as a NIC builds a data frame: its headers in m, its payload
 * in a second mbuf chained to it. */
static struct rte_mbuf *st_chain(struct ft_env *env, struct rte_mbuf *m)
{
	const uint16_t hdr = UET_DATA_HDR_FRAME_BYTES;
	const uint16_t rest = (uint16_t)(rte_pktmbuf_data_len(m) - hdr);
	struct rte_mbuf *p = rte_pktmbuf_alloc(env->mp);
	char *to;

	ck_assert_ptr_nonnull(p);
	to = rte_pktmbuf_append(p, rest);
	ck_assert_ptr_nonnull(to);
	memcpy(to, rte_pktmbuf_mtod_offset(m, const char *, hdr), rest);
	ck_assert_int_eq(rte_pktmbuf_trim(m, rest), 0);
	ck_assert_int_eq(rte_pktmbuf_chain(m, p), 0);
	return m;
}

/* Three big frames to host 0 at once, ECN step at one frame (kmin = kmax
 * = 4,202 bytes): the CE count and each tag's ECN field. chained: each
 * frame in two segments, headers and payload. */
static void st_ecn_run(bool at_dequeue, bool chained, uint64_t want_marks,
		       const uint8_t want_ecn[3])
{
	struct uet_fabric_conf conf;
	struct ft_env env;
	struct st_ecn seen;
	struct uet_fabric_port_stats st;

	memset(&seen, 0xff, sizeof(seen));
	ft_conf(&conf);
	conf.ecn = true;
	conf.ecn_at_dequeue = at_dequeue;
	conf.ecn_kmin_bytes = FT_WIRE_BIG;
	conf.ecn_kmax_bytes = FT_WIRE_BIG;
	ft_open_pool(&env, &conf);
	uet_fabric_set_capture(env.fab, st_capture, &seen);
	for (uint16_t i = 1; i <= 3; i++) {
		struct rte_mbuf *m = ft_frame(&env, i, 0, FT_PAYLOAD_BIG, i);

		ft_deliver(&env, i, chained ? st_chain(&env, m) : m,
			   FT_T0_PS + i);
	}
	ft_run(&env);
	st = ft_stats(&env, 0);
	ck_assert_uint_eq(st.ecn_frames, want_marks);
	ck_assert_uint_eq(st.tc[0].ecn_frames, want_marks);
	for (unsigned int i = 0; i < 3; i++)
		ck_assert_uint_eq(seen.ecn[i + 1], want_ecn[i]);
	ft_close(&env);
}

START_TEST(test_ecn_at_enqueue_marks_frames_that_find_kmax_queued)
{
	const uint8_t want[3] = {UET_ECN_ECT1, UET_ECN_CE, UET_ECN_CE};

	uet_test_eal("uetfab", "ecnenq");
	st_ecn_run(false, false, 2, want);
}
END_TEST

START_TEST(test_ecn_at_dequeue_marks_frames_that_leave_kmax_behind)
{
	const uint8_t want[3] = {UET_ECN_ECT1, UET_ECN_CE, UET_ECN_ECT1};

	uet_test_eal("uetfab", "ecndeq");
	st_ecn_run(true, false, 1, want);
}
END_TEST

/* A NIC's data frames are a header mbuf and a payload mbuf: the mark must
 * still land (the IPv4 total length covers both segments). */
START_TEST(test_ecn_marks_frames_chained_like_a_nics)
{
	const uint8_t want_deq[3] = {UET_ECN_ECT1, UET_ECN_CE, UET_ECN_ECT1};
	const uint8_t want_enq[3] = {UET_ECN_ECT1, UET_ECN_CE, UET_ECN_CE};

	uet_test_eal("uetfab", "ecnchain");
	st_ecn_run(true, true, 1, want_deq);
	st_ecn_run(false, true, 2, want_enq);
}
END_TEST

START_TEST(test_ecn_off_below_kmin_marks_nothing)
{
	struct uet_fabric_conf conf;
	struct ft_env env;

	ft_conf(&conf);
	conf.ecn = true;
	conf.ecn_kmin_bytes = 3 * FT_WIRE_BIG;
	conf.ecn_kmax_bytes = 4 * FT_WIRE_BIG;
	ft_open(&env, "ecnlow", &conf);
	for (uint16_t i = 1; i <= 3; i++)
		ft_deliver(&env, i, ft_frame(&env, i, 0, FT_PAYLOAD_BIG, i),
			   FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(ft_stats(&env, 0).ecn_frames, 0);
	ft_close(&env);
}
END_TEST

static Suite *fabric_sched_suite(void)
{
	Suite *s = suite_create("fabric_sched");
	TCase *tc = tcase_create("sched");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_strict_priority_control_before_queued_data);
	tcase_add_test(tc, test_wrr_weights_2_to_1_interleave_classes);
	tcase_add_test(tc,
		       test_ecn_at_enqueue_marks_frames_that_find_kmax_queued);
	tcase_add_test(tc,
		       test_ecn_at_dequeue_marks_frames_that_leave_kmax_behind);
	tcase_add_test(tc, test_ecn_off_below_kmin_marks_nothing);
	tcase_add_test(tc, test_ecn_marks_frames_chained_like_a_nics);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(fabric_sched_suite)
