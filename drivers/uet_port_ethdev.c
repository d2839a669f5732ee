/* SPDX-License-Identifier: BSD-3-Clause */
/* Ethdev-backed ports: any PMD opened from a device string (af_packet, memif,
 * pcap, PCI) and net_ring pairs for code that needs ethdev hooks. */
#include <errno.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_dev.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_log.h>

#include "uet_port.h"
#include "uet_port_priv.h"
#include "uet_log.h"

#if defined(UET_DPDK_STATIC)
/*
 * The PMDs the ports open, linked from plain archives (meson.build): a
 * reference to one symbol of each brings its object in, and with it the
 * constructor that registers the driver. A program that links this file
 * (it opens real ports) has them all; uet-emu, which opens none, has none
 * of them nor their libraries. net_ring comes with rte_eth_from_rings().
 */
extern int af_packet_logtype;
extern int af_xdp_logtype;
extern int memif_logtype;
extern int eth_pcap_logtype;
extern int vdev_logtype_bus;
static const int *const port_pmds[] __attribute__((used)) = {
	&af_packet_logtype, &af_xdp_logtype,   &memif_logtype,
	&eth_pcap_logtype,  &vdev_logtype_bus,
};
#endif

/* Wall ms a memif client waits for its server's answer before giving up
 * (the handshake takes about a millisecond on an idle host). */
#define UET_MEMIF_CONNECT_MS 1000u
/* How long a memif client waits for its server's socket to appear: the
 * server process may still be starting its EAL (tries x wait = 10 s). */
#define ETHDEV_MEMIF_START_TRIES 1000
#define ETHDEV_MEMIF_START_WAIT_US 10000u
/* Ethernet header and FCS: what ethdev adds to the MTU for a frame length. */
#define UET_PORT_L2_OVERHEAD_BYTES (RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN)

/* Configure queues rx and tx queues (one but for the device of queue
 * ports), MTU, promiscuous mode; start. */
static int port_setup(struct uet_port *p, const struct uet_port_conf *conf,
		      uint16_t queues)
{
	struct rte_eth_dev_info info;
	struct rte_eth_conf eth_conf;
	uint16_t nb_rxd =
		conf->nb_rx_desc ? conf->nb_rx_desc : UET_PORT_DEFAULT_DESC;
	uint16_t nb_txd =
		conf->nb_tx_desc ? conf->nb_tx_desc : UET_PORT_DEFAULT_DESC;
	uint16_t mtu = conf->mtu_bytes ? conf->mtu_bytes : UET_PORT_MTU_BYTES;
	struct rte_mempool *rx_pool;
	uint16_t cfg_mtu;
	int socket = rte_eth_dev_socket_id(p->port_id);
	int memif_log, memif_level;
	bool memif;
	int ret;

	p->afp_fd = -1;
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
	/* net_af_xdp offers no multi-segment tx and sends a chain's first
	 * segment only; net_pcap offers none either yet reads whole chains
	 * (a 9,000-byte frame, longer than one of our mbufs, must stay a
	 * chain there), so only the former gets its frames copied. */
	else if (strncmp(p->name, "net_af_xdp", 10) == 0)
		p->tx_linearize = true;
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
	ret = rte_eth_dev_configure(p->port_id, queues, queues, &eth_conf);
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
	rx_pool = uet_port_xdp_rx_pool(p, conf->pool, socket);
	if (rx_pool == NULL)
		return -ENOMEM;
	for (uint16_t q = 0; q < queues; q++) {
		ret = rte_eth_rx_queue_setup(p->port_id, q, nb_rxd,
					     (unsigned)socket, NULL, rx_pool);
		if (ret < 0) {
			UET_LOG(ERROR, DRIVERS,
				"port %s: rx queue %u setup failed: %s",
				p->name, q, rte_strerror(-ret));
			return ret;
		}
		ret = rte_eth_tx_queue_setup(p->port_id, q, nb_txd,
					     (unsigned)socket, NULL);
		if (ret < 0) {
			UET_LOG(ERROR, DRIVERS,
				"port %s: tx queue %u setup failed: %s",
				p->name, q, rte_strerror(-ret));
			return ret;
		}
	}
	/* A memif client refuses to start until its server has made the
	 * socket; processes started together race for it, so wait a while
	 * (bounded) rather than fail the run. The PMD logs an error for each
	 * refused try, which a user reads as a failure of a run that then
	 * goes well: its log is quiet while we try, and only our own line
	 * below tells of a start that never came. */
	memif = strncmp(p->name, "net_memif", 9) == 0;
	memif_log = memif ? rte_log_register("pmd.net.memif") : -1;
	memif_level =
		memif_log >= 0 ? rte_log_get_level((uint32_t)memif_log) : -1;
	if (memif_level >= 0)
		(void)rte_log_set_level((uint32_t)memif_log, RTE_LOG_CRIT);
	ret = rte_eth_dev_start(p->port_id);
	for (int tries = 0;
	     ret < 0 && tries < ETHDEV_MEMIF_START_TRIES && memif; tries++) {
		rte_delay_us_sleep(ETHDEV_MEMIF_START_WAIT_US);
		ret = rte_eth_dev_start(p->port_id);
	}
	if (memif_level >= 0)
		(void)rte_log_set_level((uint32_t)memif_log,
					(uint32_t)memif_level);
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
	if (strncmp(p->name, "net_af_packet", 13) == 0) {
		p->afp_fd = uet_port_afp_socket_find((int)info.if_index);
		if (p->afp_fd >= 0)
			p->afp_drops = calloc(1, sizeof(*p->afp_drops));
		if (p->afp_drops == NULL)
			UET_LOG(INFO, DRIVERS,
				"port %s: its packet socket was not found: "
				"what its ring drops is not counted",
				p->name);
	}
	return 0;
}

