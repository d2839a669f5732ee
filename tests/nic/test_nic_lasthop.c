/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A trimmed packet's CE mark through the NACK (cc-and-multipath 1.2, 1.6):
 * the receiver echoes CE as the NACK's M flag; the sender gives REPS a
 * last-hop trim as ECN when M is set (the value is discarded) and as a
 * recyclable path when it is not. A trim on the way is never recycled.
 * Retransmission and the window's reaction do not depend on M.
 */
#include <check.h>
#include <stdlib.h>

#include "check_main.h"
#include "nic_harness.h"
#include "uet_wire.h"

static const struct h_frame *nth_frame(const struct nic_pair *pair, int from,
				       enum h_kind kind, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < pair->nframes; i++)
		if (pair->frames[i].from == from &&
		    pair->frames[i].kind == kind && n-- == 0)
			return &pair->frames[i];
	return NULL;
}

/* What one run of a one-packet message, its packet trimmed, showed. */
struct outcome {
	uint8_t nack_flags, nack_code;
	uint16_t first_sport, retx_sport, nack_sport;
	uint8_t retx_flags;
	uet_time_t retx_arrival_ps;
	uint32_t data_frames, nacks, acks;
	uint64_t rto_expiries, trimmed_received;
};

/* Send one 4,096-byte packet from NIC 0 under REPS; the link trims it
 * with the given codepoint, CE-marked or not. */
static struct outcome trim_one(uint8_t dscp, bool ce)
{
	struct nic_pair pair;
	struct outcome o;
	struct uet_nic_stats s0, s1;
	const struct h_frame *d, *r, *n;

	h_init(&pair);
	pair.p.lb.algo = UET_LB_REPS;
	pair.trim_data[pair.ntrim_data++] = 0;
	pair.trim_dscp = dscp;
	pair.trim_ce = ce;
	h_start(&pair);
	ck_assert_int_eq(uet_nic_post_message(pair.nic[0], h_ip(1), 4096, 0, 7),
			 0);
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(pair.completed[0], 1);
	ck_assert_uint_eq(pair.arrived[1], 1);
	h_check_invariants(&pair);
	d = nth_frame(&pair, 0, H_DATA, 0);
	r = nth_frame(&pair, 0, H_DATA, 1);
	n = nth_frame(&pair, 1, H_NACK, 0);
	ck_assert_ptr_nonnull(d);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_nonnull(n);
	ck_assert(d->trimmed);
	ck_assert_uint_eq(r->psn, d->psn);
	ck_assert_uint_eq(n->psn, d->psn);
	uet_nic_stats(pair.nic[0], &s0);
	uet_nic_stats(pair.nic[1], &s1);
	o.nack_flags = n->flags;
	o.nack_code = n->nack_code;
	o.nack_sport = n->sport;
	o.first_sport = d->sport;
	o.retx_sport = r->sport;
	o.retx_flags = r->flags;
	o.retx_arrival_ps = r->arrival_ps;
	o.data_frames = pair.count[0][H_DATA];
	o.nacks = pair.count[1][H_NACK];
	o.acks = pair.count[1][H_ACK];
	o.rto_expiries = s0.transport.rto_expiries;
	o.trimmed_received = s1.transport.trimmed_received;
	h_fini(&pair);
	return o;
}

/* Everything but M and the balancer's choice is the same. */
static void same_recovery(const struct outcome *a, const struct outcome *b)
{
	ck_assert_uint_eq(a->nack_code, b->nack_code);
	ck_assert_uint_eq(a->first_sport, b->first_sport);
	ck_assert_uint_eq(a->retx_arrival_ps, b->retx_arrival_ps);
	ck_assert_uint_eq(a->data_frames, 2);
	ck_assert_uint_eq(b->data_frames, 2);
	ck_assert_uint_eq(a->nacks, 1);
	ck_assert_uint_eq(b->nacks, 1);
	ck_assert_uint_eq(a->acks, b->acks);
	ck_assert_uint_eq(a->rto_expiries, 0);
	ck_assert_uint_eq(b->rto_expiries, 0);
	ck_assert_uint_eq(a->trimmed_received, 1);
	ck_assert_uint_eq(b->trimmed_received, 1);
	ck_assert(a->retx_flags & UET_PDS_REQ_F_RETX);
	ck_assert(b->retx_flags & UET_PDS_REQ_F_RETX);
	/* The NACK goes back on the trimmed packet's entropy. */
	ck_assert_uint_eq(a->nack_sport, a->first_sport);
	ck_assert_uint_eq(b->nack_sport, b->first_sport);
}

/* Unmarked last-hop trim: no M; REPS recycles the value, so the
 * retransmission (the cache's only fresh entry) goes the same way. */
START_TEST(test_lasthop_trim_unmarked_recycled)
{
	struct outcome o = trim_one(UET_DSCP_DEFAULT_TRIMMED_LASTHOP, false);

	ck_assert_uint_eq(o.nack_code, UET_NACK_TRIMMED_LASTHOP);
	ck_assert_uint_eq(o.nack_flags, 0);
	ck_assert_uint_eq(o.retx_sport, o.first_sport);
}
END_TEST

/* CE-marked last-hop trim: M on the NACK, and no other flag; REPS gets
 * ECN and discards the value, so the retransmission takes a random one. */
START_TEST(test_lasthop_trim_marked_not_recycled)
{
	struct outcome o = trim_one(UET_DSCP_DEFAULT_TRIMMED_LASTHOP, true);

	ck_assert_uint_eq(o.nack_code, UET_NACK_TRIMMED_LASTHOP);
	ck_assert_uint_eq(o.nack_flags, UET_PDS_NACK_F_M);
	ck_assert_uint_ne(o.retx_sport, o.first_sport);
}
END_TEST

/* M changes only the balancer: the retransmission leaves at the same
 * picosecond (same NACK handling, same window after the trim). */
START_TEST(test_lasthop_trim_m_changes_only_the_path)
{
	struct outcome a = trim_one(UET_DSCP_DEFAULT_TRIMMED_LASTHOP, false);
	struct outcome b = trim_one(UET_DSCP_DEFAULT_TRIMMED_LASTHOP, true);

	same_recovery(&a, &b);
	ck_assert_uint_ne(a.retx_sport, b.retx_sport);
}
END_TEST

/* A trim on the way: the receiver still echoes CE as M, but the path is
 * blamed either way and its value never recycled. */
START_TEST(test_trim_on_the_way_never_recycled)
{
	struct outcome a = trim_one(UET_DSCP_DEFAULT_TRIMMED, false);
	struct outcome b = trim_one(UET_DSCP_DEFAULT_TRIMMED, true);

	ck_assert_uint_eq(a.nack_code, UET_NACK_TRIMMED);
	ck_assert_uint_eq(a.nack_flags, 0);
	ck_assert_uint_eq(b.nack_flags, UET_PDS_NACK_F_M);
	same_recovery(&a, &b);
	ck_assert_uint_ne(a.retx_sport, a.first_sport);
	/* Neither run recycled, so both drew the same random value. */
	ck_assert_uint_eq(a.retx_sport, b.retx_sport);
}
END_TEST

static Suite *nic_lasthop_suite(void)
{
	Suite *s = suite_create("nic-lasthop");
	TCase *tc = tcase_create("last-hop trim feedback");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_lasthop_trim_unmarked_recycled);
	tcase_add_test(tc, test_lasthop_trim_marked_not_recycled);
	tcase_add_test(tc, test_lasthop_trim_m_changes_only_the_path);
	tcase_add_test(tc, test_trim_on_the_way_never_recycled);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_lasthop_suite)
