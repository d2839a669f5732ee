/* SPDX-License-Identifier: BSD-3-Clause */
/* Output files renamed into place when whole (uet_outfile.h). */
#include <errno.h>
#include <stdio.h>
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

int uet_outfile_failed(struct uet_outfile *o)
{
	if (o->err == 0)
		o->err = errno > 0 ? -errno : -EIO;
	return o->err;
}

int uet_outfile_close(struct uet_outfile *o, int rc)
{
	if (o->f != NULL) {
		errno = 0;
		if (fflush(o->f) != 0 || ferror(o->f))
			(void)uet_outfile_failed(o);
		errno = 0;
		if (fclose(o->f) != 0)
			(void)uet_outfile_failed(o);
		o->f = NULL;
	}
	if (o->err == 0 && rc < 0)
		o->err = rc;
	if (o->err == 0 && rename(o->tmp, o->path) != 0)
		o->err = -errno;
	if (o->err != 0)
		(void)unlink(o->tmp);
	return o->err;
}
