/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sync: The realtime clock (sync_realtime.c): wall time divided by the
 * dilation, frames held until their arrival and stamped after it, the
 * start, foreign frames dropped and counted per port by kind, a poll that
 * drains its ports and sends all that is due.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
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

/* Wall ns now (CLOCK_MONOTONIC, the realtime role's clock). */
static uint64_t test_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * UINT64_C(1000000000) +
	       (uint64_t)ts.tv_nsec;
}

START_TEST(test_realtime_clock_divides_wall_time_by_dilation)
{
	struct uet_sync_rt_clock c = {.epoch_ns = 5000000, .dilation = 1000};
	struct uet_sync_rt_clock one = {.epoch_ns = 7, .dilation = 1};

	/* 1 ms of wall time is 1 us of virtual time at 1000. */
	ck_assert_uint_eq(uet_sync_rt_virtual_ps(&c, 6000000), 1 * US);
	ck_assert_uint_eq(uet_sync_rt_virtual_ps(&c, 4000000), 0);
	ck_assert_uint_eq(uet_sync_rt_wall_ns(&c, 1 * US), 6000000);
	/* 1 ps is 1 ns of wall time at 1000, rounded up at 1. */
	ck_assert_uint_eq(uet_sync_rt_wall_ns(&c, 1), 5000001);
	ck_assert_uint_eq(uet_sync_rt_wall_ns(&one, 1), 8);
	ck_assert_uint_eq(uet_sync_rt_virtual_ps(&one, 8), 1000);
	ck_assert_uint_eq(uet_sync_rt_wall_ns(&c, UET_TIME_NEVER), UINT64_MAX);
}
END_TEST

/* The realtime roles of env e (switch and NICs), created with clock c. */
static void env_rt_roles(struct env *e, const struct uet_sync_rt_clock *c,
			 uet_time_t end_ps, struct uet_sync_realtime **sw,
			 struct uet_sync_realtime **nic)
{
	struct uet_sync_realtime_conf sc = {
		.ports = e->sw_port,
		.n_ports = e->n,
		.component = &e->sw.c,
		.clock = *c,
		.end_ps = end_ps,
		.timeout_ms = 2000,
	};
	uint32_t i;

	ck_assert_int_eq(uet_sync_realtime_create(sw, &sc), 0);
	for (i = 0; i < e->n; i++) {
		struct uet_sync_realtime_conf nc = sc;

		nc.ports = &e->nic_port[i];
		nc.n_ports = 1;
		nc.component = &e->nic[i].c;
		ck_assert_int_eq(uet_sync_realtime_create(&nic[i], &nc), 0);
	}
}

/*
 * A ping at 10 us from a NIC 1 us from the switch, reflected 1 us after it
 * arrives: the frame waits for its arrival time before it leaves, so the
 * switch stamps it no earlier than 11 us and the NIC gets the reflection
 * no earlier than 1 us after the switch ran it. Every event is counted in
 * the lateness histogram.
 * Only relations between times are asserted. Whether the reflection gets
 * back before the run's end (1 ms of virtual time, 100 ms of wall time)
 * depends on the host: a process descheduled that long on a loaded
 * machine runs the switch's event after the end. Such an attempt is
 * reported and run again, three times at most.
 */
#define RT_PING_ATTEMPTS 3

