/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue occupancy over time: the time-weighted integral of every class
 * queue (for the mean of the switch stats record) and the sampled time
 * series of chosen ports. Both are kept at each change of a queue, so
 * they add no event: a run ends and counts its events as without them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_private.h"

void fabric_occ_sample_before(struct uet_fabric *fab, uet_time_t t)
{
	struct fabric_links *L = fab->links;
	uint32_t i;

	if (L->occ_fn == NULL)
		return;
	/* Nothing changed since the last call, so the state now is the
	 * state at every sample time before t. */
	while (L->occ_next_ps < t) {
		for (i = 0; i < L->n_occ_ports; i++)
			L->occ_fn(L->occ_ctx, L->occ_next_ps, L->occ_ports[i],
				  &fab->ports[L->occ_ports[i]].stats);
		if (L->occ_next_ps > UINT64_MAX - L->occ_interval_ps) {
			L->occ_fn = NULL;
			return;
		}
		L->occ_next_ps += L->occ_interval_ps;
	}
}

void fabric_occ_change(struct fabric_port *p, unsigned int tc)
{
	struct uet_fabric *fab = p->fab;
	const uet_time_t now = uet_evq_now(&fab->comp.evq);
	struct fabric_link *l = &fab->links->port[p->id];

	fabric_occ_sample_before(fab, now);
	l->occ_area[tc] += (fabric_area_t)p->stats.tc[tc].queue_bytes *
			   (now - l->occ_since_ps[tc]);
	l->occ_since_ps[tc] = now;
}

int uet_fabric_set_occupancy(struct uet_fabric *fab, uet_time_t interval_ps,
			     const uint32_t *ports, uint32_t n_ports,
			     uet_fabric_occupancy_fn fn, void *ctx)
{
	struct fabric_links *L;
	uint32_t *copy = NULL;
	uint32_t i;

	if (fab == NULL ||
	    (n_ports != 0 && (ports == NULL || fn == NULL || interval_ps == 0)))
		return -EINVAL;
	for (i = 0; i < n_ports; i++)
		if (ports[i] >= fab->n_ports)
			return -EINVAL;
	if (n_ports != 0) {
		copy = malloc(n_ports * sizeof(*copy));
		if (copy == NULL)
			return -ENOMEM;
		memcpy(copy, ports, n_ports * sizeof(*copy));
	}
	L = fab->links;
	free(L->occ_ports);
	L->occ_ports = copy;
	L->n_occ_ports = n_ports;
	L->occ_interval_ps = interval_ps;
	L->occ_next_ps = 0;
	L->occ_fn = n_ports != 0 ? fn : NULL;
	L->occ_ctx = ctx;
	return 0;
}

void uet_fabric_occupancy_flush(struct uet_fabric *fab, uet_time_t end_ps)
{
	if (fab == NULL)
		return;
	fabric_occ_sample_before(fab,
				 end_ps == UINT64_MAX ? end_ps : end_ps + 1);
}

int uet_fabric_tc_record(const struct uet_fabric *fab, uint32_t port,
			 unsigned int tc, uet_time_t now_ps,
			 struct uet_fabric_tc_record *rec)
{
	const struct fabric_link *l;
	fabric_area_t area;

	if (fab == NULL || rec == NULL || port >= fab->n_ports ||
	    tc >= UET_FABRIC_TCS)
		return -EINVAL;
	l = &fab->links->port[port];
	memset(rec, 0, sizeof(*rec));
	rec->down_drop_frames = l->down_drop_frames[tc];
	rec->down_drop_bytes = l->down_drop_bytes[tc];
	area = l->occ_area[tc];
	if (now_ps > l->occ_since_ps[tc])
		area += (fabric_area_t)fab->ports[port]
				.stats.tc[tc]
				.queue_bytes *
			(now_ps - l->occ_since_ps[tc]);
	rec->mean_queue_bytes = now_ps == 0 ? 0 : (uint64_t)(area / now_ps);
	/* The pause still running counts up to now, as the port stats do. */
	rec->paused_ps = fabric_pfc_paused_ps(&fab->ports[port], tc);
	rec->link_down = l->down;
	rec->rate_bps = fab->ports[port].rate_bps;
	return 0;
}
