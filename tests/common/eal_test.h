/* SPDX-License-Identifier: BSD-3-Clause */
/**
 * @file
 * EAL and an mbuf pool for a Check test that starts DPDK (drivers, fabric,
 * sync, nic). rte_eal_init runs once a process, so these tests run forked
 * and call uet_test_eal() in each test. Include only with uet_drivers_dep.
 */

#ifndef UET_EAL_TEST_H
#define UET_EAL_TEST_H

#include <stdio.h>
#include <unistd.h>

#include <check.h>
#include <rte_mempool.h>

#include "uet_port.h"

/**
 * Start EAL in this test process (uet_eal_init_default), or fail the test.
 *
 * @param group
 *   The suite's family ("uetdrv", "uetfab", ...).
 * @param what
 *   The test's short name.
 * The file prefix is group_what_pid, so concurrent tests never share
 * runtime files.
 */
static inline void uet_test_eal(const char *group, const char *what)
{
	char prefix[64];
	int ret;

	snprintf(prefix, sizeof(prefix), "%s_%s_%d", group, what,
		 (int)getpid());
	ret = uet_eal_init_default(prefix);
	ck_assert_msg(ret == 0, "EAL init (%s) failed: %d", prefix, ret);
}

/**
 * Create the test's mbuf pool (uet_port_pool_create), or fail the test.
 *
 * @param name
 *   Pool name, unique in the process.
 * @param n_mbufs
 *   Mbufs in the pool.
 * @return
 *   The pool.
 */
static inline struct rte_mempool *uet_test_pool(const char *name,
						unsigned int n_mbufs)
{
	struct rte_mempool *mp;

	mp = uet_port_pool_create(name, n_mbufs, SOCKET_ID_ANY);
	ck_assert_ptr_nonnull(mp);
	return mp;
}

#endif /* UET_EAL_TEST_H */
