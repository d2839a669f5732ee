/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rig of tests/fuzz/fuzz_nic.c: the scenarios, the models wired in
 * lockstep windows of the link delay (as lib/sync runs them), what the
 * links and the completions tell the checks, and the injection of frames.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "fuzz_nic.h"
#include "uet_port.h"
#include "uet_run_params.h"
#include "uet_wire.h"
#include "uet_wire_mbuf.h"

/* The scenarios an input runs on (byte 0, fz_variant_of()). */
static const char *const fz_yaml[] = {
	/* Every default (NSCC, REPS, drop tail). */
	"topology: {kind: single-switch, hosts: 2}\n",
	/* Trimming NICs and switch, small queues. */
	"topology: {kind: single-switch, hosts: 2}\n"
	"nic: {TrimmingEnabled: true}\n"
	"switch: {UETPolicyEnabled: true, TrimmingEnabled: true,"
	" queue_limit: 16KiB}\n",
	/* Lossless classes: the NICs and the switch send and honour PFC. */
	"topology: {kind: single-switch, hosts: 2}\n"
	"nic: {IngressPoolSize: 64KiB, PFCXoff: 16KiB, PFCXon: 8KiB}\n"
	"switch: {PFCClasses: '0,1,2,3,4,5,6,7', PFCXoff: 16KiB,"
	" PFCXon: 8KiB, PFCHeadroom: 64KiB, queue_limit: 256KiB}\n",
	/* A fixed window, oblivious spraying, an ACK every packet. */
	"topology: {kind: single-switch, hosts: 2, link_rate: 100Gbps}\n"
	"pds: {CongestionControl: fixed, LoadBalancing: oblivious,"
	" AckRequestEveryNthPacket: 1}\n",
	/* Host 1 slower than the link (one PCIe lane, FZ_SLOW_VARIANT): its
	 * ingress pool fills and it pauses the switch; the prefetch buffer
	 * on. */
	"topology: {kind: single-switch, hosts: 2}\n"
	"nic: {IngressPoolSize: 64KiB, PFCXoff: 8KiB, PFCXon: 4KiB,"
	" PrefetchBufferEnable: true, PrefetchBufferSize: 8KiB}\n"
	"switch: {PFCClasses: '0,1,2,3,4,5,6,7', PFCXoff: 16KiB,"
	" PFCXon: 8KiB, PFCHeadroom: 64KiB, queue_limit: 256KiB}\n",
};
/* The scenario whose host 1 has one PCIe lane. */
#define FZ_SLOW_VARIANT 4u
_Static_assert(sizeof(fz_yaml) / sizeof(fz_yaml[0]) == FZ_VARIANTS,
	       "one scenario per variant");

static struct rte_mempool *fz_mp;
static struct uet_ses_pattern *fz_pattern;
struct fz_variant fz_var[FZ_VARIANTS];
struct fz_run fz;
/* FUZZ_NIC_TRACE set: every frame on the links and every arrival on
 * stderr (to read what a found input does). */
bool fz_trace;

/* Keep a copy of a valid frame for later operations. */
static void keep(const struct rte_mbuf *m)
{
	struct fz_kept *k = &fz.kept[fz.next_kept];
	uint32_t len = rte_pktmbuf_pkt_len(m);
	const void *p;

	if (len > FZ_FRAME_MAX)
		len = FZ_FRAME_MAX;
	p = rte_pktmbuf_read(m, 0, len, k->bytes);
	FZ_CHECK(p != NULL);
	if (p != k->bytes)
		memcpy(k->bytes, p, len);
	k->len = len;
	fz.next_kept = (fz.next_kept + 1) % FZ_KEPT;
	if (fz.nkept < FZ_KEPT)
		fz.nkept++;
}

/* Print a frame on a link when tracing (dir "tx": host's NIC to the
 * switch, "rx": the switch to host's NIC). */
