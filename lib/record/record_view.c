/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Views of the records: one per writer that may run on its own lcore (a
 * NIC). A view formats rows as the records do but keeps them in memory
 * until the wiring flushes it into the parent's files at a window
 * boundary, views in host order, so the files are the same whichever
 * lcores ran the writers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record_private.h"

/*
 * A view's buffer of a kind is taken at the window's first row and given
 * back when the window's rows are flushed: a NIC has rows in few of the
 * windows, and tens of thousands of NICs each keeping its largest window's
 * buffer of every kind held 12 KiB a NIC (800 MB at 65,536 hosts). The
 * first size holds a window's usual rows (one stats row is about 400
 * bytes); more doubles it.
 */
#define REC_VIEW_FIRST_BYTES 1024u

int uet_record_view_create(struct uet_record **viewp, struct uet_record *parent)
{
	struct uet_record *v;

	if (viewp == NULL || parent == NULL || parent->parent != NULL)
		return -EINVAL;
	v = calloc(1, sizeof(*v));
	if (v == NULL)
		return -ENOMEM;
	v->conf = parent->conf;
	memcpy(v->f, parent->f, sizeof(v->f));
	v->parent = parent;
	*viewp = v;
	return 0;
}

int rec_view_append(struct uet_record *view, enum rec_kind k,
		    const struct rec_line *l)
{
	struct rec_view_buf *b = &view->view[k];

	if (b->len + l->len > b->cap) {
		size_t cap = b->cap ? b->cap : REC_VIEW_FIRST_BYTES;
		char *p;

		while (cap < b->len + l->len)
			cap *= 2;
		p = realloc(b->bytes, cap);
		if (p == NULL)
			return -ENOMEM;
		b->bytes = p;
		b->cap = cap;
	}
	memcpy(b->bytes + b->len, l->buf, l->len);
	b->len += l->len;
	view->view_bytes += l->len;
	return 0;
}

int uet_record_view_flush(struct uet_record *view)
{
	int k, rc = 0;

	if (view == NULL || view->parent == NULL)
		return view == NULL ? 0 : -EINVAL;
	for (k = 0; k < REC_KIND_COUNT; k++) {
		struct rec_view_buf *b = &view->view[k];
		FILE *f = view->parent->f[k];

		if (b->len == 0)
			continue;
		errno = 0;
		if (f == NULL)
			rc = -EIO;
		else if (rec_room(view->parent, (enum rec_kind)k, b->len) < 0)
			rc = -EFBIG;
		else if (uet_outfile_put_rows(view->parent->out[k], b->bytes,
					      b->len) < 0)
			rc = rec_out_failed(view->parent->out[k]);
		else
			rec_order_note_rows(view->parent, (enum rec_kind)k,
					    b->bytes, b->len);
		rec_view_buf_release(b);
	}
	view->view_bytes = 0;
	return rc;
}

void rec_view_buf_release(struct rec_view_buf *b)
{
	if (b->bytes == NULL)
		return;
	free(b->bytes);
	b->bytes = NULL;
	b->len = 0;
	b->cap = 0;
}

/* Called by uet_record_close(): what is left goes to the parent. */
int rec_view_close(struct uet_record *view)
{
	int rc = uet_record_view_flush(view);
	int k;

	for (k = 0; k < REC_KIND_COUNT; k++)
		free(view->view[k].bytes);
	free(view->nics);
	free(view);
	return rc;
}

/* A block of a view's rows: for each kind in enum order, its byte count
 * (32 bits, host order: the ranks of a run share one build) and its
 * rows. */
int uet_record_view_export(struct uet_record *view, uint8_t **dst, size_t *len,
			   size_t *cap)
{
	size_t need = *len;
	uint8_t *p;
	int k;

	if (view == NULL || view->parent == NULL)
		return -EINVAL;
	for (k = 0; k < REC_KIND_COUNT; k++)
		need += sizeof(uint32_t) + view->view[k].len;
	if (need > *cap) {
		size_t c = *cap != 0 ? *cap : 4096u;

		while (c < need)
			c *= 2;
		p = realloc(*dst, c);
		if (p == NULL)
			return -ENOMEM;
		*dst = p;
		*cap = c;
	}
	p = *dst + *len;
	for (k = 0; k < REC_KIND_COUNT; k++) {
		struct rec_view_buf *b = &view->view[k];
		uint32_t n = (uint32_t)b->len;

		memcpy(p, &n, sizeof(n));
		p += sizeof(n);
		if (n != 0)
			memcpy(p, b->bytes, n);
		p += n;
		rec_view_buf_release(b);
	}
	view->view_bytes = 0;
	*len = need;
	return 0;
}

int uet_record_view_import(struct uet_record *view, const uint8_t *src,
			   size_t len, size_t *used)
{
	size_t at = 0;
	int k;

	if (view == NULL || view->parent == NULL)
		return -EINVAL;
	/* The whole block checked first: a refused one adds no row. */
	for (k = 0; k < REC_KIND_COUNT; k++) {
		uint32_t n;

		if (len - at < sizeof(n))
			return -EBADMSG;
		memcpy(&n, src + at, sizeof(n));
		at += sizeof(n);
		if (len - at < n)
			return -EBADMSG;
		at += n;
	}
	at = 0;
	for (k = 0; k < REC_KIND_COUNT; k++) {
		struct rec_view_buf *b = &view->view[k];
		uint32_t n;

		memcpy(&n, src + at, sizeof(n));
		at += sizeof(n);
		if (n != 0 && b->len + n > b->cap) {
			size_t cap = b->cap ? b->cap : REC_VIEW_FIRST_BYTES;
			char *p;

			while (cap < b->len + n)
				cap *= 2;
			p = realloc(b->bytes, cap);
			if (p == NULL)
				return -ENOMEM;
			b->bytes = p;
			b->cap = cap;
		}
		if (n != 0)
			memcpy(b->bytes + b->len, src + at, n);
		b->len += n;
		view->view_bytes += n;
		at += n;
	}
	*used = at;
	return 0;
}

size_t uet_record_view_bytes(const struct uet_record *view)
{
	return view != NULL ? view->view_bytes : 0;
}
