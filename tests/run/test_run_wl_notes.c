/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * app/common/run_workload_notes.c: a program's completions over ports, on
 * a fake workload driver (the run_wl_* calls it makes, recorded). A
 * uet-nic's notes of a window are its tag then its log, sent by the last
 * of its NICs to end the window and only when it has completions; a
 * window's notes are replayed once, every process's log but the
 * process's own, then flushed; notes that are not logs fail, unflushed.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "run_workload.h"

/* The fake driver: a log of n 16-byte completions, each byte the
 * completion's number; what was replayed and flushed. */
struct run_wl {
	uint32_t n_log;
	uint8_t next;
	uint8_t replayed[64]; /* first byte of each replayed completion */
	uint32_t n_replayed;
	uint32_t flushes;
	struct uet_evq *wake_q;
};

size_t run_wl_log_bytes(const struct run_wl *w)
{
	return sizeof(uint32_t) + (size_t)w->n_log * 16u;
}

int run_wl_pack_log(struct run_wl *w, uint8_t *dst, size_t room, size_t *used)
{
	size_t need = run_wl_log_bytes(w);

	if (room < need)
		return -ENOSPC;
	memcpy(dst, &w->n_log, sizeof(w->n_log));
	for (uint32_t i = 0; i < w->n_log; i++)
		memset(dst + 4 + 16u * i, w->next++, 16);
	w->n_log = 0;
	*used = need;
	return 0;
}

int run_wl_replay(struct run_wl *w, const uint8_t *src, size_t len,
		  size_t *used)
{
	uint32_t n;

	ck_assert_uint_ge(len, 4);
	memcpy(&n, src, 4);
	for (uint32_t i = 0; i < n; i++)
		w->replayed[w->n_replayed++] = src[4 + 16u * i];
	*used = 4 + 16u * n;
	return 0;
}

int run_wl_flush(struct run_wl *w, struct uet_evq *wake_q)
{
	w->flushes++;
	w->wake_q = wake_q;
	return 0;
}

int run_wl_error(const struct run_wl *w)
{
	(void)w;
	return 0;
}

/* A process's notes as it would send them: tag, count, completions. */
static size_t notes(uint8_t *p, uint32_t tag, uint32_t n, uint8_t first)
{
	memcpy(p, &tag, 4);
	memcpy(p + 4, &n, 4);
	for (uint32_t i = 0; i < n; i++)
		memset(p + 8 + 16u * i, first + (uint8_t)i, 16);
	return 8 + 16u * n;
}