static void trace_frame(const char *dir, unsigned int host,
			const struct rte_mbuf *m, uet_time_t at)
{
	struct uet_wire_cfg cfg;
	struct uet_frame f;

	if (!fz_trace)
		return;
	uet_wire_cfg_default(&cfg);
	cfg.udp_dport = fz_var[0].p[0].udp_dport;
	if (uet_frame_parse_mbuf(&cfg, m, &f, NULL) < 0 ||
	    f.kind != UET_FRAME_UET) {
		fprintf(stderr, "%s %u at %lu: not UET (%u bytes)\n", dir, host,
			(unsigned long)at, rte_pktmbuf_pkt_len(m));
		return;
	}
	fprintf(stderr,
		"%s %u at %lu: PDS type %u flags 0x%x next %u psn/cack %u\n",
		dir, host, (unsigned long)at, f.pds.type, f.pds.flags,
		f.pds.next_hdr,
		f.pds.type == UET_PDS_TYPE_RUD_CC_REQ ? f.pds.u.req.psn
		: f.pds.type == UET_PDS_TYPE_ACK_CC   ? f.pds.u.ack.cack_psn
						      : 0);
}

/* A NIC's frame goes to its switch port (the NIC's port 0 is host i's). */
static int nic_out(void *ctx, uint32_t port, struct rte_mbuf *m,
		   uet_time_t arrival_ps)
{
	const uint16_t host = (uint16_t)(uintptr_t)ctx;
	int rc;

	FZ_CHECK(port == 0);
	FZ_CHECK(arrival_ps >= fz.t);
	trace_frame("tx", host, m, arrival_ps);
	keep(m);
	if (arrival_ps > fz.last_in_ps[host])
		fz.last_in_ps[host] = arrival_ps;
	rc = fz.fc->deliver(fz.fc, host, m, arrival_ps);
	FZ_CHECK(rc == 0);
	return 0;
}

/* The switch's frame out of port i goes to host i's NIC. */
static int fabric_out(void *ctx, uint32_t port, struct rte_mbuf *m,
		      uet_time_t arrival_ps)
{
	struct uet_component *c;
	int rc;

	(void)ctx;
	FZ_CHECK(port < FZ_HOSTS);
	trace_frame("rx", port, m, arrival_ps);
	keep(m);
	c = uet_nic_component(fz.nic[port]);
	rc = c->deliver(c, 0, m, arrival_ps);
	FZ_CHECK(rc == 0);
	return 0;
}

static struct fz_msg *msg_of(const struct uet_ses_completion *c)
{
	if (c->msg_id >= 2 || !fz.msg[c->msg_id].posted)
		return NULL;
	return &fz.msg[c->msg_id];
}

static void on_sent(void *ctx, const struct uet_ses_completion *c)
{
	struct fz_msg *m = msg_of(c);

	(void)ctx;
	FZ_CHECK(m != NULL);
	m->sent++;
}

static void on_arrived(void *ctx, const struct uet_ses_completion *c)
{
	struct fz_msg *m = msg_of(c);

	(void)ctx;
	/* A forged frame may start a message nobody posted. */
	if (m == NULL || c->dst_ip != uet_host_ipv4(m->dst)) {
		FZ_CHECK(fz.tainted);
		return;
	}
	if (fz_trace)
		fprintf(stderr, "arrived: message %lu at %lu\n",
			(unsigned long)c->msg_id, (unsigned long)c->time_ps);
	/* Once, unless forged frames came: a retransmission the CLOSE
	 * overtook (seeds 13 and 14) must not deliver it again. */
	FZ_CHECK(m->arrived == 0 || fz.tainted);
	m->arrived++;
	m->arrived_bytes = c->bytes;
}

static void on_completed(void *ctx, const struct uet_ses_completion *c)
{
	struct fz_msg *m = msg_of(c);

	(void)ctx;
	FZ_CHECK(m != NULL);
	m->completed++;
	FZ_CHECK(m->completed == 1);
}

