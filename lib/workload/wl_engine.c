/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The workload engine: runs a program's rank graphs in virtual time.
 *
 * A node's finish time is known either at once (NOP: when ready; COMP:
 * ready + duration) or from the network (SEND: its message's transmit
 * completion at the source; RECV: max(ready, arrival of the matching message)).
 * When a node finishes, each successor's ready time becomes the latest finish
 * of its dependencies; a SEND is posted at its ready time, never before the
 * completion being handled, so the post is in the NIC's future.
 *
 * Every decision of a rank is taken from that rank's own completions
 * (SEND: the source NIC's; RECV: the destination NIC's), the way a host
 * reacts to its own NIC: a completion on one NIC never changes another
 * rank's state. Messages are matched by (source, tag) in send order: the
 * k-th message rank s sends to rank d with tag t satisfies the k-th RECV of
 * d from s with tag t, whatever order they arrive in. Work is processed in
 * FIFO order, so a run is deterministic.
 *
 * Triggers (connection matrices) are the one way a rank's completion
 * changes another rank: wl_trigger.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_engine_private.h"

static int chan_cmp(const void *a, const void *b)
{
	const struct wl_chan *x = a, *y = b;

	if (x->peer != y->peer)
		return x->peer < y->peer ? -1 : 1;
	if (x->tag != y->tag)
		return x->tag < y->tag ? -1 : 1;
	return 0;
}

static int32_t chan_find(const struct wl_chan *c, uint32_t n, uint32_t peer,
			 uint64_t tag)
{
	struct wl_chan key = {.peer = peer, .tag = tag};
	const struct wl_chan *f = bsearch(&key, c, n, sizeof(*c), chan_cmp);

	return f ? (int32_t)(f - c) : -1;
}

/* Unique channels of one direction, sorted, with their counts. */
static int build_chans(const struct uet_wl_rank *rk, enum uet_wl_op op,
		       struct wl_chan **cp, uint32_t *np)
{
	struct wl_chan *c = calloc(rk->n_nodes + 1u, sizeof(*c));
	uint32_t i, n = 0, u = 0;

	if (c == NULL)
		return -ENOMEM;
	for (i = 0; i < rk->n_nodes; i++)
		if (rk->nodes[i].op == op)
			c[n++] = (struct wl_chan){.peer = rk->nodes[i].peer,
						  .tag = rk->nodes[i].tag};
	qsort(c, n, sizeof(*c), chan_cmp);
	for (i = 0; i < n; i++) {
		if (u > 0 && chan_cmp(&c[u - 1], &c[i]) == 0) {
			c[u - 1].count++;
			continue;
		}
		c[u] = c[i];
		c[u++].count = 1;
	}
	*cp = c;
	*np = u;
	return 0;
}

static int rank_init(struct wl_rank_state *s, const struct uet_wl_rank *rk)
{
	uint32_t n = rk->n_nodes, i, j, total = 0;
	uint32_t *fill;
	int rc;

	s->pending = calloc(n + 1u, sizeof(*s->pending));
	s->ready_ps = calloc(n + 1u, sizeof(*s->ready_ps));
	s->finish_ps = calloc(n + 1u, sizeof(*s->finish_ps));
	s->succ_off = calloc(n + 2u, sizeof(*s->succ_off));
	s->chan = calloc(n + 1u, sizeof(*s->chan));
	for (i = 0; i < n; i++)
		total += rk->nodes[i].n_deps;
	s->succ = calloc(total + 1u, sizeof(*s->succ));
	fill = calloc(n + 1u, sizeof(*fill));
	if (!s->pending || !s->ready_ps || !s->finish_ps || !s->succ_off ||
	    !s->chan || !s->succ || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		/* A WAIT also waits for its trigger. */
		s->pending[i] =
			rk->nodes[i].n_deps + (rk->nodes[i].op == UET_WL_WAIT);
		s->finish_ps[i] = UET_TIME_NEVER;
		for (j = 0; j < rk->nodes[i].n_deps; j++)
			s->succ_off[rk->nodes[i].deps[j] + 1]++;
	}
	for (i = 0; i < n; i++)
		s->succ_off[i + 1] += s->succ_off[i];
	for (i = 0; i < n; i++)
		for (j = 0; j < rk->nodes[i].n_deps; j++) {
			uint32_t d = rk->nodes[i].deps[j];

			s->succ[s->succ_off[d] + fill[d]++] = i;
		}
	free(fill);
	rc = build_chans(rk, UET_WL_SEND, &s->send, &s->n_send);
	if (rc == 0)
		rc = build_chans(rk, UET_WL_RECV, &s->recv, &s->n_recv);
	if (rc < 0)
		return rc;
	for (i = 0; i < s->n_recv; i++) {
		struct wl_chan *c = &s->recv[i];

		c->arr_ps = malloc(c->count * sizeof(*c->arr_ps));
		c->wait_node = malloc(c->count * sizeof(*c->wait_node));
		if (c->arr_ps == NULL || c->wait_node == NULL)
			return -ENOMEM;
		for (j = 0; j < c->count; j++) {
			c->arr_ps[j] = UET_TIME_NEVER;
			c->wait_node[j] = NO_NODE;
		}
	}
	for (i = 0; i < n; i++) {
		const struct uet_wl_node *nd = &rk->nodes[i];

		if (nd->op == UET_WL_SEND)
			s->chan[i] = (uint32_t)chan_find(s->send, s->n_send,
							 nd->peer, nd->tag);
		else if (nd->op == UET_WL_RECV)
			s->chan[i] = (uint32_t)chan_find(s->recv, s->n_recv,
							 nd->peer, nd->tag);
	}
	return 0;
}

