/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sync: The errors that stop a lockstep run (sync_coordinator.c,
 * sync_participant.c): a scenario mismatch, a silent peer, frames lost
 * on the way, a broken lookahead, a failing window hook, bad
 * configurations.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <check.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "check_main.h"
#include "eal_test.h"
#include "sync_harness.h"
#include "uet_wire_be.h"

/* A loop that polls for a timeout gives up after this: a hang guard, far
 * above any timeout here, not a bound on how late the timeout may fire
 * (only "not before it" is asserted: a loaded host runs it late). */
#define SYNC_HANG_MS 60000

START_TEST(test_scenario_hash_mismatch_aborts_naming_the_nic)
{
	struct rte_mempool *mp;
	struct env e;
	char want[96];

	uet_test_eal("uetsync", "hash");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "h", 2, 1 * US, 1 * US, 0);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 1u << 1);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 2), -EINVAL);
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_SCENARIO_MISMATCH);
	snprintf(want, sizeof(want), "nic 1 (198.18.0.2) on port %s",
		 uet_port_name(e.sw_port[1]));
	ck_assert_ptr_nonnull(strstr(uet_sync_coordinator_error(e.co), want));
	ck_assert_ptr_nonnull(strstr(uet_sync_coordinator_error(e.co),
				     "loaded another scenario"));
	/* Both NICs heard the ABORT. */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), -ECONNABORTED);
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[1]), -ECONNABORTED);
	ck_assert_uint_eq(uet_sync_participant_abort_code(e.pa[1]),
			  UET_LS_ABORT_SCENARIO_MISMATCH);
	env_close(&e);
}
END_TEST

START_TEST(test_silent_nic_stops_the_coordinator_within_its_timeout)
{
	struct rte_mempool *mp;
	uint64_t t0, took_ms;
	struct env e;
	char want[128];
	int rc;

	uet_test_eal("uetsync", "silent");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "s", 2, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 300, 0, 0);
	/* NIC 1 says HELLO, then never answers again. */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[1]), UET_SYNC_RUNNING);
	t0 = wall_ms();
	do {
		rc = uet_sync_coordinator_poll(e.co);
		if (rc >= 0)
			ck_assert_int_ge(uet_sync_participant_poll(e.pa[0]), 0);
		ck_assert_uint_lt(wall_ms() - t0, SYNC_HANG_MS);
	} while (rc == UET_SYNC_RUNNING);
	took_ms = wall_ms() - t0;
	ck_assert_int_eq(rc, -ETIMEDOUT);
	/* Never before the timeout; how long after it depends on the host. */
	ck_assert_uint_ge(took_ms, 300);
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_PEER_TIMEOUT);
	snprintf(want, sizeof(want),
		 "nic 1 (198.18.0.2) on port %s sent no DONE for 300 ms",
		 uet_port_name(e.sw_port[1]));
	ck_assert_ptr_nonnull(strstr(uet_sync_coordinator_error(e.co), want));
	/* The NIC that was there hears why. */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), -ECONNABORTED);
	ck_assert_uint_eq(uet_sync_participant_abort_code(e.pa[0]),
			  UET_LS_ABORT_PEER_TIMEOUT);
	env_close(&e);
}
END_TEST

START_TEST(test_silent_switch_stops_the_nic_within_its_timeout)
{
	struct rte_mempool *mp;
	uint64_t t0;
	struct env e;
	char want[128];
	int rc;

	uet_test_eal("uetsync", "noswitch");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "w", 1, 1 * US, 1 * US, 0);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 200, 0);
	t0 = wall_ms();
	do {
		rc = uet_sync_participant_poll(e.pa[0]);
		ck_assert_uint_lt(wall_ms() - t0, SYNC_HANG_MS);
	} while (rc == UET_SYNC_RUNNING);
	ck_assert_int_eq(rc, -ETIMEDOUT);
	ck_assert_uint_ge(wall_ms() - t0, 200);
	snprintf(want, sizeof(want),
		 "nic 0: the switch on port %s sent no WELCOME for 200 ms",
		 uet_port_name(e.nic_port[0]));
	ck_assert_str_eq(uet_sync_participant_error(e.pa[0]), want);
	env_close(&e);
}
END_TEST

/* Once the run is under way a NIC waits a quarter longer than its
 * timeout_ms (200 -> 250 ms), so that the switch, with the same setting,
 * is the first to notice a dead NIC and names it. */
