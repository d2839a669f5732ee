/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch records: switch-stats.csv and switch-occupancy.csv, files of
 * their own (the process running the switch may host no NIC), their rows
 * built by the same line builder as the NIC records.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_log.h"

#include "record_private.h"

struct uet_record_file {
	FILE *f;
	unsigned int n_tcs;	/* occupancy: class columns of a row */
	struct uet_outfile out; /* NAME.partial until closed whole */
};

/* A row to rf, a failure named once. */
static int rec_file_row(struct uet_record_file *rf, struct rec_line *l)
{
	errno = 0;
	return rec_line_put(&rf->out, l) < 0 ? rec_out_failed(&rf->out) : 0;
}

static const char *const rec_switch_stats_header =
	"time_ps,switch,port,link,peer_switch,link_down,rate_bps,tc,"
	"enq_frames,enq_bytes,drop_frames,drop_bytes,trim_frames,"
	"ecn_frames,down_drop_frames,down_drop_bytes,paused_ps,"
	"peak_queue_bytes,mean_queue_bytes,rx_drop_route_frames,"
	"rx_drop_control_frames,rx_drop_source_frames,rx_drop_lost_frames,"
	"rx_drop_random_frames";

/* Create path and write its header. */
static int rec_file_open(struct uet_record_file **fp, const char *path,
			 struct rec_line *header, unsigned int n_tcs)
{
	struct uet_record_file *rf;
	int rc;

	if (fp == NULL || path == NULL)
		return -EINVAL;
	*fp = NULL;
	rf = calloc(1, sizeof(*rf));
	if (rf == NULL)
		return -ENOMEM;
	rc = uet_outfile_open(&rf->out, path);
	if (rc < 0) {
		free(rf);
		return rc;
	}
	rf->f = rf->out.f;
	rf->n_tcs = n_tcs;
	rc = uet_outfile_rows_buffer(&rf->out, REC_ROWS_BUF_BYTES);
	if (rc == 0)
		rc = rec_file_row(rf, header);
	if (rc < 0) {
		(void)uet_record_file_close(rf);
		return rc;
	}
	*fp = rf;
	return 0;
}

int uet_record_switch_stats_open(struct uet_record_file **fp, const char *path)
{
	struct rec_line l;

	rec_line_init(&l);
	rec_line_str(&l, rec_switch_stats_header);
	return rec_file_open(fp, path, &l, 0);
}

int uet_record_switch_occ_open(struct uet_record_file **fp, const char *path,
			       unsigned int n_tcs)
{
	struct rec_line l;
	unsigned int tc;

	rec_line_init(&l);
	rec_line_str(&l, "time_ps,switch,port,link,queue_bytes");
	for (tc = 0; tc < n_tcs; tc++) {
		rec_line_str(&l, ",tc");
		rec_line_u64(&l, tc);
		rec_line_str(&l, "_bytes");
	}
	return rec_file_open(fp, path, &l, n_tcs);
}

int uet_record_switch_stats(struct uet_record_file *rf,
			    const struct uet_switch_stats_row *r)
{
	uint64_t rx_drops[5];
	struct rec_line l;
	unsigned int i;

	if (rf == NULL || r == NULL)
		return -EINVAL;
	rec_line_init(&l);
	rec_line_u64(&l, r->time_ps);
	rec_line_comma(&l);
	rec_line_str(&l, r->switch_name);
	rec_line_comma(&l);
	rec_line_u64(&l, r->port);
	rec_line_comma(&l);
	rec_line_str(&l, r->link);
	rec_line_comma(&l);
	rec_line_str(&l, r->peer_switch);
	rec_line_comma(&l);
	rec_line_u64(&l, r->link_down ? 1 : 0);
	rec_line_comma(&l);
	rec_line_u64(&l, r->rate_bps);
	rec_line_comma(&l);
	rec_line_u64(&l, r->tc);
	rec_line_comma(&l);
	rec_line_u64(&l, r->enq_frames);
	rec_line_comma(&l);
	rec_line_u64(&l, r->enq_bytes);
	rec_line_comma(&l);
	rec_line_u64(&l, r->drop_frames);
	rec_line_comma(&l);
	rec_line_u64(&l, r->drop_bytes);
	rec_line_comma(&l);
	rec_line_u64(&l, r->trim_frames);
	rec_line_comma(&l);
	rec_line_u64(&l, r->ecn_frames);
	rec_line_comma(&l);
	rec_line_u64(&l, r->down_drop_frames);
	rec_line_comma(&l);
	rec_line_u64(&l, r->down_drop_bytes);
	rec_line_comma(&l);
	rec_line_u64(&l, r->paused_ps);
	rec_line_comma(&l);
	rec_line_u64(&l, r->peak_queue_bytes);
	rec_line_comma(&l);
	rec_line_u64(&l, r->mean_queue_bytes);
	rx_drops[0] = r->rx_drop_route_frames;
	rx_drops[1] = r->rx_drop_control_frames;
	rx_drops[2] = r->rx_drop_source_frames;
	rx_drops[3] = r->rx_drop_lost_frames;
	rx_drops[4] = r->rx_drop_random_frames;
	for (i = 0; i < 5; i++) {
		rec_line_comma(&l);
		/* Empty: the port's counts are on its class 0 row. */
		if (r->has_rx_drops)
			rec_line_u64(&l, rx_drops[i]);
	}
	return rec_file_row(rf, &l);
}

int uet_record_switch_occ(struct uet_record_file *rf,
			  const struct uet_switch_occ_row *r)
{
	struct rec_line l;
	unsigned int tc;

	if (rf == NULL || r == NULL || (rf->n_tcs > 0 && r->tc_bytes == NULL))
		return -EINVAL;
	rec_line_init(&l);
	rec_line_u64(&l, r->time_ps);
	rec_line_comma(&l);
	rec_line_str(&l, r->switch_name);
	rec_line_comma(&l);
	rec_line_u64(&l, r->port);
	rec_line_comma(&l);
	rec_line_str(&l, r->link);
	rec_line_comma(&l);
	rec_line_u64(&l, r->queue_bytes);
	for (tc = 0; tc < rf->n_tcs; tc++) {
		rec_line_comma(&l);
		rec_line_u64(&l, r->tc_bytes[tc]);
	}
	return rec_file_row(rf, &l);
}

int uet_record_file_close(struct uet_record_file *rf)
{
	bool logged;
	int rc;

	if (rf == NULL)
		return 0;
	logged = rf->out.err != 0;
	/* Flushed, closed and renamed to its name if whole. */
	rc = uet_outfile_close(&rf->out, 0);
	if (rc < 0 && !logged)
		UET_LOG(ERROR, RECORD, "writing %s failed: %s", rf->out.path,
			strerror(-rc));
	free(rf);
	return rc;
}
