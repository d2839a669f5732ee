/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The expected decoder fields of a catalog frame (uet-frames --expect),
 * printed from the same description the frame is built from
 * (frames_catalog.c), not read back from the frame.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "frames_catalog.h"
#include "frames_desc.h"
#include "uet_ipv4_text.h"

static void put_mac(FILE *f, const char *field,
		    const uint8_t m[UET_ETH_ADDR_LEN])
{
	fprintf(f, "%s = %02x:%02x:%02x:%02x:%02x:%02x\n", field, m[0], m[1],
		m[2], m[3], m[4], m[5]);
}

static void put_ip(FILE *f, const char *field, uint32_t ip)
{
	char text[UET_IPV4_TEXT_BYTES];

	uet_ipv4_format(ip, text);
	fprintf(f, "%s = %s\n", field, text);
}

static void expect_ses_std(const struct uet_ses_std *s, FILE *f)
{
	bool som = (s->flags & UET_SES_F_SOM) != 0;

	fprintf(f, "uet.ses.std.opcode = %u\n", s->opcode);
	fprintf(f, "uet.ses.std.som = %d\n", som);
	fprintf(f, "uet.ses.std.eom = %d\n", (s->flags & UET_SES_F_EOM) != 0);
	fprintf(f, "uet.ses.std.hd = %d\n", (s->flags & UET_SES_F_HD) != 0);
	fprintf(f, "uet.ses.std.message_id = %u\n", s->message_id);
	fprintf(f, "uet.ses.std.job_id = %" PRIu32 "\n", s->job_id);
	fprintf(f, "uet.ses.std.initiator = %" PRIu32 "\n", s->initiator);
	fprintf(f, "uet.ses.std.request_length = %" PRIu32 "\n",
		s->request_length);
	if (som) {
		fprintf(f, "uet.ses.std.payload_length = <absent>\n");
	} else {
		fprintf(f, "uet.ses.std.payload_length = %u\n",
			s->payload_length);
		fprintf(f, "uet.ses.std.message_offset = %" PRIu32 "\n",
			s->message_offset);
	}
}

static bool dscp_map_is_default(const struct uet_dscp_map *m)
{
	struct uet_dscp_map def;

	uet_dscp_map_default(&def);
	return memcmp(m, &def, sizeof(def)) == 0;
}

