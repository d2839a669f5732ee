/* SPDX-License-Identifier: BSD-3-Clause */
/* A team of lcores running a parted component's windows (sync_team.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <rte_common.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_per_lcore.h>

#include "sync_engine.h"
#include "sync_park.h"
#include "sync_share.h"
#include "sync_steal.h"
#include "sync_team.h"

struct team_member {
	struct sync_team *team;
	unsigned int lcore_id;
	struct sync_steal parts; /**< its run, taken from the front */
	uint32_t part_first;	 /**< its run as shared out */
	uint32_t part_count;
	struct sync_first_failure fail; /**< keyed by step */
	int64_t ran;			/**< events of this window */
	uint32_t seen_gen;
	uint32_t spins;
} __rte_cache_aligned;

struct sync_team {
	struct uet_component *comp;
	struct team_member *members;
	uint32_t n;
	uint32_t launched;     /**< workers started */
	struct sync_park gen;  /**< bumped for each window (and to quit) */
	struct sync_park done; /**< workers done with the window */
	uet_time_t end_ps;
	bool quit;
};

/* Which member the calling lcore is, and the step it is in. */
static RTE_DEFINE_PER_LCORE(uint32_t, team_self);
static RTE_DEFINE_PER_LCORE(uint32_t, team_step) = SYNC_TEAM_STEP_END;

uint32_t sync_team_self(void)
{
	return RTE_PER_LCORE(team_self);
}

uint32_t sync_team_step(void)
{
	return RTE_PER_LCORE(team_step);
}

uint32_t sync_team_size(const struct sync_team *t)
{
	return t->n;
}

static void member_run_part(struct team_member *m, uint32_t i)
{
	struct uet_component *c = m->team->comp;
	int64_t r;

	RTE_PER_LCORE(team_step) = 1u + i;
	r = c->parts.part_run(c, i, m->team->end_ps);
	if (r >= 0)
		m->ran += r;
	else
		sync_first_failure_note(&m->fail, 1u + i, (int)r);
	RTE_PER_LCORE(team_step) = SYNC_TEAM_STEP_END;
}

/* The member's own run of parts, then the last parts of the others',
 * the next member's first, so that two idle members rarely race for one
 * part. */
static void member_run(struct team_member *m)
{
	struct sync_team *t = m->team;
	const uint32_t self = (uint32_t)(m - t->members);
	uint32_t i, v;

	while (sync_steal_front(&m->parts, &i))
		member_run_part(m, i);
	for (v = 1; v < t->n; v++) {
		struct team_member *o = &t->members[(self + v) % t->n];

		while (sync_steal_back(&o->parts, &i))
			member_run_part(m, i);
	}
}

static int member_main(void *arg)
{
	struct team_member *m = arg;
	struct sync_team *t = m->team;

	RTE_PER_LCORE(team_self) = (uint32_t)(m - t->members);
	for (;;) {
		m->seen_gen =
			sync_park_wait(&t->gen, m->seen_gen, false, &m->spins);
		if (t->quit)
			return 0;
		member_run(m);
		sync_park_add(&t->done, 1);
	}
}

/* The parts over the members: contiguous runs of about equal weight, so
 * that neighbouring switches share an lcore. */
static int share_parts(struct sync_team *t)
{
	const struct uet_component_parts *pp = &t->comp->parts;
	uint32_t *first = calloc(t->n, sizeof(*first));
	uint32_t *count = calloc(t->n, sizeof(*count));
	uint32_t i;

	if (first == NULL || count == NULL) {
		free(first);
		free(count);
		return -ENOMEM;
	}
	sync_share_runs(pp->weight, pp->n, t->n, first, count);
	for (i = 0; i < t->n; i++) {
		t->members[i].part_first = first[i];
		t->members[i].part_count = count[i];
	}
	free(first);
	free(count);
	return 0;
}

