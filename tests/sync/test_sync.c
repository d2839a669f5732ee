/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sync over ring port pairs: the trailer on mbuf chains, windows of
 * E + L that skip idle periods, exact arrival times, BYE, determinism
 * whatever the polling order, and the errors that stop a run (scenario
 * mismatch, a silent peer, lost frames, a broken lookahead).
 *
 * The fake components: a "ping" NIC sends a small Ethernet/IPv4/UDP frame
 * at chosen times, arriving Delay later; a "reflector" switch sends every
 * frame it receives back out (on the same port, or shifted by some ports)
 * after a fixed delay. Each keeps a log of (time, event) that the tests
 * compare.
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
#include "uet_port.h"
#include "uet_sync.h"
#include "uet_wire_be.h"
#include "uet_wire_eth.h"

#define NS UET_PS_PER_NS
#define US UET_PS_PER_US
#define POOL_MBUFS 4095u
#define MAX_NICS 4u
#define MAX_PINGS 16u
#define MAX_PENDING 256u
#define MAX_LOG 512u
#define HASH UINT64_C(0x1234567890abcdef)
/* IP datagram of a test frame: IPv4 20, UDP 8, payload 8 (nic, seq). */
#define TEST_IP_BYTES 36u
#define TEST_FRAME_BYTES (UET_ETH_HDR_BYTES + TEST_IP_BYTES)

enum log_what { LOG_SEND = 1, LOG_RECV = 2 };

/* One line of a component's log. */
struct log_ent {
	uet_time_t t_ps;
	uint32_t what;
	uint32_t port;
	uint32_t nic; /* the frame's originating NIC */
	uint32_t seq;
	uint32_t len_bytes; /* as delivered: trailer stripped */
};

struct fake;

/* A frame delivered and not yet run. */
struct pending {
	struct uet_event ev;
	struct rte_mbuf *m;
	uint16_t port;
	struct fake *owner;
};

/* A ping NIC (is_switch false) or a reflector switch. */
struct fake {
	struct uet_component c; /* first: deliver gets it back */
	struct rte_mempool *mp;
	bool is_switch;
	uint32_t id;	     /* NIC id */
	uet_time_t delay_ps; /* NIC: link delay; switch: reflect delay */
	uint32_t n_ports;    /* switch */
	uint32_t shift;	     /* switch: out port = (in + shift) % n */
	struct uet_event ping_ev[MAX_PINGS];
	uet_time_t ping_at_ps[MAX_PINGS];
	uint32_t n_ping;
	struct pending pend[MAX_PENDING];
	struct log_ent log[MAX_LOG];
	uint32_t n_log;
};

static void log_add(struct fake *f, uint32_t what, uint32_t port, uint32_t nic,
		    uint32_t seq, uint32_t len)
{
	struct log_ent *e;

	ck_assert_uint_lt(f->n_log, MAX_LOG);
	e = &f->log[f->n_log++];
	e->t_ps = uet_evq_now(&f->c.evq);
	e->what = what;
	e->port = port;
	e->nic = nic;
	e->seq = seq;
	e->len_bytes = len;
}

/* A 60-byte frame: Ethernet, IPv4 (36 bytes), zero padding to 60, so that
 * the trailer replaces the padding. */
static struct rte_mbuf *ping_frame(struct rte_mempool *mp, uint32_t nic,
				   uint32_t seq)
{
	struct uet_eth_hdr eth = {
		.dst = {0x02, 0, 0, 0, 0xff, 0xff},
		.src = {0x02, 0, 0, 0, 0, (uint8_t)(nic + 1)},
		.ethertype = UET_ETHERTYPE_IPV4,
	};
	struct uet_ipv4_hdr ip = {
		.total_length_bytes = TEST_IP_BYTES,
		.ttl = 64,
		.protocol = UET_IPPROTO_UDP,
		.src = 0xc6120001u + nic,
		.dst = 0xc6120000u,
	};
	struct uet_udp_hdr udp = {
		.sport = 0xc000,
		.dport = UET_UDP_PORT_UET,
		.length_bytes = 16,
	};
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	uint8_t *p;

	ck_assert_ptr_nonnull(m);
	p = (uint8_t *)rte_pktmbuf_append(m, UET_ETH_MIN_FRAME_BYTES);
	ck_assert_ptr_nonnull(p);
	memset(p, 0, UET_ETH_MIN_FRAME_BYTES);
	ck_assert_int_eq(uet_eth_build(p, 14, &eth), 14);
	ck_assert_int_eq(uet_ipv4_build(p + 14, 20, &ip), 20);
	ck_assert_int_eq(uet_udp_build(p + 34, 8, &udp), 8);
	uet_be32_store(p + 42, nic);
	uet_be32_store(p + 46, seq);
	return m;
}