static void rank_free(struct wl_rank_state *s)
{
	uint32_t i;

	for (i = 0; s->recv != NULL && i < s->n_recv; i++) {
		free(s->recv[i].arr_ps);
		free(s->recv[i].wait_node);
	}
	free(s->pending);
	free(s->ready_ps);
	free(s->finish_ps);
	free(s->succ_off);
	free(s->succ);
	free(s->chan);
	free(s->send);
	free(s->recv);
}

void uet_wl_engine_free(struct uet_wl_engine *e)
{
	uint32_t r;

	if (e == NULL)
		return;
	for (r = 0; e->rs != NULL && r < e->prog->n_ranks; r++)
		rank_free(&e->rs[r]);
	free(e->rs);
	free(e->msgs);
	free(e->trig);
	free(e->trig_rank);
	free(e->deferred);
	free(e->defer_seq);
	free(e->queue);
	free(e);
}

int uet_wl_engine_create(struct uet_wl_engine **ep,
			 const struct uet_wl_program *prog, uet_wl_post_fn post,
			 void *ctx)
{
	struct uet_wl_engine *e;
	uint32_t r, max_nodes = 0;
	int rc = 0;

	*ep = NULL;
	if (prog == NULL || prog->n_ranks == 0 || post == NULL)
		return -EINVAL;
	e = calloc(1, sizeof(*e));
	if (e == NULL)
		return -ENOMEM;
	e->prog = prog;
	e->post = post;
	e->ctx = ctx;
	e->rs = calloc(prog->n_ranks, sizeof(*e->rs));
	e->msgs = calloc(prog->n_messages + 1u, sizeof(*e->msgs));
	e->trig = calloc(prog->n_triggers + 1u, sizeof(*e->trig));
	e->trig_rank = calloc(prog->n_triggers + 1u, sizeof(*e->trig_rank));
	e->defer_seq = calloc(prog->n_ranks, sizeof(*e->defer_seq));
	if (e->rs == NULL || e->msgs == NULL || e->trig == NULL ||
	    e->trig_rank == NULL || e->defer_seq == NULL)
		rc = -ENOMEM;
	else
		wl_trigger_ranks(e);
	for (r = 0; r < prog->n_ranks && rc == 0; r++) {
		rc = rank_init(&e->rs[r], &prog->ranks[r]);
		max_nodes += prog->ranks[r].n_nodes;
	}
	/* Every node is queued at most once. */
	e->q_cap = max_nodes + 1u;
	e->queue = rc == 0 ? calloc(e->q_cap, sizeof(*e->queue)) : NULL;
	if (rc == 0 && e->queue == NULL)
		rc = -ENOMEM;
	if (rc < 0) {
		uet_wl_engine_free(e);
		return rc;
	}
	*ep = e;
	return 0;
}

static void node_finish(struct uet_wl_engine *e, uint32_t r, uint32_t n,
			uet_time_t t)
{
	struct wl_rank_state *s = &e->rs[r];

	s->finish_ps[n] = t;
	s->n_finished++;
	if (t > s->end_ps)
		s->end_ps = t;
	e->queue[(e->q_head + e->q_len++) % e->q_cap] = (struct wl_work){r, n};
}

