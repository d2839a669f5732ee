/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sync: The trailer on mbuf chains (sync_frame.c): after the IP datagram in
 * place of padding, in a new segment on a full chain, at the end of a
 * frame that is not IPv4.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <check.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

#include "check_main.h"
#include "eal_test.h"
#include "sync_harness.h"
#include "uet_wire_be.h"

START_TEST(test_trailer_replaces_padding_after_ip_datagram)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	const uint8_t *p;
	uet_time_t t = 0;

	uet_test_eal("uetsync", "trpad");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	m = ping_frame(mp, 0, 7);
	ck_assert_uint_eq(m->pkt_len, 60);
	ck_assert_int_eq(
		uet_sync_trailer_append(m, UINT64_C(0x0102030405060708)), 0);
	/* 50 bytes of frame, then "UEVT" and the time, big-endian. */
	ck_assert_uint_eq(m->pkt_len, TEST_FRAME_BYTES + 12);
	ck_assert_uint_eq(m->nb_segs, 1);
	p = rte_pktmbuf_mtod_offset(m, const uint8_t *, TEST_FRAME_BYTES);
	ck_assert_mem_eq(p, "UEVT\x01\x02\x03\x04\x05\x06\x07\x08", 12);
	ck_assert_int_eq(uet_sync_trailer_strip(m, &t), 0);
	ck_assert_uint_eq(t, UINT64_C(0x0102030405060708));
	ck_assert_uint_eq(m->pkt_len, TEST_FRAME_BYTES);
	/* Nothing left to strip. */
	ck_assert_int_eq(uet_sync_trailer_strip(m, &t), -ENOENT);
	ck_assert_uint_eq(m->pkt_len, TEST_FRAME_BYTES);
	rte_pktmbuf_free(m);
}
END_TEST

START_TEST(test_trailer_on_full_chain_goes_in_a_new_segment)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m, *seg;
	uint32_t room;
	uet_time_t t = 0;
	uint8_t *p;

	uet_test_eal("uetsync", "trchain");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	m = ping_frame(mp, 1, 2);
	/* Cut to the 50 bytes of datagram, then a full second segment
	 * carrying more payload, covered by the IP total length. */
	rte_pktmbuf_trim(m, 10);
	seg = rte_pktmbuf_alloc(mp);
	ck_assert_ptr_nonnull(seg);
	room = rte_pktmbuf_tailroom(seg);
	p = (uint8_t *)rte_pktmbuf_append(seg, (uint16_t)room);
	ck_assert_ptr_nonnull(p);
	memset(p, 0xab, room);
	ck_assert_int_eq(rte_pktmbuf_chain(m, seg), 0);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	{
		struct uet_ipv4_hdr ip = {
			.total_length_bytes = (uint16_t)(TEST_IP_BYTES + room),
			.ttl = 64,
			.protocol = UET_IPPROTO_UDP,
			.src = 0xc6120002u,
			.dst = 0xc6120000u,
		};
		ck_assert_int_eq(uet_ipv4_build(p + 14, 20, &ip), 20);
	}
	ck_assert_uint_eq(rte_pktmbuf_tailroom(rte_pktmbuf_lastseg(m)), 0);
	ck_assert_int_eq(uet_sync_trailer_append(m, 12345 * US), 0);
	ck_assert_uint_eq(m->nb_segs, 3);
	ck_assert_uint_eq(m->pkt_len, TEST_FRAME_BYTES + room + 12);
	ck_assert_int_eq(uet_sync_trailer_strip(m, &t), 0);
	ck_assert_uint_eq(t, 12345 * US);
	ck_assert_uint_eq(m->nb_segs, 2);
	ck_assert_uint_eq(m->pkt_len, TEST_FRAME_BYTES + room);
	rte_pktmbuf_free(m);
	/* Every segment went back to the pool. */
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
}
END_TEST

START_TEST(test_trailer_on_non_ip_frame_goes_at_the_end)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	uet_time_t t = 0;
	uint8_t *p;

	uet_test_eal("uetsync", "trpfc");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	m = rte_pktmbuf_alloc(mp);
	p = (uint8_t *)rte_pktmbuf_append(m, 60);
	memset(p, 0, 60);
	/* A PFC pause: MAC control, no IP datagram. */
	uet_be16_store(p + 12, UET_ETHERTYPE_MAC_CONTROL);
	ck_assert_int_eq(uet_sync_trailer_append(m, 99 * NS), 0);
	ck_assert_uint_eq(m->pkt_len, 72);
	ck_assert_int_eq(uet_sync_trailer_strip(m, &t), 0);
	ck_assert_uint_eq(t, 99 * NS);
	ck_assert_uint_eq(m->pkt_len, 60);
	ck_assert_int_eq(uet_sync_trailer_strip(m, &t), -ENOENT);
	rte_pktmbuf_free(m);
}
END_TEST

static Suite *sync_frame_suite(void)
{
	Suite *s = suite_create("sync_frame");
	TCase *tc = tcase_create("frame");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_trailer_replaces_padding_after_ip_datagram);
	tcase_add_test(tc, test_trailer_on_full_chain_goes_in_a_new_segment);
	tcase_add_test(tc, test_trailer_on_non_ip_frame_goes_at_the_end);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(sync_frame_suite)
