/* SPDX-License-Identifier: BSD-3-Clause */
/* Ports, whatever backs them: burst rx/tx with this layer's counters,
 * lossless tx with a wall-clock bound, link, stats, close; mbuf pools and
 * the tests' EAL setup. Ethdev-backed ports are in uet_port_ethdev.c,
 * ring-backed ones in uet_port_ring.c. */
#include <errno.h>
#include <sched.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

#include "uet_port.h"
#include "uet_port_priv.h"
#include "uet_log.h"

struct rte_mempool *uet_port_pool_create(const char *name, unsigned nb_mbufs,
					 int socket_id)
{
	/* A per-lcore cache of up to 256 mbufs, but never more than a
	 * quarter of a small pool so that tests with few mbufs still work. */
	unsigned cache = RTE_MIN(256u, nb_mbufs / 4);

	return rte_pktmbuf_pool_create(name, nb_mbufs, cache, 0,
				       UET_MBUF_ROOM_BYTES, socket_id);
}

size_t uet_port_pool_obj_bytes(unsigned data_bytes)
{
	/* The mempool's per-object header, the mbuf, headroom and room,
	 * each cache-line aligned. */
	return RTE_CACHE_LINE_ROUNDUP(64 + sizeof(struct rte_mbuf) +
				      RTE_PKTMBUF_HEADROOM + data_bytes);
}

size_t uet_port_pool_attach_obj_bytes(void)
{
	return RTE_CACHE_LINE_ROUNDUP(64 + sizeof(struct rte_mbuf));
}

uint16_t uet_port_rx_burst(struct uet_port *port, struct rte_mbuf **pkts,
			   uint16_t n)
{
	uint16_t nb = port->ops->rx_burst(port, pkts, n);
	uint16_t i;

	port->rx_frames += nb;
	for (i = 0; i < nb; i++)
		port->rx_frame_bytes += pkts[i]->pkt_len;
	return nb;
}

uint16_t uet_port_tx_burst(struct uet_port *port, struct rte_mbuf **pkts,
			   uint16_t n)
{
	uint64_t bytes = 0;
	uint16_t nb, i;

	/* Sum before sending: the frames taken belong to the port after the
	 * call (af_packet frees them at once); the rest are still ours. */
	for (i = 0; i < n; i++)
		bytes += pkts[i]->pkt_len;
	nb = port->ops->tx_burst(port, pkts, n);
	for (i = nb; i < n; i++)
		bytes -= pkts[i]->pkt_len;
	port->tx_frames += nb;
	port->tx_frame_bytes += bytes;
	if (nb < n)
		port->tx_partial++;
	return nb;
}

/* Monotonic wall-clock time in milliseconds, for bounding retries only. */
static uint64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

int uet_port_tx_all(struct uet_port *port, struct rte_mbuf **pkts, uint16_t n,
		    uint32_t timeout_ms)
{
	uint16_t sent = uet_port_tx_burst(port, pkts, n);
	uint64_t deadline_ms;

	if (sent == n)
		return n;
	deadline_ms = wall_ms() + timeout_ms;
	while (sent < n) {
		sent += uet_port_tx_burst(port, pkts + sent, n - sent);
		if (sent < n && wall_ms() >= deadline_ms) {
			uint16_t i;

			port->tx_timeouts++;
			port->tx_dropped += n - sent;
			UET_LOG(ERROR, DRIVERS,
				"port %s: tx stalled: %u of %u frames not "
				"taken after %" PRIu32 " ms",
				port->name, n - sent, n, timeout_ms);
			for (i = sent; i < n; i++)
				rte_pktmbuf_free(pkts[i]);
			return -ETIMEDOUT;
		}
	}
	return n;
}

int uet_port_link(const struct uet_port *port, struct uet_port_link *link)
{
	if (port == NULL || link == NULL)
		return -EINVAL;
	memset(link, 0, sizeof(*link));
	return port->ops->link(port, link);
}

int uet_port_stats(const struct uet_port *port, struct uet_port_stats *stats)
{
	int ret;

	if (port == NULL || stats == NULL)
		return -EINVAL;
	memset(stats, 0, sizeof(*stats));
	ret = port->ops->stats(port, stats);
	if (ret < 0)
		return ret;
	stats->rx_frames = port->rx_frames;
	stats->tx_frames = port->tx_frames;
	stats->rx_frame_bytes = port->rx_frame_bytes;
	stats->tx_frame_bytes = port->tx_frame_bytes;
	stats->tx_partial = port->tx_partial;
	stats->tx_timeouts = port->tx_timeouts;
	stats->tx_dropped = port->tx_dropped;
	return 0;
}

