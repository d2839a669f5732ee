/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for what lib/wire's mbuf reader feeds: two live NICs
 * (lib/nic) on a one-switch fabric (lib/fabric), each sending a message to
 * the other, while the input puts frames of its own on the links between
 * the valid ones: raw bytes, or copies of recent valid frames with bytes
 * patched, cut or replayed, in mbuf chains of an input-chosen segment size,
 * into a NIC (as if from the switch) or into a switch port (as if from a
 * host). The three run in lockstep windows of the link delay, as lib/sync
 * runs them.
 *
 * What must hold for every input (abort() otherwise):
 *   - no crash, no sanitizer report, no error out of a component;
 *   - a group's in-flight bytes never go negative (in_flight_anomalies);
 *   - no PSN retired twice (retired <= taken), no message completed twice;
 *   - every mbuf back in the pool once the models are destroyed.
 *   - every payload byte a NIC delivers is the pattern's, unless a UET
 *     data frame for that host was injected.
 * When no injected frame parses as UET (garbage and PFC pauses only), the
 * run must end as if nothing had been injected: both messages sent,
 * arrived with their size and completed once, every PSN retired once, the
 * receiver's delivered bytes the messages' bytes, both NICs idle.
 *
 * Input: byte 0 picks the scenario and the segment size, bytes 1-3 the two
 * message sizes and the second's start; then operations, each one byte
 * (windows to run first, target, kind) and its arguments (fuzz_nic_op()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>
#include <rte_mempool.h>

#include "uet_fabric.h"
#include "uet_nic.h"
#include "uet_port.h"
#include "uet_run_params.h"
#include "uet_wire.h"
#include "uet_wire_mbuf.h"

#define FZ_HOSTS 2
#define FZ_POOL_MBUFS 16383u
/* Frames the input may inject, and their largest size. */
#define FZ_OPS_MAX 48u
#define FZ_FRAME_MAX 9216u
/* Most segments of an injected frame (a longer frame gets longer ones). */
#define FZ_SEGS_MAX 32u
/* Recent valid frames kept to be patched or replayed. */
#define FZ_KEPT 8u
/* A run stops here (virtual time) or after this many windows. */
#define FZ_END_PS (UINT64_C(20) * 1000 * 1000 * 1000)
#define FZ_WINDOWS_MAX 200000u

/* The scenarios an input runs on (byte 0, low two bits). */
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
};
#define FZ_VARIANTS (sizeof(fz_yaml) / sizeof(fz_yaml[0]))

struct fz_variant {
	struct uet_nic_params p[FZ_HOSTS];
	struct uet_fabric_conf fc;
	uet_time_t lookahead_ps;
};

/* A valid frame seen on a link, as bytes. */
struct fz_kept {
	uint32_t len;
	uint8_t bytes[FZ_FRAME_MAX];
};

/* One message: what was posted and what the completions said. */
struct fz_msg {
	bool posted;
	uint32_t src, dst;
	uint64_t bytes;
	unsigned int sent, arrived, completed;
	uint64_t arrived_bytes;
	/* The receiver was given a CLOSE from the sender. */
	bool close_delivered;
};

struct fz_run {
	struct uet_nic *nic[FZ_HOSTS];
	struct uet_fabric *fab;
	struct uet_component *fc;
	uet_time_t t;			 /* the next window's start */
	uet_time_t last_in_ps[FZ_HOSTS]; /* latest arrival per switch port */
	uint16_t seg;			 /* injected frames' segment size */
	bool tainted;			 /* a UET frame was injected */
	bool data_to[FZ_HOSTS];		 /* a UET data frame for host h */
	bool pfc;			 /* a PFC frame was injected */
	struct fz_msg msg[2];
	struct fz_kept kept[FZ_KEPT];
	unsigned int nkept, next_kept;
};

static struct rte_mempool *fz_mp;
static struct uet_ses_pattern *fz_pattern;
static struct fz_variant fz_var[FZ_VARIANTS];
static struct fz_run fz;
/* FUZZ_NIC_TRACE set: every frame on the links and every arrival on
 * stderr (to read what a found input does). */
static bool fz_trace;

#define FZ_CHECK(cond)                                                         \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "fuzz_nic: %s:%d: %s\n", __FILE__,     \
				__LINE__, #cond);                              \
			abort();                                               \
		}                                                              \
	} while (0)

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

/*
 * A frame on a link (dir "tx": host's NIC to the switch, "rx": the switch
 * to host's NIC): note a CLOSE given to a message's receiver; print it
 * when tracing.
 */
