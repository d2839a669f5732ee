/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of the PCIe link model, with the data-path page's figures. */

#include <errno.h>
#include <stdlib.h>

#include <check.h>

#include "check_main.h"
#include "uet_pcie.h"

/* 16 lanes x 31.52 Gbps = 504.32 Gbps; t = ceil(bytes * 8e12 / 504.32e9). */
#define READ_REQUEST_PS 1555	 /* 98 bytes: 1554.57 ps, page 1.55 ns */
#define COMPLETION_4096_PS 69290 /* 4,368 bytes: 69289.34 ps, page 69.29 ns */
#define FETCH_4096_PS 70845	 /* page: about 70.8 ns */

static const struct uet_pcie_params defaults = UET_PCIE_PARAMS_DEFAULTS;

START_TEST(test_defaults_are_the_pages)
{
	ck_assert_uint_eq(defaults.lane_bps, 31520000000ULL);
	ck_assert_uint_eq(defaults.lane_count, 16);
	ck_assert_uint_eq(defaults.max_payload_bytes, 512);
	ck_assert_uint_eq(defaults.tlp_overhead_bytes, 34);
	ck_assert_uint_eq(defaults.write_buffer_bytes, 16384);
	ck_assert_uint_eq(defaults.read_request_bytes, 64);
	ck_assert_int_eq(uet_pcie_params_check(&defaults), 0);
}
END_TEST

START_TEST(test_read_request_64_bytes_takes_1555_ps)
{
	struct uet_pcie pcie;
	struct uet_pcie_dir_stats st;
	uet_time_t arrival;

	ck_assert_uint_eq(uet_pcie_serialization_ps(&defaults, 64 + 34),
			  READ_REQUEST_PS);
	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 0, 4096, &arrival), 0);
	ck_assert_uint_eq(uet_pcie_free_ps(&pcie, UET_PCIE_NIC_TO_HOST),
			  READ_REQUEST_PS);
	ck_assert_int_eq(uet_pcie_stats_get(&pcie, UET_PCIE_NIC_TO_HOST, &st),
			 0);
	ck_assert_uint_eq(st.link_bytes, 98);
	ck_assert_uint_eq(st.payload_bytes, 64);
	ck_assert_uint_eq(st.tlps, 1);
	ck_assert_uint_eq(st.busy_ps, READ_REQUEST_PS);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_completion_4096_bytes_is_8_tlps_69290_ps)
{
	struct uet_pcie pcie;
	struct uet_pcie_dir_stats st;
	uet_time_t arrival;

	ck_assert_uint_eq(uet_pcie_link_bytes(&defaults, 4096), 8 * (512 + 34));
	ck_assert_uint_eq(uet_pcie_link_bytes(&defaults, 4096), 4368);
	ck_assert_uint_eq(uet_pcie_transfer_ps(&defaults, 4096),
			  COMPLETION_4096_PS);
	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 0, 4096, &arrival), 0);
	ck_assert_int_eq(uet_pcie_stats_get(&pcie, UET_PCIE_HOST_TO_NIC, &st),
			 0);
	ck_assert_uint_eq(st.link_bytes, 4368);
	ck_assert_uint_eq(st.payload_bytes, 4096);
	ck_assert_uint_eq(st.tlps, 8);
	ck_assert_uint_eq(st.busy_ps, COMPLETION_4096_PS);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_fetch_4096_on_idle_link_takes_70845_ps)
{
	struct uet_pcie pcie;
	uet_time_t arrival = 0;

	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 0, 4096, &arrival), 0);
	ck_assert_uint_eq(arrival, READ_REQUEST_PS + COMPLETION_4096_PS);
	ck_assert_uint_eq(arrival, FETCH_4096_PS);
	/* Later, on a link idle again, the same fetch costs the same. */
	ck_assert_int_eq(uet_pcie_read(&pcie, 1000000, 4096, &arrival), 0);
	ck_assert_uint_eq(arrival, 1000000 + FETCH_4096_PS);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_partial_tlp_read_1000_bytes)
{
	struct uet_pcie pcie;
	uet_time_t arrival;

	/* 512 + 488 payload: 2 TLPs, 1,068 bytes, 16,941.6 ps. */
	ck_assert_uint_eq(uet_pcie_link_bytes(&defaults, 1000), 1068);
	ck_assert_uint_eq(uet_pcie_link_bytes(&defaults, 512), 546);
	ck_assert_uint_eq(uet_pcie_link_bytes(&defaults, 513), 581);
	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 0, 1000, &arrival), 0);
	ck_assert_uint_eq(arrival, READ_REQUEST_PS + 16942);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_ack_hold_4184_empty_pool_is_66371_ps)
{
	uet_time_t hold = uet_pcie_ack_hold_ps(&defaults, 4184);

	/* 33,472 bits / 504.32 Gbps = 66,370.56 ps; page: 66.4 ns. */
	ck_assert_uint_eq(hold, 66371);
}
END_TEST

