/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sync: Foreign and broken frames on a lockstep port (docs/lockstep.md,
 * "Foreign and broken frames"). Frames without a trailer, cut short, of
 * another EtherType, control frames of another run, and a flood of them
 * are put on the links while a run is under way, towards the switch and
 * towards a NIC: each is counted by kind on the port it came in on and
 * dropped, the run finishes, and every component's log is the one of the
 * same run without them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <rte_mbuf.h>

#include "check_main.h"
#include "eal_test.h"
#include "sync_harness.h"
#include "uet_wire_be.h"
#include "uet_wire_lockstep.h"

/* Frames without a trailer sent to the switch at once, on top. */
#define FLOOD 300u
/* Pings NIC 0 sends (the reflector sends each on to NIC 1). */
#define PINGS 4u

static struct rte_mbuf *raw_frame(struct rte_mempool *mp, const uint8_t *b,
				  uint16_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	char *p;

	ck_assert_ptr_nonnull(m);
	p = rte_pktmbuf_append(m, len);
	ck_assert_ptr_nonnull(p);
	memcpy(p, b, len);
	return m;
}

/* A 60-byte frame of EtherType type, zero payload. */
static struct rte_mbuf *typed_frame(struct rte_mempool *mp, uint16_t type,
				    bool trailer)
{
	uint8_t b[UET_ETH_MIN_FRAME_BYTES] = {0x02, 0, 0, 0, 0xff, 0xff,
					      0x02, 0, 0, 0, 0x99, 0x99};

	uet_be16_store(b + 12, type);
	/* Ends like a lockstep frame: the EtherType alone must say no. */
	if (trailer)
		ck_assert_int_eq(uet_ls_trailer_build(
					 b + sizeof(b) - UET_LS_TRAILER_BYTES,
					 UET_LS_TRAILER_BYTES, 5 * US),
				 UET_LS_TRAILER_BYTES);
	return raw_frame(mp, b, sizeof(b));
}

static struct rte_mbuf *ctrl_frame(struct rte_mempool *mp,
				   const struct uet_ls_ctrl *c)
{
	static const uint8_t mac[UET_ETH_ADDR_LEN] = {0x02, 0, 0, 0, 0x77, 1};
	uint8_t b[256];
	int len;

	len = uet_ls_ctrl_build(b, sizeof(b), mac, mac, c);
	ck_assert_int_gt(len, 0);
	return raw_frame(mp, b, (uint16_t)len);
}

/* A control frame of another run (run id and nonce not this run's). */
static struct rte_mbuf *stale_ctrl(struct rte_mempool *mp, uint8_t type,
				   uint16_t nic_id, uint32_t seq)
{
	static const uint8_t nic0_mac[UET_ETH_ADDR_LEN] = {0x02, 0, 0, 0, 0, 1};
	struct uet_ls_ctrl c;

	memset(&c, 0, sizeof(c));
	c.type = type;
	c.nic_id = nic_id;
	c.seq = seq;
	c.run_id = UINT64_C(0x5151515151515151);
	c.nonce = UINT64_C(0x0badc0de0badc0de);
	if (type == UET_LS_HELLO) {
		/* A NIC of another run as this run's NIC 0: it says HELLO
		 * once this run is under way. */
		c.run_id = 0;
		c.nonce = 0;
		c.u.hello.scenario_hash = HASH;
		c.u.hello.ipv4 = 0xc6120001u;
		memcpy(c.u.hello.mac, nic0_mac, UET_ETH_ADDR_LEN);
	} else if (type == UET_LS_GRANT) {
		c.u.grant.window_start_ps = 0;
		c.u.grant.window_end_ps = 1 * US;
	} else if (type == UET_LS_DONE) {
		c.u.done.window_end_ps = 1 * US;
		c.u.done.next_event_ps = UINT64_MAX;
	} else if (type == UET_LS_WELCOME) {
		c.u.welcome.scenario_hash = HASH;
		c.u.welcome.lookahead_ps = 1 * US;
	} else if (type == UET_LS_ABORT) {
		c.u.abort.code = UET_LS_ABORT_INTERNAL;
		c.u.abort.text_len = 5;
		memcpy(c.u.abort.text, "stale", 5);
	}
	return ctrl_frame(mp, &c);
}

