/* SPDX-License-Identifier: BSD-3-Clause */
/* The lcores of a run without run.lcores (app/common/run_lcores.h): the
 * CPUs it may use less those other processes keep busy, at least one, from
 * reads of the run queue as /proc/loadavg gives it. */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "check_main.h"
#include "run_lcores.h"

/* Three reads of /proc/loadavg with a, b and c runnable tasks. */
static uint32_t lcores_from(uint32_t usable, uint32_t online, uint32_t a,
			    uint32_t b, uint32_t c,
			    struct run_lcores_choice *choice)
{
	const struct run_lcores_sample s[3] = {{a}, {b}, {c}};

	return run_lcores_for_free_cpus(usable, online, s, 3, 1, choice);
}

START_TEST(test_lcores_parse_the_run_queue_of_loadavg)
{
	struct run_lcores_sample s;

	ck_assert_int_eq(
		run_lcores_parse_loadavg("0.70 0.99 0.52 3/180 12345\n", &s),
		0);
	ck_assert_uint_eq(s.running, 3);
	ck_assert_int_eq(
		run_lcores_parse_loadavg("12.24 11.94 9.86 15/197 30752", &s),
		0);
	ck_assert_uint_eq(s.running, 15);
	ck_assert_int_eq(run_lcores_parse_loadavg("0.70 0.99 0.52\n", &s),
			 -EINVAL);
	ck_assert_int_eq(run_lcores_parse_loadavg("", &s), -EINVAL);
}
END_TEST

START_TEST(test_lcores_idle_machine_takes_every_usable_cpu)
{
	struct run_lcores_choice c;

	/* Only this process runnable: every CPU is free. */
	ck_assert_uint_eq(lcores_from(2, 2, 1, 1, 1, &c), 2);
	ck_assert_uint_eq(c.busy, 0);
	ck_assert_uint_eq(lcores_from(8, 8, 1, 1, 1, &c), 8);
	ck_assert(c.measured);
}
END_TEST

START_TEST(test_lcores_cpu_bound_process_takes_one_cpu_away)
{
	struct run_lcores_choice c;

	/* `yes > /dev/null` on a 2-CPU machine: runnable at every read. */
	ck_assert_uint_eq(lcores_from(2, 2, 2, 2, 2, &c), 1);
	ck_assert_uint_eq(c.others, 1);
	ck_assert_uint_eq(c.busy, 1);
	/* Three of them on eight CPUs. */
	ck_assert_uint_eq(lcores_from(8, 8, 4, 4, 4, &c), 5);
}
END_TEST

START_TEST(test_lcores_task_seen_at_one_read_only_is_not_busy)
{
	struct run_lcores_choice c;

	/* A task that woke for a moment: the least read counts. */
	ck_assert_uint_eq(lcores_from(2, 2, 1, 3, 2, &c), 2);
	ck_assert_uint_eq(c.others, 0);
	ck_assert_uint_eq(lcores_from(2, 2, 2, 3, 2, &c), 1);
}
END_TEST

START_TEST(test_lcores_at_least_one_when_every_cpu_is_busy)
{
	struct run_lcores_choice c;

	/* A machine running 14 other tasks on 2 CPUs. */
	ck_assert_uint_eq(lcores_from(2, 2, 15, 17, 14, &c), 1);
	ck_assert_uint_eq(c.busy, 2);
	ck_assert_uint_eq(lcores_from(1, 1, 2, 2, 2, &c), 1);
}
END_TEST

START_TEST(test_lcores_others_spread_over_cpus_this_process_cannot_use)
{
	struct run_lcores_choice c;

	/* 2 CPUs usable of 8: the others' tasks are taken as spread over
	 * the 8, so a quarter of them fall on the usable 2, rounded to the
	 * nearest (half a CPU is one). */
	ck_assert_uint_eq(lcores_from(2, 8, 2, 2, 2, &c), 2); /* 0.25 */
	ck_assert_uint_eq(lcores_from(2, 8, 3, 3, 3, &c), 1); /* 0.5 */
	ck_assert_uint_eq(c.busy, 1);
	ck_assert_uint_eq(lcores_from(2, 8, 7, 7, 7, &c), 1); /* 1.5 */
	ck_assert_uint_eq(c.busy, 2);
}
END_TEST

START_TEST(test_lcores_without_a_read_takes_every_usable_cpu)
{
	struct run_lcores_choice c;
	char why[128];

	ck_assert_uint_eq(run_lcores_for_free_cpus(4, 4, NULL, 0, 1, &c), 4);
	ck_assert(!c.measured);
	run_lcores_why(&c, why, sizeof(why));
	ck_assert_str_eq(why, "4 CPUs usable; the run queue could not be read");
}
END_TEST

START_TEST(test_lcores_why_says_usable_and_busy)
{
	struct run_lcores_choice c;
	char why[128];

	lcores_from(2, 2, 2, 2, 2, &c);
	run_lcores_why(&c, why, sizeof(why));
	ck_assert_str_eq(why, "2 CPUs usable, 1 busy with other processes");
	lcores_from(1, 1, 1, 1, 1, &c);
	run_lcores_why(&c, why, sizeof(why));
	ck_assert_str_eq(why, "1 CPU usable, 0 busy with other processes");
}
END_TEST

START_TEST(test_lcores_choose_reads_this_machine)
{
	struct run_lcores_choice c;
	uint32_t n = run_lcores_choose(&c);

	ck_assert_uint_ge(n, 1);
	ck_assert_uint_le(n, c.usable);
	ck_assert_uint_eq(n, c.lcores);
	ck_assert(c.measured);
}
END_TEST

static Suite *run_lcores_suite(void)
{
	Suite *s = suite_create("run_lcores");
	TCase *tc = tcase_create("rule");

	tcase_add_test(tc, test_lcores_parse_the_run_queue_of_loadavg);
	tcase_add_test(tc, test_lcores_idle_machine_takes_every_usable_cpu);
	tcase_add_test(tc, test_lcores_cpu_bound_process_takes_one_cpu_away);
	tcase_add_test(tc, test_lcores_task_seen_at_one_read_only_is_not_busy);
	tcase_add_test(tc, test_lcores_at_least_one_when_every_cpu_is_busy);
	tcase_add_test(
		tc,
		test_lcores_others_spread_over_cpus_this_process_cannot_use);
	tcase_add_test(tc, test_lcores_without_a_read_takes_every_usable_cpu);
	tcase_add_test(tc, test_lcores_why_says_usable_and_busy);
	tcase_add_test(tc, test_lcores_choose_reads_this_machine);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(run_lcores_suite)
