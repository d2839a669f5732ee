/* SPDX-License-Identifier: BSD-3-Clause */
/* SES headers (lib/wire/uet_wire_ses.c): round trips with every opcode
 * and flag, an exact byte image written by hand from the tables of
 * uet-wire-format.md, names, rejects. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_wire.h"
#include "wire_test_util.h"

/* SEND (5), flags EOM, message 0x42, job 1, pid 3, ri 4, buffer_offset
 * 0x1000, initiator 7, key 0; SOM clear: payload_length 4096 at [45:32],
 * message_offset 0x2000; request_length 0x3000. */
START_TEST(test_bytes_ses_std_som0)
{
	struct uet_ses_hdr s;
	uint8_t buf[44];

	memset(&s, 0, sizeof(s));
	s.kind = UET_SES_REQUEST_STD;
	s.u.std.opcode = UET_SES_OP_SEND;
	s.u.std.flags = UET_SES_F_EOM;
	s.u.std.message_id = 0x42;
	s.u.std.job_id = 1;
	s.u.std.pid_on_fep = 3;
	s.u.std.resource_index = 4;
	s.u.std.buffer_offset = 0x1000;
	s.u.std.initiator = 7;
	s.u.std.header_data = 0xdeadbeef; /* ignored: SOM clear */
	s.u.std.payload_length = 4096;
	s.u.std.message_offset = 0x2000;
	s.u.std.request_length = 0x3000;
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), 44);
	ck_assert_bytes_hex(
		buf, 44,
		"05 02 0042 00 000001 0003 0004 | 0000000000001000 "
		"| 00000007 | 0000000000000000 | 0000 1000 00002000 "
		"| 00003000");
}
END_TEST

static void std_fill(struct uet_ses_hdr *s, unsigned int opcode,
		     unsigned int flags)
{
	memset(s, 0, sizeof(*s));
	s->kind = UET_SES_REQUEST_STD;
	s->u.std.opcode = (uint8_t)opcode;
	s->u.std.flags = (uint8_t)flags;
	s->u.std.message_id = 0x1234;
	s->u.std.ri_generation = 0x77;
	s->u.std.job_id = 0xabcdef;
	s->u.std.pid_on_fep = 0x678;
	s->u.std.resource_index = 0x9ab;
	s->u.std.buffer_offset = 0xfedcba9876543210ull;
	s->u.std.initiator = 0xfedcba98;
	s->u.std.memory_key = 0x1122334455667788ull;
	s->u.std.header_data = 0xaabbddddeeff0011ull;
	s->u.std.payload_length = 0x3fff;
	s->u.std.message_offset = 0x77665544;
	s->u.std.request_length = 0x99887766;
}

START_TEST(test_ses_std_round_trip_every_opcode_and_flag)
{
	unsigned int combo;

	/* Every 6-bit opcode x 6-bit flags. */
	for (combo = 0; combo < 64 * 64; combo++) {
		unsigned int op = combo / 64, f = combo % 64;
		struct uet_ses_hdr s, o;
		const struct uet_ses_std *d = &o.u.std;
		enum uet_wire_reason why;
		uint8_t buf[48];

		std_fill(&s, op, f);
		ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), 44);
		ck_assert_int_eq(
			uet_ses_parse(UET_SES_REQUEST_STD, buf, 44, &o, &why),
			44);
		ck_assert_uint_eq(o.kind, UET_SES_REQUEST_STD);
		ck_assert_uint_eq(d->opcode, op);
		ck_assert_uint_eq(d->flags, f);
		ck_assert_uint_eq(d->message_id, 0x1234);
		ck_assert_uint_eq(d->ri_generation, 0x77);
		ck_assert_uint_eq(d->job_id, 0xabcdef);
		ck_assert_uint_eq(d->pid_on_fep, 0x678);
		ck_assert_uint_eq(d->resource_index, 0x9ab);
		ck_assert_uint_eq(d->buffer_offset, 0xfedcba9876543210ull);
		ck_assert_uint_eq(d->initiator, 0xfedcba98);
		ck_assert_uint_eq(d->memory_key, 0x1122334455667788ull);
		if (f & UET_SES_F_SOM) {
			ck_assert_uint_eq(d->header_data,
					  0xaabbddddeeff0011ull);
			ck_assert_uint_eq(d->payload_length, 0);
			ck_assert_uint_eq(d->message_offset, 0);
		} else {
			ck_assert_uint_eq(d->header_data,
					  0x00003fff77665544ull);
			ck_assert_uint_eq(d->payload_length, 0x3fff);
			ck_assert_uint_eq(d->message_offset, 0x77665544);
		}
		ck_assert_uint_eq(d->request_length, 0x99887766);
		ck_assert_int_eq(
			uet_ses_parse(UET_SES_REQUEST_STD, buf, 43, &o, &why),
			-EBADMSG);
		ck_assert_int_eq(why, UET_WIRE_SES_TRUNC);
	}
}
END_TEST

