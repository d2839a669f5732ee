/* SPDX-License-Identifier: BSD-3-Clause */
/* Output files renamed into place when whole (uet_outfile.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uet_outfile.h"

int uet_outfile_open(struct uet_outfile *o, const char *path)
{
	int n;

	memset(o, 0, sizeof(*o));
	n = snprintf(o->path, sizeof(o->path), "%s", path);
	if (n < 0 || (size_t)n >= sizeof(o->path))
		return -ENAMETOOLONG;
	n = snprintf(o->tmp, sizeof(o->tmp), "%s%s", path, UET_OUTFILE_SUFFIX);
	if (n < 0 || (size_t)n >= sizeof(o->tmp))
		return -ENAMETOOLONG;
	errno = 0;
	o->f = fopen(o->tmp, "wb");
	if (o->f == NULL)
		return errno != 0 ? -errno : -EIO;
	/* An earlier run's file of that name is not this run's. */
	if (unlink(o->path) != 0 && errno != ENOENT) {
		int err = -errno;

		fclose(o->f);
		o->f = NULL;
		(void)unlink(o->tmp);
		return err;
	}
	return 0;
}

/*
 * What a rows buffer starts at: the records of a 16-host run are a few
 * KiB each, and a buffer of 1 MiB from the start was one mmap(2) and one
 * munmap(2) per file (the C library maps blocks that large apart). It
 * doubles as rows come, up to the size asked for.
 */
#define OUTFILE_ROWS_FIRST_BYTES (16u * 1024u)

int uet_outfile_rows_buffer(struct uet_outfile *o, size_t bytes)
{
	size_t first = bytes < OUTFILE_ROWS_FIRST_BYTES
			       ? bytes
			       : OUTFILE_ROWS_FIRST_BYTES;

	free(o->rows);
	o->rows = NULL;
	o->rows_len = 0;
	o->rows_cap = 0;
	o->rows_max = 0;
	if (bytes == 0)
		return -EINVAL;
	o->rows = malloc(first);
	if (o->rows == NULL)
		return -ENOMEM;
	o->rows_cap = first;
	o->rows_max = bytes;
	/* Every byte goes through rows: stdio must not hold a part of one. */
	if (setvbuf(o->f, NULL, _IONBF, 0) != 0) {
		free(o->rows);
		o->rows = NULL;
		o->rows_cap = 0;
		o->rows_max = 0;
		return -EIO;
	}
	return 0;
}

/* bytes to the file at once: unbuffered, one write(2) for a regular file
 * (stdio loops over short writes). */
static int put_now(struct uet_outfile *o, const void *bytes, size_t len)
{
	errno = 0;
	if (len > 0 && fwrite(bytes, 1, len, o->f) != len)
		return errno != 0 ? -errno : -EIO;
	if (o->rows == NULL && fflush(o->f) != 0)
		return errno != 0 ? -errno : -EIO;
	return 0;
}

int uet_outfile_flush(struct uet_outfile *o)
{
	int rc;

	if (o->rows_len == 0)
		return 0;
	rc = put_now(o, o->rows, o->rows_len);
	o->rows_len = 0;
	return rc;
}

/* Room for need bytes in rows (at most rows_max): 0, or -ENOMEM with
 * the buffer as it was. */
static int rows_grow(struct uet_outfile *o, size_t need)
{
	size_t cap = o->rows_cap;
	char *p;

	while (cap < need)
		cap = cap > o->rows_max / 2 ? o->rows_max : cap * 2;
	p = realloc(o->rows, cap);
	if (p == NULL)
		return -ENOMEM;
	o->rows = p;
	o->rows_cap = cap;
	return 0;
}

int uet_outfile_put_rows(struct uet_outfile *o, const void *rows, size_t len)
{
	int rc;

	if (o->rows == NULL)
		return put_now(o, rows, len);
	if (o->rows_len + len > o->rows_max) {
		rc = uet_outfile_flush(o);
		if (rc < 0)
			return rc;
		if (len > o->rows_max)
			return put_now(o, rows, len);
	}
	/* Without memory to grow, what is held goes out first. */
	if (o->rows_len + len > o->rows_cap &&
	    rows_grow(o, o->rows_len + len) < 0) {
		rc = uet_outfile_flush(o);
		if (rc < 0)
			return rc;
		if (len > o->rows_cap)
			return put_now(o, rows, len);
	}
	memcpy(o->rows + o->rows_len, rows, len);
	o->rows_len += len;
	return 0;
}

int uet_outfile_failed(struct uet_outfile *o)
{
	if (o->err == 0)
		o->err = errno > 0 ? -errno : -EIO;
	return o->err;
}

int uet_outfile_close(struct uet_outfile *o, int rc)
{
	if (o->f != NULL) {
		if (o->err == 0 && uet_outfile_flush(o) < 0)
			(void)uet_outfile_failed(o);
		errno = 0;
		if (fflush(o->f) != 0 || ferror(o->f))
			(void)uet_outfile_failed(o);
		errno = 0;
		if (fclose(o->f) != 0)
			(void)uet_outfile_failed(o);
		o->f = NULL;
	}
	free(o->rows);
	o->rows = NULL;
	o->rows_len = o->rows_cap = o->rows_max = 0;
	if (o->err == 0 && rc < 0)
		o->err = rc;
	if (o->err == 0 && rename(o->tmp, o->path) != 0)
		o->err = -errno;
	if (o->err != 0)
		(void)unlink(o->tmp);
	return o->err;
}
