/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A workload program: building the per-rank graphs, checking them (no
 * cycle, every receive matched) and numbering the messages.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_private.h"

int wl_fail(struct uet_wl_error *err, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL) {
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

int uet_wl_program_init(struct uet_wl_program *prog, uint32_t n_ranks)
{
	memset(prog, 0, sizeof(*prog));
	if (n_ranks == 0)
		return -EINVAL;
	prog->ranks = calloc(n_ranks, sizeof(*prog->ranks));
	prog->msg_base = calloc(n_ranks, sizeof(*prog->msg_base));
	if (prog->ranks == NULL || prog->msg_base == NULL) {
		uet_wl_program_free(prog);
		return -ENOMEM;
	}
	prog->n_ranks = n_ranks;
	return 0;
}

void uet_wl_program_free(struct uet_wl_program *prog)
{
	uint32_t r, i;

	for (r = 0; prog->ranks != NULL && r < prog->n_ranks; r++) {
		struct uet_wl_rank *rk = &prog->ranks[r];

		for (i = 0; i < rk->n_nodes; i++)
			free(rk->nodes[i].deps);
		free(rk->nodes);
		free(rk->colls);
	}
	for (i = 0; prog->triggers != NULL && i < prog->n_triggers; i++)
		free(prog->triggers[i].targets);
	free(prog->triggers);
	free(prog->ranks);
	free(prog->msg_base);
	memset(prog, 0, sizeof(*prog));
}

int uet_wl_add_node(struct uet_wl_program *prog, uint32_t rank,
		    const struct uet_wl_node *node, uint32_t *index)
{
	struct uet_wl_rank *rk;
	struct uet_wl_node *n;

	if (rank >= prog->n_ranks)
		return -EINVAL;
	rk = &prog->ranks[rank];
	if ((node->op == UET_WL_SEND || node->op == UET_WL_RECV) &&
	    node->peer >= prog->n_ranks)
		return -EINVAL;
	if (rk->n_nodes == rk->cap_nodes) {
		uint32_t cap = rk->cap_nodes ? rk->cap_nodes * 2u : 16u;
		void *p = realloc(rk->nodes, cap * sizeof(*rk->nodes));

		if (p == NULL)
			return -ENOMEM;
		rk->nodes = p;
		rk->cap_nodes = cap;
	}
	n = &rk->nodes[rk->n_nodes];
	*n = *node;
	n->deps = NULL;
	if (node->n_deps > 0) {
		n->deps = malloc(node->n_deps * sizeof(*n->deps));
		if (n->deps == NULL)
			return -ENOMEM;
		memcpy(n->deps, node->deps, node->n_deps * sizeof(*n->deps));
	}
	if (n->op == UET_WL_SEND)
		rk->n_sends++;
	if (index != NULL)
		*index = rk->n_nodes;
	rk->n_nodes++;
	return 0;
}

int uet_wl_add_trigger(struct uet_wl_program *prog, uint64_t id,
		       enum uet_wl_trigger_kind kind, uint32_t count,
		       uint32_t *index)
{
	struct uet_wl_trigger *t;

	/* Grown one by one: matrices have few triggers. */
	t = realloc(prog->triggers,
		    (prog->n_triggers + 1u) * sizeof(*prog->triggers));
	if (t == NULL)
		return -ENOMEM;
	prog->triggers = t;
	t = &prog->triggers[prog->n_triggers];
	memset(t, 0, sizeof(*t));
	t->id = id;
	t->kind = kind;
	t->count = count;
	if (index != NULL)
		*index = prog->n_triggers;
	prog->n_triggers++;
	return 0;
}

int uet_wl_add_wait(struct uet_wl_program *prog, uint32_t rank,
		    uint32_t trigger, uint64_t trace_id, uint32_t *node_index)
{
	struct uet_wl_node wait = {
		.trace_id = trace_id,
		.op = UET_WL_WAIT,
		.coll = -1,
		.trigger = trigger + 1,
	};
	struct uet_wl_trigger *t;
	uint32_t idx;
	int rc;

	if (rank >= prog->n_ranks || trigger >= prog->n_triggers)
		return -EINVAL;
	t = &prog->triggers[trigger];
	if (t->n_targets == t->cap_targets) {
		uint32_t cap = t->cap_targets ? t->cap_targets * 2u : 4u;
		void *p = realloc(t->targets, cap * sizeof(*t->targets));

		if (p == NULL)
			return -ENOMEM;
		t->targets = p;
		t->cap_targets = cap;
	}
	rc = uet_wl_add_node(prog, rank, &wait, &idx);
	if (rc < 0)
		return rc;
	t->targets[t->n_targets++] = (struct uet_wl_target){rank, idx};
	if (node_index != NULL)
		*node_index = idx;
	return 0;
}

/* Kahn's algorithm over one rank: every node must become ready. */
static int check_cycles(const struct uet_wl_program *prog, uint32_t r,
			struct uet_wl_error *err)
{
	const struct uet_wl_rank *rk = &prog->ranks[r];
	uint32_t *pending, *succ_n, *succ_off, *succ, *stack;
	uint32_t i, j, done = 0, top = 0, total = 0;
	int rc = 0;

	pending = calloc(rk->n_nodes + 1u, sizeof(*pending));
	succ_n = calloc(rk->n_nodes + 1u, sizeof(*succ_n));
	succ_off = calloc(rk->n_nodes + 1u, sizeof(*succ_off));
	stack = calloc(rk->n_nodes + 1u, sizeof(*stack));
	for (i = 0; i < rk->n_nodes; i++)
		total += rk->nodes[i].n_deps;
	succ = calloc(total + 1u, sizeof(*succ));
	if (!pending || !succ_n || !succ_off || !stack || !succ) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < rk->n_nodes; i++) {
		pending[i] = rk->nodes[i].n_deps;
		for (j = 0; j < rk->nodes[i].n_deps; j++)
			succ_n[rk->nodes[i].deps[j]]++;
	}
	for (i = 1; i < rk->n_nodes; i++)
		succ_off[i] = succ_off[i - 1] + succ_n[i - 1];
	memset(succ_n, 0, (rk->n_nodes + 1u) * sizeof(*succ_n));
	for (i = 0; i < rk->n_nodes; i++)
		for (j = 0; j < rk->nodes[i].n_deps; j++) {
			uint32_t d = rk->nodes[i].deps[j];

			succ[succ_off[d] + succ_n[d]++] = i;
		}
	for (i = 0; i < rk->n_nodes; i++)
		if (pending[i] == 0)
			stack[top++] = i;
	while (top > 0) {
		uint32_t n = stack[--top];

		done++;
		for (j = 0; j < succ_n[n]; j++) {
			uint32_t s = succ[succ_off[n] + j];

			if (--pending[s] == 0)
				stack[top++] = s;
		}
	}
	if (done != rk->n_nodes) {
		for (i = 0; i < rk->n_nodes && pending[i] == 0; i++)
			;
		rc = wl_fail(err,
			     "rank %u: dependency cycle: %u of %u nodes can "
			     "never run (node id %" PRIu64 " is one of them)",
			     r, rk->n_nodes - done, rk->n_nodes,
			     rk->nodes[i].trace_id);
	}
out:
	free(pending);
	free(succ_n);
	free(succ_off);
	free(succ);
	free(stack);
	return rc;
}

