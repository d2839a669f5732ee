/* SPDX-License-Identifier: BSD-3-Clause */
/* Layer-2 frames: 802.1Qbb PFC, the lockstep control frames and the
 * lockstep trailer (docs/lockstep-frames.md). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_wire.h"
#include "wire_test_util.h"

static const uint8_t mac_nic[6] = {0x02, 0, 0, 0, 0, 0x01};
static const uint8_t mac_sw[6] = {0x02, 0, 0, 0, 0, 0x02};

START_TEST(test_pfc_bytes_and_round_trip)
{
	struct uet_pfc p, o;
	struct uet_frame f;
	uint8_t buf[64];
	unsigned int c;

	memset(&p, 0, sizeof(p));
	memcpy(p.src, mac_nic, 6);
	p.class_enable = 0x08;
	p.quanta[3] = 0xffff;
	ck_assert_int_eq(uet_pfc_build(buf, 59, &p), -ENOSPC);
	ck_assert_int_eq(uet_pfc_build(buf, sizeof(buf), &p), 60);
	ck_assert_bytes_hex(
		buf, 60,
		"0180c2000001 020000000001 8808 0101 0008 "
		"0000 0000 0000 ffff 0000 0000 0000 0000 "
		"0000000000000000000000000000000000000000000000000000");

	for (c = 0; c < 8; c++) {
		p.class_enable = (uint8_t)(1u << c | 0x01);
		p.quanta[c] = (uint16_t)(0x1000 + c);
	}
	ck_assert_int_eq(uet_pfc_build(buf, sizeof(buf), &p), 60);
	ck_assert_int_eq(uet_pfc_parse(buf, 60, &o, NULL), 0);
	ck_assert_int_eq(memcmp(o.dst, (uint8_t[])UET_PFC_DST_INIT, 6), 0);
	ck_assert_int_eq(memcmp(o.src, mac_nic, 6), 0);
	ck_assert_uint_eq(o.class_enable, 0x81);
	for (c = 0; c < 8; c++)
		ck_assert_uint_eq(o.quanta[c], 0x1000 + c);
	ck_assert_int_eq(uet_frame_parse(buf, 60, &f, NULL), 0);
	ck_assert_uint_eq(f.kind, UET_FRAME_PFC);
	ck_assert_uint_eq(f.l2.pfc.quanta[7], 0x1007);
	/* Without its padding (34 bytes) it still parses. */
	ck_assert_int_eq(uet_pfc_parse(buf, 34, &o, NULL), 0);
}
END_TEST

