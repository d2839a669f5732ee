/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-events, uet-monitor and flows rows: one line per call, in the order
 * of the calls, with only integers and fixed names, so identical runs give
 * identical bytes.
 */
#include <ctype.h>
#include <errno.h>

#include "record_private.h"

int uet_record_event(struct uet_record *rec, const struct uet_event_row *r)
{
	struct rec_line l;

	if (!uet_record_events_on(rec))
		return 0;
	if (r == NULL || (unsigned int)r->kind >= UET_EV_KIND_COUNT)
		return -EINVAL;
	rec_line_init(&l);
	rec_line_u64(&l, r->time_ps);
	rec_line_comma(&l);
	rec_line_ip(&l, r->nic_ip);
	rec_line_comma(&l);
	rec_line_u64(&l, r->pdc);
	rec_line_comma(&l);
	rec_line_ip(&l, r->peer_ip);
	rec_line_comma(&l);
	if (r->msg_id != UET_RECORD_MSG_ID_NONE)
		rec_line_u64(&l, r->msg_id);
	rec_line_comma(&l);
	rec_line_u64(&l, r->bytes);
	rec_line_comma(&l);
	rec_line_str(&l, uet_event_kind_name(r->kind));
	return rec_line_write(rec, REC_EVENTS, &l);
}

/* Which monitor columns a packet kind fills; the others stay empty, so a
 * reader never mistakes "not carried" for a zero. */
enum {
	MON_PSN = 1 << 0,   /* psn */
	MON_FLAGS = 1 << 1, /* ar, retx */
	MON_ACK = 1 << 2,   /* cack_psn, sack_base_psn, sack_bitmap,
			     * service_time */
	MON_NACK = 1 << 3,  /* nack_code */
};

static const unsigned int rec_mon_cols[UET_MON_PKT_COUNT] = {
	[UET_MON_DATA] = MON_PSN | MON_FLAGS,
	[UET_MON_ACK] = MON_ACK,
	[UET_MON_NACK] = MON_PSN | MON_NACK,
	[UET_MON_PROBE] = 0,
	/* A trimmed packet keeps its PDS header: PSN and flags are there. */
	[UET_MON_TRIMMED] = MON_PSN | MON_FLAGS,
};

int uet_record_monitor(struct uet_record *rec, const struct uet_monitor_row *r)
{
	struct rec_line l;
	unsigned int cols;

	if (!uet_record_monitor_on(rec))
		return 0;
	if (r == NULL || (unsigned int)r->pkt >= UET_MON_PKT_COUNT)
		return -EINVAL;
	cols = rec_mon_cols[r->pkt];
	rec_line_init(&l);
	rec_line_u64(&l, r->time_ps);
	rec_line_comma(&l);
	rec_line_ip(&l, r->nic_ip);
	rec_line_comma(&l);
	rec_line_u64(&l, r->pdc);
	rec_line_str(&l, r->tx ? ",tx," : ",rx,");
	rec_line_str(&l, uet_monitor_pkt_name(r->pkt));
	rec_line_comma(&l);
	if (cols & MON_PSN)
		rec_line_u64(&l, r->psn);
	rec_line_comma(&l);
	if (cols & MON_FLAGS)
		rec_line_str(&l, r->ar ? "1" : "0");
	rec_line_comma(&l);
	if (cols & MON_FLAGS)
		rec_line_str(&l, r->retx ? "1" : "0");
	rec_line_comma(&l);
	rec_line_u64(&l, r->dscp);
	rec_line_comma(&l);
	rec_line_u64(&l, r->entropy);
	rec_line_comma(&l);
	rec_line_u64(&l, r->wire_bytes);
	rec_line_comma(&l);
	if (cols & MON_ACK) {
		rec_line_u64(&l, r->cack_psn);
		rec_line_comma(&l);
		rec_line_u64(&l, r->sack_base_psn);
		rec_line_comma(&l);
		rec_line_hex64(&l, r->sack_bitmap);
		rec_line_comma(&l);
		rec_line_u64(&l, r->service_time);
	} else {
		rec_line_str(&l, ",,,");
	}
	rec_line_comma(&l);
	if (cols & MON_NACK)
		rec_line_u64(&l, r->nack_code);
	return rec_line_write(rec, REC_MONITOR, &l);
}

int uet_record_flow(struct uet_record *rec, const struct uet_flow_row *r)
{
	struct rec_line l;

	if (!uet_record_flows_on(rec))
		return 0;
	if (r == NULL)
		return -EINVAL;
	rec_line_init(&l);
	if (r->msg_id != UET_RECORD_MSG_ID_NONE)
		rec_line_u64(&l, r->msg_id);
	rec_line_comma(&l);
	rec_line_ip(&l, r->src_ip);
	rec_line_comma(&l);
	rec_line_ip(&l, r->dst_ip);
	rec_line_comma(&l);
	rec_line_u64(&l, r->src_pdc);
	rec_line_comma(&l);
	rec_line_u64(&l, r->dst_pdc);
	rec_line_comma(&l);
	rec_line_u64(&l, r->bytes);
	rec_line_comma(&l);
	rec_line_u64(&l, r->packets);
	rec_line_comma(&l);
	rec_line_time(&l, r->posted_ps);
	rec_line_comma(&l);
	rec_line_time(&l, r->sent_ps);
	rec_line_comma(&l);
	rec_line_time(&l, r->arrived_ps);
	rec_line_comma(&l);
	rec_line_time(&l, r->completed_ps);
	rec_line_comma(&l);
	/* Flow completion time as the sender sees it: post to last ACK. */
	if (r->posted_ps != UET_TIME_NEVER &&
	    r->completed_ps != UET_TIME_NEVER &&
	    r->completed_ps >= r->posted_ps)
		rec_line_u64(&l, r->completed_ps - r->posted_ps);
	rec_line_comma(&l);
	rec_line_u64(&l, r->retransmits);
	rec_line_comma(&l);
	rec_line_u64(&l, r->trims);
	rec_line_comma(&l);
	rec_line_u64(&l, r->nacks);
	rec_line_comma(&l);
	if (r->timeouts != UET_RECORD_COUNT_NONE)
		rec_line_u64(&l, r->timeouts);
	return rec_line_write(rec, REC_FLOWS, &l);
}

