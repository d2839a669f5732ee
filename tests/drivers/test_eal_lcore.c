/* SPDX-License-Identifier: BSD-3-Clause */
/* The EAL's CPU and NUMA probes, answered from one read of sysfs
 * (-Ddpdk_link=static, lib/core/uet_eal_lcore_wrap.c), give on this machine
 * the answers of the EAL's own probes for every CPU the EAL asks about.
 * tests/core/test_cpu_topology.c checks the reading on made-up trees. */
#include <check.h>
#include <sched.h>

#include "check_main.h"

/* The EAL's functions (linux/eal_lcore.c) and the wrappers the linker puts
 * in their place; their declarations are private to the EAL. */
int __real_eal_cpu_detected(unsigned int lcore_id);
unsigned int __real_eal_cpu_socket_id(unsigned int lcore_id);
int __wrap_eal_cpu_detected(unsigned int lcore_id);
unsigned int __wrap_eal_cpu_socket_id(unsigned int lcore_id);

START_TEST(test_eal_lcore_probes_answer_as_the_eals_own)
{
	unsigned int cpu;

	/* The EAL asks about CPU_SETSIZE CPUs (rte_eal_cpu_init). */
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		ck_assert_msg(__wrap_eal_cpu_detected(cpu) ==
				      __real_eal_cpu_detected(cpu),
			      "cpu %u: detected %d, the EAL's probe %d", cpu,
			      __wrap_eal_cpu_detected(cpu),
			      __real_eal_cpu_detected(cpu));
		ck_assert_msg(__wrap_eal_cpu_socket_id(cpu) ==
				      __real_eal_cpu_socket_id(cpu),
			      "cpu %u: socket %u, the EAL's probe %u", cpu,
			      __wrap_eal_cpu_socket_id(cpu),
			      __real_eal_cpu_socket_id(cpu));
	}
	/* Beyond the table: the EAL's own probe answers. */
	ck_assert_int_eq(__wrap_eal_cpu_detected(CPU_SETSIZE), 0);
}
END_TEST

static Suite *eal_lcore_suite(void)
{
	Suite *s = suite_create("eal_lcore");
	TCase *tc = tcase_create("probes");

	tcase_add_test(tc, test_eal_lcore_probes_answer_as_the_eals_own);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(eal_lcore_suite)
