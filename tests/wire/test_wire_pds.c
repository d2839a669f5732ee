/* SPDX-License-Identifier: BSD-3-Clause */
/* PDS headers (lib/wire/uet_wire_pds.c): round trips with every flag,
 * exact byte images written by hand from the tables of
 * uet-wire-format.md, names, rejects. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_wire.h"
#include "wire_test_util.h"
/* Build h, check the size, parse it back into out, check type/nh/flags. */
static void round_trip(const struct uet_pds_hdr *h, struct uet_pds_hdr *out,
		       uint8_t want_flags)
{
	uint8_t buf[64];
	enum uet_wire_reason why = UET_WIRE_REASON_COUNT;
	size_t n = uet_pds_hdr_bytes(h->type);
	int rc;

	memset(buf, 0xa5, sizeof(buf));
	rc = uet_pds_build(buf, sizeof(buf), h);
	ck_assert_int_eq(rc, (int)n);
	ck_assert_uint_eq(buf[n], 0xa5); /* nothing written past it */
	rc = uet_pds_parse(buf, n, out, &why);
	ck_assert_int_eq(rc, (int)n);
	ck_assert_uint_eq(out->hdr_bytes, n);
	ck_assert_uint_eq(out->type, h->type);
	ck_assert_uint_eq(out->next_hdr, h->next_hdr);
	ck_assert_uint_eq(out->flags, want_flags);
	/* One byte short is always a truncated header. */
	ck_assert_int_eq(uet_pds_parse(buf, n - 1, out, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_PDS_TRUNC);
	ck_assert_int_eq(uet_pds_parse(buf, n, out, NULL), (int)n);
}

START_TEST(test_pds_request_round_trip_every_flag)
{
	static const uint8_t types[] = {
		UET_PDS_TYPE_RUD_REQ, UET_PDS_TYPE_ROD_REQ,
		UET_PDS_TYPE_RUD_CC_REQ, UET_PDS_TYPE_ROD_CC_REQ};
	unsigned int t, f;

	for (t = 0; t < 4; t++) {
		for (f = 0; f <= 0x7f; f++) {
			struct uet_pds_hdr h, o;
			bool cc = types[t] >= UET_PDS_TYPE_RUD_CC_REQ;

			if (f & ~UET_PDS_REQ_F_MASK)
				continue;
			memset(&h, 0, sizeof(h));
			h.type = types[t];
			h.next_hdr = UET_SES_REQUEST_STD;
			h.flags = (uint8_t)f;
			h.u.req.clear_psn_offset = -1234;
			h.u.req.psn = 0xfedcba98;
			h.u.req.spdcid = 0x1357;
			if (f & UET_PDS_REQ_F_SYN) {
				h.u.req.syn.use_rsv_pdc = (f & 0x10) != 0;
				h.u.req.syn.psn_offset = 0xabc;
			} else {
				h.u.req.dpdcid = 0x2468;
			}
			h.u.req.ccc_id = 0x5a;
			h.u.req.credit_target = 0xc0ffee;
			round_trip(&h, &o, (uint8_t)f);
			ck_assert_int_eq(o.u.req.clear_psn_offset, -1234);
			ck_assert_uint_eq(o.u.req.psn, 0xfedcba98);
			ck_assert_uint_eq(o.u.req.spdcid, 0x1357);
			if (f & UET_PDS_REQ_F_SYN) {
				ck_assert_uint_eq(o.u.req.dpdcid, 0);
				ck_assert_int_eq(o.u.req.syn.use_rsv_pdc,
						 (f & 0x10) != 0);
				ck_assert_uint_eq(o.u.req.syn.pdc_info,
						  (f & 0x10) ? 8 : 0);
				ck_assert_uint_eq(o.u.req.syn.psn_offset,
						  0xabc);
			} else {
				ck_assert_uint_eq(o.u.req.dpdcid, 0x2468);
				ck_assert_uint_eq(o.u.req.syn.psn_offset, 0);
			}
			ck_assert_uint_eq(o.u.req.ccc_id, cc ? 0x5a : 0);
			ck_assert_uint_eq(o.u.req.credit_target,
					  cc ? 0xc0ffee : 0);
		}
	}
}
END_TEST

START_TEST(test_pds_ack_round_trip_every_flag)
{
	static const uint8_t types[] = {UET_PDS_TYPE_ACK, UET_PDS_TYPE_ACK_CC,
					UET_PDS_TYPE_ACK_CCX};
	unsigned int combo;

	/* Every type x 7-bit flags x req x cc_type. */
	for (combo = 0; combo < 3 * 128 * 3 * 3; combo++) {
		unsigned int t = combo % 3, f = combo / 3 % 128;
		unsigned int req = combo / 384 % 3, cct = combo / 1152;
		struct uet_pds_hdr h, o;
		const struct uet_pds_ack *a = &o.u.ack;
		uint8_t want_flags = (uint8_t)(f | req << 1);
		unsigned int i;

		if (f & ~UET_PDS_ACK_F_MASK)
			continue;
		memset(&h, 0, sizeof(h));
		h.type = types[t];
		h.next_hdr = UET_SES_RESPONSE;
		h.flags = (uint8_t)f;
		h.u.ack.req = (uint8_t)req;
		h.u.ack.ack_psn_offset = -31166;
		h.u.ack.probe_opaque = 0xbeef;
		h.u.ack.cack_psn = 0x2468ace0;
		h.u.ack.spdcid = 0x3456;
		h.u.ack.dpdcid = 0x789a;
		h.u.ack.cc_type = (uint8_t)cct;
		h.u.ack.cc_flags = 0x9;
		h.u.ack.mpr = 0x87;
		h.u.ack.sack_psn_offset = -26232;
		h.u.ack.sack_bitmap = 0x123456789abcdef0ull;
		if (cct == UET_PDS_CC_TYPE_NSCC) {
			h.u.ack.cc.nscc.service_time = 0x99aa;
			h.u.ack.cc.nscc.restore_cwnd = true;
			h.u.ack.cc.nscc.rcv_cwnd_pend = 0x55;
			h.u.ack.cc.nscc.rcvd_bytes = 0x887766;
			h.u.ack.cc.nscc.ooo_count = 0x8765;
		} else if (cct == UET_PDS_CC_TYPE_CREDIT) {
			h.u.ack.cc.credit.credit = 0x123456;
			h.u.ack.cc.credit.ooo_count = 0x4321;
		}
		for (i = 0; i < 16; i++)
			h.u.ack.cc_state[i] = (uint8_t)(0xc0 + i);
		round_trip(&h, &o, want_flags);
		ck_assert_uint_eq(a->req, req);
		if (f & UET_PDS_ACK_F_P) {
			ck_assert_uint_eq(a->probe_opaque, 0xbeef);
			ck_assert_int_eq(a->ack_psn_offset, 0);
		} else {
			ck_assert_int_eq(a->ack_psn_offset, -31166);
			ck_assert_uint_eq(a->probe_opaque, 0);
		}
		ck_assert_uint_eq(a->cack_psn, 0x2468ace0);
		ck_assert_uint_eq(a->spdcid, 0x3456);
		ck_assert_uint_eq(a->dpdcid, 0x789a);
		if (types[t] == UET_PDS_TYPE_ACK) {
			ck_assert_uint_eq(a->sack_bitmap, 0);
			continue;
		}
		ck_assert_uint_eq(a->cc_type, cct);
		ck_assert_uint_eq(a->cc_flags, 0x9);
		ck_assert_uint_eq(a->mpr, 0x87);
		ck_assert_int_eq(a->sack_psn_offset, -26232);
		ck_assert_uint_eq(a->sack_bitmap, 0x123456789abcdef0ull);
		if (types[t] == UET_PDS_TYPE_ACK_CCX) {
			for (i = 0; i < 16; i++)
				ck_assert_uint_eq(a->cc_state[i], 0xc0 + i);
		} else if (cct == UET_PDS_CC_TYPE_NSCC) {
			ck_assert_uint_eq(a->cc.nscc.service_time, 0x99aa);
			ck_assert(a->cc.nscc.restore_cwnd);
			ck_assert_uint_eq(a->cc.nscc.rcv_cwnd_pend, 0x55);
			ck_assert_uint_eq(a->cc.nscc.rcvd_bytes, 0x887766);
			ck_assert_uint_eq(a->cc.nscc.ooo_count, 0x8765);
		} else if (cct == UET_PDS_CC_TYPE_CREDIT) {
			ck_assert_uint_eq(a->cc.credit.credit, 0x123456);
			ck_assert_uint_eq(a->cc.credit.rsvd, 0);
			ck_assert_uint_eq(a->cc.credit.ooo_count, 0x4321);
		} else {
			for (i = 0; i < 8; i++)
				ck_assert_uint_eq(a->cc_state[i], 0xc0 + i);
		}
	}
}
END_TEST

START_TEST(test_pds_nack_round_trip_every_flag_and_code)
{
	static const uint8_t types[] = {UET_PDS_TYPE_NACK,
					UET_PDS_TYPE_NACK_CCX};
	unsigned int combo;

	/* Every type x 7-bit flags x code. */
	for (combo = 0; combo < 2 * 128 * 256; combo++) {
		unsigned int t = combo % 2, f = combo / 2 % 128;
		unsigned int code = combo / 256;
		struct uet_pds_hdr h, o;
		unsigned int i;

		if (f & ~UET_PDS_NACK_F_MASK)
			continue;
		memset(&h, 0, sizeof(h));
		h.type = types[t];
		h.flags = (uint8_t)f;
		h.u.nack.nack_code = (uint8_t)code;
		h.u.nack.vendor_code = 0x87;
		h.u.nack.nack_psn = 0x99887766;
		h.u.nack.spdcid = 0x3456;
		h.u.nack.dpdcid = 0x789a;
		h.u.nack.payload = 0x56789abc;
		h.u.nack.nccx_type = 3;
		for (i = 0; i < 16; i++)
			h.u.nack.ccx_state[i] = (uint8_t)(0x0f - i);
		round_trip(&h, &o, (uint8_t)f);
		ck_assert_uint_eq(o.u.nack.nack_code, code);
		ck_assert_uint_eq(o.u.nack.vendor_code, 0x87);
		ck_assert_uint_eq(o.u.nack.nack_psn, 0x99887766);
		ck_assert_uint_eq(o.u.nack.spdcid, 0x3456);
		ck_assert_uint_eq(o.u.nack.dpdcid, 0x789a);
		ck_assert_uint_eq(o.u.nack.payload, 0x56789abc);
		if (types[t] == UET_PDS_TYPE_NACK_CCX) {
			ck_assert_uint_eq(o.u.nack.nccx_type, 3);
			/* byte 16: nccx_type in the high nibble
			 */
			ck_assert_uint_eq(o.u.nack.ccx_state[0], 0x3f);
			for (i = 1; i < 16; i++)
				ck_assert_uint_eq(o.u.nack.ccx_state[i],
						  0x0f - i);
		}
	}
}
END_TEST

START_TEST(test_pds_cp_round_trip_every_ctl_type_and_flag)
{
	unsigned int combo;

	/* Every ctl_type x 7-bit flags. */
	for (combo = 0; combo < 10 * 128; combo++) {
		unsigned int ct = combo / 128, f = combo % 128;
		struct uet_pds_hdr h, o;

		if (f & ~UET_PDS_CP_F_MASK)
			continue;
		memset(&h, 0, sizeof(h));
		h.type = UET_PDS_TYPE_CP;
		h.next_hdr = (uint8_t)ct;
		h.flags = (uint8_t)f;
		h.u.cp.probe_opaque = 0x9876;
		h.u.cp.psn = 0xcdef0123;
		h.u.cp.spdcid = 0xcdef;
		h.u.cp.dpdcid = 0xfedc;
		h.u.cp.syn.psn_offset = 0x876;
		h.u.cp.syn.use_rsv_pdc = true;
		h.u.cp.payload = 0xc1091234;
		round_trip(&h, &o, (uint8_t)f);
		ck_assert_uint_eq(o.next_hdr, ct);
		ck_assert_uint_eq(o.u.cp.probe_opaque, 0x9876);
		ck_assert_uint_eq(o.u.cp.psn, 0xcdef0123);
		ck_assert_uint_eq(o.u.cp.spdcid, 0xcdef);
		if (f & UET_PDS_CP_F_SYN) {
			ck_assert_uint_eq(o.u.cp.dpdcid, 0);
			ck_assert(o.u.cp.syn.use_rsv_pdc);
			ck_assert_uint_eq(o.u.cp.syn.psn_offset, 0x876);
		} else {
			ck_assert_uint_eq(o.u.cp.dpdcid, 0xfedc);
			ck_assert(!o.u.cp.syn.use_rsv_pdc);
		}
		ck_assert_uint_eq(o.u.cp.payload, 0xc1091234);
	}
}
END_TEST

START_TEST(test_pds_rudi_and_uud_round_trip)
{
	static const uint8_t types[] = {UET_PDS_TYPE_RUDI_REQ,
					UET_PDS_TYPE_RUDI_RESP};
	struct uet_pds_hdr h, o;
	unsigned int t, f;

	for (t = 0; t < 2; t++)
		for (f = 0; f <= UET_PDS_RUDI_F_MASK; f += 0x10) {
			memset(&h, 0, sizeof(h));
			h.type = types[t];
			h.next_hdr = 4;
			h.flags = (uint8_t)f;
			h.u.rudi.pkt_id = 0x99887766;
			round_trip(&h, &o, (uint8_t)f);
			ck_assert_uint_eq(o.u.rudi.pkt_id, 0x99887766);
		}
	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_UUD_REQ;
	h.next_hdr = UET_SES_REQUEST_STD;
	round_trip(&h, &o, 0);
}
END_TEST

START_TEST(test_pds_build_rejects_out_of_range_fields)
{
	struct uet_pds_hdr h;
	uint8_t buf[64];

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_RUD_CC_REQ;
	h.flags = 0x40; /* reserved */
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -EINVAL);
	h.flags = UET_PDS_REQ_F_SYN;
	h.u.req.syn.psn_offset = 0x1000; /* 13 bits */
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -EINVAL);
	h.u.req.syn.psn_offset = 0xfff;
	h.u.req.credit_target = 0x1000000;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -EINVAL);
	h.u.req.credit_target = 0;
	ck_assert_int_eq(uet_pds_build(buf, 15, &h), -ENOSPC);
	ck_assert_int_eq(uet_pds_build(buf, 16, &h), 16);
	h.next_hdr = 16;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -EINVAL);

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_ACK_CC;
	h.u.ack.req = 3; /* reserved value */
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -EINVAL);
	h.u.ack.req = 0;
	h.u.ack.cc.nscc.rcv_cwnd_pend = 0x80;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -EINVAL);
	h.u.ack.cc.nscc.rcv_cwnd_pend = 0;
	h.u.ack.cc_type = 16;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -EINVAL);

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_NACK;
	h.flags = UET_PDS_REQ_F_SYN; /* not a NACK flag */
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -EINVAL);
	h.flags = 0;
	h.type = UET_PDS_TYPE_TSS;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -ENOTSUP);
	h.type = 15;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -ENOTSUP);
	h.type = UET_PDS_TYPE_UUD_REQ;
	h.flags = 0x10;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), -EINVAL);
}
END_TEST