/* Undo port_setup and the device creation; does not free p. A queue
 * port lets go of its queue, and the last one of the device. */
static void ethdev_close(struct uet_port *p)
{
	int ret;

	if (p->shared != NULL) {
		uet_port_shared_put(p);
		return;
	}
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
	/* Its frames are back: the umem is gone with the device. */
	rte_mempool_free(p->rx_pool);
	p->rx_pool = NULL;
	free(p->afp_drops);
	p->afp_drops = NULL;
}

static uint16_t ethdev_rx_burst(struct uet_port *p, struct rte_mbuf **pkts,
				uint16_t n)
{
	return rte_eth_rx_burst(p->port_id, p->queue, pkts, n);
}

/*
 * A PMD without multi-segment tx reads a frame from its first segment
 * only (net_af_xdp copies pkt_len bytes from there): a chained frame (the
 * NICs' header mbuf and payload, a trailer segment) is copied into one new
 * mbuf, which takes the original's place in pkts. The copy comes from the
 * port's own rx pool when it has one: net_af_xdp's umem, whose mbufs it
 * sends as they are, where one from another pool is copied again. Frames
 * from i on stay the caller's when a copy cannot be made.
 */
static uint16_t ethdev_linearize(struct uet_port *p, struct rte_mbuf **pkts,
				 uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i], *c;

		if (m->nb_segs == 1)
			continue;
		c = rte_pktmbuf_copy(m,
				     p->rx_pool != NULL ? p->rx_pool : m->pool,
				     0, UINT32_MAX);
		if (c == NULL)
			break;
		if (c->nb_segs > 1 && rte_pktmbuf_linearize(c) < 0) {
			rte_pktmbuf_free(c);
			break;
		}
		rte_pktmbuf_free(m);
		pkts[i] = c;
	}
	return i;
}

/*
 * A frame longer than the PMD can send: net_af_xdp copies a frame from
 * another pool into one of its umem's mbufs without checking its length,
 * which overruns the next mbuf (uet-nic crashed on 4,202-byte frames). Such
 * a frame is dropped here as if sent, so that the far side sees it lost
 * (lockstep stops with FRAME_LOSS); the burst ends before it otherwise.
 */
