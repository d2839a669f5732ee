/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-emu's answer to the EAL's libnuma calls: no NUMA policy.
 *
 * Linked into the static uet-emu only (app/uet-emu/meson.build), ahead of
 * libnuma's archive, so that libnuma's main object, and with it its
 * constructor, stays out. That constructor runs before main() whether or
 * not NUMA is ever asked about: it read /proc/self/status twice, listed
 * /sys/devices/system/node, read node0's meminfo and probed the kernel's
 * memory policies (28 system calls, a tenth of a 16-host run's), for an
 * EAL whose --no-huge memory is placed by no policy. The EAL asks
 * numa_available() before any other of these and, told -1, uses none of
 * them (it places hugepages on their sockets only with NUMA): the others
 * are here for the link (libnuma's system-call wrappers included, whose
 * object needs its main one), and do nothing.
 */
#include <errno.h>
#include <stddef.h>

/* libnuma's nodemask type, never made here. */
struct bitmask;

int numa_available(void);
struct bitmask *numa_allocate_nodemask(void);
void numa_bitmask_free(struct bitmask *bmp);
void numa_set_localalloc(void);
void numa_set_preferred(int node);
long get_mempolicy(int *mode, unsigned long *nmask, unsigned long maxnode,
		   void *addr, unsigned flags);
long set_mempolicy(int mode, const unsigned long *nmask, unsigned long maxnode);

int numa_available(void)
{
	return -1;
}

struct bitmask *numa_allocate_nodemask(void)
{
	errno = ENOSYS;
	return NULL;
}

void numa_bitmask_free(struct bitmask *bmp)
{
	(void)bmp;
}

void numa_set_localalloc(void)
{
}

void numa_set_preferred(int node)
{
	(void)node;
}

long get_mempolicy(int *mode, unsigned long *nmask, unsigned long maxnode,
		   void *addr, unsigned flags)
{
	(void)mode;
	(void)nmask;
	(void)maxnode;
	(void)addr;
	(void)flags;
	errno = ENOSYS;
	return -1;
}

long set_mempolicy(int mode, const unsigned long *nmask, unsigned long maxnode)
{
	(void)mode;
	(void)nmask;
	(void)maxnode;
	errno = ENOSYS;
	return -1;
}
