/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A group's ring of turns as a tree (nic_turns.c), on its own (no EAL, no
 * frames): new PDCs join just before the turn, and a search from the turn
 * finds the first PDC in ring order whose key fits the room, or the first
 * stale one, exactly as a walk of the ring would, whatever the joins,
 * leaves and key changes before it.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "nic_test_private.h"

#define MAX_PDCS 4000u

struct ring {
	struct nic_group g;
	struct nic_pdc *pdc[MAX_PDCS]; /* every PDC made, NULL once gone */
	uint32_t made;
	uint64_t rng;
};

static uint32_t next_rand(struct ring *r)
{
	r->rng = r->rng * UINT64_C(6364136223846793005) +
		 UINT64_C(1442695040888963407);
	return (uint32_t)(r->rng >> 33);
}

/* A PDC joins just before the turn, as nic_sched_pdc_join() links it. */
static struct nic_pdc *join(struct ring *r, uint32_t window_key,
			    uint32_t prefetch_key, bool stale)
{
	struct nic_group *g = &r->g;
	struct nic_pdc *pdc = calloc(1, sizeof(*pdc));

	ck_assert_ptr_nonnull(pdc);
	pdc->gen = ++r->made;
	pdc->tn.window_key = window_key;
	pdc->tn.prefetch_key = prefetch_key;
	pdc->tn.stale = stale;
	if (g->turn == NULL) {
		pdc->ring_next = pdc->ring_prev = pdc;
		g->turn = pdc;
		nic_turns_insert(g, pdc, NULL);
	} else {
		pdc->ring_next = g->turn;
		pdc->ring_prev = g->turn->ring_prev;
		g->turn->ring_prev->ring_next = pdc;
		g->turn->ring_prev = pdc;
		nic_turns_insert(g, pdc, g->turn);
	}
	g->tx_pdcs++;
	r->pdc[pdc->gen - 1] = pdc;
	return pdc;
}

static void leave(struct ring *r, struct nic_pdc *pdc)
{
	struct nic_group *g = &r->g;

	nic_turns_remove(g, pdc);
	if (g->tx_pdcs == 1) {
		g->turn = NULL;
	} else {
		pdc->ring_prev->ring_next = pdc->ring_next;
		pdc->ring_next->ring_prev = pdc->ring_prev;
		if (g->turn == pdc)
			g->turn = pdc->ring_next;
	}
	g->tx_pdcs--;
	r->pdc[pdc->gen - 1] = NULL;
	free(pdc);
}

static bool fits(const struct nic_pdc *p, const struct nic_turn_query *q)
{
	if (q->stale)
		return p->tn.stale;
	return (int64_t)p->tn.window_key <= q->window_room ||
	       (int64_t)p->tn.prefetch_key <= q->prefetch_room;
}

/* The walk the tree replaces: from the turn, around the ring once. */
static struct nic_pdc *walk(const struct ring *r,
			    const struct nic_turn_query *q, uint32_t *steps)
{
	struct nic_pdc *p = r->g.turn;
	uint32_t i;

	for (i = 0; i < r->g.tx_pdcs; i++, p = p->ring_next)
		if (fits(p, q)) {
			*steps = i;
			return p;
		}
	return NULL;
}

static uint32_t random_key(struct ring *r)
{
	/* Few distinct sizes, as a ring of full and last segments has. */
	static const uint32_t keys[] = {88, 188, 4184, 4184, 4184};

	return next_rand(r) % 3 == 0 ? NIC_TURN_NONE : keys[next_rand(r) % 5];
}

/* The worked example: PDCs 1 to 4 join with the turn on PDC 1, each just
 * before it (so last from it); then the turn moves to PDC 2 and PDC 5
 * joins between PDC 1 and PDC 2. From the turn the ring is 2, 3, 4, 1, 5;
 * the tree counts positions from where it began: 5, 2, 3, 4, 1. */
