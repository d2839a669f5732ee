/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A group's ring of turns (the page's "PDC groups and the transmit
 * scheduler", step 2) indexed by a balanced tree, so that the scheduler
 * finds the next PDC able to send without walking those that cannot.
 *
 * Step 2 tries the group's sending PDCs in ring order from the turn and
 * stops at the first one whose packet gets past its first gate (the
 * window at nominal size, or the prefetch buffer at wire size). A ring
 * walk costs every PDC waiting for an ACK: with thousands of PDCs open to
 * one peer each packet cost a walk of the ring, and a run of many small
 * messages grew with the square of their number. Here each sending PDC is
 * a node of a treap in ring order (a tree ordered by position, balanced by
 * random priorities), and each subtree keeps the least window key and the
 * least prefetch key of its PDCs: the first PDC from a position whose key
 * fits the room is found in O(log n), and so is a PDC's position. The
 * ring's own links (ring_next, ring_prev) stay: they give the turn's
 * successor at once.
 *
 * What a PDC's keys are is the scheduler's business (nic_sched.c,
 * pdc_sync); this file only orders and searches.
 */
#include "nic_private.h"

#define T(p) (&(p)->tn)

static uint32_t size_of(const struct nic_pdc *p)
{
	return p != NULL ? T(p)->size : 0;
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* Recompute p's subtree figures from its own and its children's. */
static void pull(struct nic_pdc *p)
{
	struct nic_turn *t = T(p);
	const struct nic_pdc *l = t->left, *r = t->right;

	t->size = 1 + size_of(l) + size_of(r);
	t->window_min = t->window_key;
	t->prefetch_min = t->prefetch_key;
	t->stale_any = t->stale;
	if (l != NULL) {
		t->window_min = min_u32(t->window_min, T(l)->window_min);
		t->prefetch_min = min_u32(t->prefetch_min, T(l)->prefetch_min);
		t->stale_any |= T(l)->stale_any;
	}
	if (r != NULL) {
		t->window_min = min_u32(t->window_min, T(r)->window_min);
		t->prefetch_min = min_u32(t->prefetch_min, T(r)->prefetch_min);
		t->stale_any |= T(r)->stale_any;
	}
}

static void pull_to_root(struct nic_pdc *p)
{
	for (; p != NULL; p = T(p)->parent)
		pull(p);
}

/* The link that points at p: its parent's child, or the root. */
static struct nic_pdc **link_of(struct nic_group *g, struct nic_pdc *p)
{
	struct nic_pdc *up = T(p)->parent;

	if (up == NULL)
		return &g->turn_root;
	return T(up)->left == p ? &T(up)->left : &T(up)->right;
}

/* Rotate p above its parent, keeping the order. */
static void rotate_up(struct nic_group *g, struct nic_pdc *p)
{
	struct nic_pdc *up = T(p)->parent, *mid;

	*link_of(g, up) = p;
	T(p)->parent = T(up)->parent;
	if (T(up)->left == p) {
		mid = T(p)->right;
		T(up)->left = mid;
		T(p)->right = up;
	} else {
		mid = T(p)->left;
		T(up)->right = mid;
		T(p)->left = up;
	}
	if (mid != NULL)
		T(mid)->parent = up;
	T(up)->parent = p;
	pull(up);
	pull(p);
}

/* A priority from the PDC's generation: fixed by the run, so the tree's
 * shape (and its cost) repeats, though no result depends on it. */
static uint32_t prio_of(uint32_t gen)
{
	uint32_t h = gen * UINT32_C(0x9e3779b1);

	h ^= h >> 15;
	h *= UINT32_C(0x85ebca77);
	return h ^ (h >> 13);
}

void nic_turns_insert(struct nic_group *g, struct nic_pdc *pdc,
		      struct nic_pdc *before)
{
	struct nic_turn *t = T(pdc);

	t->left = t->right = t->parent = NULL;
	t->prio = prio_of(pdc->gen);
	pull(pdc);
	if (before == NULL) {
		g->turn_root = pdc;
		return;
	}
	/* Just before `before` in order: its left child if it has none,
	 * else the right child of its predecessor. */
	if (T(before)->left == NULL) {
		T(before)->left = pdc;
		t->parent = before;
	} else {
		struct nic_pdc *p = T(before)->left;

		while (T(p)->right != NULL)
			p = T(p)->right;
		T(p)->right = pdc;
		t->parent = p;
	}
	pull_to_root(t->parent);
	while (t->parent != NULL && T(t->parent)->prio < t->prio)
		rotate_up(g, pdc);
}

void nic_turns_remove(struct nic_group *g, struct nic_pdc *pdc)
{
	struct nic_turn *t = T(pdc);
	struct nic_pdc *child, *up;

	/* Down to where it has at most one child, then spliced out. */
	while (t->left != NULL && t->right != NULL)
		rotate_up(g, T(t->left)->prio > T(t->right)->prio ? t->left
								  : t->right);
	child = t->left != NULL ? t->left : t->right;
	up = t->parent;
	*link_of(g, pdc) = child;
	if (child != NULL)
		T(child)->parent = up;
	t->left = t->right = t->parent = NULL;
	pull_to_root(up);
}

void nic_turns_changed(struct nic_pdc *pdc)
{
	struct nic_pdc *p;

	/* Sizes stay: once a subtree's figures come out as they were,
	 * those above it do too. */
	pull(pdc);
	for (p = T(pdc)->parent; p != NULL; p = T(p)->parent) {
		const struct nic_turn was = *T(p);

		pull(p);
		if (T(p)->window_min == was.window_min &&
		    T(p)->prefetch_min == was.prefetch_min &&
		    T(p)->stale_any == was.stale_any)
			break;
	}
}

uint32_t nic_turns_rank(const struct nic_pdc *pdc)
{
	uint32_t rank = size_of(T(pdc)->left);
	const struct nic_pdc *p = pdc, *up;

	for (up = T(p)->parent; up != NULL; p = up, up = T(p)->parent)
		if (T(up)->right == p)
			rank += size_of(T(up)->left) + 1;
	return rank;
}

/* Whether p's subtree may hold a PDC the query asks for. */
static bool subtree_may(const struct nic_pdc *p, const struct nic_turn_query *q)
{
	const struct nic_turn *t = T(p);

	if (q->stale)
		return t->stale_any;
	return (int64_t)t->window_min <= q->window_room ||
	       (int64_t)t->prefetch_min <= q->prefetch_room;
}

/* Whether p itself is such a PDC. */
static bool node_is(const struct nic_pdc *p, const struct nic_turn_query *q)
{
	const struct nic_turn *t = T(p);

	if (q->stale)
		return t->stale;
	return (int64_t)t->window_key <= q->window_room ||
	       (int64_t)t->prefetch_key <= q->prefetch_room;
}

/*
 * The first PDC at position lo or later of p's subtree (positions
 * counted from its first) that the query asks for, with its position in
 * *pos (offset by base). Only the left spine above lo is walked without
 * the figures' guidance, so this costs O(depth).
 */
static struct nic_pdc *first_from(struct nic_pdc *p, uint32_t lo, uint32_t base,
				  const struct nic_turn_query *q, uint32_t *pos)
{
	while (p != NULL && subtree_may(p, q)) {
		uint32_t nl = size_of(T(p)->left);

		if (lo < nl) {
			struct nic_pdc *hit =
				first_from(T(p)->left, lo, base, q, pos);

			if (hit != NULL)
				return hit;
		}
		if (lo <= nl && node_is(p, q)) {
			*pos = base + nl;
			return p;
		}
		lo = lo > nl + 1 ? lo - nl - 1 : 0;
		base += nl + 1;
		p = T(p)->right;
	}
	return NULL;
}

struct nic_pdc *nic_turns_first(struct nic_group *g, uint32_t from,
				uint32_t count, const struct nic_turn_query *q,
				uint32_t *pos)
{
	const uint32_t n = g->tx_pdcs;
	struct nic_pdc *hit;
	uint32_t end = from + count;

	if (count == 0)
		return NULL;
	hit = first_from(g->turn_root, from, 0, q, pos);
	if (hit != NULL)
		return *pos < end ? hit : NULL;
	if (end <= n)
		return NULL;
	/* Round the ring past its last position. */
	hit = first_from(g->turn_root, 0, 0, q, pos);
	return hit != NULL && *pos < end - n ? hit : NULL;
}
