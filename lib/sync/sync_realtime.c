/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The realtime role (docs/lockstep.md, "Realtime"): one component on its
 * ports with the monotonic clock as virtual time. Events run when the
 * clock reaches them (their lateness counted), frames received are stamped
 * with the clock, frames sent wait in a per-port hold until the clock
 * reaches their modeled arrival at the far end, then leave.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "sync_private.h"
#include "uet_sync_ports.h"
#include "uet_sync_realtime.h"
#include "uet_log.h"
#include "uet_port.h"
#include "uet_wire_eth.h"
#include "uet_wire_mbuf.h"

/* Bytes of the longest IPv4 header: IHL 15 (RFC 791). */
#define RT_IPV4_HDR_MAX_BYTES 60u
/* Frames a port's hold starts with; it doubles when full. */
#define RT_HOLD_CAP0 256u
/*
 * Frames one poll takes from a port at most, in bursts of SYNC_RX_BURST: a
 * port is drained rather than sipped, so that frames that came together
 * (a window's worth from a peer that just ran) are handled in one round,
 * one wake-up and one nap decision, not one round per 64 frames.
 */
#define RT_RX_POLL_MAX 1024u
/* Frames ahead whose headers are prefetched while one is delivered. */
#define RT_RX_PREFETCH 4u
/* Frames offered to a port per tx burst: one system call (af_packet's
 * sendto, af_xdp's kick) each. */
#define RT_TX_BURST 128u

/* Frames waiting for their time to leave one port, in the order sent. */
struct rt_hold {
	struct rte_mbuf **m;	 /* slots, a circular buffer */
	uet_time_t *release_ps;	 /* ps, when each may leave */
	uint32_t head, len, cap; /* cap a power of two */
	uint64_t stall_since_ns; /* wall ns the port last took nothing */
};

/*
 * The wall clock within a poll: CLOCK_MONOTONIC read once at the poll's
 * start, then advanced by the time-stamp counter, which reads in some 9 ns
 * here against 28 for clock_gettime (events and departures read the clock
 * several times a frame). The counter's rate is learnt against the clock
 * since the role was made, so within a poll (under a millisecond) its
 * error is far below a nanosecond once the run is a few ms old.
 */
struct rt_tsc {
	uint64_t ns0, tsc0;	  /* the poll's start */
	uint64_t ns_ref, tsc_ref; /* the role's making */
	uint64_t ns_per_tsc_q32;  /* ns per tick << 32; 0: clock reads only */
};

struct uet_sync_realtime {
	struct uet_sync_realtime_conf conf;
	struct uet_port **ports; /* conf.ports, copied */
	struct rt_hold *hold;	 /* one per port */
	/* Frames each port dropped before the component, by kind. */
	struct uet_sync_port_drops *drops;
	bool finished;
	struct rt_tsc tsc;
	struct uet_sync_rt_stats stats;
	struct sync_error error;
};

/* Wall ns of the counter's rate learnt before it replaces the EAL's. */
#define RT_TSC_LEARN_NS UINT64_C(1000000)

static void rt_tsc_init(struct rt_tsc *c)
{
	uint64_t hz = rte_get_tsc_hz();

	memset(c, 0, sizeof(*c));
	c->ns_ref = sync_wall_ns();
	c->tsc_ref = rte_rdtsc();
	c->tsc0 = c->tsc_ref;
	if (hz != 0)
		c->ns_per_tsc_q32 =
			(uint64_t)(((unsigned __int128)UINT64_C(1000000000)
				    << 32) /
				   hz);
}

/* The poll's start: the clock, and the counter's rate since the role was
 * made. @return the clock, monotonic wall ns. */
static uint64_t rt_tsc_start(struct rt_tsc *c)
{
	uint64_t tsc = rte_rdtsc(), ns = sync_wall_ns();

	/* A counter that went back (a CPU whose counter is not in step
	 * with the others') is not a clock: the clock's reads only. */
	if (tsc < c->tsc0)
		c->ns_per_tsc_q32 = 0;
	if (c->ns_per_tsc_q32 != 0 && ns - c->ns_ref >= RT_TSC_LEARN_NS &&
	    tsc > c->tsc_ref)
		c->ns_per_tsc_q32 =
			(uint64_t)(((unsigned __int128)(ns - c->ns_ref) << 32) /
				   (tsc - c->tsc_ref));
	c->ns0 = ns;
	c->tsc0 = tsc;
	return ns;
}