/* Kinds of the frames one batch puts on a port. */
struct batch {
	struct rte_mbuf *m[16];
	uint32_t n;
	uint64_t want[UET_SYNC_DROP_KINDS];
};

static void batch_add(struct batch *b, struct rte_mbuf *m,
		      enum uet_sync_drop kind)
{
	ck_assert_uint_lt(b->n, 16);
	b->m[b->n++] = m;
	b->want[kind]++;
}

/* What both directions get: no trailer, cut short, other EtherTypes. */
static void batch_common(struct batch *b, struct rte_mempool *mp)
{
	uint8_t shortf[10] = {0x02, 0, 0, 0, 0xff, 0xff, 0x02};
	struct rte_mbuf *m;
	uint8_t *p;

	memset(b, 0, sizeof(*b));
	/* IPv4 and UDP to the UET port, as a foreign stack sends it. */
	batch_add(b, ping_frame(mp, 7, 99), UET_SYNC_DROP_NO_TRAILER);
	batch_add(b, raw_frame(mp, shortf, sizeof(shortf)),
		  UET_SYNC_DROP_TRUNCATED);
	/* IPv4 whose total length runs past the frame. */
	m = ping_frame(mp, 7, 98);
	p = rte_pktmbuf_mtod(m, uint8_t *);
	uet_be16_store(p + UET_ETH_HDR_BYTES + 2, 400);
	batch_add(b, m, UET_SYNC_DROP_TRUNCATED);
	/* A lockstep control EtherType and too little after it. */
	m = typed_frame(mp, UET_ETHERTYPE_LOCKSTEP, false);
	rte_pktmbuf_trim(m, UET_ETH_MIN_FRAME_BYTES - 20);
	batch_add(b, m, UET_SYNC_DROP_TRUNCATED);
	batch_add(b, typed_frame(mp, 0x0806, false), UET_SYNC_DROP_ETHERTYPE);
	batch_add(b, typed_frame(mp, 0x1234, true), UET_SYNC_DROP_ETHERTYPE);
}

static void batch_send(struct uet_port *port, struct batch *b)
{
	ck_assert_uint_eq(uet_port_tx_burst(port, b->m, (uint16_t)b->n), b->n);
}

static void check_drops(const struct uet_sync_port_drops *got,
			const uint64_t *want, const char *where)
{
	uint32_t k;

	for (k = 0; k < UET_SYNC_DROP_KINDS; k++)
		ck_assert_msg(got->n[k] == want[k], "%s: %s %lu, want %lu",
			      where, uet_sync_drop_name((enum uet_sync_drop)k),
			      (unsigned long)got->n[k], (unsigned long)want[k]);
}

static void setup(struct env *e, struct rte_mempool *mp, const char *tag)
{
	uint32_t i;

	env_open(e, mp, tag, 2, 1 * US, 1 * US, 1);
	for (i = 0; i < PINGS; i++)
		fake_ping_at(&e->nic[0], (10 + 10 * i) * US);
	env_roles(e, 1 * US, UET_TIME_NEVER, 2000, 2000, 0);
}

static void check_same_log(const struct fake *a, const struct fake *b)
{
	uint32_t i;

	ck_assert_uint_eq(a->n_log, b->n_log);
	for (i = 0; i < a->n_log; i++)
		check_log(b, i, a->log[i].t_ps, a->log[i].what, a->log[i].port,
			  a->log[i].nic, a->log[i].seq);
}

