/* SPDX-License-Identifier: BSD-3-Clause */
/* Whole UET frames: sizes, the IPv4 header, data/ACK/NACK/probe frames,
 * trimming, re-marking, classification, DSCP roles, header rejects. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_wire.h"
#include "wire_test_util.h"

static uint8_t frame[8192];

START_TEST(test_size_data_packet_4096_is_4184_ip_4202_wire)
{
	ck_assert_uint_eq(uet_data_ip_bytes(4096), 4184);
	ck_assert_uint_eq(uet_data_wire_bytes(4096), 4202);
	ck_assert_uint_eq(uet_wire_bytes_of_ip(4184), 4202);
	ck_assert_uint_eq(uet_data_ip_bytes(0), 88);
	ck_assert_uint_eq(uet_data_wire_bytes(0), 106);
	ck_assert_uint_eq(UET_DATA_HDR_IP_BYTES,
			  UET_IPV4_HDR_BYTES + UET_UDP_HDR_BYTES +
				  UET_PDS_CC_REQ_BYTES + UET_SES_STD_BYTES);
	ck_assert_uint_eq(UET_TRIMMED_IP_BYTES, 44);
	ck_assert_uint_eq(UET_TRIMMED_WIRE_BYTES, 62);
	ck_assert_uint_eq(uet_wire_bytes_of_ip(UET_TRIMMED_IP_BYTES), 62);
}
END_TEST

/* A full data frame: 4096 B payload gives 4198 bytes built (no FCS), IP
 * total length 4184 = 0x1058. Header by hand: 45, tos = DSCP 1 << 2 | ECT(1)
 * = 05, 1058, id 0000, DF 4000, TTL ff, UDP 11, checksum, 198.18.0.1,
 * 198.18.0.2. Checksum: 4505 + 1058 + 4000 + ff11 + c612 + 0001 + c612 +
 * 0002 = 0x32095, folded 0x2098, complemented 0xdf67. */
START_TEST(test_data_frame_4096_bytes_and_ipv4_header)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_frame f;
	enum uet_wire_reason why;
	int len;

	test_addr(&a, UET_DSCP_DEFAULT_TRIMMABLE, 0xc001);
	test_data_hdrs(&pds, &ses, 4096);
	pds.next_hdr = 0; /* overwritten from ses->kind */
	memset(frame, 0x5a, sizeof(frame));
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, &ses, NULL, 4096);
	ck_assert_int_eq(len, 4198);
	ck_assert_int_eq(len, 14 + (int)uet_data_ip_bytes(4096));
	ck_assert_bytes_hex(frame + 14, 20,
			    "4505 1058 0000 4000 ff11 df67 c6120001 c6120002");
	/* UDP: entropy c001, port 4793 = 12b9, length 4164 = 1044, csum 0 */
	ck_assert_bytes_hex(frame + 34, 8, "c001 12b9 1044 0000");
	ck_assert_uint_eq(frame[42], 0x69); /* type 13, nh 3 */
	ck_assert_uint_eq(frame[43], 0x88); /* nh low bit, AR */
	ck_assert_uint_eq(frame[UET_DATA_HDR_FRAME_BYTES],
			  0x5a); /* payload
				  * untouched */

	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, &why), 0);
	ck_assert_int_eq(why, UET_WIRE_OK);
	ck_assert_uint_eq(f.kind, UET_FRAME_UET);
	ck_assert_uint_eq(f.ip.total_length_bytes, 4184);
	ck_assert_uint_eq(f.ip.dscp, 1);
	ck_assert_uint_eq(f.ip.ecn, UET_ECN_ECT1);
	ck_assert(f.ip.df);
	ck_assert_uint_eq(f.ip.ttl, 255);
	ck_assert_uint_eq(f.ip.id, 0);
	ck_assert_uint_eq(f.udp.sport, 0xc001);
	ck_assert_uint_eq(f.udp.checksum, 0);
	ck_assert_uint_eq(f.pds_offset, 42);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_RUD_CC_REQ);
	ck_assert_uint_eq(f.pds.next_hdr, UET_SES_REQUEST_STD);
	ck_assert_uint_eq(f.pds.u.req.psn, 0x1000);
	ck_assert(f.has_ses);
	ck_assert_uint_eq(f.ses_offset, 58);
	ck_assert_uint_eq(f.ses.u.std.opcode, UET_SES_OP_SEND);
	ck_assert_uint_eq(f.ses.u.std.request_length, 4096);
	ck_assert_uint_eq(f.payload_offset, 102);
	ck_assert_uint_eq(f.payload_bytes, 4096);
	ck_assert(!f.trimmed);
	ck_assert(!f.has_trailer);
	ck_assert_uint_eq(f.ip_end, (size_t)len);
}
END_TEST

