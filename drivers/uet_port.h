/* SPDX-License-Identifier: BSD-3-Clause */
/* Ports: one small interface over any DPDK ethdev (af_packet, memif, pcap,
 * physical NICs, net_ring) with one rx and one tx queue each, and over bare
 * rte_ring pairs for the embedded mode. */
#ifndef UET_PORT_H
#define UET_PORT_H

#include <stdint.h>
#include <stdbool.h>

#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "uet_time.h"

/**
 * Bytes of mbuf data room after the headroom. af_packet with framesz=8192
 * copies a whole frame slot into one mbuf and drops what does not fit, so the
 * room must be at least the largest framesz in use; 8192 carries the 4,202-byte
 * UET frames with room to spare.
 */
#define UET_MBUF_DATA_BYTES 8192u

/** Data room passed to rte_pktmbuf_pool_create (headroom included). */
#define UET_MBUF_ROOM_BYTES (UET_MBUF_DATA_BYTES + RTE_PKTMBUF_HEADROOM)

/**
 * Bytes of data room of a pool that never receives from a real port (the
 * embedded run): the model builds every frame's headers in one segment (a
 * data frame's 102 bytes, a control frame's 82 at most: 42 and the longest
 * PDS header, 40; a pause frame 60; lockstep control frames, up to 254,
 * travel only over ports)
 * and chains payload as external buffers, so 128 is enough and an mbuf
 * takes 448 bytes instead of 8,448 (576 with 256: 1 GiB of a 65,536-host
 * run's frames in flight).
 */
#define UET_MBUF_SMALL_DATA_BYTES 128u

/** Rx and tx descriptors of an ethdev port unless its conf says; each
 * holds an mbuf of the port's pool. */
#define UET_PORT_DEFAULT_DESC 1024u

/** MTU asked of every port; lowered to what the PMD allows. */
#define UET_PORT_MTU_BYTES 9000u

/** Longest port name kept (ethdev names are at most RTE_ETH_NAME_MAX_LEN). */
#define UET_PORT_NAME_BYTES 64u

/** Most queue pairs of one device behind queue ports (uet_port_open). */
#define UET_PORT_QUEUES_MAX 256u

/** What uet_port_id returns for a port with no ethdev behind it. */
#define UET_PORT_ID_NONE UINT16_MAX

/**
 * A port: an ethdev that uet_port_open or uet_port_ethdev_pair_create
 * started, or one side of a ring pair from uet_port_pair_create.
 */
struct uet_port;

/** How to set a port up. Zero fields take the defaults. */
struct uet_port_conf {
	/** Pool the rx queue allocates from; required. */
	struct rte_mempool *pool;
	/** Rx descriptors; 0 means 1024 (adjusted to the PMD's limits). */
	uint16_t nb_rx_desc;
	/** Tx descriptors; 0 means 1024 (adjusted to the PMD's limits). */
	uint16_t nb_tx_desc;
	/** MTU in bytes; 0 means UET_PORT_MTU_BYTES. */
	uint16_t mtu_bytes;
};

/** What the link looks like now. */
struct uet_port_link {
	/** Speed in bits per second as the PMD reports it; 0 if unknown. */
	uint64_t speed_bps;
	/** MTU in bytes the port runs with. */
	uint16_t mtu_bytes;
	/** Link reported up. */
	bool up;
	/** Full duplex. */
	bool full_duplex;
	/** The port's MAC address. */
	struct rte_ether_addr mac;
};

/** Counters: the backend's (rte_eth_stats for an ethdev; the rings' traffic
 * for a ring pair) and the ones this layer keeps. */
