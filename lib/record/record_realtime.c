/* SPDX-License-Identifier: BSD-3-Clause */
/* uet-realtime.csv: how late each component of a realtime run ran. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "uet_log.h"
#include "uet_outfile.h"
#include "uet_record.h"

static void realtime_header(FILE *f)
{
	unsigned int k;

	fputs("component,events,lateness_mean_ps,lateness_max_ps,"
	      "lateness_p99_upper_ns,frames_rx,frames_tx,foreign_frames,"
	      "tx_late_mean_ps,tx_late_max_ps",
	      f);
	for (k = 0; k + 1 < UET_LATENESS_BUCKETS; k++)
		fprintf(f, ",late_lt_%" PRIu64 "ns",
			uet_lateness_bucket_upper_ns(k));
	/* The last bucket has no upper bound: name its lower one. */
	fprintf(f, ",late_ge_%" PRIu64 "ns\n",
		uet_lateness_bucket_upper_ns(UET_LATENESS_BUCKETS - 2));
}

int uet_record_realtime_write(const char *path,
			      const struct uet_realtime_row *rows, uint32_t n)
{
	struct uet_outfile out;
	uint32_t i;
	FILE *f;
	int rc;

	if (path == NULL || (rows == NULL && n > 0))
		return -EINVAL;
	rc = uet_outfile_open(&out, path);
	if (rc < 0)
		return rc;
	f = out.f;
	realtime_header(f);
	for (i = 0; i < n; i++) {
		const struct uet_lateness *l = rows[i].lateness;
		uint64_t p99 = uet_lateness_quantile_upper_ns(l, 990);
		unsigned int k;

		fprintf(f, "%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
			rows[i].component, rows[i].events,
			uet_lateness_mean_ps(l), l->max_ps);
		/* The last bucket has no bound: an empty cell. */
		if (p99 != UINT64_MAX)
			fprintf(f, "%" PRIu64, p99);
		fprintf(f,
			",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",%" PRIu64,
			rows[i].frames_rx, rows[i].frames_tx,
			rows[i].foreign_frames, rows[i].tx_late_mean_ps,
			rows[i].tx_late_max_ps);
		for (k = 0; k < UET_LATENESS_BUCKETS; k++)
			fprintf(f, ",%" PRIu64, l->bucket[k]);
		fputc('\n', f);
	}
	/* Flushed, closed and renamed to its name if whole. */
	rc = uet_outfile_close(&out, 0);
	if (rc < 0)
		UET_LOG(ERROR, RECORD, "writing %s failed: %s", path,
			strerror(-rc));
	return rc;
}