START_TEST(test_ses_small_medium_and_responses_round_trip)
{
	struct uet_ses_hdr s, o;
	uint8_t buf[48];

	memset(&s, 0, sizeof(s));
	s.kind = UET_SES_REQUEST_SMALL;
	s.u.small.opcode = UET_SES_OP_READ;
	s.u.small.flags = 0x2b;
	s.u.small.request_length = 0x1234;
	s.u.small.ri_generation = 0x77;
	s.u.small.job_id = 0xabcdef;
	s.u.small.pid_on_fep = 0x678;
	s.u.small.resource_index = 0x9ab;
	s.u.small.buffer_offset = 0x9876543298765432ull;
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), 20);
	ck_assert_bytes_hex(buf, 20,
			    "022b123477abcdef067809ab9876543298765432");
	ck_assert_int_eq(uet_ses_parse(1, buf, 20, &o, NULL), 20);
	ck_assert_uint_eq(o.u.small.opcode, UET_SES_OP_READ);
	ck_assert_uint_eq(o.u.small.flags, 0x2b);
	ck_assert_uint_eq(o.u.small.request_length, 0x1234);
	ck_assert_uint_eq(o.u.small.ri_generation, 0x77);
	ck_assert_uint_eq(o.u.small.job_id, 0xabcdef);
	ck_assert_uint_eq(o.u.small.pid_on_fep, 0x678);
	ck_assert_uint_eq(o.u.small.resource_index, 0x9ab);
	ck_assert_uint_eq(o.u.small.buffer_offset, 0x9876543298765432ull);

	memset(&s, 0, sizeof(s));
	s.kind = UET_SES_REQUEST_MEDIUM;
	s.u.medium.opcode = UET_SES_OP_WRITE;
	s.u.medium.flags = 0x2b;
	s.u.medium.request_length = 0x1234;
	s.u.medium.ri_generation = 0x77;
	s.u.medium.job_id = 0xabcdef;
	s.u.medium.pid_on_fep = 0x678;
	s.u.medium.resource_index = 0x9ab;
	s.u.medium.buffer_offset = 0x9876543298765432ull;
	s.u.medium.initiator = 0x87654321;
	s.u.medium.memory_key = 0xccbbddeeff009988ull;
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), 32);
	ck_assert_bytes_hex(buf, 32,
			    "012b123477abcdef067809ab987654329876543287"
			    "654321ccbbddeeff009988");
	ck_assert_int_eq(uet_ses_parse(2, buf, 32, &o, NULL), 32);
	ck_assert_uint_eq(o.u.medium.initiator, 0x87654321);
	ck_assert_uint_eq(o.u.medium.memory_key, 0xccbbddeeff009988ull);
	ck_assert_uint_eq(o.u.medium.request_length, 0x1234);

	memset(&s, 0, sizeof(s));
	s.kind = UET_SES_RESPONSE;
	s.u.rsp.list = 3;
	s.u.rsp.opcode = UET_SES_RSP_RESPONSE;
	s.u.rsp.return_code = 0x09;
	s.u.rsp.message_id = 0x1234;
	s.u.rsp.ri_generation = 0x99;
	s.u.rsp.job_id = 0x654321;
	s.u.rsp.modified_length = 0x09abcdef;
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), 12);
	ck_assert_bytes_hex(buf, 12, "c10912349965432109abcdef");
	ck_assert_int_eq(uet_ses_parse(4, buf, 12, &o, NULL), 12);
	ck_assert_uint_eq(o.u.rsp.list, 3);
	ck_assert_uint_eq(o.u.rsp.opcode, 1);
	ck_assert_uint_eq(o.u.rsp.return_code, 9);
	ck_assert_uint_eq(o.u.rsp.modified_length, 0x09abcdef);

	memset(&s, 0, sizeof(s));
	s.kind = UET_SES_RESPONSE_DATA;
	s.u.rsp_data.list = 3;
	s.u.rsp_data.opcode = 2;
	s.u.rsp_data.return_code = 9;
	s.u.rsp_data.message_id = 0x1234;
	s.u.rsp_data.job_id = 0x654321;
	s.u.rsp_data.read_req_message_id = 0x1234;
	s.u.rsp_data.payload_length = 0x321;
	s.u.rsp_data.modified_length = 0x87654321;
	s.u.rsp_data.message_offset = 0x09abcdef;
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), 20);
	ck_assert_bytes_hex(buf, 20,
			    "c209123400654321123403218765432109abcdef");
	ck_assert_int_eq(uet_ses_parse(5, buf, 20, &o, NULL), 20);
	ck_assert_uint_eq(o.u.rsp_data.payload_length, 0x321);
	ck_assert_uint_eq(o.u.rsp_data.message_offset, 0x09abcdef);

	memset(&s, 0, sizeof(s));
	s.kind = UET_SES_RESPONSE_DATA_SMALL;
	s.u.rsp_data_small.list = 3;
	s.u.rsp_data_small.opcode = 2;
	s.u.rsp_data_small.return_code = 9;
	s.u.rsp_data_small.payload_length = 0x3456;
	s.u.rsp_data_small.job_id = 0x036870;
	s.u.rsp_data_small.original_request_psn = 0x1234;
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), 12);
	ck_assert_bytes_hex(buf, 12, "c20934560003687000001234");
	ck_assert_int_eq(uet_ses_parse(6, buf, 12, &o, NULL), 12);
	ck_assert_uint_eq(o.u.rsp_data_small.payload_length, 0x3456);
	ck_assert_uint_eq(o.u.rsp_data_small.original_request_psn, 0x1234);
}
END_TEST

