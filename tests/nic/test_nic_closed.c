/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic's ring of closed receiving sides (nic_pdc.c), on its own: it
 * starts small and grows to NIC_RX_CLOSED_MAX, and must remember exactly
 * what a ring of the full size would (the last NIC_RX_CLOSED_MAX sides,
 * each in the slot that ring would give it, found in the same order).
 */
#include <check.h>
#include <stdlib.h>

#include "check_main.h"
#include "nic_private.h"

/* A closed side named by its number n: peer PDC n + 1, number n + 1,
 * PSNs 1000 * n through 1000 * n + 9 received. */
static void close_side(struct uet_nic *nic, uint32_t n)
{
	struct nic_pdc pdc = {0};

	pdc.nic = nic;
	pdc.peer_ip = 0x0a000002u;
	pdc.peer_pdc = (uint16_t)(n + 1);
	pdc.id = (uint16_t)(n + 1);
	pdc.rx.start_psn = 1000u * n;
	pdc.rx.next_expected_psn = 1000u * n + 10;
	nic_pdc_rx_closed_add(&pdc);
}

static const struct nic_rx_closed *by_name(struct uet_nic *nic, uint32_t n,
					   uint32_t psn_offset)
{
	return nic_pdc_rx_closed_find(nic, 0x0a000002u, (uint16_t)(n + 1),
				      1000u * n, 1000u * n + psn_offset);
}

static const struct nic_rx_closed *by_id(struct uet_nic *nic, uint32_t n,
					 uint32_t psn_offset)
{
	return nic_pdc_rx_closed_by_id(nic, 0x0a000002u, (uint16_t)(n + 1),
				       (uint16_t)(n + 1),
				       1000u * n + psn_offset);
}

START_TEST(test_first_close_takes_a_small_ring)
{
	struct uet_nic *nic = calloc(1, sizeof(*nic));

	ck_assert_ptr_nonnull(nic);
	ck_assert_ptr_null(by_name(nic, 0, 0));
	ck_assert_ptr_null(by_id(nic, 0, 0));
	close_side(nic, 0);
	ck_assert_uint_eq(nic->rx_closed_cap, NIC_RX_CLOSED_FIRST);
	ck_assert_ptr_eq(by_name(nic, 0, 9), &nic->rx_closed[0]);
	ck_assert_ptr_eq(by_id(nic, 0, 0), &nic->rx_closed[0]);
	/* PSN 10 never arrived: not this side's to acknowledge. */
	ck_assert_ptr_null(by_name(nic, 0, 10));
	ck_assert_ptr_null(by_id(nic, 0, 10));
	nic_pdcs_fini(nic);
	ck_assert_ptr_null(nic->rx_closed);
	ck_assert_uint_eq(nic->rx_closed_cap, 0);
	free(nic);
}
END_TEST

/* More sides than the ring holds: it grows to the maximum, the oldest are
 * forgotten, and each side sits where a full-size ring puts it. */
START_TEST(test_ring_grows_then_forgets_the_oldest)
{
	const uint32_t extra = 76, total = NIC_RX_CLOSED_MAX + extra;
	struct uet_nic *nic = calloc(1, sizeof(*nic));
	uint32_t n;

	ck_assert_ptr_nonnull(nic);
	for (n = 0; n < total; n++) {
		close_side(nic, n);
		if (n == NIC_RX_CLOSED_FIRST)
			ck_assert_uint_eq(nic->rx_closed_cap,
					  2 * NIC_RX_CLOSED_FIRST);
	}
	ck_assert_uint_eq(nic->rx_closed_cap, NIC_RX_CLOSED_MAX);
	ck_assert_uint_eq(nic->rx_closed_next, extra);
	for (n = 0; n < extra; n++) {
		ck_assert_ptr_null(by_name(nic, n, 0));
		ck_assert_ptr_null(by_id(nic, n, 0));
	}
	for (n = extra; n < total; n++) {
		const struct nic_rx_closed *slot =
			&nic->rx_closed[n % NIC_RX_CLOSED_MAX];

		ck_assert_ptr_eq(by_name(nic, n, 5), slot);
		ck_assert_ptr_eq(by_id(nic, n, 9), slot);
		ck_assert_uint_eq(slot->cack_psn, 1000u * n + 9);
	}
	nic_pdcs_fini(nic);
	free(nic);
}
END_TEST

static Suite *nic_closed_suite(void)
{
	Suite *s = suite_create("nic_closed");
	TCase *tc = tcase_create("closed");

	tcase_add_test(tc, test_first_close_takes_a_small_ring);
	tcase_add_test(tc, test_ring_grows_then_forgets_the_oldest);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_closed_suite)
