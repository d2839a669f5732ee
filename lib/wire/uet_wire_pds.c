/* SPDX-License-Identifier: BSD-3-Clause */
/* PDS headers: build and parse every UET 1.0 type but TSS. */
#include <errno.h>
#include <string.h>

#include "uet_wire_be.h"
#include "uet_wire_pds.h"

#define SYN_USE_RSV_PDC 0x8000
#define SYN_PDC_INFO_SHIFT 12
#define SYN_PSN_OFFSET_MASK 0x0fff

static int reject(enum uet_wire_reason *reason, enum uet_wire_reason why)
{
	if (reason != NULL)
		*reason = why;
	return -EBADMSG;
}

size_t uet_pds_hdr_bytes(unsigned int type)
{
	switch (type) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
		return UET_PDS_REQ_BYTES;
	case UET_PDS_TYPE_RUDI_REQ:
	case UET_PDS_TYPE_RUDI_RESP:
		return UET_PDS_RUDI_BYTES;
	case UET_PDS_TYPE_UUD_REQ:
		return UET_PDS_UUD_BYTES;
	case UET_PDS_TYPE_ACK:
		return UET_PDS_ACK_BYTES;
	case UET_PDS_TYPE_ACK_CC:
		return UET_PDS_ACK_CC_BYTES;
	case UET_PDS_TYPE_ACK_CCX:
		return UET_PDS_ACK_CCX_BYTES;
	case UET_PDS_TYPE_NACK:
		return UET_PDS_NACK_BYTES;
	case UET_PDS_TYPE_CP:
		return UET_PDS_CP_BYTES;
	case UET_PDS_TYPE_NACK_CCX:
		return UET_PDS_NACK_CCX_BYTES;
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ:
		return UET_PDS_CC_REQ_BYTES;
	default:
		return 0;
	}
}

bool uet_pds_type_is_req(unsigned int type)
{
	return type == UET_PDS_TYPE_RUD_REQ || type == UET_PDS_TYPE_ROD_REQ ||
	       type == UET_PDS_TYPE_RUD_CC_REQ ||
	       type == UET_PDS_TYPE_ROD_CC_REQ;
}

static bool is_cc_req(unsigned int type)
{
	return type == UET_PDS_TYPE_RUD_CC_REQ ||
	       type == UET_PDS_TYPE_ROD_CC_REQ;
}

/* Bytes 10-11 of a request or CP: the destination PDC, or with SYN set the
 * overlay. Only use_rsv_pdc of pdc_info is sent; the sources disagree on the
 * other bits (see docs/wire.md). */
static int build_dpdcid_or_syn(uint8_t *p, bool syn, uint16_t dpdcid,
			       const struct uet_pds_syn *s)
{
	if (!syn) {
		uet_be16_store(p, dpdcid);
		return 0;
	}
	if (s->psn_offset > SYN_PSN_OFFSET_MASK)
		return -EINVAL;
	uet_be16_store(p, (uint16_t)((s->use_rsv_pdc ? SYN_USE_RSV_PDC : 0) |
				     s->psn_offset));
	return 0;
}

static void parse_dpdcid_or_syn(const uint8_t *p, bool syn, uint16_t *dpdcid,
				struct uet_pds_syn *s)
{
	uint16_t v = uet_be16_load(p);

	memset(s, 0, sizeof(*s));
	if (!syn) {
		*dpdcid = v;
		return;
	}
	*dpdcid = 0;
	s->pdc_info = (uint8_t)(v >> SYN_PDC_INFO_SHIFT);
	s->use_rsv_pdc = (v & SYN_USE_RSV_PDC) != 0;
	s->psn_offset = v & SYN_PSN_OFFSET_MASK;
}

static int build_req(uint8_t *buf, const struct uet_pds_hdr *h)
{
	const struct uet_pds_req *r = &h->u.req;

	if (h->flags & ~UET_PDS_REQ_F_MASK)
		return -EINVAL;
	uet_be16_store(buf + 2, (uint16_t)r->clear_psn_offset);
	uet_be32_store(buf + 4, r->psn);
	uet_be16_store(buf + 8, r->spdcid);
	if (build_dpdcid_or_syn(buf + 10, h->flags & UET_PDS_REQ_F_SYN,
				r->dpdcid, &r->syn) < 0)
		return -EINVAL;
	if (is_cc_req(h->type)) {
		if (r->credit_target > 0xffffff)
			return -EINVAL;
		buf[12] = r->ccc_id;
		uet_be24_store(buf + 13, r->credit_target);
	}
	return 0;
}

static void build_nscc(uint8_t *p, const struct uet_pds_nscc_state *s)
{
	uet_be16_store(p, s->service_time);
	p[2] = (uint8_t)((s->restore_cwnd ? 0x80 : 0) | s->rcv_cwnd_pend);
	uet_be24_store(p + 3, s->rcvd_bytes);
	uet_be16_store(p + 6, s->ooo_count);
}