struct uet_port_stats {
	/** Frames the PMD received. */
	uint64_t rx_packets;
	/** Frames the PMD sent. */
	uint64_t tx_packets;
	/** Bytes the PMD received. */
	uint64_t rx_bytes;
	/** Bytes the PMD sent. */
	uint64_t tx_bytes;
	/** Frames the hardware or kernel dropped for lack of rx room. */
	uint64_t rx_missed;
	/** Erroneous frames received. */
	uint64_t rx_errors;
	/** Frames the PMD failed to send. */
	uint64_t tx_errors;
	/** Rx mbuf allocation failures. */
	uint64_t rx_nombuf;
	/** Frames uet_port_rx_burst returned. */
	uint64_t rx_frames;
	/** Frames uet_port_tx_burst and uet_port_tx_all got the port to take.
	 */
	uint64_t tx_frames;
	/** Bytes (pkt_len) of the frames in rx_frames; counted here because
	 * some PMDs (net_ring) count no bytes. */
	uint64_t rx_frame_bytes;
	/** Bytes (pkt_len) of the frames in tx_frames. */
	uint64_t tx_frame_bytes;
	/** Tx bursts the port took only part of (each retry counts once). */
	uint64_t tx_partial;
	/** uet_port_tx_all calls that hit their wall-clock limit. */
	uint64_t tx_timeouts;
	/** Frames uet_port_tx_all freed unsent after a timeout. */
	uint64_t tx_dropped;
};

/**
 * Create an mbuf pool whose mbufs hold a whole frame of up to
 * UET_MBUF_DATA_BYTES in one segment.
 *
 * @param name
 *   Pool name, unique in the process.
 * @param nb_mbufs
 *   Number of mbufs (a power of two minus one is the most efficient).
 * @param socket_id
 *   NUMA socket, or SOCKET_ID_ANY.
 * @return
 *   The pool, or NULL with rte_errno set.
 */
struct rte_mempool *uet_port_pool_create(const char *name, unsigned nb_mbufs,
					 int socket_id);

/**
 * Create an mbuf pool of at most nb_mbufs with data_bytes of data room
 * after the headroom (UET_MBUF_DATA_BYTES for pools that receive from real
 * ports, UET_MBUF_SMALL_DATA_BYTES for the embedded run) that fills as it
 * is used: its mbufs are made a chunk at a time (the first at once, the
 * next by the get that leaves a quarter of a chunk free, or finds none,
 * under a lock), so memory and set-up
 * follow the frames in use, not nb_mbufs (uet_port_pool.c). Safe for
 * gets and puts on several lcores at once.
 *
 * @return
 *   The pool, or NULL with rte_errno set.
 */
struct rte_mempool *uet_port_pool_create_growing(const char *name,
						 unsigned nb_mbufs,
						 unsigned data_bytes,
						 int socket_id);

/**
 * Create a pool as uet_port_pool_create_growing() does, for frames that
 * never reach a device (the embedded run's ring ports): its memory comes
 * from the process (mmap, the C heap), not from EAL, so EAL's memory need
 * not be reserved for it, and its mbufs have no IOVA.
 *
 * @return
 *   The pool, or NULL with rte_errno set.
 */
struct rte_mempool *uet_port_pool_create_local(const char *name,
					       unsigned nb_mbufs,
					       unsigned data_bytes);

/**
 * Create a local pool (as uet_port_pool_create_local()) of mbufs with no
 * data room (no headroom either) of their own: each only points at an
 * external buffer it is attached to (rte_pktmbuf_attach_extbuf), a data
 * frame's payload in the pattern. 192 bytes each, where a header mbuf of
 * the embedded run takes 576: a data frame in flight is a header mbuf
 * and a payload mbuf, so a third of its memory.
 *
 * @return
 *   The pool, or NULL with rte_errno set.
 */
struct rte_mempool *uet_port_pool_create_attach(const char *name,
						unsigned nb_mbufs);

/**
 * Bytes one mbuf of such a pool takes in memory (object header, mbuf,
 * headroom and data room), for sizing EAL memory.
 */
size_t uet_port_pool_obj_bytes(unsigned data_bytes);

/** Bytes one mbuf of an attach pool takes in memory (object header and
 * mbuf). */
size_t uet_port_pool_attach_obj_bytes(void);