/* The clock now, monotonic wall ns: from the counter within a poll. */
static uint64_t rt_tsc_now(const struct rt_tsc *c)
{
	uint64_t tsc = c->ns_per_tsc_q32 != 0 ? rte_rdtsc() : 0;

	if (tsc < c->tsc0 || c->ns_per_tsc_q32 == 0)
		return sync_wall_ns();
	return c->ns0 + (uint64_t)(((unsigned __int128)(tsc - c->tsc0) *
				    c->ns_per_tsc_q32) >>
				   32);
}

uet_time_t uet_sync_rt_virtual_ps(const struct uet_sync_rt_clock *c,
				  uint64_t wall_ns)
{
	uint64_t d;

	if (wall_ns <= c->epoch_ns)
		return 0;
	d = wall_ns - c->epoch_ns;
	/* ns * 1000 overflows after 213 days of wall time: far past a run. */
	return d * UET_PS_PER_NS / c->dilation;
}

uint64_t uet_sync_rt_wall_ns(const struct uet_sync_rt_clock *c, uet_time_t t_ps)
{
	unsigned __int128 ns;

	if (t_ps == UET_TIME_NEVER)
		return UINT64_MAX;
	ns = ((unsigned __int128)t_ps * c->dilation + UET_PS_PER_NS - 1) /
	     UET_PS_PER_NS;
	ns += c->epoch_ns;
	return ns > UINT64_MAX ? UINT64_MAX : (uint64_t)ns;
}