START_TEST(test_pds_parse_rejects_type_with_reason)
{
	struct uet_pds_hdr h;
	enum uet_wire_reason why;
	uint8_t buf[40] = {0};
	unsigned int t;

	ck_assert_int_eq(uet_pds_parse(buf, 1, &h, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_PDS_SHORT);
	ck_assert_int_eq(uet_pds_parse(buf, 40, &h, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_PDS_TYPE_RESERVED);
	buf[0] = 1 << 3; /* type 1 */
	ck_assert_int_eq(uet_pds_parse(buf, 40, &h, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_PDS_TYPE_TSS);
	ck_assert_str_eq(uet_wire_reason_str(why),
			 "PDS type 1 (TSS security header) not supported");
	for (t = 15; t < 32; t++) {
		buf[0] = (uint8_t)(t << 3);
		ck_assert_int_eq(uet_pds_parse(buf, 40, &h, &why), -EBADMSG);
		ck_assert_int_eq(why, UET_WIRE_PDS_TYPE_UNKNOWN);
	}
	for (t = 2; t < 15; t++) {
		buf[0] = (uint8_t)(t << 3);
		ck_assert_int_eq(uet_pds_parse(buf, 40, &h, &why),
				 (int)uet_pds_hdr_bytes(t));
	}
}
END_TEST

/* Prologue 13<<11 | 3<<7 | AR|SYN = 0x698c; clear_psn_offset -2 = fffe;
 * psn 0x1000; spdcid 7; SYN overlay: use_rsv_pdc 0, psn_offset 5; ccc_id 1,
 * credit_target 0. */
START_TEST(test_bytes_rud_cc_req_with_syn_and_psn_offset)
{
	struct uet_pds_hdr h;
	uint8_t buf[16];

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_RUD_CC_REQ;
	h.next_hdr = UET_SES_REQUEST_STD;
	h.flags = UET_PDS_REQ_F_AR | UET_PDS_REQ_F_SYN;
	h.u.req.clear_psn_offset = -2;
	h.u.req.psn = 0x1000;
	h.u.req.spdcid = 7;
	h.u.req.dpdcid = 0x7777; /* ignored: SYN overlays it */
	h.u.req.syn.psn_offset = 5;
	h.u.req.ccc_id = 1;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), 16);
	ck_assert_bytes_hex(buf, 16, "698c fffe 00001000 0007 0005 01 000000");
	h.u.req.syn.use_rsv_pdc = true;
	h.flags = UET_PDS_REQ_F_RETX | UET_PDS_REQ_F_SYN;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), 16);
	ck_assert_bytes_hex(buf, 16, "6994 fffe 00001000 0007 8005 01 000000");
}
END_TEST