static void ping_fire(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct fake *f = arg;
	uint32_t seq = (uint32_t)(ev - f->ping_ev);
	int rc;

	log_add(f, LOG_SEND, 0, f->id, seq, TEST_FRAME_BYTES);
	rc = uet_component_out(&f->c, 0, ping_frame(f->mp, f->id, seq),
			       uet_evq_now(q) + f->delay_ps);
	(void)rc;
}

static void frame_ids(const struct rte_mbuf *m, uint32_t *nic, uint32_t *seq)
{
	uint8_t buf[8];
	const uint8_t *p = rte_pktmbuf_read(m, 42, 8, buf);

	ck_assert_ptr_nonnull(p);
	*nic = uet_be32_load(p);
	*seq = uet_be32_load(p + 4);
}

static void frame_run(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct pending *pd = arg;
	struct fake *f = pd->owner;
	struct rte_mbuf *m = pd->m;
	uint32_t nic, seq;

	(void)ev;
	pd->m = NULL;
	frame_ids(m, &nic, &seq);
	log_add(f, LOG_RECV, pd->port, nic, seq, m->pkt_len);
	if (!f->is_switch) {
		rte_pktmbuf_free(m);
		return;
	}
	(void)uet_component_out(&f->c,
				(uint16_t)((pd->port + f->shift) % f->n_ports),
				m, uet_evq_now(q) + f->delay_ps);
}

static int fake_deliver(struct uet_component *c, uint16_t port,
			struct rte_mbuf *m, uet_time_t arrival_ps)
{
	struct fake *f = (struct fake *)c;
	uint32_t i;

	for (i = 0; i < MAX_PENDING; i++) {
		struct pending *pd = &f->pend[i];

		if (pd->m != NULL || uet_event_pending(&pd->ev))
			continue;
		pd->m = m;
		pd->port = port;
		pd->owner = f;
		uet_event_init(&pd->ev, frame_run, pd);
		return uet_evq_schedule(&c->evq, &pd->ev, arrival_ps);
	}
	rte_pktmbuf_free(m);
	return -ENOSPC;
}

static void fake_init(struct fake *f, struct rte_mempool *mp, bool is_switch,
		      uint32_t id, uet_time_t delay_ps)
{
	memset(f, 0, sizeof(*f));
	ck_assert_int_eq(uet_evq_init(&f->c.evq), 0);
	snprintf(f->c.name, sizeof(f->c.name), is_switch ? "switch" : "nic %u",
		 id);
	f->c.deliver = fake_deliver;
	f->mp = mp;
	f->is_switch = is_switch;
	f->id = id;
	f->delay_ps = delay_ps;
}

static void fake_ping_at(struct fake *f, uet_time_t t_ps)
{
	uint32_t i = f->n_ping++;

	ck_assert_uint_lt(i, MAX_PINGS);
	f->ping_at_ps[i] = t_ps;
	uet_event_init(&f->ping_ev[i], ping_fire, f);
	ck_assert_int_eq(uet_evq_schedule(&f->c.evq, &f->ping_ev[i], t_ps), 0);
}

static void fake_fini(struct fake *f)
{
	uint32_t i;

	uet_evq_fini(&f->c.evq);
	for (i = 0; i < MAX_PENDING; i++)
		rte_pktmbuf_free(f->pend[i].m);
}

/* A whole run: a switch, n NICs, the ports between them, the roles. */
struct env {
	struct rte_mempool *mp;
	uint32_t n;
	struct uet_port *sw_port[MAX_NICS];
	struct uet_port *nic_port[MAX_NICS];
	struct fake sw;
	struct fake nic[MAX_NICS];
	struct uet_sync_coordinator *co;
	struct uet_sync_participant *pa[MAX_NICS];
};

typedef int (*pair_create_fn)(struct uet_port **, struct uet_port **,
			      const char *, unsigned,
			      const struct uet_port_conf *);

/* Components and ports (pairs made by create); the roles come from
 * env_roles(). */
static void env_open_with(struct env *e, struct rte_mempool *mp,
			  const char *tag, uint32_t n, uet_time_t nic_delay_ps,
			  uet_time_t reflect_delay_ps, uint32_t shift,
			  pair_create_fn create)
{
	struct uet_port_conf pc = {.pool = mp};
	uint32_t i;

	memset(e, 0, sizeof(*e));
	e->mp = mp;
	e->n = n;
	for (i = 0; i < n; i++) {
		char name[16];

		snprintf(name, sizeof(name), "%s%u", tag, i);
		ck_assert_int_eq(
			create(&e->sw_port[i], &e->nic_port[i], name, 0, &pc),
			0);
		fake_init(&e->nic[i], mp, false, i, nic_delay_ps);
	}
	fake_init(&e->sw, mp, true, 0, reflect_delay_ps);
	e->sw.n_ports = n;
	e->sw.shift = shift;
}

/* Links on bare ring pairs, as uet-emu wires them. */
static void env_open(struct env *e, struct rte_mempool *mp, const char *tag,
		     uint32_t n, uet_time_t nic_delay_ps,
		     uet_time_t reflect_delay_ps, uint32_t shift)
{
	env_open_with(e, mp, tag, n, nic_delay_ps, reflect_delay_ps, shift,
		      uet_port_pair_create);
}

