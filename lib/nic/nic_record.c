/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Completions and records (the page's "Completion" and "Records"): the
 * three completions as callbacks and uet-events rows, a flows row at the
 * sender's completion, uet-monitor rows, and a uet-transport-stats row
 * every NDStatsReportInterval while the NIC is busy.
 */
#include <string.h>

#include "nic_private.h"

void nic_record_event(struct uet_nic *nic, enum uet_event_kind kind,
		      const struct nic_pdc *pdc, uint64_t msg_id,
		      uint64_t bytes)
{
	struct uet_event_row r;

	if (nic->rec == NULL || !nic->p.events_enable)
		return;
	memset(&r, 0, sizeof(r));
	r.time_ps = nic_now(nic);
	r.nic_ip = nic->ip;
	r.pdc = pdc->id;
	r.peer_ip = pdc->is_tx ? pdc->dst_ip : pdc->peer_ip;
	r.msg_id = msg_id;
	r.bytes = bytes;
	r.kind = kind;
	uet_record_event(nic->rec, &r);
}

void nic_record_monitor(struct uet_nic *nic, const struct uet_monitor_row *r)
{
	struct uet_monitor_row row;

	if (!nic->monitor_on)
		return;
	row = *r;
	row.nic_ip = nic->ip;
	uet_record_monitor(nic->rec, &row);
}

/* One uet-cc-trace row when an event moved the group's window or gave a
 * new reason: the trace says what changed and why, not every ACK. */
void nic_record_cc(struct uet_nic *nic, const struct nic_group *g,
		   const char *event, uint64_t window_before,
		   enum uet_cc_reason reason_before)
{
	struct uet_cc_trace_row row;

	if (!nic->p.cc_trace_enable || !uet_record_cc_trace_on(nic->rec))
		return;
	if (g->cc.window_bytes == window_before &&
	    g->cc.last_reason == reason_before)
		return;
	row.time_ps = nic_now(nic);
	row.nic_ip = nic->ip;
	row.peer_ip = g->peer_ip;
	row.event = event;
	row.reason = uet_cc_reason_name(g->cc.last_reason);
	row.window_bytes = uet_cc_window_bytes(&g->cc);
	row.in_flight_bytes = g->in_flight_bytes;
	row.base_rtt_ps = uet_cc_base_rtt_ps(&g->cc);
	row.delay_ps = g->cc.last_delay_ps;
	uet_record_cc_trace(nic->rec, &row);
}

static void record_flow(struct uet_nic *nic, const struct nic_pdc *pdc)
{
	struct uet_flow_row r;

	if (nic->rec == NULL || !nic->p.flows_enable)
		return;
	memset(&r, 0, sizeof(r));
	r.msg_id = pdc->msg.msg_id;
	r.src_ip = nic->ip;
	r.dst_ip = pdc->dst_ip;
	r.src_pdc = pdc->id;
	r.dst_pdc = pdc->peer_pdc;
	r.bytes = pdc->msg.bytes;
	r.packets = pdc->msg.segments;
	r.posted_ps = pdc->msg.posted_ps;
	r.sent_ps = pdc->msg.sent_ps;
	r.arrived_ps = uet_ses_arrivals_get(nic->arrivals, pdc->msg.msg_id);
	r.completed_ps = pdc->msg.completed_ps;
	r.retransmits = pdc->retransmits;
	r.trims = pdc->trims;
	r.nacks = pdc->nacks;
	r.timeouts = pdc->timeouts;
	uet_record_flow(nic->rec, &r);
}

/*
 * An external host's message, whole at this NIC: its flows row, written
 * here since its sender is not ours. What only the sender knows (post,
 * transmit completion, last ACK, timeouts) is empty; the counts are what
 * this side saw: new packets, packets with the retransmit flag, trimmed
 * packets NACKed.
 */
static void record_external_flow(struct uet_nic *nic, const struct nic_pdc *pdc)
{
	struct uet_flow_row r;

	if (nic->rec == NULL || !nic->p.flows_enable)
		return;
	memset(&r, 0, sizeof(r));
	r.msg_id = pdc->ext_msg_id;
	r.src_ip = pdc->peer_ip;
	r.dst_ip = nic->ip;
	r.src_pdc = pdc->peer_pdc;
	r.dst_pdc = pdc->id;
	r.bytes = pdc->rmsg.bytes;
	r.packets = pdc->rx_packets;
	r.posted_ps = UET_TIME_NEVER;
	r.sent_ps = UET_TIME_NEVER;
	r.arrived_ps = pdc->rmsg.arrived_ps;
	r.completed_ps = UET_TIME_NEVER;
	r.retransmits = pdc->retransmits;
	r.trims = pdc->trims;
	r.nacks = pdc->nacks;
	r.timeouts = UET_RECORD_COUNT_NONE;
	uet_record_flow(nic->rec, &r);
}

/* An external host's message arrived: the run matches it to a message it
 * expects (the callback writes that number), and the records carry the
 * number, or an empty cell when none matched (docs/lockstep.md,
 * "External endpoints"). */
static void complete_external(struct uet_nic *nic, struct nic_pdc *pdc)
{
	struct uet_ses_completion c;
	uint64_t msg_id = UET_RECORD_MSG_ID_NONE;

	memset(&c, 0, sizeof(c));
	c.kind = UET_SES_ARRIVED;
	c.pdc = pdc->id;
	c.time_ps = nic_now(nic);
	c.msg_id = pdc->rmsg.msg_id;
	c.src_ip = pdc->peer_ip;
	c.dst_ip = nic->ip;
	c.bytes = pdc->rmsg.bytes;
	c.external = true;
	c.match_msg_id = &msg_id;
	if (nic->cb.arrived != NULL)
		nic->cb.arrived(nic->cb.ctx, &c);
	pdc->ext_msg_id = msg_id;
	nic_record_event(nic, UET_EV_MSG_ARRIVED, pdc, msg_id, c.bytes);
	record_external_flow(nic, pdc);
}

void nic_complete(struct uet_nic *nic, enum uet_ses_completion_kind kind,
		  struct nic_pdc *pdc)
{
	static const enum uet_event_kind ev_kind[UET_SES_COMPLETION_COUNT] = {
		[UET_SES_SENT] = UET_EV_MSG_SENT,
		[UET_SES_ARRIVED] = UET_EV_MSG_ARRIVED,
		[UET_SES_COMPLETED] = UET_EV_MSG_COMPLETED,
	};
	struct uet_ses_completion c;
	uet_ses_completion_fn fn;

	if (kind == UET_SES_ARRIVED && pdc->external) {
		complete_external(nic, pdc);
		return;
	}
	memset(&c, 0, sizeof(c));
	c.kind = kind;
	c.pdc = pdc->id;
	c.time_ps = nic_now(nic);
	if (kind == UET_SES_ARRIVED) {
		c.msg_id = pdc->rmsg.msg_id;
		c.src_ip = pdc->peer_ip;
		c.dst_ip = nic->ip;
		c.bytes = pdc->rmsg.bytes;
		fn = nic->cb.arrived;
	} else {
		c.msg_id = pdc->msg.msg_id;
		c.src_ip = nic->ip;
		c.dst_ip = pdc->dst_ip;
		c.bytes = pdc->msg.bytes;
		c.posted_ps = pdc->msg.posted_ps;
		fn = kind == UET_SES_SENT ? nic->cb.sent : nic->cb.completed;
	}
	nic_record_event(nic, ev_kind[kind], pdc, c.msg_id, c.bytes);
	if (kind == UET_SES_COMPLETED)
		record_flow(nic, pdc);
	if (fn != NULL)
		fn(nic->cb.ctx, &c);
}

void nic_stats_fill(const struct uet_nic *nic, struct uet_nic_stats *out)
{
	const struct nic_group *g;

	*out = nic->st;
	out->transport.in_flight_bytes = 0;
	for (g = nic->groups; g != NULL; g = g->all_next)
		out->transport.in_flight_bytes += g->in_flight_bytes;
	nic_pools_stats(&nic->pools, out);
	out->transport.pdcs_open =
		nic->st.transport.pdcs_created - nic->st.transport.pdcs_closed;
}

void nic_stats_start(struct uet_nic *nic)
{
	uet_time_t iv = nic->p.stats_interval_ps;

	if (nic->rec == NULL || !nic->p.stats_enable || iv == 0 ||
	    uet_event_pending(&nic->stats_ev))
		return;
	/* Rows fall on whole multiples of the interval. */
	uet_evq_schedule(&nic->comp.evq, &nic->stats_ev,
			 (nic_now(nic) / iv + 1) * iv);
}

void nic_stats_event(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct uet_nic *nic = arg;
	struct uet_nic_stats s;

	(void)ev;
	nic_stats_fill(nic, &s);
	uet_record_transport_stats(nic->rec, uet_evq_now(q), nic->ip,
				   &s.transport);
	/* Stop while idle, so that a finished run's queue empties; the next
	 * post or arrival starts the rows again. */
	if (!uet_nic_idle(nic) ||
	    nic->st.transport.pdcs_created != nic->st.transport.pdcs_closed)
		nic_stats_start(nic);
}