/* A name cell: letters, digits and _ . / : - as they are, anything else
 * (a comma, a quote, a space) as _, so no cell needs CSV quoting. */
static void rec_line_name(struct rec_line *l, const char *name)
{
	char buf[128];
	size_t i;

	if (name == NULL)
		return;
	for (i = 0; name[i] != '\0' && i + 1 < sizeof(buf); i++) {
		char ch = name[i];

		buf[i] = isalnum((unsigned char)ch) || ch == '_' || ch == '.' ||
					 ch == '/' || ch == ':' || ch == '-'
				 ? ch
				 : '_';
	}
	buf[i] = '\0';
	rec_line_str(l, buf);
}

int uet_record_cc_trace(struct uet_record *rec,
			const struct uet_cc_trace_row *r)
{
	struct rec_line l;

	if (!uet_record_cc_trace_on(rec))
		return 0;
	if (r == NULL)
		return -EINVAL;
	rec_line_init(&l);
	rec_line_time(&l, r->time_ps);
	rec_line_comma(&l);
	rec_line_ip(&l, r->nic_ip);
	rec_line_comma(&l);
	rec_line_ip(&l, r->peer_ip);
	rec_line_comma(&l);
	rec_line_name(&l, r->event);
	rec_line_comma(&l);
	rec_line_name(&l, r->reason);
	rec_line_comma(&l);
	rec_line_u64(&l, r->window_bytes);
	rec_line_comma(&l);
	rec_line_u64(&l, r->in_flight_bytes);
	rec_line_comma(&l);
	rec_line_time(&l, r->base_rtt_ps);
	rec_line_comma(&l);
	rec_line_time(&l, r->delay_ps);
	return rec_line_write(rec, REC_CC_TRACE, &l);
}

int uet_record_workload(struct uet_record *rec,
			const struct uet_workload_row *r)
{
	struct rec_line l;

	if (!uet_record_workload_on(rec))
		return 0;
	if (r == NULL)
		return -EINVAL;
	rec_line_init(&l);
	rec_line_u64(&l, r->rank);
	rec_line_comma(&l);
	rec_line_str(&l, r->collective ? "collective" : "trace");
	rec_line_comma(&l);
	if (r->collective)
		rec_line_u64(&l, r->coll);
	rec_line_comma(&l);
	if (r->collective)
		rec_line_name(&l, r->name);
	rec_line_comma(&l);
	if (r->collective)
		rec_line_name(&l, r->type);
	rec_line_comma(&l);
	if (r->collective)
		rec_line_u64(&l, r->bytes);
	rec_line_comma(&l);
	rec_line_time(&l, r->begin_ps);
	rec_line_comma(&l);
	rec_line_time(&l, r->end_ps);
	rec_line_comma(&l);
	if (r->begin_ps != UET_TIME_NEVER && r->end_ps != UET_TIME_NEVER &&
	    r->end_ps >= r->begin_ps)
		rec_line_u64(&l, r->end_ps - r->begin_ps);
	return rec_line_write(rec, REC_WORKLOAD, &l);
}

int uet_record_wl_message(struct uet_record *rec,
			  const struct uet_wl_message_row *r)
{
	struct rec_line l;

	if (!uet_record_workload_on(rec))
		return 0;
	if (r == NULL)
		return -EINVAL;
	rec_line_init(&l);
	rec_line_u64(&l, r->msg_id);
	rec_line_comma(&l);
	rec_line_u64(&l, r->src_rank);
	rec_line_comma(&l);
	rec_line_u64(&l, r->dst_rank);
	rec_line_comma(&l);
	rec_line_u64(&l, r->bytes);
	rec_line_comma(&l);
	rec_line_u64(&l, r->origin);
	rec_line_comma(&l);
	rec_line_time(&l, r->posted_ps);
	rec_line_comma(&l);
	rec_line_time(&l, r->sent_ps);
	rec_line_comma(&l);
	rec_line_time(&l, r->arrived_ps);
	rec_line_comma(&l);
	if (r->posted_ps != UET_TIME_NEVER && r->arrived_ps != UET_TIME_NEVER &&
	    r->arrived_ps >= r->posted_ps)
		rec_line_u64(&l, r->arrived_ps - r->posted_ps);
	return rec_line_write(rec, REC_WL_MESSAGES, &l);
}
