/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A frame in a window's message over ranks (sync_mpi_frame.h). A data
 * packet is a header mbuf chained to an mbuf attached to the payload
 * pattern (lib/nic), the same bytes in every process: its payload
 * crosses as its place in the pattern (eight bytes, not some 2 KiB), and
 * the receiver's frame points into its own pattern as the sender's did,
 * so its NIC checks the payload as in one process (by its place). At
 * 1,024 hosts that is 3.3 MB a window each way that is neither copied
 * into the message, nor across, nor compared at the receiver.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sync_mpi_frame.h"

/* A frame's record: this, the mbuf's dynamic fields, then each segment
 * (struct seg_wire, then its bytes unless shared). */
struct frame_wire {
	uint64_t arrival_ps;
	uint32_t kind, a, b, port;
	uint32_t len; /* the frame's, all segments */
	uint16_t dyn; /* the dynamic fields' bytes: the same build */
	uint16_t segs;
};

struct seg_wire {
	uint32_t len;
	uint32_t off; /* in the shared bytes, or SEG_BYTES: they follow */
};

#define SEG_BYTES UINT32_MAX
#define DYN_BYTES (sizeof(((struct rte_mbuf *)0)->dynfield1))

/* A shared-info's count is 16 bits: past this a shared segment is
 * copied from the receiver's own shared bytes instead. */
#define REFS_MAX 60000u

/* The coder's shared-infos, freed with the last of them: each starts
 * with the coder's reference, dropped at fini, and one more per frame
 * attached with it. */
struct sync_frame_refs {
	uint32_t n, live;
	struct rte_mbuf_ext_shared_info si[];
};

static void refs_drop(void *addr, void *opaque)
{
	struct sync_frame_refs *r = opaque;

	(void)addr;
	if (__atomic_sub_fetch(&r->live, 1, __ATOMIC_ACQ_REL) == 0)
		free(r);
}

int sync_frame_coder_init(struct sync_frame_coder *fc, const void *shared,
			  size_t shared_len, struct rte_mempool *mp,
			  struct rte_mempool *attach_mp, uint32_t n_keys)
{
	uint32_t i;

	memset(fc, 0, sizeof(*fc));
	fc->shared = shared;
	fc->shared_len = shared != NULL ? shared_len : 0;
	fc->bytes.mp = mp;
	fc->attach.mp = attach_mp != NULL ? attach_mp : mp;
	fc->n_keys = n_keys != 0 ? n_keys : 1u;
	fc->refs = calloc(1, sizeof(*fc->refs) +
				     fc->n_keys * sizeof(fc->refs->si[0]));
	if (fc->refs == NULL)
		return -ENOMEM;
	fc->refs->n = fc->n_keys;
	fc->refs->live = fc->n_keys;
	for (i = 0; i < fc->n_keys; i++) {
		fc->refs->si[i].free_cb = refs_drop;
		fc->refs->si[i].fcb_opaque = fc->refs;
		rte_mbuf_ext_refcnt_set(&fc->refs->si[i], 1);
	}
	return 0;
}

/* An mbuf of the stash's pool, a batch taken when it is empty. */
static struct rte_mbuf *stash_get(struct sync_frame_stash *st)
{
	if (st->at == st->n) {
		st->at = 0;
		st->n = rte_pktmbuf_alloc_bulk(st->mp, st->m,
					       SYNC_FRAME_STASH) == 0
				? SYNC_FRAME_STASH
				: 0;
		if (st->n == 0)
			/* The pool has fewer than a batch left. */
			return rte_pktmbuf_alloc(st->mp);
	}
	return st->m[st->at++];
}

static void stash_free(struct sync_frame_stash *st)
{
	if (st->n > st->at)
		rte_pktmbuf_free_bulk(st->m + st->at, st->n - st->at);
	st->n = st->at = 0;
}

void sync_frame_coder_fini(struct sync_frame_coder *fc)
{
	struct sync_frame_refs *r = fc->refs;
	uint32_t i, n;

	stash_free(&fc->bytes);
	stash_free(&fc->attach);
	if (r == NULL)
		return;
	n = r->n;
	fc->refs = NULL;
	/* The last drop frees r: nothing of it is read after. */
	for (i = 0; i < n; i++)
		if (rte_mbuf_ext_refcnt_update(&r->si[i], -1) == 0)
			refs_drop(NULL, r);
}

/* Where segment s lies in the shared bytes, or SEG_BYTES. */
static uint32_t seg_shared(const struct sync_frame_coder *fc,
			   const struct rte_mbuf *s)
{
	const uint8_t *d = rte_pktmbuf_mtod(s, const uint8_t *);

	if (fc->shared == NULL || d < fc->shared ||
	    (size_t)(d - fc->shared) + s->data_len > fc->shared_len ||
	    (size_t)(d - fc->shared) >= SEG_BYTES)
		return SEG_BYTES;
	return (uint32_t)(d - fc->shared);
}

size_t sync_frame_bound(const struct rte_mbuf *m)
{
	return sizeof(struct frame_wire) + DYN_BYTES +
	       m->nb_segs * sizeof(struct seg_wire) + rte_pktmbuf_pkt_len(m);
}

