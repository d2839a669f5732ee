/* SPDX-License-Identifier: BSD-3-Clause */
/* The TSC frequency the EAL settles on at start is the machine's: within 1%
 * of a 100 ms measurement against CLOCK_MONOTONIC_RAW. In a VM the EAL's
 * figure comes from the programs' shortened calibration (-Ddpdk_link=static,
 * lib/core/uet_eal_tsc_wrap.c), so a fault there shows here. */
#include <check.h>
#include <rte_cycles.h>

#include "check_main.h"
#include "drv_test.h"
#include "uet_tsc.h"

START_TEST(test_eal_tsc_hz_is_the_machines)
{
	uint64_t eal, ours;

	uet_test_eal("uetdrv", "tsc");
	eal = rte_get_tsc_hz();
	ours = uet_tsc_calibrate_hz(100);
	if (ours == 0)
		return; /* no TSC we can read here: nothing to compare */
	ck_assert_uint_gt(eal, 0);
	ck_assert_uint_lt(eal > ours ? eal - ours : ours - eal, ours / 100);
}
END_TEST

static Suite *eal_tsc_suite(void)
{
	Suite *s = suite_create("eal_tsc");
	TCase *tc = tcase_create("hz");

	tcase_add_test(tc, test_eal_tsc_hz_is_the_machines);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(eal_tsc_suite)
