/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lockstep participant (the NIC side, docs/lockstep.md): HELLO until
 * WELCOME, then for each GRANT(T, T'): check the data frames that came
 * before it, run the NIC's events before T', send its frames, DONE; BYE
 * ends the run, ABORT stops it.
 *
 * Its windows are the window engine's (sync_engine.h), as a follower: the
 * switch grants each one, so the agreement is GRANT (or BYE) and the vote
 * is DONE. The engine runs a granted window at once, where the GRANT is
 * read: the frames after it on the link are the switch's of that window,
 * for the next one.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "sync_participant_private.h"
#include "uet_log.h"
#include "uet_port.h"

int pa_send_ctrl(struct uet_sync_participant *p, struct uet_ls_ctrl *ctrl)
{
	struct rte_mbuf *m;

	ctrl->nic_id = p->conf.nic_id;
	ctrl->run_id = p->run_id;
	ctrl->nonce = p->nonce;
	ctrl->seq = p->tx_seq++;
	m = sync_ctrl_mbuf(p->conf.pool, p->switch_mac, p->conf.mac, ctrl);
	if (m == NULL)
		return -ENOMEM;
	p->stats.ctrl_frames_tx++;
	return sync_txq_push(&p->txq, m);
}

int pa_fail(struct uet_sync_participant *p, int err, uint32_t code,
	    const char *fmt, ...)
{
	struct uet_ls_ctrl ctrl;
	va_list ap;

	if (p->error.err != 0)
		return p->error.err;
	p->error.err = err;
	p->error.code = code;
	va_start(ap, fmt);
	vsnprintf(p->error.text, sizeof(p->error.text), fmt, ap);
	va_end(ap);
	UET_LOG(ERROR, SYNC, "lockstep: %s", p->error.text);
	p->state = PA_FAILED;
	sync_txq_drop(&p->txq);
	if (err == -ECONNABORTED)
		return err;
	memset(&ctrl, 0, sizeof(ctrl));
	sync_abort_fill(&ctrl, &p->error);
	if (pa_send_ctrl(p, &ctrl) == 0)
		(void)sync_txq_flush(&p->txq, p->conf.port, 0, sync_wall_ns());
	return err;
}

/* The NIC component's out hook: trailer, queue, count. */
static int pa_out(void *ctx, uint32_t port, struct rte_mbuf *m,
		  uet_time_t arrival_ps)
{
	struct uet_sync_participant *p = ctx;
	int rc;

	if (p->error.err != 0) {
		rte_pktmbuf_free(m);
		return p->error.err;
	}
	if (port != 0) {
		rte_pktmbuf_free(m);
		return pa_fail(p, -EINVAL, UET_LS_ABORT_INTERNAL,
			       "nic %u: %s sent a frame on port %u, it has "
			       "only port 0",
			       p->conf.nic_id, p->conf.component->name, port);
	}
	if (arrival_ps < p->window_end_ps) {
		rte_pktmbuf_free(m);
		return pa_fail(p, -ERANGE, UET_LS_ABORT_INTERNAL,
			       "nic %u: %s sent a frame arriving at %" PRIu64
			       " ps, before the window end %" PRIu64
			       " ps: the lookahead of %" PRIu64 " ps is broken",
			       p->conf.nic_id, p->conf.component->name,
			       arrival_ps, p->window_end_ps, p->lookahead_ps);
	}
	rc = uet_sync_trailer_append(m, arrival_ps);
	if (rc < 0) {
		rte_pktmbuf_free(m);
		return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
			       "nic %u: cannot put the trailer on a frame: %s",
			       p->conf.nic_id, strerror(-rc));
	}
	rc = sync_txq_push(&p->txq, m);
	if (rc < 0)
		return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
			       "nic %u: cannot queue a frame", p->conf.nic_id);
	p->data_tx_window++;
	p->stats.data_frames_tx++;
	return 0;
}

int uet_sync_participant_create(struct uet_sync_participant **pp,
				const struct uet_sync_participant_conf *conf)
{
	/* The switch grants the windows: no rule, no end of its own. */
	const struct sync_engine_conf ec = {.end_ps = UET_TIME_NEVER};
	struct uet_sync_participant *p;
	int rc;

	if (pp == NULL || conf == NULL || conf->port == NULL ||
	    conf->component == NULL || conf->pool == NULL ||
	    conf->wants_notes != (conf->notes_in_fn != NULL))
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	p->conf = *conf;
	if (p->conf.timeout_ms == 0)
		p->conf.timeout_ms = UET_SYNC_TIMEOUT_MS_DEFAULT;
	if (p->conf.startup_timeout_ms == 0)
		p->conf.startup_timeout_ms =
			UET_SYNC_STARTUP_TIMEOUT_MS_DEFAULT;
	/* Until WELCOME names the switch, frames go to broadcast. */
	memset(p->switch_mac, 0xff, UET_ETH_ADDR_LEN);
	rc = sync_engine_init(&p->eng, &pa_transport_ops, p, &ec);
	if (rc < 0) {
		free(p);
		return rc;
	}
	p->state = PA_START;
	conf->component->out = pa_out;
	conf->component->out_ctx = p;
	*pp = p;
	return 0;
}

