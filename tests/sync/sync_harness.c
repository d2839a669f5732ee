/* SPDX-License-Identifier: BSD-3-Clause */
/* The lib/sync suites' fake components and runs (sync_harness.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <check.h>
#include <rte_mbuf.h>

#include "sync_harness.h"
#include "uet_wire_be.h"

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
struct rte_mbuf *ping_frame(struct rte_mempool *mp, uint32_t nic, uint32_t seq)
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

static int fake_deliver(struct uet_component *c, uint32_t port,
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

void fake_ping_at(struct fake *f, uet_time_t t_ps)
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

/* Components and ports (pairs made by create); the roles come from
 * env_roles(). */
void env_open_with(struct env *e, struct rte_mempool *mp, const char *tag,
		   uint32_t n, uet_time_t nic_delay_ps,
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
void env_open(struct env *e, struct rte_mempool *mp, const char *tag,
	      uint32_t n, uet_time_t nic_delay_ps, uet_time_t reflect_delay_ps,
	      uint32_t shift)
{
	env_open_with(e, mp, tag, n, nic_delay_ps, reflect_delay_ps, shift,
		      uet_port_pair_create);
}

void env_roles(struct env *e, uet_time_t lookahead_ps, uet_time_t end_ps,
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
		.notes_in_fn = e->notes.co_in,
		.notes_arg = e->notes.co_arg,
		.notes_window_max_bytes = e->notes.co_max_bytes,
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
			.notes_out_fn = e->notes.out,
			.notes_arg = e->notes.nic_arg[i],
			.wants_notes = (e->notes.wants_mask >> i) & 1,
		};
		if (pc.wants_notes)
			pc.notes_in_fn = e->notes.in;

		ck_assert_int_eq(uet_sync_participant_create(&e->pa[i], &pc),
				 0);
	}
}

void env_close(struct env *e)
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

void check_log(const struct fake *f, uint32_t i, uet_time_t t_ps, uint32_t what,
	       uint32_t port, uint32_t nic, uint32_t seq)
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

uint64_t wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
