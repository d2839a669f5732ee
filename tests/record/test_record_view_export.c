/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A view's rows handed to another process's view of its records
 * (uet_record_view_export/import: uet-emu-mpi's ranks send rank 0 their
 * NICs' rows each window): the rows reach the files as if their writer
 * had written them there, byte for byte.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "record_test_dir.h"
#include "uet_record.h"

#define IP(a, b, c, d)                                                         \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 |      \
	 (uint32_t)(d))

static char *slurp(const char *dir, const char *name)
{
	char *p, *buf;
	FILE *f;
	long n;

	ck_assert_int_gt(asprintf(&p, "%s/%s", dir, name), 0);
	f = fopen(p, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	free(p);
	return buf;
}

static struct uet_record_conf conf_of(const char *dir)
{
	struct uet_record_conf c = {
		.out_dir = dir,
		.events = true,
		.flows = true,
	};
	return c;
}

/* Two event rows and a flow row of NIC 10.0.0.2. */
static void write_rows(struct uet_record *v)
{
	struct uet_event_row e = {
		.nic_ip = IP(10, 0, 0, 2),
		.pdc = 1,
		.peer_ip = IP(10, 0, 0, 9),
		.kind = UET_EV_MSG_POSTED,
	};
	struct uet_flow_row f = {
		.msg_id = 3, .posted_ps = 100, .completed_ps = 900};

	e.time_ps = 100;
	e.msg_id = 3;
	ck_assert_int_eq(uet_record_event(v, &e), 0);
	e.time_ps = 250;
	e.msg_id = 4;
	ck_assert_int_eq(uet_record_event(v, &e), 0);
	ck_assert_int_eq(uet_record_flow(v, &f), 0);
}

/*
 * Rows written in a view of records A, exported and imported into a view
 * of records B, give B the files A gets from the same rows written there;
 * the exported view is empty after.
 */
START_TEST(test_export_import_same_files)
{
	char *da = record_test_dir("uetrecx"), *db = record_test_dir("uetrecx");
	struct uet_record_conf ca = conf_of(da), cb = conf_of(db);
	struct uet_record *a, *b, *va, *vb;
	uint8_t *block = NULL;
	size_t len = 0, cap = 0, used = 0;
	static const char *const names[] = {"uet-events.csv", "flows.csv"};
	unsigned int i;

	ck_assert_int_eq(uet_record_open(&a, &ca), 0);
	ck_assert_int_eq(uet_record_open(&b, &cb), 0);
	ck_assert_int_eq(uet_record_view_create(&va, a), 0);
	ck_assert_int_eq(uet_record_view_create(&vb, b), 0);
	ck_assert_uint_eq(uet_record_view_bytes(va), 0);
	write_rows(va);
	ck_assert_uint_gt(uet_record_view_bytes(va), 0);
	ck_assert_int_eq(uet_record_view_export(va, &block, &len, &cap), 0);
	ck_assert_uint_eq(uet_record_view_bytes(va), 0);
	ck_assert_int_eq(uet_record_view_import(vb, block, len, &used), 0);
	ck_assert_uint_eq(used, len);
	/* A writes the same rows itself. */
	write_rows(va);
	ck_assert_int_eq(uet_record_close(va), 0);
	ck_assert_int_eq(uet_record_close(vb), 0);
	ck_assert_int_eq(uet_record_close(a), 0);
	ck_assert_int_eq(uet_record_close(b), 0);
	for (i = 0; i < 2; i++) {
		char *x = slurp(da, names[i]), *y = slurp(db, names[i]);

		ck_assert_str_eq(x, y);
		free(x);
		free(y);
	}
	{
		char *ev = slurp(db, "uet-events.csv");

		ck_assert_str_eq(ev,
				 "time_ps,nic,pdc,peer,msg_id,bytes,event\n"
				 "100,10.0.0.2,1,10.0.0.9,3,0,msg_posted\n"
				 "250,10.0.0.2,1,10.0.0.9,4,0,msg_posted\n");
		free(ev);
	}
	free(block);
	record_test_dir_remove(da);
	record_test_dir_remove(db);
}
END_TEST

/* A block cut short, or records that are not a view, are refused, and the
 * view takes none of a refused block's rows (its close writes none). */
START_TEST(test_import_refuses_short_block)
{
	char *d = record_test_dir("uetrecx");
	struct uet_record_conf c = conf_of(d);
	struct uet_record *r, *v, *w;
	uint8_t *block = NULL;
	size_t len = 0, cap = 0, used = 0;

	ck_assert_int_eq(uet_record_open(&r, &c), 0);
	ck_assert_int_eq(uet_record_view_create(&v, r), 0);
	ck_assert_int_eq(uet_record_view_create(&w, r), 0);
	write_rows(v);
	ck_assert_int_eq(uet_record_view_export(v, &block, &len, &cap), 0);
	ck_assert_int_eq(uet_record_view_import(w, block, len - 1, &used),
			 -EBADMSG);
	ck_assert_int_eq(uet_record_view_import(w, block, 3, &used), -EBADMSG);
	ck_assert_uint_eq(uet_record_view_bytes(w), 0);
	ck_assert_int_eq(uet_record_view_import(r, block, len, &used), -EINVAL);
	ck_assert_int_eq(uet_record_view_export(r, &block, &len, &cap),
			 -EINVAL);
	ck_assert_int_eq(uet_record_close(v), 0);
	ck_assert_int_eq(uet_record_close(w), 0);
	ck_assert_int_eq(uet_record_close(r), 0);
	{
		char *ev = slurp(d, "uet-events.csv");

		ck_assert_str_eq(ev,
				 "time_ps,nic,pdc,peer,msg_id,bytes,event\n");
		free(ev);
	}
	free(block);
	record_test_dir_remove(d);
}
END_TEST

static Suite *record_view_export_suite(void)
{
	Suite *s = suite_create("record_view_export");
	TCase *tc = tcase_create("export");

	tcase_add_test(tc, test_export_import_same_files);
	tcase_add_test(tc, test_import_refuses_short_block);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(record_view_export_suite)
