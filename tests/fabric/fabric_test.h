/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared by the lib/fabric suites: EAL and an mbuf pool per forked test, a
 * fabric whose out() records what leaves it, UET frames tagged by their
 * IPv4 identification, and the leak check at the end.
 */
#ifndef FABRIC_TEST_H
#define FABRIC_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <check.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "check_main.h"
#include "eal_test.h"
#include "uet_fabric.h"
#include "uet_port.h"
#include "uet_wire.h"

/* Mbufs in a test's pool. */
#define FT_POOL_MBUFS 2047u
/* Most frames a test records leaving the fabric. */
#define FT_OUT_MAX 64u
/* A 4,096-byte payload: a 4,198-byte frame, 4,202 bytes on the wire. */
#define FT_PAYLOAD_BIG 4096u
#define FT_WIRE_BIG 4202u
/* 4,202 bytes at 400 Gbps: 84.04 ns. */
#define FT_SER_BIG_PS UINT64_C(84040)
/* A 1,000-byte payload: 1,106 bytes on the wire, 22.12 ns at 400 Gbps. */
#define FT_PAYLOAD_SMALL 1000u
#define FT_WIRE_SMALL 1106u
#define FT_SER_SMALL_PS UINT64_C(22120)
/* The test fabric's link delay and rate. */
#define FT_DELAY_PS UINT64_C(500000)
#define FT_RATE_BPS UINT64_C(400000000000)
/* When the first test frames arrive. */
#define FT_T0_PS UINT64_C(1000000)

/* One frame out of the fabric: where, when it arrives, when it left. */
struct ft_out {
	uint32_t port;
	uint16_t tag; /* the frame's IPv4 identification */
	uet_time_t arrival_ps;
	uet_time_t now_ps; /* the fabric's time when out() was called */
};

struct ft_env {
	struct rte_mempool *mp;
	struct uet_fabric *fab;
	struct uet_component *c;
	struct ft_out out[FT_OUT_MAX];
	unsigned int n_out;   /* frames recorded (at most FT_OUT_MAX) */
	uint64_t n_out_total; /* every call of out() */
	int out_ret;	      /* what out() returns */
};

/* The configuration most tests use: 8 hosts at 400 Gbps, 500 ns, 1 MiB
 * queues, no random drop. */
static inline void ft_conf(struct uet_fabric_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->hosts = 8;
	conf->link_rate_bps = FT_RATE_BPS;
	conf->link_delay_ps = FT_DELAY_PS;
	conf->queue_limit_bytes = 1u << 20;
	conf->drop_rate_ppm = 0;
	conf->seed = 1;
}

/* A leaf-spine topology of leaves x spines, per_leaf hosts on each leaf
 * (the rest of conf is left as it is). */
static inline void ft_leaf_spine(struct uet_fabric_conf *conf, uint32_t leaves,
				 uint32_t spines, uint32_t per_leaf)
{
	conf->topo = UET_FABRIC_TOPO_LEAF_SPINE;
	conf->leaves = leaves;
	conf->spines = spines;
	conf->hosts_per_leaf = per_leaf;
	conf->hosts = leaves * per_leaf;
}

/* ft_conf() on a leaf-spine topology. */
static inline void ft_conf_leaf_spine(struct uet_fabric_conf *conf,
				      uint32_t leaves, uint32_t spines,
				      uint32_t per_leaf)
{
	ft_conf(conf);
	ft_leaf_spine(conf, leaves, spines, per_leaf);
}

/* The wiring's out(): record the frame, then free it (it is ours). */
static inline int ft_out_fn(void *ctx, uint32_t port, struct rte_mbuf *m,
			    uet_time_t arrival_ps)
{
	struct ft_env *env = ctx;
	struct uet_frame f;

	if (env->n_out < FT_OUT_MAX) {
		struct ft_out *o = &env->out[env->n_out++];

		ck_assert_int_eq(uet_frame_parse(rte_pktmbuf_mtod(m, uint8_t *),
						 rte_pktmbuf_pkt_len(m), &f,
						 NULL),
				 0);
		o->port = port;
		o->tag = f.ip.id;
		o->arrival_ps = arrival_ps;
		o->now_ps = uet_fabric_port_now(env->fab, port);
	}
	env->n_out_total++;
	rte_pktmbuf_free(m);
	return env->out_ret;
}

/* The UDP flow of UET from host src to host dst with this entropy (the
 * source port), as the fabric's hash sees it. */
static inline struct uet_fabric_flow ft_flow(uint32_t src, uint32_t dst,
					     uint16_t entropy)
{
	struct uet_fabric_flow f;

	memset(&f, 0, sizeof(f));
	f.src_ipv4 = uet_host_ipv4(src);
	f.dst_ipv4 = uet_host_ipv4(dst);
	f.protocol = 17;
	f.src_port = entropy;
	f.dst_port = UET_UDP_PORT_UET;
	return f;
}

/* Clear env and make its pool (EAL already started). */
static inline void ft_pool(struct ft_env *env)
{
	memset(env, 0, sizeof(*env));
	env->mp = uet_test_pool("fab_pool", FT_POOL_MBUFS);
}

