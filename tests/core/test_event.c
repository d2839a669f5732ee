/* SPDX-License-Identifier: BSD-3-Clause */
/* The event queue: order, ties, cancellation, windows, a million timers. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "check_main.h"
#include "uet_event.h"
#include "uet_rng.h"

/* What the handlers saw, in order. */
struct trace {
	int ids[64];
	uet_time_t times[64];
	int n;
};

/* A test event: the event plus its id and the trace it writes to. */
struct tev {
	struct uet_event ev;
	int id;
	struct trace *tr;
};

static void record(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct tev *t = arg;

	ck_assert_ptr_eq(ev, &t->ev);
	ck_assert(!uet_event_pending(ev));
	ck_assert_uint_eq(uet_evq_now(q), ev->time_ps);
	ck_assert_int_lt(t->tr->n, 64);
	t->tr->ids[t->tr->n] = t->id;
	t->tr->times[t->tr->n] = uet_evq_now(q);
	t->tr->n++;
}

static void tev_init(struct tev *t, int id, struct trace *tr)
{
	t->id = id;
	t->tr = tr;
	uet_event_init(&t->ev, record, t);
}

static void assert_trace(const struct trace *tr, const int *ids, int n)
{
	int i;

	ck_assert_int_eq(tr->n, n);
	for (i = 0; i < n; i++)
		ck_assert_msg(tr->ids[i] == ids[i], "position %d: %d, not %d",
			      i, tr->ids[i], ids[i]);
}

START_TEST(test_events_run_in_time_order)
{
	static const uet_time_t at[] = {500, 100, 300, 200, 400};
	static const int want[] = {1, 3, 2, 4, 0};
	struct uet_evq q;
	struct trace tr = {0};
	struct tev t[5];
	int i;

	ck_assert_int_eq(uet_evq_init(&q), 0);
	ck_assert_uint_eq(uet_evq_next_time(&q), UET_TIME_NEVER);
	for (i = 0; i < 5; i++) {
		tev_init(&t[i], i, &tr);
		ck_assert(!uet_event_pending(&t[i].ev));
		ck_assert_int_eq(uet_evq_schedule(&q, &t[i].ev, at[i]), 0);
		ck_assert(uet_event_pending(&t[i].ev));
	}
	ck_assert_uint_eq(uet_evq_len(&q), 5);
	ck_assert_uint_eq(uet_evq_next_time(&q), 100);
	ck_assert_int_eq(uet_evq_run_until(&q, UET_TIME_NEVER), 5);
	assert_trace(&tr, want, 5);
	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(tr.times[i], (uet_time_t)(i + 1) * 100);
	ck_assert_uint_eq(uet_evq_now(&q), 500);
	ck_assert_uint_eq(uet_evq_len(&q), 0);
	ck_assert_uint_eq(q.n_run, 5);
	ck_assert_uint_eq(q.n_scheduled, 5);
	uet_evq_fini(&q);
}
END_TEST

START_TEST(test_ties_break_by_insertion_order)
{
	static const int want[] = {0, 1, 2, 3, 4, 5, 6, 7};
	struct uet_evq q;
	struct trace tr = {0};
	struct tev t[8];
	int i;

	uet_evq_init(&q);
	for (i = 0; i < 8; i++) {
		tev_init(&t[i], i, &tr);
		ck_assert_int_eq(uet_evq_schedule(&q, &t[i].ev, 1000), 0);
	}
	ck_assert_int_eq(uet_evq_run_until(&q, 1001), 8);
	assert_trace(&tr, want, 8);
	uet_evq_fini(&q);
}
END_TEST

/*
 * A number taken early (a timer armed into its owner's own list) orders
 * the event among ties as if it had been scheduled when the number was
 * taken: before events scheduled at the same time afterwards.
 */