/* One run of the ping; false when the reflection came after the end. */
static bool rt_ping_once(struct rte_mempool *mp, unsigned int attempt)
{
	struct uet_sync_realtime *sw, *nic[1];
	struct uet_sync_rt_clock c;
	struct uet_sync_rt_stats st;
	struct env e;
	uint64_t bound, wake;
	int a = UET_SYNC_RUNNING, b = UET_SYNC_RUNNING;
	const struct log_ent *sw_rx, *nic_rx;
	bool back;

	env_open(&e, mp, "rp", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	/* 100 wall ns per virtual ns: the run's 1 ms takes 100 ms. */
	c.epoch_ns = test_now_ns();
	c.dilation = 100;
	env_rt_roles(&e, &c, 1000 * US, &sw, nic);
	bound = test_now_ns() + UINT64_C(20000000000);
	while ((a == UET_SYNC_RUNNING || b == UET_SYNC_RUNNING) &&
	       test_now_ns() < bound) {
		a = uet_sync_realtime_poll(sw, &wake);
		b = uet_sync_realtime_poll(nic[0], &wake);
	}
	ck_assert_int_eq(a, UET_SYNC_FINISHED);
	ck_assert_int_eq(b, UET_SYNC_FINISHED);

	ck_assert_uint_ge(e.nic[0].n_log, 1);
	ck_assert_uint_eq(e.nic[0].log[0].what, LOG_SEND);
	ck_assert_uint_eq(e.nic[0].log[0].t_ps, 10 * US);
	ck_assert_uint_eq(e.sw.n_log, 1);
	sw_rx = &e.sw.log[0];
	ck_assert_uint_eq(sw_rx->what, LOG_RECV);
	ck_assert_uint_ge(sw_rx->t_ps, 11 * US);
	/* No trailer in realtime: the frame as sent, padding included. */
	ck_assert_uint_eq(sw_rx->len_bytes, UET_ETH_MIN_FRAME_BYTES);
	uet_sync_realtime_stats(sw, &st);
	ck_assert_uint_eq(st.frames_rx, 1);
	ck_assert_uint_eq(st.events, 1);
	ck_assert_uint_eq(st.lateness.count, 1);
	back = e.nic[0].n_log == 2;
	if (!back) {
		fprintf(stderr,
			"attempt %u: the switch ran the ping at %" PRIu64
			" ps (%" PRIu64
			" ps late), so its reflection arrived after the "
			"run's end; the host was busy\n",
			attempt, sw_rx->t_ps, st.lateness.max_ps);
	} else {
		ck_assert_uint_eq(st.frames_tx, 1);
		nic_rx = &e.nic[0].log[1];
		ck_assert_uint_eq(nic_rx->what, LOG_RECV);
		ck_assert_uint_ge(nic_rx->t_ps, sw_rx->t_ps + 1 * US);
		uet_sync_realtime_stats(nic[0], &st);
		ck_assert_uint_eq(st.frames_tx, 1);
		ck_assert_uint_eq(st.frames_rx, 1);
		ck_assert_uint_eq(st.events, 2);
		ck_assert_uint_eq(st.lateness.count, 2);
		ck_assert_uint_eq(st.now_ps, 1000 * US);
	}
	ck_assert(uet_sync_realtime_idle(sw));
	ck_assert(uet_sync_realtime_idle(nic[0]));
	uet_sync_realtime_free(sw);
	uet_sync_realtime_free(nic[0]);
	env_close(&e); /* no lockstep roles: it frees the fakes and ports */
	return back;
}

START_TEST(test_realtime_frames_wait_for_arrival_and_are_stamped_after)
{
	struct rte_mempool *mp;
	unsigned int k;

	uet_test_eal("uetsync", "rtping");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	for (k = 1; k <= RT_PING_ATTEMPTS; k++)
		if (rt_ping_once(mp, k))
			return;
	ck_abort_msg("the reflection came after the end in %d attempts",
		     RT_PING_ATTEMPTS);
}
END_TEST

/* Before the start nothing runs and what comes is dropped; after it, a
 * frame that is neither IPv4 nor MAC control is dropped as foreign; a
 * dilation of 0 is refused. */
START_TEST(test_realtime_waits_for_its_start_and_drops_foreign_frames)
{
	struct rte_mempool *mp;
	struct uet_sync_realtime *sw, *nic[1], *bad;
	struct uet_sync_realtime_conf bc;
	struct uet_sync_rt_clock c;
	struct uet_sync_rt_stats st;
	struct rte_mbuf *m;
	struct env e;
	uint64_t wake;
	uint8_t *p;

	uet_test_eal("uetsync", "rtstart");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "rs", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 0);
	c.epoch_ns = test_now_ns() + UINT64_C(3600000000000);
	c.dilation = 1000;
	env_rt_roles(&e, &c, 50 * US, &sw, nic);
	ck_assert_int_eq(uet_sync_realtime_poll(nic[0], &wake),
			 UET_SYNC_RUNNING);
	ck_assert_uint_eq(wake, c.epoch_ns);
	ck_assert_uint_eq(e.nic[0].n_log, 0);
	uet_sync_realtime_free(sw);
	uet_sync_realtime_free(nic[0]);

	/* Started: an ARP-typed frame from the switch side never reaches
	 * the NIC's model. */
	c.epoch_ns = test_now_ns();
	env_rt_roles(&e, &c, UET_TIME_NEVER, &sw, nic);
	m = ping_frame(mp, 0, 0);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	uet_be16_store(p + 12, 0x0806);
	ck_assert_int_eq(uet_port_tx_burst(e.sw_port[0], &m, 1), 1);
	ck_assert_int_eq(uet_sync_realtime_poll(nic[0], &wake),
			 UET_SYNC_RUNNING);
	uet_sync_realtime_stats(nic[0], &st);
	ck_assert_uint_eq(st.foreign_frames, 1);
	ck_assert_uint_eq(st.frames_rx, 0);
	/* A PFC pause (MAC control, no IP datagram) is the model's. */
	m = ping_frame(mp, 0, 0);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	uet_be16_store(p + 12, UET_ETHERTYPE_MAC_CONTROL);
	ck_assert_int_eq(uet_port_tx_burst(e.sw_port[0], &m, 1), 1);
	ck_assert_int_eq(uet_sync_realtime_poll(nic[0], &wake),
			 UET_SYNC_RUNNING);
	uet_sync_realtime_stats(nic[0], &st);
	ck_assert_uint_eq(st.foreign_frames, 1);
	ck_assert_uint_eq(st.frames_rx, 1);

	bc = (struct uet_sync_realtime_conf){
		.ports = e.sw_port,
		.n_ports = 1,
		.component = &e.sw.c,
		.clock = {.epoch_ns = 1, .dilation = 0},
		.end_ps = 1,
	};
	ck_assert_int_eq(uet_sync_realtime_create(&bad, &bc), -EINVAL);
	uet_sync_realtime_free(sw);
	uet_sync_realtime_free(nic[0]);
	env_close(&e); /* no lockstep roles: it frees the fakes and ports */
}
END_TEST