static int rt_fail(struct uet_sync_realtime *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rt_fail(struct uet_sync_realtime *r, int err, const char *fmt, ...)
{
	va_list ap;

	if (r->error.err != 0)
		return r->error.err;
	r->error.err = err;
	va_start(ap, fmt);
	vsnprintf(r->error.text, sizeof(r->error.text), fmt, ap);
	va_end(ap);
	UET_LOG(ERROR, SYNC, "realtime: %s", r->error.text);
	return err;
}

static int rt_hold_push(struct rt_hold *h, struct rte_mbuf *m,
			uet_time_t release_ps)
{
	uint32_t i;

	if (h->len == h->cap) {
		uint32_t cap = h->cap == 0 ? RT_HOLD_CAP0 : h->cap * 2;
		struct rte_mbuf **nm = malloc(cap * sizeof(*nm));
		uet_time_t *nt = malloc(cap * sizeof(*nt));

		if (nm == NULL || nt == NULL) {
			free(nm);
			free(nt);
			rte_pktmbuf_free(m);
			return -ENOMEM;
		}
		for (i = 0; i < h->len; i++) {
			uint32_t j = (h->head + i) & (h->cap - 1);

			nm[i] = h->m[j];
			nt[i] = h->release_ps[j];
		}
		free(h->m);
		free(h->release_ps);
		h->m = nm;
		h->release_ps = nt;
		h->head = 0;
		h->cap = cap;
	}
	i = (h->head + h->len) & (h->cap - 1);
	h->m[i] = m;
	h->release_ps[i] = release_ps;
	h->len++;
	return 0;
}

static void rt_hold_fini(struct rt_hold *h)
{
	uint32_t i;

	for (i = 0; i < h->len; i++)
		rte_pktmbuf_free(h->m[(h->head + i) & (h->cap - 1)]);
	free(h->m);
	free(h->release_ps);
	memset(h, 0, sizeof(*h));
}

/* The component's out hook: the frame waits for its arrival time. */
static int rt_out(void *ctx, uint32_t port, struct rte_mbuf *m,
		  uet_time_t arrival_ps)
{
	struct uet_sync_realtime *r = ctx;
	int rc;

	if (r->error.err != 0) {
		rte_pktmbuf_free(m);
		return r->error.err;
	}
	if (port >= r->conf.n_ports) {
		rte_pktmbuf_free(m);
		return rt_fail(r, -EINVAL, "%s sent a frame on port %u of %u",
			       r->conf.component->name, port, r->conf.n_ports);
	}
	rc = rt_hold_push(&r->hold[port], m, arrival_ps);
	if (rc < 0)
		return rt_fail(r, rc, "%s: cannot hold a frame for port %s",
			       r->conf.component->name,
			       uet_port_name(r->ports[port]));
	return 0;
}

int uet_sync_realtime_create(struct uet_sync_realtime **rp,
			     const struct uet_sync_realtime_conf *conf)
{
	struct uet_sync_realtime *r;
	uint32_t i;

	if (rp == NULL || conf == NULL || conf->ports == NULL ||
	    conf->n_ports == 0 || conf->n_ports > UET_SYNC_PORTS_MAX ||
	    conf->component == NULL || conf->clock.dilation == 0)
		return -EINVAL;
	for (i = 0; i < conf->n_ports; i++)
		if (conf->ports[i] == NULL)
			return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	r->conf = *conf;
	if (r->conf.timeout_ms == 0)
		r->conf.timeout_ms = UET_SYNC_TIMEOUT_MS_DEFAULT;
	r->ports = calloc(conf->n_ports, sizeof(*r->ports));
	r->hold = calloc(conf->n_ports, sizeof(*r->hold));
	r->drops = calloc(conf->n_ports, sizeof(*r->drops));
	if (r->ports == NULL || r->hold == NULL || r->drops == NULL) {
		free(r->ports);
		free(r->hold);
		free(r->drops);
		free(r);
		return -ENOMEM;
	}
	memcpy(r->ports, conf->ports, conf->n_ports * sizeof(*r->ports));
	r->conf.ports = r->ports;
	uet_lateness_init(&r->stats.lateness);
	rt_tsc_init(&r->tsc);
	conf->component->out = rt_out;
	conf->component->out_ctx = r;
	/* Parts (a fabric of several switches) take late frames late. */
	conf->component->parts.realtime = true;
	*rp = r;
	return 0;
}

/*
 * Why a frame received on a realtime port is not the component's business
 * (docs/lockstep.md, "Realtime"), or UET_SYNC_DROP_KINDS when it is. Only
 * IPv4 with a sound header and MAC control (PFC pauses) reach the model:
 * a lockstep control frame comes from a peer in the other mode or an
 * earlier run (stale: a realtime run sends none), ARP or IPv6 from a
 * kernel is not the model's, and an IPv4 header cut short, with a total
 * length past the frame or a bad checksum, would be dropped by the model
 * anyway but counted there with no port to name. No frame has a lockstep
 * trailer to miss, so no_trailer stays 0.
 */
static enum uet_sync_drop rt_classify(const struct rte_mbuf *m)
{
	uint8_t buf[RT_IPV4_HDR_MAX_BYTES];
	struct uet_ipv4_hdr ip;
	const uint8_t *hdr;
	uint32_t rest, n;
	int type = uet_frame_mbuf_ethertype(m);

	if (type < 0)
		return UET_SYNC_DROP_TRUNCATED;
	if (type == UET_ETHERTYPE_MAC_CONTROL)
		return UET_SYNC_DROP_KINDS;
	if (type == UET_ETHERTYPE_LOCKSTEP)
		return UET_SYNC_DROP_STALE;
	if (type != UET_ETHERTYPE_IPV4)
		return UET_SYNC_DROP_ETHERTYPE;
	rest = rte_pktmbuf_pkt_len(m) - UET_ETH_HDR_BYTES;
	n = rest < sizeof(buf) ? rest : (uint32_t)sizeof(buf);
	/* The parser reads IHL * 4 bytes at most, and no more than rest:
	 * n covers both. */
	hdr = rte_pktmbuf_read(m, UET_ETH_HDR_BYTES, n, buf);
	if (hdr == NULL || uet_ipv4_parse(hdr, rest, &ip, NULL) < 0)
		return UET_SYNC_DROP_TRUNCATED;
	return UET_SYNC_DROP_KINDS;
}

/* Deliver one burst received on port i; false once the role failed. */
static bool rt_deliver_burst(struct uet_sync_realtime *r, uint32_t i,
			     struct rte_mbuf **pkts, uint16_t n,
			     uet_time_t now_ps)
{
	struct uet_component *comp = r->conf.component;
	enum uet_sync_drop why;
	uint16_t k;
	int rc;

	/* The headers of the frames ahead: a burst of 4 KiB frames the PMD
	 * just copied has left the first ones' lines behind in the cache. */
	for (k = 0; k < n && k < RT_RX_PREFETCH; k++)
		rte_prefetch0(rte_pktmbuf_mtod(pkts[k], void *));
	for (k = 0; k < n; k++) {
		uet_time_t at = now_ps;

		if (k + RT_RX_PREFETCH < n)
			rte_prefetch0(rte_pktmbuf_mtod(pkts[k + RT_RX_PREFETCH],
						       void *));
		why = rt_classify(pkts[k]);
		if (why != UET_SYNC_DROP_KINDS) {
			r->drops[i].n[why]++;
			r->stats.foreign_frames++;
			rte_pktmbuf_free(pkts[k]);
			continue;
		}
		/* The run has failed: the rest of the burst is not the
		 * model's any more, and not a drop of the port either. */
		if (r->error.err != 0) {
			rte_pktmbuf_free(pkts[k]);
			continue;
		}
		/* Never before what the component already ran. */
		if (at < uet_evq_now(&comp->evq))
			at = uet_evq_now(&comp->evq);
		r->stats.frames_rx++;
		rc = comp->deliver(comp, i, pkts[k], at);
		if (rc < 0)
			rt_fail(r, rc, "%s refused a frame from port %s: %s",
				comp->name, uet_port_name(r->ports[i]),
				strerror(-rc));
	}
	return r->error.err == 0;
}

/* What the ports received, stamped with the clock as it is read: each port
 * drained in bursts, up to RT_RX_POLL_MAX frames. */
static int rt_receive(struct uet_sync_realtime *r, uet_time_t now_ps)
{
	struct rte_mbuf *pkts[SYNC_RX_BURST];
	uint32_t i, got;
	uint16_t n;

	for (i = 0; i < r->conf.n_ports; i++) {
		got = 0;
		do {
			n = uet_port_rx_burst(r->ports[i], pkts, SYNC_RX_BURST);
			got += n;
			if (!rt_deliver_burst(r, i, pkts, n, now_ps))
				return r->error.err;
		} while (n == SYNC_RX_BURST && got < RT_RX_POLL_MAX);
	}
	return r->error.err;
}

/* Every event whose time has come, each counted by how late it starts. */
static int rt_run_events(struct uet_sync_realtime *r)
{
	struct uet_component *c = r->conf.component;
	struct uet_evq *q = &c->evq;

	/* A component in parts (a fabric of several switches) runs every
	 * event of the earliest instant in one window of its parts. */
	while (c->parts.n != 0) {
		uet_time_t t = uet_component_next_time(c);
		uet_time_t now_ps;
		int64_t ran;

		if (t == UET_TIME_NEVER || t >= r->conf.end_ps)
			return r->error.err;
		now_ps = uet_sync_rt_virtual_ps(&r->conf.clock,
						rt_tsc_now(&r->tsc));
		if (t > now_ps)
			return r->error.err;
		ran = uet_component_run_window(c, t, t + 1);
		if (ran < 0)
			return rt_fail(r, (int)ran,
				       "%s cannot run at %" PRIu64 " ps: %s",
				       c->name, t, strerror((int)-ran));
		for (; ran > 0; ran--) {
			uet_lateness_add(&r->stats.lateness, now_ps - t);
			r->stats.events++;
		}
		if (r->error.err != 0)
			return r->error.err;
	}
	for (;;) {
		uet_time_t t = uet_evq_next_time(q);
		uet_time_t now_ps;

		if (t == UET_TIME_NEVER || t >= r->conf.end_ps)
			return r->error.err;
		now_ps = uet_sync_rt_virtual_ps(&r->conf.clock,
						rt_tsc_now(&r->tsc));
		if (t > now_ps)
			return r->error.err;
		uet_lateness_add(&r->stats.lateness, now_ps - t);
		(void)uet_evq_run_one(q);
		r->stats.events++;
		if (r->error.err != 0)
			return r->error.err;
	}
}

/*
 * Offer port i the frames of its hold whose time has come, up to
 * RT_TX_BURST, as one burst. @return the frames offered (0: none due) and
 * in *sent those the port took, from the front.
 */
static uint16_t rt_send_burst(struct uet_sync_realtime *r, uint32_t i,
			      uet_time_t now_ps, uint16_t *sent)
{
	struct rte_mbuf *burst[RT_TX_BURST];
	struct rt_hold *h = &r->hold[i];
	uint16_t n = 0, k;

	while (n < h->len && n < RT_TX_BURST) {
		uint32_t j = (h->head + n) & (h->cap - 1);

		if (h->release_ps[j] > now_ps)
			break;
		burst[n++] = h->m[j];
	}
	*sent = n == 0 ? 0 : uet_port_tx_burst(r->ports[i], burst, n);
	for (k = 0; k < *sent; k++) {
		uint32_t j = (h->head + k) & (h->cap - 1);
		uet_time_t late = now_ps - h->release_ps[j];

		r->stats.tx_late_sum_ps += late;
		if (late > r->stats.tx_late_max_ps)
			r->stats.tx_late_max_ps = late;
	}
	h->head = (h->head + *sent) & (h->cap - 1);
	h->len -= *sent;
	r->stats.frames_tx += *sent;
	return n;
}

/* Frames whose time has come leave, in order, in bursts until none is due
 * or the port takes fewer than offered; what it does not take waits for
 * the next poll, for timeout_ms at most. */
static int rt_send(struct uet_sync_realtime *r, uet_time_t now_ps,
		   uint64_t now_ns)
{
	uint32_t i;

	for (i = 0; i < r->conf.n_ports; i++) {
		struct rt_hold *h = &r->hold[i];
		uint16_t n, sent;

		do
			n = rt_send_burst(r, i, now_ps, &sent);
		while (n > 0 && sent == n);
		if (n == 0 || sent > 0) {
			h->stall_since_ns = 0;
		} else if (h->stall_since_ns == 0) {
			h->stall_since_ns = now_ns;
		} else if (now_ns - h->stall_since_ns >
			   (uint64_t)r->conf.timeout_ms * 1000000u) {
			return rt_fail(r, -ETIMEDOUT,
				       "%s: port %s took no frame for %u ms",
				       r->conf.component->name,
				       uet_port_name(r->ports[i]),
				       r->conf.timeout_ms);
		}
	}
	return 0;
}

/* The wall time of the next thing to do: an event or a frame to send. */
static uint64_t rt_wake_ns(const struct uet_sync_realtime *r)
{
	uet_time_t t = uet_component_next_time(r->conf.component);
	uint32_t i;

	if (t >= r->conf.end_ps)
		t = UET_TIME_NEVER;
	for (i = 0; i < r->conf.n_ports; i++) {
		const struct rt_hold *h = &r->hold[i];

		if (h->len > 0 && h->release_ps[h->head] < t)
			t = h->release_ps[h->head];
	}
	if (t == UET_TIME_NEVER && r->conf.end_ps != UET_TIME_NEVER)
		t = r->conf.end_ps;
	return uet_sync_rt_wall_ns(&r->conf.clock, t);
}

int uet_sync_realtime_poll(struct uet_sync_realtime *r, uint64_t *wake_ns)
{
	uint64_t now_ns = rt_tsc_start(&r->tsc);
	uet_time_t now_ps;

	*wake_ns = UINT64_MAX;
	if (r->error.err != 0)
		return r->error.err;
	if (r->finished)
		return UET_SYNC_FINISHED;
	now_ps = uet_sync_rt_virtual_ps(&r->conf.clock, now_ns);
	r->stats.now_ps = now_ps;
	if (now_ns < r->conf.clock.epoch_ns) {
		/* Before the start: what comes is not of the run (no peer
		 * sends before the epoch), whatever it is: stale. */
		struct rte_mbuf *pkts[SYNC_RX_BURST];
		uint32_t i;
		uint16_t n;

		for (i = 0; i < r->conf.n_ports; i++) {
			n = uet_port_rx_burst(r->ports[i], pkts, SYNC_RX_BURST);
			r->drops[i].n[UET_SYNC_DROP_STALE] += n;
			r->stats.foreign_frames += n;
			rte_pktmbuf_free_bulk(pkts, n);
		}
		*wake_ns = r->conf.clock.epoch_ns;
		return UET_SYNC_RUNNING;
	}
	if (rt_receive(r, now_ps) < 0 || rt_run_events(r) < 0)
		return r->error.err;
	now_ns = rt_tsc_now(&r->tsc);
	now_ps = uet_sync_rt_virtual_ps(&r->conf.clock, now_ns);
	if (rt_send(r, now_ps, now_ns) < 0)
		return r->error.err;
	if (now_ps >= r->conf.end_ps) {
		r->stats.now_ps = r->conf.end_ps;
		r->finished = true;
		return UET_SYNC_FINISHED;
	}
	*wake_ns = rt_wake_ns(r);
	return UET_SYNC_RUNNING;
}

bool uet_sync_realtime_idle(const struct uet_sync_realtime *r)
{
	uint32_t i;

	if (uet_component_next_time(r->conf.component) < r->conf.end_ps)
		return false;
	for (i = 0; i < r->conf.n_ports; i++)
		if (r->hold[i].len > 0)
			return false;
	return true;
}

void uet_sync_realtime_stats(const struct uet_sync_realtime *r,
			     struct uet_sync_rt_stats *st)
{
	*st = r->stats;
}

void uet_sync_realtime_port_drops(const struct uet_sync_realtime *r, uint32_t i,
				  struct uet_sync_port_drops *d)
{
	if (i < r->conf.n_ports)
		*d = r->drops[i];
	else
		memset(d, 0, sizeof(*d));
}

uint64_t uet_sync_realtime_work(const struct uet_sync_realtime *r)
{
	return r->stats.frames_rx + r->stats.frames_tx + r->stats.events +
	       r->stats.foreign_frames;
}

const char *uet_sync_realtime_error(const struct uet_sync_realtime *r)
{
	return r->error.text;
}

void uet_sync_realtime_free(struct uet_sync_realtime *r)
{
	uint32_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->conf.n_ports; i++)
		rt_hold_fini(&r->hold[i]);
	free(r->hold);
	free(r->drops);
	free(r->ports);
	free(r);
}