START_TEST(test_silent_switch_in_a_run_stops_the_nic_a_quarter_later)
{
	struct rte_mempool *mp;
	uint64_t t0;
	struct env e;
	char want[128];
	int i, rc;

	uet_test_eal("uetsync", "swgone");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "g", 1, 1 * US, 1 * US, 0);
	/* Something to do at 10 us: the run does not end by itself. */
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 200, 0);
	/* HELLO; WELCOME and the first window; then the switch goes quiet. */
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]),
				 UET_SYNC_RUNNING);
		ck_assert_int_eq(uet_sync_coordinator_poll(e.co),
				 UET_SYNC_RUNNING);
	}
	t0 = wall_ms();
	do {
		rc = uet_sync_participant_poll(e.pa[0]);
		ck_assert_uint_lt(wall_ms() - t0, SYNC_HANG_MS);
	} while (rc == UET_SYNC_RUNNING);
	ck_assert_int_eq(rc, -ETIMEDOUT);
	snprintf(want, sizeof(want),
		 "nic 0: the switch on port %s sent no frame for 250 ms",
		 uet_port_name(e.nic_port[0]));
	ck_assert_str_eq(uet_sync_participant_error(e.pa[0]), want);
	env_close(&e);
}
END_TEST

/* Processes start at different times: the wait for WELCOME is bounded by
 * startup_timeout_ms, not by the (shorter) timeout of a running window. */
START_TEST(test_welcome_wait_bounded_by_the_startup_timeout)
{
	struct uet_sync_participant_conf pc;
	struct uet_sync_participant *pa;
	struct rte_mempool *mp;
	uint64_t t0, took_ms;
	struct env e;
	char want[128];
	int rc;

	uet_test_eal("uetsync", "startup");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "u", 1, 1 * US, 1 * US, 0);
	memset(&pc, 0, sizeof(pc));
	pc.port = e.nic_port[0];
	pc.component = &e.nic[0].c;
	pc.pool = e.mp;
	pc.ipv4 = 0xc6120001u;
	pc.scenario_hash = HASH;
	pc.timeout_ms = 100;
	pc.startup_timeout_ms = 600;
	ck_assert_int_eq(uet_sync_participant_create(&pa, &pc), 0);
	t0 = wall_ms();
	do {
		rc = uet_sync_participant_poll(pa);
		ck_assert_uint_lt(wall_ms() - t0, SYNC_HANG_MS);
	} while (rc == UET_SYNC_RUNNING);
	took_ms = wall_ms() - t0;
	ck_assert_int_eq(rc, -ETIMEDOUT);
	ck_assert_uint_ge(took_ms, 600);
	snprintf(want, sizeof(want),
		 "nic 0: the switch on port %s sent no WELCOME for 600 ms",
		 uet_port_name(e.nic_port[0]));
	ck_assert_str_eq(uet_sync_participant_error(pa), want);
	uet_sync_participant_free(pa);
	env_close(&e);
}
END_TEST

/* Drops the first data frame (not 0x88B5) a port receives. */
static uint16_t drop_first_data(uint16_t port_id, uint16_t queue,
				struct rte_mbuf *pkts[], uint16_t nb,
				uint16_t max, void *arg)
{
	int *dropped = arg;
	uint16_t i, k = 0;

	(void)port_id;
	(void)queue;
	(void)max;
	for (i = 0; i < nb; i++) {
		const uint8_t *p = rte_pktmbuf_mtod(pkts[i], const uint8_t *);

		if (*dropped == 0 && uet_be16_load(p + 12) != 0x88B5) {
			*dropped = 1;
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		pkts[k++] = pkts[i];
	}
	return k;
}

START_TEST(test_frame_lost_towards_the_nic_is_reported)
{
	struct rte_mempool *mp;
	struct env e;
	int dropped = 0;
	char want[160];

	uet_test_eal("uetsync", "losstonic");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	/* net_ring ethdevs: the loss is an rx callback on the link. */
	env_open_with(&e, mp, "l", 1, 1 * US, 1 * US, 0,
		      uet_port_ethdev_pair_create);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_ptr_nonnull(rte_eth_add_rx_callback(
		uet_port_id(e.nic_port[0]), 0, drop_first_data, &dropped));
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -EIO);
	ck_assert_int_eq(dropped, 1);
	ck_assert_uint_eq(uet_sync_participant_abort_code(e.pa[0]),
			  UET_LS_ABORT_FRAME_LOSS);
	snprintf(want, sizeof(want),
		 "nic 0: the switch put 1 data frames on port %s before GRANT "
		 "[12000000, 13000000) ps, 0 arrived: the host lost frames",
		 uet_port_name(e.nic_port[0]));
	ck_assert_str_eq(uet_sync_participant_error(e.pa[0]), want);
	/* The switch heard the NIC's ABORT. */
	ck_assert_int_eq(uet_sync_coordinator_poll(e.co), -ECONNABORTED);
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_FRAME_LOSS);
	env_close(&e);
}
END_TEST

