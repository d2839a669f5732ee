/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Who runs what over ranks (uet_sync_ranks.h): the shares of the NICs
 * and of the switch's parts, the same function of the switch on every
 * rank, what each rank keeps of the others' (sync_mpi_setup()), and the
 * next event of the share of the switch a rank runs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include <rte_common.h>

#include "sync_local_private.h"
#include "sync_share.h"
#include "uet_component.h"
#include "uet_sync_ranks.h"

/* Whether host ports 0..n-1 lie in parts that never go back. */
static bool parts_in_host_order(const struct uet_component *sw, uint32_t n)
{
	uint32_t i, last = 0;

	for (i = 0; i < n; i++) {
		const uint32_t q = sw->parts.port_part(sw, i);

		if (q < last)
			return false;
		last = q;
	}
	return true;
}

int uet_sync_rank_shares(const struct uet_component *sw, uint32_t n_nics,
			 struct uet_sync_ranks *rk)
{
	const uint32_t n_parts = sw->parts.n != 0 ? sw->parts.n : 1u;
	uint32_t *first, *count, a, b;

	uet_sync_rank_share(n_nics, rk->ranks, rk->rank, &rk->nic_first,
			    &rk->nic_count);
	rk->part_first = 0;
	rk->part_count = rk->rank == 0 ? n_parts : 0;
	if (rk->switch_on_rank0 || sw->parts.n < rk->ranks ||
	    sw->parts.port_part == NULL || !parts_in_host_order(sw, n_nics))
		return 0;
	first = calloc(rk->ranks, sizeof(*first));
	count = calloc(rk->ranks, sizeof(*count));
	if (first == NULL || count == NULL) {
		free(first);
		free(count);
		return -ENOMEM;
	}
	sync_share_runs(sw->parts.weight, sw->parts.n, rk->ranks, first, count);
	rk->part_first = first[rk->rank];
	rk->part_count = count[rk->rank];
	free(first);
	free(count);
	/* The NICs whose host port is in one of those parts. */
	for (a = 0; a < n_nics && sw->parts.port_part(sw, a) < rk->part_first;
	     a++)
		;
	for (b = a; b < n_nics && sw->parts.port_part(sw, b) <
					  rk->part_first + rk->part_count;
	     b++)
		;
	rk->nic_first = a;
	rk->nic_count = b - a;
	return 0;
}

/* Whether a link joins units (or NICs) of ranks a and b, seen from me. */
static void peer_mark(uint8_t *peers, uint32_t me, uint32_t a, uint32_t b)
{
	if (a == me && b != me)
		peers[b] = 1;
	if (b == me && a != me)
		peers[a] = 1;
}

/*
 * The ranks this one exchanges messages with: of two ranks, the other;
 * past two, those that hold the other end of a link of its NICs or
 * parts (frames cross only there), and rank 0, which writes the run's
 * files from every rank's rows and passes the arrivals on
 * (app/common/run_mpi_window.c); every rank, when the run asks for all
 * (a program workload's completions). The same relation seen from either
 * end: each rank finds it from every rank's shares.
 */
static void find_peers(struct uet_sync_local *local)
{
	struct uet_component *sw = local->conf.sw;
	const struct uet_sync_ranks *rk = local->conf.ranks;
	const uint32_t me = rk->rank;
	uint32_t r, i, q, s;

	for (r = 0; r < rk->ranks; r++)
		local->peers[r] = r != me && (rk->ranks <= 2 || rk->all_peers ||
					      me == 0 || r == 0);
	for (i = 0; i < local->conf.n_nics; i++)
		peer_mark(local->peers, me, local->nic_rank[i],
			  local->unit_rank[local->nic_unit[i]]);
	for (q = 0; sw->parts.n != 0 && q < sw->parts.n; q++)
		for (s = 0; s < sw->parts.out_rings(sw, q); s++) {
			uint32_t to = q;

			if (sw->parts.out_ring(sw, q, s, 0, &to) != NULL)
				peer_mark(local->peers, me, local->unit_rank[q],
					  local->unit_rank[to]);
		}
}

