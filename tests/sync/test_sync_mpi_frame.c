/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A frame's coding over ranks (lib/sync/sync_mpi_frame.c): a data
 * packet's payload segment that lies in the shared bytes crosses as its
 * place, eight bytes, and the rebuilt frame points into the receiver's
 * own copy of them; any other segment crosses as its bytes.
 */
#include <string.h>

#include <check.h>
#include <rte_mbuf.h>

#include "check_main.h"
#include "eal_test.h"
#include "sync_test_private.h"

#define POOL_MBUFS 64u
#define SHARED_BYTES 4096u
#define HDR_BYTES 80u
#define PAYLOAD_BYTES 2000u
#define PAYLOAD_OFF 1000u

/* The record's fixed part: head (32 bytes) and the dynamic fields. */
#define FIXED_BYTES (32u + sizeof(((struct rte_mbuf *)0)->dynfield1))
#define SEG_BYTES 8u

static uint8_t shared_a[SHARED_BYTES], shared_b[SHARED_BYTES];

static void noop_free(void *addr, void *opaque)
{
	(void)addr;
	(void)opaque;
}

/* A header of HDR_BYTES chained to a payload segment attached to
 * shared_a (or to other bytes, the sender's own) at PAYLOAD_OFF. */
static struct rte_mbuf *data_frame(struct rte_mempool *mp, uint8_t *payload,
				   struct rte_mbuf_ext_shared_info *si)
{
	struct rte_mbuf *h = rte_pktmbuf_alloc(mp), *p = rte_pktmbuf_alloc(mp);
	uint8_t *d;
	uint32_t i;

	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(p);
	d = (uint8_t *)rte_pktmbuf_append(h, HDR_BYTES);
	for (i = 0; i < HDR_BYTES; i++)
		d[i] = (uint8_t)(0xa0 + i);
	h->dynfield1[0] = 0x12345678u;
	si->free_cb = noop_free;
	rte_mbuf_ext_refcnt_set(si, 1);
	rte_pktmbuf_attach_extbuf(p, payload + PAYLOAD_OFF, RTE_BAD_IOVA,
				  PAYLOAD_BYTES, si);
	p->data_off = 0;
	p->data_len = PAYLOAD_BYTES;
	p->pkt_len = PAYLOAD_BYTES;
	ck_assert_int_eq(rte_pktmbuf_chain(h, p), 0);
	return h;
}

/* Encode m with sender a, decode it with receiver b; the bytes used. */
static size_t cross(struct sync_frame_coder *a, struct sync_frame_coder *b,
		    struct rte_mbuf *m, struct rte_mbuf **out)
{
	const struct sync_frame_head h = {
		.arrival_ps = 7000, .kind = 2, .a = 3, .b = 1, .port = 5};
	struct sync_frame_head got;
	uint8_t buf[8192];
	size_t n, used = 0;

	ck_assert_uint_le(sync_frame_bound(m), sizeof(buf));
	n = sync_frame_encode(a, buf, &h, m);
	ck_assert_int_eq(sync_frame_peek(buf, n, &got), 0);
	ck_assert_uint_eq(got.arrival_ps, 7000);
	ck_assert_uint_eq(got.kind, 2);
	ck_assert_uint_eq(got.a, 3);
	ck_assert_uint_eq(got.b, 1);
	ck_assert_uint_eq(got.port, 5);
	ck_assert_int_eq(sync_frame_decode(b, buf, n, 0, out, &used), 0);
	ck_assert_uint_eq(used, n);
	/* Cut short, it is refused. */
	ck_assert_int_eq(sync_frame_decode(b, buf, n - 1, 0, out + 1, &used),
			 -EBADMSG);
	return n;
}

static void same_bytes(const struct rte_mbuf *m, const uint8_t *payload)
{
	uint8_t want[HDR_BYTES + PAYLOAD_BYTES], got[sizeof(want)];
	const void *d;
	uint32_t i;

	for (i = 0; i < HDR_BYTES; i++)
		want[i] = (uint8_t)(0xa0 + i);
	memcpy(want + HDR_BYTES, payload + PAYLOAD_OFF, PAYLOAD_BYTES);
	ck_assert_uint_eq(rte_pktmbuf_pkt_len(m), sizeof(want));
	d = rte_pktmbuf_read(m, 0, sizeof(want), got);
	ck_assert_int_eq(memcmp(d, want, sizeof(want)), 0);
	ck_assert_uint_eq(m->dynfield1[0], 0x12345678u);
}