static void build_credit(uint8_t *p, const struct uet_pds_credit_state *s)
{
	uet_be24_store(p, s->credit);
	uet_be24_store(p + 3, s->rsvd);
	uet_be16_store(p + 6, s->ooo_count);
}

static int build_ack(uint8_t *buf, uint8_t *flags, const struct uet_pds_hdr *h)
{
	const struct uet_pds_ack *a = &h->u.ack;
	uint8_t f = h->flags & (uint8_t)~UET_PDS_ACK_F_REQ_MASK;

	if ((f & ~UET_PDS_ACK_F_MASK) || a->req > UET_PDS_ACK_REQ_CLOSE)
		return -EINVAL;
	*flags = (uint8_t)(f | a->req << UET_PDS_ACK_F_REQ_SHIFT);
	uet_be16_store(buf + 2, (f & UET_PDS_ACK_F_P)
					? a->probe_opaque
					: (uint16_t)a->ack_psn_offset);
	uet_be32_store(buf + 4, a->cack_psn);
	uet_be16_store(buf + 8, a->spdcid);
	uet_be16_store(buf + 10, a->dpdcid);
	if (h->type == UET_PDS_TYPE_ACK)
		return 0;
	if (a->cc_type > 15 || a->cc_flags > 15)
		return -EINVAL;
	buf[12] = (uint8_t)(a->cc_type << 4 | a->cc_flags);
	buf[13] = a->mpr;
	uet_be16_store(buf + 14, (uint16_t)a->sack_psn_offset);
	uet_be64_store(buf + 16, a->sack_bitmap);
	if (h->type == UET_PDS_TYPE_ACK_CCX) {
		memcpy(buf + 24, a->cc_state, 16);
		return 0;
	}
	if (a->cc_type == UET_PDS_CC_TYPE_NSCC) {
		const struct uet_pds_nscc_state *s = &a->cc.nscc;

		if (s->rcv_cwnd_pend > 0x7f || s->rcvd_bytes > 0xffffff)
			return -EINVAL;
		build_nscc(buf + 24, s);
	} else if (a->cc_type == UET_PDS_CC_TYPE_CREDIT) {
		const struct uet_pds_credit_state *s = &a->cc.credit;

		if (s->credit > 0xffffff || s->rsvd > 0xffffff)
			return -EINVAL;
		build_credit(buf + 24, s);
	} else {
		memcpy(buf + 24, a->cc_state, 8);
	}
	return 0;
}

static int build_nack(uint8_t *buf, const struct uet_pds_hdr *h)
{
	const struct uet_pds_nack *n = &h->u.nack;

	if (h->flags & ~UET_PDS_NACK_F_MASK)
		return -EINVAL;
	buf[2] = n->nack_code;
	buf[3] = n->vendor_code;
	uet_be32_store(buf + 4, n->nack_psn);
	uet_be16_store(buf + 8, n->spdcid);
	uet_be16_store(buf + 10, n->dpdcid);
	uet_be32_store(buf + 12, n->payload);
	if (h->type == UET_PDS_TYPE_NACK_CCX) {
		if (n->nccx_type > 15)
			return -EINVAL;
		memcpy(buf + 16, n->ccx_state, 16);
		buf[16] = (uint8_t)((buf[16] & 0x0f) | n->nccx_type << 4);
	}
	return 0;
}

static int build_cp(uint8_t *buf, const struct uet_pds_hdr *h)
{
	const struct uet_pds_cp *c = &h->u.cp;

	if (h->flags & ~UET_PDS_CP_F_MASK)
		return -EINVAL;
	uet_be16_store(buf + 2, c->probe_opaque);
	uet_be32_store(buf + 4, c->psn);
	uet_be16_store(buf + 8, c->spdcid);
	if (build_dpdcid_or_syn(buf + 10, h->flags & UET_PDS_CP_F_SYN,
				c->dpdcid, &c->syn) < 0)
		return -EINVAL;
	uet_be32_store(buf + 12, c->payload);
	return 0;
}

