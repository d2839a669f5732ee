/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sync: The lockstep protocol over ring port pairs (sync_coordinator.c,
 * sync_participant.c): windows of E + L that skip idle periods, the
 * switch's window run beside the NICs', exact arrival times, BYE at the
 * end, and results identical whatever the polling order.
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

/* One NIC pings at 10 us; Delay = L = 1 us; the reflector sends it back
 * 1 us after it arrives. Windows: [0,1) [1,11) [11,12) [12,13) us. */
START_TEST(test_ping_arrives_at_exact_times_in_four_windows)
{
	struct rte_mempool *mp;
	struct uet_sync_stats cs, ps;
	struct env e;

	uet_test_eal("uetsync", "ping");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "p", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), 0);

	check_log(&e.nic[0], 0, 10 * US, LOG_SEND, 0, 0, 0);
	check_log(&e.sw, 0, 11 * US, LOG_RECV, 0, 0, 0);
	check_log(&e.nic[0], 1, 12 * US, LOG_RECV, 0, 0, 0);
	ck_assert_uint_eq(e.sw.n_log, 1);
	ck_assert_uint_eq(e.nic[0].n_log, 2);
	/* The trailer (and the padding it replaced) is gone. */
	ck_assert_uint_eq(e.sw.log[0].len_bytes, TEST_FRAME_BYTES);
	ck_assert_uint_eq(e.nic[0].log[1].len_bytes, TEST_FRAME_BYTES);

	uet_sync_coordinator_stats(e.co, &cs);
	uet_sync_participant_stats(e.pa[0], &ps);
	ck_assert_uint_eq(cs.windows, 4);
	ck_assert_uint_eq(ps.windows, 4);
	ck_assert_uint_eq(cs.now_ps, 13 * US);
	ck_assert_uint_eq(cs.data_frames_rx, 1);
	ck_assert_uint_eq(cs.data_frames_tx, 1);
	ck_assert_uint_eq(ps.data_frames_rx, 1);
	ck_assert_uint_eq(ps.data_frames_tx, 1);
	ck_assert_uint_eq(cs.events, 1);
	ck_assert_uint_eq(ps.events, 2);
	/* WELCOME, 4 GRANTs, BYE; HELLO, 4 DONEs, BYE. */
	ck_assert_uint_eq(cs.ctrl_frames_tx, 6);
	ck_assert_uint_eq(cs.ctrl_frames_rx, 6);
	ck_assert_uint_eq(ps.ctrl_frames_tx, 6);
	ck_assert_uint_eq(ps.ctrl_frames_rx, 6);
	ck_assert_uint_eq(cs.foreign_frames, 0);
	/* Finished stays finished. */
	ck_assert_int_eq(uet_sync_coordinator_poll(e.co), UET_SYNC_FINISHED);
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), UET_SYNC_FINISHED);
	ck_assert_str_eq(uet_sync_coordinator_error(e.co), "");
	env_close(&e);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
}
END_TEST

/*
 * The switch runs each window as soon as its GRANT is out, before the NIC
 * has run it: the ping's windows of test_ping_arrives_at_exact_times_in_
 * four_windows, the roles polled by hand. The reflected frame (sent by the
 * switch in [11, 12) us) goes out before the NIC's DONE of that window
 * comes back, behind the GRANT, and the NIC takes it for the next one.
 */