START_TEST(test_data_frame_copies_payload)
{
	static const uint8_t pay[5] = {1, 2, 3, 4, 5};
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_frame f;
	int len;

	test_addr(&a, 0, 1);
	test_data_hdrs(&pds, &ses, 5);
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, &ses, pay, 5);
	ck_assert_int_eq(len, 107);
	ck_assert_int_eq(memcmp(frame + 102, pay, 5), 0);
	ck_assert_int_eq(uet_frame_build(frame, 106, &a, &pds, &ses, pay, 5),
			 -ENOSPC);
	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, NULL), 0);
	ck_assert_uint_eq(f.payload_bytes, 5);
	/* A CP has no SES: its next_hdr bits are the ctl_type. */
	pds.type = UET_PDS_TYPE_CP;
	pds.flags = 0;
	ck_assert_int_eq(
		uet_frame_build(frame, sizeof(frame), &a, &pds, &ses, NULL, 0),
		-EINVAL);
	a.dscp = 64;
	test_data_hdrs(&pds, &ses, 5);
	ck_assert_int_eq(
		uet_frame_build(frame, sizeof(frame), &a, &pds, &ses, NULL, 0),
		-EINVAL);
	test_addr(&a, 0, 1);
	ck_assert_int_eq(uet_frame_build(frame, sizeof(frame), &a, &pds, &ses,
					 NULL, 65536),
			 -EINVAL);
}
END_TEST

/* Trimming keeps IPv4 + UDP + the 16-byte PDS request: 44 bytes at the IP
 * layer, 58 built, 62 on the wire; DSCP re-marked, ECN kept. */
