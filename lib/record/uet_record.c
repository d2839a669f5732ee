/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The record files of a run: the output folder, one buffered file per
 * enabled kind with its header row, flushing and closing. The rows are
 * formatted in record_stats.c and record_rows.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "uet_log.h"
#include "record_private.h"

static const char *const rec_file_name[REC_KIND_COUNT] = {
	[REC_STATS] = "uet-transport-stats.csv",
	[REC_EVENTS] = "uet-events.csv",
	[REC_MONITOR] = "uet-monitor.csv",
	[REC_FLOWS] = "flows.csv",
	[REC_WORKLOAD] = "workload.csv",
	[REC_CC_TRACE] = "uet-cc-trace.csv",
	[REC_WL_MESSAGES] = "workload-messages.csv",
};

static const char *const rec_event_header =
	"time_ps,nic,pdc,peer,msg_id,bytes,event";
static const char *const rec_monitor_header =
	"time_ps,nic,pdc,dir,pkt,psn,ar,retx,dscp,entropy,wire_bytes,"
	"cack_psn,sack_base_psn,sack_bitmap,service_time,nack_code";
static const char *const rec_flows_header =
	"msg_id,src,dst,src_pdc,dst_pdc,bytes,packets,posted_ps,sent_ps,"
	"arrived_ps,completed_ps,fct_ps,retransmits,trims,nacks,timeouts";

static const char *const rec_workload_header =
	"rank,what,coll,name,type,bytes,begin_ps,end_ps,duration_ps";

static const char *const rec_wl_messages_header =
	"msg_id,src_rank,dst_rank,bytes,origin,posted_ps,sent_ps,arrived_ps,"
	"duration_ps";

static const char *const rec_cc_trace_header =
	"time_ps,nic,peer,event,reason,window_bytes,in_flight_bytes,"
	"base_rtt_ps,delay_ps";

static const char *const rec_event_name[UET_EV_KIND_COUNT] = {
	[UET_EV_PDC_CREATED] = "pdc_created",
	[UET_EV_PDC_CLOSED] = "pdc_closed",
	[UET_EV_MSG_POSTED] = "msg_posted",
	[UET_EV_MSG_SENT] = "msg_sent",
	[UET_EV_MSG_ARRIVED] = "msg_arrived",
	[UET_EV_MSG_COMPLETED] = "msg_completed",
};

static const char *const rec_pkt_name[UET_MON_PKT_COUNT] = {
	[UET_MON_DATA] = "data",       [UET_MON_ACK] = "ack",
	[UET_MON_NACK] = "nack",       [UET_MON_PROBE] = "probe",
	[UET_MON_TRIMMED] = "trimmed",
};

const char *uet_event_kind_name(enum uet_event_kind k)
{
	if ((unsigned int)k >= UET_EV_KIND_COUNT)
		return "unknown";
	return rec_event_name[k];
}

const char *uet_monitor_pkt_name(enum uet_monitor_pkt p)
{
	if ((unsigned int)p >= UET_MON_PKT_COUNT)
		return "unknown";
	return rec_pkt_name[p];
}

/* mkdir -p: create each missing folder on the way; an existing folder is
 * fine, an existing file in the way is -ENOTDIR. */
static int rec_mkdir_p(const char *dir)
{
	char path[PATH_MAX];
	size_t len = strlen(dir), i;
	struct stat st;

	if (len == 0)
		return -EINVAL;
	if (len >= sizeof(path))
		return -ENAMETOOLONG;
	memcpy(path, dir, len + 1);
	for (i = 1; i <= len; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		if (path[i - 1] == '/')
			continue; /* "a//b" or a trailing '/' */
		path[i] = '\0';
		if (mkdir(path, 0777) != 0) {
			int err = errno;

			if (err != EEXIST)
				return -err;
			if (stat(path, &st) != 0)
				return -errno;
			if (!S_ISDIR(st.st_mode))
				return -ENOTDIR;
		}
		path[i] = i == len ? '\0' : '/';
	}
	return 0;
}

int rec_out_failed(struct uet_outfile *o)
{
	bool first = o->err == 0;
	int err = uet_outfile_failed(o);

	if (first)
		UET_LOG(ERROR, RECORD, "writing %s failed: %s", o->path,
			strerror(-err));
	return err;
}

int rec_room(struct uet_record *rec, enum rec_kind k, size_t len)
{
	uint64_t max = rec->conf.max_file_bytes;

	if (max != 0 && rec->bytes[k] + len > max) {
		if (rec->bytes[k] <= max) {
			UET_LOG(ERROR, RECORD,
				"%s reached records.MaxFileSize (%llu bytes): "
				"its later rows are not written and the run "
				"stops; raise records.MaxFileSize for a run "
				"this long",
				rec->out[k] != NULL ? rec->out[k]->path
						    : rec_file_name[k],
				(unsigned long long)max);
			rec->bytes[k] = max + 1; /* logged */
		}
		return -EFBIG;
	}
	rec->bytes[k] += len;
	return 0;
}

/* The file of kind k, written as NAME.partial until it is closed whole. */
static int rec_open_file(struct uet_record *rec, enum rec_kind k,
			 const char *dir)
{
	char path[PATH_MAX];
	int n, rc;

	n = snprintf(path, sizeof(path), "%s/%s", dir, rec_file_name[k]);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	rec->out[k] = malloc(sizeof(*rec->out[k]));
	if (rec->out[k] == NULL)
		return -ENOMEM;
	rc = uet_outfile_open(rec->out[k], path);
	if (rc < 0) {
		free(rec->out[k]);
		rec->out[k] = NULL;
		return rc;
	}
	rec->f[k] = rec->out[k]->f;
	return uet_outfile_rows_buffer(rec->out[k], REC_ROWS_BUF_BYTES);
}

