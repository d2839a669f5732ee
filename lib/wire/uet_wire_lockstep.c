/* SPDX-License-Identifier: BSD-3-Clause */
/* Lockstep trailer and control frames (docs/lockstep-frames.md). */
#include <errno.h>
#include <string.h>

#include "uet_wire_be.h"
#include "uet_wire_lockstep.h"

static int reject(enum uet_wire_reason *reason, enum uet_wire_reason why)
{
	if (reason != NULL)
		*reason = why;
	return -EBADMSG;
}

/* Bytes of body of a type; var_len is an ABORT's text_len or a NOTES'
 * len, ignored for the others. */
static int body_bytes(unsigned int type, uint16_t var_len)
{
	switch (type) {
	case UET_LS_HELLO:
		return 20;
	case UET_LS_WELCOME:
	case UET_LS_GRANT:
	case UET_LS_DONE:
		return 24;
	case UET_LS_BYE:
		return 8;
	case UET_LS_ABORT:
		if (var_len > UET_LS_ABORT_TEXT_MAX)
			return -EINVAL;
		return 8 + var_len;
	case UET_LS_NOTES:
		if (var_len > UET_LS_NOTES_MAX_BYTES)
			return -EINVAL;
		return UET_LS_NOTES_FIXED_BYTES + var_len;
	default:
		return -EINVAL;
	}
}

int uet_ls_body_bytes(const struct uet_ls_ctrl *c)
{
	switch (c->type) {
	case UET_LS_ABORT:
		return body_bytes(c->type, c->u.abort.text_len);
	case UET_LS_NOTES:
		return body_bytes(c->type, c->u.notes.len);
	default:
		return body_bytes(c->type, 0);
	}
}

int uet_ls_ctrl_build(uint8_t *buf, size_t cap,
		      const uint8_t dst[UET_ETH_ADDR_LEN],
		      const uint8_t src[UET_ETH_ADDR_LEN],
		      const struct uet_ls_ctrl *c)
{
	int body = uet_ls_body_bytes(c);
	size_t len, framed;
	uint8_t *h, *b;

	if (body < 0)
		return body;
	if (c->type == UET_LS_NOTES && c->u.notes.len > 0 &&
	    c->u.notes.bytes == NULL)
		return -EINVAL;
	len = UET_ETH_HDR_BYTES + UET_LS_HDR_BYTES + (size_t)body;
	framed = len < UET_ETH_MIN_FRAME_BYTES ? UET_ETH_MIN_FRAME_BYTES : len;
	if (cap < framed)
		return -ENOSPC;
	memset(buf, 0, framed);
	memcpy(buf, dst, UET_ETH_ADDR_LEN);
	memcpy(buf + 6, src, UET_ETH_ADDR_LEN);
	uet_be16_store(buf + 12, UET_ETHERTYPE_LOCKSTEP);
	h = buf + UET_ETH_HDR_BYTES;
	memcpy(h, UET_LS_CTRL_MAGIC, 4);
	h[4] = UET_LS_VERSION;
	h[5] = c->type;
	uet_be16_store(h + 6, c->nic_id);
	uet_be64_store(h + 8, c->run_id);
	uet_be64_store(h + 16, c->nonce);
	uet_be32_store(h + 24, c->seq);
	uet_be16_store(h + 28, (uint16_t)body);
	b = h + UET_LS_HDR_BYTES;
	switch (c->type) {
	case UET_LS_HELLO:
		uet_be64_store(b, c->u.hello.scenario_hash);
		uet_be32_store(b + 8, c->u.hello.ipv4);
		memcpy(b + 12, c->u.hello.mac, UET_ETH_ADDR_LEN);
		uet_be16_store(b + 18, c->u.hello.flags);
		break;
	case UET_LS_WELCOME:
		uet_be64_store(b, c->u.welcome.scenario_hash);
		uet_be64_store(b + 8, c->u.welcome.lookahead_ps);
		uet_be64_store(b + 16, c->u.welcome.start_ps);
		break;
	case UET_LS_GRANT:
		uet_be64_store(b, c->u.grant.window_start_ps);
		uet_be64_store(b + 8, c->u.grant.window_end_ps);
		uet_be32_store(b + 16, c->u.grant.data_frames);
		break;
	case UET_LS_DONE:
		uet_be64_store(b, c->u.done.window_end_ps);
		uet_be64_store(b + 8, c->u.done.next_event_ps);
		uet_be32_store(b + 16, c->u.done.data_frames);
		break;
	case UET_LS_BYE:
		uet_be64_store(b, c->u.bye.end_ps);
		break;
	case UET_LS_ABORT:
		uet_be32_store(b, c->u.abort.code);
		uet_be16_store(b + 4, c->u.abort.text_len);
		memcpy(b + 8, c->u.abort.text, c->u.abort.text_len);
		break;
	case UET_LS_NOTES:
		uet_be64_store(b, c->u.notes.window_end_ps);
		uet_be16_store(b + 8, c->u.notes.len);
		if (c->u.notes.len > 0)
			memcpy(b + UET_LS_NOTES_FIXED_BYTES, c->u.notes.bytes,
			       c->u.notes.len);
		break;
	}
	return (int)framed;
}

