/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch forwards by IPv4 destination, store and forward, one FIFO
 * output queue per port serialized at the link rate with no gap, drop tail
 * at the queue's byte limit; ports are independent.
 */
#include <errno.h>

#include "fabric_test.h"

START_TEST(test_host_addresses_from_198_18_0_1)
{
	uint8_t mac[UET_HOST_MAC_BYTES] = {0};
	const uint8_t mac0[UET_HOST_MAC_BYTES] = {2, 0, 0, 0, 0, 1};
	const uint8_t mac255[UET_HOST_MAC_BYTES] = {2, 0, 0, 0, 1, 0};
	const uint8_t mac65534[UET_HOST_MAC_BYTES] = {2, 0, 0, 0, 0xff, 0xff};

	ck_assert_uint_eq(uet_host_ipv4(0), 0xc6120001);   /* 198.18.0.1 */
	ck_assert_uint_eq(uet_host_ipv4(3), 0xc6120004);   /* 198.18.0.4 */
	ck_assert_uint_eq(uet_host_ipv4(255), 0xc6120100); /* 198.18.1.0 */
	ck_assert_uint_eq(uet_host_ipv4(65534), 0xc612ffff);
	ck_assert_int_eq(uet_host_mac(0, mac), 0);
	ck_assert_mem_eq(mac, mac0, sizeof(mac));
	ck_assert_int_eq(uet_host_mac(255, mac), 0);
	ck_assert_mem_eq(mac, mac255, sizeof(mac));
	/* The last host of the 16-bit plan keeps its MAC. */
	ck_assert_int_eq(uet_host_mac(65534, mac), 0);
	ck_assert_mem_eq(mac, mac65534, sizeof(mac));
}
END_TEST

/* The plan is 198.18.0.0/15 less its network and broadcast addresses:
 * 131,070 hosts, the MAC carrying the offset in the /15 on 24 bits. */
START_TEST(test_host_addresses_fill_the_slash_15)
{
	uint8_t mac[UET_HOST_MAC_BYTES] = {0};
	const uint8_t mac65535[UET_HOST_MAC_BYTES] = {2, 0, 0, 1, 0, 0};
	const uint8_t mac_last[UET_HOST_MAC_BYTES] = {2, 0, 0, 1, 0xff, 0xfe};

	ck_assert_uint_eq(UET_HOST_MAX_COUNT, 131070);
	ck_assert_uint_eq(uet_host_ipv4(65535), 0xc6130000); /* 198.19.0.0 */
	ck_assert_int_eq(uet_host_mac(65535, mac), 0);
	ck_assert_mem_eq(mac, mac65535, sizeof(mac));
	/* 198.19.255.254, the /15's last host address. */
	ck_assert_uint_eq(uet_host_ipv4(131069), 0xc613fffe);
	ck_assert_int_eq(uet_host_mac(131069, mac), 0);
	ck_assert_mem_eq(mac, mac_last, sizeof(mac));
	/* 198.19.255.255 is the broadcast: no host has it. */
	ck_assert_uint_eq(uet_host_ipv4(131070), 0);
	ck_assert_int_eq(uet_host_mac(131070, mac), -EINVAL);
	ck_assert_mem_eq(mac, mac_last, sizeof(mac));
}
END_TEST

START_TEST(test_create_rejects_bad_conf)
{
	struct uet_fabric_conf conf;
	struct uet_fabric *fab = NULL;

	ft_conf(&conf);
	conf.hosts = 0;
	ck_assert_int_eq(uet_fabric_create(&fab, &conf), -EINVAL);
	conf.hosts = UET_HOST_MAX_COUNT + 1;
	ck_assert_int_eq(uet_fabric_create(&fab, &conf), -EINVAL);
	ft_conf(&conf);
	conf.link_rate_bps = 0;
	ck_assert_int_eq(uet_fabric_create(&fab, &conf), -EINVAL);
	ck_assert_int_eq(uet_fabric_create(NULL, &conf), -EINVAL);
	ck_assert_int_eq(uet_fabric_create(&fab, NULL), -EINVAL);
	ck_assert_ptr_null(fab);
}
END_TEST

