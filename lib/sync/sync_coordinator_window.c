/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The coordinator's windows: lockstep frames on Ethernet ports as a
 * transport of the window engine (sync_engine.h), on the switch's side.
 *
 *   start     every NIC's HELLO in, WELCOME to each;
 *   run       GRANT(T, T') to every NIC, on the ports at once, then the
 *             switch's own window while the NICs run theirs;
 *   exchange  every DONE in: the NICs' frames of the window handed to
 *             the switch in the delivery order, the window's notes
 *             joined, handed over and sent to the ports that asked;
 *   agree     E from the switch, the frames it sent (the NICs take them
 *             after their DONE, so no DONE reports them) and the DONEs;
 *   finish    BYE to every NIC, and every NIC's BYE back.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_mbuf.h>

#include "sync_coordinator_private.h"
#include "uet_port.h"

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

/* Every HELLO in: WELCOME, and the windows may start. */
static int co_start(void *ctx)
{
	struct uet_sync_coordinator *c = ctx;
	uint32_t i;

	for (i = 0; i < c->conf.n_ports; i++)
		if (!c->ports[i].hello)
			return -EAGAIN;
	return co_broadcast(c, UET_LS_WELCOME, c->poll_ns);
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

	co_lanes_reset(c);
	ran = c->team != NULL
		      ? sync_team_run_window(c->team, c->window_start_ps,
					     c->window_end_ps)
		      : uet_component_run_window(comp, c->window_start_ps,
						 c->window_end_ps);
	rc = co_lanes_merge(c);
	if (rc < 0)
		return rc;
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
 * GRANT the window to every NIC, on the ports at once (the NICs start on
 * it while the switch runs its own), then run the switch's. A port that
 * takes nothing is named by the poll's own flush, after the timeout.
 */
static int co_run(void *ctx, const struct sync_window *w)
{
	struct uet_sync_coordinator *c = ctx;
	uint64_t t0_ns = sync_wall_ns(), tx0_ns = c->stats.wall_tx_ns, t_ns;
	uint32_t i;
	int rc;

	c->window_start_ps = w->start_ps;
	c->window_end_ps = w->end_ps;
	rc = co_grant(c, c->poll_ns);
	if (rc < 0)
		return rc;
	t_ns = sync_wall_ns();
	for (i = 0; i < c->conf.n_ports; i++)
		(void)sync_txq_flush(&c->ports[i].txq, c->ports[i].port,
				     c->conf.timeout_ms, t_ns);
	c->stats.wall_tx_ns += sync_wall_ns() - t_ns;
	rc = co_run_switch(c);
	/* The model's time is the step's less the GRANTs' flush. */
	c->stats.wall_model_ns +=
		sync_wall_ns() - t0_ns - (c->stats.wall_tx_ns - tx0_ns);
	return rc;
}

/* Every DONE in: hand the switch the NICs' frames of the window in the
 * delivery order. */
static int co_exchange(void *ctx, const struct sync_window *w)
{
	struct uet_sync_coordinator *c = ctx;
	struct uet_component *comp = c->conf.component;
	uint64_t t0_ns;
	uint32_t i;
	int rc;

	(void)w;
	for (i = 0; i < c->conf.n_ports; i++)
		if (!c->ports[i].done)
			return -EAGAIN;
	t0_ns = sync_wall_ns();
	sync_deliver_order(c->frames, c->n_frames, c->frames_tmp);
	for (i = 0; i < c->n_frames; i++) {
		struct uet_xframe *f = &c->frames[i];

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
	c->stats.wall_model_ns += sync_wall_ns() - t0_ns;
	/* The window's notes, queued ahead of the next GRANT or BYE. */
	return co_notes_pass(c);
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
	pr.model_ns = c->eng.run_ns;
	pr.sync_ns = c->eng.sync_ns;
	c->conf.progress_fn(c->conf.progress_arg, &pr);
}

/* E: the switch's next event (its own and the NICs' frames just handed
 * over), the frames it sent in the window, every NIC's next event. */
static int co_agree(void *ctx, const struct sync_window *w, struct sync_vote *v)
{
	struct uet_sync_coordinator *c = ctx;
	uet_time_t e = uet_component_next_time(c->conf.component);
	uint32_t i;

	(void)w;
	if (c->min_sent_ps < e)
		e = c->min_sent_ps;
	for (i = 0; i < c->conf.n_ports; i++)
		if (c->ports[i].next_event_ps < e)
			e = c->ports[i].next_event_ps;
	v->next_ps = e;
	co_progress(c, c->poll_ns);
	return 0;
}

/* Nothing is pending before the end: BYE to every NIC, then wait for
 * each one's. */
static int co_finish(void *ctx, const struct sync_window *last)
{
	struct uet_sync_coordinator *c = ctx;
	uint32_t i;
	int rc;

	(void)last;
	if (c->state != CO_BYE_WAIT) {
		c->state = CO_BYE_WAIT;
		rc = co_broadcast(c, UET_LS_BYE, c->poll_ns);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < c->conf.n_ports; i++)
		if (!c->ports[i].bye)
			return -EAGAIN;
	return 0;
}

const struct sync_transport_ops co_transport_ops = {
	.name = "ports",
	.start = co_start,
	.run = co_run,
	.exchange = co_exchange,
	.agree = co_agree,
	.finish = co_finish,
};