/**
 * Open a port from a device string and start it: a vdev
 * ("net_af_packet0,iface=veth0,framesz=8192,blocksz=8192",
 * "net_memif0,role=server,socket=/tmp/x.sock", "net_pcap0,rx_pcap=a,tx_pcap=b",
 * "net_ring0") or a PCI address ("0000:03:00.0"). A device that EAL already
 * created (from --vdev or the PCI scan) is used as is and not removed on
 * close; otherwise it is hot-plugged here and removed on close.
 *
 * af_packet binds to the interface in the calling thread's network namespace,
 * so call this from inside the namespace (setns) when there is one; the MTU
 * is also set there.
 *
 * One rx and one tx queue are configured; promiscuous mode is enabled where
 * the PMD supports it; the MTU is set to conf->mtu_bytes, or to the PMD's
 * limit when that is lower. af_packet claims 1,518-byte frames at most but
 * carries what the kernel interface's MTU allows: its interface MTU is left
 * as it is (set it with ip link; see docs/ports.md) and uet_port_link
 * reports 1500.
 *
 * A memif client is returned only once its link is up. Its server listens
 * from its probe but turns clients away until its port has started, and a
 * client turned away never connects again (DPDK 22.11); such a client is
 * closed after 1 s of wall time and -ENOTCONN returned: open it again.
 *
 * A queue port, "DEV@K/N", is queue pair K (from 0) of N of one memif
 * device: the device is opened and started with N queue pairs when its
 * first queue port is, with that port's pool for every queue, and closed
 * with its last; each queue pair is a link of its own (memif's rings), so
 * N hosts share one ethdev (Debian's DPDK has 32, RTE_MAX_ETHPORTS). Both
 * ends must say the same N. Only net_memif: af_packet's and AF_XDP's
 * queues split one link's frames, not links. Its name is "DEV#K".
 * -EINVAL for K >= N, N over UET_PORT_QUEUES_MAX, another PMD, or an N
 * other than the device's; -EBUSY for a queue already open.
 *
 * @param portp
 *   Set to the new port on success.
 * @param devargs
 *   Device string as above.
 * @param conf
 *   Pool and queue sizes; conf->pool must not be NULL.
 * @return
 *   0, or a negative errno (-EINVAL bad argument, -ENODEV no such device,
 *   -ENOMEM, -ENOTCONN memif client not taken, or what ethdev returned).
 */
int uet_port_open(struct uet_port **portp, const char *devargs,
		  const struct uet_port_conf *conf);

/**
 * Create two ports joined back to back by two rte_rings: what one sends the
 * other receives. For the embedded mode, where the switch and every NIC run
 * in one process. No ethdev is made (uet_port_id gives UET_PORT_ID_NONE), so
 * the number of pairs is not bound by RTE_MAX_ETHPORTS; bursts go straight
 * to rte_ring_enqueue_burst / rte_ring_dequeue_burst. Works without
 * hugepages.
 *
 * The link is up, full duplex, at no stated speed (0), with the MTU of conf
 * and a zero MAC address. The backend counters (rx_packets .. tx_bytes) are
 * the frames and bytes the rings carried; nothing is ever missed or errored.
 *
 * Each ring holds ring_size - 1 frames in flight per direction. A port may be
 * used by one thread for rx and one for tx at a time. Close both ports from
 * the same thread; the rings are freed (and frames still in them returned
 * to their pools) when the second one closes.
 *
 * @param ap
 *   Set to the first port, named "ring_<name>a".
 * @param bp
 *   Set to the second port, named "ring_<name>b".
 * @param name
 *   Short name, unique in the process (up to 20 characters); the rings are
 *   named "uet_<name>_f" and "uet_<name>_r".
 * @param ring_size
 *   Ring size, a power of two; 0 means 4096.
 * @param conf
 *   Pool (required, as for every port) and MTU; the descriptor counts are
 *   ignored.
 * @return
 *   0 or a negative errno.
 */
int uet_port_pair_create(struct uet_port **ap, struct uet_port **bp,
			 const char *name, unsigned ring_size,
			 const struct uet_port_conf *conf);

/**
 * The same pair, but each port an ethdev (net_ring, named "net_ring_<name>a"
 * and "net_ring_<name>b") with a real port id, for code that needs the
 * ethdev API on the link (rx/tx callbacks in tests). Two ethdevs per pair:
 * at most RTE_MAX_ETHPORTS / 2 pairs in a process. Same parameters and
 * rules as uet_port_pair_create; the link is what net_ring reports.
 */
int uet_port_ethdev_pair_create(struct uet_port **ap, struct uet_port **bp,
				const char *name, unsigned ring_size,
				const struct uet_port_conf *conf);

/**
 * Receive up to n frames.
 *
 * @param port
 *   The port.
 * @param pkts
 *   Filled with the frames received; the caller owns them.
 * @param n
 *   Room in pkts.
 * @return
 *   Number of frames received (0 if none).
 */
