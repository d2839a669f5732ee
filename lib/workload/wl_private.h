/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/workload's internals shared between its files. */
#ifndef WL_PRIVATE_H
#define WL_PRIVATE_H

#include <stdarg.h>

#include "uet_workload.h"

/** Set err's message (printf style); returns -EINVAL. */
int wl_fail(struct uet_wl_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* WL_PRIVATE_H */