/* EAL, the pool, the pattern and the scenarios' parameters, once. */
void fz_setup(void)
{
	unsigned int v, h;

	fz_trace = getenv("FUZZ_NIC_TRACE") != NULL;
	FZ_CHECK(uet_eal_init_default("fuzz_nic") == 0);
	fz_mp = rte_pktmbuf_pool_create("fz_mp", FZ_POOL_MBUFS, 256, 0,
					RTE_MBUF_DEFAULT_BUF_SIZE,
					SOCKET_ID_ANY);
	FZ_CHECK(fz_mp != NULL);
	FZ_CHECK(uet_ses_pattern_create(&fz_pattern) == 0);
	for (v = 0; v < FZ_VARIANTS; v++) {
		struct fz_variant *var = &fz_var[v];
		struct uet_config_error err;
		struct uet_scenario sc;

		if (uet_scenario_load_string(&sc, "fuzz-nic", fz_yaml[v],
					     strlen(fz_yaml[v]), &err) != 0) {
			fprintf(stderr, "fuzz_nic: scenario %u: %s\n", v,
				err.message);
			abort();
		}
		for (h = 0; h < FZ_HOSTS; h++)
			FZ_CHECK(uet_run_nic_params(&sc, h, &var->p[h]) == 0);
		if (v == FZ_SLOW_VARIANT)
			var->p[1].pcie.lane_count = 1;
		FZ_CHECK(uet_run_fabric_conf(&sc, &var->fc) == 0);
		/* The windows: no frame sent inside one arrives before its
		 * end. */
		var->lookahead_ps = var->fc.link_delay_ps;
		if (var->p[0].delay_ps < var->lookahead_ps)
			var->lookahead_ps = var->p[0].delay_ps;
		FZ_CHECK(var->lookahead_ps > 0);
		uet_scenario_free(&sc);
	}
}

void fz_start(const struct fz_variant *var)
{
	struct uet_ses_callbacks cb = {
		.sent = on_sent,
		.arrived = on_arrived,
		.completed = on_completed,
	};
	uint32_t h;

	FZ_CHECK(uet_fabric_create(&fz.fab, &var->fc) == 0);
	fz.fc = uet_fabric_component(fz.fab);
	fz.fc->out = fabric_out;
	for (h = 0; h < FZ_HOSTS; h++) {
		struct uet_nic_conf c = {
			.params = &var->p[h],
			.index = h,
			.ip = uet_host_ipv4(h),
			.switch_mac = {0x02, 0, 0, 0x01, 0, 0},
			.mempool = fz_mp,
			.pattern = fz_pattern,
			.seed = 1,
		};
		struct uet_component *comp;

		uet_host_mac(h, c.mac);
		FZ_CHECK(uet_nic_create(&fz.nic[h], &c) == 0);
		comp = uet_nic_component(fz.nic[h]);
		comp->out = nic_out;
		comp->out_ctx = (void *)(uintptr_t)h;
		uet_nic_set_callbacks(fz.nic[h], &cb);
	}
}

void fz_post(unsigned int i, uint32_t src, uint64_t bytes, uet_time_t at)
{
	struct fz_msg *m = &fz.msg[i];

	m->posted = true;
	m->src = src;
	m->dst = 1 - src;
	m->bytes = bytes;
	FZ_CHECK(uet_nic_post_message(fz.nic[src], uet_host_ipv4(m->dst), bytes,
				      at, i) == 0);
}

/* Run one window [t, t + lookahead) of the three components. */
void fz_run_window(const struct fz_variant *var)
{
	const uet_time_t end = fz.t + var->lookahead_ps;
	unsigned int h;

	for (h = 0; h < FZ_HOSTS; h++)
		FZ_CHECK(uet_evq_run_until(&uet_nic_component(fz.nic[h])->evq,
					   end) >= 0);
	FZ_CHECK(uet_component_run_window(fz.fc, fz.t, end) >= 0);
	FZ_CHECK(uet_fabric_error(fz.fab) == 0);
	fz.t = end;
}

