/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An mbuf pool that fills as it is used: sized for the scenario's worst
 * case (run_sizing.c counts every window full, three times over), but
 * faulted in and initialised a chunk at a time, when the frames in use
 * need it. The 1,024-host permutation derives 475,519 mbufs and peaks at
 * 126,976: DPDK's rte_pktmbuf_pool_create() would touch every page of the
 * 475,519 at start (half that run's set-up) and keep them resident.
 *
 * It is a mempool driver ("uet_grow"): a multi-producer, multi-consumer
 * ring like DPDK's default, whose dequeue adds the next chunk when it
 * leaves the ring low or the ring cannot serve. Each new mbuf is initialised
 * before it enters the ring, so another lcore can never take one half made; the
 * chunk is added under a lock, so two lcores finding the ring empty add one
 * chunk, not two. Once every mbuf of the pool exists, an empty ring fails the
 * get as any pool does (the run then stops, naming run.mbufs).
 *
 * A pool whose frames never reach a device (the embedded run's: ring ports
 * in one process) takes its memory from the process, not from EAL: chunks
 * are mmap()ed and the ring lives in the C heap. EAL's memory must be
 * reserved whole at start for the worst case, and without hugepages EAL
 * writes a 48-byte descriptor for every 4 KiB page of it: 18.7 GiB for a
 * 65,536-host run cost some 220 MB and a quarter of a second before the
 * first frame. Such mbufs have no IOVA (RTE_BAD_IOVA): nothing DMAs them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_memzone.h>
#include <rte_mempool.h>
#include <rte_ring.h>
#include <rte_spinlock.h>

#include "uet_log.h"
#include "uet_port.h"

#define POOL_GROW_OPS "uet_grow"
/* mbufs a chunk adds: a sixteenth of the pool, at least this many. */
#define POOL_GROW_MIN_CHUNK 512u
/* The most mbufs the pool makes at creation (a chunk, if smaller). A
 * 16-host run peaks at 512 to 1,800 mbufs of each of its two pools, under
 * a millisecond of its set-up for 512 (4,096 were 1 ms of its 9 ms of
 * CPU); a large run's pool grows by chunks of a sixteenth of it anyway. */
#define POOL_GROW_FIRST_MAX 4096u
/* The per-lcore caches of a pool, all RTE_MAX_LCORE of them
 * (pool_caches_set_up()), and a cache's flush threshold, as DPDK's
 * rte_mempool.c sets it (CALC_CACHE_FLUSHTHRESH, 1.5 x its size). */
#define POOL_CACHES_BYTES (sizeof(struct rte_mempool_cache) * RTE_MAX_LCORE)
#define POOL_CACHE_FLUSHTHRESH(size) ((size)*3u / 2u)

/* What a pool's memory comes from (the mempool's pool_config). */
struct pool_grow_config {
	bool local; /**< the process's (mmap, C heap), not EAL's */
};

static const struct pool_grow_config pool_grow_eal = {.local = false};
static const struct pool_grow_config pool_grow_local = {.local = true};

struct pool_grow {
	struct rte_ring *free; /**< the mbufs not in use */
	bool local;	       /**< pool_grow_config.local */
	rte_spinlock_t lock;   /**< held while a chunk is added */
	unsigned chunk;	       /**< mbufs a chunk adds */
	/** mbufs made: the pool's populated_size, until rte_mempool_free()
	 * counts that down as it drains the pool (pool_draining()). */
	unsigned made;
	rte_mempool_populate_obj_cb_t *add_cb; /**< the mempool's own */
};

/* The free ring of a local pool, in the C heap: its slots are touched as
 * mbufs enter it, so memory follows the pool's use here too. */
static struct rte_ring *local_ring(const char *name, unsigned count)
{
	ssize_t bytes = rte_ring_get_memsize(count);
	struct rte_ring *r;

	if (bytes < 0)
		return NULL;
	r = aligned_alloc(RTE_CACHE_LINE_SIZE,
			  RTE_ALIGN_CEIL((size_t)bytes, RTE_CACHE_LINE_SIZE));
	if (r == NULL)
		return NULL;
	if (rte_ring_init(r, name, count, 0) < 0) {
		free(r);
		return NULL;
	}
	return r;
}

/* mbufs a chunk adds to mp. */
static unsigned pool_chunk(const struct rte_mempool *mp)
{
	return RTE_MAX(POOL_GROW_MIN_CHUNK, mp->size / 16u);
}

static int grow_alloc(struct rte_mempool *mp)
{
	const struct pool_grow_config *cfg = mp->pool_config;
	const unsigned count = rte_align32pow2(mp->size + 1);
	char name[RTE_RING_NAMESIZE];
	struct pool_grow *g;

	g = rte_zmalloc_socket("uet_pool_grow", sizeof(*g), 0, mp->socket_id);
	if (g == NULL)
		return -ENOMEM;
	g->local = cfg != NULL && cfg->local;
	snprintf(name, sizeof(name), "PG_%s", mp->name);
	g->free = g->local ? local_ring(name, count)
			   : rte_ring_create(name, count, mp->socket_id, 0);
	if (g->free == NULL) {
		rte_free(g);
		return g->local ? -ENOMEM : -rte_errno;
	}
	rte_spinlock_init(&g->lock);
	g->chunk = pool_chunk(mp);
	mp->pool_data = g;
	return 0;
}

static void grow_free(struct rte_mempool *mp)
{
	struct pool_grow *g = mp->pool_data;

	if (g->local)
		free(g->free);
	else
		rte_ring_free(g->free);
	rte_free(g);
}

static int grow_enqueue(struct rte_mempool *mp, void *const *objs, unsigned n)
{
	const struct pool_grow *g = mp->pool_data;

	return rte_ring_mp_enqueue_bulk(g->free, objs, n, NULL) == 0 ? -ENOBUFS
								     : 0;
}

static unsigned grow_get_count(const struct rte_mempool *mp)
{
	const struct pool_grow *g = mp->pool_data;

	return rte_ring_count(g->free);
}

/* Called by the mempool for each object it adds, before it enqueues it:
 * make it an mbuf first. rte_pktmbuf_init reads the object header's
 * iova, which the mempool's own callback writes only afterwards. */
static void grow_obj_init(struct rte_mempool *mp, void *arg, void *obj,
			  rte_iova_t iova)
{
	const struct pool_grow *g = mp->pool_data;
	struct rte_mempool_objhdr *hdr = rte_mempool_get_header(obj);

	hdr->mp = mp;
	hdr->iova = iova;
	rte_pktmbuf_init(mp, NULL, obj, 0);
	g->add_cb(mp, arg, obj, iova);
}

static int grow_populate(struct rte_mempool *mp, unsigned max_objs, void *vaddr,
			 rte_iova_t iova, size_t len,
			 rte_mempool_populate_obj_cb_t *obj_cb,
			 void *obj_cb_arg)
{
	struct pool_grow *g = mp->pool_data;
	int rc;

	g->add_cb = obj_cb;
	rc = rte_mempool_op_populate_helper(mp, 0, max_objs, vaddr, iova, len,
					    grow_obj_init, obj_cb_arg);
	if (rc > 0)
		g->made += (unsigned)rc;
	return rc;
}

static void chunk_free(struct rte_mempool_memhdr *memhdr, void *opaque)
{
	RTE_SET_USED(memhdr);
	rte_memzone_free(opaque);
}

/*
 * Fault the chunk's pages in with one system call before its mbufs are
 * initialised, rather than one page fault (a trap, in a VM an exit) per
 * 4 KiB page as the initialisation first writes each. A hint: a kernel
 * before 5.14 refuses it and the pages fault in one by one as before.
 */
static void chunk_prefault(void *addr, size_t len)
{
#ifdef MADV_POPULATE_WRITE
	const uintptr_t page = (uintptr_t)getpagesize();
	uintptr_t a = (uintptr_t)addr & ~(page - 1);
	uintptr_t b = ((uintptr_t)addr + len + page - 1) & ~(page - 1);

	(void)madvise((void *)a, b - a, MADV_POPULATE_WRITE);
#else
	RTE_SET_USED(addr);
	RTE_SET_USED(len);
#endif
}

/* A local chunk's memory goes back to the process. */
static void chunk_unmap(struct rte_mempool_memhdr *memhdr, void *opaque)
{
	RTE_SET_USED(opaque);
	munmap(memhdr->addr, memhdr->len);
}

/*
 * Map len bytes for a local chunk. A chunk of a large pool (1 MiB and
 * up) is rounded up to whole transparent huge pages (2 MiB, aligned) and
 * asked to be backed by them (MADV_HUGEPAGE: this machine's kernels give
 * them to such ranges only): a frame crossing a large fabric touches its
 * mbuf's lines at each hop, long after the last touch, and with 4 KiB
 * pages every such touch also missed the TLB (on the 8,192-host
 * permutation, huge pages for the pools and the heap took 10% off the
 * CPU time; docs/performance.md). The rounding only makes more mbufs at
 * once: populate fills the whole range. Returns the mapping and its
 * length in *len, or NULL.
 */
#define CHUNK_HUGE_BYTES ((size_t)2 << 20)
static void *chunk_map(size_t *len)
{
	const size_t huge = CHUNK_HUGE_BYTES;
	size_t want = *len, head;
	uint8_t *raw;

	if (want < huge / 2) {
		raw = mmap(NULL, want, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return raw == MAP_FAILED ? NULL : raw;
	}
	want = (want + huge - 1) & ~(huge - 1);
	/* One huge page more, to cut an aligned range out of. */
	raw = mmap(NULL, want + huge, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	head = (size_t)(-(uintptr_t)raw & (huge - 1));
	if (head != 0)
		munmap(raw, head);
	munmap(raw + head + want, huge - head);
#ifdef MADV_HUGEPAGE
	(void)madvise(raw + head, want, MADV_HUGEPAGE);
#endif
	*len = want;
	return raw + head;
}

/* A local pool's chunk of at least need bytes: mapped, faulted in,
 * populated. */
static int grow_chunk_local(struct rte_mempool *mp, size_t need)
{
	void *addr = chunk_map(&need);
	int rc;

	if (addr == NULL)
		return -ENOMEM;
	chunk_prefault(addr, need);
	rc = rte_mempool_populate_iova(mp, addr, RTE_BAD_IOVA, need,
				       chunk_unmap, NULL);
	if (rc <= 0) {
		munmap(addr, need);
		return rc < 0 ? rc : -ENOBUFS;
	}
	return 0;
}

/*
 * Add the next chunk of mbufs. Returns 0, -ENOBUFS when the pool is
 * whole, or -ENOMEM. The chunk is one IOVA-contiguous memzone given to
 * rte_mempool_populate_iova(): buf_iova stays right for a NIC's DMA, and
 * a failure frees only this chunk (rte_mempool_populate_virt's failure
 * path frees every chunk of the pool, mbufs in use included).
 */
static int grow_chunk(struct rte_mempool *mp, unsigned n)
{
	char name[RTE_MEMZONE_NAMESIZE];
	const struct rte_memzone *mz;
	size_t min_chunk, align;
	ssize_t need;
	int rc;

	if (n > mp->size - mp->populated_size)
		n = mp->size - mp->populated_size;
	if (n == 0)
		return -ENOBUFS;
	/* The populate helper keeps objects off page boundaries (4 KiB
	 * without hugepages): count the room that costs. This driver has no
	 * calc_mem_size of its own, so the mempool's would call DPDK's
	 * default; called here directly, since a shared DPDK does not export
	 * rte_mempool_ops_calc_mem_size() (-Ddpdk_link=shared failed to
	 * link). */
	need = rte_mempool_op_calc_mem_size_default(
		mp, n, rte_log2_u32((uint32_t)getpagesize()), &min_chunk,
		&align);
	if (need < 0)
		return (int)need;
	/* The config, not pool_data: the driver's alloc makes that at the
	 * first chunk's populate. */
	if (((const struct pool_grow_config *)mp->pool_config)->local)
		return grow_chunk_local(mp, (size_t)need);
	snprintf(name, sizeof(name), "PG_%s_%u", mp->name, mp->nb_mem_chunks);
	mz = rte_memzone_reserve_aligned(name, (size_t)need, mp->socket_id,
					 RTE_MEMZONE_IOVA_CONTIG, align);
	if (mz == NULL)
		return -ENOMEM;
	chunk_prefault(mz->addr, mz->len);
	rc = rte_mempool_populate_iova(mp, mz->addr, mz->iova, mz->len,
				       chunk_free, (void *)(uintptr_t)mz);
	if (rc <= 0) {
		rte_memzone_free(mz);
		return rc < 0 ? rc : -ENOBUFS;
	}
	return 0;
}

/*
 * rte_mempool_free() drains the pool through its dequeue, one mbuf at a
 * time, counting populated_size down as it goes: a chunk added then
 * (the ring runs low, the pool is not whole) would be drained in turn,
 * and the next, for ever. A pool whose populated_size is below what it
 * made is being freed: it makes no more.
 */
static bool pool_draining(const struct rte_mempool *mp,
			  const struct pool_grow *g)
{
	return mp->populated_size < g->made;
}

/*
 * Take n mbufs. An lcore that finds the ring empty adds a chunk while the
 * others wait on the lock; to make that rare, an lcore that leaves the
 * ring low (a quarter of a chunk) adds the next chunk then, if no other
 * lcore is at it, while the others go on with what the ring still holds.
 * On the 1,024-host run on 2 lcores the waiting was 2.7% of the samples,
 * all of it spinning on the lock.
 */
static int grow_dequeue(struct rte_mempool *mp, void **objs, unsigned n)
{
	struct pool_grow *g = mp->pool_data;
	int rc = 0;

	while (rte_ring_mc_dequeue_bulk(g->free, objs, n, NULL) == 0) {
		if (pool_draining(mp, g))
			return -ENOBUFS;
		rte_spinlock_lock(&g->lock);
		/* Another lcore may have added a chunk meanwhile. */
		if (rte_ring_count(g->free) < n)
			rc = grow_chunk(mp, RTE_MAX(g->chunk, n));
		rte_spinlock_unlock(&g->lock);
		if (rc < 0)
			return -ENOBUFS;
	}
	if (rte_ring_count(g->free) < g->chunk / 4u &&
	    mp->populated_size < mp->size && !pool_draining(mp, g) &&
	    rte_spinlock_trylock(&g->lock)) {
		/* A failure here is not this get's: the get that finds the
		 * ring empty reports it. */
		if (rte_ring_count(g->free) < g->chunk / 4u)
			(void)grow_chunk(mp, g->chunk);
		rte_spinlock_unlock(&g->lock);
	}
	return 0;
}

static const struct rte_mempool_ops pool_grow_ops = {
	.name = POOL_GROW_OPS,
	.alloc = grow_alloc,
	.free = grow_free,
	.enqueue = grow_enqueue,
	.dequeue = grow_dequeue,
	.get_count = grow_get_count,
	.populate = grow_populate,
};

RTE_MEMPOOL_REGISTER_OPS(pool_grow_ops);

/*
 * The pool's per-lcore caches, set up for the EAL's lcores only.
 * rte_mempool_create_empty() puts a cache for each of RTE_MAX_LCORE
 * lcores (128 in Debian's DPDK), 8 KiB each, after the mempool's header,
 * and zeroes and sets up all of them: a MiB and 258 pages faulted in per
 * pool, 40% of a 16-host run's page faults and 8% of its CPU, for the one
 * or two lcores a run has. The pool is made without caches but with the
 * same room for them at the start of its private data, which is where the
 * caches of a pool made with them lie (local_cache points there either
 * way, and rte_mempool_get_priv() finds the mbuf pool's private data after
 * them once cache_size is set): the same layout, but only the caches of
 * the EAL's lcores are written, as DPDK's mempool_cache_init() does; the
 * others stay the heap's zero pages, untouched. A cache nobody set up
 * (size 0) would send every get and put to the driver, as a pool without
 * caches does; only the EAL's threads have caches
 * (rte_mempool_default_cache()).
 */
static void pool_caches_set_up(struct rte_mempool *mp, unsigned size)
{
	unsigned lcore_id;

	RTE_LCORE_FOREACH(lcore_id)
	{
		mp->local_cache[lcore_id].size = size;
		mp->local_cache[lcore_id].flushthresh =
			POOL_CACHE_FLUSHTHRESH(size);
		mp->local_cache[lcore_id].len = 0;
	}
	mp->cache_size = size;
}

/* A growing pool of mbufs of room bytes of data room each (headroom
 * included). */
static struct rte_mempool *pool_create_room(const char *name, unsigned nb_mbufs,
					    uint16_t room, int socket_id,
					    bool local)
{
	struct rte_pktmbuf_pool_private priv = {
		.mbuf_data_room_size = room,
	};
	unsigned cache = RTE_MIN(256u, nb_mbufs / 4);
	struct rte_mempool *mp;
	int rc;

	/* Without caches, room for them first in the private data
	 * (pool_caches_set_up()). */
	mp = rte_mempool_create_empty(
		name, nb_mbufs, sizeof(struct rte_mbuf) + room, 0,
		POOL_CACHES_BYTES + sizeof(priv), socket_id, 0);
	if (mp == NULL)
		return NULL;
	rc = rte_mempool_set_ops_byname(
		mp, POOL_GROW_OPS,
		(void *)(uintptr_t)(local ? &pool_grow_local : &pool_grow_eal));
	if (rc < 0) {
		/* DPDK's table holds 16 mempool drivers; a shared DPDK that
		 * loaded many plugins may have had no room for this one. */
		rte_mempool_free(mp);
		UET_LOG(WARNING, DRIVERS,
			"pool %s: no mempool driver %s (%s); making all %u "
			"mbufs now",
			name, POOL_GROW_OPS, strerror(-rc), nb_mbufs);
		return rte_pktmbuf_pool_create(name, nb_mbufs, cache, 0, room,
					       socket_id);
	}
	if (cache > 0)
		pool_caches_set_up(mp, cache);
	rte_pktmbuf_pool_init(mp, &priv);
	/* The first chunk now: it creates the ring (the driver's alloc) and
	 * serves the run's first frames. */
	rc = grow_chunk(mp, RTE_MIN(POOL_GROW_FIRST_MAX, pool_chunk(mp)));
	if (rc < 0) {
		rte_mempool_free(mp);
		rte_errno = -rc;
		return NULL;
	}
	return mp;
}

struct rte_mempool *uet_port_pool_create_growing(const char *name,
						 unsigned nb_mbufs,
						 unsigned data_bytes,
						 int socket_id)
{
	return pool_create_room(name, nb_mbufs,
				(uint16_t)(data_bytes + RTE_PKTMBUF_HEADROOM),
				socket_id, false);
}

struct rte_mempool *uet_port_pool_create_local(const char *name,
					       unsigned nb_mbufs,
					       unsigned data_bytes)
{
	return pool_create_room(name, nb_mbufs,
				(uint16_t)(data_bytes + RTE_PKTMBUF_HEADROOM),
				SOCKET_ID_ANY, true);
}

struct rte_mempool *uet_port_pool_create_attach(const char *name,
						unsigned nb_mbufs)
{
	return pool_create_room(name, nb_mbufs, 0, SOCKET_ID_ANY, true);
}