START_TEST(test_trim_data_frame_to_44_bytes)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_frame f;
	enum uet_wire_reason why;
	int len;

	test_addr(&a, UET_DSCP_DEFAULT_TRIMMABLE, 0x1234);
	a.ecn = UET_ECN_CE;
	test_data_hdrs(&pds, &ses, 4096);
	pds.flags |= UET_PDS_REQ_F_RETX;
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, &ses, NULL, 4096);
	ck_assert_int_eq(len, 4198);
	len = uet_ls_trailer_append(frame, (size_t)len, sizeof(frame), 7);
	ck_assert_int_eq(len, 4210);
	ck_assert_int_eq(uet_frame_trim(frame, (size_t)len, 64), -EINVAL);
	len = uet_frame_trim(frame, (size_t)len,
			     UET_DSCP_DEFAULT_TRIMMED_LASTHOP);
	ck_assert_int_eq(len, 58);
	ck_assert_uint_eq(uet_wire_bytes_of_ip((uint32_t)len - 14), 62);
	/* tos = 10 << 2 | CE = 0x2b; total 44 = 0x2c; UDP length 24 */
	ck_assert_uint_eq(frame[15], 0x2b);
	ck_assert_uint_eq(frame[16], 0x00);
	ck_assert_uint_eq(frame[17], 0x2c);
	ck_assert_uint_eq(frame[38], 0x00);
	ck_assert_uint_eq(frame[39], 24);
	ck_assert_uint_eq(uet_inet_checksum(frame + 14, 20), 0);

	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, &why), 0);
	ck_assert_uint_eq(f.kind, UET_FRAME_UET);
	ck_assert(f.trimmed);
	ck_assert(!f.has_ses);
	ck_assert(!f.has_trailer);
	ck_assert_uint_eq(f.ip.total_length_bytes, UET_TRIMMED_IP_BYTES);
	ck_assert_uint_eq(f.ip.dscp, UET_DSCP_DEFAULT_TRIMMED_LASTHOP);
	ck_assert_uint_eq(f.ip.ecn, UET_ECN_CE);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_RUD_CC_REQ);
	ck_assert_uint_eq(f.pds.flags, UET_PDS_REQ_F_AR | UET_PDS_REQ_F_RETX);
	ck_assert_uint_eq(f.pds.u.req.psn, 0x1000);
	ck_assert_uint_eq(f.payload_bytes, 0);
	/* Trimming twice changes nothing but the codepoint. */
	ck_assert_int_eq(uet_frame_trim(frame, 58, UET_DSCP_DEFAULT_TRIMMED),
			 58);
	ck_assert_uint_eq(frame[15], 9 << 2 | 3);
	/* One SES byte left is not a trim: it is a truncated SES header. */
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, &ses, NULL, 0);
	ck_assert_int_eq(len, 102);
	frame[17] = 45; /* total length 45 */
	frame[39] = 25; /* UDP length 25 */
	frame[24] = frame[25] = 0;
	{
		uint16_t c = uet_inet_checksum(frame + 14, 20);

		frame[24] = (uint8_t)(c >> 8);
		frame[25] = (uint8_t)c;
	}
	ck_assert_int_eq(uet_frame_parse(frame, 59, &f, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_SES_TRUNC);
}
END_TEST

START_TEST(test_trim_refuses_non_request)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	int len;

	test_addr(&a, UET_DSCP_DEFAULT_CONTROL, 1);
	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_ACK_CC;
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, NULL, NULL, 0);
	ck_assert_int_eq(len, 74);
	ck_assert_int_eq(uet_frame_trim(frame, (size_t)len, 9), -EINVAL);
	ck_assert_int_eq(uet_frame_trim(frame, 30, 9), -EBADMSG);
}
END_TEST

/* The NIC's control packets: ACK_CC with NSCC state, NACK UET_TRIMMED,
 * PROBE CP, all on the control codepoint. */
START_TEST(test_control_frames_build_and_parse)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_frame f;
	int len;

	test_addr(&a, UET_DSCP_DEFAULT_CONTROL, 77);
	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_ACK_CC;
	pds.u.ack.cack_psn = 41;
	pds.u.ack.sack_bitmap = 0x5;
	pds.u.ack.cc.nscc.rcvd_bytes = 4184;
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, NULL, NULL, 0);
	ck_assert_int_eq(len, 14 + 20 + 8 + 32);
	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, NULL), 0);
	ck_assert_uint_eq(f.ip.dscp, 8);
	ck_assert_uint_eq(f.ip.dscp / 8, 1);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_ACK_CC);
	ck_assert_uint_eq(f.pds.u.ack.cc.nscc.rcvd_bytes, 4184);
	ck_assert_uint_eq(f.pds.u.ack.sack_bitmap, 0x5);
	ck_assert(!f.has_ses);
	ck_assert(!f.trimmed);

	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_NACK;
	pds.u.nack.nack_code = UET_NACK_TRIMMED;
	pds.u.nack.nack_psn = 0x1000;
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, NULL, NULL, 0);
	ck_assert_int_eq(len, 58);
	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, NULL), 0);
	ck_assert_uint_eq(f.pds.u.nack.nack_code, UET_NACK_TRIMMED);
	ck_assert_uint_eq(f.pds.u.nack.nack_psn, 0x1000);

	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_CP;
	pds.next_hdr = UET_CP_PROBE;
	pds.u.cp.probe_opaque = 3;
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, NULL, NULL, 0);
	ck_assert_int_eq(len, 58);
	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, NULL), 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_CP);
	ck_assert_uint_eq(f.pds.next_hdr, UET_CP_PROBE);
	ck_assert_uint_eq(f.pds.u.cp.probe_opaque, 3);
	ck_assert(!f.trimmed);
	ck_assert(!f.has_ses);
}
END_TEST

