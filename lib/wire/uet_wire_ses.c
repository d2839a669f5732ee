/* SPDX-License-Identifier: BSD-3-Clause */
/* SES headers: standard, small and medium requests; the three responses. */
#include <errno.h>
#include <string.h>

#include "uet_wire_be.h"
#include "uet_wire_ses.h"

#define SES_FLAGS_MASK 0x3f
#define SES_VER_SHIFT 6
#define LEN14_MASK 0x3fff
#define ID12_MASK 0x0fff

static int reject(enum uet_wire_reason *reason, enum uet_wire_reason why)
{
	if (reason != NULL)
		*reason = why;
	return -EBADMSG;
}

size_t uet_ses_hdr_bytes(unsigned int kind)
{
	switch (kind) {
	case UET_SES_REQUEST_SMALL:
		return UET_SES_SMALL_BYTES;
	case UET_SES_REQUEST_MEDIUM:
		return UET_SES_MEDIUM_BYTES;
	case UET_SES_REQUEST_STD:
		return UET_SES_STD_BYTES;
	case UET_SES_RESPONSE:
		return UET_SES_RSP_BYTES;
	case UET_SES_RESPONSE_DATA:
		return UET_SES_RSP_DATA_BYTES;
	case UET_SES_RESPONSE_DATA_SMALL:
		return UET_SES_RSP_DATA_SMALL_BYTES;
	default:
		return 0;
	}
}

/* The 12-byte prefix of the three requests; word2 is message_id (standard)
 * or the 14-bit request_length (small, medium). */
static int build_prefix(uint8_t *p, uint8_t opcode, uint8_t flags,
			uint16_t word2, uint8_t ri_generation, uint32_t job_id,
			uint16_t pid_on_fep, uint16_t resource_index)
{
	if (opcode > 0x3f || flags > SES_FLAGS_MASK || job_id > 0xffffff ||
	    pid_on_fep > ID12_MASK || resource_index > ID12_MASK)
		return -EINVAL;
	p[0] = opcode;
	p[1] = flags;
	uet_be16_store(p + 2, word2);
	p[4] = ri_generation;
	uet_be24_store(p + 5, job_id);
	uet_be16_store(p + 8, pid_on_fep);
	uet_be16_store(p + 10, resource_index);
	return 0;
}

static int build_rsp_prefix(uint8_t *p, uint8_t list, uint8_t opcode,
			    uint8_t rc)
{
	if (list > 3 || opcode > 0x3f || rc > 0x3f)
		return -EINVAL;
	p[0] = (uint8_t)(list << 6 | opcode);
	p[1] = rc;
	return 0;
}

int uet_ses_build(uint8_t *buf, size_t cap, const struct uet_ses_hdr *h)
{
	size_t n = uet_ses_hdr_bytes(h->kind);
	int rc = 0;

	if (n == 0)
		return -EINVAL;
	if (cap < n)
		return -ENOSPC;
	memset(buf, 0, n);
	switch (h->kind) {
	case UET_SES_REQUEST_STD: {
		const struct uet_ses_std *s = &h->u.std;

		rc = build_prefix(buf, s->opcode, s->flags, s->message_id,
				  s->ri_generation, s->job_id, s->pid_on_fep,
				  s->resource_index);
		uet_be64_store(buf + 12, s->buffer_offset);
		uet_be32_store(buf + 20, s->initiator);
		uet_be64_store(buf + 24, s->memory_key);
		if (s->flags & UET_SES_F_SOM) {
			uet_be64_store(buf + 32, s->header_data);
		} else {
			if (s->payload_length > LEN14_MASK)
				return -EINVAL;
			uet_be16_store(buf + 34, s->payload_length);
			uet_be32_store(buf + 36, s->message_offset);
		}
		uet_be32_store(buf + 40, s->request_length);
		break;
	}
	case UET_SES_REQUEST_SMALL: {
		const struct uet_ses_small *s = &h->u.small;

		if (s->request_length > LEN14_MASK)
			return -EINVAL;
		rc = build_prefix(buf, s->opcode, s->flags, s->request_length,
				  s->ri_generation, s->job_id, s->pid_on_fep,
				  s->resource_index);
		uet_be64_store(buf + 12, s->buffer_offset);
		break;
	}
	case UET_SES_REQUEST_MEDIUM: {
		const struct uet_ses_medium *s = &h->u.medium;

		if (s->request_length > LEN14_MASK)
			return -EINVAL;
		rc = build_prefix(buf, s->opcode, s->flags, s->request_length,
				  s->ri_generation, s->job_id, s->pid_on_fep,
				  s->resource_index);
		uet_be64_store(buf + 12, s->buffer_offset);
		uet_be32_store(buf + 20, s->initiator);
		uet_be64_store(buf + 24, s->memory_key);
		break;
	}
	case UET_SES_RESPONSE: {
		const struct uet_ses_rsp *s = &h->u.rsp;

		if (s->job_id > 0xffffff)
			return -EINVAL;
		rc = build_rsp_prefix(buf, s->list, s->opcode, s->return_code);
		uet_be16_store(buf + 2, s->message_id);
		buf[4] = s->ri_generation;
		uet_be24_store(buf + 5, s->job_id);
		uet_be32_store(buf + 8, s->modified_length);
		break;
	}
	case UET_SES_RESPONSE_DATA: {
		const struct uet_ses_rsp_data *s = &h->u.rsp_data;

		if (s->job_id > 0xffffff || s->payload_length > LEN14_MASK)
			return -EINVAL;
		rc = build_rsp_prefix(buf, s->list, s->opcode, s->return_code);
		uet_be16_store(buf + 2, s->message_id);
		uet_be24_store(buf + 5, s->job_id);
		uet_be16_store(buf + 8, s->read_req_message_id);
		uet_be16_store(buf + 10, s->payload_length);
		uet_be32_store(buf + 12, s->modified_length);
		uet_be32_store(buf + 16, s->message_offset);
		break;
	}
	case UET_SES_RESPONSE_DATA_SMALL: {
		const struct uet_ses_rsp_data_small *s = &h->u.rsp_data_small;

		if (s->job_id > 0xffffff || s->payload_length > LEN14_MASK)
			return -EINVAL;
		rc = build_rsp_prefix(buf, s->list, s->opcode, s->return_code);
		uet_be16_store(buf + 2, s->payload_length);
		uet_be24_store(buf + 5, s->job_id);
		uet_be32_store(buf + 8, s->original_request_psn);
		break;
	}
	}
	return rc < 0 ? rc : (int)n;
}

