/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the lib/wire test suites: hex images and sample frames. */
#ifndef WIRE_TEST_UTIL_H
#define WIRE_TEST_UTIL_H

#include <check.h>
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "uet_wire.h"

/* Decode hex text (spaces ignored) into out; returns the byte count. */
static inline size_t hex_decode(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = 0;
	int hi = -1;

	for (; *hex != '\0'; hex++) {
		int v;

		if (isspace((unsigned char)*hex) || *hex == '|')
			continue;
		if (*hex >= '0' && *hex <= '9')
			v = *hex - '0';
		else if (*hex >= 'a' && *hex <= 'f')
			v = *hex - 'a' + 10;
		else if (*hex >= 'A' && *hex <= 'F')
			v = *hex - 'A' + 10;
		else
			ck_abort_msg("bad hex character '%c'", *hex);
		if (hi < 0) {
			hi = v;
			continue;
		}
		ck_assert_uint_lt(n, cap);
		out[n++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	ck_assert_int_eq(hi, -1);
	return n;
}

/* Assert that len bytes at got equal the hex image, naming the first
 * differing byte. */
#define ck_assert_bytes_hex(got, len, hex)                                     \
	do {                                                                   \
		uint8_t want_[2048];                                           \
		size_t wn_ = hex_decode((hex), want_, sizeof(want_));          \
		size_t i_;                                                     \
		ck_assert_uint_eq((len), wn_);                                 \
		for (i_ = 0; i_ < wn_; i_++)                                   \
			ck_assert_msg((got)[i_] == want_[i_],                  \
				      "byte %zu: 0x%02x, want 0x%02x", i_,     \
				      (got)[i_], want_[i_]);                   \
	} while (0)

/* Host 0 and host 1 of the project's address plan. */
#define TEST_IP_A 0xc6120001u /* 198.18.0.1 */
#define TEST_IP_B 0xc6120002u /* 198.18.0.2 */

static inline void test_addr(struct uet_frame_addr *a, uint8_t dscp,
			     uint16_t entropy)
{
	static const uint8_t mac_a[6] = {0x02, 0, 0, 0, 0, 0x01};
	static const uint8_t mac_b[6] = {0x02, 0, 0, 0, 0, 0x02};

	uet_frame_addr_default(a);
	memcpy(a->src_mac, mac_a, 6);
	memcpy(a->dst_mac, mac_b, 6);
	a->src_ip = TEST_IP_A;
	a->dst_ip = TEST_IP_B;
	a->dscp = dscp;
	a->entropy = entropy;
}

/* The NIC's data packet headers: RUD_CC_REQ + SES standard request. */
static inline void test_data_hdrs(struct uet_pds_hdr *pds,
				  struct uet_ses_hdr *ses,
				  uint32_t payload_bytes)
{
	memset(pds, 0, sizeof(*pds));
	pds->type = UET_PDS_TYPE_RUD_CC_REQ;
	pds->flags = UET_PDS_REQ_F_AR;
	pds->u.req.psn = 0x1000;
	pds->u.req.spdcid = 7;
	pds->u.req.dpdcid = 9;
	memset(ses, 0, sizeof(*ses));
	ses->kind = UET_SES_REQUEST_STD;
	ses->u.std.opcode = UET_SES_OP_SEND;
	ses->u.std.flags = UET_SES_F_SOM | UET_SES_F_EOM;
	ses->u.std.message_id = 1;
	ses->u.std.job_id = 1;
	ses->u.std.request_length = payload_bytes;
}

#endif /* WIRE_TEST_UTIL_H */
