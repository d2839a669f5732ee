/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The participant's windows: lockstep frames on Ethernet ports as a
 * transport of the window engine (sync_engine.h), on a NIC's side, as a
 * follower: the switch grants each window.
 *
 *   start     WELCOME came;
 *   run       the granted window: the NIC's events before T', its frames
 *             out as they come;
 *   exchange  nothing (the link is FIFO: the frames went as they came);
 *   agree     the window's NOTES, then DONE(T', next, frames sent) is
 *             the vote, the switch's next GRANT (or BYE) the agreement;
 *   finish    BYE answered.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "sync_participant_private.h"

/* The engine's start: the handshake is over once WELCOME came. */
static int pa_start(void *ctx)
{
	const struct uet_sync_participant *p = ctx;

	return p->state == PA_RUN ? 0 : -EAGAIN;
}

/* The granted window: the NIC's events before T'. Its frames go out as
 * they come (pa_out). */
static int pa_run(void *ctx, const struct sync_window *w)
{
	struct uet_sync_participant *p = ctx;
	struct uet_component *comp = p->conf.component;
	uint64_t t0_ns;
	int64_t ran;
	int rc;

	p->window_end_ps = w->end_ps;
	t0_ns = sync_wall_ns();
	ran = uet_evq_run_until(&comp->evq, p->window_end_ps);
	if (p->error.err != 0)
		return p->error.err;
	if (ran < 0)
		return pa_fail(p, (int)ran, UET_LS_ABORT_INTERNAL,
			       "nic %u: %s cannot run to %" PRIu64 " ps",
			       p->conf.nic_id, comp->name, p->window_end_ps);
	p->stats.events += (uint64_t)ran;
	p->stats.windows++;
	p->stats.now_ps = p->window_end_ps;
	p->next_start_ps = p->window_end_ps;
	p->done_sent = false;
	if (p->conf.window_fn != NULL) {
		rc = p->conf.window_fn(p->conf.window_arg, p->window_end_ps);
		if (rc < 0)
			return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
				       "nic %u: %s failed in the window ending "
				       "at %" PRIu64 " ps: %s",
				       p->conf.nic_id, comp->name,
				       p->window_end_ps, strerror(-rc));
	}
	p->model_ns += sync_wall_ns() - t0_ns;
	return 0;
}

/* Nothing to hand over: the link carried the frames as they came. */
static int pa_exchange(void *ctx, const struct sync_window *w)
{
	(void)ctx;
	(void)w;
	return 0;
}

/* The vote is DONE(T', next, frames sent); the agreement, the switch's
 * next GRANT, or BYE. */
static int pa_agree(void *ctx, const struct sync_window *w, struct sync_vote *v)
{
	struct uet_sync_participant *p = ctx;
	struct uet_ls_ctrl d;
	int rc;

	if (w->end_ps != w->start_ps && !p->done_sent) {
		/* The window's notes go first: the switch has them all
		 * once the DONE is in. */
		rc = pa_notes_out(p);
		if (rc < 0)
			return rc;
		memset(&d, 0, sizeof(d));
		d.type = UET_LS_DONE;
		d.u.done.window_end_ps = p->window_end_ps;
		d.u.done.next_event_ps =
			uet_evq_next_time(&p->conf.component->evq);
		d.u.done.data_frames = p->data_tx_window;
		p->data_tx_window = 0;
		rc = pa_send_ctrl(p, &d);
		if (rc < 0)
			return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
				       "nic %u: cannot build DONE",
				       p->conf.nic_id);
		p->done_sent = true;
	}
	if (p->granted) {
		p->granted = false;
		v->given_start_ps = p->grant_start_ps;
		v->given_end_ps = p->grant_end_ps;
		return 0;
	}
	if (p->bye) {
		v->next_ps = UET_TIME_NEVER;
		v->given_end_ps = 0;
		return 0;
	}
	return -EAGAIN;
}

/* BYE came: answer it, and let the last frames go out. */
static int pa_finish(void *ctx, const struct sync_window *last)
{
	struct uet_sync_participant *p = ctx;
	struct uet_ls_ctrl b;
	int rc;

	(void)last;
	memset(&b, 0, sizeof(b));
	b.type = UET_LS_BYE;
	b.u.bye.end_ps = p->window_end_ps;
	rc = pa_send_ctrl(p, &b);
	if (rc < 0)
		return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
			       "nic %u: cannot build BYE", p->conf.nic_id);
	p->state = PA_BYE_FLUSH;
	return 0;
}

const struct sync_transport_ops pa_transport_ops = {
	.name = "ports",
	.follower = true,
	.start = pa_start,
	.run = pa_run,
	.exchange = pa_exchange,
	.agree = pa_agree,
	.finish = pa_finish,
};
