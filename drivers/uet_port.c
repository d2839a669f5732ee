/* SPDX-License-Identifier: BSD-3-Clause */
/* Ports over DPDK ethdev: open from a device string or as a ring pair,
 * burst rx/tx, lossless tx with a wall-clock bound, link, stats, close. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_lcore.h>
#include <rte_ring.h>

#include "uet_port.h"
#include "uet_log.h"

#define UET_PORT_DEFAULT_DESC 1024u
#define UET_PAIR_DEFAULT_RING 4096u
/* Ethernet header and FCS: what ethdev adds to the MTU for a frame length. */
#define UET_PORT_L2_OVERHEAD_BYTES (RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN)

/* The two rings behind a pair of ring ports, freed when both are closed. */
struct uet_ring_pair {
	/** rings[0] carries a -> b, rings[1] carries b -> a. */
	struct rte_ring *rings[2];
	/** Ports of the pair still open (0, 1 or 2). */
	unsigned refs;
};

struct uet_port {
	/** ethdev port id. */
	uint16_t port_id;
	/** Remove the device on close (we hot-plugged it). */
	bool remove_on_close;
	/** Device to remove on close; valid while the port is open. */
	struct rte_device *dev;
	/** Set for ring-pair ports. */
	struct uet_ring_pair *pair;
	/** ethdev name. */
	char name[UET_PORT_NAME_BYTES];
	/** Counters kept by this layer (see struct uet_port_stats). */
	uint64_t rx_frames;
	uint64_t tx_frames;
	uint64_t rx_frame_bytes;
	uint64_t tx_frame_bytes;
	uint64_t tx_partial;
	uint64_t tx_timeouts;
	uint64_t tx_dropped;
};

struct rte_mempool *uet_port_pool_create(const char *name, unsigned nb_mbufs,
					 int socket_id)
{
	/* A per-lcore cache of up to 256 mbufs, but never more than a
	 * quarter of a small pool so that tests with few mbufs still work. */
	unsigned cache = RTE_MIN(256u, nb_mbufs / 4);

	return rte_pktmbuf_pool_create(name, nb_mbufs, cache, 0,
				       UET_MBUF_ROOM_BYTES, socket_id);
}

