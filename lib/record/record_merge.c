/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A window's rows of every view written in the records' canonical order
 * (record_order.c): the time-stamped kinds by (time_ps, nic), the rows of
 * one key in the order the views hold them (views in host order, each in
 * its writer's order).
 *
 * Why here and not only at close: a window's rows all fall inside the
 * window, so rows put in order window by window are a file in order, and
 * closing it needs neither a sort nor a read (record_order.c). Sorting
 * the whole file at close instead held it in memory: a 65,536-host run's
 * uet-transport-stats.csv alone is about a gigabyte. A file that is not in
 * order at close (rows written outside the views, processes merged later)
 * is still sorted there, to the same result.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record_private.h"

/* One row of the window, with its keys; seq keeps the views' order. */
struct merge_row {
	uint64_t time_ps;
	uint32_t nic;
	uint32_t seq;
	const char *text;
	size_t len;
};

static int merge_row_cmp(const void *a, const void *b)
{
	const struct merge_row *x = a, *y = b;

	if (x->time_ps != y->time_ps)
		return x->time_ps < y->time_ps ? -1 : 1;
	if (x->nic != y->nic)
		return x->nic < y->nic ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Rows of kind k in the views, keyed; *np of them in *rowsp (the caller
 * frees it). */
static int merge_collect(struct uet_record *const *views, uint32_t n_views,
			 enum rec_kind k, struct merge_row **rowsp, size_t *np)
{
	struct merge_row *rows = NULL;
	size_t n = 0, cap = 0;
	uint32_t v;

	for (v = 0; v < n_views; v++) {
		const struct rec_view_buf *b = &views[v]->view[k];
		size_t pos = 0;

		while (pos < b->len) {
			const char *row = b->bytes + pos;
			const char *end = memchr(row, '\n', b->len - pos);
			size_t len = end != NULL ? (size_t)(end - row) + 1
						 : b->len - pos;

			if (n == cap) {
				size_t c = cap != 0 ? 2 * cap : 256;
				struct merge_row *r =
					realloc(rows, c * sizeof(*rows));

				if (r == NULL) {
					free(rows);
					return -ENOMEM;
				}
				rows = r;
				cap = c;
			}
			rec_order_keys(row, len, true, &rows[n].time_ps,
				       &rows[n].nic);
			rows[n].seq = (uint32_t)n;
			rows[n].text = row;
			rows[n].len = len;
			n++;
			pos += len;
		}
	}
	*rowsp = rows;
	*np = n;
	return 0;
}

/* Kind k of every view, bytes of rows in all, into the parent's file, in
 * order. */
static int merge_kind(struct uet_record *parent,
		      struct uet_record *const *views, uint32_t n_views,
		      enum rec_kind k, size_t bytes)
{
	FILE *f = parent->f[k];
	struct merge_row *rows = NULL;
	size_t n = 0, i;
	uint32_t v;
	int rc;

	if (f == NULL)
		return -EIO;
	if (rec_room(parent, k, bytes) < 0)
		return -EFBIG;
	errno = 0;
	if (!rec_order_by_time(k)) {
		for (v = 0; v < n_views; v++) {
			const struct rec_view_buf *b = &views[v]->view[k];

			if (b->len > 0 &&
			    uet_outfile_put_rows(parent->out[k], b->bytes,
						 b->len) < 0)
				return rec_out_failed(parent->out[k]);
			rec_order_note_rows(parent, k, b->bytes, b->len);
		}
		return 0;
	}
	rc = merge_collect(views, n_views, k, &rows, &n);
	if (rc < 0)
		return rc;
	qsort(rows, n, sizeof(*rows), merge_row_cmp);
	for (i = 0; i < n && rc == 0; i++)
		if (uet_outfile_put_rows(parent->out[k], rows[i].text,
					 rows[i].len) < 0)
			rc = rec_out_failed(parent->out[k]);
	/* Sorted: the window is in order after the file's last row when its
	 * first row is. */
	if (rc == 0 && n > 0) {
		rec_order_note_key(parent, k, rows[0].time_ps, rows[0].nic);
		rec_order_note_key(parent, k, rows[n - 1].time_ps,
				   rows[n - 1].nic);
	}
	free(rows);
	return rc;
}

/*
 * Called twice a window for every NIC's view, most of them empty: one pass
 * over the views counts each kind's bytes, reading only the views with
 * rows, and only kinds with rows are merged and their buffers given back
 * (a view's empty buffer holds no memory). Visiting each kind of each
 * view with a free() was 6% of a 16-host one-flow run's instructions.
 */
int uet_record_views_flush(struct uet_record *const *views, uint32_t n_views)
{
	size_t bytes[REC_KIND_COUNT] = {0};
	struct uet_record *parent;
	uint32_t v;
	int k, rc = 0;

	if (n_views == 0)
		return 0;
	if (views == NULL)
		return -EINVAL;
	parent = views[0]->parent;
	for (v = 0; v < n_views; v++) {
		const struct uet_record *view = views[v];

		if (view->parent == NULL || view->parent != parent)
			return -EINVAL;
		for (k = 0; view->view_bytes != 0 && k < REC_KIND_COUNT; k++)
			bytes[k] += view->view[k].len;
	}
	for (k = 0; k < REC_KIND_COUNT; k++) {
		int err;

		if (bytes[k] == 0)
			continue;
		err = merge_kind(parent, views, n_views, (enum rec_kind)k,
				 bytes[k]);
		if (err < 0 && rc == 0)
			rc = err;
		for (v = 0; v < n_views; v++)
			rec_view_buf_release(&views[v]->view[k]);
	}
	/* Every kind with rows was given back above, and the others are
	 * empty. */
	for (v = 0; v < n_views; v++)
		views[v]->view_bytes = 0;
	return rc;
}
