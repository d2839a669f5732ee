/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The parts' runs over lcores (lib/sync/sync_share.c): contiguous, every
 * item once, each run ending at the boundary nearest its share. The fat
 * tree cases are the k = 16 tree's 16 pods and 8 groups of core switches
 * with the weights lib/fabric gives them.
 */
#include <check.h>

#include "check_main.h"
#include "sync_test_private.h"

#define MAX_RUNS 8u

struct cut {
	uint32_t first[MAX_RUNS];
	uint32_t count[MAX_RUNS];
};

/* Cut, and check what holds for any cut: runs in order, covering 0..n-1
 * once. */
static struct cut cut(const uint32_t *w, uint32_t n, uint32_t runs)
{
	struct cut c = {{0}, {0}};
	uint32_t r, next = 0;

	sync_share_runs(w, n, runs, c.first, c.count);
	for (r = 0; r < runs; r++) {
		if (c.count[r] > 0)
			ck_assert_uint_eq(c.first[r], next);
		next += c.count[r];
	}
	ck_assert_uint_eq(next, n);
	return c;
}

/* k = 16: a pod has 64 host ports and 192 between switches, a group of
 * core switches 128 between switches. */
static void fat_tree_16(uint32_t *w, uint32_t host_port_weight)
{
	uint32_t i;

	for (i = 0; i < 16; i++)
		w[i] = 64 * host_port_weight + 192;
	for (i = 16; i < 24; i++)
		w[i] = 128;
}

START_TEST(test_share_fat_tree_two_lcores)
{
	uint32_t w[24];
	struct cut c;

	/* Host ports 3 (lib/fabric): pods 384, total 7,168, a share 3,584
	 * = 9.33 pods: nine pods, not the ten that first reach it. */
	fat_tree_16(w, 3);
	c = cut(w, 24, 2);
	ck_assert_uint_eq(c.count[0], 9);
	ck_assert_uint_eq(c.first[1], 9);
	ck_assert_uint_eq(c.count[1], 15);
	/* Every port 1: a share is exactly ten pods. */
	fat_tree_16(w, 1);
	c = cut(w, 24, 2);
	ck_assert_uint_eq(c.count[0], 10);
	ck_assert_uint_eq(c.count[1], 14);
}
END_TEST

START_TEST(test_share_nearest_boundary)
{
	/* total 12, shares end at 4 and 8: after item 0 (sum 5, 1 past)
	 * rather than before it (no item); then the sums 5, 6, 11: 8 is
	 * nearer 6 (2) than 11 (3), so run 1 ends before item 2. */
	const uint32_t w[] = {5, 1, 5, 1};
	struct cut c = cut(w, 4, 3);

	ck_assert_uint_eq(c.count[0], 1);
	ck_assert_uint_eq(c.count[1], 1);
	ck_assert_uint_eq(c.count[2], 2);
	ck_assert_uint_eq(c.first[2], 2);
}
END_TEST

START_TEST(test_share_even_and_unweighted)
{
	struct cut c = cut(NULL, 10, 4);

	/* Shares end at 2.5, 5 and 7.5 items: a tie goes to the later
	 * boundary. */
	ck_assert_uint_eq(c.count[0], 3);
	ck_assert_uint_eq(c.count[1], 2);
	ck_assert_uint_eq(c.count[2], 3);
	ck_assert_uint_eq(c.count[3], 2);
	c = cut(NULL, 5, 1);
	ck_assert_uint_eq(c.first[0], 0);
	ck_assert_uint_eq(c.count[0], 5);
}
END_TEST

START_TEST(test_share_heavy_item_and_few_items)
{
	const uint32_t w[] = {100, 1, 1};
	struct cut c = cut(w, 3, 3);

	/* The heavy item is more than two shares: run 0 holds it, run 1
	 * none, run 2 the rest. */
	ck_assert_uint_eq(c.count[0], 1);
	ck_assert_uint_eq(c.count[1], 0);
	ck_assert_uint_eq(c.count[2], 2);
	/* More runs than items: the last ones are empty. */
	c = cut(NULL, 2, 4);
	ck_assert_uint_eq(c.count[0] + c.count[1] + c.count[2] + c.count[3], 2);
	ck_assert_uint_eq(c.count[3], 0);
}
END_TEST

static Suite *share_suite(void)
{
	Suite *s = suite_create("sync_share");
	TCase *tc = tcase_create("share");

	tcase_add_test(tc, test_share_fat_tree_two_lcores);
	tcase_add_test(tc, test_share_nearest_boundary);
	tcase_add_test(tc, test_share_even_and_unweighted);
	tcase_add_test(tc, test_share_heavy_item_and_few_items);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(share_suite)