/* Prologue 8<<11 | M = 0x4020; ack_psn_offset 0; cack_psn 0x12345678;
 * spdcid 0x0102, dpdcid 0x0304; cc_type NSCC, cc_flags 0; mpr 1;
 * sack_psn_offset +1; bitmap 0xf0; service_time 3; restore_cwnd 1 and
 * rcv_cwnd_pend 5 = 0x85; rcvd_bytes 0x001000; ooo_count 2. */
START_TEST(test_bytes_ack_cc_with_nscc_state)
{
	struct uet_pds_hdr h;
	uint8_t buf[32];

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_ACK_CC;
	h.flags = UET_PDS_ACK_F_M;
	h.u.ack.cack_psn = 0x12345678;
	h.u.ack.spdcid = 0x0102;
	h.u.ack.dpdcid = 0x0304;
	h.u.ack.cc_type = UET_PDS_CC_TYPE_NSCC;
	h.u.ack.mpr = 1;
	h.u.ack.sack_psn_offset = 1;
	h.u.ack.sack_bitmap = 0xf0;
	h.u.ack.cc.nscc.service_time = 3;
	h.u.ack.cc.nscc.restore_cwnd = true;
	h.u.ack.cc.nscc.rcv_cwnd_pend = 5;
	h.u.ack.cc.nscc.rcvd_bytes = 0x1000;
	h.u.ack.cc.nscc.ooo_count = 2;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), 32);
	ck_assert_bytes_hex(buf, 32,
			    "4020 0000 12345678 0102 0304 | 00 01 0001 "
			    "00000000000000f0 | 0003 85 001000 0002");
}
END_TEST

