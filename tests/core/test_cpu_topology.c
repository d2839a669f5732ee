/* SPDX-License-Identifier: BSD-3-Clause */
/* The one-pass read of sysfs's CPU and node folders gives the EAL's
 * answers: on a made-up tree (two nodes, a gap in the CPU numbers, an
 * offline CPU, a CPU listed in two nodes, names the EAL would never build)
 * each CPU's "detected" and node are those that testing the EAL's paths
 * one by one gives. tests/drivers/test_eal_lcore.c checks the same on the
 * real /sys. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "uet_cpu_topology.h"

static void make_dir(const char *root, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	ck_assert_int_eq(mkdir(path, 0755), 0);
}

static void make_file(const char *root, const char *rel)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("0\n", f);
	fclose(f);
}

/* node/nodeN/cpuC -> ../../cpu/cpuC, as sysfs links them. */
static void link_cpu(const char *root, unsigned int node, unsigned int cpu)
{
	char path[PATH_MAX], target[64];

	snprintf(path, sizeof(path), "%s/node/node%u/cpu%u", root, node, cpu);
	snprintf(target, sizeof(target), "../../cpu/cpu%u", cpu);
	ck_assert_int_eq(symlink(target, path), 0);
}

/* A CPU with its topology folder (online). */
static void make_cpu(const char *root, unsigned int cpu)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "cpu/cpu%u", cpu);
	make_dir(root, rel);
	snprintf(rel, sizeof(rel), "cpu/cpu%u/topology", cpu);
	make_dir(root, rel);
	snprintf(rel, sizeof(rel), "cpu/cpu%u/topology/core_id", cpu);
	make_file(root, rel);
}

/* The EAL's probes (linux/eal_lcore.c), path by path. */
static bool eal_detected(const char *root, unsigned int cpu)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/cpu/cpu%u/topology/core_id", root,
		 cpu);
	return access(path, F_OK) == 0;
}

static unsigned int eal_node(const char *root, unsigned int cpu,
			     unsigned int max_nodes)
{
	char path[PATH_MAX];
	unsigned int node;

	for (node = 0; node < max_nodes; node++) {
		snprintf(path, sizeof(path), "%s/node/node%u/cpu%u", root, node,
			 cpu);
		if (access(path, F_OK) == 0)
			return node;
	}
	return 0;
}

static void remove_tree(const char *root)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

static void assert_same_as_eal(const char *root, unsigned int max_nodes)
{
	struct uet_cpu_topology *topo = malloc(sizeof(*topo));
	unsigned int cpu;

	ck_assert_ptr_nonnull(topo);
	ck_assert_int_eq(uet_cpu_topology_read(topo, root, max_nodes), 0);
	for (cpu = 0; cpu < UET_CPU_TOPOLOGY_CPUS; cpu++) {
		ck_assert_msg(uet_cpu_topology_detected(topo, cpu) ==
				      eal_detected(root, cpu),
			      "cpu %u detected", cpu);
		ck_assert_msg(topo->node[cpu] == eal_node(root, cpu, max_nodes),
			      "cpu %u on node %u, the EAL says %u", cpu,
			      topo->node[cpu], eal_node(root, cpu, max_nodes));
	}
	free(topo);
}

START_TEST(test_cpu_topology_answers_as_the_eal_probes)
{
	char root[] = "/tmp/uet-cpu-topo.XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(root));
	make_dir(root, "cpu");
	make_dir(root, "node");
	make_cpu(root, 0);
	make_cpu(root, 1);
	make_cpu(root, 3); /* no cpu2 */
	make_cpu(root, 1023);
	make_dir(root, "cpu/cpu4");  /* offline: no topology folder */
	make_dir(root, "cpu/cpu05"); /* not a name the EAL builds */
	make_dir(root, "cpu/cpufreq");
	make_dir(root, "cpu/cpu1024"); /* beyond CPU_SETSIZE */
	make_dir(root, "node/node0");
	make_dir(root, "node/node1");
	make_dir(root, "node/node7");
	make_dir(root, "node/node40"); /* beyond the EAL's node limit */
	link_cpu(root, 0, 0);
	link_cpu(root, 0, 1);
	link_cpu(root, 1, 3);
	link_cpu(root, 7, 3); /* in two nodes: the lower one counts */
	link_cpu(root, 7, 4);
	link_cpu(root, 7, 1023);
	link_cpu(root, 1, 9); /* a dangling link: no cpu9 */
	link_cpu(root, 40, 5);
	assert_same_as_eal(root, 32);
	/* A lower node limit than the tree's nodes. */
	assert_same_as_eal(root, 4);
	remove_tree(root);
}
END_TEST

START_TEST(test_cpu_topology_without_numa_puts_every_cpu_on_node_0)
{
	char root[] = "/tmp/uet-cpu-topo.XXXXXX";
	struct uet_cpu_topology *topo = malloc(sizeof(*topo));

	ck_assert_ptr_nonnull(topo);
	ck_assert_ptr_nonnull(mkdtemp(root));
	make_dir(root, "cpu");
	make_cpu(root, 0);
	make_cpu(root, 2);
	ck_assert_int_eq(uet_cpu_topology_read(topo, root, 32), 0);
	ck_assert(uet_cpu_topology_detected(topo, 0));
	ck_assert(!uet_cpu_topology_detected(topo, 1));
	ck_assert(uet_cpu_topology_detected(topo, 2));
	ck_assert(!uet_cpu_topology_detected(topo, UET_CPU_TOPOLOGY_CPUS));
	ck_assert_uint_eq(topo->node[2], 0);
	assert_same_as_eal(root, 32);
	free(topo);
	remove_tree(root);
}
END_TEST

START_TEST(test_cpu_topology_unlisted_cpu_folder_is_an_error)
{
	char root[] = "/tmp/uet-cpu-topo.XXXXXX";
	struct uet_cpu_topology *topo = malloc(sizeof(*topo));

	ck_assert_ptr_nonnull(topo);
	ck_assert_ptr_nonnull(mkdtemp(root));
	ck_assert_int_lt(uet_cpu_topology_read(topo, root, 32), 0);
	free(topo);
	remove_tree(root);
}
END_TEST

START_TEST(test_cpu_topology_of_this_machine_matches_the_eal_probes)
{
	assert_same_as_eal(UET_CPU_TOPOLOGY_SYSFS, 32);
}
END_TEST

static Suite *cpu_topology_suite(void)
{
	Suite *s = suite_create("cpu_topology");
	TCase *tc = tcase_create("read");

	tcase_add_test(tc, test_cpu_topology_answers_as_the_eal_probes);
	tcase_add_test(tc,
		       test_cpu_topology_without_numa_puts_every_cpu_on_node_0);
	tcase_add_test(tc, test_cpu_topology_unlisted_cpu_folder_is_an_error);
	tcase_add_test(
		tc, test_cpu_topology_of_this_machine_matches_the_eal_probes);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(cpu_topology_suite)
