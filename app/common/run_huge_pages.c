/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A large run's C heap on transparent huge pages.
 *
 * A frame crossing a large fabric touches state (its ports, their queues,
 * the NICs' PDCs) last touched long before, spread over hundreds of MiB:
 * with 4 KiB pages nearly every such touch also misses the TLB. The
 * kernels this runs on give huge pages to anonymous memory that asks for
 * them (transparent_hugepage/enabled "madvise", Debian's default); the
 * pools ask for theirs (drivers/uet_port_pool.c), and glibc's malloc asks
 * for the heap's when its tunable glibc.malloc.hugetlb is 1. Tunables are
 * read once, as the process starts, so a run that is expected to be large
 * starts itself again with the tunable set, before EAL or any output:
 * on the 8,192-host permutation (expected 838 MiB) huge pages for the
 * pools and the heap took 10% off the CPU time, each about half of it.
 * A small run stays as it is: it would gain nothing and pay a second
 * start and 2 MiB steps of heap.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_huge_pages.h"

/* The smallest expected peak for which the heap goes on huge pages. */
#define RUN_HUGE_PAGES_MIN_BYTES (UINT64_C(256) << 20)
#define RUN_HUGE_PAGES_TUNABLE "glibc.malloc.hugetlb"
#define RUN_THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"

/* The kernel gives huge pages to memory that asks ("[madvise]"); under
 * "[always]" the heap has them already, under "[never]" not at all. */
static int thp_on_request(void)
{
	char mode[128] = "";
	FILE *f = fopen(RUN_THP_ENABLED, "r");

	if (f == NULL)
		return 0;
	if (fgets(mode, sizeof(mode), f) == NULL)
		mode[0] = '\0';
	fclose(f);
	return strstr(mode, "[madvise]") != NULL;
}

int run_huge_pages_exec(const struct run_sizing *sizing, char **argv,
			const char *prog)
{
	const char *old = getenv("GLIBC_TUNABLES");
	char value[512];
	int n;

	if (sizing->expected_bytes < RUN_HUGE_PAGES_MIN_BYTES ||
	    !thp_on_request())
		return 0;
	/* Started again already, or the user chose the heap's pages. */
	if (old != NULL && strstr(old, RUN_HUGE_PAGES_TUNABLE) != NULL)
		return 0;
	n = snprintf(value, sizeof(value), "%s%s%s=1", old != NULL ? old : "",
		     old != NULL && old[0] != '\0' ? ":" : "",
		     RUN_HUGE_PAGES_TUNABLE);
	if (n < 0 || (size_t)n >= sizeof(value))
		return 0;
	if (setenv("GLIBC_TUNABLES", value, 1) < 0)
		return -errno;
	fflush(NULL);
	execv("/proc/self/exe", argv);
	/* Still here: the run goes on with the heap on 4 KiB pages. */
	n = errno;
	fprintf(stderr,
		"%s: cannot start again with the heap on huge pages "
		"(/proc/self/exe: %s): going on without\n",
		prog, strerror(n));
	if (old != NULL)
		setenv("GLIBC_TUNABLES", old, 1);
	else
		unsetenv("GLIBC_TUNABLES");
	return -n;
}
