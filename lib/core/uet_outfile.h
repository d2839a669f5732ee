/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An output file that appears under its name only when it is whole: it is
 * written as NAME.partial in the same folder and renamed to NAME once every
 * byte reached the file system. A run that fails to write (a full disk) or
 * dies leaves no NAME a reader could take for a complete record; an
 * earlier run's NAME is removed when the file is opened, so it cannot pass
 * for this run's either.
 *
 * A file written a row at a time over a run (the records, the captures)
 * holds its rows in a buffer of its own (uet_outfile_rows_buffer) and
 * hands them to the file system whole: NAME.partial of a process killed
 * outright (SIGKILL, the kernel's OOM killer) ends on a whole row, where
 * stdio's buffer went out when full, cutting a row at any byte. Only a
 * kill landing inside the write itself can still cut one.
 */
#ifndef UET_OUTFILE_H
#define UET_OUTFILE_H

#include <limits.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Appended to the name while the file is being written. */
#define UET_OUTFILE_SUFFIX ".partial"

/** One output file being written. */
struct uet_outfile {
	FILE *f;	     /**< the open temporary file, or NULL */
	char path[PATH_MAX]; /**< NAME */
	char tmp[PATH_MAX];  /**< NAME.partial */
	int err;	     /**< the first error seen (-errno) or 0 */
	char *rows;	     /**< whole rows not yet written, or NULL */
	size_t rows_cap;     /**< bytes rows can hold now */
	size_t rows_len;     /**< bytes rows holds */
	size_t rows_max;     /**< bytes rows may grow to */
};

/**
 * Create path.partial for writing (binary mode, which is text mode here)
 * and remove path.
 *
 * @return
 *   0, -ENAMETOOLONG, or -errno of fopen() (the file is not open then).
 */
int uet_outfile_open(struct uet_outfile *o, const char *path);

/**
 * Give the file a buffer of up to bytes for its rows (freed at close) and
 * write it unbuffered by stdio, so that what reaches the file system
 * ends where a row ends (uet_outfile_put_rows). The buffer starts small
 * and grows as rows come, so a file of a few rows costs no more memory
 * than they take.
 *
 * @return
 *   0, or -ENOMEM.
 */
int uet_outfile_rows_buffer(struct uet_outfile *o, size_t bytes);

/**
 * Write len bytes of whole rows (or records: whatever the reader must
 * not see cut). They are held in the rows buffer while they fit; the
 * rows held go to the file first when they would not; rows longer than
 * the buffer go at once, in one write. Without a rows buffer they go
 * through stdio, flushed at once.
 *
 * @return
 *   0, or -errno of the write (errno set; noted by uet_outfile_failed()
 *   by the caller, who knows what to say).
 */
int uet_outfile_put_rows(struct uet_outfile *o, const void *rows, size_t len);

/**
 * The rows held, to the file system now.
 *
 * @return
 *   0, or -errno as uet_outfile_put_rows().
 */
int uet_outfile_flush(struct uet_outfile *o);

/**
 * Note a failed write: keeps the first error (errno when it tells one,
 * else -EIO) and returns it.
 */
int uet_outfile_failed(struct uet_outfile *o);

/**
 * Flush, close and rename to path. A write error noted before, or one that
 * flushing or closing finds, removes path.partial instead. If the caller
 * closed the FILE itself (a library owned it), it sets o->f to NULL first
 * and passes its own result as rc.
 *
 * @return
 *   0 when path is whole, or the first error (-errno).
 */
int uet_outfile_close(struct uet_outfile *o, int rc);

#ifdef __cplusplus
}
#endif

#endif /* UET_OUTFILE_H */