START_TEST(test_switch_runs_its_window_while_the_nics_run_theirs)
{
	struct uet_sync_stats cs, ps;
	struct rte_mempool *mp;
	struct env e;
	int i;

	uet_test_eal("uetsync", "overlap");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "o", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);

	/* HELLO; WELCOME, GRANT [0, 1) and the switch's window [0, 1). */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), UET_SYNC_RUNNING);
	for (i = 0; i < 100 && uet_evq_now(&e.sw.c.evq) == 0; i++)
		ck_assert_int_eq(uet_sync_coordinator_poll(e.co),
				 UET_SYNC_RUNNING);
	ck_assert_uint_eq(uet_evq_now(&e.sw.c.evq), 1 * US);
	ck_assert_uint_eq(uet_evq_now(&e.nic[0].c.evq), 0);

	/* The NIC runs [0, 1): DONE, next 10 us. GRANT [1, 11) and the
	 * switch runs it while the NIC has not. */
	for (i = 0; i < 100 && uet_evq_now(&e.nic[0].c.evq) < 1 * US; i++)
		ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]),
				 UET_SYNC_RUNNING);
	for (i = 0; i < 100 && uet_evq_now(&e.sw.c.evq) < 11 * US; i++)
		ck_assert_int_eq(uet_sync_coordinator_poll(e.co),
				 UET_SYNC_RUNNING);
	ck_assert_uint_eq(uet_evq_now(&e.sw.c.evq), 11 * US);
	ck_assert_uint_eq(uet_evq_now(&e.nic[0].c.evq), 1 * US);

	/* The NIC runs [1, 11): the ping, DONE. GRANT [11, 12): the switch
	 * reflects the ping at 11 us and sends it before the NIC's DONE. */
	for (i = 0; i < 100 && uet_evq_now(&e.nic[0].c.evq) < 11 * US; i++)
		ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]),
				 UET_SYNC_RUNNING);
	for (i = 0; i < 100 && uet_evq_now(&e.sw.c.evq) < 12 * US; i++)
		ck_assert_int_eq(uet_sync_coordinator_poll(e.co),
				 UET_SYNC_RUNNING);
	uet_sync_coordinator_stats(e.co, &cs);
	uet_sync_participant_stats(e.pa[0], &ps);
	ck_assert_uint_eq(cs.data_frames_tx, 1);
	ck_assert_uint_eq(ps.windows, 2);
	ck_assert_uint_eq(ps.data_frames_rx, 0);
	check_log(&e.sw, 0, 11 * US, LOG_RECV, 0, 0, 0);

	/* The rest as in the embedded loop: the same log as there. */
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), 0);
	check_log(&e.nic[0], 0, 10 * US, LOG_SEND, 0, 0, 0);
	check_log(&e.nic[0], 1, 12 * US, LOG_RECV, 0, 0, 0);
	uet_sync_coordinator_stats(e.co, &cs);
	ck_assert_uint_eq(cs.windows, 4);
	env_close(&e);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
}
END_TEST

/* A second ping a second later: the idle time between is one window,
 * [13 us, 1 s + 1 us), and the run takes 7 windows in all. */
START_TEST(test_idle_period_is_skipped_in_one_window)
{
	const uet_time_t s = UET_PS_PER_S;
	struct uet_sync_stats cs;
	struct rte_mempool *mp;
	struct env e;

	uet_test_eal("uetsync", "idle");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "i", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	fake_ping_at(&e.nic[0], s);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), 0);
	uet_sync_coordinator_stats(e.co, &cs);
	ck_assert_uint_eq(cs.windows, 7);
	ck_assert_uint_eq(cs.now_ps, s + 3 * US);
	check_log(&e.nic[0], 2, s, LOG_SEND, 0, 0, 1);
	check_log(&e.sw, 1, s + 1 * US, LOG_RECV, 0, 0, 1);
	check_log(&e.nic[0], 3, s + 2 * US, LOG_RECV, 0, 0, 1);
	env_close(&e);
}
END_TEST

/* With the run's end at 500 us, the ping at 1 s never happens: BYE after
 * the fourth window. */
START_TEST(test_run_stops_at_its_end_time_with_bye)
{
	struct uet_sync_stats cs, ps;
	struct rte_mempool *mp;
	struct env e;

	uet_test_eal("uetsync", "end");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "n", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	fake_ping_at(&e.nic[0], UET_PS_PER_S);
	env_roles(&e, 1 * US, 500 * US, 0, 0, 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), 0);
	uet_sync_coordinator_stats(e.co, &cs);
	uet_sync_participant_stats(e.pa[0], &ps);
	ck_assert_uint_eq(cs.windows, 4);
	ck_assert_uint_eq(ps.windows, 4);
	ck_assert_uint_eq(e.nic[0].n_log, 2);
	ck_assert_uint_eq(uet_evq_next_time(&e.nic[0].c.evq), UET_PS_PER_S);
	env_close(&e);
}
END_TEST

/* ---- determinism ---- */

/* Four NICs ping at the same times (ties at the switch) and at their own;
 * the switch forwards each frame to the next port 1.5 us later. */
