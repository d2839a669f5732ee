/* SPDX-License-Identifier: BSD-3-Clause */
/* Port pairs on two crossed rte_rings, both kinds (bare rings, the embedded
 * mode's wiring, and net_ring ethdevs): they carry frames both ways, byte
 * for byte, a full ring makes uet_port_tx_all time out, and bare-ring pairs
 * are not bound by RTE_MAX_ETHPORTS. Loop tests run once per kind. */
#include <errno.h>
#include <stdlib.h>

#include <check.h>
#include <rte_ethdev.h>

#include "check_main.h"
#include "drv_test.h"
#include "uet_port.h"

#define POOL_MBUFS 2047u

/* The loop index of the tests below: which kind of pair. */
enum pair_kind { PAIR_RINGS = 0, PAIR_ETHDEV = 1, PAIR_KINDS };

typedef int (*pair_create_fn)(struct uet_port **, struct uet_port **,
			      const char *, unsigned,
			      const struct uet_port_conf *);

static const pair_create_fn pair_create[PAIR_KINDS] = {
	uet_port_pair_create,
	uet_port_ethdev_pair_create,
};

struct ring_env {
	struct rte_mempool *mp;
	struct uet_port *a;
	struct uet_port *b;
	enum pair_kind kind;
};

static void ring_env_open(struct ring_env *env, const char *what,
			  unsigned ring_size, int kind)
{
	struct uet_port_conf conf = {0};
	int ret;

	uet_test_eal("uetdrv", what);
	env->kind = (enum pair_kind)kind;
	env->mp = uet_test_pool("drv_pool", POOL_MBUFS);
	conf.pool = env->mp;
	ret = pair_create[kind](&env->a, &env->b, "t", ring_size, &conf);
	ck_assert_int_eq(ret, 0);
}

static void ring_env_close(struct ring_env *env)
{
	uet_port_close(env->a);
	uet_port_close(env->b);
	/* Every mbuf is back: nothing leaked in the rings or the ports. */
	ck_assert_uint_eq(rte_mempool_avail_count(env->mp), POOL_MBUFS);
	rte_mempool_free(env->mp);
}

/* Counters after frames of len bytes went tx -> rx and as many back. */
static void check_counts(const struct ring_env *env, struct uet_port *tx,
			 struct uet_port *rx, uint64_t frames, uint32_t len)
{
	struct uet_port_stats st;

	ck_assert_int_eq(uet_port_stats(tx, &st), 0);
	ck_assert_uint_eq(st.tx_frames, frames);
	ck_assert_uint_eq(st.tx_packets, frames);
	ck_assert_uint_eq(st.rx_frames, frames);
	ck_assert_uint_eq(st.tx_timeouts, 0);
	ck_assert_uint_eq(st.tx_dropped, 0);
	ck_assert_uint_eq(st.tx_frame_bytes, frames * len);
	ck_assert_uint_eq(st.rx_frame_bytes, frames * len);
	/* net_ring counts packets, not bytes; bare rings count what they
	 * carried. */
	ck_assert_uint_eq(st.tx_bytes,
			  env->kind == PAIR_ETHDEV ? 0 : frames * len);
	ck_assert_int_eq(uet_port_stats(rx, &st), 0);
	ck_assert_uint_eq(st.rx_frames, frames);
	ck_assert_uint_eq(st.rx_packets, frames);
	ck_assert_uint_eq(st.tx_frames, frames);
}

START_TEST(test_ring_pair_carries_4202_byte_frames_both_ways)
{
	struct ring_env env;

	ring_env_open(&env, "ring4202", 0, _i);
	/* 300 frames in one burst each way: a window's worth. */
	ck_assert_uint_eq(drv_test_exchange(env.mp, env.a, env.b, 0, 300,
					    DRV_TEST_BIG_BYTES, 300),
			  0);
	ck_assert_uint_eq(drv_test_exchange(env.mp, env.b, env.a, 1, 300,
					    DRV_TEST_BIG_BYTES, 300),
			  0);
	check_counts(&env, env.a, env.b, 300, DRV_TEST_BIG_BYTES);
	check_counts(&env, env.b, env.a, 300, DRV_TEST_BIG_BYTES);
	ring_env_close(&env);
}
END_TEST

