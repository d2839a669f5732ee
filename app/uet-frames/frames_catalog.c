/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Frame catalog of uet-frames. Each kind is first described as lib/wire
 * structs (struct frame_desc); the frame is built from the description and
 * the expected decoder fields are printed from the same description, so a
 * decode test compares what a decoder shows with what was asked for, not
 * with what lib/wire happened to write.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "uet_host_addr.h"
#include "uet_time.h"
#include "frames_catalog.h"
#include "frames_desc.h"

/** Message id the example message carries in its SES header. */
#define EX_MESSAGE_ID 7
/** Job id of the example traffic. */
#define EX_JOB_ID 1
/** Lockstep run id and nonce of the example control frames. */
#define EX_RUN_ID 0x0123456789abcdefull
#define EX_NONCE 0x5eed5eed5eed5eedull
#define EX_SCENARIO_HASH 0x1122334455667788ull
/** Probe opaque value the example probe and its ACK carry. */
#define EX_PROBE_OPAQUE 0x0b0e

void uet_frames_opts_default(struct uet_frames_opts *o)
{
	memset(o, 0, sizeof(*o));
	/* Hosts 0 and 1 of the project's address plan (docs/design.md,
	 * Addresses). */
	uet_host_mac(0, o->src_mac);
	uet_host_mac(1, o->dst_mac);
	o->src_ip = uet_host_ipv4(0);
	o->dst_ip = uet_host_ipv4(1);
	o->psn = 1000;
	o->spdcid = 1;
	o->dpdcid = 2;
	o->entropy = 0xc000;
	o->udp_dport = 4793;
	o->mss_bytes = 4096;
	o->message_bytes = 3 * 4096 + 100;
	o->ack_request = true;
	uet_dscp_map_default(&o->dscp);
}

/* Packets of the example message: ceil(N / MSS), one if N is 0. */
static uint32_t message_packets(const struct uet_frames_opts *o)
{
	if (o->message_bytes == 0)
		return 1;
	return (uint32_t)(((uint64_t)o->message_bytes + o->mss_bytes - 1) /
			  o->mss_bytes);
}

static void addr_forward(const struct uet_frames_opts *o, int role,
			 struct frame_desc *d)
{
	uet_frame_addr_default(&d->addr);
	memcpy(d->addr.src_mac, o->src_mac, UET_ETH_ADDR_LEN);
	memcpy(d->addr.dst_mac, o->dst_mac, UET_ETH_ADDR_LEN);
	d->addr.src_ip = o->src_ip;
	d->addr.dst_ip = o->dst_ip;
	d->addr.entropy = o->entropy;
	d->addr.udp_dport = o->udp_dport;
	d->addr.dscp = o->dscp.codepoint[role];
	d->role = role;
}

/* ACKs and NACKs go back from the receiver, carrying the entropy back. */
static void addr_reverse(const struct uet_frames_opts *o, struct frame_desc *d)
{
	addr_forward(o, UET_DSCP_CONTROL, d);
	memcpy(d->addr.src_mac, o->dst_mac, UET_ETH_ADDR_LEN);
	memcpy(d->addr.dst_mac, o->src_mac, UET_ETH_ADDR_LEN);
	d->addr.src_ip = o->dst_ip;
	d->addr.dst_ip = o->src_ip;
}

/*
 * Data packet number idx (0-based) of the example message: RUD_CC_REQ and
 * a standard SES request. The first packets of a new PDC carry SYN and the
 * psn_offset overlay; here the first packet does, the others already know
 * the receiver's PDC id.
 */
static void desc_data(const struct uet_frames_opts *o, uint32_t idx, bool syn,
		      int role, struct frame_desc *d)
{
	uint32_t n = message_packets(o);
	uint32_t offset = idx * o->mss_bytes;
	uint32_t left =
		o->message_bytes > offset ? o->message_bytes - offset : 0;
	uint32_t payload = left < o->mss_bytes ? left : o->mss_bytes;
	struct uet_pds_req *rq = &d->pds.u.req;
	struct uet_ses_std *s = &d->ses.u.std;

	d->cls = FC_UET;
	d->trim_role = -1;
	addr_forward(o, role, d);
	d->pds.type = UET_PDS_TYPE_RUD_CC_REQ;
	d->pds.next_hdr = UET_SES_REQUEST_STD;
	d->pds.flags = 0;
	if (o->ack_request)
		d->pds.flags |= UET_PDS_REQ_F_AR;
	rq->psn = o->psn + idx;
	rq->spdcid = o->spdcid;
	/* Every PSN below the first is clear: the offset reaches back to it. */
	rq->clear_psn_offset = (int16_t)(idx > 32767 ? -32767 : -(int)idx);
	if (syn) {
		d->pds.flags |= UET_PDS_REQ_F_SYN;
		rq->syn.psn_offset = (uint16_t)(idx & 0xfff);
	} else {
		rq->dpdcid = o->dpdcid;
	}
	d->has_ses = true;
	d->ses.kind = UET_SES_REQUEST_STD;
	s->opcode = UET_SES_OP_SEND;
	s->flags = 0;
	if (idx == 0)
		s->flags |= UET_SES_F_SOM;
	if (idx + 1 >= n)
		s->flags |= UET_SES_F_EOM;
	s->message_id = EX_MESSAGE_ID;
	s->job_id = EX_JOB_ID;
	s->initiator = o->src_ip & 0xffff;
	s->request_length = o->message_bytes;
	if (idx != 0) {
		s->payload_length = (uint16_t)payload;
		s->message_offset = offset;
	}
	d->payload_bytes = payload;
	d->message_offset = offset;
}

