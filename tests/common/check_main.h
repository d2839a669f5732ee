/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * The one main() of every Check test program: run its suites, exit 0 when
 * every test passed and 1 otherwise.
 *
 * Suites and test cases stay in each program (their names are what meson
 * and the logs show); only the runner is shared. Time limits are the test
 * cases' own: tcase_create() reads CK_DEFAULT_TIMEOUT, tcase_set_timeout()
 * overrides it, and the runner leaves both alone.
 */

#ifndef UET_CHECK_MAIN_H
#define UET_CHECK_MAIN_H

#include <check.h>

/** How the runner chooses Check's fork mode. */
enum uet_check_fork {
	/** Check's default: fork, unless CK_FORK=no (for a debugger). */
	UET_CHECK_FORK_DEFAULT,
	/** Fork whatever CK_FORK says: for programs whose tests start EAL or
	 *  rely on a fresh process each (rte_eal_init runs once a process). */
	UET_CHECK_FORK_ALWAYS,
};

/**
 * Run suites in one runner, in order, with Check's normal output.
 *
 * @param suites
 *   The suites; the runner takes them over and frees them.
 * @param n_suites
 *   How many (at least 1).
 * @param fork
 *   How the fork mode is chosen.
 * @return
 *   EXIT_SUCCESS when no test failed or errored, EXIT_FAILURE otherwise:
 *   main()'s return value.
 */
int uet_check_run_suites(Suite *const *suites, unsigned int n_suites,
			 enum uet_check_fork fork);

/** uet_check_run_suites() for one suite, in Check's default fork mode. */
int uet_check_run(Suite *s);

/** uet_check_run_suites() for one suite, always forking. */
int uet_check_run_forked(Suite *s);

/** main() of a program whose tests are the suite suite_fn() returns. */
#define UET_CHECK_MAIN(suite_fn)                                               \
	int main(void)                                                         \
	{                                                                      \
		return uet_check_run(suite_fn());                              \
	}

/** UET_CHECK_MAIN() for a program whose tests must each run forked. */
#define UET_CHECK_MAIN_FORKED(suite_fn)                                        \
	int main(void)                                                         \
	{                                                                      \
		return uet_check_run_forked(suite_fn());                       \
	}

#endif /* UET_CHECK_MAIN_H */
