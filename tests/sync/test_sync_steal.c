/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The run of parts an lcore owns and others may take from
 * (lib/sync/sync_steal.c): the owner takes from the front, a thief from
 * the back, and with both at once every item is taken exactly once.
 */
#include <check.h>
#include <pthread.h>
#include <string.h>

#include "check_main.h"
#include "sync_test_private.h"

START_TEST(test_steal_front_and_back)
{
	struct sync_steal s;
	uint32_t i;

	sync_steal_reset(&s, 5, 4); /* items 5, 6, 7, 8 */
	ck_assert(sync_steal_front(&s, &i));
	ck_assert_uint_eq(i, 5);
	ck_assert(sync_steal_back(&s, &i));
	ck_assert_uint_eq(i, 8);
	ck_assert(sync_steal_back(&s, &i));
	ck_assert_uint_eq(i, 7);
	ck_assert(sync_steal_front(&s, &i));
	ck_assert_uint_eq(i, 6);
	ck_assert(!sync_steal_front(&s, &i));
	ck_assert(!sync_steal_back(&s, &i));
	/* An empty run stays empty; a reset fills it again. */
	sync_steal_reset(&s, 0, 0);
	ck_assert(!sync_steal_front(&s, &i));
	sync_steal_reset(&s, 0, 1);
	ck_assert(sync_steal_back(&s, &i));
	ck_assert_uint_eq(i, 0);
	ck_assert(!sync_steal_front(&s, &i));
}
END_TEST

#define RACE_ITEMS 4096u
#define RACE_ROUNDS 200u

struct racer {
	struct sync_steal *s;
	bool front;
	pthread_barrier_t *start;
	uint8_t *taken; /* per item: how many times taken */
	uint32_t got;
};

static void *racer_main(void *arg)
{
	struct racer *r = arg;
	uint32_t i;

	pthread_barrier_wait(r->start);
	while (r->front ? sync_steal_front(r->s, &i)
			: sync_steal_back(r->s, &i)) {
		__atomic_fetch_add(&r->taken[i], 1, __ATOMIC_RELAXED);
		r->got++;
	}
	return NULL;
}

/* An owner and two thieves on one run, many times: each item once, and
 * the counts add up. */
START_TEST(test_steal_race_takes_each_item_once)
{
	static uint8_t taken[RACE_ITEMS];
	struct sync_steal s;
	pthread_barrier_t start;
	struct racer r[3];
	pthread_t t[3];
	uint32_t round, k, i;

	for (round = 0; round < RACE_ROUNDS; round++) {
		memset(taken, 0, sizeof(taken));
		sync_steal_reset(&s, 0, RACE_ITEMS);
		ck_assert_int_eq(pthread_barrier_init(&start, NULL, 3), 0);
		for (k = 0; k < 3; k++) {
			r[k] = (struct racer){.s = &s,
					      .front = k == 0,
					      .start = &start,
					      .taken = taken};
			ck_assert_int_eq(
				pthread_create(&t[k], NULL, racer_main, &r[k]),
				0);
		}
		for (k = 0; k < 3; k++)
			pthread_join(t[k], NULL);
		pthread_barrier_destroy(&start);
		ck_assert_uint_eq(r[0].got + r[1].got + r[2].got, RACE_ITEMS);
		for (i = 0; i < RACE_ITEMS; i++)
			ck_assert_msg(taken[i] == 1,
				      "round %u: item %u taken %u times", round,
				      i, taken[i]);
	}
}
END_TEST

static Suite *steal_suite(void)
{
	Suite *s = suite_create("sync_steal");
	TCase *tc = tcase_create("steal");

	tcase_add_test(tc, test_steal_front_and_back);
	tcase_add_test(tc, test_steal_race_takes_each_item_once);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(steal_suite)