/* Configure one rx and one tx queue, MTU, promiscuous mode; start. */
static int port_setup(struct uet_port *p, const struct uet_port_conf *conf)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf eth_conf;
	uint16_t nb_rxd =
		conf->nb_rx_desc ? conf->nb_rx_desc : UET_PORT_DEFAULT_DESC;
	uint16_t nb_txd =
		conf->nb_tx_desc ? conf->nb_tx_desc : UET_PORT_DEFAULT_DESC;
	uint16_t mtu = conf->mtu_bytes ? conf->mtu_bytes : UET_PORT_MTU_BYTES;
	uint16_t cfg_mtu;
	int socket = rte_eth_dev_socket_id(p->port_id);
	int ret;

	if (socket < 0)
		socket = (int)rte_socket_id();
	ret = rte_eth_dev_info_get(p->port_id, &info);
	if (ret < 0)
		return ret;
	p->dev = info.device;

	memset(&eth_conf, 0, sizeof(eth_conf));
	/* Jumbo frames larger than one mbuf need scatter on rx and
	 * multi-segment tx; ask only for what the PMD offers. */
	if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER)
		eth_conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
		eth_conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	/* The MTU is asked for at configure time, which is how ethdev
	 * applies it (and what PMDs without an MTU operation, net_ring,
	 * report), lowered to what the PMD says it can receive. */
	cfg_mtu = mtu;
	if (cfg_mtu > info.max_mtu)
		cfg_mtu = info.max_mtu;
	if ((uint32_t)cfg_mtu + UET_PORT_L2_OVERHEAD_BYTES >
		    info.max_rx_pktlen &&
	    info.max_rx_pktlen > UET_PORT_L2_OVERHEAD_BYTES)
		cfg_mtu = (uint16_t)(info.max_rx_pktlen -
				     UET_PORT_L2_OVERHEAD_BYTES);
	if (cfg_mtu < info.min_mtu)
		cfg_mtu = info.min_mtu;
	eth_conf.rxmode.mtu = cfg_mtu;
	ret = rte_eth_dev_configure(p->port_id, 1, 1, &eth_conf);
	if (ret < 0) {
		UET_LOG(ERROR, DRIVERS, "port %s: configure failed: %s",
			p->name, rte_strerror(-ret));
		return ret;
	}
	if (cfg_mtu == mtu) {
		/* Kernel-backed PMDs set the interface's MTU here. */
		ret = rte_eth_dev_set_mtu(p->port_id, mtu);
		if (ret < 0 && ret != -ENOTSUP)
			UET_LOG(WARNING, DRIVERS,
				"port %s: cannot set MTU %u: %s", p->name, mtu,
				rte_strerror(-ret));
	} else {
		/* af_packet says 1,518-byte frames yet carries whatever the
		 * kernel interface's MTU allows; setting its MTU through the
		 * PMD would shrink the interface, so leave it alone. */
		UET_LOG(INFO, DRIVERS,
			"port %s: PMD limits the MTU to %u; the "
			"interface's own MTU applies",
			p->name, cfg_mtu);
	}

	ret = rte_eth_dev_adjust_nb_rx_tx_desc(p->port_id, &nb_rxd, &nb_txd);
	if (ret < 0)
		return ret;
	ret = rte_eth_rx_queue_setup(p->port_id, 0, nb_rxd, (unsigned)socket,
				     NULL, conf->pool);
	if (ret < 0) {
		UET_LOG(ERROR, DRIVERS, "port %s: rx queue setup failed: %s",
			p->name, rte_strerror(-ret));
		return ret;
	}
	ret = rte_eth_tx_queue_setup(p->port_id, 0, nb_txd, (unsigned)socket,
				     NULL);
	if (ret < 0) {
		UET_LOG(ERROR, DRIVERS, "port %s: tx queue setup failed: %s",
			p->name, rte_strerror(-ret));
		return ret;
	}
	ret = rte_eth_dev_start(p->port_id);
	if (ret < 0) {
		UET_LOG(ERROR, DRIVERS, "port %s: start failed: %s", p->name,
			rte_strerror(-ret));
		return ret;
	}
	/* Frames are addressed to emulated NICs' MACs, not the port's. */
	ret = rte_eth_promiscuous_enable(p->port_id);
	if (ret < 0 && ret != -ENOTSUP)
		UET_LOG(WARNING, DRIVERS, "port %s: no promiscuous mode: %s",
			p->name, rte_strerror(-ret));
	return 0;
}

/* Undo port_setup and the device creation; does not free p. */
static void port_teardown(struct uet_port *p)
{
	int ret;

	/* Stop may fail on a port that never started; close anyway. */
	(void)rte_eth_dev_stop(p->port_id);
	ret = rte_eth_dev_close(p->port_id);
	if (ret < 0)
		UET_LOG(WARNING, DRIVERS, "port %s: close: %s", p->name,
			rte_strerror(-ret));
	if (p->remove_on_close && p->dev != NULL) {
		ret = rte_dev_remove(p->dev);
		if (ret < 0)
			UET_LOG(WARNING, DRIVERS, "port %s: remove: %s",
				p->name, rte_strerror(-ret));
	}
}