static void observe(const char *dir, unsigned int host,
		    const struct rte_mbuf *m, uet_time_t at)
{
	struct uet_wire_cfg cfg;
	struct uet_frame f;
	unsigned int i;

	uet_wire_cfg_default(&cfg);
	cfg.udp_dport = fz_var[0].p[0].udp_dport;
	if (uet_frame_parse_mbuf(&cfg, m, &f, NULL) < 0 ||
	    f.kind != UET_FRAME_UET) {
		if (fz_trace)
			fprintf(stderr, "%s %u at %lu: not UET (%u bytes)\n",
				dir, host, (unsigned long)at,
				rte_pktmbuf_pkt_len(m));
		return;
	}
	for (i = 0; dir[0] == 'r' && i < 2; i++)
		if (fz.msg[i].posted && fz.msg[i].dst == host &&
		    f.ip.src == uet_host_ipv4(fz.msg[i].src) &&
		    f.pds.type == UET_PDS_TYPE_CP &&
		    f.pds.next_hdr == UET_CP_CLOSE)
			fz.msg[i].close_delivered = true;
	if (fz_trace)
		fprintf(stderr,
			"%s %u at %lu: PDS type %u flags 0x%x next %u "
			"psn/cack %u\n",
			dir, host, (unsigned long)at, f.pds.type, f.pds.flags,
			f.pds.next_hdr,
			f.pds.type == UET_PDS_TYPE_RUD_CC_REQ ? f.pds.u.req.psn
			: f.pds.type == UET_PDS_TYPE_ACK_CC
				? f.pds.u.ack.cack_psn
				: 0);
}

/* A NIC's frame goes to its switch port (the NIC's port 0 is host i's). */
static int nic_out(void *ctx, uint16_t port, struct rte_mbuf *m,
		   uet_time_t arrival_ps)
{
	const uint16_t host = (uint16_t)(uintptr_t)ctx;
	int rc;

	FZ_CHECK(port == 0);
	FZ_CHECK(arrival_ps >= fz.t);
	observe("tx", host, m, arrival_ps);
	keep(m);
	if (arrival_ps > fz.last_in_ps[host])
		fz.last_in_ps[host] = arrival_ps;
	rc = fz.fc->deliver(fz.fc, host, m, arrival_ps);
	FZ_CHECK(rc == 0);
	return 0;
}

/* The switch's frame out of port i goes to host i's NIC. */
static int fabric_out(void *ctx, uint16_t port, struct rte_mbuf *m,
		      uet_time_t arrival_ps)
{
	struct uet_component *c;
	int rc;

	(void)ctx;
	FZ_CHECK(port < FZ_HOSTS);
	observe("rx", port, m, arrival_ps);
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
	/*
	 * Known (docs/notes.md): a retransmission that the CLOSE overtook
	 * (the CLOSE is a control frame, in a class of its own) opens a new
	 * receiving side and delivers the message again. Any other second
	 * arrival is a finding.
	 */
	FZ_CHECK(m->arrived == 0 || fz.tainted || m->close_delivered);
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
static void fz_setup(void)
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

static void fz_start(const struct fz_variant *var)
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

static void post(unsigned int i, uint32_t src, uint64_t bytes, uet_time_t at)
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
static void run_window(const struct fz_variant *var)
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
static uet_time_t next_time(void)
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

/* Input reader: bytes run out as zeros. */
struct fz_in {
	const uint8_t *p;
	size_t n;
};

static uint8_t in_u8(struct fz_in *in)
{
	uint8_t b = 0;

	if (in->n != 0) {
		b = *in->p++;
		in->n--;
	}
	return b;
}

static uint16_t in_u16(struct fz_in *in)
{
	uint16_t hi = in_u8(in);

	return (uint16_t)(hi << 8 | in_u8(in));
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
static void inject(unsigned int target, const uint8_t *bytes, uint32_t len)
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
		rc = fz.fc->deliver(fz.fc, (uint16_t)port, m, at);
	}
	FZ_CHECK(rc == 0);
}

/*
 * One operation: byte op, then its arguments.
 *   op & 7         windows to run first;
 *   (op >> 3) & 3  target: NIC 0, NIC 1, switch port 0, switch port 1;
 *   op >> 5        0-1: raw frame (u16 length, bytes);
 *                  2: a kept frame (u8 which) with u8 % 9 bytes set
 *                     (u16 offset, u8 value);
 *                  3: the same, xor-ed into the first 128 bytes
 *                     (u8 offset, u8 value);
 *                  4: a kept frame cut to u16 % (length + 1) bytes;
 *                  5: a kept frame again, unchanged;
 *                  6: the segment size of later frames, 1 + u8 * 8;
 *                  7: run u8 more windows.
 */
