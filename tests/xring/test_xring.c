/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/xring: frames come out in the order they went in, through the ring
 * and past it into the spill-over, or through an array ring's growing
 * array; orders count from 0 after each emptying; the ring is sized for
 * a window's frames; frames left at the end go back to their pool; the
 * window sort's order. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "check_main.h"
#include "eal_test.h"
#include "uet_xring.h"

/*
 * The n frames taken are m[0..n-1] in the order put: frame i put with
 * arrival base + step * i on port i % ports, its order i.
 */
static void check_taken(const struct uet_xframe *got, struct rte_mbuf **m,
			uint32_t n, uint64_t base, int step, uint32_t ports)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		ck_assert_ptr_eq(got[i].m, m[i]);
		ck_assert_uint_eq(got[i].arrival_ps,
				  base + (uint64_t)((int64_t)step * i));
		ck_assert_uint_eq(got[i].port, i % ports);
		ck_assert_uint_eq(got[i].order, i);
	}
}

START_TEST(test_xring_frames_per_window)
{
	/* 100 Gbit/s for 1 us: 100,000 bits, 195.3 frames of 64 bytes. */
	ck_assert_uint_eq(uet_xring_frames_per_window(UINT64_C(100000000000),
						      UINT64_C(1000000)),
			  197);
	/* 400 Gbit/s for 500 ns: 390.6. */
	ck_assert_uint_eq(uet_xring_frames_per_window(UINT64_C(400000000000),
						      UINT64_C(500000)),
			  392);
	ck_assert_uint_eq(uet_xring_frames_per_window(0, UINT64_C(1000000)), 2);
	/* A window without end is capped, not overflowed. */
	ck_assert_uint_eq(
		uet_xring_frames_per_window(UINT64_C(100000000000), UINT64_MAX),
		1u << 20);
}
END_TEST

/* 32 frames asked: a ring of 64 slots, 63 frames; 100 put spill 37. */
START_TEST(test_xring_order_through_ring_and_spill)
{
	struct rte_mempool *mp;
	struct uet_xring x;
	struct uet_xframe got[128];
	struct rte_mbuf *m[100];
	uint32_t i, n;

	uet_test_eal("uetxr", "order");
	mp = uet_test_pool("xr_order", 256);
	ck_assert_int_eq(uet_xring_init(&x, "t", 32), 0);
	for (i = 0; i < 100; i++) {
		m[i] = rte_pktmbuf_alloc(mp);
		ck_assert_ptr_nonnull(m[i]);
		ck_assert_int_eq(uet_xring_put(&x, m[i], 1000u - i, i % 3), 0);
	}
	ck_assert_uint_eq(uet_xring_count(&x), 100);
	ck_assert_uint_eq(x.spilled, 37);
	/* Taken in two parts, across the ring's end. */
	n = uet_xring_take(&x, got, 50);
	ck_assert_uint_eq(n, 50);
	ck_assert_uint_eq(uet_xring_count(&x), 50);
	n += uet_xring_take(&x, got + n, 128 - n);
	ck_assert_uint_eq(n, 100);
	check_taken(got, m, 100, 1000u, -1, 3);
	ck_assert_uint_eq(uet_xring_count(&x), 0);
	/* Emptied: the next window's orders start at 0 again, in the ring. */
	ck_assert_int_eq(uet_xring_put(&x, m[0], 5, 0), 0);
	ck_assert_int_eq(uet_xring_put(&x, m[1], 6, 0), 0);
	ck_assert_uint_eq(uet_xring_take(&x, got, 128), 2);
	ck_assert_uint_eq(got[0].order, 0);
	ck_assert_uint_eq(got[1].order, 1);
	ck_assert_uint_eq(x.spilled, 37);
	for (i = 0; i < 100; i++)
		rte_pktmbuf_free(m[i]);
	uet_xring_fini(&x);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), 256);
}
END_TEST

/* The frames still waiting at the end, in the ring and spilled, are freed. */
START_TEST(test_xring_fini_frees_what_waits)
{
	struct rte_mempool *mp;
	struct uet_xring x;
	uint32_t i;

	uet_test_eal("uetxr", "fini");
	mp = uet_test_pool("xr_fini", 256);
	ck_assert_int_eq(uet_xring_init(&x, "t", 0), 0);
	for (i = 0; i < 80; i++)
		ck_assert_int_eq(uet_xring_put(&x, rte_pktmbuf_alloc(mp), i, 0),
				 0);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), 176);
	uet_xring_fini(&x);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), 256);
	/* A zeroed ring (none set up) takes frames into its spill-over. */
	ck_assert_int_eq(uet_xring_put(&x, rte_pktmbuf_alloc(mp), 1, 0), 0);
	ck_assert_uint_eq(uet_xring_count(&x), 1);
	uet_xring_fini(&x);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), 256);
}
END_TEST

