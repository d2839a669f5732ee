/* SPDX-License-Identifier: BSD-3-Clause */
/* The record tests' temporary folders (record_test_dir.h). */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <check.h>

#include "record_test_dir.h"

char *record_test_dir(const char *prefix)
{
	const char *t = getenv("TMPDIR");
	char *dir;

	ck_assert_int_gt(asprintf(&dir, "%s/%s-XXXXXX",
				  t != NULL && t[0] != '\0' ? t : "/tmp",
				  prefix),
			 0);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void record_test_dir_remove(char *dir)
{
	ck_assert_int_eq(nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS), 0);
	free(dir);
}