START_TEST(test_downlink_rate_is_the_link_rate)
{
	struct uet_fabric_port_info info;
	struct ft_env env;

	ft_open(&env, "downlink", NULL);
	ck_assert_int_eq(uet_fabric_port_info(env.fab, 0, &info), 0);
	ck_assert_int_eq(info.host, 0);
	ck_assert_uint_eq(info.rate_bps, FT_RATE_BPS);
	ck_assert_int_eq(uet_fabric_port_info(env.fab, 7, &info), 0);
	ck_assert_int_eq(info.host, 7);
	ck_assert_uint_eq(info.rate_bps, FT_RATE_BPS);
	ck_assert_int_eq(uet_fabric_port_info(env.fab, 8, &info), -EINVAL);
	ck_assert_int_eq(uet_fabric_port_info(NULL, 0, &info), -EINVAL);
	ft_close(&env);
}
END_TEST

/* The worked example: 4,202 bytes at 400 Gbps serialize in 84.04 ns. */
START_TEST(test_frame_to_host_3_leaves_port_3_after_serialization_and_delay)
{
	struct ft_env env;
	struct uet_fabric_port_stats st;
	uint16_t p;

	ft_open(&env, "host3", NULL);
	ft_deliver(&env, 0, ft_frame(&env, 0, 3, FT_PAYLOAD_BIG, 7), FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 1);
	ft_assert_out(&env, 0, 3, 7, FT_T0_PS + FT_SER_BIG_PS);
	ck_assert_uint_eq(env.out[0].arrival_ps, 1584040);
	st = ft_stats(&env, 0);
	ck_assert_uint_eq(st.rx_frames, 1);
	ck_assert_uint_eq(st.rx_bytes, FT_WIRE_BIG);
	ck_assert_uint_eq(st.tx_frames, 0);
	st = ft_stats(&env, 3);
	ck_assert_uint_eq(st.rx_frames, 0);
	ck_assert_uint_eq(st.tx_frames, 1);
	ck_assert_uint_eq(st.tx_bytes, FT_WIRE_BIG);
	ck_assert_uint_eq(st.queue_bytes, 0);
	ck_assert_uint_eq(st.peak_queue_bytes, FT_WIRE_BIG);
	for (p = 0; p < 8; p++) {
		st = ft_stats(&env, p);
		ck_assert_uint_eq(st.drop_full_frames + st.drop_random_frames +
					  st.drop_route_frames +
					  st.drop_control_frames,
				  0);
	}
	ck_assert_int_eq(uet_fabric_error(env.fab), 0);
	ft_close(&env);
}
END_TEST

/* Frames from three ports reach port 3 at once: each waits for the ones
 * queued before it, with no gap between them. */
