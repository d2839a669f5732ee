/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sync: the in-process lockstep over ranks (sync_mpi.c), without MPI:
 * two ranks are two threads of this process, each with a whole run of
 * fake components (sync_harness.h), their collectives made of a barrier
 * and shared buffers. Each rank's own NIC logs what it does in one
 * process, the switch (rank 0's) logs the same, the stand-ins (rank 1's
 * switch, each rank's other NIC) log nothing, and a stop on one rank
 * stops both at the same window with the same text.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <rte_mbuf.h>

#include "check_main.h"
#include "eal_test.h"
#include "sync_harness.h"
#include "uet_sync_local.h"

#define RANKS 2u

/* The collectives of RANKS threads. */
struct fake_world {
	pthread_barrier_t bar;
	const void *send[RANKS];
	size_t len[RANKS];
	uint64_t vals[RANKS][8];
	uint8_t *all[RANKS]; /* each rank's copy of every message */
	size_t offs[RANKS][RANKS + 1];
	const uint8_t *pair[RANKS][RANKS]; /* [from][to], a window's */
	size_t pair_len[RANKS][RANKS];
	uint8_t *got[RANKS][RANKS]; /* [to][from]: the receiver's copy */
};

struct fake_rank {
	struct fake_world *w;
	uint32_t rank;
};

static int fw_allgather(void *arg, const void *send, size_t len,
			const uint8_t **all, const size_t **offs)
{
	struct fake_rank *fr = arg;
	struct fake_world *w = fr->w;
	size_t total = 0;
	uint32_t r;

	w->send[fr->rank] = send;
	w->len[fr->rank] = len;
	pthread_barrier_wait(&w->bar);
	for (r = 0; r < RANKS; r++)
		total += w->len[r];
	free(w->all[fr->rank]);
	w->all[fr->rank] = malloc(total + 1u);
	ck_assert_ptr_nonnull(w->all[fr->rank]);
	total = 0;
	for (r = 0; r < RANKS; r++) {
		w->offs[fr->rank][r] = total;
		memcpy(w->all[fr->rank] + total, w->send[r], w->len[r]);
		total += w->len[r];
	}
	w->offs[fr->rank][RANKS] = total;
	pthread_barrier_wait(&w->bar);
	*all = w->all[fr->rank];
	*offs = w->offs[fr->rank];
	return 0;
}

/* Each rank's messages to every other, through the world: rank r's to
 * rank q is w->pair[r][q]. */
static int fw_exchange(void *arg, const uint8_t *peers,
		       const uint8_t *const *send, const size_t *send_len,
		       const uint8_t **recv, size_t *recv_len)
{
	struct fake_rank *fr = arg;
	struct fake_world *w = fr->w;
	uint32_t r;

	/* Two ranks: each the other's peer. */
	ck_assert(peers == NULL || peers[1 - fr->rank]);
	for (r = 0; r < RANKS; r++) {
		w->pair[fr->rank][r] = send[r];
		w->pair_len[fr->rank][r] = send_len[r];
	}
	pthread_barrier_wait(&w->bar);
	for (r = 0; r < RANKS; r++) {
		const size_t n = w->pair_len[r][fr->rank];

		recv_len[r] = r != fr->rank ? n : 0;
		recv[r] = NULL;
		if (r == fr->rank)
			continue;
		free(w->got[fr->rank][r]);
		w->got[fr->rank][r] = malloc(n + 1u);
		ck_assert_ptr_nonnull(w->got[fr->rank][r]);
		memcpy(w->got[fr->rank][r], w->pair[r][fr->rank], n);
		recv[r] = w->got[fr->rank][r];
	}
	pthread_barrier_wait(&w->bar);
	return 0;
}

static int fw_reduce(struct fake_rank *fr, uint64_t *v, uint32_t n, bool min)
{
	struct fake_world *w = fr->w;
	uint32_t i, r;

	ck_assert_uint_le(n, 8);
	memcpy(w->vals[fr->rank], v, n * sizeof(*v));
	pthread_barrier_wait(&w->bar);
	for (i = 0; i < n; i++) {
		uint64_t x = w->vals[0][i];

		for (r = 1; r < RANKS; r++)
			x = min ? (w->vals[r][i] < x ? w->vals[r][i] : x)
				: x + w->vals[r][i];
		v[i] = x;
	}
	pthread_barrier_wait(&w->bar);
	return 0;
}

static int fw_min(void *arg, uint64_t *v, uint32_t n)
{
	return fw_reduce(arg, v, n, true);
}

static int fw_sum(void *arg, uint64_t *v, uint32_t n)
{
	return fw_reduce(arg, v, n, false);
}

static int fw_bcast(void *arg, void *buf, size_t len, uint32_t root)
{
	struct fake_rank *fr = arg;
	struct fake_world *w = fr->w;

	if (fr->rank == root)
		w->send[root] = buf;
	pthread_barrier_wait(&w->bar);
	if (fr->rank != root)
		memcpy(buf, w->send[root], len);
	pthread_barrier_wait(&w->bar);
	return 0;
}

static const char *fw_error(void *arg)
{
	(void)arg;
	return "no error";
}

static const struct uet_sync_ranks_ops fw_ops = {
	.allgather = fw_allgather,
	.exchange = fw_exchange,
	.min = fw_min,
	.sum = fw_sum,
	.bcast = fw_bcast,
	.error = fw_error,
};

/* The wiring's hook after each window (a workload engine's flush runs
 * there): where fails is set, it fails its second. */
struct window_hook {
	bool fails;
	uint32_t windows;
};

/* One rank's run: its env, its lockstep, what it returned. */
struct rank_run {
	struct env e;
	struct fake_rank fr;
	struct uet_sync_ranks rk;
	struct uet_sync_local *l;
	volatile sig_atomic_t stop;
	struct window_hook hook;
	int rc;
	char error[UET_SYNC_ERROR_BYTES];
	struct uet_sync_stats st;
};

/* Two NICs; the reflector sends what arrives on port p out of port 1 - p
 * 1 us later; NIC 0 pings at 2 and 7 us, NIC 1 at 3 us. */
static void open_env(struct env *e, struct rte_mempool *mp, const char *tag)
{
	env_open(e, mp, tag, 2, 1 * US, 1 * US, 1);
	fake_ping_at(&e->nic[0], 2 * US);
	fake_ping_at(&e->nic[0], 7 * US);
	fake_ping_at(&e->nic[1], 3 * US);
}

static int window_hook(void *arg, uet_time_t window_end_ps)
{
	struct window_hook *h = arg;

	(void)window_end_ps;
	return h->fails && ++h->windows == 2 ? -EPROTO : 0;
}

static int make_local(struct env *e, const struct uet_sync_ranks *rk,
		      const volatile sig_atomic_t *stop,
		      struct window_hook *hook, struct uet_sync_local **lp)
{
	struct uet_component *nics[2] = {&e->nic[0].c, &e->nic[1].c};
	struct uet_sync_local_conf lc = {
		.sw = &e->sw.c,
		.nics = nics,
		.n_nics = 2,
		.lookahead_ps = 1 * US,
		.start_ps = 0,
		.end_ps = UET_TIME_NEVER,
		.window_fn = hook != NULL ? window_hook : NULL,
		.window_arg = hook,
		.stop = stop,
		.ranks = rk,
	};

	return uet_sync_local_create(lp, &lc);
}

static void *rank_main(void *arg)
{
	struct rank_run *rr = arg;

	rr->rc = uet_sync_local_run(rr->l);
	snprintf(rr->error, sizeof(rr->error), "%s",
		 uet_sync_local_error(rr->l));
	uet_sync_local_stats(rr->l, &rr->st);
	return NULL;
}

static void same_log(const struct fake *a, const struct fake *b)
{
	ck_assert_uint_eq(a->n_log, b->n_log);
	ck_assert_int_eq(memcmp(a->log, b->log, a->n_log * sizeof(a->log[0])),
			 0);
}

/* Both ranks, each in its thread; rank `stopped` has its stop set, rank
 * `failing` its window hook failing its second window. */
static void run_ranks(struct rte_mempool *mp, struct rank_run *rr,
		      struct fake_world *w, int stopped, int failing)
{
	pthread_t t[RANKS];
	uint32_t r;

	memset(w, 0, sizeof(*w));
	ck_assert_int_eq(pthread_barrier_init(&w->bar, NULL, RANKS), 0);
	for (r = 0; r < RANKS; r++) {
		char tag[8];

		snprintf(tag, sizeof(tag), "r%u%d%d", r, stopped, failing);
		open_env(&rr[r].e, mp, tag);
		rr[r].fr = (struct fake_rank){.w = w, .rank = r};
		rr[r].rk = (struct uet_sync_ranks){
			.rank = r,
			.ranks = RANKS,
			.ops = &fw_ops,
			.arg = &rr[r].fr,
			.mp = mp,
		};
		/* A NIC each; the switch (not in parts) on rank 0. */
		ck_assert_int_eq(
			uet_sync_rank_shares(&rr[r].e.sw.c, 2, &rr[r].rk), 0);
		ck_assert_uint_eq(rr[r].rk.nic_first, r);
		ck_assert_uint_eq(rr[r].rk.nic_count, 1);
		ck_assert_uint_eq(rr[r].rk.part_first, 0);
		ck_assert_uint_eq(rr[r].rk.part_count, r == 0 ? 1 : 0);
		rr[r].stop = (int)r == stopped;
		rr[r].hook = (struct window_hook){.fails = (int)r == failing};
		ck_assert_int_eq(make_local(&rr[r].e, &rr[r].rk, &rr[r].stop,
					    &rr[r].hook, &rr[r].l),
				 0);
	}
	for (r = 0; r < RANKS; r++)
		ck_assert_int_eq(pthread_create(&t[r], NULL, rank_main, &rr[r]),
				 0);
	for (r = 0; r < RANKS; r++)
		ck_assert_int_eq(pthread_join(t[r], NULL), 0);
	for (r = 0; r < RANKS; r++) {
		uint32_t q;

		free(w->all[r]);
		for (q = 0; q < RANKS; q++)
			free(w->got[r][q]);
	}
	pthread_barrier_destroy(&w->bar);
}

START_TEST(test_two_ranks_run_as_one_process)
{
	static struct rank_run rr[RANKS];
	static struct fake_world w;
	struct uet_sync_local *one;
	struct uet_sync_stats st;
	struct rte_mempool *mp;
	struct env ref;
	uint32_t r;

	uet_test_eal("uetsync", "ranks");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	/* The reference: both NICs in one process. */
	open_env(&ref, mp, "ref");
	ck_assert_int_eq(make_local(&ref, NULL, NULL, NULL, &one), 0);
	ck_assert_int_eq(uet_sync_local_run(one), 0);
	uet_sync_local_stats(one, &st);
	/* Each ping out, through the reflector, to the other NIC. */
	ck_assert_uint_eq(ref.sw.n_log, 3);
	ck_assert_uint_eq(ref.nic[0].n_log, 3);
	ck_assert_uint_eq(ref.nic[1].n_log, 3);
	check_log(&ref.nic[1], 0, 3 * US, LOG_SEND, 0, 1, 0);
	check_log(&ref.nic[1], 1, 4 * US, LOG_RECV, 0, 0, 0);

	run_ranks(mp, rr, &w, -1, -1);
	for (r = 0; r < RANKS; r++) {
		ck_assert_int_eq(rr[r].rc, 0);
		ck_assert_str_eq(rr[r].error, "");
		/* The same windows, the same virtual time. */
		ck_assert_uint_eq(rr[r].st.windows, st.windows);
		ck_assert_uint_eq(rr[r].st.now_ps, st.now_ps);
		/* Rank 0's switch saw the run's frames (rank 1's NIC's
		 * over the exchange, its own back the same way); rank 1's
		 * copy never ran. */
		if (r == 0)
			same_log(&rr[r].e.sw, &ref.sw);
		else
			ck_assert_uint_eq(rr[r].e.sw.n_log, 0);
		/* Its own NIC ran as in one process; the stand-in not at
		 * all. */
		same_log(&rr[r].e.nic[r], &ref.nic[r]);
		ck_assert_uint_eq(rr[r].e.nic[1 - r].n_log, 0);
	}
	for (r = 0; r < RANKS; r++) {
		uet_sync_local_free(rr[r].l);
		env_close(&rr[r].e);
	}
	uet_sync_local_free(one);
	env_close(&ref);
	/* No frame kept: the stand-ins' copies and inboxes were freed. */
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
}
END_TEST

/* Rank 1 is stopped by a signal: both ranks stop at its first window's
 * agreement, -EINTR, with the same text. */
START_TEST(test_a_stop_on_one_rank_stops_both)
{
	static struct rank_run rr[RANKS];
	static struct fake_world w;
	struct rte_mempool *mp;
	uint32_t r;

	uet_test_eal("uetsync", "ranks");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	run_ranks(mp, rr, &w, 1, -1);
	for (r = 0; r < RANKS; r++) {
		ck_assert_int_eq(rr[r].rc, -EINTR);
		ck_assert_str_eq(rr[r].error, "stopped by a signal at 1000000 "
					      "ps of virtual time");
		ck_assert_uint_eq(rr[r].st.windows, 1);
		uet_sync_local_free(rr[r].l);
		env_close(&rr[r].e);
	}
}
END_TEST

/*
 * Rank 1's window hook fails its second window (as a workload engine
 * whose post its NIC refuses fails the flush there): both ranks stop at
 * that window's agreement with rank 1's error and its text, rank 1 named.
 */
START_TEST(test_a_window_hook_failing_on_one_rank_stops_both)
{
	static struct rank_run rr[RANKS];
	static struct fake_world w;
	struct rte_mempool *mp;
	uint32_t r;

	uet_test_eal("uetsync", "ranks");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	run_ranks(mp, rr, &w, -1, 1);
	for (r = 0; r < RANKS; r++) {
		ck_assert_int_eq(rr[r].rc, -EPROTO);
		ck_assert_str_eq(rr[r].error,
				 "rank 1 of 2 failed in window [1000000, "
				 "3000000) ps: the run failed in window "
				 "[1000000, 3000000) ps: Protocol error");
		ck_assert_uint_eq(rr[r].st.windows, 2);
		uet_sync_local_free(rr[r].l);
		env_close(&rr[r].e);
	}
}
END_TEST

static Suite *sync_ranks_suite(void)
{
	Suite *s = suite_create("sync_ranks");
	TCase *tc = tcase_create("ranks");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_two_ranks_run_as_one_process);
	tcase_add_test(tc, test_a_stop_on_one_rank_stops_both);
	tcase_add_test(tc, test_a_window_hook_failing_on_one_rank_stops_both);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN_FORKED(sync_ranks_suite)