int uet_ls_ctrl_parse(const uint8_t *buf, size_t len, struct uet_ls_ctrl *c,
		      enum uet_wire_reason *reason)
{
	const uint8_t *h, *b;
	uint16_t body_len, var_len = 0;
	int want;

	if (len < UET_ETH_HDR_BYTES)
		return reject(reason, UET_WIRE_ETH_SHORT);
	if (uet_be16_load(buf + 12) != UET_ETHERTYPE_LOCKSTEP)
		return reject(reason, UET_WIRE_LS_ETHERTYPE);
	if (len < UET_ETH_HDR_BYTES + UET_LS_HDR_BYTES)
		return reject(reason, UET_WIRE_LS_SHORT);
	h = buf + UET_ETH_HDR_BYTES;
	b = h + UET_LS_HDR_BYTES; /* may be the end of the frame */
	if (memcmp(h, UET_LS_CTRL_MAGIC, 4) != 0)
		return reject(reason, UET_WIRE_LS_MAGIC);
	if (h[4] != UET_LS_VERSION)
		return reject(reason, UET_WIRE_LS_VERSION);
	if (h[5] < UET_LS_HELLO || h[5] > UET_LS_NOTES)
		return reject(reason, UET_WIRE_LS_TYPE);
	body_len = uet_be16_load(h + 28);
	if (h[5] == UET_LS_ABORT) {
		/* text_len sits in the body: read it only once the fixed
		 * part of the body is known to be in the frame. */
		if (body_len < 8)
			return reject(reason, UET_WIRE_LS_BODY_LEN);
		if (len < UET_ETH_HDR_BYTES + UET_LS_HDR_BYTES + 8u)
			return reject(reason, UET_WIRE_LS_TRUNC);
		var_len = uet_be16_load(b + 4);
		if (var_len > UET_LS_ABORT_TEXT_MAX)
			return reject(reason, UET_WIRE_LS_TEXT_LEN);
	}
	if (h[5] == UET_LS_NOTES) {
		/* len sits in the body too, after window_end_ps. */
		if (body_len < UET_LS_NOTES_FIXED_BYTES)
			return reject(reason, UET_WIRE_LS_BODY_LEN);
		if (len < UET_ETH_HDR_BYTES + UET_LS_HDR_BYTES +
				  UET_LS_NOTES_FIXED_BYTES)
			return reject(reason, UET_WIRE_LS_TRUNC);
		var_len = uet_be16_load(b + 8);
		if (var_len > UET_LS_NOTES_MAX_BYTES)
			return reject(reason, UET_WIRE_LS_NOTES_LEN);
	}
	want = body_bytes(h[5], var_len);
	if (want != body_len)
		return reject(reason, UET_WIRE_LS_BODY_LEN);
	if (len < UET_ETH_HDR_BYTES + UET_LS_HDR_BYTES + (size_t)body_len)
		return reject(reason, UET_WIRE_LS_TRUNC);

