/* SPDX-License-Identifier: BSD-3-Clause */
#include "uet_xring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_ring.h>
#include <rte_ring_elem.h>

/* rte_ring's element size must be a multiple of 4 bytes. */
_Static_assert(sizeof(struct uet_xframe) % 4 == 0,
	       "uet_xframe must suit rte_ring_elem");

#define XRING_MIN_FRAMES 32u
#define XRING_MAX_FRAMES (1u << 20)
#define XRING_SPILL_FIRST 64u
/* An array ring's first allocation, at its first put. A NIC's window
 * carries a few frames each way (a 1 us lookahead at 400 Gbps is 12 data
 * frames of 4 KiB), so this holds most windows; a busier ring doubles.
 * Sized for the window's worst case instead (256 entries at 100 Gbps),
 * the 4 rings of every NIC took 24 KiB each: 200 MB at 8,192 hosts. */
#define XRING_ARRAY_FIRST 16u
#define XRING_MIN_FRAME_BITS (64u * 8u)
#define PS_PER_S 1000000000000.0

int uet_xring_init(struct uet_xring *x, const char *name, uint32_t frames)
{
	ssize_t size;
	uint32_t count;
	int rc;

	memset(x, 0, sizeof(*x));
	x->spill_first = XRING_SPILL_FIRST;
	if (frames < XRING_MIN_FRAMES)
		frames = XRING_MIN_FRAMES;
	if (frames > XRING_MAX_FRAMES)
		frames = XRING_MAX_FRAMES;
	/* A ring of 2^k slots holds 2^k - 1 frames. */
	count = rte_align32pow2(frames + 1u);
	size = rte_ring_get_memsize_elem(sizeof(struct uet_xframe), count);
	if (size < 0)
		return (int)size;
	if (posix_memalign(&x->mem, RTE_CACHE_LINE_SIZE, (size_t)size) != 0)
		return -ENOMEM;
	x->r = x->mem;
	rc = rte_ring_init(x->r, name, count, RING_F_SP_ENQ | RING_F_SC_DEQ);
	if (rc < 0) {
		free(x->mem);
		memset(x, 0, sizeof(*x));
		return rc;
	}
	return 0;
}

int uet_xring_init_array(struct uet_xring *x, uint32_t frames)
{
	memset(x, 0, sizeof(*x));
	x->spill_first = frames != 0 ? frames : XRING_SPILL_FIRST;
	if (x->spill_first > XRING_ARRAY_FIRST)
		x->spill_first = XRING_ARRAY_FIRST;
	return 0;
}

/*
 * Append to the spill array, field by field: a whole uet_xframe built on
 * the stack and copied here was loaded back with a 16-byte load that the
 * store buffer cannot forward from the narrower stores that built it, so
 * the load waited for every store before it (1.2% of the 1,024-host run).
 */
static int spill_push(struct uet_xring *x, struct rte_mbuf *m,
		      uet_time_t arrival_ps, uint32_t port, uint32_t order)
{
	struct uet_xframe *f;

	if (x->n_spill == x->cap_spill) {
		uint32_t cap = x->cap_spill	? x->cap_spill * 2u
			       : x->spill_first ? x->spill_first
						: XRING_SPILL_FIRST;
		void *p = realloc(x->spill, cap * sizeof(*x->spill));

		if (p == NULL)
			return -ENOMEM;
		x->spill = p;
		x->cap_spill = cap;
	}
	f = &x->spill[x->n_spill++];
	f->m = m;
	f->arrival_ps = arrival_ps;
	f->port = port;
	f->order = order;
	if (x->r != NULL)
		x->spilled++;
	return 0;
}

int uet_xring_put(struct uet_xring *x, struct rte_mbuf *m,
		  uet_time_t arrival_ps, uint32_t port)
{
	int rc;

	/* Once frames spill, the rest follow them, so the reader, which
	 * empties the ring first, still takes them in order. */
	if (x->n_spill == 0 && x->r != NULL) {
		struct uet_xframe f = {
			.m = m,
			.arrival_ps = arrival_ps,
			.port = port,
			.order = x->put,
		};

		if (rte_ring_sp_enqueue_elem(x->r, &f, sizeof(f)) == 0) {
			x->put++;
			return 0;
		}
	}
	rc = spill_push(x, m, arrival_ps, port, x->put);
	if (rc == 0)
		x->put++;
	return rc;
}

uint32_t uet_xring_count(const struct uet_xring *x)
{
	return (x->r != NULL ? rte_ring_count(x->r) : 0u) + x->n_spill -
	       x->spill_head;
}

uint32_t uet_xring_take(struct uet_xring *x, struct uet_xframe *dst,
			uint32_t max)
{
	uint32_t n = 0;

	if (x->r != NULL && max > 0)
		n = rte_ring_sc_dequeue_burst_elem(x->r, dst, sizeof(*dst), max,
						   NULL);
	while (n < max && x->spill_head < x->n_spill)
		dst[n++] = x->spill[x->spill_head++];
	if (uet_xring_count(x) == 0) {
		/* Start again at slot 0: the next window's frames reuse the
		 * lines this one warmed, instead of walking the whole ring
		 * through the cache (no writer runs between the windows'
		 * barriers, so the reset races nothing). */
		if (x->r != NULL)
			rte_ring_reset(x->r);
		x->n_spill = 0;
		x->spill_head = 0;
		x->put = 0;
	}
	return n;
}

void uet_xring_fini(struct uet_xring *x)
{
	struct uet_xframe f[32];
	uint32_t n, i;

	while ((n = uet_xring_take(x, f, RTE_DIM(f))) > 0)
		for (i = 0; i < n; i++)
			rte_pktmbuf_free(f[i].m);
	free(x->spill);
	free(x->mem);
	memset(x, 0, sizeof(*x));
}

uint32_t uet_xring_frames_per_window(uint64_t rate_bps, uet_time_t window_ps)
{
	double frames = (double)window_ps * (double)rate_bps /
			(PS_PER_S * XRING_MIN_FRAME_BITS);

	if (frames >= (double)XRING_MAX_FRAMES)
		return XRING_MAX_FRAMES;
	return (uint32_t)frames + 2u;
}