void wl_node_start(struct uet_wl_engine *e, uint32_t r, uint32_t n)
{
	const struct uet_wl_node *nd = &e->prog->ranks[r].nodes[n];
	struct wl_rank_state *s = &e->rs[r];
	uet_time_t ready = s->ready_ps[n];

	switch (nd->op) {
	case UET_WL_NOP:
	case UET_WL_WAIT:
		node_finish(e, r, n, ready);
		break;
	case UET_WL_COMP:
		node_finish(e, r, n, ready + nd->duration_ps);
		break;
	case UET_WL_SEND: {
		uint64_t id = e->prog->msg_base[r] + s->n_posted++;
		struct wl_msg *m = &e->msgs[id];
		struct wl_rank_state *d = &e->rs[nd->peer];
		int rc;

		/* The receiver's channel index is static (found from the
		 * program, not from the receiver's run state). */
		m->src = r;
		m->dst = nd->peer;
		m->node = n;
		m->seq = s->send[s->chan[n]].next++;
		m->recv_chan =
			(uint32_t)chan_find(d->recv, d->n_recv, r, nd->tag);
		m->posted = 1;
		m->posted_ps = ready;
		m->sent_ps = UET_TIME_NEVER;
		m->arrived_ps = UET_TIME_NEVER;
		rc = e->post(e->ctx, r, nd->peer, nd->bytes, ready, id);
		if (rc < 0 && e->err == 0)
			e->err = rc;
		break;
	}
	case UET_WL_RECV: {
		struct wl_chan *c = &s->recv[s->chan[n]];
		uint32_t seq = c->next++;

		if (c->arr_ps[seq] != UET_TIME_NEVER)
			node_finish(e, r, n,
				    c->arr_ps[seq] > ready ? c->arr_ps[seq]
							   : ready);
		else
			c->wait_node[seq] = n;
		break;
	}
	}
}

/* Propagate every queued finish to the successors, FIFO. */
int wl_drain(struct uet_wl_engine *e)
{
	while (e->q_len > 0 && e->err == 0) {
		struct wl_work w = e->queue[e->q_head];
		struct wl_rank_state *s = &e->rs[w.rank];
		uet_time_t t = s->finish_ps[w.node];
		const struct uet_wl_node *nd =
			&e->prog->ranks[w.rank].nodes[w.node];
		uint32_t k;

		e->q_head = (e->q_head + 1) % e->q_cap;
		e->q_len--;
		for (k = s->succ_off[w.node]; k < s->succ_off[w.node + 1];
		     k++) {
			uint32_t m = s->succ[k];

			if (t > s->ready_ps[m])
				s->ready_ps[m] = t;
			if (--s->pending[m] == 0)
				wl_node_start(e, w.rank, m);
		}
		if ((nd->op == UET_WL_SEND || nd->op == UET_WL_RECV) &&
		    nd->trigger != 0)
			wl_trigger_activate(e, nd->trigger - 1, w.rank, t);
	}
	return e->err;
}

int uet_wl_engine_start(struct uet_wl_engine *e)
{
	uint32_t r, n;

	for (r = 0; r < e->prog->n_ranks; r++) {
		for (n = 0; n < e->prog->ranks[r].n_nodes; n++)
			if (e->rs[r].pending[n] == 0)
				wl_node_start(e, r, n);
		/* Rank by rank: each rank's start only touches itself. */
		if (wl_drain(e) < 0)
			return e->err;
	}
	return e->err;
}

int uet_wl_engine_arrived(struct uet_wl_engine *e, uint64_t msg_id,
			  uet_time_t time_ps)
{
	struct wl_msg *m;
	struct wl_chan *c;
	uint32_t n;

	if (msg_id >= e->prog->n_messages || !e->msgs[msg_id].posted ||
	    e->msgs[msg_id].arrived)
		return -EINVAL;
	m = &e->msgs[msg_id];
	m->arrived = 1;
	m->arrived_ps = time_ps;
	c = &e->rs[m->dst].recv[m->recv_chan];
	c->arr_ps[m->seq] = time_ps;
	n = c->wait_node[m->seq];
	if (n != NO_NODE) {
		uet_time_t ready = e->rs[m->dst].ready_ps[n];

		node_finish(e, m->dst, n, time_ps > ready ? time_ps : ready);
	}
	return wl_drain(e);
}

