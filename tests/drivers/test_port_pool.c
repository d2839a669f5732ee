/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The pool that fills as it is used (drivers/uet_port_pool.c): one chunk
 * at creation, the next added by the get that leaves the ring low, before
 * it runs dry; every mbuf of the pool can be taken, the one after fails
 * cleanly, and every mbuf returns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <check.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "check_main.h"
#include "eal_test.h"
#include "uet_port.h"

/* Small mbufs: the chunk is a sixteenth of the pool, 1,250 of them (over
 * the least chunk, 512, and under the most made at creation, 4,096). */
#define POOL_MBUFS 20000u
#define POOL_CHUNK 1250u
#define POOL_DATA 256u
/* The mempool's cache per lcore (a get refills it from the ring by up to
 * this many more than it asked). */
#define POOL_CACHE 256u

static int ptr_cmp(const void *a, const void *b)
{
	const struct rte_mbuf *const *pa = a, *const *pb = b;
	const uintptr_t x = (uintptr_t)*pa, y = (uintptr_t)*pb;

	return x < y ? -1 : x > y;
}

START_TEST(test_pool_grows_ahead_and_fills)
{
	struct rte_mbuf **m = calloc(POOL_MBUFS + 1, sizeof(*m));
	struct rte_mempool *mp;
	uint32_t taken = 0, i;

	ck_assert_ptr_nonnull(m);
	uet_test_eal("uetdrv", "pool");
	mp = uet_port_pool_create_growing("test_grow", POOL_MBUFS, POOL_DATA,
					  0);
	ck_assert_ptr_nonnull(mp);
	ck_assert_uint_eq(mp->populated_size, POOL_CHUNK);
	/* Take one at a time until the second chunk is there. */
	while (mp->populated_size == POOL_CHUNK && taken < POOL_CHUNK) {
		m[taken] = rte_pktmbuf_alloc(mp);
		ck_assert_ptr_nonnull(m[taken]);
		taken++;
	}
	ck_assert_uint_eq(mp->populated_size, 2 * POOL_CHUNK);
	/* Added when the ring fell under a quarter of a chunk, so while
	 * mbufs were still free in it: not by a get that found it empty. */
	ck_assert_uint_le(taken, POOL_CHUNK - POOL_CHUNK / 4 + 1);
	ck_assert_uint_ge(taken, POOL_CHUNK - POOL_CHUNK / 4 - 2 * POOL_CACHE);
	/* The rest of the pool, every mbuf a whole one. */
	while (taken < POOL_MBUFS) {
		m[taken] = rte_pktmbuf_alloc(mp);
		ck_assert_msg(m[taken] != NULL, "get %u of %u failed", taken,
			      POOL_MBUFS);
		ck_assert_uint_eq(m[taken]->buf_len,
				  POOL_DATA + RTE_PKTMBUF_HEADROOM);
		ck_assert_ptr_eq(m[taken]->pool, mp);
		taken++;
	}
	ck_assert_uint_eq(mp->populated_size, POOL_MBUFS);
	/* Whole: the next get fails, and nothing is made beyond it. */
	ck_assert_ptr_null(rte_pktmbuf_alloc(mp));
	ck_assert_uint_eq(mp->populated_size, POOL_MBUFS);
	/* No mbuf handed out twice: sorted, no two alike. */
	qsort(m, POOL_MBUFS, sizeof(*m), ptr_cmp);
	for (i = 1; i < POOL_MBUFS; i++)
		ck_assert_ptr_ne(m[i], m[i - 1]);
	for (i = 0; i < POOL_MBUFS; i++)
		rte_pktmbuf_free(m[i]);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
	rte_mempool_free(mp);
	free(m);
}
END_TEST

/* rte_mempool_free() drains a pool through its dequeue, counting its
 * mbufs down: a pool not yet whole, its ring low, must not grow then (it
 * grew for ever: the embedded run hung at its end). */
START_TEST(test_pool_not_whole_frees_without_growing)
{
	struct rte_mbuf *m[POOL_CHUNK];
	struct rte_mempool *mp;
	uint32_t i;

	uet_test_eal("uetdrv", "poolfree");
	mp = uet_port_pool_create_local("test_free", POOL_MBUFS, POOL_DATA);
	ck_assert_ptr_nonnull(mp);
	/* Every mbuf of the first chunk out and back: the second chunk is
	 * made, the pool is not whole. */
	for (i = 0; i < POOL_CHUNK; i++) {
		m[i] = rte_pktmbuf_alloc(mp);
		ck_assert_ptr_nonnull(m[i]);
	}
	for (i = 0; i < POOL_CHUNK; i++)
		rte_pktmbuf_free(m[i]);
	ck_assert_uint_lt(mp->populated_size, POOL_MBUFS);
	rte_mempool_free(mp);
}
END_TEST