/* A (src, dst, tag) endpoint with a signed balance: sends minus receives. */
struct wl_pair {
	uint32_t src, dst;
	uint64_t tag;
	int64_t balance;
	uint64_t recv_trace_id; /* one receive on this pair, for the message */
};

static int pair_cmp(const void *a, const void *b)
{
	const struct wl_pair *x = a, *y = b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return 0;
}

static void tag_text(uint64_t tag, char *buf, size_t len)
{
	if (tag & UET_WL_COLL_TAG)
		snprintf(buf, len, "collective %" PRIu64 " step %" PRIu64,
			 (tag & ~UET_WL_COLL_TAG) >> 24, tag & 0xffffffu);
	else
		snprintf(buf, len, "%" PRId32, (int32_t)(uint32_t)tag);
}

/* Every receive needs a send with the same source, destination and tag;
 * sends without a receive are reported too (they would never be
 * consumed: a trace error just as well). */
static int check_matching(const struct uet_wl_program *prog,
			  struct uet_wl_error *err)
{
	struct wl_pair *p;
	size_t n = 0, i, j;
	uint32_t r, k;
	int rc = 0;

	for (r = 0; r < prog->n_ranks; r++)
		for (k = 0; k < prog->ranks[r].n_nodes; k++)
			n += prog->ranks[r].nodes[k].op == UET_WL_SEND ||
			     prog->ranks[r].nodes[k].op == UET_WL_RECV;
	if (n == 0)
		return 0;
	p = calloc(n, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	n = 0;
	for (r = 0; r < prog->n_ranks; r++)
		for (k = 0; k < prog->ranks[r].n_nodes; k++) {
			const struct uet_wl_node *nd = &prog->ranks[r].nodes[k];

			if (nd->op == UET_WL_SEND)
				p[n++] = (struct wl_pair){r, nd->peer, nd->tag,
							  1, 0};
			else if (nd->op == UET_WL_RECV)
				p[n++] = (struct wl_pair){nd->peer, r, nd->tag,
							  -1, nd->trace_id};
		}
	qsort(p, n, sizeof(*p), pair_cmp);
	for (i = 0; i < n && rc == 0; i = j) {
		int64_t bal = 0;
		uint64_t recv_id = 0;
		char tag[64];

		for (j = i; j < n && pair_cmp(&p[i], &p[j]) == 0; j++) {
			bal += p[j].balance;
			if (p[j].balance < 0)
				recv_id = p[j].recv_trace_id;
		}
		tag_text(p[i].tag, tag, sizeof(tag));
		if (bal < 0)
			rc = wl_fail(err,
				     "rank %u: a receive that can never match: "
				     "node id %" PRIu64 " waits for a message "
				     "from rank %u with tag %s, and rank %u "
				     "sends %" PRId64 " fewer such messages "
				     "than rank %u receives",
				     p[i].dst, recv_id, p[i].src, tag, p[i].src,
				     -bal, p[i].dst);
		else if (bal > 0)
			rc = wl_fail(err,
				     "rank %u: %" PRId64 " message(s) to rank "
				     "%u with tag %s that no receive matches",
				     p[i].src, bal, p[i].dst, tag);
	}
	free(p);
	return rc;
}

int uet_wl_program_check(struct uet_wl_program *prog, struct uet_wl_error *err)
{
	uint64_t base = 0;
	uint32_t r;
	int rc;

	for (r = 0; r < prog->n_ranks; r++) {
		const struct uet_wl_rank *rk = &prog->ranks[r];
		uint32_t i, j;

		for (i = 0; i < rk->n_nodes; i++)
			for (j = 0; j < rk->nodes[i].n_deps; j++)
				if (rk->nodes[i].deps[j] >= rk->n_nodes)
					return wl_fail(
						err,
						"rank %u: node id %" PRIu64
						" depends on node %u, "
						"which does not exist",
						r, rk->nodes[i].trace_id,
						rk->nodes[i].deps[j]);
		for (i = 0; i < rk->n_nodes; i++)
			if (rk->nodes[i].trigger > prog->n_triggers)
				return wl_fail(err,
					       "rank %u: node id %" PRIu64
					       " names trigger %u of %u",
					       r, rk->nodes[i].trace_id,
					       rk->nodes[i].trigger,
					       prog->n_triggers);
		rc = check_cycles(prog, r, err);
		if (rc < 0)
			return rc;
	}
	rc = check_matching(prog, err);
	if (rc < 0)
		return rc;
	for (r = 0; r < prog->n_ranks; r++) {
		prog->msg_base[r] = base;
		base += prog->ranks[r].n_sends;
	}
	prog->n_messages = base;
	return 0;
}
