/* SPDX-License-Identifier: BSD-3-Clause */
/* The ACK-request rule: the page's 256-packet example and retransmissions. */
#include <check.h>
#include <stdlib.h>

#include "check_main.h"
#include "uet_pds.h"

#define MSG_PACKETS 256

/* Run a 256-packet message through the rule; ar[k] for k = 1..256. */
static unsigned count_ack_requests(uint32_t n, bool first, bool last,
				   bool ar[MSG_PACKETS + 1])
{
	struct uet_pds_params p = {
		.ack_request_every_nth = n,
		.ack_request_first = first,
		.ack_request_last = last,
	};
	unsigned count = 0;
	uint64_t k;

	for (k = 1; k <= MSG_PACKETS; k++) {
		ar[k] = uet_pds_ack_request(&p, k, k == MSG_PACKETS);
		count += ar[k];
	}
	return count;
}

/* Same message through the sending side of a new PDC, no retransmissions. */
static unsigned count_ack_requests_tx(uint32_t n, bool first, bool last,
				      bool ar[MSG_PACKETS + 1])
{
	struct uet_pds_params p = {
		.ack_request_every_nth = n,
		.ack_request_first = first,
		.ack_request_last = last,
		.initial_rto_ps = 20000000,
	};
	struct uet_pds_tx tx;
	unsigned count = 0;
	unsigned k;

	ck_assert_int_eq(uet_pds_tx_init(&tx, &p, 7, 16), 0);
	for (k = 1; k <= MSG_PACKETS; k++) {
		struct uet_pds_tx_segment seg = {
			.payload_bytes = 4096,
			.msg_offset_bytes = (uint64_t)(k - 1) * 4096,
			.last_of_message = k == MSG_PACKETS,
		};
		uint32_t psn;

		ck_assert_int_eq(uet_pds_tx_take_psn(&tx, &seg, &psn), 0);
		ck_assert_uint_eq(psn, 7 + k - 1);
		ck_assert_int_eq(uet_pds_tx_transmit(&tx, psn, 0, 0, &ar[k]),
				 0);
		count += ar[k];
	}
	uet_pds_tx_fini(&tx);
	return count;
}

START_TEST(test_ack_request_default_every_packet)
{
	bool ar[MSG_PACKETS + 1];
	int combo;

	/* N = 1: every packet, whatever first and last say. */
	for (combo = 0; combo < 4; combo++) {
		unsigned k;

		ck_assert_uint_eq(
			count_ack_requests(1, combo & 1, combo & 2, ar), 256);
		for (k = 1; k <= MSG_PACKETS; k++)
			ck_assert(ar[k]);
		ck_assert_uint_eq(
			count_ack_requests_tx(1, combo & 1, combo & 2, ar),
			256);
	}
}
END_TEST

START_TEST(test_ack_request_every_nth_first)
{
	bool ar[MSG_PACKETS + 1];
	unsigned k;

	/* N = 4, first, last: 1, 5, ..., 253 (64 packets) and 256. */
	ck_assert_uint_eq(count_ack_requests(4, true, true, ar), 65);
	for (k = 1; k <= MSG_PACKETS; k++)
		ck_assert_int_eq(ar[k], k % 4 == 1 || k == 256);
	ck_assert(ar[1] && ar[5] && ar[253] && ar[256]);
	ck_assert(!ar[2] && !ar[4] && !ar[254] && !ar[255]);
	ck_assert_uint_eq(count_ack_requests_tx(4, true, true, ar), 65);

	/* Without last: 1, 5, ..., 253 only. */
	ck_assert_uint_eq(count_ack_requests(4, true, false, ar), 64);
	ck_assert(!ar[256]);
}
END_TEST

START_TEST(test_ack_request_every_nth_not_first)
{
	bool ar[MSG_PACKETS + 1];
	unsigned k;

	/* N = 4, neither: 4, 8, ..., 256. */
	ck_assert_uint_eq(count_ack_requests(4, false, false, ar), 64);
	for (k = 1; k <= MSG_PACKETS; k++)
		ck_assert_int_eq(ar[k], k % 4 == 0);
	ck_assert(!ar[1] && ar[4] && ar[256]);
	ck_assert_uint_eq(count_ack_requests_tx(4, false, false, ar), 64);
}
END_TEST