	memset(c, 0, sizeof(*c));
	c->type = h[5];
	c->nic_id = uet_be16_load(h + 6);
	c->run_id = uet_be64_load(h + 8);
	c->nonce = uet_be64_load(h + 16);
	c->seq = uet_be32_load(h + 24);
	switch (c->type) {
	case UET_LS_HELLO:
		c->u.hello.scenario_hash = uet_be64_load(b);
		c->u.hello.ipv4 = uet_be32_load(b + 8);
		memcpy(c->u.hello.mac, b + 12, UET_ETH_ADDR_LEN);
		c->u.hello.flags = uet_be16_load(b + 18);
		break;
	case UET_LS_WELCOME:
		c->u.welcome.scenario_hash = uet_be64_load(b);
		c->u.welcome.lookahead_ps = uet_be64_load(b + 8);
		c->u.welcome.start_ps = uet_be64_load(b + 16);
		break;
	case UET_LS_GRANT:
		c->u.grant.window_start_ps = uet_be64_load(b);
		c->u.grant.window_end_ps = uet_be64_load(b + 8);
		c->u.grant.data_frames = uet_be32_load(b + 16);
		break;
	case UET_LS_DONE:
		c->u.done.window_end_ps = uet_be64_load(b);
		c->u.done.next_event_ps = uet_be64_load(b + 8);
		c->u.done.data_frames = uet_be32_load(b + 16);
		break;
	case UET_LS_BYE:
		c->u.bye.end_ps = uet_be64_load(b);
		break;
	case UET_LS_ABORT:
		c->u.abort.code = uet_be32_load(b);
		c->u.abort.text_len = var_len;
		memcpy(c->u.abort.text, b + 8, var_len);
		break;
	case UET_LS_NOTES:
		c->u.notes.window_end_ps = uet_be64_load(b);
		c->u.notes.len = var_len;
		c->u.notes.bytes = b + UET_LS_NOTES_FIXED_BYTES;
		break;
	}
	return 0;
}

int uet_ls_trailer_build(uint8_t *buf, size_t cap, uet_time_t arrival_ps)
{
	if (cap < UET_LS_TRAILER_BYTES)
		return -ENOSPC;
	memcpy(buf, UET_LS_TRAILER_MAGIC, 4);
	uet_be64_store(buf + 4, arrival_ps);
	return UET_LS_TRAILER_BYTES;
}

int uet_ls_trailer_parse(const uint8_t *buf, size_t len, uet_time_t *arrival_ps,
			 enum uet_wire_reason *reason)
{
	if (len < UET_LS_TRAILER_BYTES)
		return reject(reason, UET_WIRE_LS_TRAILER_SHORT);
	if (memcmp(buf, UET_LS_TRAILER_MAGIC, 4) != 0)
		return reject(reason, UET_WIRE_LS_TRAILER_MAGIC);
	*arrival_ps = uet_be64_load(buf + 4);
	return UET_LS_TRAILER_BYTES;
}

/* Offset just past the IP datagram of an Ethernet/IPv4 frame. */
static int ip_end(const uint8_t *buf, size_t len, size_t *end)
{
	struct uet_ipv4_hdr ip;

	if (len < UET_ETH_HDR_BYTES ||
	    uet_be16_load(buf + 12) != UET_ETHERTYPE_IPV4)
		return -EBADMSG;
	if (uet_ipv4_parse(buf + UET_ETH_HDR_BYTES, len - UET_ETH_HDR_BYTES,
			   &ip, NULL) < 0)
		return -EBADMSG;
	*end = UET_ETH_HDR_BYTES + (size_t)ip.total_length_bytes;
	return 0;
}

int uet_ls_trailer_append(uint8_t *buf, size_t len, size_t cap,
			  uet_time_t arrival_ps)
{
	size_t end;
	int rc;

	rc = ip_end(buf, len, &end);
	if (rc < 0)
		return rc;
	if (cap < end)
		return -ENOSPC;
	rc = uet_ls_trailer_build(buf + end, cap - end, arrival_ps);
	if (rc < 0)
		return rc;
	return (int)(end + UET_LS_TRAILER_BYTES);
}

int uet_ls_trailer_strip(const uint8_t *buf, size_t len, uet_time_t *arrival_ps)
{
	uet_time_t t;
	size_t end;
	int rc;

	rc = ip_end(buf, len, &end);
	if (rc < 0)
		return rc;
	if (uet_ls_trailer_parse(buf + end, len - end, &t, NULL) < 0)
		return -ENOENT;
	if (arrival_ps != NULL)
		*arrival_ps = t;
	return (int)end;
}

const char *uet_ls_type_name(unsigned int type)
{
	static const char *const names[] = {
		"UNKNOWN", "HELLO", "WELCOME", "GRANT",
		"DONE",	   "BYE",   "ABORT",   "NOTES",
	};

	if (type >= sizeof(names) / sizeof(names[0]))
		return "UNKNOWN";
	return names[type];
}

const char *uet_ls_abort_code_name(uint32_t code)
{
	static const char *const names[] = {
		"UNKNOWN",    "SCENARIO_MISMATCH", "STALE_RUN", "PEER_TIMEOUT",
		"FRAME_LOSS", "PROTOCOL",	   "USER",	"INTERNAL",
	};

	if (code >= sizeof(names) / sizeof(names[0]))
		return "UNKNOWN";
	return names[code];
}
