/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * NSCC of a PDC group (cc-and-multipath 1.1 and 1.2): a window moved by the
 * queueing delay of ACK samples (sample - base RTT), the ECN echo (the ACK's
 * M flag), trims and timeouts. Four quadrants on every ACK: no ECN and delay
 * at or above target, fair increase; no ECN and delay below target,
 * proportional (or fast) increase; ECN and delay at or above target,
 * multiplicative decrease; ECN below target, nothing. Quick adapt first
 * cuts the window to what the group achieved when the path collapsed.
 *
 * Integers only. Gains and ratios are parts per million (ppm); the pending
 * increase is in bytes^2 (divided by the window when applied, so it adds
 * "per window acked"); products go through a 128-bit intermediate and are
 * rounded down. docs/congestion-control.md lists every choice.
 */
#include <errno.h>

#include "cc_private.h"

#define PPM UET_CC_PPM
/* The reference network of the scaling factors: 100 Gb/s, 12 us. */
#define REF_BDP_BYTES UINT64_C(150000)
#define REF_RTT_PS UINT64_C(12000000)
#define PS_PER_S_X8 UINT64_C(8000000000000) /* bits -> bytes, s -> ps */

/* a * b / c, rounded down, without overflow of the product. */
static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 p = (unsigned __int128)a * b;

	p /= c;
	return p > UINT64_MAX ? UINT64_MAX : (uint64_t)p;
}

static uint64_t max_window_for(const struct uet_cc_params *p, uet_time_t rtt_ps)
{
	uint64_t bdp = mul_div(p->data_rate_bps, rtt_ps, PS_PER_S_X8);
	uint64_t w = bdp + bdp / 2;

	return w < p->mtu_nominal_bytes ? p->mtu_nominal_bytes : w;
}

int uet_nscc_derive(const struct uet_cc_params *p, struct uet_nscc_derived *d)
{
	uint64_t rtt = p->initial_base_rtt_ps, mtu = p->mtu_nominal_bytes;
	uet_time_t tq;

	if (p->data_rate_bps == 0 || rtt == 0 || mtu == 0)
		return -EINVAL;
	tq = p->nscc_target_qdelay_ps;
	if (tq == 0)
		tq = p->trimming ? rtt * 3 / 4 : rtt;
	if (tq == 0)
		tq = 1;
	d->bdp_bytes = mul_div(p->data_rate_bps, rtt, PS_PER_S_X8);
	d->max_window_bytes = max_window_for(p, rtt);
	d->min_window_bytes = mtu;
	d->initial_window_bytes = p->nscc_initial_window_bytes != 0
					  ? p->nscc_initial_window_bytes
					  : d->max_window_bytes;
	if (d->initial_window_bytes > d->max_window_bytes)
		d->initial_window_bytes = d->max_window_bytes;
	if (d->initial_window_bytes < mtu)
		d->initial_window_bytes = mtu;
	d->target_qdelay_ps = tq;
	d->qa_threshold_ps = 4 * tq;
	d->a_ppm = mul_div(d->bdp_bytes, PPM, REF_BDP_BYTES);
	d->b_ppm = mul_div(tq, PPM, REF_RTT_PS);
	d->fair_inc_bytes = mul_div(5 * mtu, d->a_ppm, PPM);
	d->eta_bytes = mul_div(15 * mtu, d->a_ppm, 100 * PPM);
	d->fast_inc_scale_ppm = d->a_ppm / 4;
	/* 4 x MTU x a x b / tq bytes per ps, times 10^6. */
	d->alpha_ubytes_per_ps =
		mul_div(4 * mtu * d->a_ppm, d->b_ppm, tq * PPM);
	d->gamma_ppm = 800000;
	d->delay_ewma_ppm = 12500;
	d->adjust_period_ps = rtt;
	d->adjust_bytes = 8 * mtu;
	d->fast_inc_delay_ps = 1000000;
	d->qa_gate_shift = 3;
	return 0;
}

static void nscc_set(struct uet_cc *cc, uint64_t w, enum uet_cc_reason why)
{
	cc->window_bytes = w;
	cc->last_reason = why;
	cc->n_reason[why]++;
}

/* Keep the window in [min, max]; the max follows the base RTT. */
static void nscc_clamp(struct uet_cc *cc)
{
	if (cc->window_bytes > cc->nscc.max_window_bytes)
		nscc_set(cc, cc->nscc.max_window_bytes, UET_CC_R_MAXWND);
	if (cc->window_bytes < cc->nscc.min_window_bytes)
		cc->window_bytes = cc->nscc.min_window_bytes;
}

/* The base RTT only falls; with it the BDP and the maximum window (1.5 x
 * BDP at the group's current base RTT), never below one packet. */
static void nscc_follow_base_rtt(struct uet_cc *cc)
{
	cc->nscc.max_window_bytes =
		max_window_for(&cc->params, cc->base_rtt_ps);
}