START_TEST(test_back_to_back_frames_serialize_one_after_another)
{
	struct ft_env env;

	ft_open(&env, "b2b", NULL);
	ft_deliver(&env, 0, ft_frame(&env, 0, 3, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_deliver(&env, 1, ft_frame(&env, 1, 3, FT_PAYLOAD_SMALL, 2),
		   FT_T0_PS);
	ft_deliver(&env, 2, ft_frame(&env, 2, 3, FT_PAYLOAD_BIG, 3), FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 3);
	ft_assert_out(&env, 0, 3, 1, 1084040);
	ft_assert_out(&env, 1, 3, 2, 1106160); /* + 22.12 ns */
	ft_assert_out(&env, 2, 3, 3, 1190200); /* + 84.04 ns */
	ck_assert_uint_eq(ft_stats(&env, 3).peak_queue_bytes,
			  2 * FT_WIRE_BIG + FT_WIRE_SMALL);
	ck_assert_uint_eq(ft_stats(&env, 3).tx_bytes,
			  2 * FT_WIRE_BIG + FT_WIRE_SMALL);
	ft_close(&env);
}
END_TEST

/* Frames arriving on one port at the line rate cross the switch with one
 * serialization of delay each and never build a queue. */
START_TEST(test_line_rate_stream_is_delayed_by_one_serialization)
{
	struct ft_env env;
	uint16_t i;

	ft_open(&env, "linerate", NULL);
	for (i = 0; i < 10; i++)
		ft_deliver(&env, 4, ft_frame(&env, 4, 5, FT_PAYLOAD_BIG, i),
			   FT_T0_PS + i * FT_SER_BIG_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 10);
	for (i = 0; i < 10; i++)
		ft_assert_out(&env, i, 5, i,
			      FT_T0_PS + (i + 1u) * FT_SER_BIG_PS);
	/* Each frame's serialization ends as the next one arrives; the
	 * departure counts first, so the queue never holds two. */
	ck_assert_uint_eq(ft_stats(&env, 5).peak_queue_bytes, FT_WIRE_BIG);
	ft_close(&env);
}
END_TEST

/* A 16,807-byte queue: three big frames fit, a fourth does not; a small
 * one still fits after it, the big one after that does not. */
START_TEST(test_drop_tail_drops_exactly_the_frames_that_do_not_fit)
{
	const uint16_t from[6] = {0, 1, 2, 4, 5, 6};
	const uint32_t payload[6] = {FT_PAYLOAD_BIG,   FT_PAYLOAD_BIG,
				     FT_PAYLOAD_BIG,   FT_PAYLOAD_BIG,
				     FT_PAYLOAD_SMALL, FT_PAYLOAD_BIG};
	struct uet_fabric_conf conf;
	struct uet_fabric_port_stats st;
	struct ft_env env;
	unsigned int i;

	ft_conf(&conf);
	conf.queue_limit_bytes = 4 * FT_WIRE_BIG - 1;
	ft_open(&env, "droptail", &conf);
	for (i = 0; i < 6; i++)
		ft_deliver(&env, from[i],
			   ft_frame(&env, from[i], 3, payload[i], (uint16_t)i),
			   FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 4);
	ft_assert_out(&env, 0, 3, 0, 1084040);
	ft_assert_out(&env, 1, 3, 1, 1168080);
	ft_assert_out(&env, 2, 3, 2, 1252120);
	ft_assert_out(&env, 3, 3, 4, 1274240);
	st = ft_stats(&env, 3);
	ck_assert_uint_eq(st.drop_full_frames, 2);
	ck_assert_uint_eq(st.drop_full_bytes, 2 * FT_WIRE_BIG);
	ck_assert_uint_eq(st.peak_queue_bytes, 3 * FT_WIRE_BIG + FT_WIRE_SMALL);
	ck_assert_uint_eq(st.queue_bytes, 0);
	ck_assert_uint_eq(st.tx_frames, 4);
	/* Drops count at the full queue, not where the frames came in. */
	ck_assert_uint_eq(ft_stats(&env, 4).drop_full_frames, 0);
	ck_assert_uint_eq(ft_stats(&env, 4).rx_frames, 1);
	ft_close(&env);
}
END_TEST

START_TEST(test_frame_equal_to_the_limit_fits)
{
	struct uet_fabric_conf conf;
	struct ft_env env;

	ft_conf(&conf);
	conf.queue_limit_bytes = FT_WIRE_BIG;
	ft_open(&env, "limit", &conf);
	ft_deliver(&env, 0, ft_frame(&env, 0, 1, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_deliver(&env, 2, ft_frame(&env, 2, 1, FT_PAYLOAD_BIG, 2), FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 1);
	ft_assert_out(&env, 0, 1, 1, FT_T0_PS + FT_SER_BIG_PS);
	ck_assert_uint_eq(ft_stats(&env, 1).drop_full_frames, 1);
	ft_close(&env);
}
END_TEST

/* Departures come before arrivals at one instant: a queue one frame deep
 * passes a line-rate stream whole. */
START_TEST(test_one_frame_queue_passes_a_line_rate_stream)
{
	struct uet_fabric_conf conf;
	struct ft_env env;
	uint16_t i;

	ft_conf(&conf);
	conf.queue_limit_bytes = FT_WIRE_BIG;
	ft_open(&env, "onedeep", &conf);
	for (i = 0; i < 5; i++)
		ft_deliver(&env, 2, ft_frame(&env, 2, 6, FT_PAYLOAD_BIG, i),
			   FT_T0_PS + i * FT_SER_BIG_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 5);
	for (i = 0; i < 5; i++)
		ft_assert_out(&env, i, 6, i,
			      FT_T0_PS + (i + 1u) * FT_SER_BIG_PS);
	ck_assert_uint_eq(ft_stats(&env, 6).drop_full_frames, 0);
	ck_assert_uint_eq(ft_stats(&env, 6).peak_queue_bytes, FT_WIRE_BIG);
	ft_close(&env);
}
END_TEST

START_TEST(test_two_ports_forward_independently)
{
	struct ft_env env;

	ft_open(&env, "indep", NULL);
	ft_deliver(&env, 0, ft_frame(&env, 0, 3, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_deliver(&env, 1, ft_frame(&env, 1, 2, FT_PAYLOAD_BIG, 2), FT_T0_PS);
	ft_deliver(&env, 0, ft_frame(&env, 0, 3, FT_PAYLOAD_BIG, 3),
		   FT_T0_PS + FT_SER_BIG_PS);
	ft_deliver(&env, 1, ft_frame(&env, 1, 2, FT_PAYLOAD_SMALL, 4),
		   FT_T0_PS + FT_SER_BIG_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 4);
	/* Same times on both ports: neither waits for the other. */
	ft_assert_out(&env, 0, 3, 1, 1084040);
	ft_assert_out(&env, 1, 2, 2, 1084040);
	ft_assert_out(&env, 2, 2, 4, 1106160);
	ft_assert_out(&env, 3, 3, 3, 1168080);
	ck_assert_uint_eq(ft_stats(&env, 3).tx_frames, 2);
	ck_assert_uint_eq(ft_stats(&env, 2).tx_frames, 2);
	ck_assert_uint_eq(ft_stats(&env, 2).tx_bytes,
			  FT_WIRE_BIG + FT_WIRE_SMALL);
	ft_close(&env);
}
END_TEST

/* A frame may be delivered long before it arrives; nothing happens to it
 * until then, and frames on one port are held in order. */
START_TEST(test_frame_delivered_early_is_held_until_its_arrival)
{
	struct ft_env env;

	ft_open(&env, "held", NULL);
	ft_deliver(&env, 6, ft_frame(&env, 6, 7, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_deliver(&env, 6, ft_frame(&env, 6, 7, FT_PAYLOAD_BIG, 2),
		   3 * FT_T0_PS);
	ck_assert_int_ge(uet_fabric_run_until(env.fab, FT_T0_PS), 0);
	ck_assert_uint_eq(ft_stats(&env, 6).rx_frames, 0);
	ck_assert_int_ge(uet_fabric_run_until(env.fab, 3 * FT_T0_PS), 0);
	ck_assert_uint_eq(ft_stats(&env, 6).rx_frames, 1);
	ck_assert_uint_eq(env.n_out, 1);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 2);
	ft_assert_out(&env, 0, 7, 1, FT_T0_PS + FT_SER_BIG_PS);
	ft_assert_out(&env, 1, 7, 2, 3 * FT_T0_PS + FT_SER_BIG_PS);
	ft_close(&env);
}
END_TEST

START_TEST(test_deliver_rejects_bad_port_and_time_and_frees_the_frame)
{
	struct ft_env env;

	ft_open(&env, "badport", NULL);
	ck_assert_int_eq(
		env.c->deliver(env.c, 8, ft_frame(&env, 0, 1, 64, 1), FT_T0_PS),
		-EINVAL);
	ft_deliver(&env, 0, ft_frame(&env, 0, 1, 64, 2), FT_T0_PS);
	/* Earlier than the port's previous arrival: the link is FIFO. */
	ck_assert_int_eq(env.c->deliver(env.c, 0, ft_frame(&env, 0, 1, 64, 3),
					FT_T0_PS - 1),
			 -EINVAL);
	ck_assert_int_ge(uet_fabric_run_until(env.fab, 2 * FT_T0_PS), 0);
	/* Earlier than the fabric's time. */
	ck_assert_int_eq(env.c->deliver(env.c, 1, ft_frame(&env, 1, 0, 64, 4),
					2 * FT_T0_PS - 1),
			 -EINVAL);
	ck_assert_int_eq(env.c->deliver(env.c, 1, NULL, 2 * FT_T0_PS), -EINVAL);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 1);
	ck_assert_uint_eq(env.out[0].tag, 2);
	ft_close(&env);
}
END_TEST

/* The fabric owns what it holds: destroying it mid-run frees frames that
 * are arriving, queued and on the wire. */
START_TEST(test_destroy_frees_every_frame_held)
{
	struct ft_env env;

	ft_open(&env, "destroy", NULL);
	ft_deliver(&env, 0, ft_frame(&env, 0, 3, FT_PAYLOAD_BIG, 1), FT_T0_PS);
	ft_deliver(&env, 1, ft_frame(&env, 1, 3, FT_PAYLOAD_BIG, 2), FT_T0_PS);
	ft_deliver(&env, 2, ft_frame(&env, 2, 3, FT_PAYLOAD_BIG, 3),
		   2 * FT_T0_PS);
	ck_assert_int_ge(uet_fabric_run_until(env.fab, FT_T0_PS + 1), 0);
	ck_assert_uint_eq(ft_stats(&env, 3).queue_bytes, 2 * FT_WIRE_BIG);
	ck_assert_uint_eq(rte_mempool_in_use_count(env.mp), 3);
	ft_close(&env);
}
END_TEST

/* More frames than a ring's first size, queued at once: the rings grow and
 * keep the order. */
START_TEST(test_queue_grows_past_its_first_size_in_order)
{
	struct ft_env env;
	uint16_t i;

	ft_open(&env, "grow", NULL);
	for (i = 0; i < 40; i++)
		ft_deliver(&env, 0, ft_frame(&env, 0, 1, FT_PAYLOAD_SMALL, i),
			   FT_T0_PS);
	ft_run(&env);
	ck_assert_uint_eq(env.n_out, 40);
	for (i = 0; i < 40; i++)
		ft_assert_out(&env, i, 1, i,
			      FT_T0_PS + (i + 1u) * FT_SER_SMALL_PS);
	ck_assert_uint_eq(ft_stats(&env, 1).peak_queue_bytes,
			  40 * FT_WIRE_SMALL);
	ft_close(&env);
}
END_TEST

static Suite *fabric_forward_suite(void)
{
	Suite *s = suite_create("fabric_forward");
	TCase *tc = tcase_create("forward");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_host_addresses_from_198_18_0_1);
	tcase_add_test(tc, test_host_addresses_fill_the_slash_15);
	tcase_add_test(tc, test_create_rejects_bad_conf);
	tcase_add_test(tc, test_downlink_rate_is_the_link_rate);
	tcase_add_test(
		tc,
		test_frame_to_host_3_leaves_port_3_after_serialization_and_delay);
	tcase_add_test(tc,
		       test_back_to_back_frames_serialize_one_after_another);
	tcase_add_test(tc,
		       test_line_rate_stream_is_delayed_by_one_serialization);
	tcase_add_test(tc,
		       test_drop_tail_drops_exactly_the_frames_that_do_not_fit);
	tcase_add_test(tc, test_frame_equal_to_the_limit_fits);
	tcase_add_test(tc, test_one_frame_queue_passes_a_line_rate_stream);
	tcase_add_test(tc, test_two_ports_forward_independently);
	tcase_add_test(tc,
		       test_frame_delivered_early_is_held_until_its_arrival);
	tcase_add_test(
		tc, test_deliver_rejects_bad_port_and_time_and_frees_the_frame);
	tcase_add_test(tc, test_destroy_frees_every_frame_held);
	tcase_add_test(tc, test_queue_grows_past_its_first_size_in_order);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(fabric_forward_suite)