START_TEST(test_join_before_turn_search_from_turn)
{
	struct ring r;
	struct nic_turn_query q = {.window_room = 200, .prefetch_room = -1};
	struct nic_pdc *p[5];
	uint32_t pos;
	int i;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < 4; i++)
		p[i] = join(&r, i == 0 ? 188 : 4184, NIC_TURN_NONE, false);
	r.g.turn = p[1];
	p[4] = join(&r, 88, NIC_TURN_NONE, false);
	ck_assert_ptr_eq(p[1]->ring_prev, p[4]);
	ck_assert_ptr_eq(p[4]->ring_prev, p[0]);
	ck_assert_uint_eq(nic_turns_rank(p[4]), 0);
	ck_assert_uint_eq(nic_turns_rank(p[1]), 1);
	ck_assert_uint_eq(nic_turns_rank(p[3]), 3);
	ck_assert_uint_eq(nic_turns_rank(p[0]), 4);
	/* 200 bytes of room: PDCs 2, 3 and 4 (4,184 bytes) are passed
	 * over, PDC 1 (188 bytes) comes before PDC 5 (88 bytes). */
	ck_assert_ptr_eq(nic_turns_first(&r.g, 1, 5, &q, &pos), p[0]);
	ck_assert_uint_eq(pos, 4);
	/* Up to PDC 1, exclusive: nothing. */
	ck_assert_ptr_null(nic_turns_first(&r.g, 1, 3, &q, &pos));
	/* 100 bytes: PDC 5 only, past the tree's last position; 50: none;
	 * 4,184: PDC 2, at the turn. */
	q.window_room = 100;
	ck_assert_ptr_eq(nic_turns_first(&r.g, 1, 5, &q, &pos), p[4]);
	ck_assert_uint_eq(pos, 0);
	q.window_room = 50;
	ck_assert_ptr_null(nic_turns_first(&r.g, 1, 5, &q, &pos));
	q.window_room = 4184;
	ck_assert_ptr_eq(nic_turns_first(&r.g, 1, 5, &q, &pos), p[1]);
	ck_assert_uint_eq(pos, 1);
	/* The prefetch key is the other gate: either lets a PDC pass. */
	q.window_room = -1;
	p[3]->tn.prefetch_key = 4202;
	nic_turns_changed(p[3]);
	q.prefetch_room = 5000;
	ck_assert_ptr_eq(nic_turns_first(&r.g, 1, 5, &q, &pos), p[3]);
	ck_assert_uint_eq(pos, 3);
	/* Stale PDCs are the third search. */
	memset(&q, 0, sizeof(q));
	q.stale = true;
	ck_assert_ptr_null(nic_turns_first(&r.g, 1, 5, &q, &pos));
	p[2]->tn.stale = true;
	nic_turns_changed(p[2]);
	ck_assert_ptr_eq(nic_turns_first(&r.g, 1, 5, &q, &pos), p[2]);
	for (i = 0; i < 5; i++)
		leave(&r, p[i]);
	ck_assert_ptr_null(r.g.turn_root);
}
END_TEST

/* Thousands of random joins, leaves, key changes and turn moves: every
 * search, for the window, the prefetch buffer or stale PDCs, finds what
 * the walk of the ring finds, and positions count from the tree's first. */
START_TEST(test_search_finds_what_the_ring_walk_finds)
{
	struct ring *r = calloc(1, sizeof(*r));
	uint32_t op, i, steps, pos, checked = 0;

	ck_assert_ptr_nonnull(r);
	r->rng = 7;
	for (op = 0; op < 20000; op++) {
		uint32_t n = r->g.tx_pdcs, what = next_rand(r) % 10;
		struct nic_pdc *p = NULL, *hit, *want;
		struct nic_turn_query q;

		if (n > 0) {
			uint32_t k = next_rand(r) % n;

			for (p = r->g.turn; k > 0; k--)
				p = p->ring_next;
		}
		if (n == 0 && r->made == MAX_PDCS)
			break;
		if (n == 0 || (what < 3 && r->made < MAX_PDCS)) {
			join(r, random_key(r), random_key(r),
			     next_rand(r) % 8 == 0);
		} else if (what < 4 && n > 1) {
			leave(r, p);
		} else if (what < 6) {
			p->tn.window_key = random_key(r);
			p->tn.prefetch_key = random_key(r);
			p->tn.stale = next_rand(r) % 8 == 0;
			nic_turns_changed(p);
		} else if (what < 7) {
			r->g.turn = p;
		}
		if (r->g.tx_pdcs == 0)
			continue;
		memset(&q, 0, sizeof(q));
		q.stale = next_rand(r) % 4 == 0;
		q.window_room = (int64_t)(next_rand(r) % 5000) - 1;
		q.prefetch_room = (int64_t)(next_rand(r) % 5000) - 1;
		want = walk(r, &q, &steps);
		hit = nic_turns_first(&r->g, 0, 0, &q, &pos); /* count 0 */
		ck_assert_ptr_null(hit);
		hit = nic_turns_first(&r->g, nic_turns_rank(r->g.turn),
				      r->g.tx_pdcs, &q, &pos);
		ck_assert_ptr_eq(hit, want);
		if (hit != NULL) {
			ck_assert_uint_eq(pos, nic_turns_rank(hit));
			ck_assert_uint_eq((nic_turns_rank(r->g.turn) + steps) %
						  r->g.tx_pdcs,
					  pos);
			checked++;
		}
		ck_assert_uint_eq(r->g.turn_root->tn.size, r->g.tx_pdcs);
	}
	ck_assert_uint_gt(checked, 5000);
	for (i = 0; i < MAX_PDCS; i++)
		if (r->pdc[i] != NULL)
			leave(r, r->pdc[i]);
	ck_assert_ptr_null(r->g.turn_root);
	free(r);
}
END_TEST

static Suite *nic_turns_suite(void)
{
	Suite *s = suite_create("nic_turns");
	TCase *tc = tcase_create("turns");

	tcase_add_test(tc, test_join_before_turn_search_from_turn);
	tcase_add_test(tc, test_search_finds_what_the_ring_walk_finds);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_turns_suite)