static int rec_header(struct uet_record *rec, enum rec_kind k, const char *text)
{
	struct rec_line l;

	rec_line_init(&l);
	rec_line_str(&l, text);
	return rec_line_write(rec, k, &l);
}

int uet_record_open(struct uet_record **recp, const struct uet_record_conf *c)
{
	struct uet_record *rec;
	bool on[REC_KIND_COUNT];
	int k, rc;

	if (recp == NULL || c == NULL || c->out_dir == NULL)
		return -EINVAL;
	*recp = NULL;
	on[REC_STATS] = c->transport_stats;
	on[REC_EVENTS] = c->events;
	on[REC_MONITOR] = c->monitor;
	on[REC_FLOWS] = c->flows;
	on[REC_WORKLOAD] = c->workload;
	on[REC_CC_TRACE] = c->cc_trace;
	/* The program's messages go with its ranks. */
	on[REC_WL_MESSAGES] = c->workload;
	rc = rec_mkdir_p(c->out_dir);
	if (rc < 0)
		return rc;
	rec = calloc(1, sizeof(*rec));
	if (rec == NULL)
		return -ENOMEM;
	rec->conf = *c;
	rec->conf.out_dir = NULL;
	for (k = 0; k < REC_KIND_COUNT && rc == 0; k++)
		if (on[k])
			rc = rec_open_file(rec, (enum rec_kind)k, c->out_dir);
	if (rc == 0 && on[REC_STATS])
		rc = rec_stats_header(rec);
	if (rc == 0 && on[REC_EVENTS])
		rc = rec_header(rec, REC_EVENTS, rec_event_header);
	if (rc == 0 && on[REC_MONITOR])
		rc = rec_header(rec, REC_MONITOR, rec_monitor_header);
	if (rc == 0 && on[REC_FLOWS])
		rc = rec_header(rec, REC_FLOWS, rec_flows_header);
	if (rc == 0 && on[REC_WORKLOAD])
		rc = rec_header(rec, REC_WORKLOAD, rec_workload_header);
	if (rc == 0 && on[REC_WL_MESSAGES])
		rc = rec_header(rec, REC_WL_MESSAGES, rec_wl_messages_header);
	if (rc == 0 && on[REC_CC_TRACE])
		rc = rec_header(rec, REC_CC_TRACE, rec_cc_trace_header);
	/* "Headers written at once": a run that dies leaves NAME.partial
	 * files a reader can parse. */
	if (rc == 0)
		rc = uet_record_flush(rec);
	if (rc < 0) {
		uet_record_close(rec);
		return rc;
	}
	*recp = rec;
	return 0;
}

int uet_record_flush(struct uet_record *rec)
{
	int k, rc = 0;

	if (rec == NULL)
		return 0;
	if (rec->parent != NULL)
		return uet_record_view_flush(rec);
	for (k = 0; k < REC_KIND_COUNT; k++) {
		if (rec->f[k] == NULL)
			continue;
		if (uet_outfile_flush(rec->out[k]) < 0)
			rc = rec_out_failed(rec->out[k]);
	}
	return rc;
}

/* Every file flushed, closed and renamed; with order, each then put in
 * order if its rows were not written so. */
static int rec_close(struct uet_record *rec, bool order)
{
	int k, rc = 0;

	if (rec == NULL)
		return 0;
	if (rec->parent != NULL)
		return rec_view_close(rec);
	for (k = 0; k < REC_KIND_COUNT; k++) {
		if (rec->out[k] != NULL) {
			struct uet_outfile *o = rec->out[k];
			bool logged = o->err != 0;
			/* Flushed, closed and renamed to NAME if whole;
			 * then put in order if it was not written so. */
			int err = uet_outfile_close(o, 0);

			if (err < 0 && !logged)
				UET_LOG(ERROR, RECORD, "writing %s failed: %s",
					o->path, strerror(-err));
			if (err == 0 && order) {
				err = rec_order_closed(rec, (enum rec_kind)k,
						       o->path);
				if (err < 0)
					UET_LOG(ERROR, RECORD,
						"ordering %s failed: %s",
						o->path, strerror(-err));
			}
			if (err < 0)
				rc = err;
			free(o);
		}
	}
	free(rec->nics);
	free(rec);
	return rc;
}

int uet_record_close(struct uet_record *rec)
{
	return rec_close(rec, false);
}

int uet_record_close_in_order(struct uet_record *rec)
{
	return rec_close(rec, true);
}

bool uet_record_transport_stats_on(const struct uet_record *rec)
{
	return rec != NULL && rec->f[REC_STATS] != NULL;
}

bool uet_record_events_on(const struct uet_record *rec)
{
	return rec != NULL && rec->f[REC_EVENTS] != NULL;
}

bool uet_record_monitor_on(const struct uet_record *rec)
{
	return rec != NULL && rec->f[REC_MONITOR] != NULL;
}

bool uet_record_flows_on(const struct uet_record *rec)
{
	return rec != NULL && rec->f[REC_FLOWS] != NULL;
}

bool uet_record_workload_on(const struct uet_record *rec)
{
	return rec != NULL && rec->f[REC_WORKLOAD] != NULL;
}

bool uet_record_cc_trace_on(const struct uet_record *rec)
{
	return rec != NULL && rec->f[REC_CC_TRACE] != NULL;
}

uet_time_t uet_record_stats_interval_ps(const struct uet_record *rec)
{
	return rec != NULL ? rec->conf.stats_interval_ps : 0;
}
