/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared by the drivers' integration tests: EAL start-up, test frames. */
#ifndef DRV_TEST_H
#define DRV_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <check.h>
#include <rte_byteorder.h>
#include <rte_mbuf.h>

#include "eal_test.h"
#include "uet_port.h"

/* EtherType of test frames: IEEE local experimental 2, so that neither the
 * lockstep control frames (0x88B5) nor the kernel's own frames match. */
#define DRV_TEST_ETHERTYPE 0x88B6u
/* After the Ethernet header: magic, direction byte, sequence number. */
#define DRV_TEST_MAGIC "UDRV"
#define DRV_TEST_HDR_BYTES (14u + 4u + 1u + 4u)
/* The largest UET frame of the project (4,096-byte payload and headers). */
#define DRV_TEST_BIG_BYTES 4202u
/* The smallest Ethernet frame without FCS. */
#define DRV_TEST_SMALL_BYTES 60u

/* Byte i of the test frame (dir, seq) of len bytes. */
static inline uint8_t drv_test_byte(uint8_t dir, uint32_t seq, uint32_t len,
				    uint32_t i)
{
	static const uint8_t dst[6] = {0x02, 0, 0, 0, 0, 0x0b};
	static const uint8_t src[6] = {0x02, 0, 0, 0, 0, 0x0a};

	if (i < 6)
		return dir ? src[i] : dst[i];
	if (i < 12)
		return dir ? dst[i - 6] : src[i - 6];
	if (i == 12)
		return DRV_TEST_ETHERTYPE >> 8;
	if (i == 13)
		return DRV_TEST_ETHERTYPE & 0xff;
	if (i < 18)
		return (uint8_t)DRV_TEST_MAGIC[i - 14];
	if (i == 18)
		return dir;
	if (i < 23)
		return (uint8_t)(seq >> (8 * (22 - i)));
	/* Varies with the sequence number, the position and the length, so
	 * a frame cut short, reordered or mixed with another fails. */
	return (uint8_t)(seq * 7u + i * 13u + len + dir);
}

/* Fill buf with the test frame (dir, seq) of len bytes. */
static inline void drv_test_fill(uint8_t *buf, uint8_t dir, uint32_t seq,
				 uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		buf[i] = drv_test_byte(dir, seq, len, i);
}

/* A one-segment mbuf holding the test frame (dir, seq) of len bytes. */
static inline struct rte_mbuf *
drv_test_mbuf(struct rte_mempool *mp, uint8_t dir, uint32_t seq, uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	uint8_t *p;

	ck_assert_ptr_nonnull(m);
	p = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
	ck_assert_ptr_nonnull(p);
	drv_test_fill(p, dir, seq, len);
	return m;
}

/* Whether m is one of our test frames (EtherType and magic). */
static inline int drv_test_is_ours(const struct rte_mbuf *m)
{
	uint8_t hdr[DRV_TEST_HDR_BYTES];
	const uint8_t *p;

	if (m->pkt_len < DRV_TEST_HDR_BYTES)
		return 0;
	p = rte_pktmbuf_read(m, 0, sizeof(hdr), hdr);
	return p[12] == (DRV_TEST_ETHERTYPE >> 8) &&
	       p[13] == (DRV_TEST_ETHERTYPE & 0xff) &&
	       memcmp(p + 14, DRV_TEST_MAGIC, 4) == 0;
}

/* Assert that m is exactly the test frame (dir, seq) of len bytes. */
static inline void drv_test_check(const struct rte_mbuf *m, uint8_t dir,
				  uint32_t seq, uint32_t len)
{
	const struct rte_mbuf *seg;
	uint32_t off = 0, i;

	ck_assert_uint_eq(m->pkt_len, len);
	for (seg = m; seg != NULL; seg = seg->next) {
		const uint8_t *p = rte_pktmbuf_mtod(seg, const uint8_t *);

		for (i = 0; i < seg->data_len; i++, off++)
			if (p[i] != drv_test_byte(dir, seq, len, off))
				ck_abort_msg("frame dir %u seq %u: byte %u is "
					     "0x%02x, expected 0x%02x",
					     dir, seq, off, p[i],
					     drv_test_byte(dir, seq, len, off));
	}
	ck_assert_uint_eq(off, len);
}

/* Monotonic milliseconds, to bound waits. */
static inline uint64_t drv_test_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Send count test frames of len bytes from tx to rx, chunk frames at a time
 * (each chunk is received before the next is sent, so a small kernel ring
 * is never overrun), and check every frame received is the next one expected,
 * byte for byte. Frames that are not ours (the kernel's) are skipped and
 * their number returned. */
static inline uint32_t drv_test_exchange(struct rte_mempool *mp,
					 struct uet_port *tx,
					 struct uet_port *rx, uint8_t dir,
					 uint32_t count, uint32_t len,
					 uint32_t chunk)
{
	struct rte_mbuf *pkts[512];
	uint32_t sent = 0, got = 0, foreign = 0;

	ck_assert_uint_le(chunk, 512);
	while (sent < count) {
		uint32_t n = count - sent < chunk ? count - sent : chunk;
		uint64_t deadline_ms = drv_test_ms() + 5000;
		uint32_t i;
		int ret;

		for (i = 0; i < n; i++)
			pkts[i] = drv_test_mbuf(mp, dir, sent + i, len);
		ret = uet_port_tx_all(tx, pkts, (uint16_t)n, 2000);
		ck_assert_int_eq(ret, (int)n);
		sent += n;
		while (got < sent) {
			uint16_t nb = uet_port_rx_burst(rx, pkts, 512);

			for (i = 0; i < nb; i++) {
				if (!drv_test_is_ours(pkts[i])) {
					foreign++;
				} else {
					drv_test_check(pkts[i], dir, got, len);
					got++;
				}
				rte_pktmbuf_free(pkts[i]);
			}
			if (nb == 0)
				ck_assert_msg(drv_test_ms() < deadline_ms,
					      "%s -> %s: %u of %u frames "
					      "received after 5 s",
					      uet_port_name(tx),
					      uet_port_name(rx), got, sent);
		}
	}
	ck_assert_uint_eq(got, count);
	return foreign;
}

#endif /* DRV_TEST_H */
