/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A host port fed from its NIC's ring (uet_component_parts.port_feed), as
 * uet-emu's in-process lockstep wires it: the part that holds the port
 * takes exactly the frames the NIC marked ready, in the order it put
 * them, and leaves the rest for the next window; a frame that breaks
 * deliver()'s rules stops the part and no mbuf is lost.
 */
#include <errno.h>

#include "fabric_test.h"
#include "uet_xring.h"

/* Windows of the fabric's lookahead (its link delay), in this thread. */
static void fd_run(struct ft_env *env, uet_time_t from_ps, uet_time_t to_ps)
{
	uet_time_t t;

	for (t = from_ps; t < to_ps; t += FT_DELAY_PS)
		ck_assert_int_ge(
			uet_component_run_window(env->c, t, t + FT_DELAY_PS),
			0);
}

/* The NIC marks n frames of its outbox ready (as the lockstep's NIC phase
 * does, through the word the part was given), then the fabric runs. */
static void fd_run_ready(struct ft_env *env, uint32_t *ready, uint32_t n,
			 uet_time_t from_ps, uet_time_t to_ps)
{
	*ready = n;
	fd_run(env, from_ps, to_ps);
}

START_TEST(test_feed_is_registered_once_per_host_port)
{
	struct ft_env env;
	struct uet_xring ring = {0};
	uint32_t ready = 0;

	ft_open(&env, "feed_reg", NULL);
	ck_assert_ptr_nonnull(env.c->parts.port_feed);
	ck_assert_int_eq(uet_xring_init(&ring, "feed_reg", 64), 0);
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 0, &ring, &ready), 0);
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 0, &ring, &ready),
			 -EEXIST);
	/* Hosts 0-7 only; a ring and a count are needed. */
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 8, &ring, &ready),
			 -EINVAL);
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 1, NULL, &ready),
			 -EINVAL);
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 1, &ring, NULL),
			 -EINVAL);
	uet_xring_fini(&ring);
	ft_close(&env);
}
END_TEST

/* Host 0 on leaf 0 of a 2x2x4 leaf-spine (a part per leaf and spine)
 * sends three frames to hosts 4-6 on leaf 1; the NIC marks two ready,
 * then, a window later, the third. */
START_TEST(test_fed_part_takes_exactly_the_ready_frames)
{
	const uet_time_t t1 = FT_T0_PS + 4 * FT_DELAY_PS;
	struct uet_fabric_conf conf;
	struct ft_env env;
	struct uet_xring ring = {0};
	uint32_t ready = 0;

	ft_conf_leaf_spine(&conf, 2, 2, 4);
	conf.tier1_delay_ps = FT_DELAY_PS; /* 0 would make it one part */
	uet_test_eal("uetfab", "feed_ready");
	ft_open_pool(&env, &conf);
	ck_assert_uint_gt(env.c->parts.n, 1);
	ck_assert_int_eq(uet_xring_init(&ring, "feed_ready", 64), 0);
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 0, &ring, &ready), 0);
	ck_assert_int_eq(uet_xring_put(&ring,
				       ft_frame(&env, 0, 4, FT_PAYLOAD_BIG, 1),
				       FT_T0_PS, 0),
			 0);
	ck_assert_int_eq(uet_xring_put(&ring,
				       ft_frame(&env, 0, 5, FT_PAYLOAD_BIG, 2),
				       FT_T0_PS + FT_SER_BIG_PS, 0),
			 0);
	/* Put in a later window: it must wait for its own. */
	ck_assert_int_eq(uet_xring_put(&ring,
				       ft_frame(&env, 0, 6, FT_PAYLOAD_BIG, 3),
				       t1, 0),
			 0);
	fd_run_ready(&env, &ready, 2, FT_T0_PS, FT_T0_PS + FT_DELAY_PS);
	/* Taken at the first window's start: the third waits. */
	ck_assert_uint_eq(uet_xring_count(&ring), 1);
	fd_run_ready(&env, &ready, 0, FT_T0_PS + FT_DELAY_PS, t1);
	ck_assert_uint_eq(uet_xring_count(&ring), 1);
	ck_assert_uint_eq(env.n_out, 2);
	fd_run_ready(&env, &ready, 1, t1, t1 + FT_DELAY_PS);
	ck_assert_uint_eq(uet_xring_count(&ring), 0);
	fd_run_ready(&env, &ready, 0, t1 + FT_DELAY_PS, t1 + 8 * FT_DELAY_PS);
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
	uet_xring_fini(&ring);
	ft_close(&env);
}
END_TEST

/* A NIC whose frames go back in time on its link: the part fails, and
 * every mbuf comes back (ft_close counts them). */
START_TEST(test_fed_frame_out_of_order_stops_the_part)
{
	struct ft_env env;
	struct uet_xring ring = {0};
	uint32_t ready = 0;

	ft_open(&env, "feed_order", NULL);
	ck_assert_int_eq(uet_xring_init(&ring, "feed_order", 64), 0);
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 0, &ring, &ready), 0);
	ck_assert_int_eq(uet_xring_put(&ring,
				       ft_frame(&env, 0, 2, FT_PAYLOAD_BIG, 1),
				       FT_T0_PS + FT_SER_BIG_PS, 0),
			 0);
	ck_assert_int_eq(uet_xring_put(&ring,
				       ft_frame(&env, 0, 3, FT_PAYLOAD_BIG, 2),
				       FT_T0_PS, 0),
			 0);
	ready = 2;
	ck_assert_int_eq(uet_component_run_window(env.c, FT_T0_PS,
						  FT_T0_PS + FT_DELAY_PS),
			 -EINVAL);
	ck_assert_uint_eq(uet_xring_count(&ring), 0);
	ck_assert_uint_eq(env.n_out, 0);
	uet_xring_fini(&ring);
	ft_close(&env);
}
END_TEST

/* The NIC marked more ready than its ring holds: a broken wiring, not a
 * model event. */
START_TEST(test_fed_ring_short_of_ready_stops_the_part)
{
	struct ft_env env;
	struct uet_xring ring = {0};
	uint32_t ready = 0;

	ft_open(&env, "feed_short", NULL);
	ck_assert_int_eq(uet_xring_init(&ring, "feed_short", 64), 0);
	ck_assert_int_eq(env.c->parts.port_feed(env.c, 0, &ring, &ready), 0);
	ck_assert_int_eq(uet_xring_put(&ring,
				       ft_frame(&env, 0, 2, FT_PAYLOAD_BIG, 1),
				       FT_T0_PS, 0),
			 0);
	ready = 2;
	ck_assert_int_eq(uet_component_run_window(env.c, FT_T0_PS,
						  FT_T0_PS + FT_DELAY_PS),
			 -EIO);
	ck_assert_uint_eq(env.n_out, 0);
	uet_xring_fini(&ring);
	ft_close(&env);
}
END_TEST

static Suite *fabric_feed_suite(void)
{
	Suite *s = suite_create("fabric_feed");
	TCase *tc = tcase_create("feed");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_feed_is_registered_once_per_host_port);
	tcase_add_test(tc, test_fed_part_takes_exactly_the_ready_frames);
	tcase_add_test(tc, test_fed_frame_out_of_order_stops_the_part);
	tcase_add_test(tc, test_fed_ring_short_of_ready_stops_the_part);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(fabric_feed_suite)