static void desc_ack(const struct uet_frames_opts *o, bool probe,
		     struct frame_desc *d)
{
	struct uet_pds_ack *a = &d->pds.u.ack;

	d->cls = FC_UET;
	d->trim_role = -1;
	addr_reverse(o, d);
	d->pds.type = UET_PDS_TYPE_ACK_CC;
	d->pds.next_hdr = UET_SES_NONE;
	a->spdcid = o->dpdcid;
	a->dpdcid = o->spdcid;
	a->cc_type = UET_PDS_CC_TYPE_NSCC;
	a->mpr = 1;
	if (probe) {
		/* The answer to a base-RTT probe: P set, PSN fields unused. */
		d->pds.flags = UET_PDS_ACK_F_P;
		a->probe_opaque = EX_PROBE_OPAQUE;
		a->cack_psn = o->psn + 1;
		return;
	}
	/* PSN 0 and 1 arrived, 2 is missing, 3 and 5 arrived beyond it. */
	a->cack_psn = o->psn + 1;
	a->ack_psn_offset = 4;
	a->sack_psn_offset = 1;
	a->sack_bitmap = (1ull << 2) | (1ull << 4);
	a->cc.nscc.service_time = 0; /* a 66.4 ns hold is 0 steps */
	a->cc.nscc.rcvd_bytes = 4 * o->mss_bytes;
	a->cc.nscc.ooo_count = 2;
}

static void desc_nack(const struct uet_frames_opts *o, uint8_t code,
		      struct frame_desc *d)
{
	struct uet_pds_nack *n = &d->pds.u.nack;

	d->cls = FC_UET;
	d->trim_role = -1;
	addr_reverse(o, d);
	d->pds.type = UET_PDS_TYPE_NACK;
	d->pds.next_hdr = 0;
	d->pds.flags = 0;
	n->nack_code = code;
	n->nack_psn = o->psn + 1;
	n->spdcid = o->dpdcid;
	n->dpdcid = o->spdcid;
	n->payload = o->psn + 2; /* highest PSN received + 1 */
}

static void desc_probe(const struct uet_frames_opts *o, struct frame_desc *d)
{
	struct uet_pds_cp *cp = &d->pds.u.cp;

	d->cls = FC_UET;
	d->trim_role = -1;
	addr_forward(o, UET_DSCP_CONTROL, d);
	d->pds.type = UET_PDS_TYPE_CP;
	d->pds.next_hdr = UET_CP_PROBE;
	d->pds.flags = 0;
	cp->probe_opaque = EX_PROBE_OPAQUE;
	cp->psn = o->psn + message_packets(o);
	cp->spdcid = o->spdcid;
	cp->dpdcid = o->dpdcid;
	cp->payload = o->psn; /* SACK bitmap base PSN */
}

static void desc_pfc(const struct uet_frames_opts *o, uint16_t quanta,
		     struct frame_desc *d)
{
	d->cls = FC_PFC;
	memcpy(d->pfc.src, o->src_mac, UET_ETH_ADDR_LEN);
	d->pfc.class_enable = 0x01; /* the data class, TC0 */
	d->pfc.quanta[0] = quanta;
}

static void desc_ls(const struct uet_frames_opts *o, uint8_t type,
		    struct frame_desc *d)
{
	struct uet_ls_ctrl *c = &d->ls;
	static const char text[] = "uet-frames: example abort";