static void env_roles(struct env *e, uet_time_t lookahead_ps, uet_time_t end_ps,
		      uint32_t co_timeout_ms, uint32_t pa_timeout_ms,
		      uint64_t bad_hash_nic_mask)
{
	struct uet_sync_coordinator_conf cc = {
		.ports = e->sw_port,
		.n_ports = e->n,
		.component = &e->sw.c,
		.pool = e->mp,
		.lookahead_ps = lookahead_ps,
		.start_ps = 0,
		.end_ps = end_ps,
		.scenario_hash = HASH,
		.nonce_seed = 42,
		.timeout_ms = co_timeout_ms,
		/* The tests' short bounds hold for the handshake too. */
		.startup_timeout_ms = co_timeout_ms,
	};
	uint32_t i;

	ck_assert_int_eq(uet_sync_coordinator_create(&e->co, &cc), 0);
	for (i = 0; i < e->n; i++) {
		struct uet_sync_participant_conf pc = {
			.port = e->nic_port[i],
			.component = &e->nic[i].c,
			.pool = e->mp,
			.nic_id = (uint16_t)i,
			.ipv4 = 0xc6120001u + i,
			.mac = {0x02, 0, 0, 0, 0, (uint8_t)(i + 1)},
			.scenario_hash =
				(bad_hash_nic_mask >> i) & 1 ? HASH ^ 1 : HASH,
			.timeout_ms = pa_timeout_ms,
			.startup_timeout_ms = pa_timeout_ms,
		};

		ck_assert_int_eq(uet_sync_participant_create(&e->pa[i], &pc),
				 0);
	}
}

static void env_close(struct env *e)
{
	uint32_t i;

	uet_sync_coordinator_free(e->co);
	for (i = 0; i < e->n; i++)
		uet_sync_participant_free(e->pa[i]);
	fake_fini(&e->sw);
	for (i = 0; i < e->n; i++) {
		fake_fini(&e->nic[i]);
		uet_port_close(e->sw_port[i]);
		uet_port_close(e->nic_port[i]);
	}
}

static void check_log(const struct fake *f, uint32_t i, uet_time_t t_ps,
		      uint32_t what, uint32_t port, uint32_t nic, uint32_t seq)
{
	const struct log_ent *e;

	ck_assert_uint_lt(i, f->n_log);
	e = &f->log[i];
	ck_assert_uint_eq(e->t_ps, t_ps);
	ck_assert_uint_eq(e->what, what);
	ck_assert_uint_eq(e->port, port);
	ck_assert_uint_eq(e->nic, nic);
	ck_assert_uint_eq(e->seq, seq);
}

static uint64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- the trailer on mbufs ---- */

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

/* ---- windows, arrival times, BYE ---- */

/* One NIC pings at 10 us; Delay = L = 1 us; the reflector sends it back
 * 1 us after it arrives. Windows: [0,1) [1,11) [11,12) [12,13) us. */
START_TEST(test_ping_arrives_at_exact_times_in_four_windows)
{
	struct rte_mempool *mp;
	struct uet_sync_stats cs, ps;
	struct env e;

	uet_test_eal("uetsync", "ping");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "p", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), 0);

	check_log(&e.nic[0], 0, 10 * US, LOG_SEND, 0, 0, 0);
	check_log(&e.sw, 0, 11 * US, LOG_RECV, 0, 0, 0);
	check_log(&e.nic[0], 1, 12 * US, LOG_RECV, 0, 0, 0);
	ck_assert_uint_eq(e.sw.n_log, 1);
	ck_assert_uint_eq(e.nic[0].n_log, 2);
	/* The trailer (and the padding it replaced) is gone. */
	ck_assert_uint_eq(e.sw.log[0].len_bytes, TEST_FRAME_BYTES);
	ck_assert_uint_eq(e.nic[0].log[1].len_bytes, TEST_FRAME_BYTES);

	uet_sync_coordinator_stats(e.co, &cs);
	uet_sync_participant_stats(e.pa[0], &ps);
	ck_assert_uint_eq(cs.windows, 4);
	ck_assert_uint_eq(ps.windows, 4);
	ck_assert_uint_eq(cs.now_ps, 13 * US);
	ck_assert_uint_eq(cs.data_frames_rx, 1);
	ck_assert_uint_eq(cs.data_frames_tx, 1);
	ck_assert_uint_eq(ps.data_frames_rx, 1);
	ck_assert_uint_eq(ps.data_frames_tx, 1);
	ck_assert_uint_eq(cs.events, 1);
	ck_assert_uint_eq(ps.events, 2);
	/* WELCOME, 4 GRANTs, BYE; HELLO, 4 DONEs, BYE. */
	ck_assert_uint_eq(cs.ctrl_frames_tx, 6);
	ck_assert_uint_eq(cs.ctrl_frames_rx, 6);
	ck_assert_uint_eq(ps.ctrl_frames_tx, 6);
	ck_assert_uint_eq(ps.ctrl_frames_rx, 6);
	ck_assert_uint_eq(cs.foreign_frames, 0);
	/* Finished stays finished. */
	ck_assert_int_eq(uet_sync_coordinator_poll(e.co), UET_SYNC_FINISHED);
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), UET_SYNC_FINISHED);
	ck_assert_str_eq(uet_sync_coordinator_error(e.co), "");
	env_close(&e);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
}
END_TEST

