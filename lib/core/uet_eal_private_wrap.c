/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What an EAL serving one process alone does not make (uet_eal_private.h
 * says why): its runtime folder, the memfd behind its --no-huge memory,
 * VFIO's tables, and the search for its plugin folder.
 *
 * Only in a static DPDK link (-Ddpdk_link=static): meson.build links every
 * program with -Wl,--wrap= for each function below; the EAL calls each
 * from linux/eal.c, and each lives in an object apart.
 * - eal_create_runtime_dir() (unix/eal_filesystem.c): with --no-shconf
 *   the folder's paths (shared configuration, multi-process socket,
 *   fbarray files) are never used, and rte_eal_get_runtime_dir() stays
 *   empty.
 * - memfd_create() is the C library's: refused for the EAL's "nohuge"
 *   memory only, the EAL maps private anonymous memory instead (its own
 *   fallback, logged at debug level); every other caller (net_memif's
 *   regions) gets a memfd.
 * - rte_vfio_enable() (linux/eal_vfio.c) fills VFIO's tables of 64
 *   containers of 64 groups (a hundred pages of static memory faulted in,
 *   1.7% of a 16-host run's CPU) before it finds the module absent; a run
 *   with no device has nothing for VFIO, as when the module is not loaded.
 * - eal_plugins_init() (common/eal_common_options.c) asks the dynamic
 *   loader for librte_eal.so under three names, each a walk of the library
 *   path (1.1%), to learn that DPDK is linked statically, and loads the
 *   plugins -d names: the EAL arguments of a private EAL name none.
 * - rte_eal_intr_init() (linux/eal_interrupts.c) starts the EAL's
 *   interrupt thread, which waits for interrupt and alarm callbacks that
 *   an embedded run never registers (no device, no alarm, no hotplug).
 *   The thread costs its start (the main thread sleeps until it runs)
 *   and the exit (the process ends when its last thread has run to its
 *   end): on a loaded machine each is a wait for a CPU. Without it,
 *   rte_intr_callback_register() (called by linux/eal_alarm.c and
 *   linux/eal_dev.c) refuses with -ENOTSUP rather than reach the thread's
 *   pipe, which was never made, and so does rte_eal_alarm_set(), whose
 *   alarm would never go off (it arms its timer even when it cannot
 *   register the callback, to register it later).
 * - rte_service_init() (common/rte_service.c) zeroes the state of 64
 *   services on each of 128 possible lcores (140 KB, 35 page faults of a
 *   16-host run's 330), and rte_service_start_with_defaults() then reads
 *   it all to find no service lcore: services are a PMD's or an event
 *   device's, and an embedded run has neither. The library stays
 *   uninitialised (rte_service_finalize() at cleanup sees so); the start
 *   says -ENOTSUP, as the EAL's own does without service lcores.
 * - eal_trace_init() (common/eal_common_trace.c) writes the CTF metadata
 *   of every trace point (some seventy reallocations of a growing text)
 *   for a trace no EAL argument of a private EAL asks for.
 * - __rte_trace_point_register() (common/eal_common_trace.c), called by a
 *   constructor for each of the EAL's and the mempool library's trace
 *   points before main(), builds each point's field descriptions (an
 *   asprintf() a field: 370,000 instructions and a dozen page faults of
 *   a start). Its calls are only noted here, and made when the EAL's trace
 *   starts, in eal_trace_init(): a private EAL, whose trace is not
 *   started, registers none, and its trace points keep a handle of 0,
 *   which is off (their emitters test the handle's enable bit). Another
 *   EAL registers them all, in the constructors' order, before its trace
 *   starts, as it would have.
 * - rte_fbarray_init() (common/eal_common_fbarray.c) for the memzone
 *   table (common/eal_common_memzone.c) maps and zeroes room for
 *   RTE_MAX_MEMZONE (2,560 in Debian's build) memzones of 72 bytes: 46
 *   pages faulted in, a seventh of a 16-host run's page faults, for the
 *   three an embedded run reserves (its two pools' headers and the mbuf
 *   dynamic fields' table). A private EAL's table holds
 *   UET_EAL_PRIVATE_MEMZONES; one more is refused by the EAL ("exceeds
 *   RTE_MAX_MEMZONE", rte_errno ENOSPC), as at the table's full size.
 * Without uet_eal_private_set(true) each is the EAL's and the C library's
 * own.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "uet_eal_private.h"

/* The name linux/eal_memory.c gives the memfd of its --no-huge memory. */
#define EAL_NOHUGE_MEMFD "nohuge"
/* The name common/eal_common_memzone.c gives its table of memzones. */
#define EAL_MEMZONE_TABLE "memzone"

int __real_eal_create_runtime_dir(void);
int __wrap_eal_create_runtime_dir(void);
int __real_memfd_create(const char *name, unsigned int flags);
int __wrap_memfd_create(const char *name, unsigned int flags);
int __real_rte_vfio_enable(const char *modname);
int __wrap_rte_vfio_enable(const char *modname);
int __real_eal_plugins_init(void);
int __wrap_eal_plugins_init(void);
int __real_rte_eal_intr_init(void);
int __wrap_rte_eal_intr_init(void);
int __real_rte_service_init(void);
int __wrap_rte_service_init(void);
int __real_rte_service_start_with_defaults(void);
int __wrap_rte_service_start_with_defaults(void);
int __real_eal_trace_init(void);
int __wrap_eal_trace_init(void);
/* rte_fbarray.h's, with the array left opaque. */
int __real_rte_fbarray_init(void *arr, const char *name, unsigned int len,
			    unsigned int elt_sz);
int __wrap_rte_fbarray_init(void *arr, const char *name, unsigned int len,
			    unsigned int elt_sz);
/* rte_trace_point.h's, with rte_trace_point_t as what it is. */
int __real___rte_trace_point_register(uint64_t *handle, const char *name,
				      void (*register_fn)(void));
int __wrap___rte_trace_point_register(uint64_t *handle, const char *name,
				      void (*register_fn)(void));
/* rte_interrupts.h's, with the handle and callback types left opaque:
 * this file uses no DPDK header. */
int __real_rte_intr_callback_register(const void *intr_handle, void *cb,
				      void *cb_arg);
int __wrap_rte_intr_callback_register(const void *intr_handle, void *cb,
				      void *cb_arg);
int __real_rte_eal_alarm_set(uint64_t us, void *cb, void *cb_arg);
int __wrap_rte_eal_alarm_set(uint64_t us, void *cb, void *cb_arg);

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

int __wrap_rte_fbarray_init(void *arr, const char *name, unsigned int len,
			    unsigned int elt_sz)
{
	if (uet_eal_private() && name != NULL &&
	    strcmp(name, EAL_MEMZONE_TABLE) == 0 &&
	    len > UET_EAL_PRIVATE_MEMZONES)
		len = UET_EAL_PRIVATE_MEMZONES;
	return __real_rte_fbarray_init(arr, name, len, elt_sz);
}

int __wrap_rte_vfio_enable(const char *modname)
{
	if (uet_eal_private())
		return 0;
	return __real_rte_vfio_enable(modname);
}

int __wrap_eal_plugins_init(void)
{
	if (uet_eal_private())
		return 0;
	return __real_eal_plugins_init();
}

/* Whether the EAL's interrupt thread was left out: set by
 * __wrap_rte_eal_intr_init() during rte_eal_init(), before any other
 * thread exists. */
static bool eal_no_intr_thread;

int __wrap_rte_eal_intr_init(void)
{
	if (uet_eal_private()) {
		eal_no_intr_thread = true;
		return 0;
	}
	return __real_rte_eal_intr_init();
}

int __wrap_rte_intr_callback_register(const void *intr_handle, void *cb,
				      void *cb_arg)
{
	if (eal_no_intr_thread)
		return -ENOTSUP;
	return __real_rte_intr_callback_register(intr_handle, cb, cb_arg);
}

int __wrap_rte_eal_alarm_set(uint64_t us, void *cb, void *cb_arg)
{
	if (eal_no_intr_thread)
		return -ENOTSUP;
	return __real_rte_eal_alarm_set(us, cb, cb_arg);
}

/* Whether the service library was left uninitialised: set by
 * __wrap_rte_service_init() during rte_eal_init(). */
static bool eal_no_services;

int __wrap_rte_service_init(void)
{
	if (uet_eal_private()) {
		eal_no_services = true;
		return 0;
	}
	return __real_rte_service_init();
}

int __wrap_rte_service_start_with_defaults(void)
{
	if (eal_no_services)
		return -ENOTSUP;
	return __real_rte_service_start_with_defaults();
}

/* The trace points noted before the EAL's trace starts (a program links
 * about seventy; past this many they are registered as they come). */
#define EAL_TRACE_POINTS_NOTED_MAX 1024u

static struct eal_trace_point_noted {
	uint64_t *handle;
	const char *name;
	void (*register_fn)(void);
} eal_trace_noted[EAL_TRACE_POINTS_NOTED_MAX];
static unsigned int eal_trace_n_noted;
/* Set once the noted points are registered: the later ones go straight
 * to the EAL. */
static bool eal_trace_registering;

int __wrap___rte_trace_point_register(uint64_t *handle, const char *name,
				      void (*register_fn)(void))
{
	struct eal_trace_point_noted *p;

	if (eal_trace_registering ||
	    eal_trace_n_noted == EAL_TRACE_POINTS_NOTED_MAX)
		return __real___rte_trace_point_register(handle, name,
							 register_fn);
	p = &eal_trace_noted[eal_trace_n_noted++];
	p->handle = handle;
	p->name = name;
	p->register_fn = register_fn;
	return 0;
}

int __wrap_eal_trace_init(void)
{
	unsigned int i;

	if (uet_eal_private())
		return 0;
	eal_trace_registering = true;
	for (i = 0; i < eal_trace_n_noted; i++) {
		const struct eal_trace_point_noted *p = &eal_trace_noted[i];

		if (__real___rte_trace_point_register(p->handle, p->name,
						      p->register_fn) < 0)
			return -1;
	}
	eal_trace_n_noted = 0;
	return __real_eal_trace_init();
}
