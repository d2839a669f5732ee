/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lib/sync suites' fakes: a "ping" NIC sends a small
 * Ethernet/IPv4/UDP frame at chosen times, arriving Delay later; a
 * "reflector" switch sends every frame it receives back out (on the same
 * port, or shifted by some ports) after a fixed delay. Each keeps a log of
 * (time, event) that the tests compare. A struct env is a whole run: the
 * switch, n NICs, the ring ports between them and the lockstep roles.
 */
#ifndef SYNC_HARNESS_H
#define SYNC_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "uet_port.h"
#include "uet_sync_ports.h"
#include "uet_sync_realtime.h"
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
	uint32_t port;
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

/* The window notes env_roles() gives the roles; all zero: none (a run
 * of before the notes). */
struct env_notes {
	uet_sync_notes_out_fn out;  /* every NIC's, or NULL */
	uet_sync_notes_in_fn in;    /* the NICs' of wants_mask */
	uet_sync_notes_in_fn co_in; /* the coordinator's, or NULL */
	void *nic_arg[MAX_NICS];
	void *co_arg;
	uint32_t wants_mask;   /* NICs whose HELLO asks */
	uint32_t co_max_bytes; /* the coordinator's bound, 0: default */
};

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
	struct env_notes notes;
};

typedef int (*pair_create_fn)(struct uet_port **, struct uet_port **,
			      const char *, unsigned,
			      const struct uet_port_conf *);

/* A 60-byte frame: Ethernet, IPv4 (36 bytes), zero padding to 60, so that
 * the trailer replaces the padding. */
struct rte_mbuf *ping_frame(struct rte_mempool *mp, uint32_t nic, uint32_t seq);

void fake_ping_at(struct fake *f, uet_time_t t_ps);

/* Components and ports (pairs made by create); the roles come from
 * env_roles(). */
void env_open_with(struct env *e, struct rte_mempool *mp, const char *tag,
		   uint32_t n, uet_time_t nic_delay_ps,
		   uet_time_t reflect_delay_ps, uint32_t shift,
		   pair_create_fn create);

/* Links on bare ring pairs, as uet-emu wires them. */
void env_open(struct env *e, struct rte_mempool *mp, const char *tag,
	      uint32_t n, uet_time_t nic_delay_ps, uet_time_t reflect_delay_ps,
	      uint32_t shift);

void env_roles(struct env *e, uet_time_t lookahead_ps, uet_time_t end_ps,
	       uint32_t co_timeout_ms, uint32_t pa_timeout_ms,
	       uint64_t bad_hash_nic_mask);

void env_close(struct env *e);

void check_log(const struct fake *f, uint32_t i, uet_time_t t_ps, uint32_t what,
	       uint32_t port, uint32_t nic, uint32_t seq);

uint64_t wall_ms(void);

#endif /* SYNC_HARNESS_H */
