/* SPDX-License-Identifier: BSD-3-Clause */
/* Inside a port: the ops table that tells an ethdev-backed port from one on
 * bare rte_rings, and the state both kinds share. Only drivers/ sees it. */
#ifndef UET_PORT_PRIV_H
#define UET_PORT_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_dev.h>
#include <rte_ring.h>

#include "uet_port.h"

struct uet_port;

/*
 * What a kind of port does. The public calls (uet_port.c) keep this layer's
 * counters and the lossless-tx loop; the ops only move frames and report.
 */
struct uet_port_ops {
	/** Receive up to n frames; the caller owns what is returned. */
	uint16_t (*rx_burst)(struct uet_port *p, struct rte_mbuf **pkts,
			     uint16_t n);
	/** Offer n frames once; returns how many were taken, from the front. */
	uint16_t (*tx_burst)(struct uet_port *p, struct rte_mbuf **pkts,
			     uint16_t n);
	/** Link state, MTU, MAC; link is zeroed by the caller. */
	int (*link)(const struct uet_port *p, struct uet_port_link *link);
	/** The backend's own counters (rx_packets .. rx_nombuf). */
	int (*stats)(const struct uet_port *p, struct uet_port_stats *stats);
	/** Release the backend (stop, close, remove); p is freed after. */
	void (*close)(struct uet_port *p);
};

/* The two rings behind a pair of ports, freed when both ports are closed. */
struct uet_ring_pair {
	/** rings[0] carries a -> b, rings[1] carries b -> a. */
	struct rte_ring *rings[2];
	/** Ports (and builders) holding the pair. */
	unsigned refs;
};

struct uet_port {
	/** What kind of port this is. */
	const struct uet_port_ops *ops;
	/** ethdev port id; UET_PORT_ID_NONE for a ring-backed port. */
	uint16_t port_id;
	/** Name for messages (the ethdev name for ethdev-backed ports). */
	char name[UET_PORT_NAME_BYTES];
	/** Set for ports of a pair: the rings, shared with the peer port. */
	struct uet_ring_pair *pair;

	/* ethdev-backed ports only. */
	/** The queue pair it uses (0 but for a queue port). */
	uint16_t queue;
	/** A queue port's device, shared with its other queues; NULL: the
	 * device is the port's own. */
	struct uet_port_shared *shared;
	/** Remove the device on close (we hot-plugged or created it). */
	bool remove_on_close;
	/** Device to remove on close; valid while the port is open. */
	struct rte_device *dev;
	/** The PMD sends one segment per frame (no multi-segment tx, as
	 * net_af_xdp): chained frames are copied into one mbuf first. */
	bool tx_linearize;
	/** The port's own rx pool (net_af_xdp: page-sized mbufs), freed on
	 * close; NULL: it receives into the conf's pool. */
	struct rte_mempool *rx_pool;
	/** Longest frame the PMD can send, bytes; 0: no limit here. */
	uint32_t tx_max_frame;
	/** Frames dropped for being longer (logged once). */
	uint64_t tx_oversize;
	/** net_af_packet: the PMD's packet socket (-1: not found), whose
	 * ring drops what comes while it is full; see afp_socket_find. */
	int afp_fd;
	/** Frames the kernel dropped there so far (PACKET_STATISTICS
	 * resets on each read); behind a pointer so that the const stats
	 * call can add to it. */
	uint64_t *afp_drops;

	/* Ring-backed ports only. */
	/** Ring this port receives from (the peer's tx ring). */
	struct rte_ring *rx_ring;
	/** Ring this port sends to (the peer's rx ring). */
	struct rte_ring *tx_ring;
	/** MTU in bytes reported by uet_port_link. */
	uint16_t mtu_bytes;

	/* Counters kept by this layer for every kind (struct uet_port_stats).
	 */
	uint64_t rx_frames;
	uint64_t tx_frames;
	uint64_t rx_frame_bytes;
	uint64_t tx_frame_bytes;
	uint64_t tx_partial;
	uint64_t tx_timeouts;
	uint64_t tx_dropped;
};

/**
 * Make the two rings of a pair, "uet_<name>_f" and "uet_<name>_r", single
 * producer and single consumer, with one reference held by the caller.
 *
 * @return
 *   The pair, or NULL with *err set to a negative errno.
 */
struct uet_ring_pair *uet_ring_pair_new(const char *name, unsigned ring_size,
					int *err);

/** Take a reference on the pair. */
void uet_ring_pair_get(struct uet_ring_pair *rp);

/** Drop a reference; the last one drains the rings (frames back to their
 * pools) and frees them. */
void uet_ring_pair_put(struct uet_ring_pair *rp);

/** Check the arguments shared by both pair constructors. */
int uet_port_pair_check(struct uet_port **ap, struct uet_port **bp,
			const char *name, unsigned *ring_size,
			const struct uet_port_conf *conf);

/**
 * The rx pool of a net_af_xdp port (uet_port_pmd.c): pool itself if the
 * port is not net_af_xdp or its mbufs fit a page, else a pool of its own
 * whose mbufs each fill a page of a page-aligned memzone (the PMD's umem
 * takes chunks of a page at most), kept in p->rx_pool; p->tx_max_frame is
 * then the longest frame it sends.
 *
 * @return
 *   The pool to receive into, or NULL (logged).
 */
struct rte_mempool *uet_port_xdp_rx_pool(struct uet_port *p,
					 struct rte_mempool *pool, int socket);

/**
 * The descriptor of the AF_PACKET socket a net_af_packet port uses on
 * interface ifindex (of this thread's network namespace), whose
 * PACKET_STATISTICS count the drops of its receive ring (uet_port_pmd.c).
 *
 * @return
 *   The descriptor, or -1.
 */
int uet_port_afp_socket_find(int ifindex);

/** The ethdev ports' operations (uet_port_ethdev.c). */
extern const struct uet_port_ops uet_port_ethdev_ops;

/**
 * Open the device of devargs (no queue suffix) as one port with queues
 * rx and tx queues (uet_port_open's work; queue 0 is the port's).
 */
int uet_port_ethdev_open(struct uet_port **portp, const char *devargs,
			 const struct uet_port_conf *conf, uint16_t queues);

/**
 * Read a queue port's suffix "@K/N" (uet_port_queues.c).
 *
 * @return
 *   1 with *dev_len (the device string's length before '@'), *k and *n
 *   set; 0 when devargs has no '@'; -EINVAL (logged) when the suffix is
 *   not K/N with K < N <= UET_PORT_QUEUES_MAX.
 */
int uet_port_queue_spec(const char *devargs, size_t *dev_len, uint16_t *k,
			uint16_t *n);

/** Open queue k of n of the device devargs[0..dev_len) (uet_port_open). */
int uet_port_queue_open(struct uet_port **portp, const char *devargs,
			size_t dev_len, uint16_t k, uint16_t n,
			const struct uet_port_conf *conf);

/** A queue port closes: its queue is free, and the device goes with its
 * last queue. */
void uet_port_shared_put(struct uet_port *p);

#endif /* UET_PORT_PRIV_H */
