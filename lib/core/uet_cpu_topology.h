/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Which CPUs the kernel lists and on which NUMA node each sits, read from
 * sysfs in one pass: a directory listing of the CPUs and one of each node.
 *
 * DPDK's EAL asks the same two questions one path at a time: for every
 * possible lcore (CPU_SETSIZE of them, 1,024) whether
 * cpu/cpuN/topology/core_id exists, and for every lcore below
 * RTE_MAX_LCORE the first of RTE_MAX_NUMA_NODES nodes whose folder holds
 * cpuN. On a 2-CPU machine that is 5,072 access() calls, 5,055 of them
 * for paths that do not exist: most of a small run's system-call time.
 * The answers here are those of the EAL's own probes (the same paths are
 * tested, only those that a listing says can exist), and
 * uet_eal_lcore_wrap.c gives them to the EAL.
 */
#ifndef UET_CPU_TOPOLOGY_H
#define UET_CPU_TOPOLOGY_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The CPUs the answers cover: 0 to UET_CPU_TOPOLOGY_CPUS - 1. */
#define UET_CPU_TOPOLOGY_CPUS CPU_SETSIZE

/** Where the kernel lists CPUs and NUMA nodes. */
#define UET_CPU_TOPOLOGY_SYSFS "/sys/devices/system"

/** One read of the CPU and node folders of sysfs. */
struct uet_cpu_topology {
	/** Bit c: ROOT/cpu/cpuC/topology/core_id exists. */
	uint64_t detected[UET_CPU_TOPOLOGY_CPUS / 64];
	/** The lowest node below the limit whose folder holds cpuC; 0 when
	 * none does (the EAL's answer then). */
	uint16_t node[UET_CPU_TOPOLOGY_CPUS];
};

/**
 * Read the topology under @p root (UET_CPU_TOPOLOGY_SYSFS, or a copy of
 * its layout in a test).
 *
 * @param topo
 *   Filled in.
 * @param root
 *   The folder holding cpu/ and node/.
 * @param max_nodes
 *   Nodes at or above this are not looked at (the EAL's
 *   RTE_MAX_NUMA_NODES).
 * @return
 *   0, or a negative errno when the cpu folder cannot be listed (then the
 *   caller must ask the paths one by one). A missing node folder is a
 *   kernel without NUMA: every CPU on node 0.
 */
int uet_cpu_topology_read(struct uet_cpu_topology *topo, const char *root,
			  unsigned int max_nodes);

/** Whether @p cpu was detected (false beyond UET_CPU_TOPOLOGY_CPUS). */
static inline bool
uet_cpu_topology_detected(const struct uet_cpu_topology *topo, unsigned int cpu)
{
	return cpu < UET_CPU_TOPOLOGY_CPUS &&
	       (topo->detected[cpu / 64] >> (cpu % 64) & 1u) != 0;
}

#ifdef __cplusplus
}
#endif

#endif /* UET_CPU_TOPOLOGY_H */
