/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for lib/wire: every input goes through the top-level
 * frame parser (default and a custom UDP port) and every sub-parser at the
 * offsets where headers start, and a copy through the in-place editors
 * (trim, DSCP, CE, trailer). A trimmed frame must parse as trimmed.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uet_wire.h"

#define FUZZ_CAP 4096

/* Parsers at one offset; results are only checked for sanity. */
static void sub_parsers(const uint8_t *p, size_t n)
{
	struct uet_udp_hdr udp;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_ipv4_hdr ip;
	enum uet_wire_reason why;
	uet_time_t t;
	unsigned int k;
	int rc;

	rc = uet_ipv4_parse(p, n, &ip, &why);
	if (rc > 0 && (size_t)rc > n)
		abort();
	rc = uet_udp_parse(p, n, &udp, &why);
	if (rc > 0 && (size_t)rc > n)
		abort();
	rc = uet_pds_parse(p, n, &pds, &why);
	if (rc > 0 && (size_t)rc > n)
		abort();
	for (k = 0; k <= 7; k++) {
		rc = uet_ses_parse(k, p, n, &ses, &why);
		if (rc > 0 && (size_t)rc > n)
			abort();
	}
	uet_ls_trailer_parse(p, n, &t, &why);
}

static void check_frame(const uint8_t *buf, size_t len, int rc,
			const struct uet_frame *f, enum uet_wire_reason why)
{
	if (rc == 0) {
		if (why != UET_WIRE_OK)
			abort();
		if (f->kind == UET_FRAME_UET &&
		    f->payload_offset + f->payload_bytes > len)
			abort();
	} else if (rc != -EBADMSG || why == UET_WIRE_OK ||
		   why >= UET_WIRE_REASON_COUNT) {
		abort();
	}
	(void)buf;
	(void)uet_wire_reason_str(why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t offsets[] = {0, 14, 34, 42, 46, 50, 54, 58, 74};
	struct uet_wire_cfg cfg;
	struct uet_frame f;
	struct uet_eth_hdr eth;
	struct uet_pfc pfc;
	struct uet_ls_ctrl ls;
	enum uet_wire_reason why = UET_WIRE_OK;
	uint8_t copy[FUZZ_CAP + 16];
	unsigned int i;
	int rc;

	rc = uet_frame_parse(data, size, &f, &why);
	check_frame(data, size, rc, &f, why);
	uet_wire_cfg_default(&cfg);
	if (size >= 38)
		cfg.udp_dport = (uint16_t)(data[36] << 8 | data[37]);
	rc = uet_frame_parse_cfg(&cfg, data, size, &f, &why);
	check_frame(data, size, rc, &f, why);

	uet_eth_parse(data, size, &eth, &why);
	uet_pfc_parse(data, size, &pfc, &why);
	uet_ls_ctrl_parse(data, size, &ls, &why);
	for (i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++)
		if (offsets[i] <= size)
			sub_parsers(data + offsets[i], size - offsets[i]);

	if (size > FUZZ_CAP)
		return 0;
	memcpy(copy, data, size);
	rc = uet_frame_trim(copy, size, UET_DSCP_DEFAULT_TRIMMED);
	if (rc > 0) {
		rc = uet_frame_parse_cfg(&cfg, copy, (size_t)rc, &f, &why);
		/* A trimmed frame always parses: as UET (trimmed, or a
		 * request with no SES) or as other traffic. */
		if (rc != 0)
			abort();
		if (f.kind == UET_FRAME_UET &&
		    (f.payload_bytes != 0 || f.has_trailer))
			abort();
	}
	memcpy(copy, data, size);
	uet_frame_set_dscp(copy, size, 10);
	uet_frame_mark_ce(copy, size);
	rc = uet_ls_trailer_append(copy, size, sizeof(copy), 42);
	if (rc > 0) {
		uet_time_t t = 0;

		if (uet_ls_trailer_strip(copy, (size_t)rc, &t) < 0 || t != 42)
			abort();
	}
	return 0;
}
