/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The CPU and node folders of sysfs, read once (uet_cpu_topology.h says
 * why). Each answer is the one the EAL's own probe would give: a path is
 * still tested with access(), as the EAL does, but only the paths that a
 * directory listing shows (a CPU or a node the listing lacks has no folder
 * for the EAL's path to go through), so the calls made are one per CPU
 * and node that exist rather than one per CPU and node that could.
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

/* The CPUs of ROOT/cpu whose topology/core_id exists. */
static int read_cpus(struct uet_cpu_topology *topo, const char *root)
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
		len = snprintf(path, sizeof(path),
			       "%s/cpu/cpu%ld/topology/core_id", root, cpu);
		if (len > 0 && (size_t)len < sizeof(path) && path_exists(path))
			topo->detected[cpu / 64] |= UINT64_C(1) << (cpu % 64);
	}
	closedir(dir);
	return 0;
}

/* The CPUs listed in ROOT/node/nodeN: each keeps the lowest such N. */
static void read_node(struct uet_cpu_topology *topo, bool *placed,
		      const char *root, long node)
{
	char path[PATH_MAX];
	struct dirent *ent;
	DIR *dir;

	if (snprintf(path, sizeof(path), "%s/node/node%ld", root, node) >=
	    (int)sizeof(path))
		return;
	dir = opendir(path);
	if (dir == NULL)
		return;
	while ((ent = readdir(dir)) != NULL) {
		long cpu =
			entry_number(ent->d_name, "cpu", UET_CPU_TOPOLOGY_CPUS);
		int len;

		if (cpu < 0 || (placed[cpu] && topo->node[cpu] < node))
			continue;
		/* The entry is a link to the CPU's folder: access() follows
		 * it, as the EAL's does. */
		len = snprintf(path, sizeof(path), "%s/node/node%ld/cpu%ld",
			       root, node, cpu);
		if (len > 0 && (size_t)len < sizeof(path) &&
		    path_exists(path)) {
			topo->node[cpu] = (uint16_t)node;
			placed[cpu] = true;
		}
	}
	closedir(dir);
}

int uet_cpu_topology_read(struct uet_cpu_topology *topo, const char *root,
			  unsigned int max_nodes)
{
	bool placed[UET_CPU_TOPOLOGY_CPUS] = {false};
	char path[PATH_MAX];
	struct dirent *ent;
	DIR *dir;
	int rc;

	memset(topo, 0, sizeof(*topo));
	rc = read_cpus(topo, root);
	if (rc < 0)
		return rc;
	if (snprintf(path, sizeof(path), "%s/node", root) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (dir == NULL)
		return 0; /* no NUMA: every CPU on node 0, as the EAL finds */
	while ((ent = readdir(dir)) != NULL) {
		long node = entry_number(ent->d_name, "node",
					 max_nodes < UINT16_MAX ? max_nodes
								: UINT16_MAX);

		if (node >= 0)
			read_node(topo, placed, root, node);
	}
	closedir(dir);
	return 0;
}
