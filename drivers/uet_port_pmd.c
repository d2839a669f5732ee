/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What two PMDs need beyond ethdev's API (DPDK 22.11): net_af_xdp an rx
 * pool whose mbufs fit its umem's page-sized chunks, net_af_packet a way
 * to the kernel's count of what its receive ring dropped.
 */
#include <dirent.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_errno.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_memzone.h>

#include "uet_log.h"
#include "uet_port.h"
#include "uet_port_priv.h"

/* Mbufs of a net_af_xdp port's own rx pool: its fill ring and a window's
 * worth of frames held by the model. */
#define ETHDEV_XDP_RX_MBUFS 4096u

/* The memzone under a net_af_xdp port's rx pool goes with the pool. */
static void xdp_rx_pool_memzone_free(struct rte_mempool_memhdr *hdr, void *mz)
{
	(void)hdr;
	rte_memzone_free(mz);
}

/*
 * The rx pool's objects, one a page, in a page-aligned memzone. The PMD
 * registers as its umem the pool's first memory chunk from the page that
 * holds its start, for the pool's size in objects: it takes the objects to
 * be packed from the chunk's start. rte_mempool_populate_default puts
 * page-sized objects on page boundaries, after the chunk's first partial
 * page, so the last object ran past the umem's end by up to a page: a
 * frame sent from it was an invalid descriptor the kernel dropped
 * (XDP_STATISTICS tx_invalid_descs), lost without a trace in DPDK's
 * counters, and a realtime run waited for a retransmission timeout. A
 * chunk that starts on a page has the objects exactly where the PMD
 * expects them.
 */
static int xdp_rx_pool_populate(struct rte_mempool *mp, size_t page)
{
	size_t obj = mp->header_size + mp->elt_size + mp->trailer_size;
	const struct rte_memzone *mz;
	char name[RTE_MEMZONE_NAMESIZE];
	int ret;

	snprintf(name, sizeof(name), "%s_mz", mp->name);
	mz = rte_memzone_reserve_aligned(name, obj * mp->size, mp->socket_id, 0,
					 page);
	if (mz == NULL)
		return -rte_errno;
	ret = rte_mempool_populate_iova(mp, mz->addr, mz->iova, mz->len,
					xdp_rx_pool_memzone_free,
					(void *)(uintptr_t)mz);
	if (ret < 0) {
		rte_memzone_free(mz);
		return ret;
	}
	if (mp->populated_size != mp->size)
		return -ENOMEM;
	return 0;
}

/*
 * net_af_xdp (DPDK 22.11, zero-copy between umem and mbufs) registers the
 * rx pool's memory as its umem, one chunk per mbuf, and the kernel takes
 * chunks of at most a page: a pool of 8 KiB mbufs fails ("Failed to create
 * umem"). Such a port receives into a pool of its own whose mbufs fill a
 * page (xdp_rx_pool_populate); frames up to its MTU (3,498 on a veth) fit
 * in one.
 */
struct rte_mempool *uet_port_xdp_rx_pool(struct uet_port *p,
					 struct rte_mempool *pool, int socket)
{
	size_t page = (size_t)getpagesize();
	size_t obj = pool->header_size + pool->elt_size + pool->trailer_size;
	struct rte_mempool *mp;
	char name[RTE_MEMPOOL_NAMESIZE];

	if (strncmp(p->name, "net_af_xdp", 10) != 0 || obj <= page)
		return pool;
	/* What is left of a page after the object header and the mbuf; no
	 * padding between objects (spreading them over memory channels
	 * would make them outgrow the page). */
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = (uint16_t)(page - RTE_CACHE_LINE_SIZE -
						  sizeof(struct rte_mbuf)),
	};

	snprintf(name, sizeof(name), "uet_xdp_rx%u", p->port_id);
	mp = rte_mempool_create_empty(
		name, ETHDEV_XDP_RX_MBUFS,
		sizeof(struct rte_mbuf) + priv.mbuf_data_room_size, 256,
		sizeof(priv), socket, RTE_MEMPOOL_F_NO_SPREAD);
	if (mp != NULL &&
	    (rte_mempool_set_ops_byname(mp, rte_mbuf_best_mempool_ops(),
					NULL) != 0 ||
	     mp->header_size + mp->elt_size + mp->trailer_size > page)) {
		rte_mempool_free(mp);
		mp = NULL;
	}
	if (mp != NULL) {
		rte_pktmbuf_pool_init(mp, &priv);
		if (xdp_rx_pool_populate(mp, page) < 0) {
			rte_mempool_free(mp);
			mp = NULL;
		} else {
			rte_mempool_obj_iter(mp, rte_pktmbuf_init, NULL);
		}
	}
	if (mp == NULL) {
		UET_LOG(ERROR, DRIVERS,
			"port %s: cannot make its rx pool of page-sized "
			"mbufs: %s",
			p->name, rte_strerror(rte_errno));
		return NULL;
	}
	p->rx_pool = mp;
	/* Its tx copies a frame into one of these mbufs, after the
	 * headroom. */
	p->tx_max_frame = priv.mbuf_data_room_size - RTE_PKTMBUF_HEADROOM;
	return mp;
}

/* The network namespace of a socket (SO_NETNS_COOKIE, Linux 5.14); 0 when
 * the kernel cannot say. */
static uint64_t afp_netns_cookie(int fd)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);

	if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) != 0)
		return 0;
	return cookie;
}

/*
 * af_packet's receive ring drops what comes while it is full, and DPDK
 * 22.11's PMD reports none of it (imissed stays 0); the packet socket counts
 * it (PACKET_STATISTICS). The PMD keeps its socket to itself, so the port
 * looks for it among the process's descriptors: the AF_PACKET socket bound
 * to the interface's index in the calling thread's namespace (two
 * namespaces may each have an interface 2; without SO_NETNS_COOKIE the
 * first socket on that index is taken).
 * @return the descriptor, or -1 (the port then reports no kernel drops).
 */
int uet_port_afp_socket_find(int ifindex)
{
	uint64_t here = 0;
	struct dirent *d;
	int probe, found = -1;
	DIR *dir;

	probe = socket(AF_PACKET, SOCK_RAW, 0);
	if (probe >= 0) {
		here = afp_netns_cookie(probe);
		close(probe);
	}
	dir = opendir("/proc/self/fd");
	if (dir == NULL)
		return -1;
	while (found < 0 && (d = readdir(dir)) != NULL) {
		struct sockaddr_ll sll;
		socklen_t len = sizeof(sll);
		int fd = atoi(d->d_name), domain = 0;
		socklen_t dlen = sizeof(domain);
		struct stat st;

		if (d->d_name[0] < '0' || d->d_name[0] > '9' ||
		    fd == dirfd(dir) || fstat(fd, &st) != 0 ||
		    !S_ISSOCK(st.st_mode) ||
		    getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &dlen) !=
			    0 ||
		    domain != AF_PACKET ||
		    getsockname(fd, (struct sockaddr *)&sll, &len) != 0 ||
		    sll.sll_ifindex != ifindex ||
		    (here != 0 && afp_netns_cookie(fd) != here))
			continue;
		found = fd;
	}
	closedir(dir);
	return found;
}