/* A second ping a second later: the idle time between is one window,
 * [13 us, 1 s + 1 us), and the run takes 7 windows in all. */
START_TEST(test_idle_period_is_skipped_in_one_window)
{
	const uet_time_t s = UET_PS_PER_S;
	struct uet_sync_stats cs;
	struct rte_mempool *mp;
	struct env e;

	uet_test_eal("uetsync", "idle");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "i", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	fake_ping_at(&e.nic[0], s);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), 0);
	uet_sync_coordinator_stats(e.co, &cs);
	ck_assert_uint_eq(cs.windows, 7);
	ck_assert_uint_eq(cs.now_ps, s + 3 * US);
	check_log(&e.nic[0], 2, s, LOG_SEND, 0, 0, 1);
	check_log(&e.sw, 1, s + 1 * US, LOG_RECV, 0, 0, 1);
	check_log(&e.nic[0], 3, s + 2 * US, LOG_RECV, 0, 0, 1);
	env_close(&e);
}
END_TEST

/* With the run's end at 500 us, the ping at 1 s never happens: BYE after
 * the fourth window. */
START_TEST(test_run_stops_at_its_end_time_with_bye)
{
	struct uet_sync_stats cs, ps;
	struct rte_mempool *mp;
	struct env e;

	uet_test_eal("uetsync", "end");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "n", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	fake_ping_at(&e.nic[0], UET_PS_PER_S);
	env_roles(&e, 1 * US, 500 * US, 0, 0, 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), 0);
	uet_sync_coordinator_stats(e.co, &cs);
	uet_sync_participant_stats(e.pa[0], &ps);
	ck_assert_uint_eq(cs.windows, 4);
	ck_assert_uint_eq(ps.windows, 4);
	ck_assert_uint_eq(e.nic[0].n_log, 2);
	ck_assert_uint_eq(uet_evq_next_time(&e.nic[0].c.evq), UET_PS_PER_S);
	env_close(&e);
}
END_TEST

/* ---- determinism ---- */

/* Four NICs ping at the same times (ties at the switch) and at their own;
 * the switch forwards each frame to the next port 1.5 us later. */