int uet_wl_engine_sent(struct uet_wl_engine *e, uint64_t msg_id,
		       uet_time_t time_ps)
{
	struct wl_msg *m;

	if (msg_id >= e->prog->n_messages || !e->msgs[msg_id].posted ||
	    e->msgs[msg_id].sent)
		return -EINVAL;
	m = &e->msgs[msg_id];
	m->sent = 1;
	m->sent_ps = time_ps;
	node_finish(e, m->src, m->node, time_ps);
	return wl_drain(e);
}

bool uet_wl_engine_done(const struct uet_wl_engine *e)
{
	uint32_t r;

	for (r = 0; r < e->prog->n_ranks; r++)
		if (e->rs[r].n_finished != e->prog->ranks[r].n_nodes)
			return false;
	return true;
}

uet_time_t uet_wl_engine_rank_end_ps(const struct uet_wl_engine *e,
				     uint32_t rank)
{
	if (rank >= e->prog->n_ranks ||
	    e->rs[rank].n_finished != e->prog->ranks[rank].n_nodes)
		return UET_TIME_NEVER;
	return e->rs[rank].end_ps;
}

uint32_t uet_wl_engine_rank_finished(const struct uet_wl_engine *e,
				     uint32_t rank)
{
	return rank < e->prog->n_ranks ? e->rs[rank].n_finished : 0;
}

int uet_wl_engine_coll_times(const struct uet_wl_engine *e, uint32_t rank,
			     uint32_t coll, uet_time_t *begin_ps,
			     uet_time_t *end_ps)
{
	const struct uet_wl_coll *c;

	if (rank >= e->prog->n_ranks || coll >= e->prog->ranks[rank].n_colls)
		return -EINVAL;
	c = &e->prog->ranks[rank].colls[coll];
	*begin_ps = e->rs[rank].finish_ps[c->begin];
	*end_ps = e->rs[rank].finish_ps[c->end];
	return *end_ps == UET_TIME_NEVER ? -EAGAIN : 0;
}

void uet_wl_engine_describe_rank(const struct uet_wl_engine *e, uint32_t rank,
				 char *buf, size_t len)
{
	static const char *const ops[] = {"NOP", "COMP", "SEND", "RECV",
					  "WAIT"};
	const struct uet_wl_rank *rk;
	uint32_t i;

	if (rank >= e->prog->n_ranks) {
		snprintf(buf, len, "no rank %u", rank);
		return;
	}
	rk = &e->prog->ranks[rank];
	for (i = 0; i < rk->n_nodes; i++) {
		const struct uet_wl_node *nd = &rk->nodes[i];

		if (e->rs[rank].finish_ps[i] != UET_TIME_NEVER ||
		    e->rs[rank].pending[i] != 0)
			continue;
		snprintf(buf, len,
			 "rank %u: %u of %u nodes finished; waiting on %s "
			 "(node id %" PRIu64 ", peer %u)",
			 rank, e->rs[rank].n_finished, rk->n_nodes, ops[nd->op],
			 nd->trace_id, nd->peer);
		return;
	}
	for (i = 0; i < rk->n_nodes; i++) {
		const struct uet_wl_node *nd = &rk->nodes[i];

		if (nd->op != UET_WL_WAIT ||
		    e->rs[rank].finish_ps[i] != UET_TIME_NEVER ||
		    nd->trigger == 0 || nd->trigger > e->prog->n_triggers)
			continue;
		snprintf(buf, len,
			 "rank %u: %u of %u nodes finished; waiting on trigger "
			 "%" PRIu64 " (line %" PRIu64 ")",
			 rank, e->rs[rank].n_finished, rk->n_nodes,
			 e->prog->triggers[nd->trigger - 1].id, nd->trace_id);
		return;
	}
	snprintf(buf, len, "rank %u: %u of %u nodes finished", rank,
		 e->rs[rank].n_finished, rk->n_nodes);
}

int uet_wl_engine_msg_info(const struct uet_wl_engine *e, uint64_t msg_id,
			   struct uet_wl_msg_info *info)
{
	const struct wl_msg *m;
	const struct uet_wl_node *nd;

	if (msg_id >= e->prog->n_messages)
		return -EINVAL;
	m = &e->msgs[msg_id];
	if (!m->posted)
		return -EAGAIN;
	nd = &e->prog->ranks[m->src].nodes[m->node];
	*info = (struct uet_wl_msg_info){
		.src = m->src,
		.dst = m->dst,
		.bytes = nd->bytes,
		.origin = nd->trace_id,
		.posted_ps = m->posted_ps,
		.sent_ps = m->sent_ps,
		.arrived_ps = m->arrived_ps,
	};
	return 0;
}