static void expect_uet(const struct uet_frames_opts *o,
		       const struct frame_desc *d, FILE *f)
{
	const struct uet_pds_hdr *p = &d->pds;
	bool trimmed = d->trim_role >= 0;
	uint32_t ip_len;
	int role = trimmed ? d->trim_role : d->role;

	ip_len = UET_IPV4_HDR_BYTES + UET_UDP_HDR_BYTES +
		 (uint32_t)uet_pds_hdr_bytes(p->type);
	if (d->has_ses && !trimmed)
		ip_len += UET_SES_STD_BYTES + d->payload_bytes;

	put_mac(f, "eth.src", d->addr.src_mac);
	put_mac(f, "eth.dst", d->addr.dst_mac);
	fprintf(f, "eth.type = 0x0800\n");
	put_ip(f, "ip.src", d->addr.src_ip);
	put_ip(f, "ip.dst", d->addr.dst_ip);
	fprintf(f, "ip.len = %" PRIu32 "\n", ip_len);
	fprintf(f, "ip.dsfield.dscp = %u\n", o->dscp.codepoint[role]);
	fprintf(f, "ip.dsfield.ecn = %u\n", d->addr.ecn);
	fprintf(f, "ip.ttl = 255\n");
	fprintf(f, "ip.flags.df = 1\n");
	fprintf(f, "udp.srcport = %u\n", d->addr.entropy);
	fprintf(f, "udp.dstport = %u\n", d->addr.udp_dport);
	fprintf(f, "udp.length = %" PRIu32 "\n", ip_len - UET_IPV4_HDR_BYTES);
	fprintf(f, "udp.checksum = 0x0000\n");
	/* The dissector names roles by its preferences, which default to the
	 * project's default codepoints; with others the role is not checked. */
	if (dscp_map_is_default(&o->dscp))
		fprintf(f, "uet.role = %s\n", uet_dscp_role_name(role));
	fprintf(f, "uet.pds.type = %u\n", p->type);
	fprintf(f, "uet.pds.trimmed = %s\n", trimmed ? "1" : "<absent>");
	if (d->trailer)
		fprintf(f, "uetlock.trailer.arrival_ps = %llu\n",
			(unsigned long long)EX_ARRIVAL_PS);
	else
		fprintf(f, "uetlock.trailer.magic = <absent>\n");

	switch (p->type) {
	case UET_PDS_TYPE_RUD_CC_REQ: {
		const struct uet_pds_req *r = &p->u.req;
		bool syn = (p->flags & UET_PDS_REQ_F_SYN) != 0;

		fprintf(f, "uet.pds.nh = %u\n", p->next_hdr);
		fprintf(f, "uet.pds.flags.retx = %d\n",
			(p->flags & UET_PDS_REQ_F_RETX) != 0);
		fprintf(f, "uet.pds.flags.ar = %d\n",
			(p->flags & UET_PDS_REQ_F_AR) != 0);
		fprintf(f, "uet.pds.flags.syn = %d\n", syn);
		fprintf(f, "uet.pds.psn = %" PRIu32 "\n", r->psn);
		fprintf(f, "uet.pds.clear_psn_offset = %d\n",
			r->clear_psn_offset);
		fprintf(f, "uet.pds.spdcid = %u\n", r->spdcid);
		if (syn) {
			fprintf(f, "uet.pds.dpdcid = <absent>\n");
			fprintf(f, "uet.pds.psn_offset = %u\n",
				r->syn.psn_offset);
			fprintf(f, "uet.pds.use_rsv_pdc = 0\n");
		} else {
			fprintf(f, "uet.pds.dpdcid = %u\n", r->dpdcid);
			fprintf(f, "uet.pds.psn_offset = <absent>\n");
		}
		fprintf(f, "uet.pds.ccc_id = 0\n");
		if (trimmed)
			fprintf(f, "uet.ses.std.opcode = <absent>\n");
		else
			expect_ses_std(&d->ses.u.std, f);
		break;
	}
	case UET_PDS_TYPE_ACK_CC: {
		const struct uet_pds_ack *a = &p->u.ack;
		bool probe = (p->flags & UET_PDS_ACK_F_P) != 0;

		fprintf(f, "uet.pds.flags.p = %d\n", probe);
		fprintf(f, "uet.pds.cack_psn = %" PRIu32 "\n", a->cack_psn);
		fprintf(f, "uet.pds.spdcid = %u\n", a->spdcid);
		fprintf(f, "uet.pds.dpdcid = %u\n", a->dpdcid);
		fprintf(f, "uet.pds.cc_type = %u\n", a->cc_type);
		fprintf(f, "uet.pds.mpr = %u\n", a->mpr);
		if (probe) {
			fprintf(f, "uet.pds.probe_opaque = %u\n",
				a->probe_opaque);
		} else {
			fprintf(f, "uet.pds.ack_psn_offset = %d\n",
				a->ack_psn_offset);
			fprintf(f, "uet.pds.sack_psn_offset = %d\n",
				a->sack_psn_offset);
			fprintf(f, "uet.pds.sack_bitmap = 0x%016" PRIx64 "\n",
				a->sack_bitmap);
		}
		fprintf(f, "uet.pds.service_time = %u\n",
			a->cc.nscc.service_time);
		fprintf(f, "uet.pds.rcvd_bytes = %" PRIu32 "\n",
			a->cc.nscc.rcvd_bytes);
		fprintf(f, "uet.pds.ooo_count = %u\n", a->cc.nscc.ooo_count);
		break;
	}
	case UET_PDS_TYPE_NACK: {
		const struct uet_pds_nack *n = &p->u.nack;

		fprintf(f, "uet.pds.nack.code = %u\n", n->nack_code);
		fprintf(f, "uet.pds.nack.psn = %" PRIu32 "\n", n->nack_psn);
		fprintf(f, "uet.pds.spdcid = %u\n", n->spdcid);
		fprintf(f, "uet.pds.dpdcid = %u\n", n->dpdcid);
		fprintf(f, "uet.pds.nack.payload = %" PRIu32 "\n", n->payload);
		break;
	}
	case UET_PDS_TYPE_CP: {
		const struct uet_pds_cp *c = &p->u.cp;

		fprintf(f, "uet.pds.ctl_type = %u\n", p->next_hdr);
		fprintf(f, "uet.pds.probe_opaque = %u\n", c->probe_opaque);
		fprintf(f, "uet.pds.psn = %" PRIu32 "\n", c->psn);
		fprintf(f, "uet.pds.spdcid = %u\n", c->spdcid);
		fprintf(f, "uet.pds.dpdcid = %u\n", c->dpdcid);
		fprintf(f, "uet.pds.payload = %" PRIu32 "\n", c->payload);
		break;
	}
	default:
		break;
	}
}

