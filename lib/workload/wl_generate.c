/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Traffic generators (incast, permutation, all-to-all, uniform random) and
 * the program a plain message list becomes. Random choices come from a
 * generator seeded by the scenario, so a run is the same every time.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "uet_rng.h"
#include "wl_private.h"

/* The generators' own stream of the seed (uet_rng_seed): "gen". */
#define WL_GEN_STREAM UINT64_C(0x67656e)

const char *uet_wl_pattern_name(enum uet_wl_pattern p)
{
	switch (p) {
	case UET_WL_GEN_INCAST:
		return "incast";
	case UET_WL_GEN_PERMUTATION:
		return "permutation";
	case UET_WL_GEN_ALL_TO_ALL:
		return "all-to-all";
	case UET_WL_GEN_UNIFORM:
		return "uniform";
	}
	return "unknown";
}

/* Destinations per host of one round. */
static uint32_t per_round(const struct uet_wl_gen *g)
{
	return g->pattern == UET_WL_GEN_ALL_TO_ALL ? g->hosts - 1 : 1;
}

/* Senders of one round. */
static uint32_t senders(const struct uet_wl_gen *g)
{
	return g->pattern == UET_WL_GEN_INCAST ? g->hosts - 1 : g->hosts;
}

/* A random cycle through every host (Sattolo): perm[i] != i for all i. */
static void random_cycle(struct uet_rng *rng, uint32_t *perm, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		uint32_t j = (uint32_t)uet_rng_bounded(rng, i);
		uint32_t t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
}

int uet_wl_generate(const struct uet_wl_gen *g, struct uet_wl_message **msgs,
		    uint32_t *n, struct uet_wl_error *err)
{
	struct uet_wl_message *m;
	struct uet_rng rng;
	uint32_t *perm = NULL, round, s, k, out = 0;
	uint64_t total, per_host;

	*msgs = NULL;
	*n = 0;
	if (g->pattern > UET_WL_GEN_UNIFORM)
		return wl_fail(err, "unknown pattern %u", (unsigned)g->pattern);
	if (g->hosts < 2)
		return wl_fail(err, "%u hosts: a pattern needs at least 2",
			       g->hosts);
	if (g->pattern == UET_WL_GEN_INCAST && g->dst >= g->hosts)
		return wl_fail(err,
			       "incast destination %u is not a host (0 to %u)",
			       g->dst, g->hosts - 1);
	per_host = (uint64_t)g->count * per_round(g);
	total = per_host * senders(g);
	if (total >= UINT32_MAX) {
		(void)wl_fail(err, "%" PRIu64 " messages: too many", total);
		return -E2BIG;
	}
	if (per_host > 0 && g->interval_ps > 0 &&
	    (per_host - 1) >
		    (UET_TIME_NEVER - 1 - g->start_ps) / g->interval_ps) {
		(void)wl_fail(err, "the last message would start past the end "
				   "of virtual time");
		return -E2BIG;
	}
	if (total == 0)
		return 0;
	m = calloc(total, sizeof(*m));
	if (m == NULL)
		return -ENOMEM;
	uet_rng_seed(&rng, g->seed, WL_GEN_STREAM);
	if (g->pattern == UET_WL_GEN_PERMUTATION) {
		perm = calloc(g->hosts, sizeof(*perm));
		if (perm == NULL) {
			free(m);
			return -ENOMEM;
		}
		random_cycle(&rng, perm, g->hosts);
	}
	for (round = 0; round < g->count; round++)
		for (k = 0; k < per_round(g); k++)
			for (s = 0; s < g->hosts; s++) {
				/* The host's j-th post sets its start. */
				uint64_t j = (uint64_t)round * per_round(g) + k;
				uint32_t d;

				switch (g->pattern) {
				case UET_WL_GEN_INCAST:
					if (s == g->dst)
						continue;
					d = g->dst;
					break;
				case UET_WL_GEN_PERMUTATION:
					d = perm[s];
					break;
				case UET_WL_GEN_ALL_TO_ALL:
					d = (s + k + 1) % g->hosts;
					break;
				default:
					d = (uint32_t)uet_rng_bounded(
						&rng, g->hosts - 1);
					d += d >= s;
					break;
				}
				m[out++] = (struct uet_wl_message){
					.src = s,
					.dst = d,
					.bytes = g->bytes,
					.start_ps = g->start_ps +
						    j * g->interval_ps,
				};
			}
	free(perm);
	*msgs = m;
	*n = out;
	return 0;
}

int uet_wl_program_from_messages(struct uet_wl_program *prog, uint32_t hosts,
				 const struct uet_wl_message *msgs, uint32_t n,
				 struct uet_wl_error *err)
{
	uint32_t i;
	int rc;

	rc = uet_wl_program_init(prog, hosts);
	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++) {
		const struct uet_wl_message *m = &msgs[i];
		struct uet_wl_node send = {.trace_id = i,
					   .op = UET_WL_SEND,
					   .peer = m->dst,
					   .tag = i,
					   .bytes = m->bytes,
					   .coll = -1};
		struct uet_wl_node recv = {.trace_id = i,
					   .op = UET_WL_RECV,
					   .peer = m->src,
					   .tag = i,
					   .coll = -1};
		uint32_t wait;

		if (m->src >= hosts || m->dst >= hosts || m->src == m->dst)
			return wl_fail(err,
				       "message %u: %u -> %u with %u hosts: "
				       "each end must be a host, and not the "
				       "same one",
				       i, m->src, m->dst, hosts);
		if (m->start_ps > 0) {
			struct uet_wl_node comp = {.trace_id = i,
						   .op = UET_WL_COMP,
						   .duration_ps = m->start_ps,
						   .coll = -1};

			rc = uet_wl_add_node(prog, m->src, &comp, &wait);
			if (rc < 0)
				return rc;
			send.n_deps = 1;
			send.deps = &wait;
		}
		rc = uet_wl_add_node(prog, m->src, &send, NULL);
		if (rc == 0)
			rc = uet_wl_add_node(prog, m->dst, &recv, NULL);
		if (rc < 0)
			return rc;
	}
	return uet_wl_program_check(prog, err);
}