/* The answer to a probe: ACK_CC with P (0x08) and req CLEAR (1 << 1):
 * prologue 0x400a; bytes 2-3 carry probe_opaque 0xbeef. */
START_TEST(test_bytes_probe_ack_carries_probe_opaque)
{
	struct uet_pds_hdr h;
	uint8_t buf[32];

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_ACK_CC;
	h.flags = UET_PDS_ACK_F_P;
	h.u.ack.req = UET_PDS_ACK_REQ_CLEAR;
	h.u.ack.ack_psn_offset = -1; /* ignored: P set */
	h.u.ack.probe_opaque = 0xbeef;
	h.u.ack.cack_psn = 0x10;
	h.u.ack.spdcid = 9;
	h.u.ack.dpdcid = 5;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), 32);
	ck_assert_bytes_hex(buf, 32,
			    "400a beef 00000010 0009 0005 | 00 00 0000 "
			    "0000000000000000 | 0000 00 000000 0000");
}
END_TEST

/* Prologue 10<<11 | M = 0x5020; code 0x02; vendor 0; nack_psn 0xabcd;
 * spdcid 0x11, dpdcid 0x22; payload 0. */
START_TEST(test_bytes_nack_trimmed_lasthop)
{
	struct uet_pds_hdr h;
	uint8_t buf[16];

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_NACK;
	h.flags = UET_PDS_NACK_F_M;
	h.u.nack.nack_code = UET_NACK_TRIMMED_LASTHOP;
	h.u.nack.nack_psn = 0xabcd;
	h.u.nack.spdcid = 0x11;
	h.u.nack.dpdcid = 0x22;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), 16);
	ck_assert_bytes_hex(buf, 16, "5020 02 00 0000abcd 0011 0022 00000000");
	ck_assert_str_eq(uet_nack_code_name(buf[2]), "UET_TRIMMED_LASTHOP");
}
END_TEST

