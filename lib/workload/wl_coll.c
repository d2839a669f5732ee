/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Collectives broken into point-to-point messages. Each collective of a
 * rank becomes a begin NOP (waiting for the trace node's dependencies),
 * the SEND and RECV nodes of its algorithm, and an end NOP waiting for all
 * of them. Every message of the k-th collective of a rank carries the tag
 * UET_WL_COLL_TAG | k << 24 | step, so the k-th collectives of all ranks
 * match each other and nothing else.
 *
 * The algorithms, for N ranks, S bytes and rank r:
 * - ring: steps of one chunk (S/N, the first S%N chunks one byte more) to
 *   r+1 and one from r-1; step s+1 waits for the receive of step s.
 *   all-reduce takes 2(N-1) steps, all-gather and reduce-scatter N-1,
 *   barrier N-1 empty messages. Broadcast as a ring is a chain from the
 *   root carrying all S bytes.
 * - direct: one round in which every rank sends a chunk to every other
 *   (all-to-all, all-gather, reduce-scatter); all-reduce is two rounds,
 *   the second after the first's receives; reduce and gather send to the
 *   root (S and S/N bytes), scatter sends S/N from the root.
 * - tree: binary tree over ranks numbered from the root: broadcast sends
 *   S down after receiving it, reduce sends S up after the children's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_private.h"

/* Most dependencies one synthetic node has: its inputs, bounded by 2. */
struct coll_ctx {
	struct uet_wl_program *prog;
	uint32_t rank, n;
	uint64_t trace_id;
	uint64_t tag_base;
	int32_t coll;
	uet_time_t reduce_chunk_ps;
	uint32_t *all; /* every message node, for the end NOP */
	uint32_t n_all;
};

static const char *const algo_names[] = {
	[UET_WL_ALGO_DEFAULT] = "default",
	[UET_WL_ALGO_RING] = "ring",
	[UET_WL_ALGO_DIRECT] = "direct",
	[UET_WL_ALGO_TREE] = "tree",
};

static const char *const type_names[UET_WL_COLL_TYPES] = {
	"all_reduce", "reduce",		"all_gather",
	"gather",     "scatter",	"broadcast",
	"all_to_all", "reduce_scatter", "reduce_scatter_block",
	"barrier",
};

/* By type: the default algorithm, then a bit per supported algorithm. */
static const struct {
	enum uet_wl_algo dflt;
	unsigned int ok;
} type_algos[UET_WL_COLL_TYPES] = {
#define A(x) (1u << UET_WL_ALGO_##x)
	[UET_WL_ALL_REDUCE] = {UET_WL_ALGO_RING, A(RING) | A(DIRECT)},
	[UET_WL_REDUCE] = {UET_WL_ALGO_DIRECT, A(DIRECT) | A(TREE)},
	[UET_WL_ALL_GATHER] = {UET_WL_ALGO_RING, A(RING) | A(DIRECT)},
	[UET_WL_GATHER] = {UET_WL_ALGO_DIRECT, A(DIRECT)},
	[UET_WL_SCATTER] = {UET_WL_ALGO_DIRECT, A(DIRECT)},
	[UET_WL_BROADCAST] = {UET_WL_ALGO_TREE, A(TREE) | A(RING)},
	[UET_WL_ALL_TO_ALL] = {UET_WL_ALGO_DIRECT, A(DIRECT)},
	[UET_WL_REDUCE_SCATTER] = {UET_WL_ALGO_RING, A(RING) | A(DIRECT)},
	[UET_WL_REDUCE_SCATTER_BLOCK] = {UET_WL_ALGO_RING, A(RING) | A(DIRECT)},
	[UET_WL_BARRIER] = {UET_WL_ALGO_RING, A(RING) | A(DIRECT)},
#undef A
};

const char *uet_wl_algo_name(enum uet_wl_algo algo)
{
	if ((unsigned int)algo >= sizeof(algo_names) / sizeof(algo_names[0]))
		return "unknown";
	return algo_names[algo];
}

int uet_wl_algo_parse(const char *name, enum uet_wl_algo *algo)
{
	unsigned int i;

	for (i = 1; i < sizeof(algo_names) / sizeof(algo_names[0]); i++)
		if (strcmp(name, algo_names[i]) == 0) {
			*algo = (enum uet_wl_algo)i;
			return 0;
		}
	return -EINVAL;
}

const char *uet_wl_coll_type_name(uint32_t type)
{
	return type < UET_WL_COLL_TYPES ? type_names[type] : "unknown";
}

bool uet_wl_algo_supported(uint32_t type, enum uet_wl_algo algo)
{
	if (type >= UET_WL_COLL_TYPES)
		return false;
	if (algo == UET_WL_ALGO_DEFAULT)
		return true;
	return (type_algos[type].ok & (1u << algo)) != 0;
}

/* Bytes of chunk idx when S bytes are cut into n chunks. */
static uint64_t chunk_bytes(uint64_t s, uint32_t n, uint32_t idx)
{
	return s / n + (idx < s % n ? 1u : 0u);
}

static int add_msg(struct coll_ctx *c, enum uet_wl_op op, uint32_t peer,
		   uint32_t step, uint64_t bytes, const uint32_t *deps,
		   uint32_t n_deps, uint32_t *index)
{
	struct uet_wl_node nd = {
		.trace_id = c->trace_id,
		.op = op,
		.peer = peer,
		.tag = c->tag_base | step,
		.bytes = bytes,
		.coll = c->coll,
		.n_deps = n_deps,
		.deps = (uint32_t *)(uintptr_t)deps,
	};
	uint32_t idx;
	int rc = uet_wl_add_node(c->prog, c->rank, &nd, &idx);

	if (rc < 0)
		return rc;
	c->all[c->n_all++] = idx;
	if (index != NULL)
		*index = idx;
	return 0;
}

/* Ring of steps chunks; step s sends chunk (r - s) mod n; the receives
 * of the first reduce_steps steps are followed by a reduction COMP. */
static int coll_ring(struct coll_ctx *c, uint32_t begin, uint32_t steps,
		     uint64_t bytes, uint32_t reduce_steps)
{
	uint32_t s, prev_recv = begin, next = (c->rank + 1) % c->n;
	uint32_t prev = (c->rank + c->n - 1) % c->n;
	int rc;

	for (s = 0; s < steps; s++) {
		uint32_t idx = (c->rank + c->n * steps - s) % c->n;
		uint64_t b = bytes == 0 ? 0 : chunk_bytes(bytes, c->n, idx);

		rc = add_msg(c, UET_WL_SEND, next, s, b, &prev_recv, 1, NULL);
		if (rc == 0)
			rc = add_msg(c, UET_WL_RECV, prev, s, 0, &prev_recv, 1,
				     &prev_recv);
		if (rc == 0 && s < reduce_steps && c->reduce_chunk_ps > 0) {
			struct uet_wl_node comp = {
				.trace_id = c->trace_id,
				.op = UET_WL_COMP,
				.duration_ps = c->reduce_chunk_ps,
				.coll = c->coll,
				.n_deps = 1,
				.deps = &prev_recv,
			};

			rc = uet_wl_add_node(c->prog, c->rank, &comp,
					     &prev_recv);
			if (rc == 0)
				c->all[c->n_all++] = prev_recv;
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* One direct round starting at step base: a chunk to every other rank,
 * one from each; *last is set to a NOP after the round's receives. */
static int coll_direct_round(struct coll_ctx *c, uint32_t begin, uint32_t step,
			     uint64_t bytes, uint32_t *last)
{
	uint32_t first = c->n_all, k, i;
	uint32_t deps[1] = {begin};
	int rc;

	for (k = 1; k < c->n; k++) {
		uint32_t to = (c->rank + k) % c->n;
		uint32_t from = (c->rank + c->n - k) % c->n;

		rc = add_msg(c, UET_WL_SEND, to, step,
			     chunk_bytes(bytes, c->n, to), deps, 1, NULL);
		if (rc == 0)
			rc = add_msg(c, UET_WL_RECV, from, step, 0, deps, 1,
				     NULL);
		if (rc < 0)
			return rc;
	}
	if (last != NULL) {
		uint32_t recvs[2 * c->n];
		uint32_t nr = 0;
		struct uet_wl_node nop = {
			.trace_id = c->trace_id,
			.op = UET_WL_NOP,
			.coll = c->coll,
		};

		for (i = first; i < c->n_all; i++)
			if (c->prog->ranks[c->rank].nodes[c->all[i]].op ==
			    UET_WL_RECV)
				recvs[nr++] = c->all[i];
		if (nr == 0)
			recvs[nr++] = begin;
		nop.deps = recvs;
		nop.n_deps = nr;
		return uet_wl_add_node(c->prog, c->rank, &nop, last);
	}
	return 0;
}

/* Ranks numbered from the root: v = (r - root) mod n. */
static uint32_t real_rank(const struct coll_ctx *c, uint32_t root, uint32_t v)
{
	return (v + root) % c->n;
}

static int coll_tree(struct coll_ctx *c, uint32_t begin, uint32_t root,
		     uint64_t bytes, bool down)
{
	uint32_t v = (c->rank + c->n - root) % c->n;
	uint32_t kids[2], nk = 0, k, got = begin;
	uint32_t recvs[3];
	uint32_t nr = 0;
	int rc;

	for (k = 2 * v + 1; k <= 2 * v + 2; k++)
		if (k < c->n)
			kids[nk++] = real_rank(c, root, k);
	if (down) {
		if (v > 0) {
			rc = add_msg(c, UET_WL_RECV,
				     real_rank(c, root, (v - 1) / 2), 0, 0,
				     &begin, 1, &got);
			if (rc < 0)
				return rc;
		}
		for (k = 0; k < nk; k++) {
			rc = add_msg(c, UET_WL_SEND, kids[k], 0, bytes, &got, 1,
				     NULL);
			if (rc < 0)
				return rc;
		}
		return 0;
	}
	recvs[nr++] = begin;
	for (k = 0; k < nk; k++) {
		rc = add_msg(c, UET_WL_RECV, kids[k], 0, 0, &begin, 1,
			     &recvs[nr]);
		if (rc < 0)
			return rc;
		nr++;
	}
	if (v > 0)
		return add_msg(c, UET_WL_SEND, real_rank(c, root, (v - 1) / 2),
			       0, bytes, recvs, nr, NULL);
	return 0;
}

static int coll_chain(struct coll_ctx *c, uint32_t begin, uint32_t root,
		      uint64_t bytes)
{
	uint32_t v = (c->rank + c->n - root) % c->n, got = begin;
	int rc;

	if (v > 0) {
		rc = add_msg(c, UET_WL_RECV, real_rank(c, root, v - 1), 0, 0,
			     &begin, 1, &got);
		if (rc < 0)
			return rc;
	}
	if (v + 1 < c->n)
		return add_msg(c, UET_WL_SEND, real_rank(c, root, v + 1), 0,
			       bytes, &got, 1, NULL);
	return 0;
}

/* reduce, gather (to the root) and scatter (from it), direct. */
static int coll_rooted(struct coll_ctx *c, uint32_t begin, uint32_t root,
		       uint64_t bytes, bool to_root)
{
	uint32_t k;
	int rc;

	if (c->rank != root)
		return add_msg(c, to_root ? UET_WL_SEND : UET_WL_RECV, root, 0,
			       bytes, &begin, 1, NULL);
	for (k = 1; k < c->n; k++) {
		rc = add_msg(c, to_root ? UET_WL_RECV : UET_WL_SEND,
			     (root + k) % c->n, 0, bytes, &begin, 1, NULL);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int coll_build(struct coll_ctx *c, const struct uet_wl_coll *coll,
		      enum uet_wl_algo algo, uint32_t root, uint32_t begin)
{
	uint64_t s = coll->bytes;
	uint32_t n = c->n, mid;
	int rc;

	switch (coll->comm_type) {
	case UET_WL_ALL_REDUCE:
		if (algo == UET_WL_ALGO_RING)
			return coll_ring(c, begin, 2 * (n - 1), s, n - 1);
		rc = coll_direct_round(c, begin, 0, s, &mid);
		return rc < 0 ? rc : coll_direct_round(c, mid, 1, s, NULL);
	case UET_WL_REDUCE_SCATTER:
	case UET_WL_REDUCE_SCATTER_BLOCK:
		if (algo == UET_WL_ALGO_RING)
			return coll_ring(c, begin, n - 1, s, n - 1);
		return coll_direct_round(c, begin, 0, s, NULL);
	case UET_WL_ALL_GATHER:
		if (algo == UET_WL_ALGO_RING)
			return coll_ring(c, begin, n - 1, s, 0);
		return coll_direct_round(c, begin, 0, s, NULL);
	case UET_WL_BARRIER:
		if (algo == UET_WL_ALGO_RING)
			return coll_ring(c, begin, n - 1, 0, 0);
		return coll_direct_round(c, begin, 0, 0, NULL);
	case UET_WL_ALL_TO_ALL:
		return coll_direct_round(c, begin, 0, s, NULL);
	case UET_WL_BROADCAST:
		if (algo == UET_WL_ALGO_TREE)
			return coll_tree(c, begin, root, s, true);
		return coll_chain(c, begin, root, s);
	case UET_WL_REDUCE:
		if (algo == UET_WL_ALGO_TREE)
			return coll_tree(c, begin, root, s, false);
		return coll_rooted(c, begin, root, s, true);
	case UET_WL_GATHER:
		return coll_rooted(c, begin, root, s / n, true);
	case UET_WL_SCATTER:
		return coll_rooted(c, begin, root, s / n, false);
	default:
		return -EINVAL;
	}
}

int uet_wl_add_coll(struct uet_wl_program *prog, uint32_t rank,
		    struct uet_wl_coll *coll, uint32_t root,
		    enum uet_wl_algo algo, uet_time_t reduce_chunk_ps,
		    const uint32_t *deps, uint32_t n_deps,
		    struct uet_wl_error *err)
{
	struct uet_wl_rank *rk;
	struct uet_wl_node nop = {.op = UET_WL_NOP};
	struct coll_ctx c;
	uint32_t begin;
	int rc;

	if (rank >= prog->n_ranks)
		return -EINVAL;
	rk = &prog->ranks[rank];
	if (coll->comm_type >= UET_WL_COLL_TYPES)
		return wl_fail(err,
			       "rank %u: node id %llu: unknown collective "
			       "type %u",
			       rank, (unsigned long long)coll->trace_id,
			       coll->comm_type);
	if (algo == UET_WL_ALGO_DEFAULT)
		algo = type_algos[coll->comm_type].dflt;
	if (!uet_wl_algo_supported(coll->comm_type, algo))
		return wl_fail(err,
			       "rank %u: node id %llu: %s cannot be broken "
			       "into messages by the %s algorithm",
			       rank, (unsigned long long)coll->trace_id,
			       type_names[coll->comm_type],
			       uet_wl_algo_name(algo));
	if (root >= prog->n_ranks)
		return wl_fail(err,
			       "rank %u: node id %llu: root rank %u "
			       "out of range (%u ranks)",
			       rank, (unsigned long long)coll->trace_id, root,
			       prog->n_ranks);
	if (rk->n_colls >= (1u << 24))
		return wl_fail(err, "rank %u: too many collectives", rank);
	if (rk->n_colls == rk->cap_colls) {
		uint32_t cap = rk->cap_colls ? rk->cap_colls * 2u : 4u;
		void *p = realloc(rk->colls, cap * sizeof(*rk->colls));

		if (p == NULL)
			return -ENOMEM;
		rk->colls = p;
		rk->cap_colls = cap;
	}
	memset(&c, 0, sizeof(c));
	c.prog = prog;
	c.rank = rank;
	c.n = prog->n_ranks;
	c.trace_id = coll->trace_id;
	c.coll = (int32_t)rk->n_colls;
	c.reduce_chunk_ps = reduce_chunk_ps;
	c.tag_base = UET_WL_COLL_TAG | (uint64_t)rk->n_colls << 24;
	/* Most nodes any algorithm adds: 2(N-1) steps of send, receive
	 * and reduction. */
	c.all = calloc(6u * c.n + 4u, sizeof(*c.all));
	if (c.all == NULL)
		return -ENOMEM;
	nop.trace_id = coll->trace_id;
	nop.coll = c.coll;
	nop.deps = (uint32_t *)(uintptr_t)deps;
	nop.n_deps = n_deps;
	rc = uet_wl_add_node(prog, rank, &nop, &begin);
	if (rc == 0)
		rc = coll_build(&c, coll, algo, root, begin);
	if (rc == 0) {
		nop.deps = c.n_all > 0 ? c.all : &begin;
		nop.n_deps = c.n_all > 0 ? c.n_all : 1;
		rc = uet_wl_add_node(prog, rank, &nop, &coll->end);
	}
	free(c.all);
	if (rc < 0)
		return rc;
	coll->begin = begin;
	rk->colls[rk->n_colls++] = *coll;
	return 0;
}