START_TEST(test_ring_pair_carries_60_byte_frames_both_ways)
{
	struct ring_env env;

	ring_env_open(&env, "ring60", 0, _i);
	ck_assert_uint_eq(drv_test_exchange(env.mp, env.a, env.b, 0, 400,
					    DRV_TEST_SMALL_BYTES, 400),
			  0);
	ck_assert_uint_eq(drv_test_exchange(env.mp, env.b, env.a, 1, 400,
					    DRV_TEST_SMALL_BYTES, 400),
			  0);
	check_counts(&env, env.a, env.b, 400, DRV_TEST_SMALL_BYTES);
	check_counts(&env, env.b, env.a, 400, DRV_TEST_SMALL_BYTES);
	ring_env_close(&env);
}
END_TEST

START_TEST(test_ring_pair_interleaved_sizes_keep_order)
{
	struct ring_env env;
	struct rte_mbuf *pkts[64];
	uint32_t i;
	uint16_t nb;

	ring_env_open(&env, "ringmix", 0, _i);
	for (i = 0; i < 64; i++)
		pkts[i] = drv_test_mbuf(env.mp, 0, i,
					i % 2 ? DRV_TEST_SMALL_BYTES
					      : DRV_TEST_BIG_BYTES);
	ck_assert_int_eq(uet_port_tx_all(env.a, pkts, 64, 1000), 64);
	nb = uet_port_rx_burst(env.b, pkts, 64);
	ck_assert_uint_eq(nb, 64);
	for (i = 0; i < 64; i++) {
		drv_test_check(pkts[i], 0, i,
			       i % 2 ? DRV_TEST_SMALL_BYTES
				     : DRV_TEST_BIG_BYTES);
		rte_pktmbuf_free(pkts[i]);
	}
	/* Nothing came back the other way. */
	ck_assert_uint_eq(uet_port_rx_burst(env.a, pkts, 64), 0);
	ring_env_close(&env);
}
END_TEST

START_TEST(test_tx_all_times_out_on_a_full_ring_and_frees_the_rest)
{
	struct ring_env env;
	struct rte_mbuf *pkts[100];
	struct uet_port_stats st;
	uint64_t t0_ms;
	uint32_t i;
	uint16_t nb;
	int ret;

	/* A ring of 64 slots holds 63 frames; nobody drains it. */
	ring_env_open(&env, "ringfull", 64, _i);
	for (i = 0; i < 100; i++)
		pkts[i] = drv_test_mbuf(env.mp, 0, i, DRV_TEST_SMALL_BYTES);
	t0_ms = drv_test_ms();
	ret = uet_port_tx_all(env.a, pkts, 100, 50);
	ck_assert_int_eq(ret, -ETIMEDOUT);
	ck_assert_uint_ge(drv_test_ms() - t0_ms, 50);
	ck_assert_int_eq(uet_port_stats(env.a, &st), 0);
	ck_assert_uint_eq(st.tx_frames, 63);
	ck_assert_uint_eq(st.tx_timeouts, 1);
	ck_assert_uint_eq(st.tx_dropped, 37);
	ck_assert_uint_eq(st.tx_frame_bytes, 63 * DRV_TEST_SMALL_BYTES);
	ck_assert_uint_ge(st.tx_partial, 1);
	/* The 37 frames not taken went back to the pool. */
	ck_assert_uint_eq(rte_mempool_in_use_count(env.mp), 63);
	nb = uet_port_rx_burst(env.b, pkts, 100);
	ck_assert_uint_eq(nb, 63);
	for (i = 0; i < nb; i++) {
		drv_test_check(pkts[i], 0, i, DRV_TEST_SMALL_BYTES);
		rte_pktmbuf_free(pkts[i]);
	}
	ring_env_close(&env);
}
END_TEST

START_TEST(test_ring_frames_left_in_flight_return_to_the_pool_on_close)
{
	struct ring_env env;
	struct rte_mbuf *pkts[10];
	uint32_t i;

	ring_env_open(&env, "ringleft", 0, _i);
	for (i = 0; i < 10; i++)
		pkts[i] = drv_test_mbuf(env.mp, 0, i, DRV_TEST_BIG_BYTES);
	ck_assert_int_eq(uet_port_tx_all(env.a, pkts, 10, 1000), 10);
	ck_assert_uint_eq(rte_mempool_in_use_count(env.mp), 10);
	/* ring_env_close asserts the pool is full again. */
	ring_env_close(&env);
}
END_TEST