static void expect_ls(const struct uet_frames_opts *o,
		      const struct uet_ls_ctrl *c, FILE *f)
{
	put_mac(f, "eth.src", o->src_mac);
	fprintf(f, "eth.type = 0x88b5\n");
	fprintf(f, "uetlock.magic = UECT\n");
	fprintf(f, "uetlock.version = 1\n");
	fprintf(f, "uetlock.type = %u\n", c->type);
	fprintf(f, "uetlock.nic_id = %u\n", c->nic_id);
	fprintf(f, "uetlock.run_id = 0x%016" PRIx64 "\n", c->run_id);
	fprintf(f, "uetlock.nonce = 0x%016" PRIx64 "\n", c->nonce);
	fprintf(f, "uetlock.seq = %" PRIu32 "\n", c->seq);
	switch (c->type) {
	case UET_LS_HELLO:
		fprintf(f, "uetlock.scenario_hash = 0x%016" PRIx64 "\n",
			c->u.hello.scenario_hash);
		put_ip(f, "uetlock.ipv4", c->u.hello.ipv4);
		put_mac(f, "uetlock.mac", c->u.hello.mac);
		break;
	case UET_LS_WELCOME:
		fprintf(f, "uetlock.scenario_hash = 0x%016" PRIx64 "\n",
			c->u.welcome.scenario_hash);
		fprintf(f, "uetlock.lookahead_ps = %" PRIu64 "\n",
			c->u.welcome.lookahead_ps);
		fprintf(f, "uetlock.start_ps = %" PRIu64 "\n",
			c->u.welcome.start_ps);
		break;
	case UET_LS_GRANT:
		fprintf(f, "uetlock.window_start = %" PRIu64 "\n",
			c->u.grant.window_start_ps);
		fprintf(f, "uetlock.window_end = %" PRIu64 "\n",
			c->u.grant.window_end_ps);
		fprintf(f, "uetlock.data_frames = %" PRIu32 "\n",
			c->u.grant.data_frames);
		break;
	case UET_LS_DONE:
		fprintf(f, "uetlock.window_end = %" PRIu64 "\n",
			c->u.done.window_end_ps);
		fprintf(f, "uetlock.next_event = %" PRIu64 "\n",
			c->u.done.next_event_ps);
		fprintf(f, "uetlock.data_frames = %" PRIu32 "\n",
			c->u.done.data_frames);
		break;
	case UET_LS_BYE:
		fprintf(f, "uetlock.end_ps = %" PRIu64 "\n", c->u.bye.end_ps);
		break;
	case UET_LS_ABORT:
		fprintf(f, "uetlock.abort.code = %" PRIu32 "\n",
			c->u.abort.code);
		fprintf(f, "uetlock.abort.text = %.*s\n",
			(int)c->u.abort.text_len, c->u.abort.text);
		break;
	}
}

static void expect_pfc(const struct uet_pfc *p, FILE *f)
{
	fprintf(f, "eth.dst = 01:80:c2:00:00:01\n");
	fprintf(f, "eth.type = 0x8808\n");
	fprintf(f, "macc.opcode = 0x0101\n");
	fprintf(f, "macc.cbfc.enbv = 0x%04x\n", p->class_enable);
	for (int c = 0; c < UET_PFC_CLASSES; c++)
		fprintf(f, "macc.cbfc.pause_time.c%d = %u\n", c, p->quanta[c]);
	fprintf(f, "uet.pds.type = <absent>\n");
}

int uet_frames_expect(unsigned int kind, const struct uet_frames_opts *o,
		      FILE *f)
{
	struct frame_desc d;
	int rc;

	rc = frames_describe(kind, o, &d);
	if (rc < 0)
		return rc;
	switch (d.cls) {
	case FC_UET:
		expect_uet(o, &d, f);
		break;
	case FC_PFC:
		expect_pfc(&d.pfc, f);
		break;
	case FC_LOCKSTEP:
		expect_ls(o, &d.ls, f);
		break;
	}
	return 0;
}