int uet_pds_build(uint8_t *buf, size_t cap, const struct uet_pds_hdr *h)
{
	size_t n = uet_pds_hdr_bytes(h->type);
	uint8_t flags = h->flags;
	int rc = 0;

	if (n == 0)
		return -ENOTSUP;
	if (cap < n)
		return -ENOSPC;
	if (h->next_hdr > 15 || flags > 0x7f)
		return -EINVAL;
	memset(buf, 0, n);
	switch (h->type) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ:
		rc = build_req(buf, h);
		break;
	case UET_PDS_TYPE_ACK:
	case UET_PDS_TYPE_ACK_CC:
	case UET_PDS_TYPE_ACK_CCX:
		rc = build_ack(buf, &flags, h);
		break;
	case UET_PDS_TYPE_NACK:
	case UET_PDS_TYPE_NACK_CCX:
		rc = build_nack(buf, h);
		break;
	case UET_PDS_TYPE_CP:
		rc = build_cp(buf, h);
		break;
	case UET_PDS_TYPE_RUDI_REQ:
	case UET_PDS_TYPE_RUDI_RESP:
		if (flags & ~UET_PDS_RUDI_F_MASK)
			return -EINVAL;
		uet_be32_store(buf + 4, h->u.rudi.pkt_id);
		break;
	case UET_PDS_TYPE_UUD_REQ:
		if (flags != 0)
			return -EINVAL;
		break;
	}
	if (rc < 0)
		return rc;
	uet_be16_store(buf,
		       (uint16_t)(h->type << 11 | h->next_hdr << 7 | flags));
	return (int)n;
}

static void parse_ack(const uint8_t *buf, struct uet_pds_hdr *h)
{
	struct uet_pds_ack *a = &h->u.ack;
	uint16_t v = uet_be16_load(buf + 2);

	if (h->flags & UET_PDS_ACK_F_P)
		a->probe_opaque = v;
	else
		a->ack_psn_offset = (int16_t)v;
	a->req = (h->flags & UET_PDS_ACK_F_REQ_MASK) >> UET_PDS_ACK_F_REQ_SHIFT;
	a->cack_psn = uet_be32_load(buf + 4);
	a->spdcid = uet_be16_load(buf + 8);
	a->dpdcid = uet_be16_load(buf + 10);
	if (h->type == UET_PDS_TYPE_ACK)
		return;
	a->cc_type = buf[12] >> 4;
	a->cc_flags = buf[12] & 0x0f;
	a->mpr = buf[13];
	a->sack_psn_offset = (int16_t)uet_be16_load(buf + 14);
	a->sack_bitmap = uet_be64_load(buf + 16);
	if (h->type == UET_PDS_TYPE_ACK_CCX) {
		memcpy(a->cc_state, buf + 24, 16);
		return;
	}
	memcpy(a->cc_state, buf + 24, 8);
	if (a->cc_type == UET_PDS_CC_TYPE_NSCC) {
		struct uet_pds_nscc_state *s = &a->cc.nscc;

		s->service_time = uet_be16_load(buf + 24);
		s->restore_cwnd = (buf[26] & 0x80) != 0;
		s->rcv_cwnd_pend = buf[26] & 0x7f;
		s->rcvd_bytes = uet_be24_load(buf + 27);
		s->ooo_count = uet_be16_load(buf + 30);
	} else if (a->cc_type == UET_PDS_CC_TYPE_CREDIT) {
		struct uet_pds_credit_state *s = &a->cc.credit;

		s->credit = uet_be24_load(buf + 24);
		s->rsvd = uet_be24_load(buf + 27);
		s->ooo_count = uet_be16_load(buf + 30);
	}
}

int uet_pds_parse(const uint8_t *buf, size_t len, struct uet_pds_hdr *h,
		  enum uet_wire_reason *reason)
{
	uint16_t prologue;
	size_t n;

	if (len < 2)
		return reject(reason, UET_WIRE_PDS_SHORT);
	prologue = uet_be16_load(buf);
	memset(h, 0, sizeof(*h));
	h->type = (uint8_t)(prologue >> 11);
	h->next_hdr = (prologue >> 7) & 0x0f;
	h->flags = prologue & 0x7f;
	if (h->type == 0)
		return reject(reason, UET_WIRE_PDS_TYPE_RESERVED);
	if (h->type == UET_PDS_TYPE_TSS)
		return reject(reason, UET_WIRE_PDS_TYPE_TSS);
	n = uet_pds_hdr_bytes(h->type);
	if (n == 0)
		return reject(reason, UET_WIRE_PDS_TYPE_UNKNOWN);
	if (len < n)
		return reject(reason, UET_WIRE_PDS_TRUNC);
	h->hdr_bytes = (uint8_t)n;

