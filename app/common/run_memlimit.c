/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The memory a run may take (run_memlimit.h). MemAvailable alone misleads
 * inside a container or a job scheduler's cgroup: a 1,024-host run in a
 * 300 MB cgroup passed the check and was killed by the kernel with no
 * word. So each memory cgroup the process is in counts too, at every level
 * of its path (a parent's limit bounds its children), as limit less usage:
 *   v1: /proc/self/cgroup line "N:...memory...:/path", files
 *       memory.limit_in_bytes and memory.usage_in_bytes under
 *       /sys/fs/cgroup/memory/path;
 *   v2: line "0::/path", files memory.max ("max": none) and memory.current
 *       under /sys/fs/cgroup/path (or /sys/fs/cgroup/unified/path, the
 *       hybrid layout).
 * A file that cannot be read is no limit: the cgroup may not be mounted in
 * this namespace.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "run_memlimit.h"

#define MEMLIMIT_PATH_MAX 1024

/* A file's first number; "max" (v2: no limit) and failures give
 * UINT64_MAX. */
static uint64_t read_u64(const char *path)
{
	char buf[64];
	uint64_t v;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return UINT64_MAX;
	if (fgets(buf, sizeof(buf), f) == NULL ||
	    sscanf(buf, "%" SCNu64, &v) != 1)
		v = UINT64_MAX;
	fclose(f);
	return v;
}

static uint64_t mem_available(const char *root)
{
	char path[MEMLIMIT_PATH_MAX], line[256];
	uint64_t kb = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/meminfo", root);
	f = fopen(path, "r");
	if (f == NULL)
		return UINT64_MAX;
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1)
			break;
	fclose(f);
	return kb != 0 ? kb * 1024u : UINT64_MAX;
}

/* Take the cgroup at dir (its limit and usage files named) into m when it
 * leaves less room than m has. */
static void take_cgroup(struct run_memlimit *m, const char *dir,
			const char *limit_file, const char *usage_file,
			const char *cg_path)
{
	char path[MEMLIMIT_PATH_MAX + 32];
	uint64_t limit, usage, room;
	int n;

	n = snprintf(path, sizeof(path), "%s/%s", dir, limit_file);
	if (n < 0 || (size_t)n >= sizeof(path))
		return;
	limit = read_u64(path);
	/* v1 writes "no limit" as the largest page multiple of a long. */
	if (limit == UINT64_MAX || limit >= (UINT64_C(1) << 62))
		return;
	n = snprintf(path, sizeof(path), "%s/%s", dir, usage_file);
	usage = n >= 0 && (size_t)n < sizeof(path) ? read_u64(path)
						   : UINT64_MAX;
	if (usage == UINT64_MAX)
		usage = 0;
	room = usage < limit ? limit - usage : 0;
	if (room >= m->avail_bytes)
		return;
	m->avail_bytes = room;
	/* A path past 96 characters is cut short in the message. */
	n = snprintf(m->avail_what, sizeof(m->avail_what),
		     "the memory cgroup %.96s's %s of %" PRIu64 " MiB, %" PRIu64
		     " MiB of it in use",
		     cg_path[0] != '\0' ? cg_path : "/", limit_file,
		     limit >> 20, usage >> 20);
	(void)n;
}

/* Every level of cgroup path cg under mount (the deepest first). */
static void take_hierarchy(struct run_memlimit *m, const char *mount,
			   const char *cg, const char *limit_file,
			   const char *usage_file)
{
	char path[MEMLIMIT_PATH_MAX], level[MEMLIMIT_PATH_MAX];
	char *slash;

	snprintf(level, sizeof(level), "%s", cg);
	for (;;) {
		/* "/" is the root: its files, where there are any, are the
		 * machine's, which MemAvailable already covers. */
		if (level[0] == '\0' || strcmp(level, "/") == 0)
			return;
		snprintf(path, sizeof(path), "%s%s", mount, level);
		take_cgroup(m, path, limit_file, usage_file, level);
		slash = strrchr(level, '/');
		if (slash == NULL)
			return;
		*slash = '\0';
	}
}

/* Whether the comma-separated controller list ctl names memory. */
static int has_memory(const char *ctl)
{
	const char *p = ctl;
	size_t n = strlen("memory");

	while ((p = strstr(p, "memory")) != NULL) {
		if ((p == ctl || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

static void take_cgroups(struct run_memlimit *m, const char *root)
{
	char path[MEMLIMIT_PATH_MAX], mount[MEMLIMIT_PATH_MAX];
	char line[MEMLIMIT_PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
	f = fopen(path, "r");
	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		char *ctl = strchr(line, ':'), *cg;

		if (ctl == NULL)
			continue;
		cg = strchr(++ctl, ':');
		if (cg == NULL)
			continue;
		*cg++ = '\0';
		cg[strcspn(cg, "\n")] = '\0';
		if (ctl[0] == '\0') { /* v2 */
			snprintf(mount, sizeof(mount), "%s/sys/fs/cgroup",
				 root);
			take_hierarchy(m, mount, cg, "memory.max",
				       "memory.current");
			snprintf(mount, sizeof(mount),
				 "%s/sys/fs/cgroup/unified", root);
			take_hierarchy(m, mount, cg, "memory.max",
				       "memory.current");
		} else if (has_memory(ctl)) { /* v1 */
			snprintf(mount, sizeof(mount),
				 "%s/sys/fs/cgroup/memory", root);
			take_hierarchy(m, mount, cg, "memory.limit_in_bytes",
				       "memory.usage_in_bytes");
		}
	}
	fclose(f);
}

void run_memlimit_read(const char *root, struct run_memlimit *m)
{
	struct rlimit lim;

	memset(m, 0, sizeof(*m));
	m->avail_bytes = mem_available(root);
	snprintf(m->avail_what, sizeof(m->avail_what), "%s",
		 m->avail_bytes != UINT64_MAX ? "the machine's MemAvailable"
					      : "no limit read");
	take_cgroups(m, root);
	m->as_bytes = UINT64_MAX;
	if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
		m->as_bytes = (uint64_t)lim.rlim_cur;
}
