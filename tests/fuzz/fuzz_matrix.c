/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for connection matrices (lib/workload): every input
 * goes through uet_wl_matrix_parse() with the host count its Nodes line
 * declares; a matrix that loads must then run to the end over the
 * stand-in network (tests/workload/fake_net.h), triggers and all: the
 * loader's checks promise that every connection starts and every message
 * is received.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake_net.h"

/* Most hosts tried: enough for every trigger shape, small to run. */
#define FUZZ_HOSTS_MAX 64u

/* The number after "Nodes ", or 4. */
static uint32_t declared_hosts(const uint8_t *d, size_t n)
{
	char buf[512];
	const char *p;
	unsigned long v;

	if (n >= sizeof(buf))
		n = sizeof(buf) - 1;
	memcpy(buf, d, n);
	buf[n] = '\0';
	p = strstr(buf, "Nodes ");
	if (p == NULL)
		return 4;
	v = strtoul(p + 6, NULL, 10);
	return v >= 2 && v <= FUZZ_HOSTS_MAX ? (uint32_t)v : 4;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	struct uet_wl_error err;
	struct uet_wl_program p;
	struct fake_net *f;
	int rc;

	rc = uet_wl_matrix_parse(&p, "fuzz.cm", (const char *)d, n,
				 declared_hosts(d, n), &err);
	if (rc != 0) {
		uet_wl_program_free(&p);
		return 0;
	}
	f = calloc(1, sizeof(*f));
	if (f == NULL || uet_wl_engine_create(&f->e, &p, fake_post, f) < 0)
		abort();
	uet_wl_engine_set_trigger_delay(f->e, 500000);
	rc = uet_wl_engine_start(f->e);
	if (rc == 0)
		rc = fake_run(f);
	/* Only the stand-in network's own event limit may stop it. */
	if (rc == 0 && !uet_wl_engine_done(f->e))
		abort();
	uet_wl_engine_free(f->e);
	free(f);
	uet_wl_program_free(&p);
	return 0;
}
