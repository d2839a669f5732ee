/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of lib/workload: its suites in one runner. */
#include <check.h>
#include <stdlib.h>

#include "check_main.h"

Suite *chakra_suite(void);
Suite *engine_suite(void);
Suite *generate_suite(void);
Suite *matrix_suite(void);

int main(void)
{
	Suite *suites[4];

	suites[0] = chakra_suite();
	suites[1] = engine_suite();
	suites[2] = generate_suite();
	suites[3] = matrix_suite();
	return uet_check_run_suites(suites, sizeof(suites) / sizeof(suites[0]),
				    UET_CHECK_FORK_DEFAULT);
}
