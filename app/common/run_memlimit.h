/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The memory a run may take, as this process can see it (run_memlimit.c):
 * what the machine has available, what the process's memory cgroups
 * leave it (v1 and v2, every level of the hierarchy), and its address
 * space limit. The sizing (run_sizing.c) refuses a run before it starts
 * when its estimate passes one of them, naming the figure and the key.
 */
#ifndef RUN_MEMLIMIT_H
#define RUN_MEMLIMIT_H

#include <stdint.h>

/** Longest description of where a limit comes from. */
#define RUN_MEMLIMIT_WHAT_MAX 256

/** The limits. */
struct run_memlimit {
	/** Bytes a run may still fill: the least of /proc/meminfo's
	 * MemAvailable and each memory cgroup's limit less its usage;
	 * UINT64_MAX when none could be read. */
	uint64_t avail_bytes;
	/** Which of them it is ("MemAvailable", "the memory cgroup
	 * /a/b's memory.max of 300 MiB, 12 MiB of it in use", ...). */
	char avail_what[RUN_MEMLIMIT_WHAT_MAX];
	/** RLIMIT_AS, bytes of address space (EAL's reserved memory counts
	 * whole); UINT64_MAX when unlimited. */
	uint64_t as_bytes;
};

/**
 * Read the limits.
 *
 * @param root
 *   Prefix of the paths read (/proc/meminfo, /proc/self/cgroup and
 *   /sys/fs/cgroup/...): "" for the machine's own, a folder holding the
 *   same layout for tests.
 * @param m
 *   Out.
 */
void run_memlimit_read(const char *root, struct run_memlimit *m);

#endif /* RUN_MEMLIMIT_H */