START_TEST(test_the_last_nic_of_a_window_sends_the_log)
{
	struct run_wl w = {.n_log = 2, .next = 7};
	struct run_wl_notes *n;
	const void *bytes = NULL;
	uint8_t want[64];
	size_t len = 99;
	uint32_t count;

	ck_assert_int_eq(run_wl_notes_create(&n, &w, 4, 3), 0);
	ck_assert_int_eq(run_wl_notes_out(n, 1000, &bytes, &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(run_wl_notes_out(n, 1000, &bytes, &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_uint_eq(w.n_log, 2); /* not packed before the third NIC */
	ck_assert_int_eq(run_wl_notes_out(n, 1000, &bytes, &len), 0);
	ck_assert_uint_eq(len, notes(want, 4, 2, 7));
	ck_assert_int_eq(memcmp(bytes, want, len), 0);
	ck_assert_uint_eq(w.n_log, 0);
	/* Next window: nothing completed, nothing sent by any NIC. */
	for (int i = 0; i < 3; i++) {
		len = 99;
		ck_assert_int_eq(run_wl_notes_out(n, 2000, &bytes, &len), 0);
		ck_assert_uint_eq(len, 0);
	}
	/* Then one completion: the third NIC of window 3000 sends it. */
	w.n_log = 1;
	ck_assert_int_eq(run_wl_notes_out(n, 3000, &bytes, &len), 0);
	ck_assert_int_eq(run_wl_notes_out(n, 3000, &bytes, &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(run_wl_notes_out(n, 3000, &bytes, &len), 0);
	ck_assert_uint_eq(len, 24);
	memcpy(&count, (const uint8_t *)bytes + 4, 4);
	ck_assert_uint_eq(count, 1);
	run_wl_notes_free(n);
}
END_TEST

START_TEST(test_the_switch_sends_no_notes)
{
	struct run_wl w = {.n_log = 2};
	struct run_wl_notes *n;
	const void *bytes = NULL;
	size_t len = 99;

	ck_assert_int_eq(run_wl_notes_create(&n, &w, RUN_WL_NOTES_NO_TAG, 0),
			 0);
	ck_assert_int_eq(run_wl_notes_out(n, 1000, &bytes, &len), 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_uint_eq(w.n_log, 2);
	run_wl_notes_free(n);
}
END_TEST

START_TEST(test_every_log_but_its_own_replayed_once_then_flushed)
{
	struct run_wl w = {0};
	struct run_wl_notes *n;
	struct uet_evq *q = (struct uet_evq *)&w; /* any address */
	uint8_t all[256];
	size_t len = 0;

	len += notes(all + len, 0, 2, 10);
	len += notes(all + len, 4, 3, 20); /* this process's own */
	len += notes(all + len, 8, 1, 30);
	ck_assert_int_eq(run_wl_notes_create(&n, &w, 4, 4), 0);
	ck_assert_int_eq(run_wl_notes_in(n, 1000, all, len, q), 0);
	ck_assert_uint_eq(w.n_replayed, 3);
	ck_assert_uint_eq(w.replayed[0], 10);
	ck_assert_uint_eq(w.replayed[1], 11);
	ck_assert_uint_eq(w.replayed[2], 30);
	ck_assert_uint_eq(w.flushes, 1);
	ck_assert_ptr_eq(w.wake_q, q);
	/* The same window on another port of the process: nothing. */
	ck_assert_int_eq(run_wl_notes_in(n, 1000, all, len, q), 0);
	ck_assert_uint_eq(w.n_replayed, 3);
	ck_assert_uint_eq(w.flushes, 1);
	/* A window without notes still flushes. */
	ck_assert_int_eq(run_wl_notes_in(n, 2000, NULL, 0, NULL), 0);
	ck_assert_uint_eq(w.n_replayed, 3);
	ck_assert_uint_eq(w.flushes, 2);
	ck_assert_ptr_null(w.wake_q);
	run_wl_notes_free(n);
}
END_TEST

START_TEST(test_notes_that_are_not_logs_fail_unflushed)
{
	struct run_wl w = {0};
	struct run_wl_notes *n;
	uint8_t all[64];
	size_t len = notes(all, 0, 2, 10);

	ck_assert_int_eq(run_wl_notes_create(&n, &w, RUN_WL_NOTES_NO_TAG, 0),
			 0);
	/* A count of 2 with one completion's bytes. */
	ck_assert_int_eq(run_wl_notes_in(n, 1000, all, len - 16, NULL),
			 -EBADMSG);
	ck_assert_uint_eq(w.flushes, 0);
	/* A tag alone. */
	ck_assert_int_eq(run_wl_notes_in(n, 2000, all, 6, NULL), -EBADMSG);
	ck_assert_uint_eq(w.flushes, 0);
	run_wl_notes_free(n);
}
END_TEST

static Suite *wl_notes_suite(void)
{
	Suite *s = suite_create("run_wl_notes");
	TCase *tc = tcase_create("notes");

	tcase_add_test(tc, test_the_last_nic_of_a_window_sends_the_log);
	tcase_add_test(tc, test_the_switch_sends_no_notes);
	tcase_add_test(tc,
		       test_every_log_but_its_own_replayed_once_then_flushed);
	tcase_add_test(tc, test_notes_that_are_not_logs_fail_unflushed);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(wl_notes_suite)