START_TEST(test_pfc_rejects_with_reason)
{
	struct uet_pfc p, o;
	struct uet_frame f;
	enum uet_wire_reason why;
	uint8_t buf[64];

	memset(&p, 0, sizeof(p));
	uet_pfc_build(buf, sizeof(buf), &p);
	ck_assert_int_eq(uet_pfc_parse(buf, 33, &o, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_PFC_SHORT);
	ck_assert_int_eq(uet_frame_parse(buf, 33, &f, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_PFC_SHORT);
	ck_assert_int_eq(uet_pfc_parse(buf, 10, &o, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_ETH_SHORT);
	buf[14] = 0x00; /* opcode 0x0001: 802.3x PAUSE */
	ck_assert_int_eq(uet_pfc_parse(buf, 60, &o, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_PFC_OPCODE);
	ck_assert_int_eq(uet_frame_parse(buf, 60, &f, &why), 0);
	ck_assert_uint_eq(f.kind, UET_FRAME_OTHER);
	buf[12] = 0x08;
	buf[13] = 0x00;
	ck_assert_int_eq(uet_pfc_parse(buf, 60, &o, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_PFC_ETHERTYPE);
}
END_TEST

/* 1 quantum = 512 bit times: 1280 ps at 400 Gbps, 20480 ps at 25 Gbps. */
START_TEST(test_pfc_quanta_to_ps)
{
	ck_assert_uint_eq(uet_pfc_quanta_to_ps(1, 400000000000ull), 1280);
	ck_assert_uint_eq(uet_pfc_quanta_to_ps(1, 25000000000ull), 20480);
	ck_assert_uint_eq(uet_pfc_quanta_to_ps(0xffff, 100000000000ull),
			  335539200);
	ck_assert_uint_eq(uet_pfc_quanta_to_ps(0xffff, 400000000000ull),
			  83884800);
	ck_assert_uint_eq(uet_pfc_quanta_to_ps(0, 400000000000ull), 0);
	ck_assert_uint_eq(uet_pfc_quanta_to_ps(5, 0), 0);
	/* 512e12 / 3 = 170666666666666.67, rounded up */
	ck_assert_uint_eq(uet_pfc_quanta_to_ps(1, 3), 170666666666667ull);
	/* 65535 * 512 s at 1 bit/s does not fit in 64 bits of ps */
	ck_assert_uint_eq(uet_pfc_quanta_to_ps(0xffff, 1), UINT64_MAX);
}
END_TEST

/* GRANT by hand from docs/lockstep-frames.md: UECT, version 1, type 3,
 * nic 1, run 2, nonce 3, seq 4, body_len 24, reserved; T 1 us, T' 2 us,
 * 5 data frames, reserved. 14 + 32 + 24 = 70 bytes, no padding. */
/* The arithmetic both PFC senders and receivers share: 0 quanta asked
 * for is the longest pause, a pause is sent again at half its length
 * (never sooner than 1 ps), and a pause's end never reaches "never". */
START_TEST(test_pfc_pause_refresh_and_end)
{
	struct uet_pfc pfc;
	unsigned int c;

	ck_assert_uint_eq(uet_pfc_pause_quanta(0), 65535);
	ck_assert_uint_eq(uet_pfc_pause_quanta(1), 1);
	ck_assert_uint_eq(uet_pfc_pause_quanta(3000), 3000);
	/* 65,535 quanta at 400 Gbps: 83,884,800 ps; refresh at half. */
	ck_assert_uint_eq(uet_pfc_refresh_ps(0xffff, 400000000000ull),
			  41942400);
	ck_assert_uint_eq(uet_pfc_refresh_ps(1, 400000000000ull), 640);
	ck_assert_uint_eq(uet_pfc_refresh_ps(0, 400000000000ull), 1);
	ck_assert_uint_eq(uet_pfc_pause_end_ps(1000, 1280), 2280);
	ck_assert_uint_eq(uet_pfc_pause_end_ps(1000, UINT64_MAX),
			  UET_TIME_NEVER - 1);
	ck_assert_uint_eq(uet_pfc_pause_end_ps(UET_TIME_NEVER - 2, 5),
			  UET_TIME_NEVER - 1);
	memset(&pfc, 0xee, sizeof(pfc));
	uet_pfc_set_classes(&pfc, 0x09, 777);
	ck_assert_uint_eq(pfc.class_enable, 0x09);
	for (c = 0; c < UET_PFC_CLASSES; c++)
		ck_assert_uint_eq(pfc.quanta[c], c == 0 || c == 3 ? 777 : 0);
}
END_TEST

START_TEST(test_lockstep_grant_bytes)
{
	struct uet_ls_ctrl c;
	uint8_t buf[128];

	memset(&c, 0, sizeof(c));
	c.type = UET_LS_GRANT;
	c.nic_id = 1;
	c.run_id = 2;
	c.nonce = 3;
	c.seq = 4;
	c.u.grant.window_start_ps = 1000000;
	c.u.grant.window_end_ps = 2000000;
	c.u.grant.data_frames = 5;
	ck_assert_int_eq(uet_ls_ctrl_build(buf, 69, mac_nic, mac_sw, &c),
			 -ENOSPC);
	ck_assert_int_eq(
		uet_ls_ctrl_build(buf, sizeof(buf), mac_nic, mac_sw, &c), 70);
	ck_assert_bytes_hex(buf, 70,
			    "020000000001 020000000002 88b5 | 55454354 01 03 "
			    "0001 0000000000000002 0000000000000003 00000004 "
			    "0018 0000 | 00000000000f4240 00000000001e8480 "
			    "00000005 00000000");
}
END_TEST

/* NOTES of the window ending at 2 us, 5 opaque bytes: 16 + 5 = 21 bytes of
 * body, 67 bytes in all (over the 60-byte minimum: no padding). */
START_TEST(test_lockstep_notes_bytes)
{
	static const uint8_t notes[5] = {0xde, 0xad, 0xbe, 0xef, 0x01};
	struct uet_ls_ctrl c;
	uint8_t buf[128];

	memset(&c, 0, sizeof(c));
	c.type = UET_LS_NOTES;
	c.nic_id = 3;
	c.run_id = 2;
	c.nonce = 3;
	c.seq = 9;
	c.u.notes.window_end_ps = 2000000;
	c.u.notes.len = sizeof(notes);
	c.u.notes.bytes = notes;
	ck_assert_int_eq(uet_ls_body_bytes(&c), 21);
	ck_assert_int_eq(uet_ls_ctrl_build(buf, 66, mac_nic, mac_sw, &c),
			 -ENOSPC);
	ck_assert_int_eq(
		uet_ls_ctrl_build(buf, sizeof(buf), mac_nic, mac_sw, &c), 67);
	ck_assert_bytes_hex(buf, 67,
			    "020000000001 020000000002 88b5 | 55454354 01 07 "
			    "0003 0000000000000002 0000000000000003 00000009 "
			    "0015 0000 | 00000000001e8480 0005 000000000000 "
			    "| deadbeef01");
	/* Bytes promised and not given. */
	c.u.notes.bytes = NULL;
	ck_assert_int_eq(
		uet_ls_ctrl_build(buf, sizeof(buf), mac_nic, mac_sw, &c),
		-EINVAL);
	c.u.notes.len = UET_LS_NOTES_MAX_BYTES + 1;
	c.u.notes.bytes = buf;
	ck_assert_int_eq(uet_ls_body_bytes(&c), -EINVAL);
	ck_assert_int_eq(
		uet_ls_ctrl_build(buf, sizeof(buf), mac_nic, mac_sw, &c),
		-EINVAL);
	ck_assert_str_eq(uet_ls_type_name(UET_LS_NOTES), "NOTES");
}
END_TEST

/* HELLO's last two bytes are its flags: bit 0 asks for the notes. */
START_TEST(test_lockstep_hello_flags_bytes)
{
	struct uet_ls_ctrl c;
	uint8_t buf[128];

	memset(&c, 0, sizeof(c));
	c.type = UET_LS_HELLO;
	c.nic_id = 1;
	c.u.hello.scenario_hash = 0x0123456789abcdefull;
	c.u.hello.ipv4 = 0xc6120002u;
	memcpy(c.u.hello.mac, mac_nic, 6);
	c.u.hello.flags = UET_LS_HELLO_WANTS_NOTES;
	ck_assert_int_eq(
		uet_ls_ctrl_build(buf, sizeof(buf), mac_sw, mac_nic, &c), 66);
	ck_assert_bytes_hex(buf, 66,
			    "020000000002 020000000001 88b5 | 55454354 01 01 "
			    "0001 0000000000000000 0000000000000000 00000000 "
			    "0014 0000 | 0123456789abcdef c6120002 "
			    "020000000001 0001");
	/* Without the flag, the bytes of a HELLO before the notes. */
	c.u.hello.flags = 0;
	ck_assert_int_eq(
		uet_ls_ctrl_build(buf, sizeof(buf), mac_sw, mac_nic, &c), 66);
	ck_assert_bytes_hex(buf + 58, 8, "020000000001 0000");
}
END_TEST

static void ls_round_trip(const struct uet_ls_ctrl *c, int want_len)
{
	struct uet_ls_ctrl o;
	struct uet_frame f;
	enum uet_wire_reason why;
	uint8_t buf[UET_LS_FRAME_MAX_BYTES];
	int len;

	len = uet_ls_ctrl_build(buf, sizeof(buf), mac_sw, mac_nic, c);
	ck_assert_int_eq(len, want_len);
	ck_assert_int_eq(uet_ls_ctrl_parse(buf, (size_t)len, &o, &why), 0);
	ck_assert_uint_eq(o.type, c->type);
	ck_assert_uint_eq(o.nic_id, c->nic_id);
	ck_assert_uint_eq(o.run_id, c->run_id);
	ck_assert_uint_eq(o.nonce, c->nonce);
	ck_assert_uint_eq(o.seq, c->seq);
	switch (c->type) {
	case UET_LS_HELLO:
		ck_assert_uint_eq(o.u.hello.scenario_hash,
				  c->u.hello.scenario_hash);
		ck_assert_uint_eq(o.u.hello.ipv4, c->u.hello.ipv4);
		ck_assert_int_eq(memcmp(o.u.hello.mac, c->u.hello.mac, 6), 0);
		ck_assert_uint_eq(o.u.hello.flags, c->u.hello.flags);
		break;
	case UET_LS_WELCOME:
		ck_assert_uint_eq(o.u.welcome.scenario_hash,
				  c->u.welcome.scenario_hash);
		ck_assert_uint_eq(o.u.welcome.lookahead_ps,
				  c->u.welcome.lookahead_ps);
		ck_assert_uint_eq(o.u.welcome.start_ps, c->u.welcome.start_ps);
		break;
	case UET_LS_GRANT:
		ck_assert_uint_eq(o.u.grant.window_start_ps,
				  c->u.grant.window_start_ps);
		ck_assert_uint_eq(o.u.grant.window_end_ps,
				  c->u.grant.window_end_ps);
		ck_assert_uint_eq(o.u.grant.data_frames,
				  c->u.grant.data_frames);
		break;
	case UET_LS_DONE:
		ck_assert_uint_eq(o.u.done.window_end_ps,
				  c->u.done.window_end_ps);
		ck_assert_uint_eq(o.u.done.next_event_ps,
				  c->u.done.next_event_ps);
		ck_assert_uint_eq(o.u.done.data_frames, c->u.done.data_frames);
		break;
	case UET_LS_BYE:
		ck_assert_uint_eq(o.u.bye.end_ps, c->u.bye.end_ps);
		break;
	case UET_LS_ABORT:
		ck_assert_uint_eq(o.u.abort.code, c->u.abort.code);
		ck_assert_uint_eq(o.u.abort.text_len, c->u.abort.text_len);
		ck_assert_int_eq(memcmp(o.u.abort.text, c->u.abort.text,
					c->u.abort.text_len),
				 0);
		break;
	case UET_LS_NOTES:
		ck_assert_uint_eq(o.u.notes.window_end_ps,
				  c->u.notes.window_end_ps);
		ck_assert_uint_eq(o.u.notes.len, c->u.notes.len);
		/* The bytes are read in place, in the frame. */
		ck_assert_ptr_eq(o.u.notes.bytes,
				 buf + 14 + 32 + UET_LS_NOTES_FIXED_BYTES);
		ck_assert_int_eq(memcmp(o.u.notes.bytes, c->u.notes.bytes,
					c->u.notes.len),
				 0);
		break;
	}
	ck_assert_int_eq(uet_frame_parse(buf, (size_t)len, &f, &why), 0);
	ck_assert_uint_eq(f.kind, UET_FRAME_LOCKSTEP);
	ck_assert_uint_eq(f.l2.ls.type, c->type);
	ck_assert_uint_eq(f.l2.ls.seq, c->seq);
}

START_TEST(test_lockstep_every_type_round_trips)
{
	struct uet_ls_ctrl c;

	memset(&c, 0, sizeof(c));
	c.type = UET_LS_HELLO;
	c.nic_id = 513;
	c.seq = 0;
	c.u.hello.scenario_hash = 0x0123456789abcdefull;
	c.u.hello.ipv4 = TEST_IP_A;
	memcpy(c.u.hello.mac, mac_nic, 6);
	ls_round_trip(&c, 14 + 32 + 20);
	c.u.hello.flags = UET_LS_HELLO_WANTS_NOTES;
	ls_round_trip(&c, 14 + 32 + 20);

	memset(&c, 0, sizeof(c));
	c.type = UET_LS_WELCOME;
	c.nic_id = 2;
	c.run_id = 0xfeedfacecafebeefull;
	c.nonce = 0x1122334455667788ull;
	c.seq = 1;
	c.u.welcome.scenario_hash = 0x0123456789abcdefull;
	c.u.welcome.lookahead_ps = 1000000;
	c.u.welcome.start_ps = 0;
	ls_round_trip(&c, 70);

	c.type = UET_LS_GRANT;
	c.seq = 2;
	c.u.grant.window_start_ps = 5;
	c.u.grant.window_end_ps = 1000005;
	c.u.grant.data_frames = 0xffffffff;
	ls_round_trip(&c, 70);

	memset(&c.u, 0, sizeof(c.u));
	c.type = UET_LS_DONE;
	c.seq = 3;
	c.u.done.window_end_ps = 1000005;
	c.u.done.next_event_ps = UINT64_MAX;
	c.u.done.data_frames = 17;
	ls_round_trip(&c, 70);

	memset(&c.u, 0, sizeof(c.u));
	c.type = UET_LS_BYE;
	c.seq = 4;
	c.u.bye.end_ps = 123456789012ull;
	ls_round_trip(&c, 60); /* 54 padded to 60 */

	memset(&c.u, 0, sizeof(c.u));
	c.type = UET_LS_ABORT;
	c.seq = 5;
	c.u.abort.code = UET_LS_ABORT_FRAME_LOSS;
	c.u.abort.text_len = 1;
	c.u.abort.text[0] = 'x';
	ls_round_trip(&c, 60); /* 55 padded to 60 */
	c.u.abort.text_len = UET_LS_ABORT_TEXT_MAX;
	memset(c.u.abort.text, 'y', UET_LS_ABORT_TEXT_MAX);
	ls_round_trip(&c, 14 + 32 + 8 + 200);
	c.u.abort.text_len = 0;
	ls_round_trip(&c, 60);
	c.u.abort.text_len = 201;
	ck_assert_int_eq(uet_ls_body_bytes(&c), -EINVAL);
	c.type = 8;
	ck_assert_int_eq(uet_ls_body_bytes(&c), -EINVAL);

	{
		static uint8_t notes[UET_LS_NOTES_MAX_BYTES];
		uint32_t i;

		for (i = 0; i < UET_LS_NOTES_MAX_BYTES; i++)
			notes[i] = (uint8_t)(i * 7 + 1);
		memset(&c.u, 0, sizeof(c.u));
		c.type = UET_LS_NOTES;
		c.seq = 6;
		c.u.notes.window_end_ps = 0x0102030405060708ull;
		c.u.notes.bytes = notes;
		c.u.notes.len = 0;
		ls_round_trip(&c, 14 + 32 + 16);
		c.u.notes.len = 1;
		ls_round_trip(&c, 14 + 32 + 16 + 1);
		/* The largest fills a 1,514-byte Ethernet frame. */
		c.u.notes.len = UET_LS_NOTES_MAX_BYTES;
		ck_assert_uint_eq(UET_LS_NOTES_MAX_BYTES, 1452);
		ls_round_trip(&c, 1514);
	}

	ck_assert_str_eq(uet_ls_type_name(UET_LS_DONE), "DONE");
	ck_assert_str_eq(uet_ls_type_name(0), "UNKNOWN");
	ck_assert_str_eq(uet_ls_abort_code_name(UET_LS_ABORT_FRAME_LOSS),
			 "FRAME_LOSS");
	ck_assert_str_eq(uet_ls_abort_code_name(8), "UNKNOWN");
}
END_TEST

START_TEST(test_lockstep_rejects_with_reason)
{
	struct uet_ls_ctrl c, o;
	enum uet_wire_reason why;
	uint8_t good[300], buf[300];
	int len;

	memset(&c, 0, sizeof(c));
	c.type = UET_LS_ABORT;
	c.u.abort.code = 5;
	c.u.abort.text_len = 20;
	memset(c.u.abort.text, 'z', 20);
	len = uet_ls_ctrl_build(good, sizeof(good), mac_sw, mac_nic, &c);
	ck_assert_int_eq(len, 74);

#define EXPECT(n, r)                                                           \
	do {                                                                   \
		ck_assert_int_eq(uet_ls_ctrl_parse(buf, (n), &o, &why),        \
				 -EBADMSG);                                    \
		ck_assert_int_eq(why, (r));                                    \
		memcpy(buf, good, sizeof(good));                               \
	} while (0)

	memcpy(buf, good, sizeof(good));
	EXPECT(13, UET_WIRE_ETH_SHORT);
	EXPECT(45, UET_WIRE_LS_SHORT);
	EXPECT(73, UET_WIRE_LS_TRUNC);
	EXPECT(53, UET_WIRE_LS_TRUNC);
	buf[13] = 0xb6;
	EXPECT(74, UET_WIRE_LS_ETHERTYPE);
	buf[17] = 'X';
	EXPECT(74, UET_WIRE_LS_MAGIC);
	buf[18] = 2;
	EXPECT(74, UET_WIRE_LS_VERSION);
	buf[19] = 0;
	EXPECT(74, UET_WIRE_LS_TYPE);
	buf[19] = 8;
	EXPECT(74, UET_WIRE_LS_TYPE);
	buf[43] = 27; /* body_len 27, not 8 + 20 */
	EXPECT(74, UET_WIRE_LS_BODY_LEN);
	buf[43] = 7;
	EXPECT(74, UET_WIRE_LS_BODY_LEN);
	buf[50] = 0; /* text_len 201 */
	buf[51] = 201;
	EXPECT(300, UET_WIRE_LS_TEXT_LEN);
	buf[19] = UET_LS_BYE; /* BYE with an ABORT's body length */
	EXPECT(74, UET_WIRE_LS_BODY_LEN);
	ck_assert_int_eq(uet_ls_ctrl_parse(buf, 74, &o, &why), 0);
	ck_assert_uint_eq(o.u.abort.text_len, 20);
#undef EXPECT
}
END_TEST

/* NOTES: body_len must be 16 + len, len at most 1452, and the whole body
 * in the frame. */
START_TEST(test_lockstep_notes_rejects_with_reason)
{
	static const uint8_t notes[10] = "0123456789";
	struct uet_ls_ctrl c, o;
	enum uet_wire_reason why;
	uint8_t good[UET_LS_FRAME_MAX_BYTES + 8], buf[sizeof(good)];
	int len;

	memset(&c, 0, sizeof(c));
	c.type = UET_LS_NOTES;
	c.u.notes.window_end_ps = 5;
	c.u.notes.len = sizeof(notes);
	c.u.notes.bytes = notes;
	memset(good, 0, sizeof(good));
	len = uet_ls_ctrl_build(good, sizeof(good), mac_sw, mac_nic, &c);
	ck_assert_int_eq(len, 72);

#define EXPECT(n, r)                                                           \
	do {                                                                   \
		ck_assert_int_eq(uet_ls_ctrl_parse(buf, (n), &o, &why),        \
				 -EBADMSG);                                    \
		ck_assert_int_eq(why, (r));                                    \
		memcpy(buf, good, sizeof(good));                               \
	} while (0)

	memcpy(buf, good, sizeof(good));
	ck_assert_int_eq(uet_ls_ctrl_parse(buf, 72, &o, &why), 0);
	EXPECT(71, UET_WIRE_LS_TRUNC); /* a byte of the notes missing */
	EXPECT(61, UET_WIRE_LS_TRUNC); /* len itself cut */
	buf[43] = 25;		       /* body_len 25, not 16 + 10 */
	EXPECT(72, UET_WIRE_LS_BODY_LEN);
	buf[43] = 27;
	EXPECT(72, UET_WIRE_LS_BODY_LEN);
	buf[43] = 15; /* under the fixed part */
	EXPECT(72, UET_WIRE_LS_BODY_LEN);
	buf[54] = 0x05; /* len 1453 (0x05ad) */
	buf[55] = 0xad;
	EXPECT(sizeof(buf), UET_WIRE_LS_NOTES_LEN);
	/* len 1452 with body_len 1468: a whole 1,514-byte frame parses. */
	buf[54] = 0x05;
	buf[55] = 0xac;
	buf[42] = 0x05;
	buf[43] = 0xbc;
	ck_assert_int_eq(uet_ls_ctrl_parse(buf, 1514, &o, &why), 0);
	ck_assert_uint_eq(o.u.notes.len, 1452);
	buf[54] = 0x05;
	buf[55] = 0xac;
	buf[42] = 0x05;
	buf[43] = 0xbc;
	EXPECT(1513, UET_WIRE_LS_TRUNC);
	ck_assert_str_eq(uet_wire_reason_str(UET_WIRE_LS_NOTES_LEN),
			 "lockstep NOTES over 1452 bytes");
#undef EXPECT
}
END_TEST

START_TEST(test_trailer_append_strip_and_parse)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_frame f;
	enum uet_wire_reason why;
	uet_time_t t = 0;
	uint8_t buf[256];
	int len, n;

	ck_assert_int_eq(uet_ls_trailer_build(buf, 11, 1), -ENOSPC);
	ck_assert_int_eq(uet_ls_trailer_build(buf, 12, 0x0102030405060708ull),
			 12);
	ck_assert_bytes_hex(buf, 12, "55455654 0102030405060708");
	ck_assert_int_eq(uet_ls_trailer_parse(buf, 12, &t, &why), 12);
	ck_assert_uint_eq(t, 0x0102030405060708ull);
	ck_assert_int_eq(uet_ls_trailer_parse(buf, 11, &t, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_LS_TRAILER_SHORT);
	buf[3] = 'X';
	ck_assert_int_eq(uet_ls_trailer_parse(buf, 12, &t, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_LS_TRAILER_MAGIC);

	test_addr(&a, 1, 2);
	test_data_hdrs(&pds, &ses, 8);
	len = uet_frame_build(buf, sizeof(buf), &a, &pds, &ses, NULL, 8);
	ck_assert_int_eq(len, 110);
	ck_assert_int_eq(uet_ls_trailer_strip(buf, (size_t)len, &t), -ENOENT);
	ck_assert_int_eq(uet_ls_trailer_append(buf, (size_t)len, 121, 99),
			 -ENOSPC);
	n = uet_ls_trailer_append(buf, (size_t)len, sizeof(buf), 84040);
	ck_assert_int_eq(n, 122);
	ck_assert_int_eq(uet_frame_parse(buf, (size_t)n, &f, &why), 0);
	ck_assert(f.has_trailer);
	ck_assert_uint_eq(f.arrival_ps, 84040);
	ck_assert_uint_eq(f.ip_end, 110);
	ck_assert_uint_eq(f.payload_bytes, 8); /* trailer not payload */
	/* A trailer cut short after its magic is a reject. */
	ck_assert_int_eq(uet_frame_parse(buf, 115, &f, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_LS_TRAILER_SHORT);
	/* Appending again replaces the trailer. */
	n = uet_ls_trailer_append(buf, (size_t)n, sizeof(buf), 5);
	ck_assert_int_eq(n, 122);
	t = 0;
	ck_assert_int_eq(uet_ls_trailer_strip(buf, (size_t)n, &t), 110);
	ck_assert_uint_eq(t, 5);
	ck_assert_int_eq(uet_ls_trailer_strip(buf, (size_t)n, NULL), 110);
	ck_assert_int_eq(uet_ls_trailer_strip(buf, 20, NULL), -EBADMSG);
	/* Ethernet padding after the datagram is not a trailer. */
	memset(buf + 110, 0, 12);
	ck_assert_int_eq(uet_frame_parse(buf, 122, &f, &why), 0);
	ck_assert(!f.has_trailer);
}
END_TEST

static Suite *wire_l2_suite(void)
{
	Suite *s = suite_create("wire_l2");
	TCase *tc = tcase_create("l2");

	/* Far below this on an idle machine; ASan on a loaded one is slow. */
	tcase_set_timeout(tc, 120);

	tcase_add_test(tc, test_pfc_bytes_and_round_trip);
	tcase_add_test(tc, test_pfc_rejects_with_reason);
	tcase_add_test(tc, test_pfc_quanta_to_ps);
	tcase_add_test(tc, test_pfc_pause_refresh_and_end);
	tcase_add_test(tc, test_lockstep_grant_bytes);
	tcase_add_test(tc, test_lockstep_notes_bytes);
	tcase_add_test(tc, test_lockstep_hello_flags_bytes);
	tcase_add_test(tc, test_lockstep_every_type_round_trips);
	tcase_add_test(tc, test_lockstep_rejects_with_reason);
	tcase_add_test(tc, test_lockstep_notes_rejects_with_reason);
	tcase_add_test(tc, test_trailer_append_strip_and_parse);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(wire_l2_suite)