START_TEST(test_shared_payload_crosses_as_its_place)
{
	struct rte_mbuf_ext_shared_info si;
	struct sync_frame_coder a, b;
	struct rte_mbuf *m, *out[2];
	struct rte_mempool *mp;
	uint32_t i;

	uet_test_eal("uetsync", "mpiframe");
	mp = uet_test_pool("frame_pool", POOL_MBUFS);
	for (i = 0; i < SHARED_BYTES; i++)
		shared_a[i] = shared_b[i] = (uint8_t)(i * 7u);
	ck_assert_int_eq(
		sync_frame_coder_init(&a, shared_a, SHARED_BYTES, mp, NULL, 4),
		0);
	ck_assert_int_eq(
		sync_frame_coder_init(&b, shared_b, SHARED_BYTES, mp, NULL, 4),
		0);
	m = data_frame(mp, shared_a, &si);
	/* The header's bytes and the payload's place only. */
	ck_assert_uint_eq(cross(&a, &b, m, out),
			  FIXED_BYTES + 2 * SEG_BYTES + HDR_BYTES);
	rte_pktmbuf_free(m);
	same_bytes(out[0], shared_b);
	ck_assert_uint_eq(out[0]->nb_segs, 2);
	/* The payload is the receiver's own shared bytes, at its place. */
	ck_assert_ptr_eq(rte_pktmbuf_mtod(out[0]->next, uint8_t *),
			 shared_b + PAYLOAD_OFF);
	sync_frame_coder_fini(&a);
	sync_frame_coder_fini(&b);
	/* The frame outlives its coder. */
	same_bytes(out[0], shared_b);
	rte_pktmbuf_free(out[0]);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
}
END_TEST

START_TEST(test_other_bytes_cross_as_bytes)
{
	static uint8_t own[SHARED_BYTES];
	struct rte_mbuf_ext_shared_info si;
	struct sync_frame_coder a, b;
	struct rte_mbuf *m, *out[2];
	struct rte_mempool *mp;
	uint32_t i;

	uet_test_eal("uetsync", "mpiframe");
	mp = uet_test_pool("frame_pool", POOL_MBUFS);
	for (i = 0; i < SHARED_BYTES; i++)
		own[i] = (uint8_t)(i * 3u);
	ck_assert_int_eq(
		sync_frame_coder_init(&a, shared_a, SHARED_BYTES, mp, NULL, 4),
		0);
	ck_assert_int_eq(
		sync_frame_coder_init(&b, shared_b, SHARED_BYTES, mp, NULL, 4),
		0);
	/* A payload outside the shared bytes. */
	m = data_frame(mp, own, &si);
	ck_assert_uint_eq(cross(&a, &b, m, out), FIXED_BYTES + 2 * SEG_BYTES +
							 HDR_BYTES +
							 PAYLOAD_BYTES);
	rte_pktmbuf_free(m);
	same_bytes(out[0], own);
	rte_pktmbuf_free(out[0]);
	/* No shared bytes at the sender: every byte crosses. */
	sync_frame_coder_fini(&a);
	ck_assert_int_eq(sync_frame_coder_init(&a, NULL, 0, mp, NULL, 1), 0);
	m = data_frame(mp, shared_a, &si);
	ck_assert_uint_eq(cross(&a, &b, m, out), FIXED_BYTES + 2 * SEG_BYTES +
							 HDR_BYTES +
							 PAYLOAD_BYTES);
	rte_pktmbuf_free(m);
	same_bytes(out[0], shared_a);
	rte_pktmbuf_free(out[0]);
	sync_frame_coder_fini(&a);
	sync_frame_coder_fini(&b);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
}
END_TEST

static Suite *sync_mpi_frame_suite(void)
{
	Suite *s = suite_create("sync_mpi_frame");
	TCase *tc = tcase_create("frame");

	tcase_add_test(tc, test_shared_payload_crosses_as_its_place);
	tcase_add_test(tc, test_other_bytes_cross_as_bytes);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN_FORKED(sync_mpi_frame_suite)