static void run_mesh(struct rte_mempool *mp, const char *tag, bool reverse,
		     uint32_t coord_every, struct env *e)
{
	struct uet_sync_participant *order[MAX_NICS];
	uint32_t i, round = 0;
	int rc = UET_SYNC_RUNNING;

	env_open(e, mp, tag, 4, 1 * US, 1500 * NS, 1);
	for (i = 0; i < 4; i++) {
		fake_ping_at(&e->nic[i], 5 * US);
		fake_ping_at(&e->nic[i], 5 * US);
		fake_ping_at(&e->nic[i], (7 + i) * US + i * 100 * NS);
		fake_ping_at(&e->nic[i], 20 * US);
	}
	env_roles(e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	for (i = 0; i < 4; i++)
		order[i] = e->pa[reverse ? 3 - i : i];
	if (coord_every <= 1) {
		ck_assert_int_eq(uet_sync_run_embedded(e->co, order, 4), 0);
		return;
	}
	/* Another interleaving: the NICs run several rounds between two
	 * polls of the coordinator. */
	for (;;) {
		bool running = false;

		if (round++ % coord_every == 0) {
			rc = uet_sync_coordinator_poll(e->co);
			ck_assert_int_ge(rc, 0);
			running = rc == UET_SYNC_RUNNING;
		} else {
			running = true;
		}
		for (i = 0; i < 4; i++) {
			int prc = uet_sync_participant_poll(order[i]);

			ck_assert_int_ge(prc, 0);
			if (prc == UET_SYNC_RUNNING)
				running = true;
		}
		if (!running)
			break;
	}
}

static void check_same_logs(const struct env *a, const struct env *b)
{
	uint32_t i;

	ck_assert_uint_eq(a->sw.n_log, b->sw.n_log);
	ck_assert_mem_eq(a->sw.log, b->sw.log,
			 sizeof(a->sw.log[0]) * a->sw.n_log);
	for (i = 0; i < a->n; i++) {
		ck_assert_uint_eq(a->nic[i].n_log, b->nic[i].n_log);
		ck_assert_mem_eq(a->nic[i].log, b->nic[i].log,
				 sizeof(a->nic[i].log[0]) * a->nic[i].n_log);
	}
}

START_TEST(test_results_identical_run_to_run_and_in_any_polling_order)
{
	struct rte_mempool *mp;
	struct env *e = calloc(4, sizeof(*e));
	uint32_t i;

	ck_assert_ptr_nonnull(e);
	uet_test_eal("uetsync", "determ");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	run_mesh(mp, "a", false, 1, &e[0]);
	run_mesh(mp, "b", false, 1, &e[1]);
	run_mesh(mp, "c", true, 1, &e[2]);
	run_mesh(mp, "d", true, 3, &e[3]);
	/* 16 frames through the switch, each NIC sends 4 and gets 4. */
	ck_assert_uint_eq(e[0].sw.n_log, 16);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(e[0].nic[i].n_log, 8);
	/* Eight frames tie at 6 us: sorted by port, then order on the port. */
	for (i = 0; i < 8; i++)
		check_log(&e[0].sw, i, 6 * US, LOG_RECV, i / 2, i / 2, i % 2);
	/* NIC 1 gets NIC 0's two frames at 7.5 us, in their order. */
	check_log(&e[0].nic[1], 2, 7 * US + 500 * NS, LOG_RECV, 0, 0, 0);
	check_log(&e[0].nic[1], 3, 7 * US + 500 * NS, LOG_RECV, 0, 0, 1);
	check_same_logs(&e[0], &e[1]);
	check_same_logs(&e[0], &e[2]);
	check_same_logs(&e[0], &e[3]);
	for (i = 0; i < 4; i++)
		env_close(&e[i]);
	free(e);
}
END_TEST

/* ---- errors ---- */

START_TEST(test_scenario_hash_mismatch_aborts_naming_the_nic)
{
	struct rte_mempool *mp;
	struct env e;
	char want[96];

	uet_test_eal("uetsync", "hash");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "h", 2, 1 * US, 1 * US, 0);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 1u << 1);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 2), -EINVAL);
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_SCENARIO_MISMATCH);
	snprintf(want, sizeof(want), "nic 1 (198.18.0.2) on port %s",
		 uet_port_name(e.sw_port[1]));
	ck_assert_ptr_nonnull(strstr(uet_sync_coordinator_error(e.co), want));
	ck_assert_ptr_nonnull(strstr(uet_sync_coordinator_error(e.co),
				     "loaded another scenario"));
	/* Both NICs heard the ABORT. */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), -ECONNABORTED);
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[1]), -ECONNABORTED);
	ck_assert_uint_eq(uet_sync_participant_abort_code(e.pa[1]),
			  UET_LS_ABORT_SCENARIO_MISMATCH);
	env_close(&e);
}
END_TEST

START_TEST(test_silent_nic_stops_the_coordinator_within_its_timeout)
{
	struct rte_mempool *mp;
	uint64_t t0, took_ms;
	struct env e;
	char want[128];
	int rc;

	uet_test_eal("uetsync", "silent");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "s", 2, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 300, 0, 0);
	/* NIC 1 says HELLO, then never answers again. */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[1]), UET_SYNC_RUNNING);
	t0 = wall_ms();
	do {
		rc = uet_sync_coordinator_poll(e.co);
		if (rc >= 0)
			ck_assert_int_ge(uet_sync_participant_poll(e.pa[0]), 0);
		ck_assert_uint_lt(wall_ms() - t0, 5000);
	} while (rc == UET_SYNC_RUNNING);
	took_ms = wall_ms() - t0;
	ck_assert_int_eq(rc, -ETIMEDOUT);
	ck_assert_uint_ge(took_ms, 300);
	ck_assert_uint_lt(took_ms, 2000);
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_PEER_TIMEOUT);
	snprintf(want, sizeof(want),
		 "nic 1 (198.18.0.2) on port %s sent no DONE for 300 ms",
		 uet_port_name(e.sw_port[1]));
	ck_assert_ptr_nonnull(strstr(uet_sync_coordinator_error(e.co), want));
	/* The NIC that was there hears why. */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), -ECONNABORTED);
	ck_assert_uint_eq(uet_sync_participant_abort_code(e.pa[0]),
			  UET_LS_ABORT_PEER_TIMEOUT);
	env_close(&e);
}
END_TEST

START_TEST(test_silent_switch_stops_the_nic_within_its_timeout)
{
	struct rte_mempool *mp;
	uint64_t t0;
	struct env e;
	char want[128];
	int rc;

	uet_test_eal("uetsync", "noswitch");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "w", 1, 1 * US, 1 * US, 0);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 200, 0);
	t0 = wall_ms();
	do {
		rc = uet_sync_participant_poll(e.pa[0]);
		ck_assert_uint_lt(wall_ms() - t0, 5000);
	} while (rc == UET_SYNC_RUNNING);
	ck_assert_int_eq(rc, -ETIMEDOUT);
	ck_assert_uint_ge(wall_ms() - t0, 200);
	snprintf(want, sizeof(want),
		 "nic 0: the switch on port %s sent no WELCOME for 200 ms",
		 uet_port_name(e.nic_port[0]));
	ck_assert_str_eq(uet_sync_participant_error(e.pa[0]), want);
	env_close(&e);
}
END_TEST

