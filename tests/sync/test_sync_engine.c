/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The window engine (lib/sync/sync_engine.c) on a made-up transport: the
 * window rule, the registration check of the mandatory callbacks, the
 * order of the steps, waits (-EAGAIN) taken up at the next poll, a
 * follower given its windows, and the first-failure rule.
 */
#include <errno.h>

#include <check.h>

#include "check_main.h"
#include "sync_test_private.h"
#include "uet_sync.h"

/* A transport that logs its steps and whose share has events at the
 * times of next[] (one per agreement), UET_TIME_NEVER after. */
struct fake {
	char log[64];
	unsigned int n_log;
	const uet_time_t *next;
	unsigned int n_next, i_next;
	unsigned int exchange_waits; /* -EAGAIN this many times per window */
	unsigned int waited;
	struct sync_window runs[8];
	unsigned int n_runs;
	int fail_run_at; /* the run (from 1) that fails, 0: none */
};

static void note(struct fake *f, char c)
{
	if (f->n_log + 1 < sizeof(f->log))
		f->log[f->n_log++] = c;
}

static int f_start(void *ctx)
{
	note(ctx, 's');
	return 0;
}

static int f_run(void *ctx, const struct sync_window *w)
{
	struct fake *f = ctx;

	note(f, 'r');
	if (f->n_runs < 8)
		f->runs[f->n_runs] = *w;
	f->n_runs++;
	return f->fail_run_at != 0 && f->n_runs == (unsigned)f->fail_run_at
		       ? -EIO
		       : 0;
}

static int f_exchange(void *ctx, const struct sync_window *w)
{
	struct fake *f = ctx;

	(void)w;
	if (f->waited < f->exchange_waits) {
		f->waited++;
		return -EAGAIN;
	}
	f->waited = 0;
	note(f, 'x');
	return 0;
}

static int f_agree(void *ctx, const struct sync_window *w, struct sync_vote *v)
{
	struct fake *f = ctx;

	(void)w;
	note(f, 'a');
	v->next_ps =
		f->i_next < f->n_next ? f->next[f->i_next++] : UET_TIME_NEVER;
	return 0;
}

static int f_finish(void *ctx, const struct sync_window *last)
{
	(void)last;
	note(ctx, 'f');
	return 0;
}

static const struct sync_transport_ops fake_ops = {
	.name = "fake",
	.start = f_start,
	.run = f_run,
	.exchange = f_exchange,
	.agree = f_agree,
	.finish = f_finish,
};

START_TEST(test_window_rule_is_least_of_e_plus_l_horizon_and_end)
{
	ck_assert_uint_eq(sync_window_end(10, 5, UET_TIME_NEVER, 100), 15);
	ck_assert_uint_eq(sync_window_end(10, 5, 12, 100), 12);
	ck_assert_uint_eq(sync_window_end(98, 5, UET_TIME_NEVER, 100), 100);
	ck_assert_uint_eq(sync_window_end(UET_TIME_NEVER - 2, 5, UET_TIME_NEVER,
					  UET_TIME_NEVER),
			  UET_TIME_NEVER);
}
END_TEST

START_TEST(test_registration_refuses_a_missing_mandatory_callback)
{
	const struct sync_engine_conf c = {.lookahead_ps = 5, .end_ps = 100};
	struct sync_transport_ops ops = fake_ops;
	struct sync_engine eng;
	struct fake f = {.n_log = 0};

	ck_assert_int_eq(sync_engine_init(&eng, &ops, &f, &c), 0);
	ops.run = NULL;
	ck_assert_int_eq(sync_engine_init(&eng, &ops, &f, &c), -EINVAL);
	ops = fake_ops;
	ops.exchange = NULL;
	ck_assert_int_eq(sync_engine_init(&eng, &ops, &f, &c), -EINVAL);
	ops = fake_ops;
	ops.agree = NULL;
	ck_assert_int_eq(sync_engine_init(&eng, &ops, &f, &c), -EINVAL);
	/* start and finish are optional */
	ops = fake_ops;
	ops.start = NULL;
	ops.finish = NULL;
	ck_assert_int_eq(sync_engine_init(&eng, &ops, &f, &c), 0);
}
END_TEST

/* Events at 2 and 40 with L = 5: [0, 5), [5, 7) (E = 2), then [7, 45)
 * (the idle time skipped in one window), then nothing: finish. */
START_TEST(test_steps_in_order_and_windows_by_the_rule)
{
	static const uet_time_t next[] = {2, 40};
	const struct sync_engine_conf c = {.lookahead_ps = 5, .end_ps = 1000};
	struct sync_engine eng;
	struct fake f = {.next = next, .n_next = 2};

	ck_assert_int_eq(sync_engine_init(&eng, &fake_ops, &f, &c), 0);
	ck_assert_int_eq(sync_engine_poll(&eng), UET_SYNC_FINISHED);
	ck_assert_str_eq(f.log, "srxarxarxaf");
	ck_assert_uint_eq(f.n_runs, 3);
	ck_assert_uint_eq(f.runs[0].start_ps, 0);
	ck_assert_uint_eq(f.runs[0].end_ps, 5);
	ck_assert_uint_eq(f.runs[1].start_ps, 5);
	ck_assert_uint_eq(f.runs[1].end_ps, 7);
	ck_assert_uint_eq(f.runs[2].start_ps, 7);
	ck_assert_uint_eq(f.runs[2].end_ps, 45);
	ck_assert_uint_eq(f.runs[2].seq, 2);
	ck_assert_uint_eq(eng.windows, 3);
}
END_TEST