START_TEST(test_taken_seq_orders_like_early_schedule)
{
	static const int want[] = {0, 1, 2, 3};
	struct uet_evq q;
	struct trace tr = {0};
	struct tev t[4];
	uint64_t s1, s3;
	int i;

	uet_evq_init(&q);
	for (i = 0; i < 4; i++)
		tev_init(&t[i], i, &tr);
	ck_assert_int_eq(uet_evq_schedule(&q, &t[0].ev, 500), 0);
	s1 = uet_evq_take_seq(&q);
	ck_assert_int_eq(uet_evq_schedule(&q, &t[2].ev, 500), 0);
	s3 = uet_evq_take_seq(&q);
	ck_assert_uint_eq(q.n_scheduled, 4);
	/* A number not taken yet is refused, as is a pending event. */
	ck_assert_int_eq(uet_evq_schedule_seq(&q, &t[1].ev, 500, s3 + 1),
			 -EINVAL);
	ck_assert_int_eq(uet_evq_schedule_seq(&q, &t[2].ev, 500, s1), -EBUSY);
	/* Scheduled late, in the reverse order, they still keep their
	 * places: 1 before 2 (scheduled after 1's number was taken), 3
	 * last. */
	ck_assert_int_eq(uet_evq_schedule_seq(&q, &t[3].ev, 500, s3), 0);
	ck_assert_int_eq(uet_evq_schedule_seq(&q, &t[1].ev, 500, s1), 0);
	ck_assert_uint_eq(q.n_scheduled, 4);
	ck_assert_uint_eq(uet_evq_len(&q), 4);
	ck_assert_int_eq(uet_evq_run_until(&q, UET_TIME_NEVER), 4);
	assert_trace(&tr, want, 4);
	/* Not in the past either. */
	ck_assert_int_eq(
		uet_evq_schedule_seq(&q, &t[0].ev, 499, uet_evq_take_seq(&q)),
		-EINVAL);
	uet_evq_fini(&q);
}
END_TEST

START_TEST(test_cancel_head_middle_tail)
{
	static const int want[] = {1, 3};
	struct uet_evq q;
	struct trace tr = {0};
	struct tev t[5];
	int i;

	uet_evq_init(&q);
	for (i = 0; i < 5; i++) {
		tev_init(&t[i], i, &tr);
		uet_evq_schedule(&q, &t[i].ev, 10 * (uet_time_t)(i + 1));
	}
	ck_assert_int_eq(uet_evq_cancel(&q, &t[0].ev), 0); /* head */
	ck_assert_uint_eq(uet_evq_next_time(&q), 20);
	ck_assert_int_eq(uet_evq_cancel(&q, &t[2].ev), 0); /* middle */
	ck_assert_int_eq(uet_evq_cancel(&q, &t[4].ev), 0); /* tail */
	ck_assert(!uet_event_pending(&t[0].ev));
	ck_assert(!uet_event_pending(&t[2].ev));
	ck_assert(!uet_event_pending(&t[4].ev));
	/* A second cancel says the event was not pending. */
	ck_assert_int_eq(uet_evq_cancel(&q, &t[2].ev), -ENOENT);
	ck_assert_uint_eq(uet_evq_len(&q), 2);
	ck_assert_int_eq(uet_evq_run_until(&q, UET_TIME_NEVER), 2);
	assert_trace(&tr, want, 2);
	ck_assert_uint_eq(q.n_cancelled, 3);
	/* Run events cannot be cancelled. */
	ck_assert_int_eq(uet_evq_cancel(&q, &t[1].ev), -ENOENT);
	uet_evq_fini(&q);
}
END_TEST

START_TEST(test_reschedule_moves_event)
{
	static const int want[] = {1, 0, 2, 3};
	struct uet_evq q;
	struct trace tr = {0};
	struct tev t[4];
	int i;

	uet_evq_init(&q);
	for (i = 0; i < 4; i++) {
		tev_init(&t[i], i, &tr);
		uet_evq_schedule(&q, &t[i].ev, 100 * (uet_time_t)(i + 1));
	}
	/* Later: 100 -> 250, between 1 (200) and 2 (300). */
	ck_assert_int_eq(uet_evq_schedule(&q, &t[0].ev, 250), 0);
	/* Earlier, tying with 2 at 300: scheduled later, it runs after 2. */
	ck_assert_int_eq(uet_evq_schedule(&q, &t[3].ev, 300), 0);
	ck_assert_uint_eq(uet_evq_len(&q), 4);
	ck_assert_uint_eq(uet_evq_next_time(&q), 200);
	ck_assert_int_eq(uet_evq_run_until(&q, UET_TIME_NEVER), 4);
	assert_trace(&tr, want, 4);
	ck_assert_uint_eq(tr.times[1], 250);
	ck_assert_uint_eq(tr.times[3], 300);
	uet_evq_fini(&q);
}
END_TEST