/* An array ring (no rte_ring): no memory until the first put, then 8
 * entries doubling as needed; order kept, orders from 0 after each
 * emptying in the same array, nothing counted as spilled; what waits at
 * the end is freed. */
START_TEST(test_xring_array_grows_and_keeps_order)
{
	struct rte_mempool *mp;
	struct uet_xring x;
	struct uet_xframe got[32];
	struct rte_mbuf *m[20];
	const struct uet_xframe *first;
	uint32_t i, n;

	uet_test_eal("uetxr", "array");
	mp = uet_test_pool("xr_array", 64);
	ck_assert_int_eq(uet_xring_init_array(&x, 8), 0);
	ck_assert_ptr_null(x.r);
	ck_assert_ptr_null(x.spill);
	ck_assert_uint_eq(uet_xring_count(&x), 0);
	for (i = 0; i < 20; i++) {
		m[i] = rte_pktmbuf_alloc(mp);
		ck_assert_ptr_nonnull(m[i]);
		ck_assert_int_eq(uet_xring_put(&x, m[i], 100u + i, i % 4), 0);
		if (i == 0)
			ck_assert_uint_eq(x.cap_spill, 8);
	}
	ck_assert_uint_eq(x.cap_spill, 32);
	ck_assert_uint_eq(uet_xring_count(&x), 20);
	ck_assert_uint_eq(x.spilled, 0);
	n = uet_xring_take(&x, got, 5);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(uet_xring_count(&x), 15);
	n += uet_xring_take(&x, got + n, 32 - n);
	ck_assert_uint_eq(n, 20);
	check_taken(got, m, 20, 100u, 1, 4);
	/* Emptied: the next window starts at the array's first entry,
	 * orders from 0. */
	first = x.spill;
	ck_assert_int_eq(uet_xring_put(&x, m[0], 7, 0), 0);
	ck_assert_ptr_eq(x.spill, first);
	ck_assert_uint_eq(uet_xring_take(&x, got, 32), 1);
	ck_assert_uint_eq(got[0].order, 0);
	/* Left waiting at the end: freed by fini. */
	ck_assert_int_eq(uet_xring_put(&x, m[1], 8, 0), 0);
	ck_assert_int_eq(uet_xring_put(&x, m[2], 9, 0), 0);
	for (i = 3; i < 20; i++)
		rte_pktmbuf_free(m[i]);
	rte_pktmbuf_free(m[0]);
	uet_xring_fini(&x);
	ck_assert_ptr_null(x.spill);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), 64);
}
END_TEST

/*
 * The window sort puts frames in (arrival, port, order) order, the order
 * qsort gives with the same key, for sizes around its insertion runs and
 * merges, with many frames tied on arrival time and on port.
 */
START_TEST(test_xframe_sort_matches_qsort)
{
	static const uint32_t sizes[] = {0, 1, 2, 15, 16, 17, 33, 1000, 4099};
	struct uet_xframe *f = malloc(4099 * sizeof(*f));
	struct uet_xframe *want = malloc(4099 * sizeof(*want));
	struct uet_xframe *tmp = malloc(4099 * sizeof(*tmp));
	uint64_t x = 88172645463325252u;
	uint32_t s, i, bad = 0;

	ck_assert(f != NULL && want != NULL && tmp != NULL);
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		const uint32_t n = sizes[s];

		for (i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* 8 arrival times and 4 ports: ties everywhere;
			 * the order makes each key distinct. */
			f[i] = (struct uet_xframe){
				.m = (struct rte_mbuf *)(uintptr_t)(i + 1),
				.arrival_ps = x % 8u,
				.port = (uint32_t)(x >> 8) % 4u,
				.order = i,
			};
		}
		memcpy(want, f, n * sizeof(*f));
		qsort(want, n, sizeof(*want), uet_xframe_cmp);
		uet_xframe_sort(f, n, tmp);
		for (i = 0; i < n; i++)
			bad += f[i].m != want[i].m;
		for (i = 1; i < n; i++)
			bad += uet_xframe_cmp(&f[i - 1], &f[i]) >= 0;
	}
	ck_assert_uint_eq(bad, 0);
	free(f);
	free(want);
	free(tmp);
}
END_TEST

static Suite *xring_suite(void)
{
	Suite *s = suite_create("xring");
	TCase *tc = tcase_create("xring");

	tcase_add_test(tc, test_xring_frames_per_window);
	tcase_add_test(tc, test_xring_order_through_ring_and_spill);
	tcase_add_test(tc, test_xring_fini_frees_what_waits);
	tcase_add_test(tc, test_xring_array_grows_and_keeps_order);
	tcase_add_test(tc, test_xframe_sort_matches_qsort);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(xring_suite)
