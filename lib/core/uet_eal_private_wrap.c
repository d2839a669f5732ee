/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What an EAL serving one process alone does not make (uet_eal_private.h
 * says why): its runtime folder, and the memfd behind its --no-huge
 * memory.
 *
 * Only in a static DPDK link (-Ddpdk_link=static): meson.build links every
 * program with -Wl,--wrap=eal_create_runtime_dir,--wrap=memfd_create. The
 * EAL calls eal_create_runtime_dir() from linux/eal.c (it lives in
 * unix/eal_filesystem.c, an object apart); with --no-shconf the folder's
 * paths (shared configuration, multi-process socket, fbarray files) are
 * never used, and rte_eal_get_runtime_dir() stays empty. memfd_create()
 * is the C library's: refused for the EAL's "nohuge" memory only, the EAL
 * maps private anonymous memory instead (its own fallback, logged at
 * debug level); every other caller (net_memif's regions) gets a memfd.
 * Without uet_eal_private_set(true) both are the EAL's and the C
 * library's own.
 */
#include <errno.h>
#include <string.h>

#include "uet_eal_private.h"

/* The name linux/eal_memory.c gives the memfd of its --no-huge memory. */
#define EAL_NOHUGE_MEMFD "nohuge"

int __real_eal_create_runtime_dir(void);
int __wrap_eal_create_runtime_dir(void);
int __real_memfd_create(const char *name, unsigned int flags);
int __wrap_memfd_create(const char *name, unsigned int flags);

int __wrap_eal_create_runtime_dir(void)
{
	if (uet_eal_private())
		return 0;
	return __real_eal_create_runtime_dir();
}

int __wrap_memfd_create(const char *name, unsigned int flags)
{
	if (uet_eal_private() && name != NULL &&
	    strcmp(name, EAL_NOHUGE_MEMFD) == 0) {
		errno = ENOSYS;
		return -1;
	}
	return __real_memfd_create(name, flags);
}