static int pa_hello(struct uet_sync_participant *p, uint64_t now_ns)
{
	struct uet_ls_ctrl h;
	int rc;

	memset(&h, 0, sizeof(h));
	h.type = UET_LS_HELLO;
	h.u.hello.scenario_hash = p->conf.scenario_hash;
	h.u.hello.ipv4 = p->conf.ipv4;
	memcpy(h.u.hello.mac, p->conf.mac, UET_ETH_ADDR_LEN);
	h.u.hello.flags = p->conf.wants_notes ? UET_LS_HELLO_WANTS_NOTES : 0;
	rc = pa_send_ctrl(p, &h);
	if (rc < 0)
		return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
			       "nic %u: cannot build HELLO", p->conf.nic_id);
	p->hello_ns = now_ns;
	return 0;
}

/* GRANT(T, T'): check the count, then the engine runs the window. */
static int pa_grant(struct uet_sync_participant *p, const struct uet_ls_ctrl *g)
{
	const char *port = uet_port_name(p->conf.port);
	int rc;

	if (g->u.grant.window_start_ps != p->next_start_ps ||
	    g->u.grant.window_end_ps <= g->u.grant.window_start_ps ||
	    p->granted)
		return pa_fail(p, -EPROTO, UET_LS_ABORT_PROTOCOL,
			       "nic %u: GRANT [%" PRIu64 ", %" PRIu64
			       ") ps on port %s does not follow the window "
			       "ending at %" PRIu64 " ps",
			       p->conf.nic_id, g->u.grant.window_start_ps,
			       g->u.grant.window_end_ps, port,
			       p->next_start_ps);
	if (g->u.grant.data_frames > p->data_rx_since_grant)
		return pa_fail(p, -EIO, UET_LS_ABORT_FRAME_LOSS,
			       "nic %u: the switch put %u data frames on port "
			       "%s before GRANT [%" PRIu64 ", %" PRIu64
			       ") ps, %u arrived: the host lost frames",
			       p->conf.nic_id, g->u.grant.data_frames, port,
			       g->u.grant.window_start_ps,
			       g->u.grant.window_end_ps,
			       p->data_rx_since_grant);
	if (g->u.grant.data_frames < p->data_rx_since_grant)
		return pa_fail(
			p, -EPROTO, UET_LS_ABORT_PROTOCOL,
			"nic %u: GRANT on port %s counts %u data frames, "
			"%u arrived",
			p->conf.nic_id, port, g->u.grant.data_frames,
			p->data_rx_since_grant);
	/* The notes of the window run last, before the next one runs. */
	if (pa_notes_in(p) < 0)
		return p->error.err;
	p->data_rx_since_grant = 0;
	p->granted = true;
	p->grant_start_ps = g->u.grant.window_start_ps;
	p->grant_end_ps = g->u.grant.window_end_ps;
	rc = sync_engine_poll(&p->eng);
	return rc < 0 ? rc : 0;
}

/* A frame that is not this run's business: counted, dropped, never an
 * error (the port may face stacks that are not ours). */
static int pa_drop(struct uet_sync_participant *p, enum uet_sync_drop why)
{
	p->drops.n[why]++;
	p->stats.foreign_frames++;
	return 0;
}

