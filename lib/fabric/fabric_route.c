/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The address table of the fabric: a host's IPv4 address to its index,
 * sorted by address and searched by halves; each switch then finds its
 * next hops towards the host from the shape (fabric_switch_hop). Built
 * once at creation from the default addresses; addresses named by a
 * scenario would enter the same table.
 */
#include <errno.h>
#include <stdlib.h>

#include "fabric_private.h"

static int fabric_route_cmp(const void *a, const void *b)
{
	const struct fabric_route *ra = a;
	const struct fabric_route *rb = b;

	return (ra->ipv4 > rb->ipv4) - (ra->ipv4 < rb->ipv4);
}

int fabric_routes_init(struct fabric_routes *r, uint32_t hosts)
{
	uint32_t i;

	if (hosts == 0 || hosts > UET_HOST_MAX_COUNT)
		return -EINVAL;
	r->routes = calloc(hosts, sizeof(*r->routes));
	if (r->routes == NULL)
		return -ENOMEM;
	for (i = 0; i < hosts; i++) {
		r->routes[i].ipv4 = uet_host_ipv4(i);
		r->routes[i].host = i;
	}
	r->count = hosts;
	/* The default addresses are already in order; sorting keeps the
	 * search right for any other assignment. */
	qsort(r->routes, hosts, sizeof(*r->routes), fabric_route_cmp);
	return 0;
}

void fabric_routes_fini(struct fabric_routes *r)
{
	free(r->routes);
	r->routes = NULL;
	r->count = 0;
}

int fabric_routes_lookup(const struct fabric_routes *r, uint32_t ipv4)
{
	uint32_t lo = 0;
	uint32_t hi = r->count;

	while (lo < hi) {
		const uint32_t mid = lo + (hi - lo) / 2;

		if (r->routes[mid].ipv4 == ipv4)
			return (int)r->routes[mid].host;
		if (r->routes[mid].ipv4 < ipv4)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -ENOENT;
}
