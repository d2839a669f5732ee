/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic on real frames between two NICs (nic_harness.c): many PDCs on
 * one NIC. Within a group the turn passes over a PDC whose packet the
 * window cannot take; and a NIC with more messages than PDC numbers
 * (65,535) has the rest wait, in post order, each for the number the
 * next close frees.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "nic_harness.h"
#include "uet_ses.h"

/* Window 4,184 + 188 bytes; messages of 4,096, 4,096 and 100 bytes (one
 * packet each: 4,184, 4,184 and 188 bytes nominal) posted in that order to
 * one peer. The first fills the window with 4,184 bytes; the second's
 * packet does not fit, the third's does: it goes second, and the second
 * waits for the first's ACK. */
START_TEST(test_turn_passes_over_a_pdc_whose_packet_does_not_fit)
{
	static const uint64_t sizes[] = {4096, 4096, 100};
	const struct h_frame *d;
	struct nic_pair pair;
	int i;

	h_init(&pair);
	pair.p.cc_algo = UET_CC_FIXED;
	pair.p.window_bytes = 4184 + 188;
	h_start(&pair);
	for (i = 0; i < 3; i++)
		ck_assert_int_eq(uet_nic_post_message(pair.nic[0], h_ip(1),
						      sizes[i], 0, i),
				 0);
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(pair.completed[0], 3);
	/* PDC numbers 1, 2, 3 in post order; frames go 1, 3, 2. */
	d = h_nth_frame(&pair, 0, H_DATA, 0);
	ck_assert_uint_eq(d->spdcid, 1);
	d = h_nth_frame(&pair, 0, H_DATA, 1);
	ck_assert_uint_eq(d->spdcid, 3);
	d = h_nth_frame(&pair, 0, H_DATA, 2);
	ck_assert_uint_eq(d->spdcid, 2);
	ck_assert_uint_gt(d->arrival_ps,
			  h_nth_frame(&pair, 1, H_ACK, 0)->arrival_ps);
	ck_assert_uint_eq(h_stats(&pair, 0).window_stalls, 1);
	h_check_invariants(&pair);
	h_fini(&pair);
}
END_TEST

#define WAIT_MESSAGES 70000u
#define PDC_NUMBERS 65535u

/* What the completions of the many-messages test saw, by message. */
struct seen {
	struct nic_pair *pair;
	uint16_t pdc[WAIT_MESSAGES];	    /* at its transmit completion */
	uet_time_t sent_ps[WAIT_MESSAGES];  /* its transmit completion */
	uet_time_t done_ps[WAIT_MESSAGES];  /* its completion */
	uint32_t sent_order[WAIT_MESSAGES]; /* message ids, as they went */
	uint32_t nsent, ndone;
};

static void seen_sent(void *ctx, const struct uet_ses_completion *c)
{
	struct seen *s = ctx;

	ck_assert_uint_lt(c->msg_id, WAIT_MESSAGES);
	s->pdc[c->msg_id] = c->pdc;
	s->sent_ps[c->msg_id] = c->time_ps;
	s->sent_order[s->nsent++] = (uint32_t)c->msg_id;
}

static void seen_arrived(void *ctx, const struct uet_ses_completion *c)
{
	struct seen *s = ctx;

	(void)c;
	s->pair->arrived[1]++;
}

static void seen_done(void *ctx, const struct uet_ses_completion *c)
{
	struct seen *s = ctx;

	s->done_ps[c->msg_id] = c->time_ps;
	s->ndone++;
}

/* 70,000 empty messages from NIC 0 to NIC 1, all posted at 0. The first
 * 65,535 take every PDC number at their doorbell (1,555 ps); the other
 * 4,465 wait. Message 0 completes first and its close frees number 1:
 * message 65,535 opens with it at that instant, and so on, one waiting
 * message per close, in post order. */
START_TEST(test_messages_past_65535_pdcs_wait_for_a_closed_number)
{
	struct seen *s = calloc(1, sizeof(*s));
	struct uet_ses_callbacks cb = {
		.sent = seen_sent,
		.arrived = seen_arrived,
		.completed = seen_done,
	};
	struct uet_nic_stats st;
	struct nic_pair pair;
	uint32_t i;

	ck_assert_ptr_nonnull(s);
	h_init(&pair);
	h_start(&pair);
	s->pair = &pair;
	cb.ctx = s;
	uet_nic_set_callbacks(pair.nic[0], &cb);
	uet_nic_set_callbacks(pair.nic[1], &cb);
	for (i = 0; i < WAIT_MESSAGES; i++)
		ck_assert_int_eq(
			uet_nic_post_message(pair.nic[0], h_ip(1), 0, 0, i), 0);
	/* Every doorbell has rung: 65,535 PDCs open, the rest wait. */
	h_run(&pair, 1556);
	st = h_stats(&pair, 0);
	ck_assert_uint_eq(st.transport.pdcs_open, PDC_NUMBERS);
	ck_assert_uint_eq(st.pdc_waits, WAIT_MESSAGES - PDC_NUMBERS);
	ck_assert(!uet_nic_idle(pair.nic[0]));
	h_run(&pair, RUN_END_PS);
	st = h_stats(&pair, 0);
	ck_assert_uint_eq(s->ndone, WAIT_MESSAGES);
	ck_assert_uint_eq(pair.arrived[1], WAIT_MESSAGES);
	ck_assert_uint_eq(st.transport.pdcs_created, WAIT_MESSAGES);
	ck_assert_uint_eq(st.pdc_waits, WAIT_MESSAGES - PDC_NUMBERS);
	ck_assert_uint_eq(st.transport.pdc_exhausted, 0);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.pdc_exhausted, 0);
	/* Transmit completions in post order. */
	ck_assert_uint_eq(s->nsent, WAIT_MESSAGES);
	for (i = 0; i < WAIT_MESSAGES; i++)
		ck_assert_uint_eq(s->sent_order[i], i);
	/* The first 65,535 took numbers 1 to 65,535; waiting message
	 * 65,535 + k took number k + 1, freed when message k completed,
	 * and went after that. */
	ck_assert_uint_eq(s->pdc[0], 1);
	ck_assert_uint_eq(s->pdc[PDC_NUMBERS - 1], PDC_NUMBERS);
	for (i = PDC_NUMBERS; i < WAIT_MESSAGES; i++) {
		ck_assert_uint_eq(s->pdc[i], i - PDC_NUMBERS + 1);
		ck_assert_uint_gt(s->sent_ps[i], s->done_ps[i - PDC_NUMBERS]);
	}
	h_check_invariants(&pair);
	h_fini(&pair);
	free(s);
}
END_TEST

static Suite *nic_pdcs_suite(void)
{
	Suite *s = suite_create("nic_pdcs");
	TCase *tc = tcase_create("pdcs");

	tcase_set_timeout(tc, 240);
	tcase_add_test(tc,
		       test_turn_passes_over_a_pdc_whose_packet_does_not_fit);
	tcase_add_test(tc,
		       test_messages_past_65535_pdcs_wait_for_a_closed_number);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_pdcs_suite)