START_TEST(test_reschedule_same_time_goes_behind_ties)
{
	static const int want[] = {1, 2, 0};
	struct uet_evq q;
	struct trace tr = {0};
	struct tev t[3];
	int i;

	uet_evq_init(&q);
	for (i = 0; i < 3; i++) {
		tev_init(&t[i], i, &tr);
		uet_evq_schedule(&q, &t[i].ev, 50);
	}
	ck_assert_int_eq(uet_evq_schedule(&q, &t[0].ev, 50), 0);
	uet_evq_run_until(&q, UET_TIME_NEVER);
	assert_trace(&tr, want, 3);
	uet_evq_fini(&q);
}
END_TEST

/* A handler that schedules a follow-up at the current time. */
struct chain {
	struct uet_event ev;
	struct tev *next;
	struct trace *tr;
};

static void chain_fire(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct chain *c = arg;

	(void)ev;
	c->tr->ids[c->tr->n] = 100;
	c->tr->times[c->tr->n++] = uet_evq_now(q);
	ck_assert_int_eq(uet_evq_schedule(q, &c->next->ev, uet_evq_now(q)), 0);
	/* The past is refused. */
	ck_assert_int_eq(uet_evq_schedule(q, &c->next->ev, uet_evq_now(q) - 1),
			 -EINVAL);
}

START_TEST(test_handler_schedules_at_now)
{
	static const int want[] = {100, 1, 2, 3};
	struct uet_evq q;
	struct trace tr = {0};
	struct tev t[3];
	struct chain c;

	uet_evq_init(&q);
	tev_init(&t[0], 1, &tr); /* same time, scheduled before the chain */
	tev_init(&t[1], 2, &tr); /* the follow-up */
	tev_init(&t[2], 3, &tr); /* a little later */
	c.next = &t[1];
	c.tr = &tr;
	uet_event_init(&c.ev, chain_fire, &c);
	uet_evq_schedule(&q, &c.ev, 70);
	uet_evq_schedule(&q, &t[0].ev, 70);
	uet_evq_schedule(&q, &t[2].ev, 71);
	/* The follow-up at 70 runs inside the window [0, 71). */
	ck_assert_int_eq(uet_evq_run_until(&q, 71), 3);
	ck_assert_int_eq(uet_evq_run_until(&q, 72), 1);
	assert_trace(&tr, want, 4);
	ck_assert_uint_eq(tr.times[2], 70);
	uet_evq_fini(&q);
}
END_TEST

/* A periodic timer: the handler schedules its own event again. */
static void periodic(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	int *count = arg;

	(*count)++;
	ck_assert_int_eq(uet_evq_schedule(q, ev, uet_evq_now(q) + 10), 0);
}

START_TEST(test_handler_reschedules_itself)
{
	struct uet_evq q;
	struct uet_event ev;
	int count = 0;

	uet_evq_init(&q);
	uet_event_init(&ev, periodic, &count);
	uet_evq_schedule(&q, &ev, 0);
	/* Runs at 0, 10, ..., 90; the one at 100 waits. */
	ck_assert_int_eq(uet_evq_run_until(&q, 100), 10);
	ck_assert_int_eq(count, 10);
	ck_assert(uet_event_pending(&ev));
	ck_assert_uint_eq(uet_evq_next_time(&q), 100);
	uet_evq_fini(&q);
	ck_assert(!uet_event_pending(&ev));
}
END_TEST

