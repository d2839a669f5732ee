/* SPDX-License-Identifier: BSD-3-Clause */
/* The shared runner behind UET_CHECK_MAIN (see check_main.h). */

#include <stdlib.h>

#include "check_main.h"

int uet_check_run_suites(Suite *const *suites, unsigned int n_suites,
			 enum uet_check_fork fork)
{
	SRunner *sr;
	unsigned int i;
	int failed;

	if (n_suites == 0)
		return EXIT_FAILURE;
	sr = srunner_create(suites[0]);
	for (i = 1; i < n_suites; i++)
		srunner_add_suite(sr, suites[i]);
	/* Set only when asked: setting it at all overrides CK_FORK. */
	if (fork == UET_CHECK_FORK_ALWAYS)
		srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

int uet_check_run(Suite *s)
{
	return uet_check_run_suites(&s, 1, UET_CHECK_FORK_DEFAULT);
}

int uet_check_run_forked(Suite *s)
{
	return uet_check_run_suites(&s, 1, UET_CHECK_FORK_ALWAYS);
}
