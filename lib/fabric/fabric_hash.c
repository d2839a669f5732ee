/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The flow hash and the next hop: a switch with several equal-cost ports
 * towards a host picks one from a hash of the frame's 5-tuple and its own
 * salt, so that the UDP source port (the entropy) chooses the path and two
 * switches do not correlate their choices.
 */
#include <errno.h>

#include "fabric_private.h"

/* The splitmix64 finaliser: every input bit flips about half the output. */
static uint64_t fabric_mix64(uint64_t x)
{
	x += UINT64_C(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

uint64_t uet_fabric_flow_hash(const struct uet_fabric_flow *flow, uint64_t salt)
{
	uint64_t h;

	h = fabric_mix64(salt ^
			 ((uint64_t)flow->src_ipv4 << 32 | flow->dst_ipv4));
	h = fabric_mix64(h ^ ((uint64_t)flow->protocol << 32 |
			      (uint64_t)flow->src_port << 16 | flow->dst_port));
	return h;
}

int fabric_next_port_to(const struct uet_fabric *fab, uint32_t sw, int host,
			const struct uet_fabric_flow *flow)
{
	const struct fabric_switch *s = &fab->switches[sw];
	struct fabric_hop hop;
	uint64_t hash, pick;

	if (host < 0)
		return host;
	hop = fabric_switch_hop(s, (uint32_t)host);
	if (hop.count == 1)
		return (int)hop.first;
	hash = uet_fabric_flow_hash(flow, s->salt);
	/* The high 32 bits scaled to count: no modulo bias worth naming. */
	pick = (hash >> 32) * hop.count >> 32;
	/* A downed link: the flows it carried move to the next hops left. */
	if (fab->links->any_down && !fab->conf.link_down_blackhole)
		return (int)fabric_link_reroute(fab, hop, (uint32_t)host,
						(uint32_t)(hop.first + pick),
						hash);
	return (int)(hop.first + pick);
}

int uet_fabric_next_port(const struct uet_fabric *fab, uint32_t sw,
			 const struct uet_fabric_flow *flow)
{
	if (fab == NULL || flow == NULL || sw >= fab->n_switches)
		return -EINVAL;
	return fabric_next_port_to(
		fab, sw, fabric_routes_lookup(&fab->routes, flow->dst_ipv4),
		flow);
}