static void run_mesh(struct rte_mempool *mp, const char *tag, bool reverse,
		     uint32_t coord_every, struct env *e)
{
	struct uet_sync_participant *order[MAX_NICS];
	uint32_t i, round = 0;
	int rc;

	env_open(e, mp, tag, 4, 1 * US, 1500 * NS, 1);
	for (i = 0; i < 4; i++) {
		fake_ping_at(&e->nic[i], 5 * US);
		fake_ping_at(&e->nic[i], 5 * US);
		fake_ping_at(&e->nic[i], (7 + i) * US + i * 100 * NS);
		fake_ping_at(&e->nic[i], 20 * US);
	}
	env_roles(e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	for (i = 0; i < 4; i++)
		order[i] = e->pa[reverse ? 3 - i : i];
	if (coord_every <= 1) {
		ck_assert_int_eq(uet_sync_run_embedded(e->co, order, 4), 0);
		return;
	}
	/* Another interleaving: the NICs run several rounds between two
	 * polls of the coordinator. */
	for (;;) {
		bool running = false;

		if (round++ % coord_every == 0) {
			rc = uet_sync_coordinator_poll(e->co);
			ck_assert_int_ge(rc, 0);
			running = rc == UET_SYNC_RUNNING;
		} else {
			running = true;
		}
		for (i = 0; i < 4; i++) {
			int prc = uet_sync_participant_poll(order[i]);

			ck_assert_int_ge(prc, 0);
			if (prc == UET_SYNC_RUNNING)
				running = true;
		}
		if (!running)
			break;
	}
}

static void check_same_logs(const struct env *a, const struct env *b)
{
	uint32_t i;

	ck_assert_uint_eq(a->sw.n_log, b->sw.n_log);
	ck_assert_mem_eq(a->sw.log, b->sw.log,
			 sizeof(a->sw.log[0]) * a->sw.n_log);
	for (i = 0; i < a->n; i++) {
		ck_assert_uint_eq(a->nic[i].n_log, b->nic[i].n_log);
		ck_assert_mem_eq(a->nic[i].log, b->nic[i].log,
				 sizeof(a->nic[i].log[0]) * a->nic[i].n_log);
	}
}

START_TEST(test_results_identical_run_to_run_and_in_any_polling_order)
{
	struct rte_mempool *mp;
	struct env *e = calloc(4, sizeof(*e));
	uint32_t i;

	ck_assert_ptr_nonnull(e);
	uet_test_eal("uetsync", "determ");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	run_mesh(mp, "a", false, 1, &e[0]);
	run_mesh(mp, "b", false, 1, &e[1]);
	run_mesh(mp, "c", true, 1, &e[2]);
	run_mesh(mp, "d", true, 3, &e[3]);
	/* 16 frames through the switch, each NIC sends 4 and gets 4. */
	ck_assert_uint_eq(e[0].sw.n_log, 16);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(e[0].nic[i].n_log, 8);
	/* Eight frames tie at 6 us: sorted by port, then order on the port. */
	for (i = 0; i < 8; i++)
		check_log(&e[0].sw, i, 6 * US, LOG_RECV, i / 2, i / 2, i % 2);
	/* NIC 1 gets NIC 0's two frames at 7.5 us, in their order. */
	check_log(&e[0].nic[1], 2, 7 * US + 500 * NS, LOG_RECV, 0, 0, 0);
	check_log(&e[0].nic[1], 3, 7 * US + 500 * NS, LOG_RECV, 0, 0, 1);
	check_same_logs(&e[0], &e[1]);
	check_same_logs(&e[0], &e[2]);
	check_same_logs(&e[0], &e[3]);
	for (i = 0; i < 4; i++)
		env_close(&e[i]);
	free(e);
}
END_TEST

static Suite *sync_lockstep_suite(void)
{
	Suite *s = suite_create("sync_lockstep");
	TCase *tc = tcase_create("lockstep");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_ping_arrives_at_exact_times_in_four_windows);
	tcase_add_test(tc,
		       test_switch_runs_its_window_while_the_nics_run_theirs);
	tcase_add_test(tc, test_idle_period_is_skipped_in_one_window);
	tcase_add_test(tc, test_run_stops_at_its_end_time_with_bye);
	tcase_add_test(
		tc, test_results_identical_run_to_run_and_in_any_polling_order);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(sync_lockstep_suite)
