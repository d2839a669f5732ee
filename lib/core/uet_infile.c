/* SPDX-License-Identifier: BSD-3-Clause */
/* Input files checked to be regular and bounded before they are read
 * (uet_infile.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "uet_infile.h"

int uet_infile_open(const char *path, uint64_t max_bytes, int *fdp,
		    struct uet_infile_info *info)
{
	struct uet_infile_info scratch;
	struct stat st;
	int fd, flags;

	if (info == NULL)
		info = &scratch;
	memset(info, 0, sizeof(*info));
	*fdp = -1;
	if (path == NULL || path[0] == '\0')
		return -ENOENT;
	/* O_NONBLOCK: the open of a FIFO returns at once instead of waiting
	 * for a writer; the file is refused below anyway. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		int err = errno;

		/* A directory opened for writing, a socket: say what it is. */
		if (stat(path, &st) == 0)
			info->mode = (uint32_t)st.st_mode;
		return -err;
	}
	if (fstat(fd, &st) != 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	info->mode = (uint32_t)st.st_mode;
	info->size_bytes = (uint64_t)st.st_size;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return S_ISDIR(st.st_mode) ? -EISDIR : -ENODEV;
	}
	if (max_bytes != 0 && (uint64_t)st.st_size > max_bytes) {
		close(fd);
		return -EFBIG;
	}
	/* Reads of a regular file never wait; the flag is cleared so that
	 * the descriptor is an ordinary one for stdio or zlib. */
	flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	*fdp = fd;
	return 0;
}

int uet_infile_read_fd(int fd, uint64_t max_bytes, char **bufp, size_t *lenp)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;

	*bufp = NULL;
	*lenp = 0;
	for (;;) {
		ssize_t got;

		if (cap - len < 2) {
			size_t ncap = cap != 0 ? 2 * cap : 65536;
			char *p = realloc(buf, ncap);

			if (p == NULL) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
			cap = ncap;
		}
		got = read(fd, buf + len, cap - len - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return -EIO;
		}
		if (got == 0)
			break;
		len += (size_t)got;
		if (max_bytes != 0 && len > max_bytes) {
			free(buf);
			return -EFBIG;
		}
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

/* What a file that is not regular is, by its mode. */
static const char *infile_kind(uint32_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

void uet_infile_describe(int rc, const struct uet_infile_info *info,
			 uint64_t max_bytes, char *buf, size_t len)
{
	const uint32_t mode = info != NULL ? info->mode : 0;

	if (buf == NULL || len == 0)
		return;
	switch (rc) {
	case 0:
		snprintf(buf, len, "a regular file");
		break;
	case -ENOENT:
		snprintf(buf, len, "no such file");
		break;
	case -ELOOP:
		snprintf(buf, len,
			 "a loop of symbolic links (or more links than the "
			 "system follows)");
		break;
	case -EISDIR:
		snprintf(buf, len, "a directory, not a file");
		break;
	case -ENODEV:
		snprintf(buf, len, "%s, not a regular file", infile_kind(mode));
		break;
	case -EFBIG:
		snprintf(buf, len,
			 "of %" PRIu64 " bytes, larger than the %" PRIu64
			 " bytes (%" PRIu64 " MiB) such a file may be",
			 info != NULL ? info->size_bytes : 0, max_bytes,
			 max_bytes >> 20);
		break;
	default:
		snprintf(buf, len, "cannot be opened: %s", strerror(-rc));
		break;
	}
}
