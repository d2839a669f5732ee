/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic's lookup tables (nic_pdc.c), on their own: the ring of closed
 * receiving sides starts small and grows to NIC_RX_CLOSED_MAX, and must
 * remember exactly what a ring of the full size would (the last
 * NIC_RX_CLOSED_MAX sides, each in the slot that ring would give it,
 * found in the same order), through its index; the table of receiving
 * sides grows with them; the probe slots grow as probes reach them, and a
 * group lets go of its own.
 */
#include <check.h>
#include <stdlib.h>

#include "check_main.h"
#include "nic_test_private.h"

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

/* Two closed sides with one name (a SYN retransmission past what the
 * first had received opened a second side, which closed too): the lower
 * slot answers, as a scan of the ring finds it, whichever was added
 * later, and once the ring wraps over the first, the second does. */
START_TEST(test_same_name_twice_lower_slot_answers)
{
	struct uet_nic *nic = calloc(1, sizeof(*nic));
	uint32_t n;

	ck_assert_ptr_nonnull(nic);
	close_side(nic, 7); /* slot 0 */
	for (n = 100; n < 100 + NIC_RX_CLOSED_MAX - 2; n++)
		close_side(nic, n); /* slots 1 .. MAX - 2 */
	close_side(nic, 7);	    /* slot MAX - 1 */
	ck_assert_ptr_eq(by_name(nic, 7, 3), &nic->rx_closed[0]);
	ck_assert_ptr_eq(by_id(nic, 7, 3), &nic->rx_closed[0]);
	close_side(nic, 9); /* over slot 0 */
	ck_assert_ptr_eq(by_name(nic, 7, 3),
			 &nic->rx_closed[NIC_RX_CLOSED_MAX - 1]);
	ck_assert_ptr_eq(by_name(nic, 9, 3), &nic->rx_closed[0]);
	/* The side in slot 1 went with the next close; slot 2's stays. */
	close_side(nic, 11);
	ck_assert_ptr_null(by_name(nic, 100, 0));
	ck_assert_ptr_eq(by_id(nic, 101, 0), &nic->rx_closed[2]);
	nic_pdcs_fini(nic);
	ck_assert_ptr_null(nic->rx_closed_head);
	free(nic);
}
END_TEST

/* Receiving sides by (peer, peer PDC): no table until the first, then 8
 * buckets, doubled each time it holds as many sides as buckets. */
START_TEST(test_side_table_grows_with_the_sides)
{
	struct uet_nic *nic = calloc(1, sizeof(*nic));
	static struct nic_pdc pdc[1000];
	uint32_t i;

	ck_assert_ptr_nonnull(nic);
	ck_assert_ptr_null(nic_pdc_rx_find(nic, 0x0a000002u, 1, 0));
	for (i = 0; i < 1000; i++) {
		pdc[i].nic = nic;
		pdc[i].peer_ip = 0x0a000002u + i % 7;
		pdc[i].peer_pdc = (uint16_t)(i / 7 + 1);
		pdc[i].rx.start_psn = 3 * i;
		ck_assert_int_eq(nic_pdc_rx_hash_add(&pdc[i]), 0);
		if (i == 0)
			ck_assert_uint_eq(nic->rx_hash_cap, NIC_HASH_FIRST);
	}
	ck_assert_uint_eq(nic->rx_hash_cap, 1024);
	ck_assert_uint_eq(nic->rx_hash_count, 1000);
	for (i = 0; i < 1000; i++) {
		ck_assert_ptr_eq(nic_pdc_rx_find(nic, pdc[i].peer_ip,
						 pdc[i].peer_pdc, 3 * i),
				 &pdc[i]);
		/* Another start PSN is another PDC. */
		ck_assert_ptr_null(nic_pdc_rx_find(nic, pdc[i].peer_ip,
						   pdc[i].peer_pdc, 3 * i + 1));
	}
	free(nic->rx_hash);
	free(nic);
}
END_TEST

/* Probe slots: 4 at the first probe, doubling up to 256 as probe_opaque
 * counts up; a slot taken again leaves its old group's list, and a group
 * that goes lets go of exactly its own slots. */
START_TEST(test_probe_slots_grow_and_follow_their_group)
{
	struct uet_nic *nic = calloc(1, sizeof(*nic));
	struct nic_group a = {0}, b = {0};
	struct nic_probe_slot *s;
	uint32_t i;

	ck_assert_ptr_nonnull(nic);
	ck_assert_ptr_nonnull(nic_probe_take(nic, 0, &a));
	ck_assert_uint_eq(nic->probes_cap, NIC_PROBE_FIRST);
	for (i = 1; i < 10; i++)
		ck_assert_ptr_nonnull(nic_probe_take(nic, i, i % 2 ? &b : &a));
	ck_assert_uint_eq(nic->probes_cap, 16);
	ck_assert_ptr_nonnull(nic_probe_take(nic, 255, &a));
	ck_assert_uint_eq(nic->probes_cap, NIC_PROBE_SLOTS);
	/* Slot 3 moves from b to a. */
	ck_assert_ptr_nonnull(nic_probe_take(nic, 3, &a));
	/* b goes: slots 1, 5, 7, 9 free; a keeps 0, 2, 3, 4, 6, 8, 255. */
	while (b.probe_head != 0)
		nic_probe_release(nic, &nic->probes[b.probe_head - 1]);
	for (i = 0; i < 10; i++) {
		s = &nic->probes[i];
		ck_assert_ptr_eq(s->group, i % 2 && i != 3 ? NULL : &a);
	}
	ck_assert_ptr_eq(nic->probes[255].group, &a);
	i = 0;
	while (a.probe_head != 0) {
		nic_probe_release(nic, &nic->probes[a.probe_head - 1]);
		i++;
	}
	ck_assert_uint_eq(i, 7);
	nic_pdcs_fini(nic);
	ck_assert_ptr_null(nic->probes);
	free(nic);
}
END_TEST

static Suite *nic_closed_suite(void)
{
	Suite *s = suite_create("nic_closed");
	TCase *tc = tcase_create("closed");

	tcase_add_test(tc, test_first_close_takes_a_small_ring);
	tcase_add_test(tc, test_ring_grows_then_forgets_the_oldest);
	tcase_add_test(tc, test_same_name_twice_lower_slot_answers);
	tcase_add_test(tc, test_side_table_grows_with_the_sides);
	tcase_add_test(tc, test_probe_slots_grow_and_follow_their_group);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_closed_suite)