int uet_port_open(struct uet_port **portp, const char *devargs,
		  const struct uet_port_conf *conf)
{
	struct uet_port *p;
	size_t name_len;
	int ret;

	if (portp == NULL || devargs == NULL || conf == NULL ||
	    conf->pool == NULL)
		return -EINVAL;
	/* The device name is the device string up to its first comma. */
	name_len = strcspn(devargs, ",");
	if (name_len == 0 || name_len >= UET_PORT_NAME_BYTES)
		return -EINVAL;

	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	memcpy(p->name, devargs, name_len);
	p->name[name_len] = '\0';

	if (rte_eth_dev_get_port_by_name(p->name, &p->port_id) != 0) {
		ret = rte_dev_probe(devargs);
		if (ret < 0) {
			UET_LOG(ERROR, DRIVERS,
				"port %s: probe \"%s\" failed: %s", p->name,
				devargs, rte_strerror(-ret));
			free(p);
			return ret;
		}
		p->remove_on_close = true;
		if (rte_eth_dev_get_port_by_name(p->name, &p->port_id) != 0) {
			/* Probed, but under another name (PCI addresses may
			 * be written in a short form). */
			struct rte_dev_iterator it;
			uint16_t pid;
			bool found = false;

			RTE_ETH_FOREACH_MATCHING_DEV(pid, devargs, &it)
			{
				if (!found) {
					p->port_id = pid;
					found = true;
				}
			}
			if (!found) {
				UET_LOG(ERROR, DRIVERS,
					"port %s: no ethdev after probe",
					p->name);
				free(p);
				return -ENODEV;
			}
			rte_eth_dev_get_name_by_port(p->port_id, p->name);
		}
	}

	ret = port_setup(p, conf);
	if (ret < 0) {
		port_teardown(p);
		free(p);
		return ret;
	}
	*portp = p;
	return 0;
}

/* Return the frames left in a ring to their pools. */
static void ring_drain(struct rte_ring *r)
{
	void *obj;

	while (rte_ring_dequeue(r, &obj) == 0)
		rte_pktmbuf_free(obj);
}

static void ring_pair_put(struct uet_ring_pair *rp)
{
	unsigned i;

	if (--rp->refs > 0)
		return;
	for (i = 0; i < 2; i++) {
		if (rp->rings[i] == NULL)
			continue;
		ring_drain(rp->rings[i]);
		rte_ring_free(rp->rings[i]);
	}
	free(rp);
}

/* Create one ring port receiving from rx and sending to tx. */
static int ring_port_create(struct uet_port **portp, const char *name,
			    struct rte_ring *rx, struct rte_ring *tx,
			    struct uet_ring_pair *rp,
			    const struct uet_port_conf *conf)
{
	struct uet_port *p;
	int id, ret;

	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	id = rte_eth_from_rings(name, &rx, 1, &tx, 1, rte_socket_id());
	if (id < 0) {
		ret = rte_errno ? -rte_errno : -ENODEV;
		UET_LOG(ERROR, DRIVERS, "ring port %s: %s", name,
			rte_strerror(-ret));
		free(p);
		return ret;
	}
	p->port_id = (uint16_t)id;
	p->remove_on_close = true;
	p->pair = rp;
	rp->refs++;
	if (rte_eth_dev_get_name_by_port(p->port_id, p->name) != 0)
		snprintf(p->name, sizeof(p->name), "%s", name);
	ret = port_setup(p, conf);
	if (ret < 0) {
		uet_port_close(p);
		return ret;
	}
	*portp = p;
	return 0;
}

