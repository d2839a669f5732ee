/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU and node folders of sysfs, read once (uet_cpu_topology.h says
 * why). Each answer is the one the EAL's own probe would give: a path is
 * still tested with access(), as the EAL does, but only the paths that a
 * directory listing says can exist (a CPU or a node the listing lacks has
 * no folder for the EAL's path to go through), so the calls made are one
 * per CPU that exists, and for its node one per node that exists up to
 * the CPU's, rather than one per CPU and node that could. A node's own
 * folder is not listed: it holds an entry for every memory block besides
 * its CPUs (209 entries on the 2-CPU VM, 77 us to list, against 8 us for
 * one access()).
 */
#include "uet_cpu_topology.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * The number N of a folder entry named PREFIX followed by N as "%u" writes
 * it (the EAL builds its paths so; "cpu01" is not its cpu1), below @p
 * limit; -1 for any other name.
 */
static long entry_number(const char *name, const char *prefix,
			 unsigned long limit)
{
	const size_t plen = strlen(prefix);
	unsigned long n = 0;
	const char *d;

	if (strncmp(name, prefix, plen) != 0)
		return -1;
	d = name + plen;
	if (*d < '0' || *d > '9' || (d[0] == '0' && d[1] != '\0'))
		return -1;
	for (; *d != '\0'; d++) {
		if (*d < '0' || *d > '9')
			return -1;
		n = n * 10u + (unsigned long)(*d - '0');
		if (n >= limit)
			return -1;
	}
	return (long)n;
}

static bool path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The CPUs of ROOT/cpu: those whose topology/core_id exists in
 * topo->detected, every one listed in *present. */
static int read_cpus(struct uet_cpu_topology *topo, uint64_t *present,
		     const char *root)
{
	char path[PATH_MAX];
	struct dirent *ent;
	DIR *dir;

	if (snprintf(path, sizeof(path), "%s/cpu", root) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (dir == NULL)
		return -errno;
	while ((ent = readdir(dir)) != NULL) {
		long cpu =
			entry_number(ent->d_name, "cpu", UET_CPU_TOPOLOGY_CPUS);
		int len;

		if (cpu < 0)
			continue;
		present[cpu / 64] |= UINT64_C(1) << (cpu % 64);
		len = snprintf(path, sizeof(path),
			       "%s/cpu/cpu%ld/topology/core_id", root, cpu);
		if (len > 0 && (size_t)len < sizeof(path) && path_exists(path))
			topo->detected[cpu / 64] |= UINT64_C(1) << (cpu % 64);
	}
	closedir(dir);
	return 0;
}

/* The nodes ROOT/node lists below max_nodes, the lowest
 * UET_CPU_TOPOLOGY_NODES_MAX of them in *nodes, lowest first; their count,
 * or -1 when there is no node folder. */
#define UET_CPU_TOPOLOGY_NODES_MAX 1024u

static int list_nodes(const char *root, unsigned int max_nodes, uint16_t *nodes)
{
	char path[PATH_MAX];
	struct dirent *ent;
	unsigned int n = 0, i;
	DIR *dir;

	if (snprintf(path, sizeof(path), "%s/node", root) >= (int)sizeof(path))
		return -1;
	dir = opendir(path);
	if (dir == NULL)
		return -1;
	while ((ent = readdir(dir)) != NULL) {
		long node = entry_number(ent->d_name, "node",
					 max_nodes < UINT16_MAX ? max_nodes
								: UINT16_MAX);

		if (node < 0 ||
		    (n == UET_CPU_TOPOLOGY_NODES_MAX && node >= nodes[n - 1]))
			continue;
		if (n < UET_CPU_TOPOLOGY_NODES_MAX)
			n++;
		/* Kept in order (a listing's is the file system's): the
		 * last place, if the table was full, gives way. */
		for (i = n - 1; i > 0 && nodes[i - 1] > node; i--)
			nodes[i] = nodes[i - 1];
		nodes[i] = (uint16_t)node;
	}
	closedir(dir);
	return (int)n;
}

int uet_cpu_topology_read(struct uet_cpu_topology *topo, const char *root,
			  unsigned int max_nodes)
{
	uint64_t present[UET_CPU_TOPOLOGY_CPUS / 64] = {0};
	uint16_t nodes[UET_CPU_TOPOLOGY_NODES_MAX];
	char path[PATH_MAX];
	int rc, n_nodes, i;
	long cpu;

	memset(topo, 0, sizeof(*topo));
	rc = read_cpus(topo, present, root);
	if (rc < 0)
		return rc;
	n_nodes = list_nodes(root, max_nodes, nodes);
	if (n_nodes < 0)
		return 0; /* no NUMA: every CPU on node 0, as the EAL finds */
	/* The EAL's question for each CPU with a folder (a link to a CPU
	 * without one leads nowhere): the lowest node whose folder holds
	 * cpuC, access() following the link as the EAL's does. */
	for (cpu = 0; cpu < (long)UET_CPU_TOPOLOGY_CPUS; cpu++) {
		if (!(present[cpu / 64] & (UINT64_C(1) << (cpu % 64))))
			continue;
		for (i = 0; i < n_nodes; i++) {
			int len = snprintf(path, sizeof(path),
					   "%s/node/node%u/cpu%ld", root,
					   (unsigned int)nodes[i], cpu);

			if (len > 0 && (size_t)len < sizeof(path) &&
			    path_exists(path)) {
				topo->node[cpu] = nodes[i];
				break;
			}
		}
	}
	return 0;
}