START_TEST(test_a_step_that_waits_is_taken_up_at_the_next_poll)
{
	static const uet_time_t next[] = {7};
	const struct sync_engine_conf c = {.lookahead_ps = 5, .end_ps = 1000};
	struct sync_engine eng;
	struct fake f = {.next = next, .n_next = 1, .exchange_waits = 2};
	unsigned int polls = 0;
	int rc;

	ck_assert_int_eq(sync_engine_init(&eng, &fake_ops, &f, &c), 0);
	while ((rc = sync_engine_poll(&eng)) == UET_SYNC_RUNNING)
		polls++;
	ck_assert_int_eq(rc, UET_SYNC_FINISHED);
	ck_assert_uint_eq(polls, 4); /* two waits in each of 2 windows */
	ck_assert_str_eq(f.log, "srxarxaf");
}
END_TEST

START_TEST(test_run_end_stops_the_windows)
{
	static const uet_time_t next[] = {3, 8, 50};
	const struct sync_engine_conf c = {.lookahead_ps = 5, .end_ps = 10};
	struct sync_engine eng;
	struct fake f = {.next = next, .n_next = 3};

	ck_assert_int_eq(sync_engine_init(&eng, &fake_ops, &f, &c), 0);
	ck_assert_int_eq(sync_engine_poll(&eng), UET_SYNC_FINISHED);
	/* [0, 5), [5, 8), [8, 10): the event at 50 is past the end */
	ck_assert_uint_eq(f.n_runs, 3);
	ck_assert_uint_eq(f.runs[2].end_ps, 10);
}
END_TEST

START_TEST(test_a_failed_step_fails_the_engine_for_good)
{
	static const uet_time_t next[] = {1, 2, 3};
	const struct sync_engine_conf c = {.lookahead_ps = 5, .end_ps = 100};
	struct sync_engine eng;
	struct fake f = {.next = next, .n_next = 3, .fail_run_at = 2};

	ck_assert_int_eq(sync_engine_init(&eng, &fake_ops, &f, &c), 0);
	ck_assert_int_eq(sync_engine_poll(&eng), -EIO);
	ck_assert_int_eq(sync_engine_poll(&eng), -EIO);
	ck_assert(sync_engine_over(&eng));
	ck_assert_str_eq(f.log, "srxar");
}
END_TEST

/* A follower: its windows come from the agreement, the first one too. */
static int fl_agree(void *ctx, const struct sync_window *w, struct sync_vote *v)
{
	struct fake *f = ctx;

	(void)w;
	note(f, 'a');
	if (f->i_next >= f->n_next) {
		v->next_ps = UET_TIME_NEVER;
		return 0;
	}
	v->given_start_ps = f->i_next == 0 ? 100 : f->next[f->i_next - 1];
	v->given_end_ps = f->next[f->i_next++];
	return 0;
}

START_TEST(test_a_follower_runs_the_windows_it_is_given)
{
	static const uet_time_t ends[] = {110, 130};
	struct sync_transport_ops ops = fake_ops;
	const struct sync_engine_conf c = {.end_ps = UET_TIME_NEVER};
	struct sync_engine eng;
	struct fake f = {.next = ends, .n_next = 2};

	ops.follower = true;
	ops.agree = fl_agree;
	ck_assert_int_eq(sync_engine_init(&eng, &ops, &f, &c), 0);
	ck_assert_int_eq(sync_engine_poll(&eng), UET_SYNC_FINISHED);
	ck_assert_str_eq(f.log, "sarxarxaf");
	ck_assert_uint_eq(f.runs[0].start_ps, 100);
	ck_assert_uint_eq(f.runs[0].end_ps, 110);
	ck_assert_uint_eq(f.runs[1].start_ps, 110);
	ck_assert_uint_eq(f.runs[1].end_ps, 130);
}
END_TEST

START_TEST(test_first_failure_is_the_lowest_index_whatever_came_first)
{
	struct sync_first_failure f;

	sync_first_failure_reset(&f);
	sync_first_failure_note(&f, 7, -EIO);
	sync_first_failure_note(&f, 9, -ENOMEM);
	sync_first_failure_note(&f, 3, -ERANGE);
	sync_first_failure_note(&f, 1, 0); /* not a failure */
	ck_assert_uint_eq(f.at, 3);
	ck_assert_int_eq(f.err, -ERANGE);
}
END_TEST

static Suite *engine_suite(void)
{
	Suite *s = suite_create("sync_engine");
	TCase *tc = tcase_create("engine");

	tcase_add_test(tc,
		       test_window_rule_is_least_of_e_plus_l_horizon_and_end);
	tcase_add_test(tc,
		       test_registration_refuses_a_missing_mandatory_callback);
	tcase_add_test(tc, test_steps_in_order_and_windows_by_the_rule);
	tcase_add_test(tc, test_a_step_that_waits_is_taken_up_at_the_next_poll);
	tcase_add_test(tc, test_run_end_stops_the_windows);
	tcase_add_test(tc, test_a_failed_step_fails_the_engine_for_good);
	tcase_add_test(tc, test_a_follower_runs_the_windows_it_is_given);
	tcase_add_test(
		tc, test_first_failure_is_the_lowest_index_whatever_came_first);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(engine_suite)