size_t sync_frame_encode(const struct sync_frame_coder *fc, uint8_t *dst,
			 const struct sync_frame_head *h,
			 const struct rte_mbuf *m)
{
	const struct frame_wire w = {
		.arrival_ps = h->arrival_ps,
		.kind = h->kind,
		.a = h->a,
		.b = h->b,
		.port = h->port,
		.len = rte_pktmbuf_pkt_len(m),
		.dyn = DYN_BYTES,
		.segs = m->nb_segs,
	};
	uint8_t *at = dst;
	const struct rte_mbuf *s;

	memcpy(at, &w, sizeof(w));
	at += sizeof(w);
	memcpy(at, m->dynfield1, DYN_BYTES);
	at += DYN_BYTES;
	for (s = m; s != NULL; s = s->next) {
		const struct seg_wire sw = {
			.len = s->data_len,
			.off = seg_shared(fc, s),
		};

		memcpy(at, &sw, sizeof(sw));
		at += sizeof(sw);
		if (sw.off != SEG_BYTES)
			continue;
		memcpy(at, rte_pktmbuf_mtod(s, const void *), sw.len);
		at += sw.len;
	}
	return (size_t)(at - dst);
}

int sync_frame_peek(const uint8_t *src, size_t avail, struct sync_frame_head *h)
{
	struct frame_wire w;

	if (avail < sizeof(w))
		return -EBADMSG;
	memcpy(&w, src, sizeof(w));
	h->arrival_ps = w.arrival_ps;
	h->kind = w.kind;
	h->a = w.a;
	h->b = w.b;
	h->port = w.port;
	return 0;
}

/* A segment of len bytes at src, in an mbuf of the pool. */
static int seg_copy(struct sync_frame_stash *st, const uint8_t *src,
		    uint32_t len, struct rte_mbuf **sp)
{
	struct rte_mbuf *s = stash_get(st);
	char *d;

	if (s == NULL)
		return -ENOBUFS;
	d = len <= rte_pktmbuf_tailroom(s)
		    ? rte_pktmbuf_append(s, (uint16_t)len)
		    : NULL;
	if (d == NULL) {
		rte_pktmbuf_free(s);
		return -EMSGSIZE;
	}
	memcpy(d, src, len);
	*sp = s;
	return 0;
}

/* A shared segment: attached to this rank's shared bytes at off. */
static int seg_attach(struct sync_frame_coder *fc, uint32_t key, uint32_t off,
		      uint32_t len, struct rte_mbuf **sp)
{
	struct rte_mbuf_ext_shared_info *si = &fc->refs->si[key];
	struct rte_mbuf *s;

	if (off > fc->shared_len || len > fc->shared_len - off ||
	    len > UINT16_MAX)
		return -EBADMSG;
	if (rte_mbuf_ext_refcnt_read(si) >= REFS_MAX)
		return seg_copy(&fc->bytes, fc->shared + off, len, sp);
	s = stash_get(&fc->attach);
	if (s == NULL)
		return -ENOBUFS;
	rte_mbuf_ext_refcnt_update(si, 1);
	rte_pktmbuf_attach_extbuf(s, (void *)(uintptr_t)(fc->shared + off),
				  RTE_BAD_IOVA, (uint16_t)len, si);
	s->data_off = 0;
	s->data_len = (uint16_t)len;
	s->pkt_len = len;
	*sp = s;
	return 0;
}

int sync_frame_decode(struct sync_frame_coder *fc, const uint8_t *src,
		      size_t avail, uint32_t key, struct rte_mbuf **mp,
		      size_t *used)
{
	struct rte_mbuf *m = NULL, *s;
	struct frame_wire w;
	size_t at = sizeof(w);
	uint32_t i;
	int rc = 0;

	if (avail < sizeof(w))
		return -EBADMSG;
	memcpy(&w, src, sizeof(w));
	if (w.dyn != DYN_BYTES || w.segs == 0 || avail - at < DYN_BYTES ||
	    key >= fc->n_keys)
		return -EBADMSG;
	at += DYN_BYTES;
	for (i = 0; rc == 0 && i < w.segs; i++) {
		struct seg_wire sw;

		if (avail - at < sizeof(sw)) {
			rc = -EBADMSG;
			break;
		}
		memcpy(&sw, src + at, sizeof(sw));
		at += sizeof(sw);
		if (sw.off == SEG_BYTES) {
			rc = avail - at < sw.len
				     ? -EBADMSG
				     : seg_copy(&fc->bytes, src + at, sw.len,
						&s);
			at += rc == 0 ? sw.len : 0;
		} else {
			rc = fc->shared == NULL
				     ? -EBADMSG
				     : seg_attach(fc, key, sw.off, sw.len, &s);
		}
		if (rc == 0 && m == NULL)
			m = s;
		else if (rc == 0 && rte_pktmbuf_chain(m, s) < 0) {
			rte_pktmbuf_free(s);
			rc = -EBADMSG;
		}
	}
	if (rc == 0 && rte_pktmbuf_pkt_len(m) != w.len)
		rc = -EBADMSG;
	if (rc < 0) {
		rte_pktmbuf_free(m);
		return rc;
	}
	memcpy(m->dynfield1, src + sizeof(w), DYN_BYTES);
	*mp = m;
	*used = at;
	return 0;
}
