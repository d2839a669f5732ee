/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The train: items run in push order at their times, among other events
 * exactly where events of their own would run; it grows across the ring's
 * wrap; it refuses an item out of order and leaves nothing changed; items
 * let go early still come due at their times, as ghosts.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "check_main.h"
#include "uet_rng.h"
#include "uet_train.h"

/* What ran, in order: item ids (>= 0) and plain events' ids (< 0). */
struct log {
	int64_t ids[4096];
	uet_time_t at[4096];
	uint32_t n;
};

struct item {
	int64_t id;
	uint32_t pad; /* an item whose size is not a multiple of 8 */
};

struct plain {
	struct uet_event ev;
	int64_t id;
	struct log *log;
};

static void log_add(struct log *l, int64_t id, uet_time_t at)
{
	ck_assert_uint_lt(l->n, 4096);
	l->ids[l->n] = id;
	l->at[l->n] = at;
	l->n++;
}

static void item_due(struct uet_evq *q, void *item, void *arg)
{
	const struct item *it = item;

	ck_assert_uint_eq(it->pad, (uint32_t)it->id * 7u);
	log_add(arg, it->id, uet_evq_now(q));
}

/* Items that will do nothing when they come due: 9 in 10. A ghost and a
 * dead item log the same id. */
#define GHOST_ID INT64_C(-1000000000)

static bool item_dead(const void *item, void *arg)
{
	const struct item *it = item;

	(void)arg;
	return it->id % 10 != 9;
}

static void item_or_ghost_due(struct uet_evq *q, void *item, void *arg)
{
	const struct item *it = item;

	log_add(arg, it == NULL || item_dead(it, NULL) ? GHOST_ID : it->id,
		uet_evq_now(q));
}

static void plain_due(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct plain *p = arg;

	(void)ev;
	log_add(p->log, p->id, uet_evq_now(q));
}

/*
 * The same pseudo-random mix of pushes and plain events (many at equal
 * times), once with the items in a train and once with an event each:
 * the two runs must log the same sequence.
 */
static void run_mix(bool use_train, bool drop, struct log *out)
{
	enum { N = 1500 };
	static struct plain items_as_events[N];
	static struct plain plains[N];
	struct uet_evq q;
	struct uet_train t;
	struct uet_rng rng;
	uet_time_t last = 0;
	uint32_t i, dropped = 0;

	uet_evq_init(&q);
	ck_assert_int_eq(uet_train_init(&t, &q, sizeof(struct item),
					drop ? item_or_ghost_due : item_due,
					out),
			 0);
	uet_rng_seed(&rng, 7, 3);
	for (i = 0; i < N; i++) {
		const struct item it = {.id = i, .pad = i * 7u};

		/* Items' times never go back; plain events land anywhere,
		 * often on an item's time. */
		last += uet_rng_bounded(&rng, 3) * 10;
		if (use_train) {
			ck_assert_int_eq(uet_train_push(&t, last, &it), 0);
		} else {
			items_as_events[i] = (struct plain){
				.id = drop && i % 10 != 9 ? GHOST_ID : i,
				.log = out};
			uet_event_init(&items_as_events[i].ev, plain_due,
				       &items_as_events[i]);
			ck_assert_int_eq(
				uet_evq_schedule(&q, &items_as_events[i].ev,
						 last),
				0);
		}
		plains[i] = (struct plain){.id = -(int64_t)i - 1, .log = out};
		uet_event_init(&plains[i].ev, plain_due, &plains[i]);
		ck_assert_int_eq(
			uet_evq_schedule(&q, &plains[i].ev,
					 uet_rng_bounded(&rng, 3) * 10 +
						 (last / 20) * 10),
			0);
		/* Run part of the way now and then, so that pushes also
		 * happen while the train is running. */
		if (i % 97 == 96)
			ck_assert_int_ge(
				uet_evq_run_until(&q, (last / 20) * 10), 0);
		if (use_train && drop && i % 5 == 4)
			dropped += uet_train_drop_front(&t, item_dead, NULL);
	}
	if (use_train && drop)
		ck_assert_uint_gt(dropped, 50);
	if (use_train)
		ck_assert_uint_gt(uet_train_len(&t), 0);
	ck_assert_int_ge(uet_evq_run_until(&q, UET_TIME_NEVER), 0);
	ck_assert_uint_eq(uet_train_len(&t), 0);
	ck_assert_uint_eq(uet_train_ghosts(&t), 0);
	ck_assert_uint_eq(out->n, 2 * N);
	uet_train_fini(&t);
	uet_evq_fini(&q);
}