START_TEST(test_frame_lost_towards_the_switch_is_reported)
{
	struct rte_mempool *mp;
	struct env e;
	int dropped = 0;
	char want[200];

	uet_test_eal("uetsync", "losstosw");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open_with(&e, mp, "k", 1, 1 * US, 1 * US, 0,
		      uet_port_ethdev_pair_create);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_ptr_nonnull(rte_eth_add_rx_callback(
		uet_port_id(e.sw_port[0]), 0, drop_first_data, &dropped));
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -EIO);
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_FRAME_LOSS);
	snprintf(want, sizeof(want),
		 "nic 0 (198.18.0.1) on port %s put 1 data frames on the link "
		 "in window [1000000, 11000000) ps, 0 arrived: the host lost "
		 "frames",
		 uet_port_name(e.sw_port[0]));
	ck_assert_str_eq(uet_sync_coordinator_error(e.co), want);
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), -ECONNABORTED);
	env_close(&e);
}
END_TEST

/* A NIC whose Delay (500 ns) is below the lookahead (1 us) would send a
 * frame into a window the switch may already have run: refused. */
START_TEST(test_frame_inside_the_window_breaks_the_lookahead)
{
	struct rte_mempool *mp;
	struct env e;

	uet_test_eal("uetsync", "lookahead");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "o", 1, 500 * NS, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -ERANGE);
	ck_assert_ptr_nonnull(strstr(uet_sync_participant_error(e.pa[0]),
				     "arriving at 10500000 ps, before the "
				     "window end 11000000 ps"));
	ck_assert_int_eq(uet_sync_coordinator_poll(e.co), -ECONNABORTED);
	env_close(&e);
}
END_TEST

/* Fails on the second window it sees. */
static int fail_second_window(void *arg, uet_time_t window_end_ps)
{
	uint32_t *seen = arg;

	(void)window_end_ps;
	return ++*seen == 2 ? -ENOMEM : 0;
}

START_TEST(test_window_hook_error_stops_the_run)
{
	struct uet_sync_coordinator_conf cc;
	struct uet_sync_participant_conf pc;
	struct rte_mempool *mp;
	uint32_t seen = 0;
	struct env e;

	uet_test_eal("uetsync", "hook");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "y", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	memset(&cc, 0, sizeof(cc));
	cc.ports = e.sw_port;
	cc.n_ports = 1;
	cc.component = &e.sw.c;
	cc.pool = mp;
	cc.lookahead_ps = 1 * US;
	cc.end_ps = UET_TIME_NEVER;
	cc.scenario_hash = HASH;
	cc.window_fn = fail_second_window;
	cc.window_arg = &seen;
	ck_assert_int_eq(uet_sync_coordinator_create(&e.co, &cc), 0);
	memset(&pc, 0, sizeof(pc));
	pc.port = e.nic_port[0];
	pc.component = &e.nic[0].c;
	pc.pool = mp;
	pc.scenario_hash = HASH;
	ck_assert_int_eq(uet_sync_participant_create(&e.pa[0], &pc), 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -ENOMEM);
	ck_assert_str_eq(uet_sync_coordinator_error(e.co),
			 "switch failed in window [1000000, 11000000) ps: "
			 "Cannot allocate memory");
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_INTERNAL);
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), -ECONNABORTED);
	env_close(&e);
}
END_TEST

START_TEST(test_create_rejects_zero_lookahead)
{
	struct uet_sync_coordinator *co = NULL;
	struct rte_mempool *mp;
	struct env e;
	struct uet_sync_coordinator_conf cc;

	uet_test_eal("uetsync", "badconf");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "z", 1, 1 * US, 1 * US, 0);
	memset(&cc, 0, sizeof(cc));
	cc.ports = e.sw_port;
	cc.n_ports = 1;
	cc.component = &e.sw.c;
	cc.pool = mp;
	cc.end_ps = UET_TIME_NEVER;
	ck_assert_int_eq(uet_sync_coordinator_create(&co, &cc), -EINVAL);
	cc.lookahead_ps = 1;
	cc.end_ps = 0;
	ck_assert_int_eq(uet_sync_coordinator_create(&co, &cc), -EINVAL);
	ck_assert_ptr_null(co);
	env_close(&e);
}
END_TEST

static Suite *sync_errors_suite(void)
{
	Suite *s = suite_create("sync_errors");
	TCase *tc = tcase_create("errors");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_scenario_hash_mismatch_aborts_naming_the_nic);
	tcase_add_test(
		tc, test_silent_nic_stops_the_coordinator_within_its_timeout);
	tcase_add_test(tc, test_silent_switch_stops_the_nic_within_its_timeout);
	tcase_add_test(
		tc, test_silent_switch_in_a_run_stops_the_nic_a_quarter_later);
	tcase_add_test(tc, test_welcome_wait_bounded_by_the_startup_timeout);
	tcase_add_test(tc, test_frame_lost_towards_the_nic_is_reported);
	tcase_add_test(tc, test_frame_lost_towards_the_switch_is_reported);
	tcase_add_test(tc, test_frame_inside_the_window_breaks_the_lookahead);
	tcase_add_test(tc, test_window_hook_error_stops_the_run);
	tcase_add_test(tc, test_create_rejects_zero_lookahead);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(sync_errors_suite)