START_TEST(test_ack_hold_two_packets_waiting_is_199112_ps)
{
	uet_time_t hold = uet_pcie_ack_hold_ps(&defaults, 3 * 4184);

	/* 100,416 bits / 504.32 Gbps = 199,111.68 ps. */
	ck_assert_uint_eq(hold, 199112);
}
END_TEST

START_TEST(test_directions_independent_completion_and_write_overlap)
{
	struct uet_pcie pcie;
	uet_time_t arrival, accepted, done;

	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 0, 4096, &arrival), 0);
	/* The write follows the request on NIC-to-host, not the completion. */
	ck_assert_int_eq(uet_pcie_write(&pcie, 0, 4096, &accepted, &done), 0);
	ck_assert_uint_eq(accepted, 0);
	ck_assert_uint_eq(done, READ_REQUEST_PS + COMPLETION_4096_PS);
	/* Completion [1555, 70845) and write [1555, 70845): both at once. */
	ck_assert_uint_eq(arrival, FETCH_4096_PS);
	ck_assert_uint_eq(uet_pcie_free_ps(&pcie, UET_PCIE_NIC_TO_HOST),
			  FETCH_4096_PS);
	ck_assert_uint_eq(uet_pcie_free_ps(&pcie, UET_PCIE_HOST_TO_NIC),
			  FETCH_4096_PS);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_read_request_waits_behind_write_on_nic_to_host)
{
	struct uet_pcie pcie;
	uet_time_t arrival, accepted, done;

	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	ck_assert_int_eq(uet_pcie_write(&pcie, 0, 4096, &accepted, &done), 0);
	ck_assert_uint_eq(done, COMPLETION_4096_PS);
	ck_assert_int_eq(uet_pcie_read(&pcie, 10, 4096, &arrival), 0);
	ck_assert_uint_eq(arrival, COMPLETION_4096_PS + FETCH_4096_PS);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_reads_pipelined_completions_in_order)
{
	struct uet_pcie pcie;
	uet_time_t a[3];
	int i;

	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(uet_pcie_read(&pcie, 0, 4096, &a[i]), 0);
	/* Requests end at 1555, 3110, 4665: each waits for the completions. */
	ck_assert_uint_eq(uet_pcie_free_ps(&pcie, UET_PCIE_NIC_TO_HOST),
			  3 * READ_REQUEST_PS);
	ck_assert_uint_eq(a[0], FETCH_4096_PS);
	ck_assert_uint_eq(a[1], FETCH_4096_PS + COMPLETION_4096_PS);
	ck_assert_uint_eq(a[2], FETCH_4096_PS + 2 * COMPLETION_4096_PS);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_small_read_after_large_completes_after_it)
{
	struct uet_pcie pcie;
	uet_time_t big, small;

	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 0, 4096, &big), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 0, 64, &small), 0);
	/* 64 + 34 bytes of completion: 1555 ps after the big one. */
	ck_assert_uint_eq(big, FETCH_4096_PS);
	ck_assert_uint_eq(small, FETCH_4096_PS + READ_REQUEST_PS);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_write_buffer_full_delays_acceptance)
{
	struct uet_pcie pcie;
	uet_time_t acc[5], done[5];
	int i;

	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	/* 16,384 bytes hold 3 writes of 4,368 (13,104) but not 4 (17,472). */
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(
			uet_pcie_write(&pcie, 0, 4096, &acc[i], &done[i]), 0);
		ck_assert_uint_eq(acc[i], 0);
		ck_assert_uint_eq(done[i],
				  (uet_time_t)(i + 1) * COMPLETION_4096_PS);
	}
	ck_assert_uint_eq(uet_pcie_write_buffer_used(&pcie, 0), 13104);
	/* The 4th waits until the 1st has left. */
	ck_assert_int_eq(uet_pcie_write(&pcie, 0, 4096, &acc[3], &done[3]), 0);
	ck_assert_uint_eq(acc[3], 69290);
	ck_assert_uint_eq(done[3], 277160);
	/* The 5th, issued later, waits for the 2nd. */
	ck_assert_int_eq(uet_pcie_write(&pcie, 100000, 4096, &acc[4], &done[4]),
			 0);
	ck_assert_uint_eq(acc[4], 138580);
	ck_assert_uint_eq(done[4], 346450);
	ck_assert_uint_eq(uet_pcie_write_buffer_used(&pcie, 138580), 13104);
	ck_assert_uint_eq(uet_pcie_write_buffer_used(&pcie, 346450), 0);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_write_with_room_accepted_at_issue)
{
	struct uet_pcie pcie;
	uet_time_t acc, done;

	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	ck_assert_int_eq(uet_pcie_write(&pcie, 0, 4096, &acc, &done), 0);
	/* The first is still on the link: room for the second at once. */
	ck_assert_int_eq(uet_pcie_write(&pcie, 5000, 4096, &acc, &done), 0);
	ck_assert_uint_eq(acc, 5000);
	ck_assert_uint_eq(done, 2 * COMPLETION_4096_PS);
	/* After the link drains: accepted at once, sent at once. */
	ck_assert_int_eq(uet_pcie_write(&pcie, 500000, 4096, &acc, NULL), 0);
	ck_assert_uint_eq(acc, 500000);
	ck_assert_uint_eq(uet_pcie_free_ps(&pcie, UET_PCIE_NIC_TO_HOST),
			  500000 + COMPLETION_4096_PS);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_many_small_writes_fill_buffer_by_count)
{
	struct uet_pcie pcie;
	uet_time_t acc, done;
	int i;

	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	/* 1-byte writes hold 35 bytes and take 556 ps; 468 x 35 = 16,380. */
	ck_assert_uint_eq(uet_pcie_transfer_ps(&defaults, 1), 556);
	for (i = 0; i < 468; i++) {
		ck_assert_int_eq(uet_pcie_write(&pcie, 0, 1, &acc, &done), 0);
		ck_assert_uint_eq(acc, 0);
		ck_assert_uint_eq(done, (uet_time_t)(i + 1) * 556);
	}
	ck_assert_uint_eq(pcie.ring_count, 468);
	ck_assert_uint_le(pcie.ring_slots, 16384 / 35);
	ck_assert_int_eq(uet_pcie_write(&pcie, 0, 1, &acc, &done), 0);
	ck_assert_uint_eq(acc, 556);
	ck_assert_uint_eq(done, 469 * 556);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_zero_bytes_cost_nothing)
{
	struct uet_pcie pcie;
	struct uet_pcie_dir_stats st;
	uet_time_t arrival, acc, done;

	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 700, 0, &arrival), 0);
	ck_assert_uint_eq(arrival, 700);
	ck_assert_int_eq(uet_pcie_write(&pcie, 800, 0, &acc, &done), 0);
	ck_assert_uint_eq(acc, 800);
	ck_assert_uint_eq(done, 800);
	ck_assert_uint_eq(uet_pcie_free_ps(&pcie, UET_PCIE_NIC_TO_HOST), 0);
	ck_assert_uint_eq(uet_pcie_free_ps(&pcie, UET_PCIE_HOST_TO_NIC), 0);
	ck_assert_int_eq(uet_pcie_stats_get(&pcie, UET_PCIE_NIC_TO_HOST, &st),
			 0);
	ck_assert_uint_eq(st.tlps, 0);
	ck_assert_uint_eq(st.link_bytes, 0);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_eight_lanes_256_max_payload)
{
	struct uet_pcie_params p = UET_PCIE_PARAMS_DEFAULTS;
	struct uet_pcie pcie;
	struct uet_pcie_dir_stats st;
	uet_time_t arrival;

	p.lane_count = 8;
	p.max_payload_bytes = 256;
	/* 252.16 Gbps; 98 bytes: 3,109.14 ps. */
	ck_assert_uint_eq(uet_pcie_serialization_ps(&p, 98), 3110);
	/* 16 TLPs of 256 + 34: 4,640 bytes, 147,208.12 ps. */
	ck_assert_uint_eq(uet_pcie_link_bytes(&p, 4096), 4640);
	ck_assert_uint_eq(uet_pcie_transfer_ps(&p, 4096), 147209);
	ck_assert_uint_eq(uet_pcie_ack_hold_ps(&p, 4184), 132742);
	ck_assert_int_eq(uet_pcie_init(&pcie, &p), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 0, 4096, &arrival), 0);
	ck_assert_uint_eq(arrival, 3110 + 147209);
	ck_assert_int_eq(uet_pcie_stats_get(&pcie, UET_PCIE_HOST_TO_NIC, &st),
			 0);
	ck_assert_uint_eq(st.tlps, 16);
	ck_assert_uint_eq(st.link_bytes, 4640);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_errors)
{
	struct uet_pcie_params p = UET_PCIE_PARAMS_DEFAULTS;
	struct uet_pcie_dir_stats st;
	struct uet_pcie pcie;
	uet_time_t t;

	p.lane_count = 0;
	ck_assert_int_eq(uet_pcie_init(&pcie, &p), -EINVAL);
	p.lane_count = 16;
	p.write_buffer_bytes = 545; /* less than one 512 + 34 TLP */
	ck_assert_int_eq(uet_pcie_params_check(&p), -EINVAL);
	p.write_buffer_bytes = 546;
	ck_assert_int_eq(uet_pcie_params_check(&p), 0);
	ck_assert_int_eq(uet_pcie_init(NULL, NULL), -EINVAL);

	ck_assert_int_eq(uet_pcie_init(&pcie, NULL), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 1000, 64, &t), 0);
	ck_assert_int_eq(uet_pcie_read(&pcie, 999, 64, &t), -EINVAL);
	ck_assert_int_eq(uet_pcie_write(&pcie, 999, 64, &t, NULL), -EINVAL);
	ck_assert_int_eq(uet_pcie_read(&pcie, 1000, 64, NULL), -EINVAL);
	/* 16,000 bytes: 32 TLPs, 17,088 bytes, more than the buffer. */
	ck_assert_int_eq(uet_pcie_write(&pcie, 1000, 16000, &t, NULL),
			 -EMSGSIZE);
	/* 15,360 bytes: 30 TLPs, 16,380 bytes, fits exactly enough. */
	ck_assert_int_eq(uet_pcie_write(&pcie, 1000, 15360, &t, NULL), 0);
	ck_assert_uint_eq(t, 1000);
	ck_assert_int_eq(uet_pcie_stats_get(&pcie, UET_PCIE_DIR_COUNT, &st),
			 -EINVAL);
	uet_pcie_fini(&pcie);
	uet_pcie_fini(&pcie);
}
END_TEST