START_TEST(test_ack_request_every_third_and_last)
{
	bool ar[MSG_PACKETS + 1];
	unsigned k;

	/* N = 3, last: 3, 6, ..., 255 (85 packets) and 256. */
	ck_assert_uint_eq(count_ack_requests(3, false, true, ar), 86);
	for (k = 1; k <= MSG_PACKETS; k++)
		ck_assert_int_eq(ar[k], k % 3 == 0 || k == 256);
	ck_assert(ar[255] && ar[256] && !ar[254] && !ar[1]);
	ck_assert_uint_eq(count_ack_requests_tx(3, false, true, ar), 86);
}
END_TEST

START_TEST(test_ack_request_first_only)
{
	bool ar[MSG_PACKETS + 1];
	unsigned k;

	/* N = 256, first, no last: packet 1 alone. */
	ck_assert_uint_eq(count_ack_requests(256, true, false, ar), 1);
	ck_assert(ar[1]);
	for (k = 2; k <= MSG_PACKETS; k++)
		ck_assert(!ar[k]);
	ck_assert_uint_eq(count_ack_requests_tx(256, true, false, ar), 1);
	ck_assert(ar[1]);
}
END_TEST

START_TEST(test_ack_request_last_only)
{
	bool ar[MSG_PACKETS + 1];
	unsigned k;

	/* N = 256, not first, last: packet 256 is both the 256th and the
	 * last, so one ACK. */
	ck_assert_uint_eq(count_ack_requests(256, false, true, ar), 1);
	for (k = 1; k < MSG_PACKETS; k++)
		ck_assert(!ar[k]);
	ck_assert(ar[256]);
	ck_assert_uint_eq(count_ack_requests_tx(256, false, true, ar), 1);

	/* N larger than the message and no last flag: no ACK at all. */
	ck_assert_uint_eq(count_ack_requests(300, false, false, ar), 0);
}
END_TEST

START_TEST(test_ack_request_every_seventh_first_and_last)
{
	bool ar[MSG_PACKETS + 1];
	unsigned k;

	/* N = 7, first, last: 1, 8, ..., 253 (37 packets) and 256. */
	ck_assert_uint_eq(count_ack_requests(7, true, true, ar), 38);
	for (k = 1; k <= MSG_PACKETS; k++)
		ck_assert_int_eq(ar[k], k % 7 == 1 || k == 256);
	ck_assert(ar[1] && ar[8] && ar[253] && ar[256] && !ar[255]);
	ck_assert_uint_eq(count_ack_requests_tx(7, true, true, ar), 38);
}
END_TEST

START_TEST(test_ack_request_zero_n_read_as_one)
{
	struct uet_pds_params p = {.ack_request_every_nth = 0};

	ck_assert(uet_pds_ack_request(&p, 1, false));
	ck_assert(uet_pds_ack_request(&p, 2, false));
	/* No packet 0: the count starts at 1. */
	ck_assert(!uet_pds_ack_request(&p, 0, false));
}
END_TEST

static struct uet_pds_params params_n4(bool first, bool last)
{
	struct uet_pds_params p = {
		.ack_request_every_nth = 4,
		.ack_request_first = first,
		.ack_request_last = last,
		.initial_rto_ps = 20000000,
	};
	return p;
}

static uint32_t take(struct uet_pds_tx *tx, bool last)
{
	struct uet_pds_tx_segment seg = {
		.payload_bytes = 4096,
		.last_of_message = last,
	};
	uint32_t psn;

	ck_assert_int_eq(uet_pds_tx_take_psn(tx, &seg, &psn), 0);
	return psn;
}

static bool send(struct uet_pds_tx *tx, uint32_t psn)
{
	bool ar;

	ck_assert_int_eq(uet_pds_tx_transmit(tx, psn, 0, 0, &ar), 0);
	return ar;
}