uint16_t uet_port_rx_burst(struct uet_port *port, struct rte_mbuf **pkts,
			   uint16_t n);

/**
 * Offer up to n frames to the port once.
 *
 * @param port
 *   The port.
 * @param pkts
 *   Frames; the port owns those it took, the caller keeps the rest
 *   (pkts[ret] to pkts[n - 1]).
 * @param n
 *   Number of frames.
 * @return
 *   How many frames the port took, from the front of pkts.
 */
uint16_t uet_port_tx_burst(struct uet_port *port, struct rte_mbuf **pkts,
			   uint16_t n);

/**
 * Send every frame, retrying while the port is full, for at most
 * timeout_ms of wall-clock time. The lockstep transport must lose nothing, so
 * a port that stays full is an error, not a drop: on timeout the frames not
 * taken are freed, counted in tx_dropped, and an error naming the port is
 * logged.
 *
 * @param port
 *   The port.
 * @param pkts
 *   Frames; all of them belong to the port (or are freed) on return.
 * @param n
 *   Number of frames.
 * @param timeout_ms
 *   Wall-clock limit in milliseconds.
 * @return
 *   n, or -ETIMEDOUT.
 */
int uet_port_tx_all(struct uet_port *port, struct rte_mbuf **pkts, uint16_t n,
		    uint32_t timeout_ms);

/**
 * Read the link state, MTU and MAC address.
 *
 * @param port
 *   The port.
 * @param link
 *   Filled in.
 * @return
 *   0 or a negative errno.
 */
int uet_port_link(const struct uet_port *port, struct uet_port_link *link);

/**
 * Read the counters.
 *
 * @param port
 *   The port.
 * @param stats
 *   Filled in.
 * @return
 *   0 or a negative errno.
 */
int uet_port_stats(const struct uet_port *port, struct uet_port_stats *stats);

/**
 * The ethdev port id, for code that needs the raw ethdev API.
 *
 * @param port
 *   The port.
 * @return
 *   The port id, or UET_PORT_ID_NONE for a ring-backed port.
 */
uint16_t uet_port_id(const struct uet_port *port);

/**
 * The port's name (for messages): the ethdev name, or "ring_<name>a|b".
 *
 * @param port
 *   The port.
 * @return
 *   A NUL-terminated name that lives as long as the port.
 */
const char *uet_port_name(const struct uet_port *port);

/**
 * Stop and close the port, remove the device if uet_port_open hot-plugged
 * it (or a pair created it), and free the port. NULL is accepted.
 *
 * @param port
 *   The port.
 */
void uet_port_close(struct uet_port *port);

/**
 * Initialise EAL for tests and tools without hugepages:
 * "--no-huge -m 512 --no-pci --no-shconf -l 0 --log-level=*:warning
 * --no-telemetry --file-prefix=<prefix>". Applications pass the user's EAL
 * arguments to rte_eal_init instead. Works once per process.
 *
 * @param prefix
 *   File prefix, distinct per process (include the pid).
 * @return
 *   0 or a negative errno.
 */
int uet_eal_init_default(const char *prefix);

/**
 * Initialise EAL without hugepages for an application: as
 * uet_eal_init_default() but with lcores lcores (0 or 1: one lcore that
 * may run on every CPU the process may use; more: lcores 0..lcores-1,
 * each of which may run on every such CPU, so that there may be more
 * lcores than CPUs) and mem_mb MB of memory (-m).
 *
 * @return
 *   0 or a negative errno.
 */
int uet_eal_init_sized(const char *prefix, unsigned int lcores,
		       unsigned int mem_mb);

/**
 * Before rte_eal_init() with the user's arguments: remove EAL's runtime
 * folder at exit if it is empty then (uet_eal_init_sized() does this
 * itself). With --no-shconf EAL puts nothing in it but never removes it.
 * Called before rte_eal_init() so that it runs after EAL's own exit
 * handlers.
 */
void uet_eal_tidy_at_exit(void);

/**
 * Remove EAL's runtime folder now if it is empty (rmdir takes only an
 * empty one): what uet_eal_tidy_at_exit() does at exit, for a process
 * that ends with _exit().
 */
void uet_eal_runtime_dir_remove(void);

/** CPUs this process may run on (its affinity mask), at least 1. */
unsigned int uet_eal_usable_cpus(void);

#endif /* UET_PORT_H */
