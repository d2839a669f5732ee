/* SPDX-License-Identifier: BSD-3-Clause */
/* An EAL serving one process alone (lib/core/uet_eal_private.h, the
 * embedded run's): it makes no runtime folder, maps private memory, not a
 * memfd, starts no interrupt thread (an alarm is refused), sets up no
 * services, registers no trace point and writes no trace metadata, keeps
 * a small table of memzones, and works as any (memory from its heap, an mbuf
 * pool); other memfds are still made. Without it, the EAL makes them all as
 * before. */
/* rte_trace_point_lookup() is experimental in DPDK 22.11. */
#define ALLOW_EXPERIMENTAL_API
#include <check.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_errno.h>
#include <rte_memzone.h>
#include <rte_service.h>
#include <rte_trace_point.h>

#include "check_main.h"
#include "eal_test.h"
#include "uet_eal_private.h"

/* The folder the EAL would make for prefix (eal_create_runtime_dir()). */
static void runtime_dir_of(const char *prefix, char *buf, size_t len)
{
	const char *base = getuid() == 0 ? "/var/run"
			   : getenv("XDG_RUNTIME_DIR") != NULL
				   ? getenv("XDG_RUNTIME_DIR")
				   : "/tmp";

	snprintf(buf, len, "%s/dpdk/%s", base, prefix);
}

/* Whether the EAL's memory is the memfd it names "nohuge": its mapping
 * shows in /proc/self/maps as "/memfd:nohuge (deleted)". Its memory is
 * used first (a heap allocation), so that the mapping is in place. */
/* Threads of this process (/proc/self/task). */
static unsigned int process_threads(void)
{
	char line[256];
	unsigned int n = 0;
	FILE *f = fopen("/proc/self/status", "r");

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "Threads: %u", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* Bytes allocated in the EAL's heap (socket 0's, the only one). */
static size_t eal_heap_bytes(void)
{
	struct rte_malloc_socket_stats st;

	ck_assert_int_eq(rte_malloc_get_socket_stats(0, &st), 0);
	return st.heap_allocsz_bytes;
}

static void count_memzone(const struct rte_memzone *mz, void *arg)
{
	(void)mz;
	++*(unsigned int *)arg;
}

/* Memzones reserved until the EAL refuses one (at most max in all): how
 * many the EAL held then, those before included. */
static unsigned int memzones_held(unsigned int max)
{
	unsigned int n = 0;
	char name[RTE_MEMZONE_NAMESIZE];

	rte_memzone_walk(count_memzone, &n);
	for (; n < max; n++) {
		snprintf(name, sizeof(name), "uet_mz_%u", n);
		if (rte_memzone_reserve(name, 64, SOCKET_ID_ANY, 0) == NULL) {
			ck_assert_int_eq(rte_errno, ENOSPC);
			break;
		}
	}
	return n;
}

static void alarm_cb(void *arg)
{
	(void)arg;
}

static bool eal_memory_is_memfd(void)
{
	char line[512];
	bool found = false;
	void *p = rte_malloc(NULL, 64, 0);
	FILE *maps = fopen("/proc/self/maps", "r");

	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(maps);
	while (fgets(line, sizeof(line), maps) != NULL)
		if (strstr(line, "/memfd:nohuge") != NULL)
			found = true;
	fclose(maps);
	rte_free(p);
	return found;
}

START_TEST(test_eal_private_makes_no_runtime_folder_nor_memfd)
{
	char prefix[64], dir[PATH_MAX];
	struct stat st;
	int fd;

	snprintf(prefix, sizeof(prefix), "uetdrv_private_%d", (int)getpid());
	runtime_dir_of(prefix, dir, sizeof(dir));
	uet_eal_private_set(true);
	ck_assert_int_eq(uet_eal_init_sized(prefix, 1, 64), 0);
	/* Nothing in the EAL's heap yet: no service state (64 services on
	 * each possible lcore), which nothing here would use. */
	ck_assert_uint_eq(eal_heap_bytes(), 0);
	ck_assert_int_ne(stat(dir, &st), 0);
	ck_assert_str_eq(rte_eal_get_runtime_dir(), "");
	ck_assert(!eal_memory_is_memfd());
	/* The EAL works: a pool, its mbufs. */
	ck_assert_ptr_nonnull(uet_test_pool("private_pool", 512));
	/* No interrupt thread: the process is its one lcore; an alarm is
	 * refused, not lost. */
	ck_assert_uint_eq(process_threads(), 1);
	ck_assert_int_lt(rte_eal_alarm_set(1000000, alarm_cb, NULL), 0);
	/* The trace points were noted before main(), never registered. */
	ck_assert_ptr_null(rte_trace_point_lookup("lib.eal.generic.void"));
	/* Its table of memzones holds UET_EAL_PRIVATE_MEMZONES. */
	ck_assert_uint_eq(memzones_held(2 * UET_EAL_PRIVATE_MEMZONES),
			  UET_EAL_PRIVATE_MEMZONES);
	/* Another memfd is still one. */
	fd = memfd_create("uet_other", 0);
	ck_assert_int_ge(fd, 0);
	close(fd);
}
END_TEST

START_TEST(test_eal_shared_makes_its_runtime_folder_and_memfd)
{
	char prefix[64], dir[PATH_MAX];
	struct stat st;

	snprintf(prefix, sizeof(prefix), "uetdrv_shared_%d", (int)getpid());
	runtime_dir_of(prefix, dir, sizeof(dir));
	uet_eal_private_set(false);
	ck_assert_int_eq(uet_eal_init_sized(prefix, 1, 64), 0);
	ck_assert_int_eq(stat(dir, &st), 0);
	ck_assert(eal_memory_is_memfd());
	/* The interrupt thread runs the alarms. */
	ck_assert_uint_eq(process_threads(), 2);
	ck_assert_int_eq(rte_eal_alarm_set(1000000, alarm_cb, NULL), 0);
	ck_assert_int_ge(rte_eal_alarm_cancel(alarm_cb, NULL), 1);
	/* The service library is there (no service lcore without -s), its
	 * state in the EAL's heap. */
	ck_assert_int_eq(rte_service_lcore_count(), 0);
	ck_assert_uint_ge(eal_heap_bytes(), RTE_MAX_LCORE * 1024u);
	/* Its table of memzones is the EAL's own (RTE_MAX_MEMZONE). */
	ck_assert_uint_eq(memzones_held(2 * UET_EAL_PRIVATE_MEMZONES),
			  2 * UET_EAL_PRIVATE_MEMZONES);
	/* Its trace points are registered, off until a trace asks. */
	ck_assert_ptr_nonnull(rte_trace_point_lookup("lib.eal.generic.void"));
	ck_assert(!rte_trace_point_is_enabled(
		rte_trace_point_lookup("lib.eal.generic.void")));
	/* uet_eal_init_sized() removes the empty folder at exit. */
}
END_TEST

static Suite *eal_private_suite(void)
{
	Suite *s = suite_create("eal_private");
	TCase *tc = tcase_create("private");

	tcase_add_test(tc, test_eal_private_makes_no_runtime_folder_nor_memfd);
	tcase_add_test(tc, test_eal_shared_makes_its_runtime_folder_and_memfd);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN_FORKED(eal_private_suite)