	d->cls = FC_LOCKSTEP;
	c->type = type;
	c->nic_id = 1;
	c->seq = type;
	if (type != UET_LS_HELLO) {
		c->run_id = EX_RUN_ID;
		c->nonce = EX_NONCE;
	}
	switch (type) {
	case UET_LS_HELLO:
		c->u.hello.scenario_hash = EX_SCENARIO_HASH;
		c->u.hello.ipv4 = o->src_ip;
		memcpy(c->u.hello.mac, o->src_mac, UET_ETH_ADDR_LEN);
		break;
	case UET_LS_WELCOME:
		c->u.welcome.scenario_hash = EX_SCENARIO_HASH;
		c->u.welcome.lookahead_ps = 500 * UET_PS_PER_NS;
		c->u.welcome.start_ps = 0;
		break;
	case UET_LS_GRANT:
		c->u.grant.window_start_ps = 1000 * UET_PS_PER_NS;
		c->u.grant.window_end_ps = 1500 * UET_PS_PER_NS;
		c->u.grant.data_frames = 3;
		break;
	case UET_LS_DONE:
		c->u.done.window_end_ps = 1500 * UET_PS_PER_NS;
		c->u.done.next_event_ps = 1584040;
		c->u.done.data_frames = 2;
		break;
	case UET_LS_BYE:
		c->u.bye.end_ps = 10 * UET_PS_PER_MS;
		break;
	case UET_LS_ABORT:
		c->u.abort.code = UET_LS_ABORT_PEER_TIMEOUT;
		c->u.abort.text_len = sizeof(text) - 1;
		memcpy(c->u.abort.text, text, sizeof(text) - 1);
		break;
	}
}

enum kind {
	K_DATA_FIRST,
	K_DATA_MIDDLE,
	K_DATA_LAST,
	K_DATA_ZERO,
	K_DATA_RETRANSMIT,
	K_DATA_ECN_CE,
	K_DATA_LOCKSTEP,
	K_TRIMMED,
	K_TRIMMED_LASTHOP,
	K_ACK,
	K_ACK_PROBE,
	K_NACK_TRIMMED,
	K_NACK_TRIMMED_LASTHOP,
	K_PROBE,
	K_PFC_PAUSE,
	K_PFC_RESUME,
	K_LS_HELLO,
	K_LS_WELCOME,
	K_LS_GRANT,
	K_LS_DONE,
	K_LS_BYE,
	K_LS_ABORT,
	K_COUNT
};

static const struct {
	const char *name;
	const char *doc;
} kinds[K_COUNT] = {
	[K_DATA_FIRST] = {"data-first",
			  "NIC: a message's first packet, SYN "
			  "overlay (no receiver PDC id yet), SES SOM"},
	[K_DATA_MIDDLE] = {"data-middle",
			   "NIC: a full middle packet, "
			   "SES SOM=0 (payload_length + message_offset)"},
	[K_DATA_LAST] = {"data-last", "NIC: the last packet, EOM"},
	[K_DATA_ZERO] = {"data-zero",
			 "NIC: the one packet of a 0-byte message"},
	[K_DATA_RETRANSMIT] = {"data-retransmit",
			       "NIC: a retransmission, "
			       "RETX flag, trimmable-retransmission codepoint"},
	[K_DATA_ECN_CE] = {"data-ecn-ce", "switch: a data packet marked "
					  "congestion experienced"},
	[K_DATA_LOCKSTEP] = {"data-lockstep",
			     "NIC: a data packet with the "
			     "lockstep trailer (virtual arrival time)"},
	[K_TRIMMED] = {"trimmed", "switch: a packet trimmed to its IPv4, UDP "
				  "and PDS headers (44 bytes at IP)"},
	[K_TRIMMED_LASTHOP] = {"trimmed-lasthop", "switch: trimmed on a port "
						  "that faces a NIC"},
	[K_ACK] = {"ack", "NIC: ACK_CC with a SACK bitmap and NSCC state"},
	[K_ACK_PROBE] = {"ack-probe", "NIC: the ACK of a base-RTT probe (P)"},
	[K_NACK_TRIMMED] = {"nack-trimmed", "NIC: NACK UET_TRIMMED"},
	[K_NACK_TRIMMED_LASTHOP] = {"nack-trimmed-lasthop",
				    "NIC: NACK UET_TRIMMED_LASTHOP"},
	[K_PROBE] = {"probe", "NIC: base-RTT probe, control packet PROBE"},
	[K_PFC_PAUSE] = {"pfc-pause", "switch or NIC: 802.1Qbb pause of TC0"},
	[K_PFC_RESUME] = {"pfc-resume", "switch or NIC: 802.1Qbb resume of "
					"TC0 (quanta 0)"},
	[K_LS_HELLO] = {"ls-hello", "lockstep: a NIC announces itself"},
	[K_LS_WELCOME] = {"ls-welcome", "lockstep: the switch admits a NIC"},
	[K_LS_GRANT] = {"ls-grant", "lockstep: a window [T, T') granted"},
	[K_LS_DONE] = {"ls-done", "lockstep: a NIC finished its window"},
	[K_LS_BYE] = {"ls-bye", "lockstep: the end of a run"},
	[K_LS_ABORT] = {"ls-abort", "lockstep: a run stopped, with a reason"},
};

unsigned int uet_frames_kind_count(void)
{
	return K_COUNT;
}

const char *uet_frames_kind_name(unsigned int kind)
{
	return kind < K_COUNT ? kinds[kind].name : NULL;
}