START_TEST(test_set_dscp_and_mark_ce_keep_checksum_valid)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_frame f;
	int len;

	test_addr(&a, 0, 1);
	test_data_hdrs(&pds, &ses, 100);
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, &ses, NULL, 100);
	ck_assert_int_eq(uet_frame_set_dscp(frame, (size_t)len, 2), 0);
	ck_assert_int_eq(uet_frame_set_dscp(frame, (size_t)len, 64), -EINVAL);
	ck_assert_int_eq(uet_frame_mark_ce(frame, (size_t)len), 1);
	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, NULL), 0);
	ck_assert_uint_eq(f.ip.dscp, 2);
	ck_assert_uint_eq(f.ip.ecn, UET_ECN_CE);
	a.ecn = UET_ECN_NOT_ECT;
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, &ses, NULL, 100);
	ck_assert_int_eq(uet_frame_mark_ce(frame, (size_t)len), 0);
	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, NULL), 0);
	ck_assert_uint_eq(f.ip.ecn, UET_ECN_NOT_ECT);
	ck_assert_int_eq(uet_frame_mark_ce(frame, 20), -EBADMSG);
}
END_TEST

START_TEST(test_parse_classifies_other_frames)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_wire_cfg cfg;
	struct uet_frame f;
	enum uet_wire_reason why;
	int len;

	test_addr(&a, 0, 1);
	test_data_hdrs(&pds, &ses, 10);
	a.udp_dport = 9999;
	len = uet_frame_build(frame, sizeof(frame), &a, &pds, &ses, NULL, 10);
	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, &why), 0);
	ck_assert_uint_eq(f.kind, UET_FRAME_OTHER);
	ck_assert(f.has_udp);
	ck_assert_uint_eq(f.udp.dport, 9999);
	uet_wire_cfg_default(&cfg);
	ck_assert_uint_eq(cfg.udp_dport, 4793);
	cfg.udp_dport = 9999;
	ck_assert_int_eq(
		uet_frame_parse_cfg(&cfg, frame, (size_t)len, &f, &why), 0);
	ck_assert_uint_eq(f.kind, UET_FRAME_UET);
	ck_assert_str_eq(uet_frame_kind_name(f.kind), "UET");

	/* TCP: other, IPv4 still checked. */
	frame[14 + 9] = 6;
	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, &why),
			 -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_IPV4_CSUM);
	ck_assert_str_eq(uet_wire_reason_str(why),
			 "IPv4 header checksum mismatch");
	ck_assert_int_eq(uet_frame_set_dscp(frame, (size_t)len, 0), -EBADMSG);
	frame[14 + 10] = frame[14 + 11] = 0;
	{
		uint16_t c = uet_inet_checksum(frame + 14, 20);

		frame[24] = (uint8_t)(c >> 8);
		frame[25] = (uint8_t)c;
	}
	ck_assert_int_eq(uet_frame_parse(frame, (size_t)len, &f, &why), 0);
	ck_assert_uint_eq(f.kind, UET_FRAME_OTHER);
	ck_assert(f.has_ipv4);
	ck_assert(!f.has_udp);

	/* ARP */
	frame[12] = 0x08;
	frame[13] = 0x06;
	ck_assert_int_eq(uet_frame_parse(frame, 42, &f, &why), 0);
	ck_assert_uint_eq(f.kind, UET_FRAME_OTHER);
	ck_assert(!f.has_ipv4);
	ck_assert_int_eq(uet_frame_parse(frame, 13, &f, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_ETH_SHORT);
	ck_assert_str_eq(uet_wire_reason_str(why),
			 "frame shorter than Ethernet header");
}
END_TEST