START_TEST(test_train_orders_like_an_event_per_item)
{
	static struct log a, b;
	uint32_t i;

	a.n = b.n = 0;
	run_mix(true, false, &a);
	run_mix(false, false, &b);
	ck_assert_uint_eq(a.n, b.n);
	for (i = 0; i < a.n; i++) {
		ck_assert_msg(a.ids[i] == b.ids[i] && a.at[i] == b.at[i],
			      "position %u: %lld at %llu, not %lld at %llu", i,
			      (long long)a.ids[i], (unsigned long long)a.at[i],
			      (long long)b.ids[i], (unsigned long long)b.at[i]);
		if (i > 0)
			ck_assert_uint_ge(a.at[i], a.at[i - 1]);
	}
}
END_TEST

static int by_time_then_id(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/*
 * The same mix, with dead items let go now and then: every live item and
 * plain event runs in the same order as with an event per item, and the
 * ghosts run at the times their items would have (a ghost does nothing,
 * so among the events of its time it may run first).
 */
START_TEST(test_train_ghosts_come_due_at_their_items_times)
{
	static struct log a, b;
	static int64_t sa[4096][2], sb[4096][2];
	uint32_t i, na = 0, nb = 0;

	a.n = b.n = 0;
	run_mix(true, true, &a);
	run_mix(false, true, &b);
	ck_assert_uint_eq(a.n, b.n);
	for (i = 0; i < a.n; i++) {
		sa[i][0] = (int64_t)a.at[i];
		sa[i][1] = a.ids[i];
		sb[i][0] = (int64_t)b.at[i];
		sb[i][1] = b.ids[i];
	}
	qsort(sa, a.n, sizeof(sa[0]), by_time_then_id);
	qsort(sb, b.n, sizeof(sb[0]), by_time_then_id);
	for (i = 0; i < a.n; i++) {
		ck_assert_int_eq(sa[i][0], sb[i][0]);
		ck_assert_int_eq(sa[i][1], sb[i][1]);
	}
	/* Without the ghosts, the same sequence. */
	for (i = 0; i < a.n; i++)
		if (a.ids[i] != GHOST_ID)
			a.ids[na++] = a.ids[i];
	for (i = 0; i < b.n; i++)
		if (b.ids[i] != GHOST_ID)
			b.ids[nb++] = b.ids[i];
	ck_assert_uint_eq(na, nb);
	ck_assert_uint_lt(na, a.n);
	for (i = 0; i < na; i++)
		ck_assert_int_eq(a.ids[i], b.ids[i]);
}
END_TEST

/* Ghosts far apart (more than 2^32 ps, 4.29 ms) keep their times; the
 * first live item stops the drop; a ghost's time bounds what the train
 * accepts next. */
START_TEST(test_train_ghosts_far_apart_and_a_live_item)
{
	static const uet_time_t at[] = {0, 1, 5000000000u, 5000000003u,
					20000000000u};
	static struct log l;
	struct uet_evq q;
	struct uet_train t;
	uint32_t i;

	l.n = 0;
	uet_evq_init(&q);
	ck_assert_int_eq(uet_train_init(&t, &q, sizeof(struct item),
					item_or_ghost_due, &l),
			 0);
	for (i = 0; i < 5; i++) {
		const struct item it = {.id = i, .pad = 7 * i}; /* dead */

		ck_assert_int_eq(uet_train_push(&t, at[i], &it), 0);
	}
	{
		const struct item live = {.id = 19, .pad = 19 * 7},
				  dead = {.id = 18, .pad = 18 * 7};

		ck_assert_int_eq(uet_train_push(&t, 20000000000u, &live), 0);
		ck_assert_int_eq(uet_train_push(&t, 20000000005u, &dead), 0);
	}
	ck_assert_uint_eq(uet_train_drop_front(&t, item_dead, NULL), 5);
	ck_assert_uint_eq(uet_train_ghosts(&t), 5);
	ck_assert_uint_eq(uet_train_len(&t), 2);
	/* 0 and 1 a word each, 5 ms a delta too large (three words), 3 ps
	 * one, 15 ms three. */
	ck_assert_uint_eq(t.ghost_words, 9);
	ck_assert(!uet_train_accepts(&t, 19999999999u));
	ck_assert_uint_eq(uet_evq_len(&q), 1);
	ck_assert_int_eq(uet_evq_run_until(&q, UET_TIME_NEVER), 7);
	ck_assert_uint_eq(l.n, 7);
	for (i = 0; i < 5; i++) {
		ck_assert_int_eq(l.ids[i], GHOST_ID);
		ck_assert_uint_eq(l.at[i], at[i]);
	}
	ck_assert_int_eq(l.ids[5], 19);
	ck_assert_uint_eq(l.at[5], 20000000000u);
	ck_assert_int_eq(l.ids[6], GHOST_ID); /* dead, though not let go */
	ck_assert_uint_eq(l.at[6], 20000000005u);
	uet_train_fini(&t);
	uet_evq_fini(&q);
}
END_TEST

START_TEST(test_train_refuses_out_of_order_and_past)
{
	static struct log l;
	struct uet_evq q;
	struct uet_train t;
	const struct item a = {.id = 1, .pad = 7}, b = {.id = 2, .pad = 14};

	l.n = 0;
	uet_evq_init(&q);
	ck_assert_int_eq(uet_train_init(&t, &q, 0, item_due, &l), -EINVAL);
	ck_assert_int_eq(
		uet_train_init(&t, &q, UET_TRAIN_ITEM_MAX + 1, item_due, &l),
		-EINVAL);
	ck_assert_int_eq(uet_train_init(&t, &q, sizeof(a), item_due, &l), 0);
	ck_assert_int_eq(uet_train_push(&t, 100, &a), 0);
	ck_assert(!uet_train_accepts(&t, 99));
	ck_assert_int_eq(uet_train_push(&t, 99, &b), -ERANGE);
	ck_assert_int_eq(uet_train_push(&t, UET_TIME_NEVER, &b), -EINVAL);
	ck_assert_uint_eq(uet_train_len(&t), 1);
	ck_assert_uint_eq(uet_evq_len(&q), 1); /* one event for the train */
	ck_assert_int_eq(uet_train_push(&t, 100, &b), 0);
	ck_assert_uint_eq(uet_evq_len(&q), 1);
	ck_assert_int_eq(uet_evq_run_until(&q, 150), 2);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_int_eq(l.ids[0], 1);
	ck_assert_int_eq(l.ids[1], 2);
	/* Empty again: anything not in the past is accepted. */
	ck_assert(uet_train_accepts(&t, 0));
	ck_assert_int_eq(uet_train_push(&t, 149, &a), -EINVAL);
	ck_assert_int_eq(uet_train_push(&t, 150, &a), 0);
	/* Items left at the end never run; fini drops them. */
	uet_train_fini(&t);
	ck_assert_uint_eq(uet_evq_len(&q), 0);
	uet_evq_fini(&q);
}
END_TEST

/* Growth while the ring has wrapped keeps the order. */
START_TEST(test_train_grows_across_the_wrap)
{
	static struct log l;
	struct uet_evq q;
	struct uet_train t;
	uint32_t i, pushed = 0, k;

	l.n = 0;
	uet_evq_init(&q);
	uet_train_init(&t, &q, sizeof(struct item), item_due, &l);
	/* 40 in, 30 out: the head moves; then 300 in: two doublings with
	 * the live items across the end of the ring. */
	for (i = 0; i < 40; i++, pushed++) {
		const struct item it = {.id = pushed, .pad = pushed * 7u};

		ck_assert_int_eq(
			uet_train_push(&t, 10 * (uet_time_t)pushed, &it), 0);
	}
	ck_assert_int_eq(uet_evq_run_until(&q, 300), 30);
	for (k = 0; k < 2; k++)
		for (i = 0; i < 150; i++, pushed++) {
			const struct item it = {.id = pushed,
						.pad = pushed * 7u};

			ck_assert_int_eq(uet_train_push(&t,
							10 * (uet_time_t)pushed,
							&it),
					 0);
		}
	ck_assert_uint_eq(uet_train_len(&t), pushed - 30);
	ck_assert_uint_ge(t.cap, pushed - 30);
	ck_assert_int_eq(uet_evq_run_until(&q, UET_TIME_NEVER), pushed - 30);
	ck_assert_uint_eq(l.n, pushed);
	for (i = 0; i < pushed; i++) {
		ck_assert_int_eq(l.ids[i], i);
		ck_assert_uint_eq(l.at[i], 10 * (uet_time_t)i);
	}
	uet_train_fini(&t);
	uet_evq_fini(&q);
}
END_TEST

static Suite *train_suite(void)
{
	Suite *s = suite_create("train");
	TCase *tc = tcase_create("order");

	tcase_add_test(tc, test_train_orders_like_an_event_per_item);
	tcase_add_test(tc, test_train_refuses_out_of_order_and_past);
	tcase_add_test(tc, test_train_grows_across_the_wrap);
	tcase_add_test(tc, test_train_ghosts_come_due_at_their_items_times);
	tcase_add_test(tc, test_train_ghosts_far_apart_and_a_live_item);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(train_suite)
