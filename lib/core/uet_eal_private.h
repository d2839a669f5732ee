/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An EAL that serves one process sharing nothing with any other: uet-emu's
 * embedded run with its default EAL arguments (--no-shconf, no telemetry,
 * ring ports only). Such an EAL need not make what only other processes
 * would use, and in a static DPDK link (uet_eal_private_wrap.c) it does
 * not:
 *
 * - its runtime folder (/var/run/dpdk/<prefix>): with --no-shconf nothing
 *   is ever put in it (the EAL's own comment says none is made), yet DPDK
 *   22.11 makes it, and the process removes it at exit (uet_port.h,
 *   uet_eal_tidy_at_exit()): two metadata writes to the file system, each
 *   waiting on its journal when other processes write;
 * - the memfd behind its --no-huge memory: the EAL maps a memfd shared so
 *   that a vhost-user back end in another process can map it too. Private
 *   anonymous memory faults in and is freed at exit for less (the pages
 *   of a shared memfd go through the page cache): 11% of a 16-host
 *   one-flow run's CPU time;
 * - VFIO's tables, for a run that has no device;
 * - the search for DPDK's plugin folder, for a program that links DPDK
 *   statically and names no plugin;
 * - the interrupt thread, for a run that registers no interrupt or alarm
 *   callback (rte_intr_callback_register() then refuses);
 * - the service library's per-lcore state, for a run with no service (no
 *   PMD, no event device): the rte_service_*() functions are not to be
 *   called then;
 * - the trace's CTF metadata and its trace points' registration (made
 *   before main(), field descriptions and all, for a trace that is never
 *   started), for a run that asks for no trace.
 *
 * - room for thousands of memzones, for a run that reserves three: its
 *   table holds UET_EAL_PRIVATE_MEMZONES.
 *
 * Set before rte_eal_init(); it changes nothing after.
 */
#ifndef UET_EAL_PRIVATE_H
#define UET_EAL_PRIVATE_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The memzones a private EAL holds (an embedded run reserves three). */
#define UET_EAL_PRIVATE_MEMZONES 64u

/** Whether the EAL about to start serves this process alone. */
void uet_eal_private_set(bool private_eal);

/** What uet_eal_private_set() said (false if it was not called). */
bool uet_eal_private(void);

#ifdef __cplusplus
}
#endif

#endif /* UET_EAL_PRIVATE_H */
