/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/record: uet_record_order (record_order.c) puts the closed records in
 * their canonical row order: the streamed ones by (time_ps, nic as a
 * number), flows.csv by msg_id, stably; header first; a last row cut
 * short stays last; absent files are no error. uet_record_close_in_order
 * does the same to the files it wrote, sorting only those whose rows it
 * did not write in order.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "record_test_dir.h"
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

static void expect_in(const char *d, const char *name, const char *want)
{
	char path[256], got[1024];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", d, name);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(got, 1, sizeof(got) - 1, f);
	fclose(f);
	got[n] = '\0';
	ck_assert_str_eq(got, want);
}

/* expect_in() of the test's own folder. */
static void expect(const char *name, const char *want)
{
	expect_in(dir, name, want);
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

/* The inode of dir/name (which must exist). */
static ino_t inode_of(const char *d, const char *name)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", d, name);
	ck_assert_int_eq(stat(path, &st), 0);
	return st.st_ino;
}

#define EV_HEADER "time_ps,nic,pdc,peer,msg_id,bytes,event\n"

/*
 * The writer's own files: rows written out of order (directly, and
 * between two windows of views merged in order each) are sorted at close
 * as uet_record_order() would; a file written in order is the file as
 * written (its NAME.partial renamed, not a sorted copy).
 */
START_TEST(test_close_in_order_sorts_only_what_was_written_out_of_order)
{
	char *d = record_test_dir("uetorder");
	struct uet_record_conf c = {
		.out_dir = d, .events = true, .flows = true, .cc_trace = true};
	struct uet_record *rec, *views[2];
	struct uet_event_row ev = {
		.pdc = 1, .peer_ip = 0x0a000009, .kind = UET_EV_MSG_POSTED};
	struct uet_flow_row fl = {.src_ip = 0x0a000001, .dst_ip = 0x0a000002};
	ino_t events_ino, cc_ino;

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_view_create(&views[0], rec), 0);
	ck_assert_int_eq(uet_record_view_create(&views[1], rec), 0);
	/* Window 1: 10.0.0.2 at 300, 10.0.0.1 at 100 (merged: 100, 300). */
	ev.nic_ip = 0x0a000002;
	ev.time_ps = 300;
	ev.msg_id = 1;
	ck_assert_int_eq(uet_record_event(views[0], &ev), 0);
	ev.nic_ip = 0x0a000001;
	ev.time_ps = 100;
	ev.msg_id = 2;
	ck_assert_int_eq(uet_record_event(views[1], &ev), 0);
	ck_assert_int_eq(uet_record_views_flush(views, 2), 0);
	/* Window 2 starts before window 1's last row. */
	ev.time_ps = 200;
	ev.msg_id = 3;
	ck_assert_int_eq(uet_record_event(views[1], &ev), 0);
	ck_assert_int_eq(uet_record_views_flush(views, 2), 0);
	/* flows.csv straight to the file, msg_id 9 then 2. */
	fl.msg_id = 9;
	ck_assert_int_eq(uet_record_flow(rec, &fl), 0);
	fl.msg_id = 2;
	ck_assert_int_eq(uet_record_flow(rec, &fl), 0);
	ck_assert_int_eq(uet_record_close(views[0]), 0);
	ck_assert_int_eq(uet_record_close(views[1]), 0);
	events_ino = inode_of(d, "uet-events.csv.partial");
	cc_ino = inode_of(d, "uet-cc-trace.csv.partial");
	ck_assert_int_eq(uet_record_close_in_order(rec), 0);
	expect_in(d, "uet-events.csv",
		  EV_HEADER "100,10.0.0.1,1,10.0.0.9,2,0,msg_posted\n"
			    "200,10.0.0.1,1,10.0.0.9,3,0,msg_posted\n"
			    "300,10.0.0.2,1,10.0.0.9,1,0,msg_posted\n");
	ck_assert(inode_of(d, "uet-events.csv") != events_ino);
	/* Only its header: in order, left as written. */
	ck_assert(inode_of(d, "uet-cc-trace.csv") == cc_ino);
	expect_in(d, "flows.csv",
		  "msg_id,src,dst,src_pdc,dst_pdc,bytes,packets,posted_ps,"
		  "sent_ps,arrived_ps,completed_ps,fct_ps,retransmits,trims,"
		  "nacks,timeouts\n"
		  "2,10.0.0.1,10.0.0.2,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
		  "9,10.0.0.1,10.0.0.2,0,0,0,0,0,0,0,0,0,0,0,0,0\n");
	record_test_dir_remove(d);
}
END_TEST

/* Windows merged in order, one after the other: the file at close is the
 * one written (no copy), rows of equal keys as written. */
START_TEST(test_close_in_order_leaves_a_file_written_in_order)
{
	char *d = record_test_dir("uetorder");
	struct uet_record_conf c = {.out_dir = d, .events = true};
	struct uet_record *rec, *views[2];
	struct uet_event_row ev = {
		.pdc = 1, .peer_ip = 0x0a000009, .kind = UET_EV_MSG_SENT};
	ino_t ino;

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_view_create(&views[0], rec), 0);
	ck_assert_int_eq(uet_record_view_create(&views[1], rec), 0);
	ev.nic_ip = 0x0a000002;
	ev.time_ps = 100;
	ck_assert_int_eq(uet_record_event(views[0], &ev), 0);
	ck_assert_int_eq(uet_record_views_flush(views, 2), 0);
	ev.nic_ip = 0x0a000001;
	ev.time_ps = 200;
	ck_assert_int_eq(uet_record_event(views[1], &ev), 0);
	ck_assert_int_eq(uet_record_views_flush(views, 2), 0);
	/* What the views hold at close goes straight in (two rows of one
	 * key, as written). */
	ev.nic_ip = 0x0a000003;
	ck_assert_int_eq(uet_record_event(views[0], &ev), 0);
	ev.msg_id = 1;
	ck_assert_int_eq(uet_record_event(views[0], &ev), 0);
	ck_assert_int_eq(uet_record_close(views[0]), 0);
	ck_assert_int_eq(uet_record_close(views[1]), 0);
	ino = inode_of(d, "uet-events.csv.partial");
	ck_assert_int_eq(uet_record_close_in_order(rec), 0);
	ck_assert(inode_of(d, "uet-events.csv") == ino);
	expect_in(d, "uet-events.csv",
		  EV_HEADER "100,10.0.0.2,1,10.0.0.9,0,0,msg_sent\n"
			    "200,10.0.0.1,1,10.0.0.9,0,0,msg_sent\n"
			    "200,10.0.0.3,1,10.0.0.9,0,0,msg_sent\n"
			    "200,10.0.0.3,1,10.0.0.9,1,0,msg_sent\n");
	record_test_dir_remove(d);
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
	tcase_add_test(
		tc,
		test_close_in_order_sorts_only_what_was_written_out_of_order);
	tcase_add_test(tc, test_close_in_order_leaves_a_file_written_in_order);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(record_order_suite)