int sync_mpi_setup(struct uet_sync_local *local)
{
	struct uet_component *sw = local->conf.sw;
	const struct uet_sync_ranks *rk = local->conf.ranks;
	const uint32_t n = local->conf.n_nics;
	const uint32_t units = sw->parts.n != 0 ? sw->parts.n : 1u;
	uint32_t r, i, q, s, n_rings = 0;

	if (sw->parts.n != 0 &&
	    (sw->parts.port_feed == NULL || sw->parts.port_part == NULL ||
	     sw->parts.part_next_time == NULL || sw->parts.out_rings == NULL ||
	     sw->parts.out_ring == NULL))
		return -ENOTSUP;
	local->nic_unit = calloc(n, sizeof(*local->nic_unit));
	local->nic_rank = calloc(n, sizeof(*local->nic_rank));
	local->unit_rank = calloc(units, sizeof(*local->unit_rank));
	local->peer_msg = calloc(rk->ranks, sizeof(*local->peer_msg));
	local->peers = calloc(rk->ranks, sizeof(*local->peers));
	if (local->nic_unit == NULL || local->nic_rank == NULL ||
	    local->unit_rank == NULL || local->peer_msg == NULL ||
	    local->peers == NULL)
		return -ENOMEM;
	/* A shared-info per NIC and per part for the frames they send. */
	if (sync_frame_coder_init(&local->coder, rk->shared, rk->shared_len,
				  rk->mp, rk->attach_mp, n + units) < 0)
		return -ENOMEM;
	for (r = 0; r < rk->ranks; r++) {
		struct uet_sync_ranks o = *rk;

		o.rank = r;
		if (uet_sync_rank_shares(sw, n, &o) < 0)
			return -ENOMEM;
		/* Every rank must deal the same way: its own share is the
		 * one the others find for it. */
		if (r == rk->rank && (o.nic_first != rk->nic_first ||
				      o.nic_count != rk->nic_count ||
				      o.part_first != rk->part_first ||
				      o.part_count != rk->part_count))
			return -EINVAL;
		for (i = o.nic_first; i < o.nic_first + o.nic_count; i++)
			local->nic_rank[i] = r;
		for (q = o.part_first; q < o.part_first + o.part_count; q++)
			local->unit_rank[q] = r;
	}
	for (i = 0; i < n; i++)
		local->nic_unit[i] =
			sw->parts.n != 0 ? sw->parts.port_part(sw, i) : 0;
	find_peers(local);
	/* This rank's parts' rings that lead to other ranks. */
	for (q = rk->part_first;
	     sw->parts.n != 0 && q < rk->part_first + rk->part_count; q++)
		n_rings += sw->parts.out_rings(sw, q);
	local->rank_rings = calloc(n_rings + 1u, sizeof(*local->rank_rings));
	if (local->rank_rings == NULL)
		return -ENOMEM;
	for (q = rk->part_first;
	     sw->parts.n != 0 && q < rk->part_first + rk->part_count; q++)
		for (s = 0; s < sw->parts.out_rings(sw, q); s++) {
			uint32_t to = q;

			if (sw->parts.out_ring(sw, q, s, 0, &to) == NULL ||
			    sync_unit_here(local, to))
				continue;
			local->rank_rings[local->n_rank_rings++] =
				(struct sync_rank_ring){
					.part = q,
					.slot = s,
					.rank = local->unit_rank[to],
				};
		}
	return 0;
}

void sync_mpi_free(struct uet_sync_local *local)
{
	uint32_t r;

	for (r = 0; local->peer_msg != NULL && r < local->conf.ranks->ranks;
	     r++)
		free(local->peer_msg[r].buf);
	free(local->peer_msg);
	free(local->peers);
	sync_frame_coder_fini(&local->coder);
	free(local->wire);
	free(local->nic_unit);
	free(local->nic_rank);
	free(local->unit_rank);
	free(local->rank_rings);
}

/* The switch's next event: over ranks, that of the parts this rank
 * runs (and of the switch as a whole: its own queue, a link's change). */
uet_time_t sync_local_switch_next(const struct uet_sync_local *local)
{
	const struct uet_component *sw = local->conf.sw;
	const struct uet_sync_ranks *rk = local->conf.ranks;
	uet_time_t e, h;
	uint32_t q;

	if (rk == NULL)
		return uet_component_next_time(sw);
	if (sw->parts.n == 0)
		return sync_unit_here(local, 0) ? uet_component_next_time(sw)
						: UET_TIME_NEVER;
	e = uet_evq_next_time(&sw->evq);
	h = uet_component_horizon(sw, 0);
	if (h < e)
		e = h;
	for (q = rk->part_first; q < rk->part_first + rk->part_count; q++) {
		const uet_time_t t = sw->parts.part_next_time(sw, q);

		if (t < e)
			e = t;
	}
	return e;
}
