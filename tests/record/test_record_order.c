/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/record: uet_record_order (record_order.c) puts the closed records in
 * their canonical row order: the streamed ones by (time_ps, nic as a
 * number), flows.csv by msg_id, stably; header first; a last row cut
 * short stays last; absent files are no error.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "uet_record.h"

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void expect(const char *name, const char *want)
{
	char path[128], got[1024];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(got, 1, sizeof(got) - 1, f);
	fclose(f);
	got[n] = '\0';
	ck_assert_str_eq(got, want);
}

static void fresh_dir(void)
{
	snprintf(dir, sizeof(dir), "/tmp/uetorder-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void clean_dir(const char *const *names, int n)
{
	char path[128];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	ck_assert_int_eq(rmdir(dir), 0);
}

/* Time first, then the NIC as a number (10.0.0.10 after 10.0.0.9, which
 * text order would not give); rows equal in both keep their order. */
START_TEST(test_streamed_rows_by_time_then_nic_stably)
{
	static const char *const names[] = {"uet-events.csv",
					    "uet-monitor.csv"};

	fresh_dir();
	put("uet-events.csv", "time_ps,nic,what\n"
			      "500,10.0.0.10,a\n"
			      "500,10.0.0.9,b\n"
			      "30,10.0.0.1,c\n"
			      "500,10.0.0.9,d\n"
			      "7,10.0.1.1,e\n"
			      "7,10.0.0.255,f\n");
	put("uet-monitor.csv", "time_ps,nic,pdc\n");
	ck_assert_int_eq(uet_record_order(dir), 0);
	expect("uet-events.csv", "time_ps,nic,what\n"
				 "7,10.0.0.255,f\n"
				 "7,10.0.1.1,e\n"
				 "30,10.0.0.1,c\n"
				 "500,10.0.0.9,b\n"
				 "500,10.0.0.9,d\n"
				 "500,10.0.0.10,a\n");
	expect("uet-monitor.csv", "time_ps,nic,pdc\n");
	/* Already in order: a second pass changes nothing. */
	ck_assert_int_eq(uet_record_order(dir), 0);
	expect("uet-events.csv", "time_ps,nic,what\n"
				 "7,10.0.0.255,f\n"
				 "7,10.0.1.1,e\n"
				 "30,10.0.0.1,c\n"
				 "500,10.0.0.9,b\n"
				 "500,10.0.0.9,d\n"
				 "500,10.0.0.10,a\n");
	clean_dir(names, 2);
}
END_TEST

/* flows.csv by msg_id as a number; a cut last row stays last. */
START_TEST(test_flows_by_msg_id_and_a_cut_row_stays_last)
{
	static const char *const names[] = {"flows.csv", "uet-cc-trace.csv"};

	fresh_dir();
	put("flows.csv", "msg_id,src\n10,a\n9,b\n2,c\n9,d\n");
	put("uet-cc-trace.csv",
	    "time_ps,nic,peer\n9,1.0.0.2,x\n8,1.0.0.1,y\n4");
	ck_assert_int_eq(uet_record_order(dir), 0);
	expect("flows.csv", "msg_id,src\n2,c\n9,b\n9,d\n10,a\n");
	expect("uet-cc-trace.csv",
	       "time_ps,nic,peer\n8,1.0.0.1,y\n9,1.0.0.2,x\n4");
	clean_dir(names, 2);
}
END_TEST

/* A file whose rows are in order already is read through and left as it
 * is (the same file, not rewritten), even with equal keys and a cut last
 * row; one row out of order anywhere sorts it. */
START_TEST(test_a_file_in_order_is_left_as_it_is)
{
	static const char *const names[] = {"uet-events.csv",
					    "uet-transport-stats.csv"};
	const char *in_order = "time_ps,nic\n7,10.0.0.255\n7,10.0.1.1\n"
			       "7,10.0.1.1\n30,10.0.0.1\n500,10.0.0.9\n5";
	char path[128];
	struct stat before, after;

	fresh_dir();
	put("uet-events.csv", in_order);
	put("uet-transport-stats.csv",
	    "time_ps,nic\n7,10.0.0.1\n30,10.0.0.1\n20,10.0.0.2\n");
	snprintf(path, sizeof(path), "%s/uet-events.csv", dir);
	ck_assert_int_eq(stat(path, &before), 0);
	ck_assert_int_eq(uet_record_order(dir), 0);
	ck_assert_int_eq(stat(path, &after), 0);
	ck_assert_uint_eq(before.st_ino, after.st_ino);
	expect("uet-events.csv", in_order);
	expect("uet-transport-stats.csv",
	       "time_ps,nic\n7,10.0.0.1\n20,10.0.0.2\n30,10.0.0.1\n");
	clean_dir(names, 2);
}
END_TEST

START_TEST(test_absent_files_are_no_error)
{
	fresh_dir();
	ck_assert_int_eq(uet_record_order(dir), 0);
	clean_dir(NULL, 0);
}
END_TEST

static Suite *record_order_suite(void)
{
	Suite *s = suite_create("record_order");
	TCase *tc = tcase_create("order");

	tcase_add_test(tc, test_streamed_rows_by_time_then_nic_stably);
	tcase_add_test(tc, test_flows_by_msg_id_and_a_cut_row_stays_last);
	tcase_add_test(tc, test_a_file_in_order_is_left_as_it_is);
	tcase_add_test(tc, test_absent_files_are_no_error);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(record_order_suite)