/* EWMA of the queueing delay. An unmarked sample above target reads as
 * path noise and enters as a quarter of the base RTT. */
static void nscc_update_delay(struct uet_cc *cc, uet_time_t d_ps, bool ecn)
{
	uint64_t w = cc->nscc.delay_ewma_ppm;
	uint64_t x = d_ps;

	if (!ecn && d_ps > cc->nscc.target_qdelay_ps)
		x = cc->base_rtt_ps / 4;
	cc->ns.avg_delay_ps = (cc->ns.avg_delay_ps * (PPM - w) + x * w) / PPM;
}

/* Quick adapt. Returns true when it consumed the event. */
static bool nscc_quick_adapt(struct uet_cc *cc, uet_time_t now, bool loss,
			     bool skip, uet_time_t delay, uint64_t in_flight)
{
	struct uet_nscc_state *s = &cc->ns;
	const struct uet_nscc_derived *d = &cc->nscc;

	if (skip && s->bytes_ignored < s->bytes_to_ignore) {
		cc->last_reason = UET_CC_R_QA_IGNORE;
		cc->n_reason[UET_CC_R_QA_IGNORE]++;
		return true;
	}
	if (now <= s->qa_end_ps)
		return false;
	if (s->qa_end_ps != 0 &&
	    (s->trigger_qa || loss || delay > d->qa_threshold_ps) &&
	    s->achieved_bytes < (d->max_window_bytes >> d->qa_gate_shift)) {
		uint64_t w = s->achieved_bytes;

		nscc_set(cc, w < d->min_window_bytes ? d->min_window_bytes : w,
			 UET_CC_R_QUICK_ADAPT);
		s->bytes_to_ignore = in_flight;
		s->bytes_ignored = 0;
		s->trigger_qa = false;
		s->achieved_bytes = 0;
		s->qa_end_ps = now + cc->base_rtt_ps + d->target_qdelay_ps;
		return true;
	}
	s->achieved_bytes = 0;
	s->qa_end_ps = now + cc->base_rtt_ps + d->target_qdelay_ps;
	return false;
}

/* Fast increase: while the delay stays under 1 us for more than a window
 * of acked bytes, the window grows by fi_scale per byte acked. Returns
 * whether fast mode is on. */
static bool nscc_fast_increase(struct uet_cc *cc, uet_time_t delay,
			       uint64_t newly)
{
	struct uet_nscc_state *s = &cc->ns;

	if (delay >= cc->nscc.fast_inc_delay_ps) {
		s->fast_count_bytes = 0;
		s->fast_mode = false;
		return false;
	}
	s->fast_count_bytes += newly;
	if (s->fast_count_bytes > cc->window_bytes || s->fast_mode) {
		nscc_set(cc,
			 cc->window_bytes + mul_div(newly,
						    cc->nscc.fast_inc_scale_ppm,
						    PPM),
			 UET_CC_R_FAST_INC);
		s->fast_mode = true;
	}
	return s->fast_mode;
}

/* Multiplicative decrease, at most once per base RTT, by
 * gamma x (avg - tq) / avg, at most halving. */
static void nscc_multiplicative_decrease(struct uet_cc *cc, uet_time_t now)
{
	struct uet_nscc_state *s = &cc->ns;
	uint64_t avg = s->avg_delay_ps, tq = cc->nscc.target_qdelay_ps;
	uint64_t cut, f;

	s->fast_mode = false;
	s->fast_count_bytes = 0;
	if (avg <= tq)
		return;
	if (s->decreased_once && now - s->last_decrease_ps <= cc->base_rtt_ps)
		return;
	cut = mul_div(cc->nscc.gamma_ppm, avg - tq, avg);
	f = cut >= PPM / 2 ? PPM / 2 : PPM - cut;
	nscc_set(cc, mul_div(cc->window_bytes, f, PPM), UET_CC_R_MULT_DEC);
	s->last_decrease_ps = now;
	s->decreased_once = true;
}

/* Apply the pending increase (bytes^2 / window) and, once per period, eta. */
static void nscc_fulfill_adjustment(struct uet_cc *cc, uet_time_t now)
{
	struct uet_nscc_state *s = &cc->ns;
	uint64_t add = s->inc_bytes2 / cc->window_bytes;

	if (add != 0)
		nscc_set(cc, cc->window_bytes + add, UET_CC_R_ADJUST);
	if (now - s->last_adjust_ps >= cc->nscc.adjust_period_ps) {
		nscc_set(cc, cc->window_bytes + cc->nscc.eta_bytes,
			 UET_CC_R_ETA);
		s->last_adjust_ps = now;
	}
	s->inc_bytes2 = 0;
	s->received_bytes = 0;
}

