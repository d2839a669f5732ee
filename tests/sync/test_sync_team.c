/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A team of lcores running a parted component's windows
 * (lib/sync/sync_team.c), on a made-up component of seven parts: every
 * part runs exactly once a window, between the window's begin and end,
 * whichever member takes it; the events add up; a failure is the first
 * in the serial order (begin, the parts by index, end) whatever member
 * met it; a team the EAL has no lcores for is refused. Each test starts
 * its own EAL with three lcores, so each runs forked.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include <rte_lcore.h>

#include "check_main.h"
#include "sync_test_private.h"
#include "uet_port.h"

#define PARTS 7u
#define LCORES 3u

struct fake {
	struct uet_component comp; /* first: the parts get this pointer */
	uint32_t weight[PARTS];
	uint32_t runs[PARTS];	   /* per part: times run */
	uint32_t step_seen[PARTS]; /* sync_team_step() inside part i */
	uint32_t self_seen[PARTS]; /* sync_team_self() inside part i */
	uint32_t clock;		   /* order of the calls */
	uint32_t begin_at, end_at; /* clock at begin and end */
	uint32_t part_at[PARTS];   /* clock at each part's run */
	int fail[PARTS];	   /* what part i returns, 0: its events */
	int begin_rc, end_rc;
};

static int fake_begin(struct uet_component *c, uet_time_t s, uet_time_t e)
{
	struct fake *f = (struct fake *)c;

	(void)s;
	(void)e;
	f->begin_at = __atomic_add_fetch(&f->clock, 1, __ATOMIC_SEQ_CST);
	return f->begin_rc;
}

static int64_t fake_part(struct uet_component *c, uint32_t i, uet_time_t e)
{
	struct fake *f = (struct fake *)c;

	(void)e;
	f->runs[i]++;
	f->step_seen[i] = sync_team_step();
	f->self_seen[i] = sync_team_self();
	f->part_at[i] = __atomic_add_fetch(&f->clock, 1, __ATOMIC_SEQ_CST);
	/* Long enough for the others to take their own runs. */
	usleep(2000);
	return f->fail[i] != 0 ? f->fail[i] : (int64_t)(10 * (i + 1));
}

static int fake_end(struct uet_component *c, uet_time_t e)
{
	struct fake *f = (struct fake *)c;

	(void)e;
	f->end_at = __atomic_add_fetch(&f->clock, 1, __ATOMIC_SEQ_CST);
	return f->end_rc;
}

static void fake_init(struct fake *f)
{
	uint32_t i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < PARTS; i++)
		f->weight[i] = 1;
	f->comp.parts = (struct uet_component_parts){
		.n = PARTS,
		.weight = f->weight,
		.window_begin = fake_begin,
		.part_run = fake_part,
		.window_end = fake_end,
	};
}

static void eal_up(void)
{
	char prefix[64];

	snprintf(prefix, sizeof(prefix), "uetteam_%d", (int)getpid());
	ck_assert_int_eq(uet_eal_init_sized(prefix, LCORES, 64), 0);
	ck_assert_uint_eq(rte_lcore_count(), LCORES);
}

START_TEST(test_team_runs_each_part_once_a_window)
{
	static struct fake f;
	struct sync_team *t;
	uint32_t i, w, members_seen = 0;

	eal_up();
	fake_init(&f);
	ck_assert_int_eq(sync_team_create(&t, &f.comp, LCORES), 0);
	ck_assert_uint_eq(sync_team_size(t), LCORES);
	/* Until every member has run a part (a worker's thread may wait
	 * for a CPU while the others take its run), at most 100 windows. */
	for (w = 1; w <= 100 && members_seen != (1u << LCORES) - 1; w++) {
		/* 10 + 20 + ... + 70 events. */
		ck_assert_int_eq(
			sync_team_run_window(t, w * 1000, w * 1000 + 1000),
			280);
		for (i = 0; i < PARTS; i++) {
			ck_assert_uint_eq(f.runs[i], w);
			ck_assert_uint_eq(f.step_seen[i], 1 + i);
			ck_assert_uint_lt(f.self_seen[i], LCORES);
			ck_assert_uint_gt(f.part_at[i], f.begin_at);
			ck_assert_uint_lt(f.part_at[i], f.end_at);
			members_seen |= 1u << f.self_seen[i];
		}
	}
	ck_assert_uint_eq(members_seen, (1u << LCORES) - 1);
	/* Outside a window the main lcore is member 0, at no part. */
	ck_assert_uint_eq(sync_team_self(), 0);
	ck_assert_uint_eq(sync_team_step(), SYNC_TEAM_STEP_END);
	sync_team_free(t);
}
END_TEST

START_TEST(test_team_keeps_the_first_failure_in_part_order)
{
	static struct fake f;
	struct sync_team *t;
	uint32_t i;

	eal_up();
	fake_init(&f);
	ck_assert_int_eq(sync_team_create(&t, &f.comp, LCORES), 0);
	/* Parts 6 (the last member's) and 1 (the first's) fail: part 1's
	 * error is the window's, and the end does not run. */
	f.fail[6] = -EIO;
	f.fail[1] = -ENOSPC;
	ck_assert_int_eq(sync_team_run_window(t, 0, 1000), -ENOSPC);
	ck_assert_uint_eq(f.end_at, 0);
	for (i = 0; i < PARTS; i++)
		ck_assert_uint_eq(f.runs[i], 1);
	/* The begin's failure comes before any part's, and no part runs. */
	f.begin_rc = -EBADF;
	ck_assert_int_eq(sync_team_run_window(t, 1000, 2000), -EBADF);
	for (i = 0; i < PARTS; i++)
		ck_assert_uint_eq(f.runs[i], 1);
	/* The end's failure is the window's when every part succeeded. */
	f.begin_rc = 0;
	f.fail[6] = f.fail[1] = 0;
	f.end_rc = -EPIPE;
	ck_assert_int_eq(sync_team_run_window(t, 2000, 3000), -EPIPE);
	sync_team_free(t);
}
END_TEST

START_TEST(test_team_refuses_what_it_cannot_run)
{
	static struct fake f;
	struct uet_component none = {0};
	struct sync_team *t = NULL;

	eal_up();
	fake_init(&f);
	ck_assert_int_eq(sync_team_create(&t, &f.comp, LCORES + 1), -ERANGE);
	ck_assert_int_eq(sync_team_create(&t, &f.comp, 0), -EINVAL);
	ck_assert_int_eq(sync_team_create(&t, &none, 2), -EINVAL);
	ck_assert_ptr_null(t);
	/* One member: the calling lcore runs every part itself. */
	ck_assert_int_eq(sync_team_create(&t, &f.comp, 1), 0);
	ck_assert_int_eq(sync_team_run_window(t, 0, 1000), 280);
	for (uint32_t i = 0; i < PARTS; i++)
		ck_assert_uint_eq(f.self_seen[i], 0);
	sync_team_free(t);
}
END_TEST

static Suite *team_suite(void)
{
	Suite *s = suite_create("sync_team");
	TCase *tc = tcase_create("team");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_team_runs_each_part_once_a_window);
	tcase_add_test(tc, test_team_keeps_the_first_failure_in_part_order);
	tcase_add_test(tc, test_team_refuses_what_it_cannot_run);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN_FORKED(team_suite)
