/* SPDX-License-Identifier: BSD-3-Clause */
/* A large run's C heap on transparent huge pages (run_huge_pages.c). */
#ifndef RUN_HUGE_PAGES_H
#define RUN_HUGE_PAGES_H

#include "run_sizing.h"

/*
 * When the run is expected to be large and the kernel gives huge pages on
 * request, start the program again (argv, the same process) with glibc's
 * malloc asking for them; returns only when it does not: 0 (not needed,
 * or started again already), or -errno when the exec failed (said on
 * stderr; the run goes on as it is).
 */
int run_huge_pages_exec(const struct run_sizing *sizing, char **argv,
			const char *prog);

#endif /* RUN_HUGE_PAGES_H */
