/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The EAL's CPU and NUMA probes, answered from one read of sysfs
 * (uet_cpu_topology.h says why: 5,000 access() calls, most of a small
 * run's system-call time).
 *
 * Only in a static DPDK link (-Ddpdk_link=static): meson.build links every
 * program with -Wl,--wrap=eal_cpu_detected,--wrap=eal_cpu_socket_id, so
 * the EAL's calls (from eal_common_lcore.c, eal_common_options.c and
 * eal_common_thread.c; the functions live in linux/eal_lcore.c, an object
 * apart) come here. The first call reads the topology; a CPU beyond the
 * table, or a sysfs that cannot be listed, is asked of the EAL's own
 * probe. The answers are those of the moment of the first call: a CPU
 * brought on or off line later is not seen, nor was it by the EAL, which
 * probes once at start. tests/drivers/test_eal_lcore.c compares every
 * answer with the EAL's own on the machine it runs on.
 */
#include <pthread.h>
#include <stdbool.h>

#include "uet_cpu_topology.h"

/* The EAL's RTE_MAX_NUMA_NODES, from the build (lib/core/meson.build), so
 * that this file needs no DPDK header: the EAL's declarations of the two
 * functions are private to it. */
#ifndef UET_EAL_MAX_NUMA_NODES
#error "UET_EAL_MAX_NUMA_NODES must come from the build"
#endif

int __real_eal_cpu_detected(unsigned int lcore_id);
unsigned int __real_eal_cpu_socket_id(unsigned int lcore_id);
int __wrap_eal_cpu_detected(unsigned int lcore_id);
unsigned int __wrap_eal_cpu_socket_id(unsigned int lcore_id);

/* Written once, under the once-control, before any answer is read. */
static struct uet_cpu_topology eal_topo;
static bool eal_topo_read;
static pthread_once_t eal_topo_once = PTHREAD_ONCE_INIT;

static void eal_topo_load(void)
{
	eal_topo_read = uet_cpu_topology_read(&eal_topo, UET_CPU_TOPOLOGY_SYSFS,
					      UET_EAL_MAX_NUMA_NODES) == 0;
}

static bool eal_topo_covers(unsigned int cpu)
{
	pthread_once(&eal_topo_once, eal_topo_load);
	return eal_topo_read && cpu < UET_CPU_TOPOLOGY_CPUS;
}

int __wrap_eal_cpu_detected(unsigned int lcore_id)
{
	if (!eal_topo_covers(lcore_id))
		return __real_eal_cpu_detected(lcore_id);
	return uet_cpu_topology_detected(&eal_topo, lcore_id) ? 1 : 0;
}

unsigned int __wrap_eal_cpu_socket_id(unsigned int lcore_id)
{
	if (!eal_topo_covers(lcore_id))
		return __real_eal_cpu_socket_id(lcore_id);
	return eal_topo.node[lcore_id];
}