uint16_t uet_port_id(const struct uet_port *port)
{
	return port->port_id;
}

const char *uet_port_name(const struct uet_port *port)
{
	return port->name;
}

void uet_port_close(struct uet_port *port)
{
	if (port == NULL)
		return;
	port->ops->close(port);
	if (port->pair != NULL)
		uet_ring_pair_put(port->pair);
	free(port);
}

/* "--lcores=(0-N)@(a,b,...)": every lcore may run on every CPU this
 * process may use. "-l 0" would pin it to CPU 0, and then a uet-switch
 * and its uet-nic processes, each started with the default, all share
 * CPU 0 while the others idle: in realtime that made events run
 * milliseconds late. */
static int eal_lcores_arg(char *buf, size_t len, unsigned int lcores)
{
	cpu_set_t set;
	size_t n;
	int cpu, ret, first = 1;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -errno;
	if (lcores <= 1)
		ret = snprintf(buf, len, "--lcores=0@(");
	else
		ret = snprintf(buf, len, "--lcores=(0-%u)@(", lcores - 1);
	if (ret < 0 || (size_t)ret >= len)
		return -ENAMETOOLONG;
	n = (size_t)ret;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		ret = snprintf(buf + n, len - n, "%s%d", first ? "" : ",", cpu);
		if (ret < 0 || (size_t)ret >= len - n)
			return -ENAMETOOLONG;
		n += (size_t)ret;
		first = 0;
	}
	if (first || n + 2 > len)
		return -EINVAL;
	buf[n++] = ')';
	buf[n] = '\0';
	return 0;
}

unsigned int uet_eal_usable_cpus(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 1;
	n = CPU_COUNT(&set);
	return n > 0 ? (unsigned int)n : 1;
}

void uet_eal_runtime_dir_remove(void)
{
	const char *dir = rte_eal_get_runtime_dir();

	if (dir != NULL && dir[0] != '\0')
		(void)rmdir(dir);
}

/*
 * EAL makes a runtime folder per file prefix (/var/run/dpdk/<prefix> as
 * root) and neither rte_eal_cleanup() nor the exit removes it. With
 * --no-shconf nothing is ever put in it, and every run (every forked
 * unit test) left one empty folder behind: 14,000 of them here after a
 * few days. Removed at exit when empty; one holding shared files (a
 * primary's, for secondaries) stays, as DPDK leaves it. Registered before
 * rte_eal_init(), so that it runs after the exit handlers EAL registers
 * (the telemetry socket's unlink, with telemetry on).
 */
void uet_eal_tidy_at_exit(void)
{
	static bool registered;

	if (!registered && atexit(uet_eal_runtime_dir_remove) == 0)
		registered = true;
}

int uet_eal_init_sized(const char *prefix, unsigned int lcores,
		       unsigned int mem_mb)
{
	char file_prefix[128];
	char lcores_arg[1024];
	char mem[16];
	char *argv[] = {
		"uetemu",
		"--no-huge",
		"-m",
		mem,
		"--no-pci",
		"--no-shconf",
		lcores_arg,
		"--log-level=*:warning",
		"--no-telemetry",
		file_prefix,
		NULL,
	};
	int argc = (int)RTE_DIM(argv) - 1;
	int ret;

	if (prefix == NULL || prefix[0] == '\0' || mem_mb == 0)
		return -EINVAL;
	ret = snprintf(file_prefix, sizeof(file_prefix), "--file-prefix=%s",
		       prefix);
	if (ret < 0 || (size_t)ret >= sizeof(file_prefix))
		return -ENAMETOOLONG;
	snprintf(mem, sizeof(mem), "%u", mem_mb);
	ret = eal_lcores_arg(lcores_arg, sizeof(lcores_arg), lcores);
	if (ret < 0)
		return ret;
	uet_eal_tidy_at_exit();
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return rte_errno ? -rte_errno : -EINVAL;
	return 0;
}

int uet_eal_init_default(const char *prefix)
{
	return uet_eal_init_sized(prefix, 1, 512);
}