int uet_ses_parse(unsigned int kind, const uint8_t *buf, size_t len,
		  struct uet_ses_hdr *h, enum uet_wire_reason *reason)
{
	size_t n = uet_ses_hdr_bytes(kind);

	if (n == 0)
		return reject(reason, UET_WIRE_SES_NEXT_HDR_UNKNOWN);
	if (len < n)
		return reject(reason, UET_WIRE_SES_TRUNC);
	if (buf[1] >> SES_VER_SHIFT != 0)
		return reject(reason, UET_WIRE_SES_VERSION);
	memset(h, 0, sizeof(*h));
	h->kind = (uint8_t)kind;
	switch (kind) {
	case UET_SES_REQUEST_STD: {
		struct uet_ses_std *s = &h->u.std;

		s->opcode = buf[0] & 0x3f;
		s->flags = buf[1] & SES_FLAGS_MASK;
		s->message_id = uet_be16_load(buf + 2);
		s->ri_generation = buf[4];
		s->job_id = uet_be24_load(buf + 5);
		s->pid_on_fep = uet_be16_load(buf + 8) & ID12_MASK;
		s->resource_index = uet_be16_load(buf + 10) & ID12_MASK;
		s->buffer_offset = uet_be64_load(buf + 12);
		s->initiator = uet_be32_load(buf + 20);
		s->memory_key = uet_be64_load(buf + 24);
		s->header_data = uet_be64_load(buf + 32);
		if (!(s->flags & UET_SES_F_SOM)) {
			s->payload_length =
				uet_be16_load(buf + 34) & LEN14_MASK;
			s->message_offset = uet_be32_load(buf + 36);
		}
		s->request_length = uet_be32_load(buf + 40);
		break;
	}
	case UET_SES_REQUEST_SMALL:
	case UET_SES_REQUEST_MEDIUM: {
		/* The small request is the medium one's first 20 bytes. */
		struct uet_ses_medium *s = &h->u.medium;

		s->opcode = buf[0] & 0x3f;
		s->flags = buf[1] & SES_FLAGS_MASK;
		s->request_length = uet_be16_load(buf + 2) & LEN14_MASK;
		s->ri_generation = buf[4];
		s->job_id = uet_be24_load(buf + 5);
		s->pid_on_fep = uet_be16_load(buf + 8) & ID12_MASK;
		s->resource_index = uet_be16_load(buf + 10) & ID12_MASK;
		s->buffer_offset = uet_be64_load(buf + 12);
		if (kind == UET_SES_REQUEST_MEDIUM) {
			s->initiator = uet_be32_load(buf + 20);
			s->memory_key = uet_be64_load(buf + 24);
		} else {
			struct uet_ses_medium m = *s;

			h->u.small.opcode = m.opcode;
			h->u.small.flags = m.flags;
			h->u.small.request_length = m.request_length;
			h->u.small.ri_generation = m.ri_generation;
			h->u.small.job_id = m.job_id;
			h->u.small.pid_on_fep = m.pid_on_fep;
			h->u.small.resource_index = m.resource_index;
			h->u.small.buffer_offset = m.buffer_offset;
		}
		break;
	}
	case UET_SES_RESPONSE: {
		struct uet_ses_rsp *s = &h->u.rsp;

		s->list = buf[0] >> 6;
		s->opcode = buf[0] & 0x3f;
		s->return_code = buf[1] & 0x3f;
		s->message_id = uet_be16_load(buf + 2);
		s->ri_generation = buf[4];
		s->job_id = uet_be24_load(buf + 5);
		s->modified_length = uet_be32_load(buf + 8);
		break;
	}
	case UET_SES_RESPONSE_DATA: {
		struct uet_ses_rsp_data *s = &h->u.rsp_data;

		s->list = buf[0] >> 6;
		s->opcode = buf[0] & 0x3f;
		s->return_code = buf[1] & 0x3f;
		s->message_id = uet_be16_load(buf + 2);
		s->job_id = uet_be24_load(buf + 5);
		s->read_req_message_id = uet_be16_load(buf + 8);
		s->payload_length = uet_be16_load(buf + 10) & LEN14_MASK;
		s->modified_length = uet_be32_load(buf + 12);
		s->message_offset = uet_be32_load(buf + 16);
		break;
	}
	case UET_SES_RESPONSE_DATA_SMALL: {
		struct uet_ses_rsp_data_small *s = &h->u.rsp_data_small;

		s->list = buf[0] >> 6;
		s->opcode = buf[0] & 0x3f;
		s->return_code = buf[1] & 0x3f;
		s->payload_length = uet_be16_load(buf + 2) & LEN14_MASK;
		s->job_id = uet_be24_load(buf + 5);
		s->original_request_psn = uet_be32_load(buf + 8);
		break;
	}
	}
	return (int)n;
}