START_TEST(test_serialization_saturates_without_overflow)
{
	struct uet_pcie_params p = UET_PCIE_PARAMS_DEFAULTS;

	p.lane_bps = 1;
	p.lane_count = 1;
	/* 2^32 bytes at 1 bit/s: 3.4e22 ps, more than 64 bits hold. */
	ck_assert_uint_eq(uet_pcie_serialization_ps(&p, 1ULL << 32),
			  UINT64_MAX);
	/* 1 byte at 1 bit/s: exactly 8 s. */
	ck_assert_uint_eq(uet_pcie_serialization_ps(&p, 1), 8000000000000ULL);
}
END_TEST

static Suite *pcie_suite(void)
{
	Suite *s = suite_create("pcie-model");
	TCase *tc = tcase_create("link");

	tcase_add_test(tc, test_defaults_are_the_pages);
	tcase_add_test(tc, test_read_request_64_bytes_takes_1555_ps);
	tcase_add_test(tc, test_completion_4096_bytes_is_8_tlps_69290_ps);
	tcase_add_test(tc, test_fetch_4096_on_idle_link_takes_70845_ps);
	tcase_add_test(tc, test_partial_tlp_read_1000_bytes);
	tcase_add_test(tc, test_ack_hold_4184_empty_pool_is_66371_ps);
	tcase_add_test(tc, test_ack_hold_two_packets_waiting_is_199112_ps);
	tcase_add_test(
		tc, test_directions_independent_completion_and_write_overlap);
	tcase_add_test(tc, test_read_request_waits_behind_write_on_nic_to_host);
	tcase_add_test(tc, test_reads_pipelined_completions_in_order);
	tcase_add_test(tc, test_small_read_after_large_completes_after_it);
	tcase_add_test(tc, test_write_buffer_full_delays_acceptance);
	tcase_add_test(tc, test_write_with_room_accepted_at_issue);
	tcase_add_test(tc, test_many_small_writes_fill_buffer_by_count);
	tcase_add_test(tc, test_zero_bytes_cost_nothing);
	tcase_add_test(tc, test_eight_lanes_256_max_payload);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_serialization_saturates_without_overflow);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(pcie_suite)