START_TEST(test_run_until_excludes_t_end)
{
	static const int want[] = {0};
	struct uet_evq q;
	struct trace tr = {0};
	struct tev t[2];

	uet_evq_init(&q);
	tev_init(&t[0], 0, &tr);
	tev_init(&t[1], 1, &tr);
	uet_evq_schedule(&q, &t[0].ev, 999);
	uet_evq_schedule(&q, &t[1].ev, 1000);
	ck_assert_int_eq(uet_evq_run_until(&q, 1000), 1);
	assert_trace(&tr, want, 1);
	ck_assert(uet_event_pending(&t[1].ev));
	/* The window is over: now is its end, and before it is the past. */
	ck_assert_uint_eq(uet_evq_now(&q), 1000);
	ck_assert_int_eq(uet_evq_schedule(&q, &t[0].ev, 999), -EINVAL);
	ck_assert_int_eq(uet_evq_schedule(&q, &t[0].ev, 1000), 0);
	ck_assert_int_eq(uet_evq_run_until(&q, 999), -EINVAL);
	/* An empty window only moves time. */
	ck_assert_int_eq(uet_evq_run_until(&q, 1000), 0);
	ck_assert_int_eq(uet_evq_run_until(&q, 1001), 2);
	ck_assert_uint_eq(uet_evq_now(&q), 1001);
	uet_evq_fini(&q);
}
END_TEST

START_TEST(test_run_one_and_errors)
{
	struct uet_evq q, other;
	struct trace tr = {0};
	struct tev t;
	struct uet_event no_fn;

	uet_evq_init(&q);
	uet_evq_init(&other);
	tev_init(&t, 5, &tr);
	ck_assert_int_eq(uet_evq_run_one(&q), 0);
	ck_assert_int_eq(uet_evq_schedule(&q, &t.ev, UET_TIME_NEVER), -EINVAL);
	uet_event_init(&no_fn, NULL, NULL);
	ck_assert_int_eq(uet_evq_schedule(&q, &no_fn, 1), -EINVAL);
	ck_assert_int_eq(uet_evq_schedule(&q, &t.ev, 42), 0);
	ck_assert_int_eq(uet_evq_schedule(&other, &t.ev, 42), -EBUSY);
	ck_assert_int_eq(uet_evq_cancel(&other, &t.ev), -EINVAL);
	ck_assert_int_eq(uet_evq_run_one(&q), 1);
	ck_assert_uint_eq(uet_evq_now(&q), 42);
	ck_assert_int_eq(tr.n, 1);
	ck_assert_int_eq(uet_evq_run_one(&q), 0);
	/* Once run, the event may go to another queue. */
	ck_assert_int_eq(uet_evq_schedule(&other, &t.ev, 1), 0);
	uet_evq_fini(&other);
	uet_evq_fini(&q);
}
END_TEST

START_TEST(test_reserve_avoids_growth)
{
	struct uet_evq q;
	struct uet_event ev[100];
	struct uet_evq_slot *heap;
	int i;

	uet_evq_init(&q);
	ck_assert_int_eq(uet_evq_reserve(&q, 100), 0);
	heap = q.heap;
	for (i = 0; i < 100; i++) {
		uet_event_init(&ev[i], periodic, NULL);
		ck_assert_int_eq(uet_evq_schedule(&q, &ev[i], 5), 0);
	}
	ck_assert_ptr_eq(q.heap, heap);
	ck_assert_uint_eq(q.cap, 100);
	ck_assert_int_eq(uet_evq_reserve(&q, UINT64_C(1) << 32), -EINVAL);
	uet_evq_fini(&q);
	for (i = 0; i < 100; i++)
		ck_assert(!uet_event_pending(&ev[i]));
}
END_TEST

/* One of a million timers: it checks that it runs in (time, seq) order. */
struct timer {
	struct uet_event ev;
	uint32_t id;
};

struct drain {
	uet_time_t last_ps;
	uint64_t last_seq;
	uint64_t runs;
	uint8_t *ran;
};

static void timer_fire(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct drain *d = arg;
	struct timer *t = (struct timer *)ev;

	/* ck_assert costs too much per call here; count faults instead. */
	if (ev->time_ps < d->last_ps ||
	    (ev->time_ps == d->last_ps && d->runs > 0 &&
	     ev->seq <= d->last_seq) ||
	    uet_evq_now(q) != ev->time_ps)
		d->ran[t->id] |= 2;
	d->last_ps = ev->time_ps;
	d->last_seq = ev->seq;
	d->ran[t->id] |= 1;
	d->runs++;
}