/* Prologue 11<<11 | PROBE 6<<7 | AR = 0x5b08; probe_opaque 0xbeef;
 * psn 0x10; spdcid 5, dpdcid 9; payload = SACK base PSN 0x10. */
START_TEST(test_bytes_probe_cp)
{
	struct uet_pds_hdr h;
	uint8_t buf[16];

	memset(&h, 0, sizeof(h));
	h.type = UET_PDS_TYPE_CP;
	h.next_hdr = UET_CP_PROBE;
	h.flags = UET_PDS_CP_F_AR;
	h.u.cp.probe_opaque = 0xbeef;
	h.u.cp.psn = 0x10;
	h.u.cp.spdcid = 5;
	h.u.cp.dpdcid = 9;
	h.u.cp.payload = 0x10;
	ck_assert_int_eq(uet_pds_build(buf, sizeof(buf), &h), 16);
	ck_assert_bytes_hex(buf, 16, "5b08 beef 00000010 0005 0009 00000010");
}
END_TEST

START_TEST(test_pds_names_of_every_code)
{
	static const char *const nack[] = {
		[0x01] = "UET_TRIMMED",	     [0x02] = "UET_TRIMMED_LASTHOP",
		[0x03] = "TRIMMED_ACK",	     [0x04] = "NO_PDC_AVAIL",
		[0x05] = "NO_CCC_AVAIL",     [0x06] = "NO_BITMAP",
		[0x07] = "NO_PKT_BUFFER",    [0x08] = "NO_GTD_DEL_AVAIL",
		[0x09] = "NO_SES_MSG_AVAIL", [0x0A] = "NO_RESOURCE",
		[0x0B] = "PSN_OOR_WINDOW",   [0x0C] = "RESERVED",
		[0x0D] = "ROD_OOO",	     [0x0E] = "INV_DPDCID",
		[0x0F] = "PDC_HDR_MISMATCH", [0x10] = "CLOSING",
		[0x11] = "CLOSING_IN_ERR",   [0x12] = "PKT_NOT_RCVD",
		[0x13] = "GTD_RESP_UNAVAIL", [0x14] = "ACK_WITH_DATA",
		[0x15] = "INVALID_SYN",	     [0x16] = "PDC_MODE_MISMATCH",
		[0x17] = "NEW_START_PSN",    [0x18] = "RCVD_SES_PROCG",
		[0x19] = "UNEXP_EVENT",	     [0x1A] = "RCVR_INFER_LOSS",
	};
	static const char *const ctl[] = {
		"NOOP",	     "ACK_REQ", "CLEAR",  "CLEAR_REQ",	"CLOSE",
		"CLOSE_REQ", "PROBE",	"CREDIT", "CREDIT_REQ", "NEGOTIATION"};
	static const char *const pds[] = {
		"RESERVED",  "TSS",	"RUD_REQ",  "ROD_REQ",	  "RUDI_REQ",
		"RUDI_RESP", "UUD_REQ", "ACK",	    "ACK_CC",	  "ACK_CCX",
		"NACK",	     "CP",	"NACK_CCX", "RUD_CC_REQ", "ROD_CC_REQ"};
	unsigned int i;

	ck_assert_str_eq(uet_nack_code_name(0), "RESERVED");
	for (i = 1; i <= 0x1a; i++)
		ck_assert_str_eq(uet_nack_code_name(i), nack[i]);
	for (i = 0x1b; i < 0xfd; i++)
		ck_assert_str_eq(uet_nack_code_name(i), "RESERVED");
	ck_assert_str_eq(uet_nack_code_name(0xfd), "EXP_NACK_NORMAL");
	ck_assert_str_eq(uet_nack_code_name(0xfe), "EXP_NACK_ERR");
	ck_assert_str_eq(uet_nack_code_name(0xff), "EXP_NACK_FATAL");
	for (i = 0; i < 10; i++)
		ck_assert_str_eq(uet_cp_ctl_type_name(i), ctl[i]);
	ck_assert_str_eq(uet_cp_ctl_type_name(10), "RESERVED");
	for (i = 0; i < 15; i++)
		ck_assert_str_eq(uet_pds_type_name(i), pds[i]);
	ck_assert_str_eq(uet_pds_type_name(15), "UNKNOWN");
}
END_TEST