START_TEST(test_foreign_and_broken_frames_are_counted_and_dropped)
{
	uint64_t want_sw[UET_SYNC_DROP_KINDS] = {0};
	uint64_t want_nic[UET_SYNC_DROP_KINDS] = {0};
	const uint64_t none[UET_SYNC_DROP_KINDS] = {0};
	struct uet_sync_stats rs, cs, ps;
	struct uet_sync_port_drops d;
	struct rte_mempool *mp;
	struct env ref, e;
	uint32_t i, k, batches = 0;
	uint64_t t0;
	bool done;

	uet_test_eal("uetsync", "foreign");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	setup(&ref, mp, "fr");
	ck_assert_int_eq(uet_sync_run_embedded(ref.co, ref.pa, 2), 0);
	uet_sync_coordinator_stats(ref.co, &rs);
	ck_assert_uint_eq(rs.foreign_frames, 0);
	ck_assert_uint_ge(rs.windows, 8);

	setup(&e, mp, "fi");
	t0 = wall_ms();
	do {
		int rc = uet_sync_coordinator_poll(e.co);

		ck_assert_msg(rc >= 0, "%s", uet_sync_coordinator_error(e.co));
		done = rc == UET_SYNC_FINISHED;
		for (i = 0; i < 2; i++) {
			rc = uet_sync_participant_poll(e.pa[i]);
			ck_assert_msg(rc >= 0, "%s",
				      uet_sync_participant_error(e.pa[i]));
			done = done && rc == UET_SYNC_FINISHED;
		}
		uet_sync_coordinator_stats(e.co, &cs);
		/* Two batches each way once the run is under way (windows
		 * 2 and 4, well before its end), the flood with the first. */
		if (cs.windows == 2u * (batches + 1) && batches < 2) {
			struct batch b;

			batch_common(&b, mp);
			batch_add(&b, stale_ctrl(mp, UET_LS_DONE, 0, 5),
				  UET_SYNC_DROP_STALE);
			batch_add(&b, stale_ctrl(mp, UET_LS_HELLO, 0, 0),
				  UET_SYNC_DROP_STALE);
			batch_add(&b, stale_ctrl(mp, UET_LS_ABORT, 0, 6),
				  UET_SYNC_DROP_STALE);
			for (k = 0; k < UET_SYNC_DROP_KINDS; k++)
				want_sw[k] += b.want[k];
			batch_send(e.nic_port[0], &b);

			batch_common(&b, mp);
			batch_add(&b, stale_ctrl(mp, UET_LS_GRANT, 1, 3),
				  UET_SYNC_DROP_STALE);
			batch_add(&b, stale_ctrl(mp, UET_LS_WELCOME, 1, 0),
				  UET_SYNC_DROP_STALE);
			batch_add(&b, stale_ctrl(mp, UET_LS_ABORT, 1, 4),
				  UET_SYNC_DROP_STALE);
			for (k = 0; k < UET_SYNC_DROP_KINDS; k++)
				want_nic[k] += b.want[k];
			batch_send(e.sw_port[1], &b);

			if (batches == 0)
				for (k = 0; k < FLOOD; k++) {
					struct rte_mbuf *m =
						ping_frame(mp, 8, k);

					ck_assert_uint_eq(
						uet_port_tx_burst(e.nic_port[0],
								  &m, 1),
						1);
				}
			batches++;
		}
		ck_assert_uint_lt(wall_ms() - t0, 20000);
	} while (!done);
	ck_assert_uint_eq(batches, 2);
	want_sw[UET_SYNC_DROP_NO_TRAILER] += FLOOD;

	/* The run is the run without them. */
	check_same_log(&ref.sw, &e.sw);
	check_same_log(&ref.nic[0], &e.nic[0]);
	check_same_log(&ref.nic[1], &e.nic[1]);
	ck_assert_uint_eq(ref.nic[1].n_log, PINGS);
	uet_sync_coordinator_stats(e.co, &cs);
	ck_assert_uint_eq(cs.windows, rs.windows);
	ck_assert_uint_eq(cs.data_frames_rx, rs.data_frames_rx);
	ck_assert_uint_eq(cs.data_frames_tx, rs.data_frames_tx);

	/* Each counted by kind on the port it came in on. */
	uet_sync_coordinator_port_drops(e.co, 0, &d);
	check_drops(&d, want_sw, "switch port 0");
	uet_sync_coordinator_port_drops(e.co, 1, &d);
	check_drops(&d, none, "switch port 1");
	uet_sync_participant_port_drops(e.pa[0], &d);
	check_drops(&d, none, "nic 0");
	uet_sync_participant_port_drops(e.pa[1], &d);
	check_drops(&d, want_nic, "nic 1");
	ck_assert_uint_eq(cs.foreign_frames, 2 * 9 + FLOOD);
	uet_sync_participant_stats(e.pa[1], &ps);
	ck_assert_uint_eq(ps.foreign_frames, 2 * 9);
	ck_assert_uint_eq(want_sw[UET_SYNC_DROP_STALE], 6);
	ck_assert_uint_eq(want_nic[UET_SYNC_DROP_ETHERTYPE], 4);
	ck_assert_str_eq(uet_sync_coordinator_error(e.co), "");

	env_close(&ref);
	env_close(&e);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
}
END_TEST

