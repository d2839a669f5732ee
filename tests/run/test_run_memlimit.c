/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app/common/run_memlimit.c: the memory a run may take, read from a made-up
 * /proc and /sys/fs/cgroup: MemAvailable alone; a v1 memory cgroup whose
 * parent leaves less room than itself; v2 with "max" at the leaf and a
 * number above it; the hybrid layout's unified mount; files that are not
 * there are no limit.
 */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check_main.h"
#include "run_memlimit.h"

#define MIB (UINT64_C(1) << 20)

static char root[64];

/* Write text to root/rel, making its folders. */
static void put(const char *rel, const char *text)
{
	char path[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		ck_assert(mkdir(path, 0755) == 0 || errno == EEXIST);
		*p = '/';
	}
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void fresh_root(void)
{
	snprintf(root, sizeof(root), "/tmp/uetmemlimit-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(root));
	/* 8 GiB available. */
	put("proc/meminfo", "MemTotal:       24000000 kB\n"
			    "MemFree:        10000000 kB\n"
			    "MemAvailable:    8388608 kB\n");
}

static void clean_root(void)
{
	ck_assert_int_eq(nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS), 0);
}

START_TEST(test_mem_available_without_cgroups)
{
	struct run_memlimit m;

	fresh_root();
	run_memlimit_read(root, &m);
	ck_assert_uint_eq(m.avail_bytes, 8192 * MIB);
	ck_assert_str_eq(m.avail_what, "the machine's MemAvailable");
	clean_root();
}
END_TEST

/* v1: the job's cgroup allows 1 GiB with 100 MiB used, its parent 600
 * MiB with 400 used: the parent's 200 MiB is the room. */
START_TEST(test_v1_the_tightest_level_of_the_path)
{
	struct run_memlimit m;

	fresh_root();
	put("proc/self/cgroup", "12:pids:/jobs/j1\n"
				"4:memory:/jobs/j1\n"
				"1:name=systemd:/\n"
				"0::/\n");
	put("sys/fs/cgroup/memory/jobs/j1/memory.limit_in_bytes",
	    "1073741824\n");
	put("sys/fs/cgroup/memory/jobs/j1/memory.usage_in_bytes",
	    "104857600\n");
	put("sys/fs/cgroup/memory/jobs/memory.limit_in_bytes", "629145600\n");
	put("sys/fs/cgroup/memory/jobs/memory.usage_in_bytes", "419430400\n");
	run_memlimit_read(root, &m);
	ck_assert_uint_eq(m.avail_bytes, 200 * MIB);
	ck_assert_str_eq(m.avail_what,
			 "the memory cgroup /jobs's memory.limit_in_bytes of "
			 "600 MiB, 400 MiB of it in use");
	clean_root();
}
END_TEST

/* v1's "no limit" (the largest page multiple of a long) is none. */
START_TEST(test_v1_unlimited_is_no_limit)
{
	struct run_memlimit m;

	fresh_root();
	put("proc/self/cgroup", "4:cpu,memory:/a\n");
	put("sys/fs/cgroup/memory/a/memory.limit_in_bytes",
	    "9223372036854771712\n");
	put("sys/fs/cgroup/memory/a/memory.usage_in_bytes", "1000\n");
	run_memlimit_read(root, &m);
	ck_assert_uint_eq(m.avail_bytes, 8192 * MIB);
	clean_root();
}
END_TEST

/* v2: "max" at the leaf, 300 MiB (12 used) at its parent; and the same
 * under the hybrid layout's unified mount. */
START_TEST(test_v2_max_is_none_and_the_parent_counts)
{
	static const char *const mounts[] = {"sys/fs/cgroup",
					     "sys/fs/cgroup/unified"};
	struct run_memlimit m;
	char rel[128];
	int i;

	for (i = 0; i < 2; i++) {
		fresh_root();
		put("proc/self/cgroup", "0::/user/run.scope\n");
		snprintf(rel, sizeof(rel), "%s/user/run.scope/memory.max",
			 mounts[i]);
		put(rel, "max\n");
		snprintf(rel, sizeof(rel), "%s/user/run.scope/memory.current",
			 mounts[i]);
		put(rel, "5000\n");
		snprintf(rel, sizeof(rel), "%s/user/memory.max", mounts[i]);
		put(rel, "314572800\n");
		snprintf(rel, sizeof(rel), "%s/user/memory.current", mounts[i]);
		put(rel, "12582912\n");
		run_memlimit_read(root, &m);
		ck_assert_uint_eq(m.avail_bytes, 288 * MIB);
		ck_assert_str_eq(m.avail_what,
				 "the memory cgroup /user's memory.max of 300 "
				 "MiB, 12 MiB of it in use");
		clean_root();
	}
}
END_TEST

/* A cgroup over its limit leaves nothing; cgroup files that are not
 * there (not mounted here) are no limit. */
START_TEST(test_full_cgroup_and_missing_files)
{
	struct run_memlimit m;

	fresh_root();
	put("proc/self/cgroup", "0::/full\n4:memory:/gone\n");
	put("sys/fs/cgroup/full/memory.max", "1048576\n");
	put("sys/fs/cgroup/full/memory.current", "2097152\n");
	run_memlimit_read(root, &m);
	ck_assert_uint_eq(m.avail_bytes, 0);
	clean_root();
	fresh_root();
	put("proc/self/cgroup", "4:memory:/gone\n");
	run_memlimit_read(root, &m);
	ck_assert_uint_eq(m.avail_bytes, 8192 * MIB);
	clean_root();
}
END_TEST

static Suite *memlimit_suite(void)
{
	Suite *s = suite_create("run_memlimit");
	TCase *tc = tcase_create("limits");

	tcase_add_test(tc, test_mem_available_without_cgroups);
	tcase_add_test(tc, test_v1_the_tightest_level_of_the_path);
	tcase_add_test(tc, test_v1_unlimited_is_no_limit);
	tcase_add_test(tc, test_v2_max_is_none_and_the_parent_counts);
	tcase_add_test(tc, test_full_cgroup_and_missing_files);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(memlimit_suite)