START_TEST(test_ses_build_and_parse_reject_with_reason)
{
	struct uet_ses_hdr s, o;
	enum uet_wire_reason why;
	uint8_t buf[48] = {0};

	std_fill(&s, UET_SES_OP_SEND, 0);
	s.u.std.payload_length = 0x4000; /* 15 bits */
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), -EINVAL);
	std_fill(&s, 64, UET_SES_F_SOM);
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), -EINVAL);
	std_fill(&s, 1, UET_SES_F_SOM);
	s.u.std.job_id = 0x1000000;
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), -EINVAL);
	std_fill(&s, 1, UET_SES_F_SOM);
	s.u.std.pid_on_fep = 0x1000;
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), -EINVAL);
	std_fill(&s, 1, UET_SES_F_SOM);
	ck_assert_int_eq(uet_ses_build(buf, 43, &s), -ENOSPC);
	s.kind = 7;
	ck_assert_int_eq(uet_ses_build(buf, sizeof(buf), &s), -EINVAL);

	ck_assert_int_eq(uet_ses_parse(7, buf, 48, &o, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_SES_NEXT_HDR_UNKNOWN);
	ck_assert_int_eq(uet_ses_parse(0, buf, 48, &o, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_SES_NEXT_HDR_UNKNOWN);
	buf[1] = 0x40; /* version 1 */
	ck_assert_int_eq(uet_ses_parse(3, buf, 48, &o, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_SES_VERSION);
	ck_assert_int_eq(uet_ses_parse(3, buf, 3, &o, &why), -EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_SES_TRUNC);
}
END_TEST

START_TEST(test_ses_names_of_every_code)
{
	static const char *const op[] = {"NO_OP",
					 "WRITE",
					 "READ",
					 "ATOMIC",
					 "FETCHING_ATOMIC",
					 "SEND",
					 "RENDEZVOUS_SEND",
					 "DATAGRAM_SEND",
					 "DEFERRABLE_SEND",
					 "TAGGED_SEND",
					 "RENDEZVOUS_TSEND",
					 "DEFERRABLE_TSEND",
					 "DEFERRABLE_RTR",
					 "TSEND_ATOMIC",
					 "TSEND_FETCH_ATOMIC",
					 "MSG_ERROR"};
	unsigned int i;

	for (i = 0; i < 16; i++)
		ck_assert_str_eq(uet_ses_opcode_name(i), op[i]);
	ck_assert_str_eq(uet_ses_opcode_name(0x10), "RESERVED");
	ck_assert_str_eq(uet_ses_opcode_name(0x2f), "RESERVED");
	ck_assert_str_eq(uet_ses_opcode_name(0x30), "VENDOR");
	ck_assert_str_eq(uet_ses_opcode_name(0x3e), "VENDOR");
	ck_assert_str_eq(uet_ses_opcode_name(0x3f), "EXTENDED");
	ck_assert_str_eq(uet_ses_rsp_opcode_name(2), "RESPONSE_W_DATA");
	ck_assert_str_eq(uet_ses_return_code_name(0x09), "AT_PERM");
	ck_assert_str_eq(uet_ses_return_code_name(0x24), "DROPPED");
	ck_assert_str_eq(uet_ses_return_code_name(0x25), "RESERVED");
	ck_assert_str_eq(uet_ses_return_code_name(0x31), "VENDOR");
}
END_TEST

static Suite *wire_ses_suite(void)
{
	Suite *s = suite_create("wire_ses");
	TCase *tc = tcase_create("ses");

	/* Far below this on an idle machine; ASan on a loaded one is slow. */
	tcase_set_timeout(tc, 120);

	tcase_add_test(tc, test_bytes_ses_std_som0);
	tcase_add_test(tc, test_ses_std_round_trip_every_opcode_and_flag);
	tcase_add_test(tc, test_ses_small_medium_and_responses_round_trip);
	tcase_add_test(tc, test_ses_build_and_parse_reject_with_reason);
	tcase_add_test(tc, test_ses_names_of_every_code);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(wire_ses_suite)