/* An ABORT of this run still stops it, and one from a NIC not yet
 * welcomed (no run id) too: only other runs' frames are dropped. */
START_TEST(test_abort_of_this_run_still_stops_it)
{
	struct rte_mempool *mp;
	struct uet_ls_ctrl c;
	struct rte_mbuf *m;
	struct env e;
	int rc;

	uet_test_eal("uetsync", "fabort");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	setup(&e, mp, "fa");
	/* NIC 0's HELLO, then a not-yet-welcomed NIC's ABORT on port 1. */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), UET_SYNC_RUNNING);
	memset(&c, 0, sizeof(c));
	c.type = UET_LS_ABORT;
	c.nic_id = 1;
	c.u.abort.code = UET_LS_ABORT_PEER_TIMEOUT;
	m = ctrl_frame(mp, &c);
	ck_assert_uint_eq(uet_port_tx_burst(e.nic_port[1], &m, 1), 1);
	rc = uet_sync_coordinator_poll(e.co);
	ck_assert_int_eq(rc, -ECONNABORTED);
	ck_assert_ptr_nonnull(strstr(uet_sync_coordinator_error(e.co),
				     "aborted the run (PEER_TIMEOUT)"));
	env_close(&e);
}
END_TEST

/* A NIC that falls silent behind a port full of foreign frames is still
 * named when the coordinator's wait for it runs out: only the run's own
 * frames count as hearing from it. */
START_TEST(test_foreign_frames_do_not_keep_a_silent_nic_alive)
{
	struct rte_mempool *mp;
	struct uet_sync_port_drops d;
	uint64_t t0;
	struct env e;
	char want[96];
	int rc;

	uet_test_eal("uetsync", "fsilent");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "fs", 2, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 300, 0, 0);
	/* NIC 1 says HELLO, then nothing: only foreign frames come from
	 * its side of the link. */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[1]), UET_SYNC_RUNNING);
	t0 = wall_ms();
	do {
		struct rte_mbuf *m = ping_frame(mp, 9, 0);

		ck_assert_uint_eq(uet_port_tx_burst(e.nic_port[1], &m, 1), 1);
		rc = uet_sync_coordinator_poll(e.co);
		if (rc >= 0)
			ck_assert_int_ge(uet_sync_participant_poll(e.pa[0]), 0);
		/* A hang guard, not a duration. */
		ck_assert_uint_lt(wall_ms() - t0, 20000);
	} while (rc == UET_SYNC_RUNNING);
	ck_assert_int_eq(rc, -ETIMEDOUT);
	snprintf(want, sizeof(want), "nic 1 (198.18.0.2) on port %s sent no",
		 uet_port_name(e.sw_port[1]));
	ck_assert_ptr_nonnull(strstr(uet_sync_coordinator_error(e.co), want));
	uet_sync_coordinator_port_drops(e.co, 1, &d);
	ck_assert_uint_gt(d.n[UET_SYNC_DROP_NO_TRAILER], 0);
	env_close(&e);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("sync_foreign");
	TCase *tc = tcase_create("foreign");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc,
		       test_foreign_and_broken_frames_are_counted_and_dropped);
	tcase_add_test(tc, test_abort_of_this_run_still_stops_it);
	tcase_add_test(tc, test_foreign_frames_do_not_keep_a_silent_nic_alive);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(suite)
