/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of lib/workload: its suites in one runner. */
#include <check.h>
#include <stdlib.h>

Suite *chakra_suite(void);
Suite *engine_suite(void);
Suite *generate_suite(void);
Suite *matrix_suite(void);

int main(void)
{
	SRunner *sr = srunner_create(chakra_suite());
	int failed;

	srunner_add_suite(sr, engine_suite());
	srunner_add_suite(sr, generate_suite());
	srunner_add_suite(sr, matrix_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
