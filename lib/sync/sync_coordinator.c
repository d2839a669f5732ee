/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lockstep coordinator (the switch side, docs/lockstep.md), its
 * ports: control and data frames in and out, the per-port queues, the
 * waits bounded by the timeouts. Its windows are the window engine's
 * (sync_engine.h), through the ops of sync_coordinator_window.c: HELLO
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

#include "sync_coordinator_private.h"
#include "uet_log.h"
#include "uet_port.h"
#include "uet_rng.h"

const char *co_who(const struct co_port *p, char *buf, size_t len)
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

int co_send_ctrl(struct uet_sync_coordinator *c, struct co_port *p,
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

int co_fail(struct uet_sync_coordinator *c, int err, uint32_t code,
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

int uet_sync_coordinator_create(struct uet_sync_coordinator **cp,
				const struct uet_sync_coordinator_conf *conf)
{
	struct uet_sync_coordinator *c;
	struct sync_engine_conf ec;
	struct uet_rng rng;
	uint32_t i;
	int rc;

	if (cp == NULL || conf == NULL || conf->ports == NULL ||
	    conf->n_ports == 0 || conf->n_ports > UET_SYNC_PORTS_MAX ||
	    conf->component == NULL || conf->pool == NULL ||
	    conf->lookahead_ps == 0 || conf->end_ps <= conf->start_ps ||
	    conf->notes_window_max_bytes > UET_SYNC_NOTES_WINDOW_MAX_BYTES)
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
	c->n_lanes = conf->lcores > 1 ? conf->lcores : 1;
	c->lanes = calloc(c->n_lanes, sizeof(*c->lanes));
	if (c->lanes == NULL) {
		free(c->ports);
		free(c);
		return -ENOMEM;
	}
	ec = (struct sync_engine_conf){
		.lookahead_ps = conf->lookahead_ps,
		.start_ps = conf->start_ps,
		.end_ps = conf->end_ps,
		.horizon = conf->component,
	};
	if (c->conf.timeout_ms == 0)
		c->conf.timeout_ms = UET_SYNC_TIMEOUT_MS_DEFAULT;
	if (c->conf.startup_timeout_ms == 0)
		c->conf.startup_timeout_ms =
			UET_SYNC_STARTUP_TIMEOUT_MS_DEFAULT;
	if (c->conf.notes_window_max_bytes == 0)
		c->conf.notes_window_max_bytes =
			UET_SYNC_NOTES_WINDOW_MAX_BYTES;
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
	rc = sync_engine_init(&c->eng, &co_transport_ops, c, &ec);
	/* The switch's parts on the lcores asked for, side by side. */
	if (rc == 0 && c->n_lanes > 1)
		rc = sync_team_create(&c->team, conf->component, c->n_lanes);
	if (rc < 0) {
		uet_sync_coordinator_free(c);
		return rc;
	}
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
			       co_who(p, name, sizeof(name)), h->nic_id,
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
	p->wants_notes = (h->u.hello.flags & UET_LS_HELLO_WANTS_NOTES) != 0;
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
			       co_who(p, name, sizeof(name)), h.nic_id);
	if (h.seq != p->rx_seq + 1)
		return co_fail(c, -EIO, UET_LS_ABORT_FRAME_LOSS,
			       "control frame %u from %s follows %u: the host "
			       "lost control frames",
			       h.seq, co_who(p, name, sizeof(name)), p->rx_seq);
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
				       co_who(p, name, sizeof(name)),
				       h.u.done.data_frames, c->window_start_ps,
				       c->window_end_ps, p->data_rx_window);
		if (h.u.done.data_frames < p->data_rx_window)
			return co_fail(c, -EPROTO, UET_LS_ABORT_PROTOCOL,
				       "%s counted %u data frames in its DONE, "
				       "%u arrived",
				       co_who(p, name, sizeof(name)),
				       h.u.done.data_frames, p->data_rx_window);
		p->done = true;
		p->next_event_ps = h.u.done.next_event_ps;
		return 0;
	case UET_LS_NOTES:
		return co_rx_notes(c, p, &h);
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
		       uet_ls_type_name(h.type), co_who(p, name, sizeof(name)),
		       c->window_start_ps, c->window_end_ps);
aborted:
	return co_fail(c, -ECONNABORTED, h.u.abort.code,
		       "%s aborted the run (%s): %.*s",
		       co_who(p, name, sizeof(name)),
		       uet_ls_abort_code_name(h.u.abort.code),
		       (int)h.u.abort.text_len, h.u.abort.text);
}

static int co_rx_data(struct uet_sync_coordinator *c, struct co_port *p,
		      struct rte_mbuf *m)
{
	enum uet_sync_drop why;
	struct uet_xframe *f;
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
			       co_who(p, name, sizeof(name)));
	}
	if (arrival_ps < c->window_end_ps) {
		rte_pktmbuf_free(m);
		return co_fail(c, -ERANGE, UET_LS_ABORT_PROTOCOL,
			       "data frame from %s arrives at %" PRIu64
			       " ps, before the window end %" PRIu64
			       " ps: the lookahead is broken",
			       co_who(p, name, sizeof(name)), arrival_ps,
			       c->window_end_ps);
	}
	if (c->n_frames == c->cap_frames) {
		uint32_t cap = c->cap_frames ? c->cap_frames * 2 : 256;
		void *nf = realloc(c->frames, sizeof(*c->frames) * cap);
		void *nt = nf == NULL ? NULL
				      : realloc(c->frames_tmp,
						sizeof(*c->frames_tmp) * cap);

		if (nf != NULL)
			c->frames = nf;
		if (nt == NULL) {
			rte_pktmbuf_free(m);
			return co_fail(c, -ENOMEM, UET_LS_ABORT_INTERNAL,
				       "out of memory for received frames");
		}
		c->frames_tmp = nt;
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
	bool queued = false;
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
	c->poll_ns = now_ns;
	rc = co_rx(c, now_ns);
	t_ns = sync_wall_ns();
	if (c->run_ns != 0)
		c->stats.wall_rx_ns += t_ns - now_ns;
	if (rc < 0)
		return rc;

	/* The window engine takes whatever step the frames in allow. */
	rc = sync_engine_poll(&c->eng);
	if (rc < 0)
		return rc;
	if (rc == UET_SYNC_FINISHED)
		c->state = CO_FINISHED;

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
				       co_who(p, name, sizeof(name)),
				       c->conf.timeout_ms);
		if (p->txq.len > 0)
			queued = true;
		if (co_waiting_for(c, p) &&
		    now_ns - p->heard_ns > (uint64_t)wait_ms * 1000000u)
			return co_fail(
				c, -ETIMEDOUT, UET_LS_ABORT_PEER_TIMEOUT,
				"%s sent no %s for %u ms (window [%" PRIu64
				", %" PRIu64 ") ps)",
				co_who(p, name, sizeof(name)), co_awaited(c),
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
	sync_team_free(c->team);
	for (i = 0; i < c->n_frames; i++)
		rte_pktmbuf_free(c->frames[i].m);
	for (i = 0; i < c->conf.n_ports; i++)
		sync_txq_fini(&c->ports[i].txq);
	co_notes_fini(c);
	free(c->frames);
	free(c->frames_tmp);
	free(c->ports);
	free(c->lanes);
	free(c);
}