START_TEST(test_million_timers_cancel_a_third)
{
	/*
	 * Check records every passing assertion through a pipe in fork mode,
	 * so the loops count faults and assert once at the end.
	 */
	const uint32_t n = 1000000;
	struct timer *timers = calloc(n, sizeof(*timers));
	struct drain d = {.ran = calloc(n, 1)};
	struct uet_evq q;
	struct uet_rng rng;
	uint32_t i, cancelled = 0, faults = 0, never_ran = 0;

	ck_assert_ptr_nonnull(timers);
	ck_assert_ptr_nonnull(d.ran);
	uet_evq_init(&q);
	uet_rng_seed(&rng, 2024, 1);
	for (i = 0; i < n; i++) {
		timers[i].id = i;
		uet_event_init(&timers[i].ev, timer_fire, &d);
		/* A narrow range, so that many timers tie. */
		faults += uet_evq_schedule(&q, &timers[i].ev,
					   uet_rng_bounded(&rng, 200000)) != 0;
	}
	ck_assert_uint_eq(faults, 0);
	ck_assert_uint_eq(uet_evq_len(&q), n);
	/* Cancel a pseudo-random third, in pseudo-random order. */
	while (cancelled < n / 3) {
		i = (uint32_t)uet_rng_bounded(&rng, n);
		if (!uet_event_pending(&timers[i].ev))
			continue;
		faults += uet_evq_cancel(&q, &timers[i].ev) != 0;
		cancelled++;
	}
	ck_assert_uint_eq(faults, 0);
	ck_assert_uint_eq(uet_evq_len(&q), n - n / 3);
	ck_assert_int_eq(uet_evq_run_until(&q, UET_TIME_NEVER), n - n / 3);
	ck_assert_uint_eq(d.runs, n - n / 3);
	ck_assert_uint_eq(uet_evq_len(&q), 0);
	for (i = 0; i < n; i++) {
		faults += (d.ran[i] & 2) != 0; /* ran out of order */
		faults += uet_event_pending(&timers[i].ev);
		never_ran += d.ran[i] == 0;
	}
	ck_assert_uint_eq(faults, 0);
	/* Every timer ran or was cancelled, never both, never neither. */
	ck_assert_uint_eq(never_ran, n / 3);
	ck_assert_uint_eq(q.n_cancelled, n / 3);
	uet_evq_fini(&q);
	free(d.ran);
	free(timers);
}
END_TEST

/* The event that must run next: the pending one of least (time, seq),
 * found by looking at every one. */
static struct uet_event *least_pending(struct timer *t, uint32_t n)
{
	struct uet_event *best = NULL;
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct uet_event *ev = &t[i].ev;

		if (!uet_event_pending(ev))
			continue;
		if (best == NULL || ev->time_ps < best->time_ps ||
		    (ev->time_ps == best->time_ps && ev->seq < best->seq))
			best = ev;
	}
	return best;
}

static void timer_note(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	(void)q;
	*(struct uet_event **)arg = ev;
}

/* What random_steps() saw: faults, and how often each kind of step
 * happened. */
struct step_counts {
	uint32_t faults, runs, moves, cancels, refused, fixed_runs;
};

/*
 * Steps drawn at random over the n events of t (each queued in q):
 * schedules (a move when pending), cancels of pending events and runs;
 * each run must be the pending event of least (time, seq), as a scan of
 * all of them finds it, and a pending fixed event must refuse a move or
 * a cancel (-EPERM) and keep its time. Counts faults, to assert once.
 */
static void random_steps(struct uet_evq *q, struct timer *t, uint32_t n,
			 uint32_t steps, struct uet_rng *rng,
			 struct uet_event **ran, struct step_counts *c)
{
	struct uet_event *want;
	uint32_t step;

	for (step = 0; step < steps; step++) {
		const uint64_t op = uet_rng_bounded(rng, 10);
		struct uet_event *ev = &t[uet_rng_bounded(rng, n)].ev;
		const uet_time_t at = uet_evq_now(q) + uet_rng_bounded(rng, 50);

		if (op < 5) {
			if (ev->fixed && uet_event_pending(ev)) {
				const uet_time_t was = ev->time_ps;

				c->faults +=
					uet_evq_schedule(q, ev, at) != -EPERM;
				c->faults += ev->time_ps != was;
				c->refused++;
			} else {
				c->moves += uet_event_pending(ev);
				c->faults += uet_evq_schedule(q, ev, at) != 0;
			}
		} else if (op < 6) {
			if (uet_event_pending(ev)) {
				c->faults += uet_evq_cancel(q, ev) !=
					     (ev->fixed ? -EPERM : 0);
				c->cancels += !ev->fixed;
			}
		} else {
			want = least_pending(t, n);
			*ran = NULL;
			c->faults += uet_evq_run_one(q) != (want != NULL);
			c->faults += *ran != want;
			c->runs += want != NULL;
			c->fixed_runs += want != NULL && want->fixed;
		}
	}
}

