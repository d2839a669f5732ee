/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The canonical row order of the records a run streams (docs/records.md,
 * "Row order"): rows are written as the NICs run their lockstep windows,
 * which interleaves NICs window by window in one process and differs
 * between an embedded run and processes over ports. Once the files are
 * closed, each is put in an order its data defines:
 *   uet-transport-stats.csv, uet-events.csv, uet-monitor.csv,
 *   uet-cc-trace.csv: by (time_ps, nic as a 32-bit number);
 *   flows.csv: by msg_id;
 * stably, so rows of one NIC with equal keys keep the order that NIC wrote
 * them (its events' order, the same in every run mode). The header stays
 * first. scripts/uet-merge-records sorts with the same keys, so one
 * process's files are already merged.
 *
 * The writer notes the keys of every row it writes (rec_order_note_*), so
 * that closing a file it wrote in order (what the views' merge gives,
 * record_merge.c) costs nothing: the incast's 548 KB of transport stats
 * were read back through at close only to find them in order, 0.4 ms of a
 * 25 ms run. uet_record_order() still reads files it did not write.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_private.h"
#include "uet_ipv4_text.h"

struct order_row {
	uint64_t key1;	  /* time_ps, or msg_id */
	uint32_t key2;	  /* nic, or 0 */
	size_t index;	  /* position in the file: the stable tie-break */
	const char *text; /* the row, its '\n' included */
	size_t len;
};

static int row_cmp(const void *a, const void *b)
{
	const struct order_row *x = a, *y = b;

	if (x->key1 != y->key1)
		return x->key1 < y->key1 ? -1 : 1;
	if (x->key2 != y->key2)
		return x->key2 < y->key2 ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* The dotted IPv4 at s (up to end) as a number (0 if it is not one). */
static uint32_t ipv4_key(const char *s, const char *end)
{
	uint32_t v = 0;

	uet_ipv4_scan(s, (size_t)(end - s), &v);
	return v;
}

void rec_order_keys(const char *row, size_t len, bool by_time_nic,
		    uint64_t *key1, uint32_t *key2)
{
	const char *end = row + len, *s = row;
	uint64_t v = 0;

	/* The first field's digits, as strtoull() took them: a row that
	 * does not start with a number keys 0. */
	while (s != end && *s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	*key1 = v;
	*key2 = 0;
	if (!by_time_nic)
		return;
	s = memchr(row, ',', len);
	if (s != NULL)
		*key2 = ipv4_key(s + 1, end);
}

bool rec_order_by_time(enum rec_kind k)
{
	return k == REC_STATS || k == REC_EVENTS || k == REC_MONITOR ||
	       k == REC_CC_TRACE;
}

bool rec_order_kept(enum rec_kind k)
{
	return rec_order_by_time(k) || k == REC_FLOWS;
}

void rec_order_note_key(struct uet_record *rec, enum rec_kind k, uint64_t key1,
			uint32_t key2)
{
	struct rec_order_track *t = &rec->order[k];

	/* As file_in_order() reads it: keys that never decrease. */
	if (key1 < t->key1 || (key1 == t->key1 && key2 < t->key2))
		t->unordered = true;
	t->key1 = key1;
	t->key2 = key2;
}

void rec_order_note_rows(struct uet_record *rec, enum rec_kind k,
			 const char *rows, size_t len)
{
	const char *end = rows + len;
	bool by_time = rec_order_by_time(k);

	if (!rec_order_kept(k))
		return;
	while (rows < end) {
		const char *nl = memchr(rows, '\n', (size_t)(end - rows));
		size_t n = nl != NULL ? (size_t)(nl - rows) + 1
				      : (size_t)(end - rows);
		uint64_t k1;
		uint32_t k2;

		if (!rec->order[k].header_done) {
			rec->order[k].header_done = true;
		} else {
			rec_order_keys(rows, n, by_time, &k1, &k2);
			rec_order_note_key(rec, k, k1, k2);
		}
		rows += n;
	}
}

static int read_all(const char *path, char **bufp, size_t *lenp)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (f == NULL)
		return -errno;
	do {
		if (cap - len < 65536 + 1) {
			char *nb = realloc(buf, cap * 2 + 65536);

			if (nb == NULL) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
			cap = cap * 2 + 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	/* NUL after the last byte: the key parsers stop there. */
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

/* Split buf (len bytes) into rows after the header; *nrows rows. */
static int split_rows(char *buf, size_t len, size_t *header_len,
		      bool by_time_nic, struct order_row **rowsp, size_t *nrows)
{
	struct order_row *rows = NULL;
	size_t n = 0, cap = 0, pos;
	const char *nl = memchr(buf, '\n', len);

	if (nl == NULL)
		return -EINVAL; /* no whole header: not a record to order */
	*header_len = (size_t)(nl - buf) + 1;
	pos = *header_len;
	while (pos < len) {
		const char *end = memchr(buf + pos, '\n', len - pos);
		size_t rl = end != NULL ? (size_t)(end - (buf + pos)) + 1
					: len - pos;
		if (n == cap) {
			struct order_row *nr =
				realloc(rows, (cap * 2 + 1024) * sizeof(*rows));

			if (nr == NULL) {
				free(rows);
				return -ENOMEM;
			}
			rows = nr;
			cap = cap * 2 + 1024;
		}
		rows[n].text = buf + pos;
		rows[n].len = rl;
		rows[n].index = n;
		rec_order_keys(buf + pos, rl, by_time_nic, &rows[n].key1,
			       &rows[n].key2);
		n++;
		pos += rl;
	}
	*rowsp = rows;
	*nrows = n;
	return 0;
}

/*
 * Whether the file at path is in order already (rows with keys that never
 * decrease: the stable sort would leave them as they are), read through
 * once in pieces: what a run that put each window's rows in order
 * (record_merge.c) leaves, which then costs no memory to check. 1 in
 * order, 0 not, or a negative errno (-ENOENT: no such file).
 */
static int file_in_order(const char *path, bool by_time_nic)
{
	FILE *f = fopen(path, "rb");
	uint64_t prev1 = 0, k1;
	uint32_t prev2 = 0, k2;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	bool header = true;
	int rc = 1;

	if (f == NULL)
		return -errno;
	while (rc == 1 && (len = getline(&line, &cap, f)) > 0) {
		if (header) {
			header = false;
			continue;
		}
		/* A last row without its newline stays last anyway. */
		if (line[len - 1] != '\n')
			break;
		rec_order_keys(line, (size_t)len, by_time_nic, &k1, &k2);
		if (k1 < prev1 || (k1 == prev1 && k2 < prev2))
			rc = 0;
		prev1 = k1;
		prev2 = k2;
	}
	if (ferror(f))
		rc = -EIO;
	free(line);
	fclose(f);
	return rc;
}

/* Order one file in place (a temporary file, renamed); a missing file is
 * not an error: that record was off. */
static int order_path(const char *path, bool by_time_nic)
{
	char tmp[4120];
	struct order_row *rows = NULL;
	size_t len = 0, header_len = 0, n = 0, i;
	char *buf = NULL;
	FILE *f;
	int rc;

	rc = file_in_order(path, by_time_nic);
	if (rc == -ENOENT || rc == 1)
		return 0;
	if (rc < 0)
		return rc;
	rc = read_all(path, &buf, &len);
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return rc;
	rc = split_rows(buf, len, &header_len, by_time_nic, &rows, &n);
	if (rc == -EINVAL)
		rc = 0; /* empty or headless: nothing to order */
	if (rc < 0 || n < 2)
		goto out;
	/* A last row without its newline (a writer stopped mid-row) stays
	 * last, as it is: sorted in, it would run into the next row. */
	if (rows[n - 1].text[rows[n - 1].len - 1] != '\n')
		qsort(rows, n - 1, sizeof(*rows), row_cmp);
	else
		qsort(rows, n, sizeof(*rows), row_cmp);
	snprintf(tmp, sizeof(tmp), "%s.order", path);
	f = fopen(tmp, "wb");
	if (f == NULL) {
		rc = -errno;
		goto out;
	}
	fwrite(buf, 1, header_len, f);
	for (i = 0; i < n; i++)
		fwrite(rows[i].text, 1, rows[i].len, f);
	if (ferror(f))
		rc = -EIO;
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	if (rc == 0 && rename(tmp, path) < 0)
		rc = -errno;
	if (rc < 0)
		remove(tmp);
out:
	free(rows);
	free(buf);
	return rc;
}

static int order_file(const char *dir, const char *name, bool by_time_nic)
{
	char path[4096];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return order_path(path, by_time_nic);
}

int rec_order_closed(const struct uet_record *rec, enum rec_kind k,
		     const char *path)
{
	if (!rec_order_kept(k) || !rec->order[k].unordered)
		return 0;
	return order_path(path, rec_order_by_time(k));
}

int uet_record_order(const char *out_dir)
{
	static const char *const by_time_nic[] = {
		"uet-transport-stats.csv",
		"uet-events.csv",
		"uet-monitor.csv",
		"uet-cc-trace.csv",
	};
	size_t i;
	int rc, first = 0;

	for (i = 0; i < sizeof(by_time_nic) / sizeof(by_time_nic[0]); i++) {
		rc = order_file(out_dir, by_time_nic[i], true);
		if (rc < 0 && first == 0)
			first = rc;
	}
	rc = order_file(out_dir, "flows.csv", false);
	if (rc < 0 && first == 0)
		first = rc;
	return first;
}