/* Create the fabric under test, wired to ft_out_fn. */
static inline void ft_fabric(struct ft_env *env,
			     const struct uet_fabric_conf *conf)
{
	ck_assert_int_eq(uet_fabric_create(&env->fab, conf), 0);
	env->c = uet_fabric_component(env->fab);
	env->c->out = ft_out_fn;
	env->c->out_ctx = env;
}

/* Pool and a fabric of conf (the default one when NULL), EAL started. */
static inline void ft_open_pool(struct ft_env *env,
				const struct uet_fabric_conf *conf)
{
	struct uet_fabric_conf def;

	ft_pool(env);
	if (conf == NULL) {
		ft_conf(&def);
		conf = &def;
	}
	ft_fabric(env, conf);
}

/* EAL, pool and a fabric of conf (the default one when NULL). */
static inline void ft_open(struct ft_env *env, const char *what,
			   const struct uet_fabric_conf *conf)
{
	uet_test_eal("uetfab", what);
	ft_open_pool(env, conf);
}

/* Destroy the fabric and check that every mbuf came back. */
static inline void ft_close(struct ft_env *env)
{
	uet_fabric_destroy(env->fab);
	env->fab = NULL;
	ck_assert_uint_eq(rte_mempool_in_use_count(env->mp), 0);
	rte_mempool_free(env->mp);
}

/* An mbuf holding bytes. */
static inline struct rte_mbuf *ft_raw(struct ft_env *env, const void *bytes,
				      uint32_t len)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(env->mp);
	char *p;

	ck_assert_ptr_nonnull(m);
	p = rte_pktmbuf_append(m, (uint16_t)len);
	ck_assert_ptr_nonnull(p);
	memcpy(p, bytes, len);
	return m;
}

/* A UET data frame (RUD_CC_REQ, SES standard request) from host src to
 * the IPv4 address dst_ip, tagged in its IPv4 identification. */
static inline struct rte_mbuf *ft_frame_ip(struct ft_env *env, uint32_t src,
					   uint32_t dst_ip,
					   uint32_t payload_bytes, uint16_t tag)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct rte_mbuf *m = rte_pktmbuf_alloc(env->mp);
	uint8_t *buf;
	int len;

	ck_assert_ptr_nonnull(m);
	uet_frame_addr_default(&a);
	ck_assert_int_eq(uet_host_mac(src, a.src_mac), 0);
	memset(a.dst_mac, 0, sizeof(a.dst_mac));
	a.src_ip = uet_host_ipv4(src);
	a.dst_ip = dst_ip;
	a.ip_id = tag;
	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_RUD_CC_REQ;
	pds.u.req.psn = tag;
	memset(&ses, 0, sizeof(ses));
	ses.kind = UET_SES_REQUEST_STD;
	ses.u.std.opcode = UET_SES_OP_SEND;
	ses.u.std.request_length = payload_bytes;
	buf = rte_pktmbuf_mtod(m, uint8_t *);
	len = uet_frame_build(buf, rte_pktmbuf_tailroom(m), &a, &pds, &ses,
			      NULL, payload_bytes);
	ck_assert_int_eq(len, (int)(UET_DATA_HDR_FRAME_BYTES + payload_bytes));
	ck_assert_ptr_nonnull(rte_pktmbuf_append(m, (uint16_t)len));
	return m;
}

/* The same, to host dst. */
static inline struct rte_mbuf *ft_frame(struct ft_env *env, uint32_t src,
					uint32_t dst, uint32_t payload_bytes,
					uint16_t tag)
{
	return ft_frame_ip(env, src, uet_host_ipv4(dst), payload_bytes, tag);
}

/* Deliver a frame to a port of the fabric. */
static inline void ft_deliver(struct ft_env *env, uint32_t port,
			      struct rte_mbuf *m, uet_time_t arrival_ps)
{
	ck_assert_int_eq(env->c->deliver(env->c, port, m, arrival_ps), 0);
}

/* Run every pending event. */
static inline void ft_run(struct ft_env *env)
{
	ck_assert_int_ge(uet_fabric_run_until(env->fab, UET_TIME_NEVER), 0);
}

/* A port's counters. */
static inline struct uet_fabric_port_stats ft_stats(struct ft_env *env,
						    uint32_t port)
{
	struct uet_fabric_port_stats st;

	ck_assert_int_eq(uet_fabric_port_stats(env->fab, port, &st), 0);
	return st;
}

/* Assert that recorded frame i left port at now_ps, arriving a link delay
 * later, and carries tag. */
static inline void ft_assert_out(const struct ft_env *env, unsigned int i,
				 uint32_t port, uint16_t tag, uet_time_t now_ps)
{
	ck_assert_uint_lt(i, env->n_out);
	ck_assert_uint_eq(env->out[i].port, port);
	ck_assert_uint_eq(env->out[i].tag, tag);
	ck_assert_uint_eq(env->out[i].now_ps, now_ps);
	ck_assert_uint_eq(env->out[i].arrival_ps, now_ps + FT_DELAY_PS);
}

#endif /* FABRIC_TEST_H */