const char *uet_ses_opcode_name(unsigned int opcode)
{
	static const char *const names[] = {
		"NO_OP",
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
		"MSG_ERROR",
	};

	if (opcode < sizeof(names) / sizeof(names[0]))
		return names[opcode];
	if (opcode <= 0x2f)
		return "RESERVED";
	if (opcode <= 0x3e)
		return "VENDOR";
	if (opcode == 0x3f)
		return "EXTENDED";
	return "INVALID";
}

const char *uet_ses_rsp_opcode_name(unsigned int opcode)
{
	static const char *const names[] = {
		"DEFAULT_RESPONSE",
		"RESPONSE",
		"RESPONSE_W_DATA",
		"NO_RESPONSE",
	};

	if (opcode >= sizeof(names) / sizeof(names[0]))
		return "RESERVED";
	return names[opcode];
}

const char *uet_ses_return_code_name(unsigned int code)
{
	static const char *const names[] = {
		"NULL",
		"OK",
		"BAD_GENERATION",
		"DISABLED",
		"DISABLED_GEN",
		"NO_MATCH",
		"UNSUPPORTED_OP",
		"UNSUPPORTED_SIZE",
		"AT_INVALID",
		"AT_PERM",
		"AT_ATS_ERROR",
		"AT_NO_TRANS",
		"AT_OUT_OF_RANGE",
		"HOST_POISONED",
		"HOST_UNSUCCESS_CMPL",
		"AMO_UNSUPPORTED_OP",
		"AMO_UNSUPPORTED_DT",
		"AMO_UNSUPPORTED_SIZE",
		"AMO_UNALIGNED",
		"AMO_FP_NAN",
		"AMO_FP_UNDERFLOW",
		"AMO_FP_OVERFLOW",
		"AMO_FP_INEXACT",
		"PERM_VIOLATION",
		"OP_VIOLATION",
		"BAD_INDEX",
		"BAD_PID",
		"BAD_JOB_ID",
		"BAD_MKEY",
		"BAD_ADDR",
		"CANCELLED",
		"UNDELIVERABLE",
		"UNCOR",
		"UNCOR_TRNSNT",
		"TOO_LONG",
		"INITIATOR_ERR",
		"DROPPED",
	};

	if (code < sizeof(names) / sizeof(names[0]))
		return names[code];
	if (code >= 0x30 && code <= 0x37)
		return "VENDOR";
	if (code == 0x3e)
		return "EXTENDED";
	return "RESERVED";
}
