/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lockstep coordinator (the switch side, DESIGN.md section 3): HELLO
 * from every NIC, WELCOME, then windows [T, T') with T' = E + L: GRANT to
 * every NIC, the switch's own window while the NICs run theirs, the NICs'
 * frames handed to the switch once every DONE is in, and BYE when nothing
 * is pending before the end of the run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "sync_private.h"
#include "uet_log.h"
#include "uet_port.h"
#include "uet_rng.h"

/** Where the coordinator is in the run. */
enum co_state {
	CO_HELLO,    /**< waiting for HELLO from every NIC */
	CO_WAIT,     /**< window granted, waiting for every DONE */
	CO_BYE_WAIT, /**< BYE sent, waiting for every NIC's BYE */
	CO_FINISHED,
	CO_FAILED,
};

/** One port, one NIC behind it. */
struct co_port {
	struct uet_port *port;
	uint8_t mac[UET_ETH_ADDR_LEN];	    /**< the port's own */
	uint8_t peer_mac[UET_ETH_ADDR_LEN]; /**< the NIC's, from HELLO */
	bool hello;			    /**< HELLO received */
	bool done;			    /**< DONE of this window received */
	bool bye;			    /**< BYE received */
	uint16_t nic_id;		    /**< from HELLO */
	uint32_t ipv4;			    /**< from HELLO, host order */
	uint32_t tx_seq;		    /**< next control seq to send */
	uint32_t rx_seq;		    /**< last control seq received */
	uint32_t data_tx_since_grant;	    /**< data frames since GRANT */
	uint32_t data_rx_window;	    /**< data frames this window */
	uet_time_t next_event_ps;	    /**< from the last DONE */
	uint64_t heard_ns;		    /**< wall ns of the last frame */
	struct sync_txq txq;
	struct uet_sync_port_drops drops; /**< frames not for this run */
};

/** A data frame received in the window, waiting to be sorted. */
struct co_frame {
	uet_time_t arrival_ps; /**< ps, from the trailer */
	uint32_t port;	       /**< port index */
	uint32_t order;	       /**< position on its port in the window */
	struct rte_mbuf *m;
};

struct uet_sync_coordinator {
	struct uet_sync_coordinator_conf conf;
	struct co_port *ports;
	enum co_state state;
	uint64_t run_id;
	uint64_t nonce;
	uet_time_t window_start_ps; /**< T of the current window */
	uet_time_t window_end_ps;   /**< T' of the current window */
	uet_time_t min_sent_ps;	    /**< earliest arrival sent this window */
	struct co_frame *frames;    /**< this window's received data frames */
	uint32_t n_frames;
	uint32_t cap_frames;
	uint64_t start_ns;    /**< wall ns of the first poll */
	uint64_t run_ns;      /**< wall ns of the first GRANT, 0 before */
	uint64_t progress_ns; /**< wall ns of the last progress call */
	struct uet_sync_stats stats;
	struct sync_error error;
};

/* "nic 3 (198.18.0.4) on port ring_l3a", for messages. */
static const char *who(const struct co_port *p, char *buf, size_t len)
{
	char ip[16];

	if (!p->hello)
		snprintf(buf, len, "the NIC on port %s",
			 uet_port_name(p->port));
	else
		snprintf(buf, len, "nic %u (%s) on port %s", p->nic_id,
			 sync_ipv4_str(p->ipv4, ip), uet_port_name(p->port));
	return buf;
}

static int co_fail(struct uet_sync_coordinator *c, int err, uint32_t code,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int co_send_ctrl(struct uet_sync_coordinator *c, struct co_port *p,
			struct uet_ls_ctrl *ctrl)
{
	static const uint8_t bcast[UET_ETH_ADDR_LEN] = {0xff, 0xff, 0xff,
							0xff, 0xff, 0xff};
	struct rte_mbuf *m;

	ctrl->nic_id = p->nic_id;
	ctrl->run_id = c->run_id;
	ctrl->nonce = c->nonce;
	ctrl->seq = p->tx_seq++;
	m = sync_ctrl_mbuf(c->conf.pool, p->hello ? p->peer_mac : bcast, p->mac,
			   ctrl);
	if (m == NULL)
		return -ENOMEM;
	c->stats.ctrl_frames_tx++;
	return sync_txq_push(&p->txq, m);
}

/* Stop the run: drop what is queued, tell every NIC, remember why. */
static int co_fail(struct uet_sync_coordinator *c, int err, uint32_t code,
		   const char *fmt, ...)
{
	struct uet_ls_ctrl ctrl;
	va_list ap;
	uint32_t i;

	if (c->error.err != 0)
		return c->error.err;
	c->error.err = err;
	c->error.code = code;
	va_start(ap, fmt);
	vsnprintf(c->error.text, sizeof(c->error.text), fmt, ap);
	va_end(ap);
	UET_LOG(ERROR, SYNC, "lockstep: %s", c->error.text);
	c->state = CO_FAILED;
	for (i = 0; i < c->conf.n_ports; i++) {
		struct co_port *p = &c->ports[i];

		sync_txq_drop(&p->txq);
		memset(&ctrl, 0, sizeof(ctrl));
		sync_abort_fill(&ctrl, &c->error);
		/* Best effort: a NIC that never hears it times out. */
		if (co_send_ctrl(c, p, &ctrl) == 0)
			(void)sync_txq_flush(&p->txq, p->port, 0,
					     sync_wall_ns());
	}
	return err;
}

/* The switch component's out hook: trailer, queue, count. */
static int co_out(void *ctx, uint32_t port, struct rte_mbuf *m,
		  uet_time_t arrival_ps)
{
	struct uet_sync_coordinator *c = ctx;
	struct co_port *p;
	int rc;

	if (c->error.err != 0) {
		rte_pktmbuf_free(m);
		return c->error.err;
	}
	if (port >= c->conf.n_ports) {
		rte_pktmbuf_free(m);
		return co_fail(c, -EINVAL, UET_LS_ABORT_INTERNAL,
			       "%s sent a frame on port %u, it has %u",
			       c->conf.component->name, port, c->conf.n_ports);
	}
	p = &c->ports[port];
	if (arrival_ps < c->window_end_ps) {
		rte_pktmbuf_free(m);
		return co_fail(c, -ERANGE, UET_LS_ABORT_INTERNAL,
			       "%s sent a frame on port %s arriving at %" PRIu64
			       " ps, before the window end %" PRIu64
			       " ps: the lookahead of %" PRIu64 " ps is broken",
			       c->conf.component->name, uet_port_name(p->port),
			       arrival_ps, c->window_end_ps,
			       c->conf.lookahead_ps);
	}
	rc = uet_sync_trailer_append(m, arrival_ps);
	if (rc < 0) {
		rte_pktmbuf_free(m);
		return co_fail(c, rc, UET_LS_ABORT_INTERNAL,
			       "cannot put the trailer on a frame for port %s: "
			       "%s",
			       uet_port_name(p->port), strerror(-rc));
	}
	rc = sync_txq_push(&p->txq, m);
	if (rc < 0)
		return co_fail(c, rc, UET_LS_ABORT_INTERNAL,
			       "cannot queue a frame for port %s",
			       uet_port_name(p->port));
	p->data_tx_since_grant++;
	c->stats.data_frames_tx++;
	if (arrival_ps < c->min_sent_ps)
		c->min_sent_ps = arrival_ps;
	return 0;
}

int uet_sync_coordinator_create(struct uet_sync_coordinator **cp,
				const struct uet_sync_coordinator_conf *conf)
{
	struct uet_sync_coordinator *c;
	struct uet_rng rng;
	uint32_t i;

	if (cp == NULL || conf == NULL || conf->ports == NULL ||
	    conf->n_ports == 0 || conf->n_ports > UET_SYNC_PORTS_MAX ||
	    conf->component == NULL || conf->pool == NULL ||
	    conf->lookahead_ps == 0 || conf->end_ps <= conf->start_ps)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	c->ports = calloc(conf->n_ports, sizeof(*c->ports));
	if (c->ports == NULL) {
		free(c);
		return -ENOMEM;
	}
	c->conf = *conf;
	if (c->conf.timeout_ms == 0)
		c->conf.timeout_ms = UET_SYNC_TIMEOUT_MS_DEFAULT;
	if (c->conf.startup_timeout_ms == 0)
		c->conf.startup_timeout_ms =
			UET_SYNC_STARTUP_TIMEOUT_MS_DEFAULT;
	if (c->conf.progress_fn != NULL && c->conf.progress_interval_ms == 0)
		c->conf.progress_interval_ms = 1000;
	for (i = 0; i < conf->n_ports; i++) {
		struct uet_port_link link;

		c->ports[i].port = conf->ports[i];
		c->ports[i].next_event_ps = UET_TIME_NEVER;
		if (uet_port_link(conf->ports[i], &link) == 0)
			memcpy(c->ports[i].mac, link.mac.addr_bytes,
			       UET_ETH_ADDR_LEN);
	}
	/* The run's identity: it tells runs apart, it never changes results.
	 * 0 is what HELLO carries, so neither may be 0. */
	uet_rng_seed(&rng, conf->nonce_seed, 0x10c5);
	c->run_id = uet_rng_u64(&rng) | 1;
	c->nonce = uet_rng_u64(&rng) | 1;
	c->state = CO_HELLO;
	c->window_start_ps = conf->start_ps;
	c->window_end_ps = conf->start_ps;
	c->min_sent_ps = UET_TIME_NEVER;
	c->stats.now_ps = conf->start_ps;
	conf->component->out = co_out;
	conf->component->out_ctx = c;
	*cp = c;
	return 0;
}

/* A frame that is not this run's business: counted, dropped, never an
 * error (the port may face stacks that are not ours). */
static int co_drop(struct uet_sync_coordinator *c, struct co_port *p,
		   enum uet_sync_drop why)
{
	p->drops.n[why]++;
	c->stats.foreign_frames++;
	return 0;
}

static bool same_hello(const struct co_port *p, const struct uet_ls_ctrl *h)
{
	return h->nic_id == p->nic_id && h->u.hello.ipv4 == p->ipv4 &&
	       memcmp(h->u.hello.mac, p->peer_mac, UET_ETH_ADDR_LEN) == 0;
}

static int co_rx_hello(struct uet_sync_coordinator *c, struct co_port *p,
		       const struct uet_ls_ctrl *h)
{
	char name[128], ip[16];
	uint32_t i;

	if (c->state != CO_HELLO) {
		/* Only a repeat the NIC sent before WELCOME reached it, next
		 * in its sequence, belongs to this run; any other HELLO now
		 * is a NIC of another run (restarted, or a forger). */
		if (p->hello && same_hello(p, h) &&
		    h->u.hello.scenario_hash == c->conf.scenario_hash &&
		    h->seq == p->rx_seq + 1) {
			p->rx_seq = h->seq;
			return 0;
		}
		return co_drop(c, p, UET_SYNC_DROP_STALE);
	}
	if (p->hello) {
		/* A repeat (the NIC repeats HELLO until WELCOME comes). */
		if (same_hello(p, h) &&
		    h->u.hello.scenario_hash == c->conf.scenario_hash) {
			p->rx_seq = h->seq;
			return 0;
		}
		return co_fail(c, -EPROTO, UET_LS_ABORT_PROTOCOL,
			       "%s said HELLO again as nic %u (%s)",
			       who(p, name, sizeof(name)), h->nic_id,
			       sync_ipv4_str(h->u.hello.ipv4, ip));
	}
	if (h->u.hello.scenario_hash != c->conf.scenario_hash)
		return co_fail(c, -EINVAL, UET_LS_ABORT_SCENARIO_MISMATCH,
			       "nic %u (%s) on port %s loaded another scenario "
			       "(hash %016" PRIx64
			       ", the switch has %016" PRIx64 ")",
			       h->nic_id, sync_ipv4_str(h->u.hello.ipv4, ip),
			       uet_port_name(p->port), h->u.hello.scenario_hash,
			       c->conf.scenario_hash);
	for (i = 0; i < c->conf.n_ports; i++)
		if (c->ports[i].hello && c->ports[i].nic_id == h->nic_id)
			return co_fail(c, -EPROTO, UET_LS_ABORT_PROTOCOL,
				       "nic %u said HELLO on port %s and on "
				       "port %s",
				       h->nic_id,
				       uet_port_name(c->ports[i].port),
				       uet_port_name(p->port));
	p->hello = true;
	p->nic_id = h->nic_id;
	p->ipv4 = h->u.hello.ipv4;
	memcpy(p->peer_mac, h->u.hello.mac, UET_ETH_ADDR_LEN);
	p->rx_seq = h->seq;
	return 0;
}

static int co_rx_ctrl(struct uet_sync_coordinator *c, struct co_port *p,
		      struct rte_mbuf *m)
{
	const char *reason = "";
	struct uet_ls_ctrl h;
	char name[128];

	/* A control frame cut short or garbled is dropped: if it was the
	 * NIC's, the next one's sequence number tells (FRAME_LOSS), or the
	 * wait for it times out. */
	if (sync_ctrl_parse(m, &h, NULL, &reason) < 0)
		return co_drop(c, p, UET_SYNC_DROP_TRUNCATED);
	c->stats.ctrl_frames_rx++;
	if (h.type == UET_LS_HELLO)
		return co_rx_hello(c, p, &h);
	/* A NIC not yet welcomed knows no run id: its ABORT carries none. */
	if (h.type == UET_LS_ABORT && h.run_id == 0 && h.nonce == 0)
		goto aborted;
	if (!p->hello || h.run_id != c->run_id || h.nonce != c->nonce)
		return co_drop(c, p, UET_SYNC_DROP_STALE);
	if (h.nic_id != p->nic_id)
		return co_fail(c, -EPROTO, UET_LS_ABORT_PROTOCOL,
			       "%s from %s names nic %u",
			       uet_ls_type_name(h.type),
			       who(p, name, sizeof(name)), h.nic_id);
	if (h.seq != p->rx_seq + 1)
		return co_fail(c, -EIO, UET_LS_ABORT_FRAME_LOSS,
			       "control frame %u from %s follows %u: the host "
			       "lost control frames",
			       h.seq, who(p, name, sizeof(name)), p->rx_seq);
	p->rx_seq = h.seq;
	switch (h.type) {
	case UET_LS_DONE:
		if (c->state != CO_WAIT || p->done ||
		    h.u.done.window_end_ps != c->window_end_ps)
			break;
		if (h.u.done.data_frames > p->data_rx_window)
			return co_fail(c, -EIO, UET_LS_ABORT_FRAME_LOSS,
				       "%s put %u data frames on the link in "
				       "window [%" PRIu64 ", %" PRIu64
				       ") ps, %u arrived: the host lost "
				       "frames",
				       who(p, name, sizeof(name)),
				       h.u.done.data_frames, c->window_start_ps,
				       c->window_end_ps, p->data_rx_window);
		if (h.u.done.data_frames < p->data_rx_window)
			return co_fail(c, -EPROTO, UET_LS_ABORT_PROTOCOL,
				       "%s counted %u data frames in its DONE, "
				       "%u arrived",
				       who(p, name, sizeof(name)),
				       h.u.done.data_frames, p->data_rx_window);
		p->done = true;
		p->next_event_ps = h.u.done.next_event_ps;
		return 0;
	case UET_LS_BYE:
		if (c->state != CO_BYE_WAIT || p->bye)
			break;
		p->bye = true;
		return 0;
	case UET_LS_ABORT:
		goto aborted;
	default:
		break;
	}
	return co_fail(c, -EPROTO, UET_LS_ABORT_PROTOCOL,
		       "unexpected %s from %s (window [%" PRIu64 ", %" PRIu64
		       ") ps)",
		       uet_ls_type_name(h.type), who(p, name, sizeof(name)),
		       c->window_start_ps, c->window_end_ps);
aborted:
	return co_fail(c, -ECONNABORTED, h.u.abort.code,
		       "%s aborted the run (%s): %.*s",
		       who(p, name, sizeof(name)),
		       uet_ls_abort_code_name(h.u.abort.code),
		       (int)h.u.abort.text_len, h.u.abort.text);
}

static int co_rx_data(struct uet_sync_coordinator *c, struct co_port *p,
		      struct rte_mbuf *m)
{
	enum uet_sync_drop why;
	struct co_frame *f;
	uet_time_t arrival_ps;
	char name[128];

	if (sync_trailer_take(m, &arrival_ps, &why) < 0) {
		/* Not from a peer (a kernel's IPv6 chatter on a veth). */
		rte_pktmbuf_free(m);
		return co_drop(c, p, why);
	}
	if (c->state != CO_WAIT || p->done) {
		rte_pktmbuf_free(m);
		return co_fail(c, -EPROTO, UET_LS_ABORT_PROTOCOL,
			       "data frame from %s outside its window",
			       who(p, name, sizeof(name)));
	}
	if (arrival_ps < c->window_end_ps) {
		rte_pktmbuf_free(m);
		return co_fail(c, -ERANGE, UET_LS_ABORT_PROTOCOL,
			       "data frame from %s arrives at %" PRIu64
			       " ps, before the window end %" PRIu64
			       " ps: the lookahead is broken",
			       who(p, name, sizeof(name)), arrival_ps,
			       c->window_end_ps);
	}
	if (c->n_frames == c->cap_frames) {
		uint32_t cap = c->cap_frames ? c->cap_frames * 2 : 256;
		void *nf = realloc(c->frames, sizeof(*c->frames) * cap);

		if (nf == NULL) {
			rte_pktmbuf_free(m);
			return co_fail(c, -ENOMEM, UET_LS_ABORT_INTERNAL,
				       "out of memory for received frames");
		}
		c->frames = nf;
		c->cap_frames = cap;
	}
	f = &c->frames[c->n_frames++];
	f->arrival_ps = arrival_ps;
	f->port = (uint32_t)(p - c->ports);
	f->order = p->data_rx_window++;
	f->m = m;
	return 0;
}

static int co_rx(struct uet_sync_coordinator *c, uint64_t now_ns)
{
	struct rte_mbuf *pkts[SYNC_RX_BURST];
	uint32_t i;

	for (i = 0; i < c->conf.n_ports; i++) {
		struct co_port *p = &c->ports[i];
		uint16_t n = uet_port_rx_burst(p->port, pkts, SYNC_RX_BURST);
		uint64_t dropped = c->stats.foreign_frames;
		uint16_t k;

		if (n > 0)
			c->stats.rx_bursts++;
		for (k = 0; k < n; k++) {
			if (c->error.err != 0) {
				rte_pktmbuf_free(pkts[k]);
				continue;
			}
			if (sync_is_ctrl(pkts[k])) {
				co_rx_ctrl(c, p, pkts[k]);
				rte_pktmbuf_free(pkts[k]);
			} else {
				co_rx_data(c, p, pkts[k]);
			}
		}
		/* Only the run's own frames say the NIC is alive: a port
		 * that hears nothing but foreign frames still times out. */
		if (n > c->stats.foreign_frames - dropped)
			p->heard_ns = now_ns;
	}
	return c->error.err;
}

static int co_grant(struct uet_sync_coordinator *c, uint64_t now_ns)
{
	uint32_t i;
	int rc;

	for (i = 0; i < c->conf.n_ports; i++) {
		struct co_port *p = &c->ports[i];
		struct uet_ls_ctrl g;

		memset(&g, 0, sizeof(g));
		g.type = UET_LS_GRANT;
		g.u.grant.window_start_ps = c->window_start_ps;
		g.u.grant.window_end_ps = c->window_end_ps;
		g.u.grant.data_frames = p->data_tx_since_grant;
		rc = co_send_ctrl(c, p, &g);
		if (rc < 0)
			return co_fail(c, rc, UET_LS_ABORT_INTERNAL,
				       "cannot build GRANT for port %s",
				       uet_port_name(p->port));
		p->data_tx_since_grant = 0;
		p->data_rx_window = 0;
		p->done = false;
		p->heard_ns = now_ns;
	}
	c->stats.windows++;
	c->state = CO_WAIT;
	if (c->run_ns == 0)
		c->run_ns = now_ns;
	return 0;
}

static int co_broadcast(struct uet_sync_coordinator *c, uint8_t type,
			uint64_t now_ns)
{
	uint32_t i;
	int rc;

	for (i = 0; i < c->conf.n_ports; i++) {
		struct co_port *p = &c->ports[i];
		struct uet_ls_ctrl w;

		memset(&w, 0, sizeof(w));
		w.type = type;
		if (type == UET_LS_WELCOME) {
			w.u.welcome.scenario_hash = c->conf.scenario_hash;
			w.u.welcome.lookahead_ps = c->conf.lookahead_ps;
			w.u.welcome.start_ps = c->conf.start_ps;
		} else {
			w.u.bye.end_ps = c->window_end_ps;
		}
		rc = co_send_ctrl(c, p, &w);
		if (rc < 0)
			return co_fail(c, rc, UET_LS_ABORT_INTERNAL,
				       "cannot build %s for port %s",
				       uet_ls_type_name(type),
				       uet_port_name(p->port));
		p->heard_ns = now_ns;
	}
	return 0;
}

static uet_time_t add_sat(uet_time_t a, uet_time_t b)
{
	return a > UET_TIME_NEVER - b ? UET_TIME_NEVER : a + b;
}

/* Window ends at E + L, but never past the run's end, nor past the next
 * time the switch component needs a window to end (a link failure). */
static uet_time_t window_end(const struct uet_sync_coordinator *c,
			     uet_time_t start_ps, uet_time_t e)
{
	uet_time_t t = add_sat(e, c->conf.lookahead_ps);
	uet_time_t h = uet_component_horizon(c->conf.component, start_ps);

	if (h < t)
		t = h;
	return t < c->conf.end_ps ? t : c->conf.end_ps;
}

static int frame_cmp(const void *a, const void *b)
{
	const struct co_frame *x = a, *y = b;

	if (x->arrival_ps != y->arrival_ps)
		return x->arrival_ps < y->arrival_ps ? -1 : 1;
	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->order < y->order ? -1 : (x->order > y->order);
}

/*
 * The switch's window, run as soon as its GRANT is queued: the NICs run the
 * same window meanwhile. It needs no frame of theirs from it (those arrive
 * at or after its end), only those of earlier windows, delivered when
 * their DONEs came in. Its frames queue behind the GRANT, so a NIC takes
 * them after running the window, for the next one.
 */
static int co_run_switch(struct uet_sync_coordinator *c)
{
	struct uet_component *comp = c->conf.component;
	int64_t ran;
	int rc;

	c->min_sent_ps = UET_TIME_NEVER;
	ran = uet_component_run_window(comp, c->window_start_ps,
				       c->window_end_ps);
	if (c->error.err != 0)
		return c->error.err;
	if (ran < 0)
		return co_fail(c, (int)ran, UET_LS_ABORT_INTERNAL,
			       "%s cannot run to %" PRIu64 " ps", comp->name,
			       c->window_end_ps);
	c->stats.events += (uint64_t)ran;
	c->stats.now_ps = c->window_end_ps;
	if (c->conf.window_fn != NULL) {
		rc = c->conf.window_fn(c->conf.window_arg, c->window_end_ps);
		if (rc < 0)
			return co_fail(c, rc, UET_LS_ABORT_INTERNAL,
				       "%s failed in window [%" PRIu64
				       ", %" PRIu64 ") ps: %s",
				       comp->name, c->window_start_ps,
				       c->window_end_ps, strerror(-rc));
	}
	return 0;
}

/*
 * GRANT the window [window_start_ps, window_end_ps) to every NIC, on the
 * ports at once (the NICs start on it while the switch runs its own), then
 * run the switch's. A port that takes nothing is named by the poll's own
 * flush, after the timeout.
 */
static int co_open_window(struct uet_sync_coordinator *c, uint64_t now_ns)
{
	uint64_t t_ns;
	uint32_t i;
	int rc;

	rc = co_grant(c, now_ns);
	if (rc < 0)
		return rc;
	t_ns = sync_wall_ns();
	for (i = 0; i < c->conf.n_ports; i++)
		(void)sync_txq_flush(&c->ports[i].txq, c->ports[i].port,
				     c->conf.timeout_ms, t_ns);
	c->stats.wall_tx_ns += sync_wall_ns() - t_ns;
	return co_run_switch(c);
}

/* Every DONE is in: hand the switch the NICs' frames of the window in a
 * fixed order, then grant the next window or say BYE. */
static int co_finish_window(struct uet_sync_coordinator *c, uint64_t now_ns)
{
	struct uet_component *comp = c->conf.component;
	uet_time_t e;
	uint32_t i;
	int rc;

	if (c->n_frames > 1)
		qsort(c->frames, c->n_frames, sizeof(*c->frames), frame_cmp);
	for (i = 0; i < c->n_frames; i++) {
		struct co_frame *f = &c->frames[i];

		c->stats.data_frames_rx++;
		rc = comp->deliver(comp, f->port, f->m, f->arrival_ps);
		f->m = NULL;
		if (rc < 0 && c->error.err == 0) {
			for (i++; i < c->n_frames; i++)
				rte_pktmbuf_free(c->frames[i].m);
			c->n_frames = 0;
			return co_fail(c, rc, UET_LS_ABORT_INTERNAL,
				       "%s refused a frame: %s", comp->name,
				       strerror(-rc));
		}
	}
	c->n_frames = 0;

	/* E: the switch's next event (its own and the NICs' frames just
	 * handed over), the frames it sent in the window (the NICs take
	 * them after their DONE), every NIC's next event. */
	e = uet_component_next_time(comp);
	if (c->min_sent_ps < e)
		e = c->min_sent_ps;
	for (i = 0; i < c->conf.n_ports; i++)
		if (c->ports[i].next_event_ps < e)
			e = c->ports[i].next_event_ps;
	if (e == UET_TIME_NEVER || e >= c->conf.end_ps) {
		c->state = CO_BYE_WAIT;
		return co_broadcast(c, UET_LS_BYE, now_ns);
	}
	c->window_start_ps = c->window_end_ps;
	c->window_end_ps = window_end(c, c->window_start_ps, e);
	return co_open_window(c, now_ns);
}

static void co_progress(struct uet_sync_coordinator *c, uint64_t now_ns)
{
	struct uet_sync_progress pr;

	if (c->conf.progress_fn == NULL ||
	    now_ns - c->progress_ns <
		    (uint64_t)c->conf.progress_interval_ms * 1000000u)
		return;
	c->progress_ns = now_ns;
	pr.now_ps = c->stats.now_ps;
	pr.windows = c->stats.windows;
	pr.events = c->stats.events;
	pr.wall_ns = now_ns - c->start_ns;
	c->conf.progress_fn(c->conf.progress_arg, &pr);
}

/* Whether port p owes the coordinator a frame in the current state. */
static bool co_waiting_for(const struct uet_sync_coordinator *c,
			   const struct co_port *p)
{
	switch (c->state) {
	case CO_HELLO:
		return !p->hello;
	case CO_WAIT:
		return !p->done;
	case CO_BYE_WAIT:
		return !p->bye;
	default:
		return false;
	}
}

static const char *co_awaited(const struct uet_sync_coordinator *c)
{
	switch (c->state) {
	case CO_HELLO:
		return "HELLO";
	case CO_WAIT:
		return "DONE";
	default:
		return "BYE";
	}
}

int uet_sync_coordinator_poll(struct uet_sync_coordinator *c)
{
	uint64_t now_ns = sync_wall_ns(), t_ns;
	bool all = true, queued = false;
	uint32_t i;
	int rc;

	if (c->state == CO_FAILED)
		return c->error.err;
	if (c->state == CO_FINISHED)
		return UET_SYNC_FINISHED;
	if (c->start_ns == 0) {
		c->start_ns = now_ns;
		c->progress_ns = now_ns;
		for (i = 0; i < c->conf.n_ports; i++)
			c->ports[i].heard_ns = now_ns;
	}
	rc = co_rx(c, now_ns);
	t_ns = sync_wall_ns();
	if (c->run_ns != 0)
		c->stats.wall_rx_ns += t_ns - now_ns;
	if (rc < 0)
		return rc;

	for (i = 0; i < c->conf.n_ports; i++)
		if (co_waiting_for(c, &c->ports[i]))
			all = false;
	if (all) {
		/* The model's time is the branch's less the GRANTs' flush. */
		uint64_t tx0_ns = c->stats.wall_tx_ns;

		switch (c->state) {
		case CO_HELLO:
			rc = co_broadcast(c, UET_LS_WELCOME, now_ns);
			if (rc == 0) {
				c->window_end_ps = window_end(
					c, c->conf.start_ps, c->conf.start_ps);
				rc = co_open_window(c, now_ns);
			}
			c->stats.wall_model_ns +=
				sync_wall_ns() - t_ns -
				(c->stats.wall_tx_ns - tx0_ns);
			break;
		case CO_WAIT:
			rc = co_finish_window(c, now_ns);
			co_progress(c, now_ns);
			c->stats.wall_model_ns +=
				sync_wall_ns() - t_ns -
				(c->stats.wall_tx_ns - tx0_ns);
			break;
		case CO_BYE_WAIT:
			c->state = CO_FINISHED;
			break;
		default:
			break;
		}
		if (rc < 0)
			return rc;
	}

	t_ns = sync_wall_ns();
	for (i = 0; i < c->conf.n_ports; i++) {
		struct co_port *p = &c->ports[i];
		uint32_t wait_ms = c->state == CO_HELLO
					   ? c->conf.startup_timeout_ms
					   : c->conf.timeout_ms;
		char name[128];

		if (sync_txq_flush(&p->txq, p->port, c->conf.timeout_ms,
				   now_ns) < 0)
			return co_fail(c, -ETIMEDOUT, UET_LS_ABORT_PEER_TIMEOUT,
				       "%s took no frame for %u ms",
				       who(p, name, sizeof(name)),
				       c->conf.timeout_ms);
		if (p->txq.len > 0)
			queued = true;
		if (co_waiting_for(c, p) &&
		    now_ns - p->heard_ns > (uint64_t)wait_ms * 1000000u)
			return co_fail(
				c, -ETIMEDOUT, UET_LS_ABORT_PEER_TIMEOUT,
				"%s sent no %s for %u ms (window [%" PRIu64
				", %" PRIu64 ") ps)",
				who(p, name, sizeof(name)), co_awaited(c),
				wait_ms, c->window_start_ps, c->window_end_ps);
	}
	now_ns = sync_wall_ns();
	if (c->run_ns != 0) {
		c->stats.wall_tx_ns += now_ns - t_ns;
		c->stats.wall_io_ns = c->stats.wall_rx_ns + c->stats.wall_tx_ns;
		c->stats.wall_ns = now_ns - c->run_ns;
	}
	if (c->state == CO_FINISHED && queued) {
		/* BYE answered, but our last frames are still going out. */
		c->state = CO_BYE_WAIT;
		return UET_SYNC_RUNNING;
	}
	return c->state == CO_FINISHED ? UET_SYNC_FINISHED : UET_SYNC_RUNNING;
}

void uet_sync_coordinator_stats(const struct uet_sync_coordinator *c,
				struct uet_sync_stats *st)
{
	uint32_t i;

	*st = c->stats;
	for (i = 0; i < c->conf.n_ports; i++)
		st->tx_bursts += c->ports[i].txq.bursts;
}

void uet_sync_coordinator_port_drops(const struct uet_sync_coordinator *c,
				     uint32_t i, struct uet_sync_port_drops *d)
{
	if (i < c->conf.n_ports)
		*d = c->ports[i].drops;
	else
		memset(d, 0, sizeof(*d));
}

const char *uet_sync_coordinator_error(const struct uet_sync_coordinator *c)
{
	return c->error.text;
}

uint32_t uet_sync_coordinator_abort_code(const struct uet_sync_coordinator *c)
{
	return c->error.code;
}

void uet_sync_coordinator_free(struct uet_sync_coordinator *c)
{
	uint32_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->n_frames; i++)
		rte_pktmbuf_free(c->frames[i].m);
	for (i = 0; i < c->conf.n_ports; i++)
		sync_txq_fini(&c->ports[i].txq);
	free(c->frames);
	free(c->ports);
	free(c);
}
