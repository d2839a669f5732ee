/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The capture hook sees every frame the switch receives, when it is fully
 * received, and every frame it sends, when its serialization ends; a frame
 * the switch drops is seen once.
 */
#include <stdbool.h>

#include "fabric_test.h"

#define CAP_MAX 16u

struct cap_rec {
	uint32_t port;
	uint16_t tag;
	uet_time_t time_ps;
	bool to_host;
	uint32_t len;
};

struct cap_log {
	struct cap_rec rec[CAP_MAX];
	unsigned int n;
};

static void cap_fn(void *ctx, uint32_t port, const struct rte_mbuf *m,
		   uet_time_t time_ps, bool to_host)
{
	struct cap_log *log = ctx;
	struct cap_rec *r;
	struct uet_frame f;

	ck_assert_uint_lt(log->n, CAP_MAX);
	r = &log->rec[log->n++];
	r->port = port;
	r->time_ps = time_ps;
	r->to_host = to_host;
	r->len = rte_pktmbuf_pkt_len(m);
	r->tag = 0xffff;
	if (uet_frame_parse(rte_pktmbuf_mtod(m, const uint8_t *), r->len, &f,
			    NULL) == 0 &&
	    f.has_ipv4)
		r->tag = f.ip.id;
}

static void cap_assert(const struct cap_log *log, unsigned int i, uint32_t port,
		       uint16_t tag, uet_time_t time_ps, bool to_host)
{
	ck_assert_uint_lt(i, log->n);
	ck_assert_uint_eq(log->rec[i].port, port);
	ck_assert_uint_eq(log->rec[i].tag, tag);
	ck_assert_uint_eq(log->rec[i].time_ps, time_ps);
	ck_assert(log->rec[i].to_host == to_host);
}

START_TEST(test_capture_sees_each_frame_in_and_out_at_the_right_times)
{
	struct cap_log log = {.n = 0};
	struct ft_env env;

	ft_open(&env, "capture", NULL);
	uet_fabric_set_capture(env.fab, cap_fn, &log);
	ft_deliver(&env, 0, ft_frame(&env, 0, 3, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_deliver(&env, 1, ft_frame(&env, 1, 3, FT_PAYLOAD_SMALL, 2),
		   FT_T0_PS + 1000);
	/* Dropped for want of a route: seen coming in only. */
	ft_deliver(&env, 2, ft_frame(&env, 2, 9, 64, 3), FT_T0_PS + 2000);
	ft_run(&env);
	ck_assert_uint_eq(log.n, 5);
	cap_assert(&log, 0, 0, 1, FT_T0_PS, false);
	cap_assert(&log, 1, 1, 2, FT_T0_PS + 1000, false);
	cap_assert(&log, 2, 2, 3, FT_T0_PS + 2000, false);
	cap_assert(&log, 3, 3, 1, FT_T0_PS + FT_SER_BIG_PS, true);
	cap_assert(&log, 4, 3, 2, FT_T0_PS + FT_SER_BIG_PS + FT_SER_SMALL_PS,
		   true);
	ck_assert_uint_eq(log.rec[3].len, FT_WIRE_BIG - UET_ETH_FCS_BYTES);
	/* The sending capture comes a link delay before the host gets it. */
	ck_assert_uint_eq(env.n_out, 2);
	ck_assert_uint_eq(env.out[0].arrival_ps,
			  log.rec[3].time_ps + FT_DELAY_PS);
	ck_assert_uint_eq(env.out[1].arrival_ps,
			  log.rec[4].time_ps + FT_DELAY_PS);
	ft_close(&env);
}
END_TEST

START_TEST(test_capture_removed_sees_nothing)
{
	struct cap_log log = {.n = 0};
	struct ft_env env;

	ft_open(&env, "nocapture", NULL);
	uet_fabric_set_capture(env.fab, cap_fn, &log);
	uet_fabric_set_capture(env.fab, NULL, NULL);
	ft_deliver(&env, 0, ft_frame(&env, 0, 3, 64, 1), FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(log.n, 0);
	ck_assert_uint_eq(env.n_out, 1);
	ft_close(&env);
}
END_TEST

/* A frame that carries a lockstep trailer is counted without it: modeled
 * sizes never include the trailer. */
START_TEST(test_trailer_is_not_counted_in_wire_bytes)
{
	struct ft_env env;
	struct rte_mbuf *m;
	uint8_t *tail;

	ft_open(&env, "trailer", NULL);
	m = ft_frame(&env, 0, 5, FT_PAYLOAD_BIG, 1);
	tail = (uint8_t *)rte_pktmbuf_append(m, UET_LS_TRAILER_BYTES);
	ck_assert_ptr_nonnull(tail);
	ck_assert_int_eq(
		uet_ls_trailer_build(tail, UET_LS_TRAILER_BYTES, FT_T0_PS),
		UET_LS_TRAILER_BYTES);
	ft_deliver(&env, 0, m, FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 1);
	ft_assert_out(&env, 0, 5, 1, FT_T0_PS + FT_SER_BIG_PS);
	ck_assert_uint_eq(ft_stats(&env, 0).rx_bytes, FT_WIRE_BIG);
	ck_assert_uint_eq(ft_stats(&env, 5).tx_bytes, FT_WIRE_BIG);
	ft_close(&env);
}
END_TEST

static Suite *fabric_capture_suite(void)
{
	Suite *s = suite_create("fabric_capture");
	TCase *tc = tcase_create("capture");

	tcase_set_timeout(tc, 60);
	tcase_add_test(
		tc, test_capture_sees_each_frame_in_and_out_at_the_right_times);
	tcase_add_test(tc, test_capture_removed_sees_nothing);
	tcase_add_test(tc, test_trailer_is_not_counted_in_wire_bytes);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(fabric_capture_suite)