int uet_port_pair_create(struct uet_port **ap, struct uet_port **bp,
			 const char *name, unsigned ring_size,
			 const struct uet_port_conf *conf)
{
	char rname[RTE_RING_NAMESIZE];
	char pname[UET_PORT_NAME_BYTES];
	struct uet_ring_pair *rp;
	struct uet_port *a = NULL;
	unsigned i;
	int ret;

	if (ap == NULL || bp == NULL || name == NULL || conf == NULL ||
	    conf->pool == NULL || strlen(name) == 0 || strlen(name) > 20)
		return -EINVAL;
	if (ring_size == 0)
		ring_size = UET_PAIR_DEFAULT_RING;
	if (!rte_is_power_of_2(ring_size))
		return -EINVAL;

	rp = calloc(1, sizeof(*rp));
	if (rp == NULL)
		return -ENOMEM;
	for (i = 0; i < 2; i++) {
		snprintf(rname, sizeof(rname), "uet_%s_%c", name,
			 i == 0 ? 'f' : 'r');
		/* Single producer and consumer: one thread sends on a port
		 * and one receives on the other (see the header). */
		rp->rings[i] =
			rte_ring_create(rname, ring_size, rte_socket_id(),
					RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (rp->rings[i] == NULL) {
			ret = -rte_errno;
			rp->refs = 1;
			ring_pair_put(rp);
			return ret;
		}
	}
	/* Hold a reference while building so a failure frees the rings once. */
	rp->refs = 1;
	snprintf(pname, sizeof(pname), "%sa", name);
	ret = ring_port_create(&a, pname, rp->rings[1], rp->rings[0], rp, conf);
	if (ret == 0) {
		snprintf(pname, sizeof(pname), "%sb", name);
		ret = ring_port_create(bp, pname, rp->rings[0], rp->rings[1],
				       rp, conf);
		if (ret < 0)
			uet_port_close(a);
	}
	ring_pair_put(rp);
	if (ret == 0)
		*ap = a;
	return ret;
}

uint16_t uet_port_rx_burst(struct uet_port *port, struct rte_mbuf **pkts,
			   uint16_t n)
{
	uint16_t nb = rte_eth_rx_burst(port->port_id, 0, pkts, n);
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
	nb = rte_eth_tx_burst(port->port_id, 0, pkts, n);
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
	struct rte_eth_link l;
	uint16_t mtu;
	int ret;

	if (port == NULL || link == NULL)
		return -EINVAL;
	memset(link, 0, sizeof(*link));
	ret = rte_eth_link_get_nowait(port->port_id, &l);
	if (ret < 0)
		return ret;
	ret = rte_eth_dev_get_mtu(port->port_id, &mtu);
	if (ret < 0)
		return ret;
	ret = rte_eth_macaddr_get(port->port_id, &link->mac);
	if (ret < 0)
		return ret;
	if (l.link_speed != RTE_ETH_SPEED_NUM_NONE &&
	    l.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
		link->speed_bps = (uint64_t)l.link_speed * 1000000u;
	link->mtu_bytes = mtu;
	link->up = l.link_status == RTE_ETH_LINK_UP;
	link->full_duplex = l.link_duplex == RTE_ETH_LINK_FULL_DUPLEX;
	return 0;
}

int uet_port_stats(const struct uet_port *port, struct uet_port_stats *stats)
{
	struct rte_eth_stats s;
	int ret;

	if (port == NULL || stats == NULL)
		return -EINVAL;
	ret = rte_eth_stats_get(port->port_id, &s);
	if (ret < 0)
		return ret;
	stats->rx_packets = s.ipackets;
	stats->tx_packets = s.opackets;
	stats->rx_bytes = s.ibytes;
	stats->tx_bytes = s.obytes;
	stats->rx_missed = s.imissed;
	stats->rx_errors = s.ierrors;
	stats->tx_errors = s.oerrors;
	stats->rx_nombuf = s.rx_nombuf;
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
	port_teardown(port);
	if (port->pair != NULL)
		ring_pair_put(port->pair);
	free(port);
}

int uet_eal_init_default(const char *prefix)
{
	char file_prefix[128];
	char *argv[] = {
		"uetemu",    "--no-huge", "-m",
		"512",	     "--no-pci",  "--no-shconf",
		"-l",	     "0",	  "--log-level=*:warning",
		"--no-telemetry",	  file_prefix, NULL,
	};
	int argc = (int)RTE_DIM(argv) - 1;
	int ret;

	if (prefix == NULL || prefix[0] == '\0')
		return -EINVAL;
	ret = snprintf(file_prefix, sizeof(file_prefix), "--file-prefix=%s",
		       prefix);
	if (ret < 0 || (size_t)ret >= sizeof(file_prefix))
		return -ENAMETOOLONG;
	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return rte_errno ? -rte_errno : -EINVAL;
	return 0;
}
