/* SPDX-License-Identifier: BSD-3-Clause */
/* The EAL's CPU flags answered from the C library's copy of the CPUID
 * leaves (-Ddpdk_link=static, lib/core/uet_eal_cpuflags_wrap.c) are, for
 * every flag and past the last one, what the EAL's own CPUIDs say. */
#include <check.h>

#include <rte_cpuflags.h>

#include "check_main.h"

/* The EAL's function and the wrapper the linker puts in its place. */
int __real_rte_cpu_get_flag_enabled(enum rte_cpu_flag_t feature);
int __wrap_rte_cpu_get_flag_enabled(enum rte_cpu_flag_t feature);

START_TEST(test_eal_cpuflags_answer_as_the_eals_own)
{
	int f;

	/* RTE_CPUFLAG_NUMFLAGS and beyond: the EAL's -ENOENT. */
	for (f = 0; f <= RTE_CPUFLAG_NUMFLAGS + 1; f++) {
		enum rte_cpu_flag_t flag = (enum rte_cpu_flag_t)f;

		ck_assert_msg(__wrap_rte_cpu_get_flag_enabled(flag) ==
				      __real_rte_cpu_get_flag_enabled(flag),
			      "flag %d (%s): %d, the EAL's CPUID %d", f,
			      rte_cpu_get_flag_name(flag) != NULL
				      ? rte_cpu_get_flag_name(flag)
				      : "none",
			      __wrap_rte_cpu_get_flag_enabled(flag),
			      __real_rte_cpu_get_flag_enabled(flag));
	}
	/* What the EAL's start asks for is known either way. */
	ck_assert_int_ge(rte_cpu_get_flag_enabled(RTE_CPUFLAG_SSE3), 0);
}
END_TEST

static Suite *eal_cpuflags_suite(void)
{
	Suite *s = suite_create("eal_cpuflags");
	TCase *tc = tcase_create("flags");

	tcase_add_test(tc, test_eal_cpuflags_answer_as_the_eals_own);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(eal_cpuflags_suite)