/* IPv4 and UDP rejects, each with its reason. */
START_TEST(test_ipv4_and_udp_rejects_with_reason)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_frame f;
	enum uet_wire_reason why;
	uint8_t good[200];
	int len;

	test_addr(&a, 0, 1);
	test_data_hdrs(&pds, &ses, 10);
	len = uet_frame_build(good, sizeof(good), &a, &pds, &ses, NULL, 10);
	ck_assert_int_eq(len, 112);

#define FIX_CSUM()                                                             \
	do {                                                                   \
		uint16_t c_;                                                   \
		frame[24] = frame[25] = 0;                                     \
		c_ = uet_inet_checksum(frame + 14, 20);                        \
		frame[24] = (uint8_t)(c_ >> 8);                                \
		frame[25] = (uint8_t)c_;                                       \
	} while (0)
#define EXPECT_REJECT(n, r)                                                    \
	do {                                                                   \
		ck_assert_int_eq(uet_frame_parse(frame, (n), &f, &why),        \
				 -EBADMSG);                                    \
		ck_assert_int_eq(why, (r));                                    \
		memcpy(frame, good, sizeof(good));                             \
	} while (0)

	memcpy(frame, good, sizeof(good));
	EXPECT_REJECT(33, UET_WIRE_IPV4_SHORT);
	frame[14] = 0x65;
	EXPECT_REJECT(112, UET_WIRE_IPV4_VERSION);
	frame[14] = 0x44;
	EXPECT_REJECT(112, UET_WIRE_IPV4_IHL);
	frame[15] ^= 1;
	EXPECT_REJECT(112, UET_WIRE_IPV4_CSUM);
	frame[17] = 19;
	FIX_CSUM();
	EXPECT_REJECT(112, UET_WIRE_IPV4_TOTLEN_SHORT);
	EXPECT_REJECT(111, UET_WIRE_IPV4_TOTLEN_EXCEEDS);
	ck_assert_str_eq(uet_wire_reason_str(UET_WIRE_IPV4_TOTLEN_EXCEEDS),
			 "IPv4 total length exceeds frame");
	frame[39] = 97; /* UDP length one short */
	EXPECT_REJECT(112, UET_WIRE_UDP_LEN);
	ck_assert_str_eq(uet_wire_reason_str(UET_WIRE_UDP_LEN),
			 "UDP length mismatch");
	frame[17] = 27; /* total length 27: UDP header cut */
	FIX_CSUM();
	EXPECT_REJECT(112, UET_WIRE_UDP_SHORT);
	frame[42] = 0xf8; /* PDS type 31 */
	EXPECT_REJECT(112, UET_WIRE_PDS_TYPE_UNKNOWN);
	frame[43] |= 0x80; /* next_hdr 7 */
	frame[42] |= 0x03;
	EXPECT_REJECT(112, UET_WIRE_SES_NEXT_HDR_UNKNOWN);
	frame[17] = 28 + 10; /* PDS cut at 10 bytes */
	frame[39] = 18;
	FIX_CSUM();
	EXPECT_REJECT(112, UET_WIRE_PDS_TRUNC);
	ck_assert_str_eq(uet_wire_reason_str(UET_WIRE_PDS_TRUNC),
			 "PDS header truncated");
	ck_assert_str_eq(uet_wire_reason_str(UET_WIRE_SES_TRUNC),
			 "SES header truncated");

	/* IHL 6 with the option inside the frame is accepted. */
	{
		uint8_t opt[200];

		memcpy(opt, good, 34);
		memset(opt + 34, 0, 4);
		memcpy(opt + 38, good + 34, 78);
		opt[14] = 0x46;
		opt[17] = 102;
		memcpy(frame, opt, sizeof(opt));
		frame[24] = frame[25] = 0;
		{
			uint16_t c = uet_inet_checksum(frame + 14, 24);

			frame[24] = (uint8_t)(c >> 8);
			frame[25] = (uint8_t)c;
		}
		ck_assert_int_eq(uet_frame_parse(frame, 116, &f, &why), 0);
		ck_assert_uint_eq(f.ip.ihl, 6);
		ck_assert_uint_eq(f.pds_offset, 46);
		ck_assert_uint_eq(f.payload_bytes, 10);
		ck_assert_int_eq(uet_frame_parse(frame, 37, &f, &why),
				 -EBADMSG);
		ck_assert_int_eq(why, UET_WIRE_IPV4_OPTIONS_TRUNC);
	}
	/* A fragment is not parsed past IPv4. */
	memcpy(frame, good, sizeof(good));
	frame[20] = 0x20; /* MF */
	FIX_CSUM();
	ck_assert_int_eq(uet_frame_parse(frame, 112, &f, &why), 0);
	ck_assert_uint_eq(f.kind, UET_FRAME_OTHER);
	ck_assert(f.ip.mf);