static void nscc_on_ack(struct uet_cc *cc, const struct uet_cc_ack *ack)
{
	struct uet_nscc_state *s = &cc->ns;
	const struct uet_nscc_derived *d = &cc->nscc;
	uint64_t newly = ack->acked_bytes;
	uet_time_t delay = s->avg_delay_ps, now = ack->now_ps;
	bool skip = ack->ecn;

	nscc_follow_base_rtt(cc);
	s->achieved_bytes += newly;
	s->received_bytes += newly;
	s->bytes_ignored += newly;
	if (ack->rcv_cwnd_pend != 0 && ack->rcv_cwnd_pend <= 127) {
		uint64_t pen = (newly * ack->rcv_cwnd_pend) >> 7;
		uint64_t w = cc->window_bytes;

		w = w > pen + d->min_window_bytes ? w - pen
						  : d->min_window_bytes;
		nscc_set(cc, w, UET_CC_R_RCV_PENALTY);
	}
	if (ack->rtt_valid && ack->service_ps <= ack->rtt_ps) {
		uet_time_t raw = ack->rtt_ps - ack->service_ps;

		if (raw >= cc->base_rtt_ps) {
			delay = raw - cc->base_rtt_ps;
			nscc_update_delay(cc, delay, skip);
		}
	}
	cc->last_delay_ps = delay;
	if (s->last_adjust_ps == 0)
		s->last_adjust_ps = now; /* the first period starts here */
	if (nscc_quick_adapt(cc, now, false, skip, delay,
			     ack->in_flight_bytes)) {
		nscc_clamp(cc);
		return;
	}
	if (!skip && delay >= d->target_qdelay_ps) {
		s->inc_bytes2 += d->fair_inc_bytes * newly;
		cc->last_reason = UET_CC_R_FAIR_INC;
		cc->n_reason[UET_CC_R_FAIR_INC]++;
	} else if (!skip) {
		if (!nscc_fast_increase(cc, delay, newly)) {
			s->inc_bytes2 +=
				mul_div(d->alpha_ubytes_per_ps * newly,
					d->target_qdelay_ps - delay, PPM);
			cc->last_reason = UET_CC_R_PROP_INC;
			cc->n_reason[UET_CC_R_PROP_INC]++;
		}
	} else if (delay >= d->target_qdelay_ps) {
		nscc_multiplicative_decrease(cc, now);
	} else {
		cc->last_reason = UET_CC_R_ECN_LOW_DELAY;
		cc->n_reason[UET_CC_R_ECN_LOW_DELAY]++;
	}
	nscc_clamp(cc);
	if (s->received_bytes > d->adjust_bytes ||
	    now - s->last_adjust_ps > d->adjust_period_ps)
		nscc_fulfill_adjustment(cc, now);
	nscc_clamp(cc);
}

static void nscc_on_trim(struct uet_cc *cc, uet_time_t now_ps,
			 uint32_t nominal_bytes, bool last_hop,
			 uint64_t in_flight_bytes)
{
	uint64_t w = cc->window_bytes, min = cc->nscc.min_window_bytes;

	/* No receiver credit in this NIC, so a last-hop trim costs the
	 * window like any other (htsim skips it only under RCCC). */
	(void)last_hop;
	nscc_follow_base_rtt(cc);
	/* A trim says the queue reached the trim threshold: one network
	 * RTT of delay into the average. */
	nscc_update_delay(cc, cc->nscc.adjust_period_ps, true);
	cc->last_delay_ps = cc->ns.avg_delay_ps;
	cc->ns.trigger_qa = true;
	if (nscc_quick_adapt(cc, now_ps, true, false, cc->ns.avg_delay_ps,
			     in_flight_bytes)) {
		nscc_clamp(cc);
		return;
	}
	nscc_set(cc, w > nominal_bytes + min ? w - nominal_bytes : min,
		 UET_CC_R_TRIM);
	nscc_clamp(cc);
}

static void nscc_on_timeout(struct uet_cc *cc, uet_time_t now_ps,
			    uint32_t nominal_bytes)
{
	uint64_t w = cc->window_bytes, min = cc->nscc.min_window_bytes;

	(void)now_ps;
	nscc_set(cc, w > nominal_bytes + min ? w - nominal_bytes : min,
		 UET_CC_R_TIMEOUT);
}

static uint64_t nscc_window_bytes(const struct uet_cc *cc)
{
	return cc->window_bytes;
}

const struct uet_cc_ops uet_cc_nscc_ops = {
	.name = "nscc",
	.window_bytes = nscc_window_bytes,
	.on_ack = nscc_on_ack,
	.on_trim = nscc_on_trim,
	.on_timeout = nscc_on_timeout,
};

int uet_cc_nscc_init(struct uet_cc *cc)
{
	int rc = uet_nscc_derive(&cc->params, &cc->nscc);

	if (rc < 0)
		return rc;
	cc->window_bytes = cc->nscc.initial_window_bytes;
	cc->ops = &uet_cc_nscc_ops;
	return 0;
}