/* The earliest pending event of the three. */
uet_time_t fz_next_time(void)
{
	uet_time_t t = uet_component_next_time(fz.fc);
	unsigned int h;

	for (h = 0; h < FZ_HOSTS; h++) {
		uet_time_t e =
			uet_component_next_time(uet_nic_component(fz.nic[h]));

		if (e < t)
			t = e;
	}
	return t;
}

/* An mbuf chain of len bytes in segments of fz.seg bytes, at most
 * FZ_SEGS_MAX of them. */
static struct rte_mbuf *chain_of(const uint8_t *bytes, uint32_t len)
{
	const uint32_t min_seg = (len + FZ_SEGS_MAX - 1) / FZ_SEGS_MAX;
	const uint32_t seg = fz.seg > min_seg ? fz.seg : min_seg;
	struct rte_mbuf *head = NULL;
	uint32_t off = 0;

	do {
		struct rte_mbuf *m = rte_pktmbuf_alloc(fz_mp);
		uint32_t n = len - off < seg ? len - off : seg;
		char *d;

		FZ_CHECK(m != NULL);
		d = rte_pktmbuf_append(m, (uint16_t)n);
		FZ_CHECK(d != NULL);
		memcpy(d, bytes + off, n);
		off += n;
		if (head == NULL)
			head = m;
		else
			FZ_CHECK(rte_pktmbuf_chain(head, m) == 0);
	} while (off < len);
	return head;
}

/*
 * What a frame injected into target may change: a UET frame what the
 * NICs do (a data frame the payload of the host it is for: the NIC it is
 * given to, or through the switch the one its address names), a PFC frame
 * only when they do it.
 */
static void note_injected(unsigned int target, const struct rte_mbuf *m)
{
	struct uet_wire_cfg cfg;
	struct uet_frame f;
	unsigned int h;

	uet_wire_cfg_default(&cfg);
	cfg.udp_dport = fz_var[0].p[0].udp_dport;
	if (uet_frame_parse_mbuf(&cfg, m, &f, NULL) < 0)
		return;
	if (f.kind == UET_FRAME_PFC)
		fz.pfc = true;
	if (f.kind != UET_FRAME_UET)
		return;
	fz.tainted = true;
	if (f.pds.type != UET_PDS_TYPE_RUD_CC_REQ)
		return;
	for (h = 0; h < FZ_HOSTS; h++)
		if (target == h ||
		    (target >= FZ_HOSTS && f.ip.dst == uet_host_ipv4(h)))
			fz.data_to[h] = true;
}

/* Put frame bytes on a link: into a NIC, or into a switch port. */
void fz_inject(unsigned int target, const uint8_t *bytes, uint32_t len)
{
	struct rte_mbuf *m = chain_of(bytes, len);
	int rc;

	note_injected(target, m);
	if (target < FZ_HOSTS) {
		struct uet_component *c = uet_nic_component(fz.nic[target]);

		rc = c->deliver(c, 0, m, fz.t);
	} else {
		const unsigned int port = target - FZ_HOSTS;
		uet_time_t at = fz.t;

		if (fz.last_in_ps[port] > at)
			at = fz.last_in_ps[port];
		fz.last_in_ps[port] = at;
		rc = fz.fc->deliver(fz.fc, port, m, at);
	}
	FZ_CHECK(rc == 0);
}

/* Destroy the models; every mbuf must be back in the pool. */
void fz_stop(void)
{
	unsigned int h;

	for (h = 0; h < FZ_HOSTS; h++)
		uet_nic_destroy(fz.nic[h]);
	uet_fabric_destroy(fz.fab);
	FZ_CHECK(rte_mempool_in_use_count(fz_mp) == 0);
}