static int launch(struct sync_team *t)
{
	unsigned int id = rte_lcore_id();
	uint32_t i;

	t->members[0].lcore_id = id;
	for (i = 1; i < t->n; i++) {
		int rc;

		id = rte_get_next_lcore(id, 1, 0);
		if (id >= RTE_MAX_LCORE)
			return -ERANGE;
		t->members[i].lcore_id = id;
		rc = rte_eal_remote_launch(member_main, &t->members[i], id);
		if (rc != 0)
			return rc < 0 ? rc : -EBUSY;
		t->launched = i;
	}
	return 0;
}

int sync_team_create(struct sync_team **tp, struct uet_component *comp,
		     uint32_t n)
{
	struct sync_team *t;
	uint32_t i;
	int rc;

	if (tp == NULL || comp == NULL || comp->parts.n == 0 ||
	    comp->parts.part_run == NULL || n == 0)
		return -EINVAL;
	if (n > rte_lcore_count())
		return -ERANGE;
	*tp = NULL;
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	t->comp = comp;
	/* More members than parts is allowed: one without parts only
	 * steals. */
	t->n = n;
	t->members = aligned_alloc(
		RTE_CACHE_LINE_SIZE,
		RTE_ALIGN_CEIL(n * sizeof(*t->members), RTE_CACHE_LINE_SIZE));
	if (t->members == NULL) {
		free(t);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		t->members[i] = (struct team_member){.team = t};
	rc = share_parts(t);
	if (rc == 0)
		rc = launch(t);
	if (rc < 0) {
		sync_team_free(t);
		return rc;
	}
	RTE_PER_LCORE(team_self) = 0;
	*tp = t;
	return 0;
}

/* Run a serial step of the window on the calling member, keyed as the
 * serial run would meet it. */
static int team_serial(struct sync_team *t, uint32_t step,
		       int (*fn)(struct uet_component *, uet_time_t,
				 uet_time_t),
		       uet_time_t start_ps, uet_time_t end_ps)
{
	int rc;

	RTE_PER_LCORE(team_step) = step;
	rc = fn(t->comp, start_ps, end_ps);
	RTE_PER_LCORE(team_step) = SYNC_TEAM_STEP_END;
	return rc;
}

static int window_end_fn(struct uet_component *c, uet_time_t start_ps,
			 uet_time_t end_ps)
{
	(void)start_ps;
	return c->parts.window_end(c, end_ps);
}

int64_t sync_team_run_window(struct sync_team *t, uet_time_t start_ps,
			     uet_time_t end_ps)
{
	struct sync_first_failure first;
	int64_t ran = 0;
	uint32_t i;
	int rc;

	if (t->comp->parts.window_begin != NULL) {
		rc = team_serial(t, SYNC_TEAM_STEP_BEGIN,
				 t->comp->parts.window_begin, start_ps, end_ps);
		if (rc < 0)
			return rc;
	}
	t->end_ps = end_ps;
	for (i = 0; i < t->n; i++) {
		struct team_member *m = &t->members[i];

		m->ran = 0;
		sync_first_failure_reset(&m->fail);
		sync_steal_reset(&m->parts, m->part_first, m->part_count);
	}
	if (t->n > 1) {
		sync_park_set(&t->done, 0);
		sync_park_add(&t->gen, 1);
	}
	member_run(&t->members[0]);
	if (t->n > 1)
		(void)sync_park_wait(&t->done, t->n - 1, true,
				     &t->members[0].spins);
	sync_first_failure_reset(&first);
	for (i = 0; i < t->n; i++) {
		const struct team_member *m = &t->members[i];

		if (m->fail.err != 0)
			sync_first_failure_note(&first, m->fail.at,
						m->fail.err);
		ran += m->ran;
	}
	if (first.err != 0)
		return first.err;
	if (t->comp->parts.window_end != NULL) {
		rc = team_serial(t, SYNC_TEAM_STEP_END, window_end_fn, start_ps,
				 end_ps);
		if (rc < 0)
			return rc;
	}
	return ran;
}

void sync_team_free(struct sync_team *t)
{
	uint32_t i;

	if (t == NULL)
		return;
	if (t->launched > 0) {
		t->quit = true;
		sync_park_add(&t->gen, 1);
		for (i = 1; i <= t->launched; i++)
			(void)rte_eal_wait_lcore(t->members[i].lcore_id);
	}
	free(t->members);
	free(t);
}
