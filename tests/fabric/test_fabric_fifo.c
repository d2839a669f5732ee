/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric's frame FIFO (fabric_fifo.c): a ring made with no slots
 * takes them at its first push, keeps first-in first-out order as it
 * doubles (also with its entries wrapped around the end), and gives its
 * frames back to the pool when it is freed.
 */
#include "fabric_test_private.h"
#include "fabric_test.h"

/* An entry whose fields all say n (its frame is a fresh mbuf). */
static struct fabric_entry ff_entry(struct ft_env *env, uint32_t n)
{
	struct fabric_entry e = {
		.m = rte_pktmbuf_alloc(env->mp),
		.time_ps = 1000u * n,
		.wire_bytes = n,
		.ingress = n,
	};

	ck_assert_ptr_nonnull(e.m);
	return e;
}

static void ff_pop_expect(struct fabric_fifo *f, uint32_t n)
{
	struct fabric_entry e;

	ck_assert(!fabric_fifo_empty(f));
	fabric_fifo_pop(f, &e);
	ck_assert_uint_eq(e.wire_bytes, n);
	ck_assert_uint_eq(e.ingress, n);
	ck_assert_uint_eq(e.time_ps, 1000u * n);
	rte_pktmbuf_free(e.m);
}

START_TEST(test_ring_without_slots_takes_them_at_first_push)
{
	struct ft_env env;
	struct fabric_fifo f;
	struct fabric_entry e;

	uet_test_eal("uetfab", "fifo_lazy");
	ft_pool(&env);
	ck_assert_int_eq(fabric_fifo_init(&f, 0), 0);
	ck_assert_ptr_null(f.slots);
	ck_assert_uint_eq(f.cap, 0);
	ck_assert(fabric_fifo_empty(&f));
	e = ff_entry(&env, 7);
	ck_assert_int_eq(fabric_fifo_push(&f, &e), 0);
	ck_assert_ptr_nonnull(f.slots);
	ck_assert_uint_eq(f.cap, FABRIC_FIFO_FIRST_SLOTS);
	ck_assert_ptr_eq(fabric_fifo_head(&f)->m, e.m);
	ck_assert_ptr_eq(fabric_fifo_tail(&f)->m, e.m);
	ff_pop_expect(&f, 7);
	ck_assert(fabric_fifo_empty(&f));
	fabric_fifo_fini(&f);
	ck_assert_ptr_null(f.slots);
	/* Freed without ever holding a frame: nothing to do. */
	ck_assert_int_eq(fabric_fifo_init(&f, 0), 0);
	fabric_fifo_fini(&f);
	ck_assert_uint_eq(rte_mempool_avail_count(env.mp), FT_POOL_MBUFS);
	rte_mempool_free(env.mp);
}
END_TEST

/* Entries wrapped around the end of a full ring come out in order after
 * it doubles: 10 in, 5 out, then up to 16 + 48 in. */
START_TEST(test_ring_keeps_order_across_growth_and_wrap)
{
	struct ft_env env;
	struct fabric_fifo f;
	uint32_t n, next = 0;

	uet_test_eal("uetfab", "fifo_wrap");
	ft_pool(&env);
	ck_assert_int_eq(fabric_fifo_init(&f, 0), 0);
	for (n = 0; n < 10; n++) {
		struct fabric_entry e = ff_entry(&env, n);

		ck_assert_int_eq(fabric_fifo_push(&f, &e), 0);
	}
	for (; next < 5; next++)
		ff_pop_expect(&f, next);
	ck_assert_uint_eq(f.head, 5);
	for (; n < 5 + 64; n++) {
		struct fabric_entry e = ff_entry(&env, n);

		ck_assert_int_eq(fabric_fifo_push(&f, &e), 0);
	}
	ck_assert_uint_eq(f.cap, 64);
	ck_assert_uint_eq(f.len, 64);
	ck_assert_uint_eq(fabric_fifo_tail(&f)->wire_bytes, n - 1);
	while (next < n)
		ff_pop_expect(&f, next++);
	ck_assert(fabric_fifo_empty(&f));
	ck_assert_uint_eq(f.head, 0);
	fabric_fifo_fini(&f);
	ck_assert_uint_eq(rte_mempool_avail_count(env.mp), FT_POOL_MBUFS);
	rte_mempool_free(env.mp);
}
END_TEST

START_TEST(test_ring_of_odd_size_is_refused)
{
	struct fabric_fifo f;

	ck_assert_int_eq(fabric_fifo_init(&f, 3), -EINVAL);
	ck_assert_ptr_null(f.slots);
	ck_assert_uint_eq(f.cap, 0);
	ck_assert_int_eq(fabric_fifo_init(&f, 4), 0);
	ck_assert_uint_eq(f.cap, 4);
	fabric_fifo_fini(&f);
}
END_TEST

/* Frames still queued when the ring is freed go back to the pool. */
START_TEST(test_ring_freed_gives_its_frames_back)
{
	struct ft_env env;
	struct fabric_fifo f;
	uint32_t n;

	uet_test_eal("uetfab", "fifo_fini");
	ft_pool(&env);
	ck_assert_int_eq(fabric_fifo_init(&f, 0), 0);
	for (n = 0; n < 40; n++) {
		struct fabric_entry e = ff_entry(&env, n);

		ck_assert_int_eq(fabric_fifo_push(&f, &e), 0);
	}
	ck_assert_uint_eq(rte_mempool_avail_count(env.mp), FT_POOL_MBUFS - 40);
	fabric_fifo_fini(&f);
	ck_assert_ptr_null(f.slots);
	ck_assert_uint_eq(rte_mempool_avail_count(env.mp), FT_POOL_MBUFS);
	rte_mempool_free(env.mp);
}
END_TEST

static Suite *fabric_fifo_suite(void)
{
	Suite *s = suite_create("fabric_fifo");
	TCase *tc = tcase_create("fifo");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_ring_without_slots_takes_them_at_first_push);
	tcase_add_test(tc, test_ring_keeps_order_across_growth_and_wrap);
	tcase_add_test(tc, test_ring_of_odd_size_is_refused);
	tcase_add_test(tc, test_ring_freed_gives_its_frames_back);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(fabric_fifo_suite)