#undef EXPECT_REJECT
#undef FIX_CSUM
}
END_TEST

START_TEST(test_reason_strings_distinct)
{
	unsigned int i, j;

	for (i = 0; i < UET_WIRE_REASON_COUNT; i++) {
		ck_assert_str_ne(uet_wire_reason_str(i), "unknown reason");
		for (j = 0; j < i; j++)
			ck_assert_str_ne(uet_wire_reason_str(i),
					 uet_wire_reason_str(j));
	}
	ck_assert_str_eq(uet_wire_reason_str(UET_WIRE_REASON_COUNT),
			 "unknown reason");
}
END_TEST

START_TEST(test_dscp_default_codepoints_and_roles)
{
	struct uet_dscp_map m;
	unsigned int r;

	uet_dscp_map_default(&m);
	ck_assert_uint_eq(m.codepoint[UET_DSCP_NO_TRIM], 0);
	ck_assert_uint_eq(m.codepoint[UET_DSCP_TRIMMABLE], 1);
	ck_assert_uint_eq(m.codepoint[UET_DSCP_TRIMMABLE_RTX], 2);
	ck_assert_uint_eq(m.codepoint[UET_DSCP_CONTROL], 8);
	ck_assert_uint_eq(m.codepoint[UET_DSCP_TRIMMED], 9);
	ck_assert_uint_eq(m.codepoint[UET_DSCP_TRIMMED_LASTHOP], 10);
	ck_assert_int_eq(uet_dscp_map_validate(&m), 0);
	/* DSCP / 8: 0 for the data roles, 1 for the others. */
	for (r = 0; r < UET_DSCP_ROLE_COUNT; r++) {
		ck_assert_uint_eq(m.codepoint[r] / 8,
				  r <= UET_DSCP_TRIMMABLE_RTX ? 0 : 1);
		ck_assert_int_eq(uet_dscp_role_of(&m, m.codepoint[r]), (int)r);
	}
	ck_assert_int_eq(uet_dscp_role_of(&m, 3), -ENOENT);
	ck_assert_int_eq(uet_dscp_role_of(&m, 46), -ENOENT);
	ck_assert_str_eq(uet_dscp_role_name(UET_DSCP_TRIMMED_LASTHOP),
			 "trimmed-last-hop");
	ck_assert_str_eq(uet_dscp_role_name(UET_DSCP_TRIMMABLE_RTX),
			 "trimmable-retransmission");
	ck_assert_str_eq(uet_dscp_role_name(UET_DSCP_ROLE_COUNT), "unknown");

	m.codepoint[UET_DSCP_CONTROL] = 46;
	ck_assert_int_eq(uet_dscp_map_validate(&m), 0);
	ck_assert_int_eq(uet_dscp_role_of(&m, 46), UET_DSCP_CONTROL);
	m.codepoint[UET_DSCP_CONTROL] = 64;
	ck_assert_int_eq(uet_dscp_map_validate(&m), -ERANGE);
	m.codepoint[UET_DSCP_CONTROL] = 9; /* = trimmed */
	ck_assert_int_eq(uet_dscp_map_validate(&m), -EINVAL);
}
END_TEST

