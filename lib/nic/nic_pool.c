/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The NIC's buffers (the page's "Buffers": the egress pool of the data
 * class, the prefetch buffer, the ingress pool of each class): what each
 * holds, whether a packet fits, and when a pool has drained enough for a
 * stopped sender to try again. Accounting only: the scheduler, the port
 * and the receive path decide what to do with the answers.
 */
#include <string.h>

#include "nic_private.h"

void nic_pools_init(struct nic_pools *pl, const struct uet_nic_params *p)
{
	memset(pl, 0, sizeof(*pl));
	pl->egress_cap_bytes = p->egress_pool_bytes;
	pl->prefetch_cap_bytes = p->prefetch_bytes;
	pl->ingress_cap_bytes = p->ingress_pool_bytes;
}

/* An empty pool always takes one packet, so a pool smaller than a packet
 * cannot stall for ever. */
bool nic_egress_room(const struct nic_pools *pl, uint32_t wire_bytes)
{
	return pl->egress_bytes == 0 ||
	       pl->egress_bytes + wire_bytes <= pl->egress_cap_bytes;
}

void nic_egress_reserve(struct nic_pools *pl, uint32_t wire_bytes)
{
	pl->egress_bytes += wire_bytes;
	if (pl->egress_bytes > pl->egress_peak_bytes)
		pl->egress_peak_bytes = pl->egress_bytes;
}

bool nic_egress_release(struct nic_pools *pl, uint32_t wire_bytes)
{
	pl->egress_bytes = wire_bytes > pl->egress_bytes
				   ? 0
				   : pl->egress_bytes - wire_bytes;
	return pl->egress_bytes * 2 <= pl->egress_cap_bytes;
}

bool nic_prefetch_room(const struct nic_pools *pl, uint32_t wire_bytes)
{
	return pl->prefetch_bytes == 0 ||
	       pl->prefetch_bytes + wire_bytes <= pl->prefetch_cap_bytes;
}

void nic_prefetch_reserve(struct nic_pools *pl, uint32_t wire_bytes)
{
	pl->prefetch_bytes += wire_bytes;
	if (pl->prefetch_bytes > pl->prefetch_peak_bytes)
		pl->prefetch_peak_bytes = pl->prefetch_bytes;
}

bool nic_prefetch_release(struct nic_pools *pl, uint32_t wire_bytes)
{
	pl->prefetch_bytes -= wire_bytes;
	return pl->prefetch_bytes * 2 <= pl->prefetch_cap_bytes;
}

bool nic_ingress_charge(struct nic_pools *pl, int tc, uint32_t ip_bytes)
{
	if (pl->ingress_bytes[tc] + ip_bytes > pl->ingress_cap_bytes)
		return false;
	pl->ingress_bytes[tc] += ip_bytes;
	return true;
}

void nic_ingress_release(struct nic_pools *pl, int tc, uint32_t ip_bytes)
{
	pl->ingress_bytes[tc] = ip_bytes > pl->ingress_bytes[tc]
					? 0
					: pl->ingress_bytes[tc] - ip_bytes;
}

void nic_pools_stats(const struct nic_pools *pl, struct uet_nic_stats *out)
{
	out->egress_pool_peak_bytes = pl->egress_peak_bytes;
	out->prefetch_peak_bytes = pl->prefetch_peak_bytes;
	out->transport.egress_pool_used_bytes = pl->egress_bytes;
	out->transport.ingress_pool_used_bytes =
		pl->ingress_bytes[NIC_TC_DATA] +
		pl->ingress_bytes[NIC_TC_CONTROL];
}