	switch (h->type) {
	case UET_PDS_TYPE_RUD_REQ:
	case UET_PDS_TYPE_ROD_REQ:
	case UET_PDS_TYPE_RUD_CC_REQ:
	case UET_PDS_TYPE_ROD_CC_REQ: {
		struct uet_pds_req *r = &h->u.req;

		r->clear_psn_offset = (int16_t)uet_be16_load(buf + 2);
		r->psn = uet_be32_load(buf + 4);
		r->spdcid = uet_be16_load(buf + 8);
		parse_dpdcid_or_syn(buf + 10, h->flags & UET_PDS_REQ_F_SYN,
				    &r->dpdcid, &r->syn);
		if (is_cc_req(h->type)) {
			r->ccc_id = buf[12];
			r->credit_target = uet_be24_load(buf + 13);
		}
		break;
	}
	case UET_PDS_TYPE_ACK:
	case UET_PDS_TYPE_ACK_CC:
	case UET_PDS_TYPE_ACK_CCX:
		parse_ack(buf, h);
		break;
	case UET_PDS_TYPE_NACK:
	case UET_PDS_TYPE_NACK_CCX: {
		struct uet_pds_nack *k = &h->u.nack;

		k->nack_code = buf[2];
		k->vendor_code = buf[3];
		k->nack_psn = uet_be32_load(buf + 4);
		k->spdcid = uet_be16_load(buf + 8);
		k->dpdcid = uet_be16_load(buf + 10);
		k->payload = uet_be32_load(buf + 12);
		if (h->type == UET_PDS_TYPE_NACK_CCX) {
			k->nccx_type = buf[16] >> 4;
			memcpy(k->ccx_state, buf + 16, 16);
		}
		break;
	}
	case UET_PDS_TYPE_CP: {
		struct uet_pds_cp *c = &h->u.cp;

		c->probe_opaque = uet_be16_load(buf + 2);
		c->psn = uet_be32_load(buf + 4);
		c->spdcid = uet_be16_load(buf + 8);
		parse_dpdcid_or_syn(buf + 10, h->flags & UET_PDS_CP_F_SYN,
				    &c->dpdcid, &c->syn);
		c->payload = uet_be32_load(buf + 12);
		break;
	}
	case UET_PDS_TYPE_RUDI_REQ:
	case UET_PDS_TYPE_RUDI_RESP:
		h->u.rudi.pkt_id = uet_be32_load(buf + 4);
		break;
	default: /* UUD: nothing past the prologue */
		break;
	}
	return (int)n;
}

const char *uet_pds_type_name(unsigned int type)
{
	static const char *const names[] = {
		"RESERVED",  "TSS",	"RUD_REQ",  "ROD_REQ",	  "RUDI_REQ",
		"RUDI_RESP", "UUD_REQ", "ACK",	    "ACK_CC",	  "ACK_CCX",
		"NACK",	     "CP",	"NACK_CCX", "RUD_CC_REQ", "ROD_CC_REQ",
	};

	if (type >= sizeof(names) / sizeof(names[0]))
		return "UNKNOWN";
	return names[type];
}

const char *uet_nack_code_name(unsigned int code)
{
	static const char *const names[] = {
		[0x01] = "UET_TRIMMED",	      [0x02] = "UET_TRIMMED_LASTHOP",
		[0x03] = "TRIMMED_ACK",	      [0x04] = "NO_PDC_AVAIL",
		[0x05] = "NO_CCC_AVAIL",      [0x06] = "NO_BITMAP",
		[0x07] = "NO_PKT_BUFFER",     [0x08] = "NO_GTD_DEL_AVAIL",
		[0x09] = "NO_SES_MSG_AVAIL",  [0x0A] = "NO_RESOURCE",
		[0x0B] = "PSN_OOR_WINDOW",    [0x0D] = "ROD_OOO",
		[0x0E] = "INV_DPDCID",	      [0x0F] = "PDC_HDR_MISMATCH",
		[0x10] = "CLOSING",	      [0x11] = "CLOSING_IN_ERR",
		[0x12] = "PKT_NOT_RCVD",      [0x13] = "GTD_RESP_UNAVAIL",
		[0x14] = "ACK_WITH_DATA",     [0x15] = "INVALID_SYN",
		[0x16] = "PDC_MODE_MISMATCH", [0x17] = "NEW_START_PSN",
		[0x18] = "RCVD_SES_PROCG",    [0x19] = "UNEXP_EVENT",
		[0x1A] = "RCVR_INFER_LOSS",
	};

	switch (code) {
	case UET_NACK_EXP_NACK_NORMAL:
		return "EXP_NACK_NORMAL";
	case UET_NACK_EXP_NACK_ERR:
		return "EXP_NACK_ERR";
	case UET_NACK_EXP_NACK_FATAL:
		return "EXP_NACK_FATAL";
	}
	if (code >= sizeof(names) / sizeof(names[0]) || names[code] == NULL)
		return "RESERVED";
	return names[code];
}

const char *uet_cp_ctl_type_name(unsigned int ctl_type)
{
	static const char *const names[] = {
		"NOOP",	     "ACK_REQ", "CLEAR",  "CLEAR_REQ",	"CLOSE",
		"CLOSE_REQ", "PROBE",	"CREDIT", "CREDIT_REQ", "NEGOTIATION",
	};

	if (ctl_type >= sizeof(names) / sizeof(names[0]))
		return "RESERVED";
	return names[ctl_type];
}