const char *uet_frames_kind_doc(unsigned int kind)
{
	return kind < K_COUNT ? kinds[kind].doc : NULL;
}

int frames_describe(unsigned int kind, const struct uet_frames_opts *o,
		    struct frame_desc *d)
{
	int first_role = o->trimmable ? UET_DSCP_TRIMMABLE : UET_DSCP_NO_TRIM;
	uint32_t last = message_packets(o) - 1;

	memset(d, 0, sizeof(*d));
	d->trim_role = -1;
	switch (kind) {
	case K_DATA_FIRST:
		desc_data(o, 0, true, first_role, d);
		break;
	case K_DATA_MIDDLE:
		desc_data(o, last > 0 ? 1 : 0, last == 0, first_role, d);
		break;
	case K_DATA_LAST:
		desc_data(o, last, last == 0, first_role, d);
		break;
	case K_DATA_ZERO: {
		struct uet_frames_opts z = *o;

		z.message_bytes = 0;
		z.psn = o->psn + last + 1;
		desc_data(&z, 0, true, first_role, d);
		break;
	}
	case K_DATA_RETRANSMIT:
		desc_data(o, last > 0 ? 1 : 0, last == 0,
			  UET_DSCP_TRIMMABLE_RTX, d);
		d->pds.flags |= UET_PDS_REQ_F_RETX;
		d->addr.entropy = (uint16_t)(o->entropy + 1);
		break;
	case K_DATA_ECN_CE:
		desc_data(o, last > 0 ? 1 : 0, last == 0, first_role, d);
		d->addr.ecn = UET_ECN_CE;
		break;
	case K_DATA_LOCKSTEP:
		desc_data(o, 0, true, first_role, d);
		d->trailer = true;
		break;
	case K_TRIMMED:
	case K_TRIMMED_LASTHOP:
		desc_data(o, last > 0 ? 1 : 0, last == 0,
			  UET_DSCP_TRIMMABLE_RTX, d);
		d->pds.flags |= UET_PDS_REQ_F_RETX;
		d->trim_role = kind == K_TRIMMED ? UET_DSCP_TRIMMED
						 : UET_DSCP_TRIMMED_LASTHOP;
		break;
	case K_ACK:
		desc_ack(o, false, d);
		break;
	case K_ACK_PROBE:
		desc_ack(o, true, d);
		break;
	case K_NACK_TRIMMED:
		desc_nack(o, UET_NACK_TRIMMED, d);
		break;
	case K_NACK_TRIMMED_LASTHOP:
		desc_nack(o, UET_NACK_TRIMMED_LASTHOP, d);
		break;
	case K_PROBE:
		desc_probe(o, d);
		break;
	case K_PFC_PAUSE:
		desc_pfc(o, 0xffff, d);
		break;
	case K_PFC_RESUME:
		desc_pfc(o, 0, d);
		break;
	case K_LS_HELLO:
	case K_LS_WELCOME:
	case K_LS_GRANT:
	case K_LS_DONE:
	case K_LS_BYE:
	case K_LS_ABORT:
		desc_ls(o, (uint8_t)(UET_LS_HELLO + (kind - K_LS_HELLO)), d);
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

/* A payload a receiver can check: byte k of the message is a function of
 * the message id and k. */
static void fill_payload(uint8_t *p, uint32_t bytes, uint32_t message_offset)
{
	for (uint32_t i = 0; i < bytes; i++) {
		uint32_t k = message_offset + i;

		p[i] = (uint8_t)(k * 131u + (k >> 8) + EX_MESSAGE_ID);
	}
}

int uet_frames_build(unsigned int kind, const struct uet_frames_opts *o,
		     uint8_t *buf, size_t cap)
{
	struct frame_desc d;
	int len, rc;

	rc = frames_describe(kind, o, &d);
	if (rc < 0)
		return rc;
	switch (d.cls) {
	case FC_PFC:
		return uet_pfc_build(buf, cap, &d.pfc);
	case FC_LOCKSTEP:
		return uet_ls_ctrl_build(buf, cap, o->dst_mac, o->src_mac,
					 &d.ls);
	case FC_UET:
		break;
	}
	len = uet_frame_build(buf, cap, &d.addr, &d.pds,
			      d.has_ses ? &d.ses : NULL, NULL, d.payload_bytes);
	if (len < 0)
		return len;
	fill_payload(buf + len - d.payload_bytes, d.payload_bytes,
		     d.message_offset);
	if (d.trim_role >= 0)
		len = uet_frame_trim(buf, (size_t)len,
				     o->dscp.codepoint[d.trim_role]);
	if (len >= 0 && d.trailer)
		len = uet_ls_trailer_append(buf, (size_t)len, cap,
					    EX_ARRIVAL_PS);
	return len;
}