START_TEST(test_ring_port_link_and_names)
{
	struct ring_env env;
	struct uet_port_link la, lb;

	ring_env_open(&env, "ringlink", 0, PAIR_ETHDEV);
	ck_assert_str_eq(uet_port_name(env.a), "net_ring_ta");
	ck_assert_str_eq(uet_port_name(env.b), "net_ring_tb");
	ck_assert_uint_ne(uet_port_id(env.a), uet_port_id(env.b));
	ck_assert_uint_ne(uet_port_id(env.a), UET_PORT_ID_NONE);
	ck_assert_int_eq(uet_port_link(env.a, &la), 0);
	ck_assert_int_eq(uet_port_link(env.b, &lb), 0);
	/* net_ring reports a 10 Gbps full-duplex link, up once started. */
	ck_assert(la.up);
	ck_assert(la.full_duplex);
	ck_assert_uint_eq(la.speed_bps, 10000000000ull);
	ck_assert_uint_eq(la.mtu_bytes, UET_PORT_MTU_BYTES);
	/* net_ring has no MAC address of its own: all zeros. */
	ck_assert(rte_is_zero_ether_addr(&la.mac));
	ck_assert(rte_is_zero_ether_addr(&lb.mac));
	ring_env_close(&env);
}
END_TEST

START_TEST(test_bare_ring_port_link_and_names)
{
	struct uet_port_conf conf = {0};
	struct uet_port_link la, lb;
	struct ring_env env;
	struct uet_port *c, *d;

	ring_env_open(&env, "barelink", 0, PAIR_RINGS);
	ck_assert_str_eq(uet_port_name(env.a), "ring_ta");
	ck_assert_str_eq(uet_port_name(env.b), "ring_tb");
	/* No ethdev behind either side. */
	ck_assert_uint_eq(uet_port_id(env.a), UET_PORT_ID_NONE);
	ck_assert_uint_eq(uet_port_id(env.b), UET_PORT_ID_NONE);
	ck_assert_uint_eq(rte_eth_dev_count_avail(), 0);
	ck_assert_int_eq(uet_port_link(env.a, &la), 0);
	ck_assert_int_eq(uet_port_link(env.b, &lb), 0);
	/* Up, full duplex, no stated speed: the model times the link. */
	ck_assert(la.up && lb.up);
	ck_assert(la.full_duplex);
	ck_assert_uint_eq(la.speed_bps, 0);
	ck_assert_uint_eq(la.mtu_bytes, UET_PORT_MTU_BYTES);
	ck_assert(rte_is_zero_ether_addr(&la.mac));
	/* The MTU is the one asked for. */
	conf.pool = env.mp;
	conf.mtu_bytes = 1500;
	ck_assert_int_eq(uet_port_pair_create(&c, &d, "m", 0, &conf), 0);
	ck_assert_int_eq(uet_port_link(c, &la), 0);
	ck_assert_uint_eq(la.mtu_bytes, 1500);
	/* A second pair of the same name collides on its ring names. */
	ck_assert_int_eq(uet_port_pair_create(&c, &d, "m", 0, &conf), -EEXIST);
	uet_port_close(c);
	uet_port_close(d);
	/* Closed, the name is free again. */
	ck_assert_int_eq(uet_port_pair_create(&c, &d, "m", 0, &conf), 0);
	uet_port_close(c);
	uet_port_close(d);
	ring_env_close(&env);
}
END_TEST

/* Pairs a process can hold. 20 hosts' links are 40 ports: over Debian's
 * RTE_MAX_ETHPORTS of 32 as ethdevs, fine as bare rings. */
#define MANY_PAIRS 64u

START_TEST(test_bare_ring_pairs_go_past_the_ethdev_port_limit)
{
	struct uet_port *a[MANY_PAIRS], *b[MANY_PAIRS];
	struct uet_port_conf conf = {0};
	struct rte_mempool *mp;
	uint32_t i;

	uet_test_eal("uetdrv", "ringmany");
	ck_assert_uint_lt(RTE_MAX_ETHPORTS, 2 * MANY_PAIRS);
	mp = uet_test_pool("drv_pool", POOL_MBUFS);
	conf.pool = mp;
	for (i = 0; i < MANY_PAIRS; i++) {
		char name[16];

		snprintf(name, sizeof(name), "p%u", i);
		ck_assert_int_eq(
			uet_port_pair_create(&a[i], &b[i], name, 64, &conf), 0);
	}
	/* Every pair carries frames both ways, byte for byte. */
	for (i = 0; i < MANY_PAIRS; i++) {
		ck_assert_uint_eq(drv_test_exchange(mp, a[i], b[i], 0, 3,
						    DRV_TEST_SMALL_BYTES, 3),
				  0);
		ck_assert_uint_eq(drv_test_exchange(mp, b[i], a[i], 1, 3,
						    DRV_TEST_SMALL_BYTES, 3),
				  0);
	}
	for (i = 0; i < MANY_PAIRS; i++) {
		uet_port_close(a[i]);
		uet_port_close(b[i]);
	}
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
	rte_mempool_free(mp);
}
END_TEST