START_TEST(test_mixed_operations_keep_the_order)
{
	/* Schedules, moves (earlier and later), cancels and runs over a few
	 * hundred events whose times tie often. */
	enum { N = 300, STEPS = 200000 };
	static struct timer t[N];
	struct uet_event *ran = NULL;
	struct step_counts c = {0};
	struct uet_evq q;
	struct uet_rng rng;
	uint32_t i;

	uet_evq_init(&q);
	uet_rng_seed(&rng, 7, 3);
	for (i = 0; i < N; i++)
		uet_event_init(&t[i].ev, timer_note, &ran);
	random_steps(&q, t, N, STEPS, &rng, &ran, &c);
	ck_assert_uint_eq(c.faults, 0);
	/* Every kind of step happened, many times. */
	ck_assert_uint_gt(c.runs, 50000);
	ck_assert_uint_gt(c.moves, 10000);
	ck_assert_uint_gt(c.cancels, 2000);
	uet_evq_fini(&q);
}
END_TEST

START_TEST(test_fixed_events_mixed_with_ordinary)
{
	/*
	 * Every third event fixed, the rest moved and cancelled at random:
	 * each run is still the least pending (time, seq); a fixed event
	 * refuses a move or a cancel while pending (-EPERM) and stays where
	 * it was; the queue never writes its heap_index (the point of it:
	 * its line is not touched when the heap moves its slot).
	 */
	enum { N = 240, STEPS = 150000 };
	static const uint32_t untouched = 0xdeadbeefu;
	static struct timer t[N];
	struct uet_event *ran = NULL;
	struct step_counts c = {0};
	struct uet_evq q;
	struct uet_rng rng;
	uint32_t i;

	uet_evq_init(&q);
	uet_rng_seed(&rng, 11, 5);
	for (i = 0; i < N; i++) {
		if (i % 3 == 0) {
			uet_event_init_fixed(&t[i].ev, timer_note, &ran);
			t[i].ev.heap_index = untouched;
		} else {
			uet_event_init(&t[i].ev, timer_note, &ran);
		}
	}
	random_steps(&q, t, N, STEPS, &rng, &ran, &c);
	for (i = 0; i < N; i += 3)
		c.faults += t[i].ev.heap_index != untouched;
	ck_assert_uint_eq(c.faults, 0);
	ck_assert_uint_gt(c.runs, 40000);
	ck_assert_uint_gt(c.fixed_runs, 10000);
	ck_assert_uint_gt(c.refused, 3000);
	uet_evq_fini(&q);
}
END_TEST

static Suite *event_suite(void)
{
	Suite *s = suite_create("core-event");
	TCase *tc = tcase_create("queue");

	tcase_add_test(tc, test_events_run_in_time_order);
	tcase_add_test(tc, test_ties_break_by_insertion_order);
	tcase_add_test(tc, test_taken_seq_orders_like_early_schedule);
	tcase_add_test(tc, test_cancel_head_middle_tail);
	tcase_add_test(tc, test_reschedule_moves_event);
	tcase_add_test(tc, test_reschedule_same_time_goes_behind_ties);
	tcase_add_test(tc, test_handler_schedules_at_now);
	tcase_add_test(tc, test_handler_reschedules_itself);
	tcase_add_test(tc, test_run_until_excludes_t_end);
	tcase_add_test(tc, test_run_one_and_errors);
	tcase_add_test(tc, test_reserve_avoids_growth);
	suite_add_tcase(s, tc);

	tc = tcase_create("scale");
	tcase_set_timeout(tc, 100);
	tcase_add_test(tc, test_million_timers_cancel_a_third);
	tcase_add_test(tc, test_mixed_operations_keep_the_order);
	tcase_add_test(tc, test_fixed_events_mixed_with_ordinary);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(event_suite)