/* The per-lcore caches are set up for the EAL's lcores alone, in the room
 * DPDK's layout gives them: the mbuf pool's private data is found after
 * them, an lcore's gets and puts go through its cache, and the counts
 * add up. */
START_TEST(test_pool_caches_for_the_eal_lcores_only)
{
	struct rte_mbuf *m;
	struct rte_mempool *mp;

	uet_test_eal("uetdrv", "poolcache");
	mp = uet_port_pool_create_local("test_cache", POOL_MBUFS, POOL_DATA);
	ck_assert_ptr_nonnull(mp);
	ck_assert_uint_eq(mp->cache_size, POOL_CACHE);
	ck_assert_uint_eq(rte_pktmbuf_data_room_size(mp),
			  POOL_DATA + RTE_PKTMBUF_HEADROOM);
	ck_assert_uint_eq(mp->local_cache[rte_lcore_id()].size, POOL_CACHE);
	/* uet_test_eal() starts lcore 0 alone. */
	ck_assert_uint_eq(mp->local_cache[RTE_MAX_LCORE - 1].size, 0);
	m = rte_pktmbuf_alloc(mp);
	ck_assert_ptr_nonnull(m);
	ck_assert_uint_eq(m->buf_len, POOL_DATA + RTE_PKTMBUF_HEADROOM);
	ck_assert_uint_gt(mp->local_cache[rte_lcore_id()].len, 0);
	rte_pktmbuf_free(m);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), mp->populated_size);
	rte_mempool_free(mp);
}
END_TEST

/* A figure of /proc/self/status, KiB. */
static uint64_t status_kib(const char *key)
{
	char line[256];
	uint64_t v = 0;
	FILE *f = fopen("/proc/self/status", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, key, strlen(key)) == 0)
			v = strtoull(line + strlen(key), NULL, 10);
	fclose(f);
	ck_assert_uint_gt(v, 0);
	return v;
}

/*
 * The embedded run's pools (local: the process's memory; attach: bare
 * mbufs for payloads), freed with mbufs still out, as a run that leaves
 * its models to the exit does: rte_mempool_free() returns, having made
 * no chunk beyond those it had (rte_mempool_free takes each mbuf back
 * one at a time and forgets it, and a get that then grew the pool made
 * room for more without end: 24 GB for the quickstart).
 */
START_TEST(test_local_pools_free_with_mbufs_out)
{
	struct rte_mbuf *m[600], *p;
	struct rte_mempool *mp, *pp;
	uint64_t peak_kib;
	struct rlimit lim;
	unsigned chunks;
	uint32_t i;

	uet_test_eal("uetdrv", "pool");
	mp = uet_port_pool_create_local("test_local", 2000, 128);
	pp = uet_port_pool_create_attach("test_attach", 2000);
	ck_assert_ptr_nonnull(mp);
	ck_assert_ptr_nonnull(pp);
	for (i = 0; i < 600; i++) {
		m[i] = rte_pktmbuf_alloc(mp);
		ck_assert_ptr_nonnull(m[i]);
		ck_assert_uint_eq(m[i]->buf_len, 128 + RTE_PKTMBUF_HEADROOM);
	}
	p = rte_pktmbuf_alloc(pp);
	ck_assert_ptr_nonnull(p);
	/* No room of its own: it only points at what it is attached to.
	 */
	ck_assert_uint_eq(p->buf_len, 0);
	ck_assert_uint_eq(rte_pktmbuf_tailroom(p), 0);
	chunks = mp->nb_mem_chunks;
	ck_assert_uint_ge(chunks, 2);
	/* The 600 still out when the pools go. The address space is
	 * bounded to 256 MiB more than now, so that a free that grew
	 * the pool would stop at its first failed chunk rather than
	 * take the machine; the peak RSS then shows whether it grew. */
	lim.rlim_cur = lim.rlim_max =
		status_kib("VmSize:") * 1024 + (256 << 20);
	ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
	peak_kib = status_kib("VmHWM:");
	rte_mempool_free(mp);
	rte_mempool_free(pp);
	ck_assert_uint_lt(status_kib("VmHWM:"), peak_kib + 8 * 1024);
}
END_TEST

static Suite *pool_suite(void)
{
	Suite *s = suite_create("port_pool");
	TCase *tc = tcase_create("grow");

	tcase_add_test(tc, test_pool_grows_ahead_and_fills);
	tcase_add_test(tc, test_pool_not_whole_frees_without_growing);
	tcase_add_test(tc, test_pool_caches_for_the_eal_lcores_only);
	tcase_add_test(tc, test_local_pools_free_with_mbufs_out);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(pool_suite)
