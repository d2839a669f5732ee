/* SPDX-License-Identifier: BSD-3-Clause */
/* Output files renamed whole (uet_outfile.h): rows held in a buffer that
 * starts small and grows to the size asked for reach NAME.partial only
 * when that size is full, each write ending on a row; a row longer than
 * the buffer goes at once; close renames to NAME. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "uet_outfile.h"

static char dir[64];

static void fresh_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/uetoutfile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* Bytes in dir/name, -1 when it is not there. */
static long size_of(const char *name)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* A row of n bytes: n - 1 copies of c and a newline. */
static char *row(size_t n, char c)
{
	char *r = malloc(n);

	ck_assert_ptr_nonnull(r);
	memset(r, c, n - 1);
	r[n - 1] = '\n';
	return r;
}

START_TEST(test_rows_held_until_the_whole_buffer_is_full)
{
	struct uet_outfile o;
	char path[128];
	char *a = row(300000, 'a'), *big = row(1100000, 'b');
	int i;

	fresh_dir();
	snprintf(path, sizeof(path), "%s/rows.csv", dir);
	ck_assert_int_eq(uet_outfile_open(&o, path), 0);
	ck_assert_int_eq(uet_outfile_rows_buffer(&o, 1u << 20), 0);
	/* Three rows of 300,000 bytes fit 1 MiB: none written yet, though
	 * the buffer grew past its first size to hold them. */
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(uet_outfile_put_rows(&o, a, 300000), 0);
	ck_assert_int_eq(size_of("rows.csv.partial"), 0);
	ck_assert_uint_eq(o.rows_len, 900000);
	/* A fourth would not: the three go out, whole, and it is held. */
	ck_assert_int_eq(uet_outfile_put_rows(&o, a, 300000), 0);
	ck_assert_int_eq(size_of("rows.csv.partial"), 900000);
	/* Longer than the buffer: what is held, then it, at once. */
	ck_assert_int_eq(uet_outfile_put_rows(&o, big, 1100000), 0);
	ck_assert_int_eq(size_of("rows.csv.partial"), 2300000);
	ck_assert_uint_eq(o.rows_len, 0);
	ck_assert_int_eq(uet_outfile_put_rows(&o, a, 10), 0);
	ck_assert_int_eq(uet_outfile_close(&o, 0), 0);
	ck_assert_int_eq(size_of("rows.csv.partial"), -1);
	ck_assert_int_eq(size_of("rows.csv"), 2300010);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
	free(a);
	free(big);
}
END_TEST

/* A small buffer asked for is the buffer: rows go out as it fills. */
START_TEST(test_a_small_buffer_fills_at_its_size)
{
	struct uet_outfile o;
	char path[128];
	char *a = row(100, 'a');
	int i;

	fresh_dir();
	snprintf(path, sizeof(path), "%s/small.csv", dir);
	ck_assert_int_eq(uet_outfile_open(&o, path), 0);
	ck_assert_int_eq(uet_outfile_rows_buffer(&o, 250), 0);
	ck_assert_int_eq(uet_outfile_rows_buffer(&o, 0), -EINVAL);
	ck_assert_int_eq(uet_outfile_rows_buffer(&o, 250), 0);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(uet_outfile_put_rows(&o, a, 100), 0);
	ck_assert_int_eq(size_of("small.csv.partial"), 200);
	ck_assert_int_eq(uet_outfile_close(&o, 0), 0);
	ck_assert_int_eq(size_of("small.csv"), 300);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
	free(a);
}
END_TEST

static Suite *outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("rows");

	tcase_add_test(tc, test_rows_held_until_the_whole_buffer_is_full);
	tcase_add_test(tc, test_a_small_buffer_fills_at_its_size);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(outfile_suite)