/* Once the run is under way a NIC waits a quarter longer than its
 * timeout_ms (200 -> 250 ms), so that the switch, with the same setting,
 * is the first to notice a dead NIC and names it. */
START_TEST(test_silent_switch_in_a_run_stops_the_nic_a_quarter_later)
{
	struct rte_mempool *mp;
	uint64_t t0;
	struct env e;
	char want[128];
	int i, rc;

	uet_test_eal("uetsync", "swgone");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "g", 1, 1 * US, 1 * US, 0);
	/* Something to do at 10 us: the run does not end by itself. */
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 200, 0);
	/* HELLO; WELCOME and the first window; then the switch goes quiet. */
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]),
				 UET_SYNC_RUNNING);
		ck_assert_int_eq(uet_sync_coordinator_poll(e.co),
				 UET_SYNC_RUNNING);
	}
	t0 = wall_ms();
	do {
		rc = uet_sync_participant_poll(e.pa[0]);
		ck_assert_uint_lt(wall_ms() - t0, 5000);
	} while (rc == UET_SYNC_RUNNING);
	ck_assert_int_eq(rc, -ETIMEDOUT);
	snprintf(want, sizeof(want),
		 "nic 0: the switch on port %s sent no frame for 250 ms",
		 uet_port_name(e.nic_port[0]));
	ck_assert_str_eq(uet_sync_participant_error(e.pa[0]), want);
	env_close(&e);
}
END_TEST

/* Processes start at different times: the wait for WELCOME is bounded by
 * startup_timeout_ms, not by the (shorter) timeout of a running window. */
START_TEST(test_welcome_wait_bounded_by_the_startup_timeout)
{
	struct uet_sync_participant_conf pc;
	struct uet_sync_participant *pa;
	struct rte_mempool *mp;
	uint64_t t0, took_ms;
	struct env e;
	char want[128];
	int rc;

	uet_test_eal("uetsync", "startup");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "u", 1, 1 * US, 1 * US, 0);
	memset(&pc, 0, sizeof(pc));
	pc.port = e.nic_port[0];
	pc.component = &e.nic[0].c;
	pc.pool = e.mp;
	pc.ipv4 = 0xc6120001u;
	pc.scenario_hash = HASH;
	pc.timeout_ms = 100;
	pc.startup_timeout_ms = 600;
	ck_assert_int_eq(uet_sync_participant_create(&pa, &pc), 0);
	t0 = wall_ms();
	do {
		rc = uet_sync_participant_poll(pa);
		ck_assert_uint_lt(wall_ms() - t0, 5000);
	} while (rc == UET_SYNC_RUNNING);
	took_ms = wall_ms() - t0;
	ck_assert_int_eq(rc, -ETIMEDOUT);
	ck_assert_uint_ge(took_ms, 600);
	snprintf(want, sizeof(want),
		 "nic 0: the switch on port %s sent no WELCOME for 600 ms",
		 uet_port_name(e.nic_port[0]));
	ck_assert_str_eq(uet_sync_participant_error(pa), want);
	uet_sync_participant_free(pa);
	env_close(&e);
}
END_TEST

/* Drops the first data frame (not 0x88B5) a port receives. */
static uint16_t drop_first_data(uint16_t port_id, uint16_t queue,
				struct rte_mbuf *pkts[], uint16_t nb,
				uint16_t max, void *arg)
{
	int *dropped = arg;
	uint16_t i, k = 0;

	(void)port_id;
	(void)queue;
	(void)max;
	for (i = 0; i < nb; i++) {
		const uint8_t *p = rte_pktmbuf_mtod(pkts[i], const uint8_t *);

		if (*dropped == 0 && uet_be16_load(p + 12) != 0x88B5) {
			*dropped = 1;
			rte_pktmbuf_free(pkts[i]);
			continue;
		}
		pkts[k++] = pkts[i];
	}
	return k;
}

START_TEST(test_frame_lost_towards_the_nic_is_reported)
{
	struct rte_mempool *mp;
	struct env e;
	int dropped = 0;
	char want[160];

	uet_test_eal("uetsync", "losstonic");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	/* net_ring ethdevs: the loss is an rx callback on the link. */
	env_open_with(&e, mp, "l", 1, 1 * US, 1 * US, 0,
		      uet_port_ethdev_pair_create);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_ptr_nonnull(rte_eth_add_rx_callback(
		uet_port_id(e.nic_port[0]), 0, drop_first_data, &dropped));
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -EIO);
	ck_assert_int_eq(dropped, 1);
	ck_assert_uint_eq(uet_sync_participant_abort_code(e.pa[0]),
			  UET_LS_ABORT_FRAME_LOSS);
	snprintf(want, sizeof(want),
		 "nic 0: the switch put 1 data frames on port %s before GRANT "
		 "[12000000, 13000000) ps, 0 arrived: the host lost frames",
		 uet_port_name(e.nic_port[0]));
	ck_assert_str_eq(uet_sync_participant_error(e.pa[0]), want);
	/* The switch heard the NIC's ABORT. */
	ck_assert_int_eq(uet_sync_coordinator_poll(e.co), -ECONNABORTED);
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_FRAME_LOSS);
	env_close(&e);
}
END_TEST

