/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fault switch (tests only, docs/interop.md "Proof that it can
 * fail"): a NIC built with -Dnic_faults=true breaks exactly one rule of
 * the page when the environment names it in UET_NIC_FAULT, so that the
 * conformance run (scripts/uet-conform) can show that the case checking
 * that rule fails, and no other. Each fault is one test in the code path
 * that keeps the rule (NIC_FAULT() in nic_private.h); without the option
 * the tests are the constant false and compile away, and a NIC refuses to
 * start with UET_NIC_FAULT set, so that nobody believes a fault is on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic_private.h"

static const char *const fault_names[UET_NIC_FAULT_COUNT] = {
	[UET_NIC_FAULT_NONE] = "none",
	[UET_NIC_FAULT_NO_ACK] = "no-ack",
	[UET_NIC_FAULT_NO_SACK] = "no-sack",
	[UET_NIC_FAULT_CACK_AHEAD] = "cack-ahead",
	[UET_NIC_FAULT_NACK_CODE] = "nack-code",
	[UET_NIC_FAULT_NO_RETX_FLAG] = "no-retx-flag",
	[UET_NIC_FAULT_NO_ECN_ECHO] = "no-ecn-echo",
	[UET_NIC_FAULT_PROBE_IGNORED] = "probe-ignored",
	[UET_NIC_FAULT_CLOSE_IGNORED] = "close-ignored",
	[UET_NIC_FAULT_PDC_ZERO] = "pdc-zero",
	[UET_NIC_FAULT_DUP_NO_ACK] = "dup-no-ack",
	[UET_NIC_FAULT_MALFORMED_DEAF] = "malformed-deaf",
	[UET_NIC_FAULT_NO_BACKOFF] = "no-backoff",
	[UET_NIC_FAULT_ACK_UNREQUESTED] = "ack-unrequested",
	[UET_NIC_FAULT_NACK_LASTHOP] = "nack-lasthop",
};

const char *uet_nic_fault_name(enum uet_nic_fault f)
{
	return (unsigned int)f < UET_NIC_FAULT_COUNT ? fault_names[f] : NULL;
}

int uet_nic_fault_parse(const char *name, enum uet_nic_fault *out)
{
	unsigned int i;

	for (i = 0; name != NULL && i < UET_NIC_FAULT_COUNT; i++)
		if (strcmp(name, fault_names[i]) == 0) {
			*out = (enum uet_nic_fault)i;
			return 0;
		}
	return -EINVAL;
}

int nic_fault_from_env(struct uet_nic *nic)
{
	const char *v = getenv("UET_NIC_FAULT");
	enum uet_nic_fault f;
	unsigned int i;

	if (v == NULL || v[0] == '\0')
		return 0;
	if (!UET_NIC_FAULTS_BUILT) {
		fprintf(stderr,
			"uet_nic: UET_NIC_FAULT=%s: this build has no fault "
			"switch (configure with -Dnic_faults=true)\n",
			v);
		return -ENOTSUP;
	}
	if (uet_nic_fault_parse(v, &f) < 0) {
		fprintf(stderr,
			"uet_nic: UET_NIC_FAULT=%s: not a fault; one of", v);
		for (i = 0; i < UET_NIC_FAULT_COUNT; i++)
			fprintf(stderr, " %s", fault_names[i]);
		fputc('\n', stderr);
		return -EINVAL;
	}
	nic->fault = f;
	return 0;
}
