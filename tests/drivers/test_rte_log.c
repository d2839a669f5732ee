/* SPDX-License-Identifier: BSD-3-Clause */
/* uet_log_use_rte_log: the project's log messages reach rte_log under
 * "uet.<type>" types, filtered by both loggers' levels. */
#include <stdlib.h>

#include <check.h>
#include <rte_log.h>

#include "check_main.h"
#include "drv_test.h"
#include "uet_log.h"
#include "uet_rte_log.h"

/* Route rte_log to a memory stream, log, and return what came out. */
START_TEST(test_uet_log_messages_reach_rte_log_by_type)
{
	char *out = NULL;
	size_t out_len = 0;
	FILE *f;
	int pds;

	uet_test_eal("uetdrv", "rtelog");
	f = open_memstream(&out, &out_len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(rte_openlog_stream(f), 0);
	ck_assert_int_eq(uet_log_use_rte_log(), 0);
	/* A second call finds the same types. */
	ck_assert_int_eq(uet_log_use_rte_log(), 0);

	pds = rte_log_register("uet.pds");
	ck_assert_int_ge(pds, 0);
	/* EAL's --log-level=*:warning applies to types registered later. */
	ck_assert_int_eq(rte_log_get_level((uint32_t)pds), RTE_LOG_WARNING);

	UET_LOG(WARNING, PDS, "pdc %u: %s", 7u, "late ack");
	/* Below uet_log's default threshold (INFO): never reaches rte_log. */
	UET_LOG(DEBUG, PDS, "hidden %d", 1);
	/* Let uet_log pass DEBUG; rte_log's WARNING level still stops it. */
	ck_assert_int_eq(uet_log_set_level(UET_LOGTYPE_NIC, UET_LOG_DEBUG), 0);
	UET_LOG(DEBUG, NIC, "hidden %d", 2);
	/* Lower rte_log's level of uet.nic too: now it is written. */
	ck_assert_int_eq(rte_log_set_level_pattern("uet.nic", RTE_LOG_DEBUG),
			 0);
	UET_LOG(DEBUG, NIC, "group %d ready", 3);
	UET_LOG(ERROR, DRIVERS, "port %s gone", "net_ring_x");

	rte_openlog_stream(NULL);
	fclose(f);
	ck_assert_str_eq(out, "uet.pds: pdc 7: late ack\n"
			      "uet.nic: group 3 ready\n"
			      "uet.drivers: port net_ring_x gone\n");
	free(out);
	uet_log_set_sink(NULL, NULL);
}
END_TEST

static Suite *rte_log_suite(void)
{
	Suite *s = suite_create("drivers-rte-log");
	TCase *tc = tcase_create("rte_log");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_uet_log_messages_reach_rte_log_by_type);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(rte_log_suite)