START_TEST(test_classify_uet_policy_control_tc2_trimmed_tc1_rest_tc0)
{
	struct uet_dscp_map map;

	uet_dscp_map_default(&map);
	ck_assert_uint_eq(uet_dscp_class(true, &map, 0), 0);  /* no-trim */
	ck_assert_uint_eq(uet_dscp_class(true, &map, 1), 0);  /* trimmable */
	ck_assert_uint_eq(uet_dscp_class(true, &map, 2), 0);  /* rtx */
	ck_assert_uint_eq(uet_dscp_class(true, &map, 8), 2);  /* control */
	ck_assert_uint_eq(uet_dscp_class(true, &map, 9), 1);  /* trimmed */
	ck_assert_uint_eq(uet_dscp_class(true, &map, 10), 1); /* last */
	/* A codepoint no role has is "every other packet". */
	ck_assert_uint_eq(uet_dscp_class(true, &map, 46), 0);
	/* The roles, not the values: move control to 63. */
	map.codepoint[UET_DSCP_CONTROL] = 63;
	ck_assert_uint_eq(uet_dscp_class(true, &map, 63), 2);
	ck_assert_uint_eq(uet_dscp_class(true, &map, 8), 0);
}
END_TEST

START_TEST(test_classify_without_uet_policy_dscp_div_8)
{
	struct uet_dscp_map map;

	uet_dscp_map_default(&map);
	ck_assert_uint_eq(uet_dscp_class(false, &map, 0), 0);
	ck_assert_uint_eq(uet_dscp_class(false, &map, 1), 0);
	ck_assert_uint_eq(uet_dscp_class(false, &map, 2), 0);
	ck_assert_uint_eq(uet_dscp_class(false, &map, 8), 1);
	ck_assert_uint_eq(uet_dscp_class(false, &map, 9), 1);
	ck_assert_uint_eq(uet_dscp_class(false, &map, 10), 1);
	ck_assert_uint_eq(uet_dscp_class(false, &map, 46), 5);
	ck_assert_uint_eq(uet_dscp_class(false, &map, 63), 7);
}
END_TEST

START_TEST(test_frame_addr_defaults)
{
	struct uet_frame_addr a;

	uet_frame_addr_default(&a);
	ck_assert_uint_eq(a.ttl, 255);
	ck_assert_uint_eq(a.ecn, UET_ECN_ECT1);
	ck_assert_uint_eq(a.udp_dport, 4793);
	ck_assert_uint_eq(a.ip_id, 0);
	ck_assert_uint_eq(a.dscp, 0);
}
END_TEST

static Suite *wire_frame_suite(void)
{
	Suite *s = suite_create("wire_frame");
	TCase *tc = tcase_create("frame");

	/* Far below this on an idle machine; ASan on a loaded one is slow. */
	tcase_set_timeout(tc, 120);

	tcase_add_test(tc, test_size_data_packet_4096_is_4184_ip_4202_wire);
	tcase_add_test(tc, test_data_frame_4096_bytes_and_ipv4_header);
	tcase_add_test(tc, test_data_frame_copies_payload);
	tcase_add_test(tc, test_trim_data_frame_to_44_bytes);
	tcase_add_test(tc, test_trim_refuses_non_request);
	tcase_add_test(tc, test_control_frames_build_and_parse);
	tcase_add_test(tc, test_set_dscp_and_mark_ce_keep_checksum_valid);
	tcase_add_test(tc, test_parse_classifies_other_frames);
	tcase_add_test(tc, test_ipv4_and_udp_rejects_with_reason);
	tcase_add_test(tc, test_reason_strings_distinct);
	tcase_add_test(tc, test_dscp_default_codepoints_and_roles);
	tcase_add_test(
		tc, test_classify_uet_policy_control_tc2_trimmed_tc1_rest_tc0);
	tcase_add_test(tc, test_classify_without_uet_policy_dscp_div_8);
	tcase_add_test(tc, test_frame_addr_defaults);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(wire_frame_suite)
