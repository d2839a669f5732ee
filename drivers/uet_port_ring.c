/* SPDX-License-Identifier: BSD-3-Clause */
/* Ring-backed ports: two rte_rings crossed between two ports with no ethdev
 * behind them, so a process may hold as many as memory allows (ethdev stops
 * at RTE_MAX_ETHPORTS, 32 in Debian's DPDK: 16 links). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "uet_port.h"
#include "uet_port_priv.h"

#define UET_PAIR_DEFAULT_RING 4096u
/* Longest name a pair accepts: "uet_<name>_f" must fit RTE_RING_NAMESIZE. */
#define UET_PAIR_NAME_MAX 20u

int uet_port_pair_check(struct uet_port **ap, struct uet_port **bp,
			const char *name, unsigned *ring_size,
			const struct uet_port_conf *conf)
{
	if (ap == NULL || bp == NULL || name == NULL || conf == NULL ||
	    conf->pool == NULL || strlen(name) == 0 ||
	    strlen(name) > UET_PAIR_NAME_MAX)
		return -EINVAL;
	if (*ring_size == 0)
		*ring_size = UET_PAIR_DEFAULT_RING;
	if (!rte_is_power_of_2(*ring_size))
		return -EINVAL;
	return 0;
}

/* Return the frames left in a ring to their pools. */
static void ring_drain(struct rte_ring *r)
{
	void *obj;

	while (rte_ring_dequeue(r, &obj) == 0)
		rte_pktmbuf_free(obj);
}

struct uet_ring_pair *uet_ring_pair_new(const char *name, unsigned ring_size,
					int *err)
{
	char rname[RTE_RING_NAMESIZE];
	struct uet_ring_pair *rp;
	unsigned i;

	rp = calloc(1, sizeof(*rp));
	if (rp == NULL) {
		*err = -ENOMEM;
		return NULL;
	}
	rp->refs = 1;
	for (i = 0; i < 2; i++) {
		snprintf(rname, sizeof(rname), "uet_%s_%c", name,
			 i == 0 ? 'f' : 'r');
		/* Single producer and consumer: one thread sends on a port
		 * and one receives on the other (see uet_port.h). */
		rp->rings[i] =
			rte_ring_create(rname, ring_size, rte_socket_id(),
					RING_F_SP_ENQ | RING_F_SC_DEQ);
		if (rp->rings[i] == NULL) {
			*err = rte_errno ? -rte_errno : -ENOMEM;
			uet_ring_pair_put(rp);
			return NULL;
		}
	}
	return rp;
}

void uet_ring_pair_get(struct uet_ring_pair *rp)
{
	rp->refs++;
}

void uet_ring_pair_put(struct uet_ring_pair *rp)
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

static uint16_t ring_rx_burst(struct uet_port *p, struct rte_mbuf **pkts,
			      uint16_t n)
{
	return (uint16_t)rte_ring_dequeue_burst(p->rx_ring, (void **)pkts, n,
						NULL);
}

static uint16_t ring_tx_burst(struct uet_port *p, struct rte_mbuf **pkts,
			      uint16_t n)
{
	return (uint16_t)rte_ring_enqueue_burst(p->tx_ring, (void **)pkts, n,
						NULL);
}

/* A ring has no speed and no address: the model times the link. It is up
 * for as long as the port is open. */
static int ring_link(const struct uet_port *p, struct uet_port_link *link)
{
	link->up = true;
	link->full_duplex = true;
	link->mtu_bytes = p->mtu_bytes;
	return 0;
}

/* The ring is the whole "PMD": what it carried is what this layer counted,
 * and it never drops or fails on its own (a full ring is a partial tx). */
static int ring_stats(const struct uet_port *p, struct uet_port_stats *stats)
{
	stats->rx_packets = p->rx_frames;
	stats->tx_packets = p->tx_frames;
	stats->rx_bytes = p->rx_frame_bytes;
	stats->tx_bytes = p->tx_frame_bytes;
	return 0;
}

/* Nothing to stop: the rings go with the pair's last reference. */
static void ring_close(struct uet_port *p)
{
	(void)p;
}

static const struct uet_port_ops ring_ops = {
	.rx_burst = ring_rx_burst,
	.tx_burst = ring_tx_burst,
	.link = ring_link,
	.stats = ring_stats,
	.close = ring_close,
};

/* One ring-backed port receiving from rx and sending to tx. */
static struct uet_port *ring_port_new(const char *name, char side,
				      struct rte_ring *rx, struct rte_ring *tx,
				      struct uet_ring_pair *rp,
				      const struct uet_port_conf *conf)
{
	struct uet_port *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return NULL;
	p->ops = &ring_ops;
	p->port_id = UET_PORT_ID_NONE;
	snprintf(p->name, sizeof(p->name), "ring_%s%c", name, side);
	p->rx_ring = rx;
	p->tx_ring = tx;
	p->mtu_bytes = conf->mtu_bytes ? conf->mtu_bytes : UET_PORT_MTU_BYTES;
	p->pair = rp;
	uet_ring_pair_get(rp);
	return p;
}

int uet_port_pair_create(struct uet_port **ap, struct uet_port **bp,
			 const char *name, unsigned ring_size,
			 const struct uet_port_conf *conf)
{
	struct uet_ring_pair *rp;
	struct uet_port *a, *b = NULL;
	int ret;

	ret = uet_port_pair_check(ap, bp, name, &ring_size, conf);
	if (ret < 0)
		return ret;
	rp = uet_ring_pair_new(name, ring_size, &ret);
	if (rp == NULL)
		return ret;
	a = ring_port_new(name, 'a', rp->rings[1], rp->rings[0], rp, conf);
	if (a != NULL)
		b = ring_port_new(name, 'b', rp->rings[0], rp->rings[1], rp,
				  conf);
	if (b == NULL)
		uet_port_close(a);
	/* The builder's reference: the ports hold their own. */
	uet_ring_pair_put(rp);
	if (b == NULL)
		return -ENOMEM;
	*ap = a;
	*bp = b;
	return 0;
}
