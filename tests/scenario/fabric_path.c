/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The links a flow crosses in a scenario's fabric, for the scenario
 * scripts: reads "SRC DST ENTROPY" lines (host indexes, UDP source port)
 * and prints each with the names of the links its frames take, from the
 * source's rack switch to the destination's host link, as routed before
 * any failure. The same seed and shape as the run give the same salts and
 * so the same paths.
 * usage: fabric-path SCENARIO < flows
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "uet_config.h"
#include "uet_run_params.h"
#include "uet_fabric.h"
#include "uet_host_addr.h"

/* IPv4 protocol number of UDP. */
#define FP_IPPROTO_UDP 17

static int fp_walk(const struct uet_fabric *fab, const struct uet_scenario *sc,
		   unsigned int src, unsigned int dst, unsigned int entropy)
{
	const struct uet_fabric_flow flow = {
		.src_ipv4 = uet_host_ipv4(src),
		.dst_ipv4 = uet_host_ipv4(dst),
		.protocol = FP_IPPROTO_UDP,
		.src_port = (uint16_t)entropy,
		.dst_port = sc->nic.udp_dest_port,
	};
	struct uet_fabric_port_info info;
	unsigned int hops;
	uint32_t sw;

	if (uet_fabric_port_info(fab, src, &info) < 0)
		return -EINVAL;
	sw = info.sw;
	printf("%u %u %u", src, dst, entropy);
	/* Up-down paths cross at most five switches. */
	for (hops = 0; hops < 5; hops++) {
		const int p = uet_fabric_next_port(fab, sw, &flow);

		if (p < 0 || uet_fabric_port_info(fab, (uint32_t)p, &info) < 0)
			return -EINVAL;
		printf(" %s", info.link_name);
		if (info.peer < 0)
			break;
		if (uet_fabric_port_info(fab, (uint32_t)info.peer, &info) < 0)
			return -EINVAL;
		sw = info.sw;
	}
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	struct uet_scenario sc;
	struct uet_config_error err;
	struct uet_fabric_conf conf;
	struct uet_fabric *fab;
	unsigned int src, dst, entropy;
	int rc = 0;

	if (argc != 2) {
		fprintf(stderr,
			"usage: %s SCENARIO < 'SRC DST ENTROPY' lines\n",
			argv[0]);
		return 2;
	}
	if (uet_scenario_load_file(&sc, argv[1], &err) < 0) {
		fprintf(stderr, "%s\n", err.message);
		return 2;
	}
	if (uet_run_fabric_conf(&sc, &conf) < 0 ||
	    uet_fabric_create(&fab, &conf) < 0) {
		fprintf(stderr, "%s: cannot build the fabric\n", argv[0]);
		uet_scenario_free(&sc);
		return 1;
	}
	while (rc == 0 && scanf("%u %u %u", &src, &dst, &entropy) == 3)
		if (src >= sc.topology.hosts || dst >= sc.topology.hosts ||
		    entropy > UINT16_MAX ||
		    fp_walk(fab, &sc, src, dst, entropy) < 0)
			rc = 1;
	uet_fabric_destroy(fab);
	uet_scenario_free(&sc);
	return rc;
}
