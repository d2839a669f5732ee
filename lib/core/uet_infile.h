/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * An input file (a scenario, a connection matrix, a Chakra trace), opened
 * only when it is a regular file of at most a given size. Anything else
 * would mislead or never end: open() of a FIFO waits for a writer,
 * /dev/zero reads for ever, a directory reads as nothing. The checks are
 * made on the file opened (fstat of its descriptor), not on a path that
 * may change between a stat() and the open().
 */
#ifndef UET_INFILE_H
#define UET_INFILE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What uet_infile_open() found, for its caller's message. */
struct uet_infile_info {
	uint64_t size_bytes; /**< the file's size (st_size), when known */
	uint32_t mode;	     /**< st_mode of what the path names, or 0 */
};

/**
 * Open path for reading (O_CLOEXEC, blocking reads), without waiting on a
 * FIFO's writer.
 *
 * @param max_bytes
 *   The largest the file may be; 0: no limit.
 * @param fdp
 *   Set to the open descriptor on success (the caller closes it).
 * @param info
 *   Filled in (also on failure, as far as known); may be NULL.
 * @return
 *   0, or -ENOENT (no such file), -ELOOP (a loop of symbolic links),
 *   -EISDIR (a directory), -ENODEV (a FIFO, a device or a socket: not a
 *   regular file), -EFBIG (larger than max_bytes), or another -errno of
 *   open() (-EACCES, -ENOTDIR, ...).
 */
int uet_infile_open(const char *path, uint64_t max_bytes, int *fdp,
		    struct uet_infile_info *info);

/**
 * Read the whole of a file opened by uet_infile_open() into a new buffer,
 * NUL-terminated (one byte past len), at most max_bytes (0: no limit; a
 * file that grew past it since it was opened gives -EFBIG).
 *
 * @return
 *   0 with *bufp (free() it) and *lenp, or -ENOMEM, -EFBIG, -EIO.
 */
int uet_infile_read_fd(int fd, uint64_t max_bytes, char **bufp, size_t *lenp);

/**
 * What uet_infile_open()'s error means, as words for a message: "no such
 * file", "a directory, not a file", "a FIFO, not a regular file", "of
 * 2097152 bytes, larger than the 1048576 bytes such a file may be", ...
 */
void uet_infile_describe(int rc, const struct uet_infile_info *info,
			 uint64_t max_bytes, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* UET_INFILE_H */