START_TEST(test_frame_lost_towards_the_switch_is_reported)
{
	struct rte_mempool *mp;
	struct env e;
	int dropped = 0;
	char want[200];

	uet_test_eal("uetsync", "losstosw");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open_with(&e, mp, "k", 1, 1 * US, 1 * US, 0,
		      uet_port_ethdev_pair_create);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_ptr_nonnull(rte_eth_add_rx_callback(
		uet_port_id(e.sw_port[0]), 0, drop_first_data, &dropped));
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -EIO);
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_FRAME_LOSS);
	snprintf(want, sizeof(want),
		 "nic 0 (198.18.0.1) on port %s put 1 data frames on the link "
		 "in window [1000000, 11000000) ps, 0 arrived: the host lost "
		 "frames",
		 uet_port_name(e.sw_port[0]));
	ck_assert_str_eq(uet_sync_coordinator_error(e.co), want);
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), -ECONNABORTED);
	env_close(&e);
}
END_TEST

/* A NIC whose Delay (500 ns) is below the lookahead (1 us) would send a
 * frame into a window the switch may already have run: refused. */
START_TEST(test_frame_inside_the_window_breaks_the_lookahead)
{
	struct rte_mempool *mp;
	struct env e;

	uet_test_eal("uetsync", "lookahead");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "o", 1, 500 * NS, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -ERANGE);
	ck_assert_ptr_nonnull(strstr(uet_sync_participant_error(e.pa[0]),
				     "arriving at 10500000 ps, before the "
				     "window end 11000000 ps"));
	ck_assert_int_eq(uet_sync_coordinator_poll(e.co), -ECONNABORTED);
	env_close(&e);
}
END_TEST

/* Fails on the second window it sees. */
static int fail_second_window(void *arg, uet_time_t window_end_ps)
{
	uint32_t *seen = arg;

	(void)window_end_ps;
	return ++*seen == 2 ? -ENOMEM : 0;
}

START_TEST(test_window_hook_error_stops_the_run)
{
	struct uet_sync_coordinator_conf cc;
	struct uet_sync_participant_conf pc;
	struct rte_mempool *mp;
	uint32_t seen = 0;
	struct env e;

	uet_test_eal("uetsync", "hook");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "y", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	memset(&cc, 0, sizeof(cc));
	cc.ports = e.sw_port;
	cc.n_ports = 1;
	cc.component = &e.sw.c;
	cc.pool = mp;
	cc.lookahead_ps = 1 * US;
	cc.end_ps = UET_TIME_NEVER;
	cc.scenario_hash = HASH;
	cc.window_fn = fail_second_window;
	cc.window_arg = &seen;
	ck_assert_int_eq(uet_sync_coordinator_create(&e.co, &cc), 0);
	memset(&pc, 0, sizeof(pc));
	pc.port = e.nic_port[0];
	pc.component = &e.nic[0].c;
	pc.pool = mp;
	pc.scenario_hash = HASH;
	ck_assert_int_eq(uet_sync_participant_create(&e.pa[0], &pc), 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -ENOMEM);
	ck_assert_str_eq(uet_sync_coordinator_error(e.co),
			 "switch failed in window [1000000, 11000000) ps: "
			 "Cannot allocate memory");
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_INTERNAL);
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), -ECONNABORTED);
	env_close(&e);
}
END_TEST

START_TEST(test_create_rejects_zero_lookahead)
{
	struct uet_sync_coordinator *co = NULL;
	struct rte_mempool *mp;
	struct env e;
	struct uet_sync_coordinator_conf cc;

	uet_test_eal("uetsync", "badconf");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "z", 1, 1 * US, 1 * US, 0);
	memset(&cc, 0, sizeof(cc));
	cc.ports = e.sw_port;
	cc.n_ports = 1;
	cc.component = &e.sw.c;
	cc.pool = mp;
	cc.end_ps = UET_TIME_NEVER;
	ck_assert_int_eq(uet_sync_coordinator_create(&co, &cc), -EINVAL);
	cc.lookahead_ps = 1;
	cc.end_ps = 0;
	ck_assert_int_eq(uet_sync_coordinator_create(&co, &cc), -EINVAL);
	ck_assert_ptr_null(co);
	env_close(&e);
}
END_TEST

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
 */