START_TEST(test_ethdev_pairs_stop_at_the_ethdev_port_limit)
{
	struct uet_port *a[RTE_MAX_ETHPORTS], *b[RTE_MAX_ETHPORTS];
	struct uet_port_conf conf = {0};
	struct rte_mempool *mp;
	uint32_t i, n = 0;

	uet_test_eal("uetdrv", "ringlimit");
	mp = uet_test_pool("drv_pool", POOL_MBUFS);
	conf.pool = mp;
	for (i = 0; i < RTE_MAX_ETHPORTS; i++) {
		char name[16];

		snprintf(name, sizeof(name), "e%u", i);
		if (uet_port_ethdev_pair_create(&a[i], &b[i], name, 64, &conf) <
		    0)
			break;
		n++;
	}
	/* Two ethdevs per pair: half the limit, and the failed pair left
	 * nothing behind. */
	ck_assert_uint_eq(n, RTE_MAX_ETHPORTS / 2);
	ck_assert_uint_eq(rte_eth_dev_count_avail(), RTE_MAX_ETHPORTS);
	for (i = 0; i < n; i++) {
		uet_port_close(a[i]);
		uet_port_close(b[i]);
	}
	ck_assert_uint_eq(rte_eth_dev_count_avail(), 0);
	rte_mempool_free(mp);
}
END_TEST

START_TEST(test_open_rejects_bad_arguments)
{
	struct uet_port_conf conf = {0};
	struct uet_port *p = NULL;
	struct rte_mempool *mp;

	uet_test_eal("uetdrv", "ringbad");
	ck_assert_int_eq(uet_port_open(&p, "net_ring0", &conf), -EINVAL);
	mp = uet_test_pool("drv_pool", 63);
	conf.pool = mp;
	ck_assert_int_eq(uet_port_open(&p, "", &conf), -EINVAL);
	ck_assert_int_lt(uet_port_open(&p, "net_nosuchpmd0", &conf), 0);
	ck_assert_ptr_null(p);
	ck_assert_int_eq(uet_port_pair_create(&p, &p, "x", 100, &conf),
			 -EINVAL);
	ck_assert_int_eq(uet_port_ethdev_pair_create(&p, &p, "x", 100, &conf),
			 -EINVAL);
	ck_assert_int_eq(
		uet_port_pair_create(&p, &p, "a-name-of-21-letters!", 0, &conf),
		-EINVAL);
	rte_mempool_free(mp);
}
END_TEST

static Suite *ring_port_suite(void)
{
	Suite *s = suite_create("drivers-ring-port");
	TCase *tc = tcase_create("ring");

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc,
			    test_ring_pair_carries_4202_byte_frames_both_ways,
			    0, PAIR_KINDS);
	tcase_add_loop_test(tc, test_ring_pair_carries_60_byte_frames_both_ways,
			    0, PAIR_KINDS);
	tcase_add_loop_test(tc, test_ring_pair_interleaved_sizes_keep_order, 0,
			    PAIR_KINDS);
	tcase_add_loop_test(
		tc, test_tx_all_times_out_on_a_full_ring_and_frees_the_rest, 0,
		PAIR_KINDS);
	tcase_add_loop_test(
		tc, test_ring_frames_left_in_flight_return_to_the_pool_on_close,
		0, PAIR_KINDS);
	tcase_add_test(tc, test_ring_port_link_and_names);
	tcase_add_test(tc, test_bare_ring_port_link_and_names);
	tcase_add_test(tc, test_bare_ring_pairs_go_past_the_ethdev_port_limit);
	tcase_add_test(tc, test_ethdev_pairs_stop_at_the_ethdev_port_limit);
	tcase_add_test(tc, test_open_rejects_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(ring_port_suite)
