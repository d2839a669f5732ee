/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The window engine (sync_engine.h): the steps of each window in order,
 * through the transport's ops, and the rule that makes the windows.
 *
 * Why a window is safe (docs/lockstep.md, "Windows"): everything produced
 * in a window happens at or after E, the least pending event anywhere,
 * and reaches another share at least L later, at or after T' = E + L. So
 * no share needs, for its window, what another sends in the same window,
 * and all of them run it at once. The horizon (a link failing) and the
 * run's end cut a window short; never the other way.
 */
#include <errno.h>

#include "sync_engine.h"
#include "sync_private.h"
#include "uet_sync.h"
#include "uet_xring.h"

uet_time_t sync_window_end(uet_time_t e_ps, uet_time_t lookahead_ps,
			   uet_time_t horizon_ps, uet_time_t end_ps)
{
	uet_time_t t = e_ps > UET_TIME_NEVER - lookahead_ps
			       ? UET_TIME_NEVER
			       : e_ps + lookahead_ps;

	if (horizon_ps < t)
		t = horizon_ps;
	return t < end_ps ? t : end_ps;
}

void sync_deliver_order(struct uet_xframe *f, uint32_t n,
			struct uet_xframe *scratch)
{
	if (n > 1)
		uet_xframe_sort(f, n, scratch);
}

int sync_engine_init(struct sync_engine *eng,
		     const struct sync_transport_ops *ops, void *ctx,
		     const struct sync_engine_conf *conf)
{
	if (eng == NULL || ops == NULL || conf == NULL || ops->run == NULL ||
	    ops->exchange == NULL || ops->agree == NULL)
		return -EINVAL;
	/* A follower is given its windows: it needs no rule of its own. */
	if (!ops->follower &&
	    (conf->lookahead_ps == 0 || conf->end_ps <= conf->start_ps))
		return -EINVAL;
	*eng = (struct sync_engine){
		.ops = ops,
		.ctx = ctx,
		.conf = *conf,
		.step = SYNC_STEP_START,
		.win = {.start_ps = conf->start_ps, .end_ps = conf->start_ps},
	};
	return 0;
}

/* The window after eng->win, from the agreement; false when there is
 * none (nothing pending before the run's end). */
static bool engine_next(struct sync_engine *eng, const struct sync_vote *v)
{
	uet_time_t start = eng->win.end_ps, end;

	if (v->given_end_ps != 0) {
		start = v->given_start_ps;
		end = v->given_end_ps;
	} else {
		if (v->next_ps == UET_TIME_NEVER ||
		    v->next_ps >= eng->conf.end_ps)
			return false;
		end = sync_window_end(
			v->next_ps, eng->conf.lookahead_ps,
			eng->conf.horizon != NULL
				? uet_component_horizon(eng->conf.horizon,
							start)
				: UET_TIME_NEVER,
			eng->conf.end_ps);
	}
	eng->win.start_ps = start;
	eng->win.end_ps = end;
	return true;
}

/* The first window: nothing is known yet of the shares' events, so E is
 * the start (a follower's comes with its first agreement). */
static void engine_first(struct sync_engine *eng)
{
	const struct sync_vote v = {.next_ps = eng->conf.start_ps};

	eng->win.end_ps = eng->conf.start_ps;
	(void)engine_next(eng, &v);
}

/* Account the step that just ended: the run is model work, the rest is
 * keeping the shares together. */
static void engine_time(struct sync_engine *eng, bool model)
{
	const uint64_t now = sync_wall_ns();

	if (model)
		eng->run_ns += now - eng->step_ns;
	else
		eng->sync_ns += now - eng->step_ns;
	eng->step_ns = now;
}

static int engine_fail(struct sync_engine *eng, int rc)
{
	eng->step = SYNC_STEP_FAILED;
	eng->err = rc;
	return rc;
}

int sync_engine_poll(struct sync_engine *eng)
{
	const struct sync_transport_ops *ops = eng->ops;
	int rc;

	for (;;) {
		switch (eng->step) {
		case SYNC_STEP_START:
			rc = ops->start != NULL ? ops->start(eng->ctx) : 0;
			if (rc == -EAGAIN)
				return UET_SYNC_RUNNING;
			if (rc < 0)
				return engine_fail(eng, rc);
			eng->step_ns = sync_wall_ns();
			if (ops->follower) {
				eng->step = SYNC_STEP_AGREE;
				break;
			}
			engine_first(eng);
			eng->step = SYNC_STEP_RUN;
			break;
		case SYNC_STEP_RUN:
			rc = ops->run(eng->ctx, &eng->win);
			if (rc == -EAGAIN)
				return UET_SYNC_RUNNING;
			engine_time(eng, true);
			if (rc < 0)
				return engine_fail(eng, rc);
			eng->windows++;
			eng->step = SYNC_STEP_EXCHANGE;
			break;
		case SYNC_STEP_EXCHANGE:
			rc = ops->exchange(eng->ctx, &eng->win);
			if (rc == -EAGAIN)
				return UET_SYNC_RUNNING;
			if (rc < 0) {
				engine_time(eng, false);
				return engine_fail(eng, rc);
			}
			eng->step = SYNC_STEP_AGREE;
			break;
		case SYNC_STEP_AGREE:
			if (!eng->voting)
				eng->vote = (struct sync_vote){
					.next_ps = UET_TIME_NEVER};
			eng->voting = true;
			rc = ops->agree(eng->ctx, &eng->win, &eng->vote);
			if (rc == -EAGAIN)
				return UET_SYNC_RUNNING;
			eng->voting = false;
			engine_time(eng, false);
			if (rc < 0)
				return engine_fail(eng, rc);
			if (!engine_next(eng, &eng->vote)) {
				eng->step = SYNC_STEP_FINISH;
				break;
			}
			eng->win.seq = eng->windows;
			eng->step = SYNC_STEP_RUN;
			break;
		case SYNC_STEP_FINISH:
			rc = ops->finish != NULL
				     ? ops->finish(eng->ctx, &eng->win)
				     : 0;
			if (rc == -EAGAIN)
				return UET_SYNC_RUNNING;
			if (rc < 0)
				return engine_fail(eng, rc);
			eng->step = SYNC_STEP_FINISHED;
			return UET_SYNC_FINISHED;
		case SYNC_STEP_FINISHED:
			return UET_SYNC_FINISHED;
		default:
			return eng->err;
		}
	}
}
