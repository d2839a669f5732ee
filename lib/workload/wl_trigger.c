/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The workload engine's triggers (connection matrices): the one way a
 * rank's completion changes another rank. A trigger activated at t on
 * rank r starts a WAIT node of rank q at t + trigger_delay_ps (q != r)
 * or at t (q == r). The wiring picks a delay of at least its lookahead,
 * so that what q then posts is in q's future whatever q has run
 * meanwhile.
 *
 * What a completion changes beyond its own rank is deferred: the starts
 * of other ranks' nodes, and every activation of a trigger that nodes of
 * several ranks activate (its count and its multishot turn are shared, so
 * a start on the activating rank itself waits the delay too). The wiring
 * applies them with uet_wl_engine_flush() once every completion of its
 * window is in, sorted by (time, rank, the rank's own order): the engine
 * then ends each window in the same state whatever order the ranks'
 * completions came in, which is what lets every process of a run over
 * several (lcores or MPI ranks) keep the same engine (docs/workload.md,
 * "Triggers across hosts").
 */
#include <errno.h>
#include <stdlib.h>

#include "wl_engine_private.h"

/* Which rank activates each trigger: one, or several (TRIG_SHARED). */
void wl_trigger_ranks(struct uet_wl_engine *e)
{
	const struct uet_wl_program *prog = e->prog;
	uint32_t r, n, k;

	for (k = 0; k < prog->n_triggers; k++)
		e->trig_rank[k] = TRIG_NO_RANK;
	for (r = 0; r < prog->n_ranks; r++)
		for (n = 0; n < prog->ranks[r].n_nodes; n++) {
			const struct uet_wl_node *nd = &prog->ranks[r].nodes[n];
			uint32_t *tr;

			if ((nd->op != UET_WL_SEND && nd->op != UET_WL_RECV) ||
			    nd->trigger == 0 || nd->trigger > prog->n_triggers)
				continue;
			tr = &e->trig_rank[nd->trigger - 1];
			if (*tr == TRIG_NO_RANK)
				*tr = r;
			else if (*tr != r)
				*tr = TRIG_SHARED;
		}
}

/* A trigger starts one of its WAIT nodes: another rank's after the
 * trigger delay (from_rank TRIG_SHARED: whatever rank it is on). */
static void target_start(struct uet_wl_engine *e,
			 const struct uet_wl_target *tg, uint32_t from_rank,
			 uet_time_t t)
{
	struct wl_rank_state *s = &e->rs[tg->rank];
	uet_time_t at = tg->rank == from_rank ? t : t + e->trigger_delay_ps;

	if (at > s->ready_ps[tg->node])
		s->ready_ps[tg->node] = at;
	if (--s->pending[tg->node] == 0)
		wl_node_start(e, tg->rank, tg->node);
}

/* Keep what rank r's activation of trigger k at t changes beyond r. */
static void defer(struct uet_wl_engine *e, uint32_t k, uint32_t target,
		  uint32_t r, uet_time_t t)
{
	if (e->n_deferred == e->cap_deferred) {
		const uint32_t cap =
			e->cap_deferred != 0 ? 2u * e->cap_deferred : 64u;
		void *p = realloc(e->deferred, cap * sizeof(*e->deferred));

		if (p == NULL) {
			if (e->err == 0)
				e->err = -ENOMEM;
			return;
		}
		e->deferred = p;
		e->cap_deferred = cap;
	}
	e->deferred[e->n_deferred++] = (struct wl_deferred){
		.t_ps = t,
		.rank = r,
		.seq = e->defer_seq[r]++,
		.trig = k,
		.target = target,
	};
}

/* Start target i of trigger k, activated on rank r (TRIG_SHARED: in a
 * flush) at t: at once on r itself, else deferred to the flush. */
static void target_reach(struct uet_wl_engine *e, uint32_t k, uint32_t i,
			 uint32_t r, uet_time_t t)
{
	const struct uet_wl_target *tg = &e->prog->triggers[k].targets[i];

	if (r == TRIG_SHARED || tg->rank == r)
		target_start(e, tg, r, t);
	else
		defer(e, k, i, r, t);
}

/* Trigger k activated at t, on rank r (TRIG_SHARED: in a flush). */
static void trigger_apply(struct uet_wl_engine *e, uint32_t k, uint32_t r,
			  uet_time_t t)
{
	const struct uet_wl_trigger *tr = &e->prog->triggers[k];
	struct wl_trig_state *st = &e->trig[k];
	uint32_t i;

	st->activations++;
	switch (tr->kind) {
	case UET_WL_TRIG_MULTISHOT:
		/* Activations past the last target are ignored. */
		if (st->next < tr->n_targets)
			target_reach(e, k, st->next++, r, t);
		return;
	case UET_WL_TRIG_BARRIER:
		if (st->activations < tr->count)
			return;
		break;
	case UET_WL_TRIG_ONESHOT:
		break;
	}
	if (st->fired)
		return;
	st->fired = 1;
	for (i = 0; i < tr->n_targets; i++)
		target_reach(e, k, i, r, t);
}

/* A node naming trigger k finished on rank r at t: the trigger's state
 * is r's alone when only r activates it, else the flush takes it. */
void wl_trigger_activate(struct uet_wl_engine *e, uint32_t k, uint32_t r,
			 uet_time_t t)
{
	if (e->trig_rank[k] == r)
		trigger_apply(e, k, r, t);
	else
		defer(e, k, DEFER_ACTIVATE, r, t);
}

/* The flush's order: by time, then rank, then the rank's own order. */
static int deferred_cmp(const void *a, const void *b)
{
	const struct wl_deferred *x = a, *y = b;

	if (x->t_ps != y->t_ps)
		return x->t_ps < y->t_ps ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return 0;
}

int uet_wl_engine_flush(struct uet_wl_engine *e)
{
	struct wl_deferred *batch = NULL;
	uint32_t cap = 0;

	/* What the flush itself defers (a RECV that a start finishes at
	 * once) goes in the next round of the same flush. */
	while (e->n_deferred > 0 && e->err == 0) {
		const uint32_t n = e->n_deferred, batch_cap = e->cap_deferred;
		struct wl_deferred *swap = e->deferred;
		uint32_t i;

		/* The two arrays swap: the engine's fills while the batch
		 * is applied. */
		e->deferred = batch;
		e->cap_deferred = cap;
		e->n_deferred = 0;
		batch = swap;
		cap = batch_cap;
		qsort(batch, n, sizeof(*batch), deferred_cmp);
		for (i = 0; i < n && e->err == 0; i++) {
			const struct wl_deferred *d = &batch[i];

			if (d->target == DEFER_ACTIVATE)
				trigger_apply(e, d->trig, TRIG_SHARED, d->t_ps);
			else
				target_start(e,
					     &e->prog->triggers[d->trig]
						      .targets[d->target],
					     TRIG_SHARED, d->t_ps);
			(void)wl_drain(e);
		}
	}
	free(batch);
	return e->err;
}

void uet_wl_engine_set_trigger_delay(struct uet_wl_engine *e,
				     uet_time_t delay_ps)
{
	e->trigger_delay_ps = delay_ps;
}