START_TEST(test_realtime_frames_wait_for_arrival_and_are_stamped_after)
{
	struct rte_mempool *mp;
	struct uet_sync_realtime *sw, *nic[1];
	struct uet_sync_rt_clock c;
	struct uet_sync_rt_stats st;
	struct env e;
	uint64_t bound, wake;
	int a = UET_SYNC_RUNNING, b = UET_SYNC_RUNNING;
	const struct log_ent *sw_rx, *nic_rx;

	uet_test_eal("uetsync", "rtping");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "rp", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	/* 100 wall ns per virtual ns: the run's 50 us take 5 ms. */
	c.epoch_ns = test_now_ns();
	c.dilation = 100;
	env_rt_roles(&e, &c, 50 * US, &sw, nic);
	bound = test_now_ns() + UINT64_C(5000000000);
	while ((a == UET_SYNC_RUNNING || b == UET_SYNC_RUNNING) &&
	       test_now_ns() < bound) {
		a = uet_sync_realtime_poll(sw, &wake);
		b = uet_sync_realtime_poll(nic[0], &wake);
	}
	ck_assert_int_eq(a, UET_SYNC_FINISHED);
	ck_assert_int_eq(b, UET_SYNC_FINISHED);

	ck_assert_uint_eq(e.nic[0].n_log, 2);
	ck_assert_uint_eq(e.nic[0].log[0].what, LOG_SEND);
	ck_assert_uint_eq(e.nic[0].log[0].t_ps, 10 * US);
	ck_assert_uint_eq(e.sw.n_log, 1);
	sw_rx = &e.sw.log[0];
	nic_rx = &e.nic[0].log[1];
	ck_assert_uint_eq(sw_rx->what, LOG_RECV);
	ck_assert_uint_ge(sw_rx->t_ps, 11 * US);
	/* No trailer in realtime: the frame as sent, padding included. */
	ck_assert_uint_eq(sw_rx->len_bytes, UET_ETH_MIN_FRAME_BYTES);
	ck_assert_uint_eq(nic_rx->what, LOG_RECV);
	ck_assert_uint_ge(nic_rx->t_ps, sw_rx->t_ps + 1 * US);

	uet_sync_realtime_stats(nic[0], &st);
	ck_assert_uint_eq(st.frames_tx, 1);
	ck_assert_uint_eq(st.frames_rx, 1);
	ck_assert_uint_eq(st.events, 2);
	ck_assert_uint_eq(st.lateness.count, 2);
	ck_assert_uint_eq(st.now_ps, 50 * US);
	uet_sync_realtime_stats(sw, &st);
	ck_assert_uint_eq(st.frames_rx, 1);
	ck_assert_uint_eq(st.frames_tx, 1);
	ck_assert_uint_eq(st.events, 1);
	ck_assert_uint_eq(st.lateness.count, 1);
	ck_assert(uet_sync_realtime_idle(sw));
	ck_assert(uet_sync_realtime_idle(nic[0]));
	uet_sync_realtime_free(sw);
	uet_sync_realtime_free(nic[0]);
	env_close(&e); /* no lockstep roles: it frees the fakes and ports */
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

static Suite *sync_suite(void)
{
	Suite *s = suite_create("sync");
	TCase *tc = tcase_create("lockstep");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_trailer_replaces_padding_after_ip_datagram);
	tcase_add_test(tc, test_realtime_clock_divides_wall_time_by_dilation);
	tcase_add_test(
		tc,
		test_realtime_frames_wait_for_arrival_and_are_stamped_after);
	tcase_add_test(
		tc, test_realtime_waits_for_its_start_and_drops_foreign_frames);
	tcase_add_test(tc, test_trailer_on_full_chain_goes_in_a_new_segment);
	tcase_add_test(tc, test_trailer_on_non_ip_frame_goes_at_the_end);
	tcase_add_test(tc, test_ping_arrives_at_exact_times_in_four_windows);
	tcase_add_test(tc, test_idle_period_is_skipped_in_one_window);
	tcase_add_test(tc, test_run_stops_at_its_end_time_with_bye);
	tcase_add_test(
		tc, test_results_identical_run_to_run_and_in_any_polling_order);
	tcase_add_test(tc, test_scenario_hash_mismatch_aborts_naming_the_nic);
	tcase_add_test(
		tc, test_silent_nic_stops_the_coordinator_within_its_timeout);
	tcase_add_test(tc, test_silent_switch_stops_the_nic_within_its_timeout);
	tcase_add_test(
		tc, test_silent_switch_in_a_run_stops_the_nic_a_quarter_later);
	tcase_add_test(tc, test_welcome_wait_bounded_by_the_startup_timeout);
	tcase_add_test(tc, test_frame_lost_towards_the_nic_is_reported);
	tcase_add_test(tc, test_frame_lost_towards_the_switch_is_reported);
	tcase_add_test(tc, test_frame_inside_the_window_breaks_the_lookahead);
	tcase_add_test(tc, test_window_hook_error_stops_the_run);
	tcase_add_test(tc, test_create_rejects_zero_lookahead);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(sync_suite)