static Suite *wire_pds_suite(void)
{
	Suite *s = suite_create("wire_pds");
	TCase *tc = tcase_create("pds");

	/* Far below this on an idle machine; ASan on a loaded one is slow. */
	tcase_set_timeout(tc, 120);

	tcase_add_test(tc, test_pds_request_round_trip_every_flag);
	tcase_add_test(tc, test_pds_ack_round_trip_every_flag);
	tcase_add_test(tc, test_pds_nack_round_trip_every_flag_and_code);
	tcase_add_test(tc, test_pds_cp_round_trip_every_ctl_type_and_flag);
	tcase_add_test(tc, test_pds_rudi_and_uud_round_trip);
	tcase_add_test(tc, test_pds_build_rejects_out_of_range_fields);
	tcase_add_test(tc, test_pds_parse_rejects_type_with_reason);
	tcase_add_test(tc, test_bytes_rud_cc_req_with_syn_and_psn_offset);
	tcase_add_test(tc, test_bytes_ack_cc_with_nscc_state);
	tcase_add_test(tc, test_bytes_probe_ack_carries_probe_opaque);
	tcase_add_test(tc, test_bytes_nack_trimmed_lasthop);
	tcase_add_test(tc, test_bytes_probe_cp);
	tcase_add_test(tc, test_pds_names_of_every_code);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(wire_pds_suite)
