/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection matrices: the checks across lines. The header's counts, ids
 * once each, every trigger named exists and is activated, and every
 * connection can start.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_matrix.h"

static int trig_cmp(const void *a, const void *b)
{
	const struct cm_trig *x = a, *y = b;

	/* Lines break ties: a duplicate id is blamed on the later line. */
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int trig_id_cmp(const void *key, const void *elem)
{
	int64_t id = *(const int64_t *)key;
	const struct cm_trig *t = elem;

	return id < t->id ? -1 : id > t->id;
}

struct cm_trig *cm_trig_find(struct cm *c, int64_t id)
{
	if (c->n_trigs == 0)
		return NULL;
	return bsearch(&id, c->trigs, c->n_trigs, sizeof(*c->trigs),
		       trig_id_cmp);
}

/* Connections by (id, line), for the duplicate and msg checks. */
static int conn_idx_cmp(const void *a, const void *b, void *arg)
{
	const struct cm_conn *base = arg;
	const struct cm_conn *x = &base[*(const uint32_t *)a];
	const struct cm_conn *y = &base[*(const uint32_t *)b];

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int check_ids(struct cm *c)
{
	const struct cm_conn *first = NULL;
	uint32_t *idx, i;
	int rc = 0;

	idx = malloc((c->n_conns + 1u) * sizeof(*idx));
	if (idx == NULL)
		return -ENOMEM;
	for (i = 0; i < c->n_conns; i++)
		idx[i] = i;
	if (c->n_conns > 1)
		qsort_r(idx, c->n_conns, sizeof(*idx), conn_idx_cmp, c->conns);
	for (i = 0; i < c->n_conns && rc == 0; i++) {
		const struct cm_conn *x = &c->conns[idx[i]];
		bool later =
			i > 0 && x->id != 0 && c->conns[idx[i - 1]].id == x->id;

		if (x->id == 0)
			continue;
		/* The first line of the id's group opens the connection,
		 * with msg or without: uet-htsim (-conn_reuse) opens it at
		 * the first line of an id whatever it carries, and some of
		 * its own matrices (test_cr_*) mark every line msg. */
		if (!later)
			first = x;
		if (later && !x->msg)
			rc = cm_fail(c, x->line,
				     "id %" PRId64 " is already the id of line "
				     "%u (a further message of it needs msg)",
				     x->id, first->line);
		else if (later &&
			 (x->src != first->src || x->dst != first->dst))
			rc = cm_fail(c, x->line,
				     "msg on connection %" PRId64 " goes "
				     "%u->%u, and line %u made it %u->%u",
				     x->id, x->src, x->dst, first->line,
				     first->src, first->dst);
	}
	free(idx);
	return rc;
}

/* Count activators; trigger references must resolve. */
static int check_trigger_refs(struct cm *c)
{
	uint32_t i, e;

	for (i = 0; i < c->n_conns; i++) {
		const struct cm_conn *x = &c->conns[i];
		const int64_t ids[3] = {x->trigger, x->send_done, x->recv_done};
		const char *keys[3] = {"trigger", "send_done_trigger",
				       "recv_done_trigger"};

		for (e = 0; e < 3; e++) {
			struct cm_trig *t;

			if (ids[e] == 0)
				continue;
			t = cm_trig_find(c, ids[e]);
			if (t == NULL)
				return cm_fail(c, x->line,
					       "%s %" PRId64 ": no trigger "
					       "line defines it",
					       keys[e], ids[e]);
			if (e == 0)
				continue;
			if (t->activators++ == 0)
				t->first_activator_line = x->line;
			else if (t->activators == 2)
				t->second_activator_line = x->line;
			if (e == 1 && ids[2] == ids[1])
				return cm_fail(c, x->line,
					       "send_done_trigger and "
					       "recv_done_trigger are both "
					       "%" PRId64,
					       ids[1]);
		}
	}
	for (i = 0; i < c->n_trigs; i++) {
		const struct cm_trig *t = &c->trigs[i];

		if (i > 0 && c->trigs[i - 1].id == t->id)
			return cm_fail(c, t->line,
				       "trigger id %" PRId64 " is already "
				       "defined on line %u",
				       t->id, c->trigs[i - 1].line);
		if (t->kind == UET_WL_TRIG_ONESHOT && t->activators > 1)
			return cm_fail(c, t->line,
				       "trigger %" PRId64 " is oneshot and "
				       "lines %u and %u both activate it: it "
				       "can fire only once",
				       t->id, t->first_activator_line,
				       t->second_activator_line);
	}
	return 0;
}

/*
 * Every connection must be able to start: timed ones do; a triggered one
 * when its trigger gets enough activations from connections that start
 * (one for oneshot; count for a barrier; its place among the waiters for
 * multishot). A worklist: each connection is taken once.
 */
static uint32_t trig_index(struct cm *c, int64_t id)
{
	return (uint32_t)(cm_trig_find(c, id) - c->trigs);
}

static int check_starts(struct cm *c)
{
	uint32_t *acts, *off, *fill, *waiter, *queue, i, head = 0, tail = 0;
	int rc = 0;

	acts = calloc(c->n_trigs + 1u, sizeof(*acts));
	off = calloc(c->n_trigs + 2u, sizeof(*off));
	fill = calloc(c->n_trigs + 1u, sizeof(*fill));
	waiter = calloc(c->n_conns + 1u, sizeof(*waiter));
	queue = calloc(c->n_conns + 1u, sizeof(*queue));
	if (!acts || !off || !fill || !waiter || !queue) {
		rc = -ENOMEM;
		goto out;
	}
	/* The waiters of each trigger, in file order. */
	for (i = 0; i < c->n_conns; i++)
		if (c->conns[i].trigger != 0)
			off[trig_index(c, c->conns[i].trigger) + 1]++;
	for (i = 0; i < c->n_trigs; i++)
		off[i + 1] += off[i];
	for (i = 0; i < c->n_conns; i++) {
		struct cm_conn *x = &c->conns[i];

		x->startable = x->trigger == 0;
		if (x->startable) {
			queue[tail++] = i;
		} else {
			uint32_t k = trig_index(c, x->trigger);

			waiter[off[k] + fill[k]++] = i;
		}
	}
	while (head < tail) {
		const struct cm_conn *x = &c->conns[queue[head++]];
		const int64_t fires[2] = {x->send_done, x->recv_done};
		uint32_t e, k, w, from, to;

		for (e = 0; e < 2; e++) {
			const struct cm_trig *t;

			if (fires[e] == 0)
				continue;
			k = trig_index(c, fires[e]);
			t = &c->trigs[k];
			acts[k]++;
			/* Which waiters this activation starts. */
			if (t->kind == UET_WL_TRIG_MULTISHOT) {
				from = acts[k] - 1;
				to = acts[k];
			} else if (acts[k] == (t->kind == UET_WL_TRIG_BARRIER
						       ? t->count
						       : 1u)) {
				from = 0;
				to = off[k + 1] - off[k];
			} else {
				continue;
			}
			for (w = from; w < to && off[k] + w < off[k + 1]; w++) {
				uint32_t j = waiter[off[k] + w];

				c->conns[j].startable = true;
				queue[tail++] = j;
			}
		}
	}
	for (i = 0; i < c->n_conns && rc == 0; i++) {
		const struct cm_conn *x = &c->conns[i];
		const struct cm_trig *t;

		if (x->startable)
			continue;
		t = cm_trig_find(c, x->trigger);
		rc = cm_fail(c, x->line,
			     "this connection can never start: trigger "
			     "%" PRId64 " (line %u) gets %u activation(s) "
			     "from connections that start, and %s",
			     x->trigger, t->line, acts[t - c->trigs],
			     t->kind == UET_WL_TRIG_BARRIER
				     ? "its count is higher"
			     : t->kind == UET_WL_TRIG_MULTISHOT
				     ? "fewer than the connections waiting "
				       "before this one and this one"
				     : "it needs one");
	}
out:
	free(acts);
	free(off);
	free(fill);
	free(waiter);
	free(queue);
	return rc;
}

int cm_check(struct cm *c, uint32_t hosts)
{
	uint32_t i;
	int rc;

	if (c->nodes < 0)
		return cm_fail(c, 0, "no Nodes line in the header");
	if ((uint64_t)c->nodes != hosts)
		return cm_fail(c, c->nodes_line,
			       "Nodes %" PRId64 ", and topology.hosts is %u: "
			       "the matrix must name every host",
			       c->nodes, hosts);
	if (c->connections < 0)
		return cm_fail(c, 0, "no Connections line in the header");
	if ((uint64_t)c->connections != c->n_conns)
		return cm_fail(c, 0,
			       "Connections %" PRId64 " in the header, and "
			       "the file has %u connection lines",
			       c->connections, c->n_conns);
	if ((uint64_t)(c->triggers < 0 ? 0 : c->triggers) != c->n_trigs)
		return cm_fail(c, 0,
			       "Triggers %" PRId64 " in the header, and the "
			       "file has %u trigger lines",
			       c->triggers < 0 ? 0 : c->triggers, c->n_trigs);
	if (c->failures > 0)
		return cm_fail(c, 0,
			       "Failures %" PRId64 ": failure lines (switch "
			       "link failures) are not supported",
			       c->failures);
	/* Sorted by id from here on; lines stay in each entry. */
	if (c->n_trigs > 1)
		qsort(c->trigs, c->n_trigs, sizeof(*c->trigs), trig_cmp);
	rc = check_trigger_refs(c);
	if (rc == 0)
		rc = check_ids(c);
	if (rc == 0)
		rc = check_starts(c);
	for (i = 0; rc == 0 && i < c->n_trigs; i++)
		if (c->trigs[i].kind == UET_WL_TRIG_BARRIER &&
		    c->trigs[i].activators < c->trigs[i].count)
			rc = cm_fail(c, c->trigs[i].line,
				     "barrier %" PRId64 " counts to %u, and "
				     "only %u connection ends activate it",
				     c->trigs[i].id, c->trigs[i].count,
				     c->trigs[i].activators);
	return rc;
}
