/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The wait between a window's phases (lib/sync/sync_park.c): a waiter
 * asleep in the kernel is woken by the writer, a wait for a value already
 * there returns at once, a waiter's spin budget follows its waits, and two
 * threads handing a counter back and forth
 * a hundred thousand times never lose a wake-up (each hand-over would
 * otherwise hang until Check's timeout).
 */
#include <check.h>
#include <pthread.h>
#include <time.h>

#include "check_main.h"
#include "sync_test_private.h"

struct sleeper {
	struct sync_park *p;
	uint32_t seen;
	uint32_t spins;
};

static void *wait_change(void *arg)
{
	struct sleeper *s = arg;

	s->seen = sync_park_wait(s->p, 0, false, &s->spins);
	return NULL;
}

/* 50 ms is far past the spin: the waiter is in the kernel when the writer
 * adds, and only the wake-up can end its wait. */
START_TEST(test_park_wakes_a_sleeper)
{
	struct sync_park p = {0};
	struct sleeper s = {.p = &p};
	const struct timespec later = {.tv_nsec = 50 * 1000 * 1000};
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, wait_change, &s), 0);
	nanosleep(&later, NULL);
	ck_assert_uint_eq(__atomic_load_n(&p.sleepers, __ATOMIC_SEQ_CST), 1);
	sync_park_add(&p, 3);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_uint_eq(s.seen, 3);
	ck_assert_uint_eq(p.sleepers, 0);
	/* It slept through its first spin (the most): the least next. */
	ck_assert_uint_eq(s.spins, SYNC_PARK_SPINS_MIN);
}
END_TEST

START_TEST(test_park_value_already_there)
{
	struct sync_park p = {0};

	uint32_t spins = SYNC_PARK_SPINS_MIN;

	sync_park_set(&p, 7);
	ck_assert_uint_eq(sync_park_wait(&p, 7, true, &spins), 7);
	/* The spin ended the wait: a step longer next time, up to the
	 * most. */
	ck_assert_uint_eq(spins, 2 * SYNC_PARK_SPINS_MIN);
	ck_assert_uint_eq(sync_park_wait(&p, 6, false, &spins), 7);
	ck_assert_uint_eq(spins, 3 * SYNC_PARK_SPINS_MIN);
	spins = SYNC_PARK_SPINS_MAX;
	ck_assert_uint_eq(sync_park_wait(&p, 7, true, &spins), 7);
	ck_assert_uint_eq(spins, SYNC_PARK_SPINS_MAX);
	ck_assert_uint_eq(p.sleepers, 0);
}
END_TEST

#define ROUNDS 100000u

/* Odd values are the other thread's turn, even ones main's. */
static void *ping(void *arg)
{
	struct sync_park *p = arg;
	uint32_t i, spins = 0;

	for (i = 0; i < ROUNDS; i++) {
		sync_park_wait(p, 2 * i + 1, true, &spins);
		sync_park_add(p, 1);
	}
	return NULL;
}

START_TEST(test_park_ping_pong)
{
	struct sync_park p = {0};
	pthread_t t;
	uint32_t i, spins = 0;

	ck_assert_int_eq(pthread_create(&t, NULL, ping, &p), 0);
	for (i = 0; i < ROUNDS; i++) {
		sync_park_add(&p, 1);
		sync_park_wait(&p, 2 * i + 2, true, &spins);
	}
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_uint_eq(p.value, 2 * ROUNDS);
}
END_TEST

static Suite *park_suite(void)
{
	Suite *s = suite_create("sync_park");
	TCase *tc = tcase_create("park");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_park_wakes_a_sleeper);
	tcase_add_test(tc, test_park_value_already_there);
	tcase_add_test(tc, test_park_ping_pong);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(park_suite)