static int pa_rx_ctrl(struct uet_sync_participant *p, struct rte_mbuf *m)
{
	const char *port = uet_port_name(p->conf.port);
	const char *reason = "";
	struct uet_ls_ctrl h;
	uint8_t src[UET_ETH_ADDR_LEN];
	int rc;

	/* A control frame cut short or garbled is dropped: if it was the
	 * switch's, the next one's sequence number tells (FRAME_LOSS). */
	if (sync_ctrl_parse(m, &h, src, &reason) < 0)
		return pa_drop(p, UET_SYNC_DROP_TRUNCATED);
	p->stats.ctrl_frames_rx++;
	if (h.type == UET_LS_ABORT &&
	    (p->state == PA_WAIT_WELCOME ||
	     (h.run_id == p->run_id && h.nonce == p->nonce)))
		return pa_fail(p, -ECONNABORTED, h.u.abort.code,
			       "nic %u: the switch aborted the run (%s): %.*s",
			       p->conf.nic_id,
			       uet_ls_abort_code_name(h.u.abort.code),
			       (int)h.u.abort.text_len, h.u.abort.text);
	/* Before WELCOME this run's switch has sent nothing else; once
	 * welcomed, a frame of another run id or nonce is from a switch of
	 * another run (or a forger): not ours to act on. */
	if (p->state == PA_WAIT_WELCOME
		    ? h.type != UET_LS_WELCOME
		    : h.run_id != p->run_id || h.nonce != p->nonce)
		return pa_drop(p, UET_SYNC_DROP_STALE);
	if (h.nic_id != p->conf.nic_id)
		return pa_fail(p, -EPROTO, UET_LS_ABORT_PROTOCOL,
			       "nic %u: %s on port %s is for nic %u",
			       p->conf.nic_id, uet_ls_type_name(h.type), port,
			       h.nic_id);
	if (p->state == PA_WAIT_WELCOME) {
		if (h.u.welcome.scenario_hash != p->conf.scenario_hash)
			return pa_fail(
				p, -EINVAL, UET_LS_ABORT_SCENARIO_MISMATCH,
				"nic %u: the switch on port %s runs "
				"another scenario (hash %016" PRIx64
				", this NIC has %016" PRIx64 ")",
				p->conf.nic_id, port, h.u.welcome.scenario_hash,
				p->conf.scenario_hash);
		p->run_id = h.run_id;
		p->nonce = h.nonce;
		p->rx_seq = h.seq;
		p->lookahead_ps = h.u.welcome.lookahead_ps;
		p->next_start_ps = h.u.welcome.start_ps;
		p->window_end_ps = h.u.welcome.start_ps;
		memcpy(p->switch_mac, src, UET_ETH_ADDR_LEN);
		p->state = PA_RUN;
		p->run_ns = sync_wall_ns();
		return 0;
	}
	if (h.seq != p->rx_seq + 1)
		return pa_fail(p, -EIO, UET_LS_ABORT_FRAME_LOSS,
			       "nic %u: control frame %u on port %s follows "
			       "%u: the host lost control frames",
			       p->conf.nic_id, h.seq, port, p->rx_seq);
	p->rx_seq = h.seq;
	if (p->state == PA_RUN && h.type == UET_LS_GRANT)
		return pa_grant(p, &h);
	if (p->state == PA_RUN && h.type == UET_LS_NOTES)
		return pa_rx_notes(p, &h);
	if (p->state == PA_RUN && h.type == UET_LS_BYE && !p->bye) {
		if (pa_notes_in(p) < 0)
			return p->error.err;
		p->bye = true;
		rc = sync_engine_poll(&p->eng);
		return rc < 0 ? rc : 0;
	}
	return pa_fail(p, -EPROTO, UET_LS_ABORT_PROTOCOL,
		       "nic %u: unexpected %s on port %s", p->conf.nic_id,
		       uet_ls_type_name(h.type), port);
}

static int pa_rx_data(struct uet_sync_participant *p, struct rte_mbuf *m)
{
	struct uet_component *comp = p->conf.component;
	const char *port = uet_port_name(p->conf.port);
	enum uet_sync_drop why;
	uet_time_t arrival_ps;
	uint64_t t0_ns;
	int rc;

	if (sync_trailer_take(m, &arrival_ps, &why) < 0) {
		rte_pktmbuf_free(m);
		return pa_drop(p, why);
	}
	if (p->state != PA_RUN) {
		rte_pktmbuf_free(m);
		return pa_fail(p, -EPROTO, UET_LS_ABORT_PROTOCOL,
			       "nic %u: data frame on port %s outside the run",
			       p->conf.nic_id, port);
	}
	if (arrival_ps < uet_evq_now(&comp->evq)) {
		rte_pktmbuf_free(m);
		return pa_fail(p, -ERANGE, UET_LS_ABORT_PROTOCOL,
			       "nic %u: data frame on port %s arrives at "
			       "%" PRIu64 " ps, the NIC is at %" PRIu64
			       " ps: the lookahead is broken",
			       p->conf.nic_id, port, arrival_ps,
			       uet_evq_now(&comp->evq));
	}
	p->data_rx_since_grant++;
	p->stats.data_frames_rx++;
	/* The link is FIFO and has one sender: arrival order is fixed. */
	t0_ns = sync_wall_ns();
	rc = comp->deliver(comp, 0, m, arrival_ps);
	p->model_ns += sync_wall_ns() - t0_ns;
	if (rc < 0 && p->error.err == 0)
		return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
			       "nic %u: %s refused a frame: %s", p->conf.nic_id,
			       comp->name, strerror(-rc));
	return p->error.err;
}

