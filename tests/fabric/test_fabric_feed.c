/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A host port fed from its NIC's rings (uet_component_parts.port_feed),
 * as uet-emu's in-process lockstep wires it: in window w + 1 the part that
 * holds the port takes the whole ring the NIC filled in window w, in the
 * order the NIC put the frames, and never reads the ring the NIC is
 * filling meanwhile; a frame that breaks deliver()'s rules stops the part
 * and no mbuf is lost.
 */
#include <errno.h>

#include "fabric_test.h"
#include "uet_xring.h"

/* One window of the fabric's lookahead (its link delay) from t, in this
 * thread: window w of the parts' count. */
static void fd_window(struct ft_env *env, uet_time_t t)
{
	ck_assert_int_ge(uet_component_run_window(env->c, t, t + FT_DELAY_PS),
			 0);
}

/* Frame tag of host 0 to host dst, put in ring r to arrive at at_ps. */
static void fd_put(struct ft_env *env, struct uet_xring *r, uint32_t dst,
		   uint16_t tag, uet_time_t at_ps)
{
	ck_assert_int_eq(
		uet_xring_put(r, ft_frame(env, 0, dst, FT_PAYLOAD_BIG, tag),
			      at_ps, 0),
		0);
}

static void fd_rings_init(struct uet_xring rings[2], const char *name)
{
	memset(rings, 0, 2 * sizeof(rings[0]));
	ck_assert_int_eq(uet_xring_init(&rings[0], name, 64), 0);
	ck_assert_int_eq(uet_xring_init(&rings[1], name, 64), 0);
}

static void fd_rings_fini(struct uet_xring rings[2])
{
	uet_xring_fini(&rings[0]);
	uet_xring_fini(&rings[1]);
}

START_TEST(test_feed_is_registered_once_per_host_port)
{
	struct ft_env env;
	struct uet_xring rings[2];

	ft_open(&env, "feed_reg", NULL);
	ck_assert_ptr_nonnull(env.c->parts.port_feed);
	fd_rings_init(rings, "feed_reg");
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 0, rings), 0);
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 0, rings), -EEXIST);
	/* Hosts 0-7 only; the rings are needed. */
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 8, rings), -EINVAL);
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 1, NULL), -EINVAL);
	fd_rings_fini(rings);
	ft_close(&env);
}
END_TEST

/*
 * Host 0 on leaf 0 of a 2x2x4 leaf-spine (a part per leaf and spine)
 * sends three frames to hosts 4-6 on leaf 1: two put in window 0 (ring
 * 0), one in window 1 (ring 1). Window 1 takes ring 0 whole and leaves
 * ring 1, which window 2 takes.
 */
START_TEST(test_fed_part_takes_the_ring_of_the_window_before)
{
	const uet_time_t w0 = FT_T0_PS - FT_DELAY_PS,
			 t1 = FT_T0_PS + FT_DELAY_PS;
	struct uet_fabric_conf conf;
	struct ft_env env;
	struct uet_xring rings[2];

	ft_conf_leaf_spine(&conf, 2, 2, 4);
	conf.tier1_delay_ps = FT_DELAY_PS; /* 0 would make it one part */
	uet_test_eal("uetfab", "feed_prev");
	ft_open_pool(&env, &conf);
	ck_assert_uint_gt(env.c->parts.n, 1);
	fd_rings_init(rings, "feed_prev");
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 0, rings), 0);
	/* Window 0, [T0 - D, T0): the NIC fills ring 0; the part reads ring
	 * 1, empty. */
	fd_put(&env, &rings[0], 4, 1, FT_T0_PS);
	fd_put(&env, &rings[0], 5, 2, FT_T0_PS + FT_SER_BIG_PS);
	fd_window(&env, w0);
	ck_assert_uint_eq(uet_xring_count(&rings[0]), 2);
	/* Window 1, [T0, T0 + D): the NIC fills ring 1, the part takes all
	 * of ring 0 and none of ring 1. */
	fd_put(&env, &rings[1], 6, 3, t1);
	fd_window(&env, FT_T0_PS);
	ck_assert_uint_eq(uet_xring_count(&rings[0]), 0);
	ck_assert_uint_eq(uet_xring_count(&rings[1]), 1);
	/* Window 2 takes ring 1. */
	fd_window(&env, t1);
	ck_assert_uint_eq(uet_xring_count(&rings[1]), 0);
	for (uet_time_t t = t1 + FT_DELAY_PS; t < t1 + 8 * FT_DELAY_PS;
	     t += FT_DELAY_PS)
		fd_window(&env, t);
	/* Three hops of 500 ns each after its serialization at the host
	 * port's rate, in the order host 0 sent them. */
	ck_assert_uint_eq(env.n_out, 3);
	ck_assert_uint_eq(env.out[0].port, 4);
	ck_assert_uint_eq(env.out[0].tag, 1);
	ck_assert_uint_eq(env.out[1].port, 5);
	ck_assert_uint_eq(env.out[1].tag, 2);
	ck_assert_uint_eq(env.out[2].port, 6);
	ck_assert_uint_eq(env.out[2].tag, 3);
	ck_assert_uint_eq(env.out[0].arrival_ps,
			  FT_T0_PS + 3 * (FT_SER_BIG_PS + FT_DELAY_PS));
	ck_assert_uint_eq(env.out[2].arrival_ps,
			  t1 + 3 * (FT_SER_BIG_PS + FT_DELAY_PS));
	ck_assert_uint_eq(ft_stats(&env, 0).rx_frames, 3);
	fd_rings_fini(rings);
	ft_close(&env);
}
END_TEST

/* A NIC whose frames go back in time on its link: the part fails, and
 * every mbuf comes back (ft_close counts them). */
START_TEST(test_fed_frame_out_of_order_stops_the_part)
{
	struct ft_env env;
	struct uet_xring rings[2];

	ft_open(&env, "feed_order", NULL);
	fd_rings_init(rings, "feed_order");
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 0, rings), 0);
	fd_put(&env, &rings[0], 2, 1, FT_T0_PS + FT_SER_BIG_PS);
	fd_put(&env, &rings[0], 3, 2, FT_T0_PS);
	fd_window(&env, FT_T0_PS - FT_DELAY_PS);
	ck_assert_int_eq(uet_component_run_window(env.c, FT_T0_PS,
						  FT_T0_PS + FT_DELAY_PS),
			 -EINVAL);
	ck_assert_uint_eq(uet_xring_count(&rings[0]), 0);
	ck_assert_uint_eq(env.n_out, 0);
	fd_rings_fini(rings);
	ft_close(&env);
}
END_TEST

static Suite *fabric_feed_suite(void)
{
	Suite *s = suite_create("fabric_feed");
	TCase *tc = tcase_create("feed");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_feed_is_registered_once_per_host_port);
	tcase_add_test(tc, test_fed_part_takes_the_ring_of_the_window_before);
	tcase_add_test(tc, test_fed_frame_out_of_order_stops_the_part);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(fabric_feed_suite)