/* A copy of the 60-byte ping frame cut to len bytes. */
static struct rte_mbuf *cut_frame(struct rte_mempool *mp, uint32_t len)
{
	struct rte_mbuf *m = ping_frame(mp, 0, 0);

	ck_assert_int_eq(rte_pktmbuf_trim(m, (uint16_t)(m->pkt_len - len)), 0);
	return m;
}

/* A ping frame whose EtherType (or, with off >= 14, IPv4 header byte
 * off) is replaced by v. */
static struct rte_mbuf *bent_frame(struct rte_mempool *mp, uint32_t off,
				   uint16_t v)
{
	struct rte_mbuf *m = ping_frame(mp, 0, 0);
	uint8_t *p = rte_pktmbuf_mtod(m, uint8_t *);

	uet_be16_store(p + off, v);
	return m;
}

/* Send frames on port, then one poll of role r. */
static void rt_inject(struct uet_sync_realtime *r, struct uet_port *port,
		      struct rte_mbuf **pkts, uint16_t n)
{
	uint64_t wake;

	ck_assert_int_eq(uet_port_tx_burst(port, pkts, n), n);
	ck_assert_int_eq(uet_sync_realtime_poll(r, &wake), UET_SYNC_RUNNING);
}

/* Assert the four kinds of port i of r (no_trailer, truncated,
 * ethertype, stale). */
static void check_drops(const struct uet_sync_realtime *r, uint32_t i,
			uint64_t no_trailer, uint64_t truncated,
			uint64_t ethertype, uint64_t stale)
{
	struct uet_sync_port_drops d;

	uet_sync_realtime_port_drops(r, i, &d);
	ck_assert_uint_eq(d.n[UET_SYNC_DROP_NO_TRAILER], no_trailer);
	ck_assert_uint_eq(d.n[UET_SYNC_DROP_TRUNCATED], truncated);
	ck_assert_uint_eq(d.n[UET_SYNC_DROP_ETHERTYPE], ethertype);
	ck_assert_uint_eq(d.n[UET_SYNC_DROP_STALE], stale);
}

/*
 * Each frame a realtime port drops is counted on that port by its kind
 * (uet-ports.csv): cut under an Ethernet header, an IPv4 total length past
 * the frame and a bad header checksum are truncated; ARP and IPv6 are
 * ethertype; a lockstep control frame, and anything before the epoch, is
 * stale. A sound IPv4 frame and a PFC pause reach the model; the other
 * port of the switch counts nothing.
 */
START_TEST(test_realtime_counts_port_drops_by_kind)
{
	struct rte_mempool *mp;
	struct uet_sync_realtime *sw, *nic[2];
	struct uet_sync_rt_clock c;
	struct uet_sync_rt_stats st;
	struct rte_mbuf *pkts[8];
	struct env e;

	uet_test_eal("uetsync", "rtdrops");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "rd", 2, 1 * US, 1 * US, 0);

	/* Before the epoch even a sound frame is not of the run. */
	c.epoch_ns = test_now_ns() + UINT64_C(3600000000000);
	c.dilation = 1000;
	env_rt_roles(&e, &c, UET_TIME_NEVER, &sw, nic);
	pkts[0] = ping_frame(mp, 0, 0);
	rt_inject(nic[1], e.sw_port[1], pkts, 1);
	check_drops(nic[1], 0, 0, 0, 0, 1);
	check_drops(nic[0], 0, 0, 0, 0, 0);
	uet_sync_realtime_free(sw);
	uet_sync_realtime_free(nic[0]);
	uet_sync_realtime_free(nic[1]);

	c.epoch_ns = test_now_ns();
	env_rt_roles(&e, &c, UET_TIME_NEVER, &sw, nic);
	pkts[0] = cut_frame(mp, 10);
	pkts[1] = bent_frame(mp, 14 + 2, 900);	   /* total length */
	pkts[2] = bent_frame(mp, 14 + 10, 0x1234); /* header checksum */
	pkts[3] = bent_frame(mp, 12, 0x0806);
	pkts[4] = bent_frame(mp, 12, 0x86DD);
	pkts[5] = bent_frame(mp, 12, UET_ETHERTYPE_LOCKSTEP);
	pkts[6] = ping_frame(mp, 1, 1);
	pkts[7] = bent_frame(mp, 12, UET_ETHERTYPE_MAC_CONTROL);
	rt_inject(sw, e.nic_port[1], pkts, 8);
	check_drops(sw, 1, 0, 3, 2, 1);
	check_drops(sw, 0, 0, 0, 0, 0);
	/* Out of range: zeros. */
	check_drops(sw, 2, 0, 0, 0, 0);
	uet_sync_realtime_stats(sw, &st);
	ck_assert_uint_eq(st.foreign_frames, 6);
	ck_assert_uint_eq(st.frames_rx, 2);
	ck_assert_uint_eq(e.sw.n_log, 2);
	uet_sync_realtime_free(sw);
	uet_sync_realtime_free(nic[0]);
	uet_sync_realtime_free(nic[1]);
	env_close(&e);
}
END_TEST