int uet_sync_participant_poll(struct uet_sync_participant *p)
{
	struct rte_mbuf *pkts[SYNC_RX_BURST];
	uint64_t now_ns = sync_wall_ns(), tx_ns, end_ns, model0_ns, dropped;
	uint64_t wait_ms;
	uint16_t n, k;
	int rc;

	switch (p->state) {
	case PA_FAILED:
		return p->error.err;
	case PA_FINISHED:
		return UET_SYNC_FINISHED;
	case PA_START:
		p->heard_ns = now_ns;
		p->state = PA_WAIT_WELCOME;
		if (pa_hello(p, now_ns) < 0)
			return p->error.err;
		break;
	default:
		break;
	}

	model0_ns = p->model_ns;
	n = uet_port_rx_burst(p->conf.port, pkts, SYNC_RX_BURST);
	dropped = p->stats.foreign_frames;
	if (n > 0)
		p->stats.rx_bursts++;
	for (k = 0; k < n; k++) {
		if (p->error.err != 0 || p->state == PA_BYE_FLUSH) {
			/* Nothing follows BYE in a run that ended well. */
			rte_pktmbuf_free(pkts[k]);
			continue;
		}
		if (sync_is_ctrl(pkts[k])) {
			pa_rx_ctrl(p, pkts[k]);
			rte_pktmbuf_free(pkts[k]);
		} else {
			pa_rx_data(p, pkts[k]);
		}
	}
	/* Only the run's own frames say the switch is alive: a port that
	 * hears nothing but foreign frames still times out. */
	if (n > p->stats.foreign_frames - dropped)
		p->heard_ns = now_ns;
	if (p->error.err != 0)
		return p->error.err;

	/* The switch may not be listening yet: say HELLO again. */
	if (p->state == PA_WAIT_WELCOME &&
	    now_ns - p->hello_ns >=
		    (uint64_t)UET_SYNC_HELLO_INTERVAL_MS * 1000000u &&
	    pa_hello(p, now_ns) < 0)
		return p->error.err;
	tx_ns = sync_wall_ns();
	rc = sync_txq_flush(&p->txq, p->conf.port, p->conf.timeout_ms, now_ns);
	/* What this poll spent outside the component: bursts, frames. */
	end_ns = sync_wall_ns();
	p->stats.wall_model_ns = p->model_ns;
	p->stats.tx_bursts = p->txq.bursts;
	if (p->run_ns != 0) {
		p->stats.wall_rx_ns +=
			tx_ns - now_ns - (p->model_ns - model0_ns);
		p->stats.wall_tx_ns += end_ns - tx_ns;
		p->stats.wall_io_ns = p->stats.wall_rx_ns + p->stats.wall_tx_ns;
		p->stats.wall_ns = end_ns - p->run_ns;
	}
	if (rc < 0)
		return pa_fail(p, -ETIMEDOUT, UET_LS_ABORT_PEER_TIMEOUT,
			       "nic %u: port %s took no frame for %u ms",
			       p->conf.nic_id, uet_port_name(p->conf.port),
			       p->conf.timeout_ms);
	if (p->state == PA_BYE_FLUSH) {
		if (p->txq.len == 0)
			p->state = PA_FINISHED;
		return p->state == PA_FINISHED ? UET_SYNC_FINISHED
					       : UET_SYNC_RUNNING;
	}
	wait_ms = p->state == PA_WAIT_WELCOME
			  ? p->conf.startup_timeout_ms
			  : UET_SYNC_NIC_WAIT_MS(p->conf.timeout_ms);
	if (now_ns - p->heard_ns > wait_ms * 1000000u) {
		return pa_fail(p, -ETIMEDOUT, UET_LS_ABORT_PEER_TIMEOUT,
			       "nic %u: the switch on port %s sent no %s for "
			       "%" PRIu64 " ms",
			       p->conf.nic_id, uet_port_name(p->conf.port),
			       p->state == PA_WAIT_WELCOME ? "WELCOME"
							   : "frame",
			       wait_ms);
	}
	return p->state == PA_FINISHED ? UET_SYNC_FINISHED : UET_SYNC_RUNNING;
}

bool uet_sync_participant_welcomed(const struct uet_sync_participant *p)
{
	return p->state != PA_START && p->state != PA_WAIT_WELCOME;
}

void uet_sync_participant_stats(const struct uet_sync_participant *p,
				struct uet_sync_stats *st)
{
	*st = p->stats;
}

void uet_sync_participant_port_drops(const struct uet_sync_participant *p,
				     struct uet_sync_port_drops *d)
{
	*d = p->drops;
}

const char *uet_sync_participant_error(const struct uet_sync_participant *p)
{
	return p->error.text;
}

uint32_t uet_sync_participant_abort_code(const struct uet_sync_participant *p)
{
	return p->error.code;
}

void uet_sync_participant_free(struct uet_sync_participant *p)
{
	if (p == NULL)
		return;
	sync_txq_fini(&p->txq);
	sync_bytes_fini(&p->notes_in);
	free(p);
}
