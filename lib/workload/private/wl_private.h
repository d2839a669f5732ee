/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/workload's internals shared between its files. */
#ifndef WL_PRIVATE_H
#define WL_PRIVATE_H

#include <stdarg.h>
#include <stdint.h>

#include "uet_workload.h"

/*
 * The most bytes an input file of a workload may hold, checked before it
 * is read (uet_infile.h): far past any trace or matrix we have seen (a
 * Chakra rank of a million nodes is about 100 MB), well short of a file
 * that would take the machine's memory.
 */
#define WL_MATRIX_MAX_BYTES (UINT64_C(256) << 20)
#define WL_TRACE_MAX_BYTES (UINT64_C(512) << 20)
/*
 * A gzip trace inflates to at most this many times its own size (and to
 * WL_TRACE_MAX_BYTES): Chakra traces compress about 17 to 1, and gzip's
 * own limit is about 1,030 to 1, which a file of zeros reaches (a 1 MB
 * file would take a gigabyte before any check of its bytes).
 */
#define WL_GZIP_MAX_RATIO 128u

/** Set err's message (printf style); returns -EINVAL. */
int wl_fail(struct uet_wl_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* WL_PRIVATE_H */
