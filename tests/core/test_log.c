/* SPDX-License-Identifier: BSD-3-Clause */
/* The logger: thresholds per type, the sink, names. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_main.h"
#include "uet_log.h"

/* What a test sink received. */
struct capture {
	int calls;
	enum uet_log_level level;
	enum uet_log_type type;
	char msg[UET_LOG_MSG_LEN];
};

static void capture_sink(void *arg, enum uet_log_level level,
			 enum uet_log_type type, const char *msg)
{
	struct capture *c = arg;

	c->calls++;
	c->level = level;
	c->type = type;
	strncpy(c->msg, msg, sizeof(c->msg) - 1);
}

static int side_effect(int *n)
{
	return ++*n;
}

/* Each Check test runs in its own process, so the logger starts fresh. */
START_TEST(test_log_default_threshold_is_info)
{
	struct capture c = {0};

	ck_assert_int_eq(uet_log_get_level(UET_LOGTYPE_PDS), UET_LOG_INFO);
	uet_log_set_sink(capture_sink, &c);
	UET_LOG(INFO, PDS, "pdc %d opened", 7);
	ck_assert_int_eq(c.calls, 1);
	ck_assert_int_eq(c.level, UET_LOG_INFO);
	ck_assert_int_eq(c.type, UET_LOGTYPE_PDS);
	ck_assert_str_eq(c.msg, "pdc 7 opened");
	UET_LOG(DEBUG, PDS, "hidden");
	ck_assert_int_eq(c.calls, 1);
	UET_LOG(ERROR, APP, "no scenario");
	ck_assert_int_eq(c.calls, 2);
	ck_assert_int_eq(c.type, UET_LOGTYPE_APP);
	ck_assert_str_eq(c.msg, "no scenario");
}
END_TEST

START_TEST(test_log_threshold_per_type)
{
	struct capture c = {0};
	int evaluated = 0;

	uet_log_set_sink(capture_sink, &c);
	ck_assert_int_eq(uet_log_set_level(UET_LOGTYPE_CC, UET_LOG_DEBUG), 0);
	ck_assert_int_eq(uet_log_set_level(UET_LOGTYPE_LB, UET_LOG_ERROR), 0);
	UET_LOG(DEBUG, CC, "cwnd %d", 4096);
	ck_assert_int_eq(c.calls, 1);
	ck_assert_str_eq(c.msg, "cwnd 4096");
	UET_LOG(WARNING, LB, "ev %d", side_effect(&evaluated));
	ck_assert_int_eq(c.calls, 1);
	/* A filtered message does not evaluate its arguments. */
	ck_assert_int_eq(evaluated, 0);
	UET_LOG(ERROR, LB, "ev %d", side_effect(&evaluated));
	ck_assert_int_eq(c.calls, 2);
	ck_assert_int_eq(evaluated, 1);
	/* Other types keep the default. */
	ck_assert_int_eq(uet_log_get_level(UET_LOGTYPE_NIC), UET_LOG_INFO);

	ck_assert_int_eq(uet_log_set_level_all(UET_LOG_NONE), 0);
	UET_LOG(ERROR, NIC, "silenced");
	ck_assert_int_eq(c.calls, 2);
	ck_assert(!uet_log_enabled(UET_LOG_ERROR, UET_LOGTYPE_CC));
	ck_assert(!uet_log_enabled(UET_LOG_NONE, UET_LOGTYPE_CC));

	ck_assert_int_eq(uet_log_set_level(UET_LOGTYPE_MAX, UET_LOG_INFO),
			 -EINVAL);
	ck_assert_int_eq(uet_log_set_level(UET_LOGTYPE_CC, 9), -EINVAL);
	ck_assert_int_eq(uet_log_set_level_all(5), -EINVAL);
	ck_assert_int_eq(uet_log_get_level(UET_LOGTYPE_MAX), UET_LOG_NONE);
	/* Bad levels or types never reach the sink. */
	uet_log_set_level_all(UET_LOG_DEBUG);
	uet_log(7, UET_LOGTYPE_CC, "bad level");
	uet_log(UET_LOG_ERROR, UET_LOGTYPE_MAX, "bad type");
	ck_assert_int_eq(c.calls, 2);
}
END_TEST

START_TEST(test_log_long_message_truncated)
{
	struct capture c = {0};
	char big[2 * UET_LOG_MSG_LEN];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	uet_log_set_sink(capture_sink, &c);
	UET_LOG(WARNING, WIRE, "%s", big);
	ck_assert_int_eq(c.calls, 1);
	ck_assert_uint_eq(strlen(c.msg), UET_LOG_MSG_LEN - 1);
}
END_TEST

START_TEST(test_log_default_sink_is_stderr)
{
	struct capture c = {0};
	char line[128] = {0};
	FILE *f = tmpfile();

	ck_assert_ptr_nonnull(f);
	/* Redirect stderr into the temporary file, in this forked test. */
	ck_assert_int_ge(dup2(fileno(f), STDERR_FILENO), 0);
	uet_log_set_sink(capture_sink, &c);
	uet_log_set_sink(NULL, &c); /* back to the default */
	UET_LOG(WARNING, FABRIC, "queue %d full", 3);
	fflush(stderr);
	ck_assert_int_eq(c.calls, 0);
	rewind(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	ck_assert_str_eq(line, "uet fabric warning: queue 3 full\n");
	fclose(f);
}
END_TEST

START_TEST(test_log_names_round_trip)
{
	int t, l;

	ck_assert_str_eq(uet_log_type_name(UET_LOGTYPE_CORE), "core");
	ck_assert_str_eq(uet_log_type_name(UET_LOGTYPE_DRIVERS), "drivers");
	ck_assert_str_eq(uet_log_type_name(UET_LOGTYPE_MAX), "unknown");
	ck_assert_str_eq(uet_log_level_name(UET_LOG_WARNING), "warning");
	for (t = 0; t < UET_LOGTYPE_MAX; t++)
		ck_assert_int_eq(uet_log_type_from_name(uet_log_type_name(t)),
				 t);
	for (l = UET_LOG_NONE; l <= UET_LOG_DEBUG; l++)
		ck_assert_int_eq(uet_log_level_from_name(uet_log_level_name(l)),
				 l);
	ck_assert_int_eq(uet_log_type_from_name("pdc"), -EINVAL);
	ck_assert_int_eq(uet_log_type_from_name(NULL), -EINVAL);
	ck_assert_int_eq(uet_log_level_from_name("verbose"), -EINVAL);
	ck_assert_int_eq(uet_log_type_from_name("fabric"), UET_LOGTYPE_FABRIC);
	ck_assert_int_eq(uet_log_level_from_name("debug"), UET_LOG_DEBUG);
}
END_TEST

static Suite *log_suite(void)
{
	Suite *s = suite_create("core-log");
	TCase *tc = tcase_create("log");

	tcase_add_test(tc, test_log_default_threshold_is_info);
	tcase_add_test(tc, test_log_threshold_per_type);
	tcase_add_test(tc, test_log_long_message_truncated);
	tcase_add_test(tc, test_log_default_sink_is_stderr);
	tcase_add_test(tc, test_log_names_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

/* Fork mode gives every test a fresh logger; insist on it. */
UET_CHECK_MAIN_FORKED(log_suite)
