/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fabric-mem: what an idle fabric costs, on demand (not a test). Creates
 * one fabric and prints its ports and switches, the bytes of a port's
 * struct, and the process's resident memory just before and just after
 * uet_fabric_create(), so the difference is what creation touched.
 *
 *   fabric-mem fat-tree K
 *   fabric-mem leaf-spine LEAVES SPINES HOSTS_PER_LEAF
 *   fabric-mem single HOSTS
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric_test_private.h"
#include "uet_port.h"

/* Resident bytes of this process now (/proc/self/statm). */
static uint64_t mem_rss_bytes(void)
{
	unsigned long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f == NULL)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

static int mem_usage(void)
{
	fprintf(stderr, "usage: fabric-mem fat-tree K | leaf-spine L S H | "
			"single HOSTS\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct uet_fabric_conf conf;
	struct uet_fabric *fab = NULL;
	uint64_t before, after;
	char prefix[64];
	int ret;

	memset(&conf, 0, sizeof(conf));
	if (argc == 3 && strcmp(argv[1], "fat-tree") == 0) {
		conf.topo = UET_FABRIC_TOPO_FAT_TREE;
		conf.k = (uint32_t)strtoul(argv[2], NULL, 0);
		conf.hosts = conf.k * conf.k * conf.k / 4;
	} else if (argc == 5 && strcmp(argv[1], "leaf-spine") == 0) {
		conf.topo = UET_FABRIC_TOPO_LEAF_SPINE;
		conf.leaves = (uint32_t)strtoul(argv[2], NULL, 0);
		conf.spines = (uint32_t)strtoul(argv[3], NULL, 0);
		conf.hosts_per_leaf = (uint32_t)strtoul(argv[4], NULL, 0);
		conf.hosts = conf.leaves * conf.hosts_per_leaf;
	} else if (argc == 3 && strcmp(argv[1], "single") == 0) {
		conf.hosts = (uint32_t)strtoul(argv[2], NULL, 0);
	} else {
		return mem_usage();
	}
	conf.link_rate_bps = UINT64_C(400000000000);
	conf.link_delay_ps = 500000;
	conf.tier1_delay_ps = 500000;
	conf.tier2_delay_ps = 500000;
	conf.queue_limit_bytes = 1u << 20;
	conf.seed = 1;
	snprintf(prefix, sizeof(prefix), "fabmem_%d", (int)getpid());
	ret = uet_eal_init_default(prefix);
	if (ret < 0) {
		fprintf(stderr, "fabric-mem: EAL: %d\n", ret);
		return 1;
	}
	before = mem_rss_bytes();
	ret = uet_fabric_create(&fab, &conf);
	after = mem_rss_bytes();
	if (ret < 0) {
		fprintf(stderr, "fabric-mem: uet_fabric_create: %s\n",
			strerror(-ret));
		return 1;
	}
	printf("hosts %u switches %u ports %u parts %u\n", conf.hosts,
	       uet_fabric_switch_count(fab), uet_fabric_port_count(fab),
	       uet_fabric_part_count(fab));
	printf("sizeof(struct fabric_port) %zu\n", sizeof(struct fabric_port));
	printf("rss before %.1f MiB, after %.1f MiB: creation %.1f MiB, "
	       "%.0f bytes per port\n",
	       (double)before / (1 << 20), (double)after / (1 << 20),
	       (double)(after - before) / (1 << 20),
	       (double)(after - before) / uet_fabric_port_count(fab));
	uet_fabric_destroy(fab);
	return 0;
}