START_TEST(test_ack_request_retransmissions_count_toward_n)
{
	struct uet_pds_params p = params_n4(true, false);
	struct uet_pds_tx tx;
	uint32_t psn[8], r;
	int i;

	ck_assert_int_eq(uet_pds_tx_init(&tx, &p, 0, 0), 0);
	for (i = 0; i < 8; i++)
		psn[i] = take(&tx, i == 7);
	/* k = 1..4: PSNs 0-3, AR on k = 1. */
	ck_assert(send(&tx, psn[0]));
	ck_assert(!send(&tx, psn[1]));
	ck_assert(!send(&tx, psn[2]));
	ck_assert(!send(&tx, psn[3]));
	/* PSN 2 is trimmed; its retransmission is k = 5 and takes the AR
	 * that PSN 4 would have carried with no retransmission. */
	ck_assert_int_eq(uet_pds_tx_nack(&tx, psn[2]), 1);
	ck_assert_int_eq(uet_pds_tx_next_retransmit(&tx, &r), 0);
	ck_assert_uint_eq(r, psn[2]);
	ck_assert(send(&tx, psn[2]));
	/* k = 6, 7, 8, 9: PSNs 4-7, AR on k = 9 (PSN 7). */
	ck_assert(!send(&tx, psn[4]));
	ck_assert(!send(&tx, psn[5]));
	ck_assert(!send(&tx, psn[6]));
	ck_assert(send(&tx, psn[7]));
	ck_assert_uint_eq(tx.stats.packets_sent, 9);
	ck_assert_uint_eq(tx.stats.retransmits, 1);
	uet_pds_tx_fini(&tx);
}
END_TEST

START_TEST(test_ack_request_retransmitted_last_packet)
{
	struct uet_pds_params p = params_n4(false, true);
	struct uet_pds_tx tx;
	uint32_t a, b;

	ck_assert_int_eq(uet_pds_tx_init(&tx, &p, 100, 0), 0);
	a = take(&tx, false);
	b = take(&tx, true);
	ck_assert(!send(&tx, a)); /* k = 1 */
	ck_assert(send(&tx, b));  /* k = 2, last of message */
	ck_assert_int_eq(uet_pds_tx_timeout(&tx, b, 1), 1);
	/* k = 3: not a multiple of 4, but still the last packet. */
	ck_assert(send(&tx, b));
	ck_assert_int_eq(uet_pds_tx_nack(&tx, a), 1);
	ck_assert(send(&tx, a)); /* k = 4 */
	uet_pds_tx_fini(&tx);
}
END_TEST

/* The receiver answers a request, and after the message's last packet
 * every packet: no later request can cover one that arrives then. */
START_TEST(test_rx_acknowledges_request_and_after_last_packet)
{
	ck_assert(uet_pds_rx_acknowledges(true, false));
	ck_assert(uet_pds_rx_acknowledges(true, true));
	ck_assert(uet_pds_rx_acknowledges(false, true));
	ck_assert(!uet_pds_rx_acknowledges(false, false));
}
END_TEST

static Suite *pds_ack_request_suite(void)
{
	Suite *s = suite_create("pds_ack_request");
	TCase *tc = tcase_create("rule");

	tcase_add_test(tc, test_ack_request_default_every_packet);
	tcase_add_test(tc, test_ack_request_every_nth_first);
	tcase_add_test(tc, test_ack_request_every_nth_not_first);
	tcase_add_test(tc, test_ack_request_every_third_and_last);
	tcase_add_test(tc, test_ack_request_first_only);
	tcase_add_test(tc, test_ack_request_last_only);
	tcase_add_test(tc, test_ack_request_every_seventh_first_and_last);
	tcase_add_test(tc, test_ack_request_zero_n_read_as_one);
	tcase_add_test(tc, test_ack_request_retransmissions_count_toward_n);
	tcase_add_test(tc, test_ack_request_retransmitted_last_packet);
	tcase_add_test(tc, test_rx_acknowledges_request_and_after_last_packet);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(pds_ack_request_suite)
