/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An output file that appears under its name only when it is whole: it is
 * written as NAME.partial in the same folder and renamed to NAME once every
 * byte reached the file system. A run that fails to write (a full disk) or
 * dies leaves no NAME a reader could take for a complete record; an
 * earlier run's NAME is removed when the file is opened, so it cannot pass
 * for this run's either.
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