/* Frames of the drain test: more than one rx burst (64), fewer than the
 * fake's pending slots (256). */
#define RT_DRAIN_FRAMES 200u

/* One poll takes every frame waiting on a port, not one burst of them,
 * and sends every frame that is due by then in the same poll: a switch
 * that reflects at once receives and sends all 200 in one round. */
START_TEST(test_realtime_poll_drains_ports_and_sends_all_that_is_due)
{
	struct rte_mbuf *pkts[RT_DRAIN_FRAMES];
	struct uet_sync_realtime *sw, *nic[1];
	struct uet_sync_rt_clock c;
	struct uet_sync_rt_stats st;
	struct rte_mempool *mp;
	struct env e;
	uint64_t wake, work0;
	uint32_t i, back = 0;
	uint16_t n;

	uet_test_eal("uetsync", "rtdrain");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "rd", 1, 1 * US, 0, 0);
	c.epoch_ns = test_now_ns();
	c.dilation = 1000;
	env_rt_roles(&e, &c, UET_TIME_NEVER, &sw, nic);
	for (i = 0; i < RT_DRAIN_FRAMES; i++)
		pkts[i] = ping_frame(mp, 0, i);
	ck_assert_int_eq(
		uet_port_tx_burst(e.nic_port[0], pkts, RT_DRAIN_FRAMES),
		RT_DRAIN_FRAMES);
	work0 = uet_sync_realtime_work(sw);
	ck_assert_int_eq(uet_sync_realtime_poll(sw, &wake), UET_SYNC_RUNNING);
	uet_sync_realtime_stats(sw, &st);
	ck_assert_uint_eq(st.frames_rx, RT_DRAIN_FRAMES);
	ck_assert_uint_eq(st.events, RT_DRAIN_FRAMES);
	ck_assert_uint_eq(st.frames_tx, RT_DRAIN_FRAMES);
	/* Work: every frame in and out, every event. */
	ck_assert_uint_eq(uet_sync_realtime_work(sw) - work0,
			  3u * RT_DRAIN_FRAMES);
	ck_assert(uet_sync_realtime_idle(sw));
	do {
		n = uet_port_rx_burst(e.nic_port[0], pkts, RT_DRAIN_FRAMES);
		rte_pktmbuf_free_bulk(pkts, n);
		back += n;
	} while (n > 0);
	ck_assert_uint_eq(back, RT_DRAIN_FRAMES);
	/* A poll with nothing to do leaves the work where it was. */
	work0 = uet_sync_realtime_work(sw);
	ck_assert_int_eq(uet_sync_realtime_poll(sw, &wake), UET_SYNC_RUNNING);
	ck_assert_uint_eq(uet_sync_realtime_work(sw), work0);
	uet_sync_realtime_free(sw);
	uet_sync_realtime_free(nic[0]);
	env_close(&e);
}
END_TEST

static Suite *sync_realtime_suite(void)
{
	Suite *s = suite_create("sync_realtime");
	TCase *tc = tcase_create("realtime");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_realtime_clock_divides_wall_time_by_dilation);
	tcase_add_test(
		tc,
		test_realtime_frames_wait_for_arrival_and_are_stamped_after);
	tcase_add_test(
		tc, test_realtime_waits_for_its_start_and_drops_foreign_frames);
	tcase_add_test(
		tc, test_realtime_poll_drains_ports_and_sends_all_that_is_due);
	tcase_add_test(tc, test_realtime_counts_port_drops_by_kind);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(sync_realtime_suite)