static void fuzz_nic_op(const struct fz_variant *var, struct fz_in *in)
{
	static uint8_t buf[FZ_FRAME_MAX];
	const uint8_t op = in_u8(in);
	const unsigned int target = (op >> 3) & 3;
	unsigned int i, n;
	uint32_t len;

	for (i = 0; i < (op & 7u); i++)
		run_window(var);
	switch (op >> 5) {
	case 0:
	case 1:
		len = in_u16(in) % (FZ_FRAME_MAX + 1);
		if (len > in->n)
			len = (uint32_t)in->n;
		memcpy(buf, in->p, len);
		in->p += len;
		in->n -= len;
		inject(target, buf, len);
		return;
	case 6:
		fz.seg = (uint16_t)(1 + in_u8(in) * 8);
		return;
	case 7:
		n = in_u8(in);
		for (i = 0; i < n; i++)
			run_window(var);
		return;
	default:
		break;
	}
	if (fz.nkept == 0)
		return;
	{
		const struct fz_kept *k = &fz.kept[in_u8(in) % fz.nkept];

		len = k->len;
		memcpy(buf, k->bytes, len);
	}
	switch (op >> 5) {
	case 2:
		n = in_u8(in) % 9;
		for (i = 0; i < n && len != 0; i++) {
			const uint16_t off = in_u16(in);

			buf[off % len] = in_u8(in);
		}
		break;
	case 3:
		n = in_u8(in) % 9;
		for (i = 0; i < n && len != 0; i++) {
			const uint8_t off = in_u8(in);

			buf[off % (len < 128 ? len : 128)] ^= in_u8(in);
		}
		break;
	case 4:
		len = in_u16(in) % (len + 1);
		break;
	default:
		break;
	}
	inject(target, buf, len);
}

/* What must hold at the end of every run, and of a clean one. */
static void check_end(void)
{
	uint64_t to_host[FZ_HOSTS] = {0};
	unsigned int h, i;

	for (i = 0; i < 2; i++) {
		const struct fz_msg *m = &fz.msg[i];

		if (!m->posted)
			continue;
		FZ_CHECK(m->sent <= 1 && m->completed <= 1);
		to_host[m->dst] += m->bytes * (m->arrived > 1 ? m->arrived : 1);
		if (fz.tainted)
			continue;
		FZ_CHECK(m->sent == 1 && m->arrived >= 1 && m->completed == 1);
		FZ_CHECK(m->arrived_bytes == m->bytes);
	}
	for (h = 0; h < FZ_HOSTS; h++) {
		struct uet_nic_stats s;

		uet_nic_stats(fz.nic[h], &s);
		FZ_CHECK(s.in_flight_anomalies == 0);
		FZ_CHECK(s.psns_retired <= s.psns_taken);
		FZ_CHECK(s.mbuf_failures == 0);
		/* Only a forged data frame brings other payload bytes. */
		FZ_CHECK(fz.data_to[h] || s.payload_mismatches == 0);
		if (fz.tainted)
			continue;
		FZ_CHECK(s.psns_retired == s.psns_taken);
		FZ_CHECK(s.transport.in_flight_bytes == 0);
		FZ_CHECK(s.transport.data_payload_bytes_delivered ==
			 to_host[h]);
		FZ_CHECK(uet_nic_idle(fz.nic[h]));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool up;
	struct fz_in in = {data, size};
	const struct fz_variant *var;
	unsigned int ops, windows, h;
	uint8_t cfg;

	if (!up) {
		fz_setup();
		up = true;
	}
	memset(&fz, 0, sizeof(fz));
	cfg = in_u8(&in);
	var = &fz_var[cfg % FZ_VARIANTS];
	fz.seg = (uint16_t)(cfg & 0x80 ? 128 : 2048);
	fz_start(var);
	post(0, 0, (uint64_t)in_u8(&in) * 131, 0);
	{
		const uint8_t b = in_u8(&in), at = in_u8(&in);

		if (b != 0)
			post(1, 1, (uint64_t)(b - 1) * 97,
			     (uet_time_t)at * 100000);
	}
	for (ops = 0; ops < FZ_OPS_MAX && in.n != 0; ops++)
		fuzz_nic_op(var, &in);
	/* The valid traffic runs on to its end (or the cap). */
	for (windows = 0; windows < FZ_WINDOWS_MAX && fz.t < FZ_END_PS;
	     windows++) {
		const uet_time_t t = next_time();

		if (t == UET_TIME_NEVER)
			break;
		if (t > fz.t)
			fz.t = t;
		run_window(var);
	}
	check_end();
	if (fz_trace || getenv("FUZZ_NIC_VERBOSE") != NULL)
		fprintf(stderr,
			"fuzz_nic: scenario %u, %u ops, %s, end %lu ps, "
			"messages completed %u %u, arrived %u %u\n",
			(unsigned int)(cfg % FZ_VARIANTS), ops,
			fz.tainted ? "UET injected"
			: fz.pfc   ? "PFC injected"
				   : "clean",
			(unsigned long)fz.t, fz.msg[0].completed,
			fz.msg[1].completed, fz.msg[0].arrived,
			fz.msg[1].arrived);
	for (h = 0; h < FZ_HOSTS; h++)
		uet_nic_destroy(fz.nic[h]);
	uet_fabric_destroy(fz.fab);
	FZ_CHECK(rte_mempool_in_use_count(fz_mp) == 0);
	return 0;
}