static uint16_t ethdev_tx_fit(struct uet_port *p, struct rte_mbuf **pkts,
			      uint16_t n, bool *dropped)
{
	uint16_t i;

	*dropped = false;
	for (i = 0; i < n; i++)
		if (pkts[i]->pkt_len > p->tx_max_frame)
			break;
	if (i > 0 || n == 0)
		return i;
	if (p->tx_oversize++ == 0)
		UET_LOG(ERROR, DRIVERS,
			"port %s: a %u-byte frame dropped: it sends at most "
			"%u bytes (docs/ports.md, \"AF_XDP and veth\")",
			p->name, pkts[0]->pkt_len, p->tx_max_frame);
	rte_pktmbuf_free(pkts[0]);
	*dropped = true;
	return 1;
}

static uint16_t ethdev_tx_burst(struct uet_port *p, struct rte_mbuf **pkts,
				uint16_t n)
{
	bool dropped;

	if (p->tx_max_frame != 0) {
		n = ethdev_tx_fit(p, pkts, n, &dropped);
		if (dropped)
			return 1;
	}
	if (p->tx_linearize)
		n = ethdev_linearize(p, pkts, n);
	return rte_eth_tx_burst(p->port_id, p->queue, pkts, n);
}

static int ethdev_link(const struct uet_port *p, struct uet_port_link *link)
{
	struct rte_eth_link l;
	uint16_t mtu;
	int ret;

	ret = rte_eth_link_get_nowait(p->port_id, &l);
	if (ret < 0)
		return ret;
	ret = rte_eth_dev_get_mtu(p->port_id, &mtu);
	if (ret < 0)
		return ret;
	ret = rte_eth_macaddr_get(p->port_id, &link->mac);
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

static int ethdev_stats(const struct uet_port *p, struct uet_port_stats *stats)
{
	struct rte_eth_stats s;
	int ret;

	if (p->shared != NULL) {
		/* The device's counters are its queues' together: a queue
		 * port gives its own frames (uet_port_stats adds nothing
		 * the PMD would count apart from them). */
		stats->rx_packets = p->rx_frames;
		stats->tx_packets = p->tx_frames;
		stats->rx_bytes = p->rx_frame_bytes;
		stats->tx_bytes = p->tx_frame_bytes;
		return 0;
	}
	ret = rte_eth_stats_get(p->port_id, &s);
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
	if (p->afp_drops != NULL) {
		struct tpacket_stats ts;
		socklen_t len = sizeof(ts);

		/* Each read returns what came since the last and resets. */
		if (getsockopt(p->afp_fd, SOL_PACKET, PACKET_STATISTICS, &ts,
			       &len) == 0)
			*p->afp_drops += ts.tp_drops;
		stats->rx_missed += *p->afp_drops;
	}
	return 0;
}

const struct uet_port_ops uet_port_ethdev_ops = {
	.rx_burst = ethdev_rx_burst,
	.tx_burst = ethdev_tx_burst,
	.link = ethdev_link,
	.stats = ethdev_stats,
	.close = ethdev_close,
};

/* Monotonic wall-clock ms, for bounding the wait below only. */
static uint64_t ethdev_wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* A memif port in the client role ("role=client", or the older
 * "role=slave"); memif's default role is server. */
static bool is_memif_client(const struct uet_port *p, const char *devargs)
{
	return strncmp(p->name, "net_memif", strlen("net_memif")) == 0 &&
	       (strstr(devargs, ",role=client") != NULL ||
		strstr(devargs, ",role=slave") != NULL);
}

/*
 * A memif client connects once, in dev_start. Its server listens from the
 * moment it is probed but answers INIT with "ID not found" until its own
 * port has started, and DPDK 22.11's client never tries again: a client
 * that came in that gap stays down for good. So a client is handed out only
 * once its link is up; otherwise it is closed and the caller's retry makes
 * a fresh one.
 */
static int memif_client_wait_up(struct uet_port *p)
{
	uint64_t end_ms = ethdev_wall_ms() + UET_MEMIF_CONNECT_MS;
	struct rte_eth_link l;

	for (;;) {
		if (rte_eth_link_get_nowait(p->port_id, &l) == 0 &&
		    l.link_status == RTE_ETH_LINK_UP)
			return 0;
		if (ethdev_wall_ms() >= end_ms)
			break;
		usleep(1000);
	}
	UET_LOG(INFO, DRIVERS,
		"port %s: the memif server did not take the client in %u ms "
		"(turned away before its port started?)",
		p->name, UET_MEMIF_CONNECT_MS);
	return -ENOTCONN;
}

int uet_port_open(struct uet_port **portp, const char *devargs,
		  const struct uet_port_conf *conf)
{
	size_t dev_len;
	uint16_t k, n;
	int ret;

	if (portp == NULL || devargs == NULL || conf == NULL ||
	    conf->pool == NULL)
		return -EINVAL;
	ret = uet_port_queue_spec(devargs, &dev_len, &k, &n);
	if (ret < 0)
		return ret;
	if (ret > 0)
		return uet_port_queue_open(portp, devargs, dev_len, k, n, conf);
	return uet_port_ethdev_open(portp, devargs, conf, 1);
}

int uet_port_ethdev_open(struct uet_port **portp, const char *devargs,
			 const struct uet_port_conf *conf, uint16_t queues)
{
	struct uet_port *p;
	size_t name_len;
	int ret;

	/* The device name is the device string up to its first comma. */
	name_len = strcspn(devargs, ",");
	if (name_len == 0 || name_len >= UET_PORT_NAME_BYTES)
		return -EINVAL;

	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	p->ops = &uet_port_ethdev_ops;
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

	ret = port_setup(p, conf, queues);
	if (ret == 0 && is_memif_client(p, devargs))
		ret = memif_client_wait_up(p);
	if (ret < 0) {
		ethdev_close(p);
		free(p);
		return ret;
	}
	*portp = p;
	return 0;
}

/* One net_ring port receiving from rx and sending to tx. */
static int ethdev_ring_port_create(struct uet_port **portp, const char *name,
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
	p->ops = &uet_port_ethdev_ops;
	p->port_id = (uint16_t)id;
	p->remove_on_close = true;
	p->pair = rp;
	uet_ring_pair_get(rp);
	if (rte_eth_dev_get_name_by_port(p->port_id, p->name) != 0)
		snprintf(p->name, sizeof(p->name), "%s", name);
	ret = port_setup(p, conf, 1);
	if (ret < 0) {
		uet_port_close(p);
		return ret;
	}
	*portp = p;
	return 0;
}

int uet_port_ethdev_pair_create(struct uet_port **ap, struct uet_port **bp,
				const char *name, unsigned ring_size,
				const struct uet_port_conf *conf)
{
	char pname[UET_PORT_NAME_BYTES];
	struct uet_ring_pair *rp;
	struct uet_port *a = NULL;
	int ret;

	ret = uet_port_pair_check(ap, bp, name, &ring_size, conf);
	if (ret < 0)
		return ret;
	rp = uet_ring_pair_new(name, ring_size, &ret);
	if (rp == NULL)
		return ret;
	snprintf(pname, sizeof(pname), "%sa", name);
	ret = ethdev_ring_port_create(&a, pname, rp->rings[1], rp->rings[0], rp,
				      conf);
	if (ret == 0) {
		snprintf(pname, sizeof(pname), "%sb", name);
		ret = ethdev_ring_port_create(bp, pname, rp->rings[0],
					      rp->rings[1], rp, conf);
		if (ret < 0)
			uet_port_close(a);
	}
	/* The builder's reference: the ports hold their own. */
	uet_ring_pair_put(rp);
	if (ret == 0)
		*ap = a;
	return ret;
}
