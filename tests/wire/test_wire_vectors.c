/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The XDP2 golden frames (tests/data/vectors/xdp2), read with libpcap and
 * checked field by field against the README's tables, minding its caveats:
 * ACK_CCX (pds frame 12) bytes 0-31 only, NACK_CCX (14) bytes 0-23 only,
 * CP frames read as 16-byte CPs, NACKs carry nh 4, UDP checksums non-zero.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_wire.h"
#include "wire_test_pcap.h"
#include "wire_test_util.h"

static struct pcap_frames pds_pcap, ses_pcap;

static void load(void)
{
	pcap_frames_load(&pds_pcap, "uet_pds.pcap");
	pcap_frames_load(&ses_pcap, "uet_ses.pcap");
}

/* The README's common framing; returns the parsed frame. */
static void check_common(const uint8_t *buf, size_t len, bool pds_file,
			 struct uet_frame *f, int want_rc)
{
	static const uint8_t src[6] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55};
	static const uint8_t dst[6] = {0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
	enum uet_wire_reason why;

	ck_assert_int_eq(uet_frame_parse(buf, len, f, &why), want_rc);
	ck_assert_int_eq(memcmp(f->eth.src, src, 6), 0);
	ck_assert_int_eq(memcmp(f->eth.dst, dst, 6), 0);
	ck_assert_uint_eq(f->eth.ethertype, UET_ETHERTYPE_IPV4);
	ck_assert(f->has_ipv4);
	ck_assert_uint_eq(f->ip.ihl, 5);
	ck_assert_uint_eq(f->ip.dscp, 0);
	ck_assert_uint_eq(f->ip.ecn, 0);
	ck_assert_uint_eq(f->ip.id, 1);
	ck_assert(!f->ip.df);
	ck_assert_uint_eq(f->ip.ttl, 64);
	ck_assert_uint_eq(f->ip.protocol, 17);
	ck_assert_uint_eq(f->ip.total_length_bytes, len - 14);
	ck_assert_uint_eq(f->ip.src, pds_file ? 0xc0a80102 : 0xc0a80101);
	ck_assert_uint_eq(f->ip.dst, 0xc0a80102);
	ck_assert(f->has_udp);
	ck_assert_uint_eq(f->udp.sport, pds_file ? 35433 : 8675);
	ck_assert_uint_eq(f->udp.dport, 4793);
	ck_assert_uint_ne(f->udp.checksum, 0);
	ck_assert_uint_eq(f->udp.length_bytes, len - 34);
	ck_assert(!f->has_trailer);
	if (want_rc == 0) {
		ck_assert_int_eq(why, UET_WIRE_OK);
		ck_assert_uint_eq(f->kind, UET_FRAME_UET);
		ck_assert_uint_eq(f->pds_offset, 42);
		ck_assert(!f->trimmed);
	}
}

/* Re-encoding the parsed PDS header gives the vector's bytes back. */
static void check_pds_reencodes(const uint8_t *buf, const struct uet_pds_hdr *h)
{
	uint8_t out[UET_PDS_MAX_BYTES];

	ck_assert_int_eq(uet_pds_build(out, sizeof(out), h), h->hdr_bytes);
	ck_assert_int_eq(memcmp(out, buf + 42, h->hdr_bytes), 0);
}

static void check_ses_a(const struct uet_frame *f, unsigned int opcode)
{
	const struct uet_ses_std *s = &f->ses.u.std;

	ck_assert(f->has_ses);
	ck_assert_uint_eq(f->ses.kind, UET_SES_REQUEST_STD);
	ck_assert_uint_eq(s->opcode, opcode);
	ck_assert_uint_eq(s->flags, UET_SES_F_DC | UET_SES_F_REL |
					    UET_SES_F_EOM | UET_SES_F_SOM);
	ck_assert_uint_eq(s->message_id, 0x1234);
	ck_assert_uint_eq(s->ri_generation, 0x77);
	ck_assert_uint_eq(s->job_id, 0xabcdef);
	ck_assert_uint_eq(s->pid_on_fep, 0x678);
	ck_assert_uint_eq(s->resource_index, 0x9ab);
	ck_assert_uint_eq(s->buffer_offset, 0xfedcba9876543210ull);
	ck_assert_uint_eq(s->initiator, 0xfedcba98);
	ck_assert_uint_eq(s->memory_key, 0x1122334455667788ull);
	ck_assert_uint_eq(s->header_data, 0xaabbddddeeff0011ull);
	ck_assert_uint_eq(s->request_length, 0x99887766);
	ck_assert_uint_eq(f->payload_bytes, 0);
}

static void check_ses_r(const struct uet_frame *f)
{
	const struct uet_ses_rsp *r = &f->ses.u.rsp;

	ck_assert(f->has_ses);
	ck_assert_uint_eq(f->ses.kind, UET_SES_RESPONSE);
	ck_assert_uint_eq(r->list, 3);
	ck_assert_uint_eq(r->opcode, UET_SES_RSP_RESPONSE);
	ck_assert_uint_eq(r->return_code, 0x09);
	ck_assert_str_eq(uet_ses_return_code_name(r->return_code), "AT_PERM");
	ck_assert_uint_eq(r->message_id, 0x1234);
	ck_assert_uint_eq(r->ri_generation, 0x99);
	ck_assert_uint_eq(r->job_id, 0x654321);
	ck_assert_uint_eq(r->modified_length, 0x09abcdef);
	ck_assert_uint_eq(f->payload_bytes, 0);
}

START_TEST(test_vectors_pds_file_has_19_frames_of_listed_lengths)
{
	static const size_t want[19] = {98,  98, 102, 102, 98, 98, 102,
					102, 66, 86,  86,  86, 70, 78,
					66,  66, 90,  94,  62};
	int i;

	load();
	ck_assert_int_eq(pds_pcap.n, 19);
	for (i = 0; i < 19; i++)
		ck_assert_uint_eq(pds_pcap.len[i], want[i]);
	ck_assert_int_eq(ses_pcap.n, 17);
}
END_TEST

/* Frames 1-8: RUD/ROD requests, plain and _CC, with and without SYN. */
START_TEST(test_vectors_pds_requests)
{
	static const uint8_t type[8] = {2, 2, 13, 13, 3, 3, 14, 14};
	int i;

	load();
	for (i = 0; i < 8; i++) {
		struct uet_frame f;
		const struct uet_pds_req *r = &f.pds.u.req;
		bool syn = (i & 1) != 0;
		bool cc = type[i] >= 13;

		check_common(pds_pcap.data[i], pds_pcap.len[i], true, &f, 0);
		ck_assert_uint_eq(f.pds.type, type[i]);
		ck_assert_uint_eq(f.pds.hdr_bytes, cc ? 16 : 12);
		ck_assert_uint_eq(f.pds.next_hdr, 3);
		ck_assert_uint_eq(f.pds.flags, syn ? 0x14 : 0x10);
		ck_assert_int_eq(r->clear_psn_offset, 0x1234);
		ck_assert_uint_eq(r->psn, 0x98765432);
		ck_assert_uint_eq(r->spdcid, 0x3456);
		if (syn) {
			ck_assert_uint_eq(r->dpdcid, 0);
			ck_assert(r->syn.use_rsv_pdc);
			ck_assert_uint_eq(r->syn.pdc_info, 0x8);
			ck_assert_uint_eq(r->syn.psn_offset, 0x876);
			/* Start_PSN = PSN - psn_offset */
			ck_assert_uint_eq(r->psn - r->syn.psn_offset,
					  0x98764bbc);
		} else {
			ck_assert_uint_eq(r->dpdcid, 0x9abc);
		}
		ck_assert_uint_eq(r->ccc_id, cc ? 0x77 : 0);
		ck_assert_uint_eq(r->credit_target, cc ? 0x887766 : 0);
		ck_assert_uint_eq(f.ses_offset, 42u + (cc ? 16 : 12));
		check_ses_a(&f, UET_SES_OP_READ);
		check_pds_reencodes(pds_pcap.data[i], &f.pds);
	}
}
END_TEST

START_TEST(test_vectors_pds_acks)
{
	struct uet_frame f;
	const struct uet_pds_ack *a = &f.pds.u.ack;
	struct uet_pds_hdr h;
	enum uet_wire_reason why;
	unsigned int i;

	load();
	/* 9: ACK */
	check_common(pds_pcap.data[8], pds_pcap.len[8], true, &f, 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_ACK);
	ck_assert_uint_eq(f.pds.next_hdr, 4);
	ck_assert_uint_eq(f.pds.flags, 0x32);
	ck_assert_uint_eq(a->req, UET_PDS_ACK_REQ_CLEAR);
	ck_assert_int_eq(a->ack_psn_offset, -31166);
	ck_assert_uint_eq(a->cack_psn, 0x2468ace0);
	ck_assert_uint_eq((uint32_t)(a->cack_psn + a->ack_psn_offset),
			  0x24683322);
	ck_assert_uint_eq(a->spdcid, 0x3456);
	ck_assert_uint_eq(a->dpdcid, 0x789a);
	check_ses_r(&f);
	check_pds_reencodes(pds_pcap.data[8], &f.pds);

	/* 10: ACK_CC, NSCC */
	check_common(pds_pcap.data[9], pds_pcap.len[9], true, &f, 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_ACK_CC);
	ck_assert_uint_eq(f.pds.flags, 0x32);
	ck_assert_int_eq(a->ack_psn_offset, 8481);
	ck_assert_uint_eq(a->cack_psn, 0x2468ace0);
	ck_assert_uint_eq(a->spdcid, 0x3456);
	ck_assert_uint_eq(a->dpdcid, 0x789a);
	ck_assert_uint_eq(a->cc_type, UET_PDS_CC_TYPE_NSCC);
	ck_assert_uint_eq(a->cc_flags, 0xf);
	ck_assert_uint_eq(a->mpr, 0x87);
	ck_assert_int_eq(a->sack_psn_offset, 26505);
	ck_assert_uint_eq(a->sack_bitmap, 0x123456789abcdef0ull);
	ck_assert_uint_eq(a->cc.nscc.service_time, 0x99aa);
	ck_assert(a->cc.nscc.restore_cwnd);
	ck_assert_uint_eq(a->cc.nscc.rcv_cwnd_pend, 0x7f);
	ck_assert_uint_eq(a->cc.nscc.rcvd_bytes, 0x887766);
	ck_assert_uint_eq(a->cc.nscc.ooo_count, 0x8765);
	check_ses_r(&f);
	check_pds_reencodes(pds_pcap.data[9], &f.pds);

	/* 11: ACK_CC, Credit */
	check_common(pds_pcap.data[10], pds_pcap.len[10], true, &f, 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_ACK_CC);
	ck_assert_int_eq(a->ack_psn_offset, -26506);
	ck_assert_uint_eq(a->cc_type, UET_PDS_CC_TYPE_CREDIT);
	ck_assert_uint_eq(a->cc_flags, 0xf);
	ck_assert_uint_eq(a->mpr, 0x87);
	ck_assert_int_eq(a->sack_psn_offset, -26232);
	ck_assert_uint_eq(a->sack_bitmap, 0x123456789abcdef0ull);
	ck_assert_uint_eq(a->cc.credit.credit, 0x123456);
	ck_assert_uint_eq(a->cc.credit.rsvd, 0);
	ck_assert_uint_eq(a->cc.credit.ooo_count, 0x8765);
	check_ses_r(&f);
	check_pds_reencodes(pds_pcap.data[10], &f.pds);

	/* 12: ACK_CCX is 32 B in XDP2, 40 B here: the 40-byte header takes
	 * 8 SES bytes and leaves 4, so the whole frame is a truncated SES
	 * header. Bytes 0-31 are checked through the PDS parser. */
	check_common(pds_pcap.data[11], pds_pcap.len[11], true, &f, -EBADMSG);
	ck_assert_int_eq(
		uet_frame_parse(pds_pcap.data[11], pds_pcap.len[11], &f, &why),
		-EBADMSG);
	ck_assert_int_eq(why, UET_WIRE_SES_TRUNC);
	ck_assert_int_eq(uet_pds_parse(pds_pcap.data[11] + 42, 44, &h, &why),
			 40);
	ck_assert_uint_eq(h.type, UET_PDS_TYPE_ACK_CCX);
	ck_assert_uint_eq(h.next_hdr, 4);
	ck_assert_uint_eq(h.flags, 0x32);
	ck_assert_int_eq(h.u.ack.ack_psn_offset, -26506);
	ck_assert_uint_eq(h.u.ack.cack_psn, 0x2468ace0);
	ck_assert_uint_eq(h.u.ack.spdcid, 0x3456);
	ck_assert_uint_eq(h.u.ack.dpdcid, 0x789a);
	ck_assert_uint_eq(h.u.ack.cc_type, 0xe);
	ck_assert_uint_eq(h.u.ack.cc_flags, 0);
	ck_assert_uint_eq(h.u.ack.mpr, 0x87);
	ck_assert_int_eq(h.u.ack.sack_psn_offset, -26232);
	ck_assert_uint_eq(h.u.ack.sack_bitmap, 0x123456789abcdef0ull);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(h.u.ack.cc_state[i], 0x11 * (i + 1));
}
END_TEST

START_TEST(test_vectors_pds_nacks_and_cps)
{
	struct uet_frame f;
	const struct uet_pds_nack *n = &f.pds.u.nack;
	const struct uet_pds_cp *c = &f.pds.u.cp;
	static const uint8_t state[8] = {0x3f, 0xdc, 0xba, 0x98,
					 0x76, 0x54, 0x32, 0x10};

	load();
	/* 13: NACK, nh 4 ignored, M|RETX|NT */
	check_common(pds_pcap.data[12], pds_pcap.len[12], true, &f, 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_NACK);
	ck_assert_uint_eq(f.pds.next_hdr, 4);
	ck_assert_uint_eq(f.pds.flags, UET_PDS_NACK_F_M | UET_PDS_NACK_F_RETX |
					       UET_PDS_NACK_F_NT);
	ck_assert_uint_eq(n->nack_code, UET_NACK_PDC_MODE_MISMATCH);
	ck_assert_str_eq(uet_nack_code_name(n->nack_code), "PDC_MODE_MISMATCH");
	ck_assert_uint_eq(n->vendor_code, 0x87);
	ck_assert_uint_eq(n->nack_psn, 0x99887766);
	ck_assert_uint_eq(n->spdcid, 0x3456);
	ck_assert_uint_eq(n->dpdcid, 0x789a);
	ck_assert_uint_eq(n->payload, 0x56789abc);
	ck_assert(!f.has_ses);
	ck_assert_uint_eq(f.payload_offset, 58);
	ck_assert_uint_eq(f.payload_bytes, 12);
	check_pds_reencodes(pds_pcap.data[12], &f.pds);

	/* 14: NACK_CCX, bytes 0-23 only (the 32-byte header reads 8 SES
	 * bytes as state2). */
	check_common(pds_pcap.data[13], pds_pcap.len[13], true, &f, 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_NACK_CCX);
	ck_assert_uint_eq(f.pds.hdr_bytes, 32);
	ck_assert_uint_eq(f.pds.flags, UET_PDS_NACK_F_RETX);
	ck_assert_uint_eq(n->nack_code, UET_NACK_INVALID_SYN);
	ck_assert_str_eq(uet_nack_code_name(n->nack_code), "INVALID_SYN");
	ck_assert_uint_eq(n->vendor_code, 0x87);
	ck_assert_uint_eq(n->nack_psn, 0x99887766);
	ck_assert_uint_eq(n->spdcid, 0x3456);
	ck_assert_uint_eq(n->dpdcid, 0x789a);
	ck_assert_uint_eq(n->payload, 0x56789abc);
	ck_assert_uint_eq(n->nccx_type, 3);
	ck_assert_int_eq(memcmp(n->ccx_state, state, 8), 0);
	ck_assert_uint_eq(f.payload_bytes, 4);

	/* 15: CP CREDIT_REQ, ISROD|RETX; payload = first SES-R word */
	check_common(pds_pcap.data[14], pds_pcap.len[14], true, &f, 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_CP);
	ck_assert_uint_eq(f.pds.next_hdr, UET_CP_CREDIT_REQ);
	ck_assert_str_eq(uet_cp_ctl_type_name(f.pds.next_hdr), "CREDIT_REQ");
	ck_assert_uint_eq(f.pds.flags, UET_PDS_CP_F_ISROD | UET_PDS_CP_F_RETX);
	ck_assert_uint_eq(c->probe_opaque, 0x9876);
	ck_assert_uint_eq(c->psn, 0xcdef0123);
	ck_assert_uint_eq(c->spdcid, 0xcdef);
	ck_assert_uint_eq(c->dpdcid, 0xfedc);
	ck_assert_uint_eq(c->payload, 0xc1091234);
	ck_assert(!f.has_ses);
	ck_assert_uint_eq(f.payload_bytes, 8);
	check_pds_reencodes(pds_pcap.data[14], &f.pds);

	/* 16: CP NEGOTIATION with SYN */
	check_common(pds_pcap.data[15], pds_pcap.len[15], true, &f, 0);
	ck_assert_uint_eq(f.pds.next_hdr, UET_CP_NEGOTIATION);
	ck_assert_str_eq(uet_cp_ctl_type_name(f.pds.next_hdr), "NEGOTIATION");
	ck_assert_uint_eq(f.pds.flags, UET_PDS_CP_F_RETX | UET_PDS_CP_F_SYN);
	ck_assert_uint_eq(c->probe_opaque, 0x1234);
	ck_assert_uint_eq(c->psn, 0xcdef0123);
	ck_assert_uint_eq(c->spdcid, 0xcdef);
	ck_assert_uint_eq(c->dpdcid, 0);
	ck_assert(c->syn.use_rsv_pdc);
	ck_assert_uint_eq(c->syn.psn_offset, 0x876);
	ck_assert_uint_eq(c->payload, 0xc1091234);
	check_pds_reencodes(pds_pcap.data[15], &f.pds);
}
END_TEST

START_TEST(test_vectors_pds_uud_and_rudi)
{
	struct uet_frame f;

	load();
	/* 17: UUD_REQ, SES-A */
	check_common(pds_pcap.data[16], pds_pcap.len[16], true, &f, 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_UUD_REQ);
	ck_assert_uint_eq(f.pds.hdr_bytes, 4);
	ck_assert_uint_eq(f.pds.next_hdr, 3);
	ck_assert_uint_eq(f.pds.flags, 0);
	check_ses_a(&f, UET_SES_OP_READ);
	check_pds_reencodes(pds_pcap.data[16], &f.pds);

	/* 18: RUDI_REQ with M set */
	check_common(pds_pcap.data[17], pds_pcap.len[17], true, &f, 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_RUDI_REQ);
	ck_assert_uint_eq(f.pds.hdr_bytes, 8);
	ck_assert_uint_eq(f.pds.flags, UET_PDS_RUDI_F_M);
	ck_assert_uint_eq(f.pds.u.rudi.pkt_id, 0x99887766);
	check_ses_a(&f, UET_SES_OP_READ);
	check_pds_reencodes(pds_pcap.data[17], &f.pds);

	/* 19: RUDI_RESP, SES-R */
	check_common(pds_pcap.data[18], pds_pcap.len[18], true, &f, 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_RUDI_RESP);
	ck_assert_uint_eq(f.pds.next_hdr, 4);
	ck_assert_uint_eq(f.pds.flags, UET_PDS_RUDI_F_M);
	ck_assert_uint_eq(f.pds.u.rudi.pkt_id, 0x99887766);
	check_ses_r(&f);
	check_pds_reencodes(pds_pcap.data[18], &f.pds);
}
END_TEST

/* The rest of a standard request, as in SES-A (bytes 2-31, 40-43). */
static void check_std_common(const struct uet_ses_std *s)
{
	ck_assert_uint_eq(s->message_id, 0x1234);
	ck_assert_uint_eq(s->ri_generation, 0x77);
	ck_assert_uint_eq(s->job_id, 0xabcdef);
	ck_assert_uint_eq(s->pid_on_fep, 0x678);
	ck_assert_uint_eq(s->resource_index, 0x9ab);
	ck_assert_uint_eq(s->initiator, 0xfedcba98);
	ck_assert_uint_eq(s->request_length, 0x99887766);
}

static void check_p(const struct uet_frame *f, unsigned int nh)
{
	ck_assert_uint_eq(f->pds.type, UET_PDS_TYPE_RUD_REQ);
	ck_assert_uint_eq(f->pds.next_hdr, nh);
	ck_assert_uint_eq(f->pds.flags, UET_PDS_REQ_F_RETX);
	ck_assert_uint_eq(f->pds.u.req.psn, 0x98765432);
	ck_assert_uint_eq(f->pds.u.req.spdcid, 0x3456);
	ck_assert_uint_eq(f->pds.u.req.dpdcid, 0x9abc);
	ck_assert_uint_eq(f->ses_offset, 54);
}

START_TEST(test_vectors_ses_standard_requests)
{
	static const uint8_t atomic_ext[4] = {0x0a, 0x0c, 0xc7, 0x00};
	struct uet_frame f;
	const struct uet_ses_std *s = &f.ses.u.std;
	uint8_t out[44];
	int i;

	load();
	for (i = 0; i < 17; i++)
		ck_assert_uint_eq(
			ses_pcap.len[i],
			((const size_t[]){98, 98, 98, 98, 102, 134, 86, 90, 122,
					  74, 78, 110, 62, 70, 62, 98, 86})[i]);
	/* 1: SES-A */
	check_common(ses_pcap.data[0], ses_pcap.len[0], false, &f, 0);
	check_p(&f, 3);
	check_ses_a(&f, UET_SES_OP_READ);
	ck_assert_int_eq(uet_ses_build(out, sizeof(out), &f.ses), 44);
	ck_assert_int_eq(memcmp(out, ses_pcap.data[0] + 54, 44), 0);

	/* 2: WRITE, SOM=0 */
	check_common(ses_pcap.data[1], ses_pcap.len[1], false, &f, 0);
	check_p(&f, 3);
	ck_assert_uint_eq(s->opcode, UET_SES_OP_WRITE);
	ck_assert_uint_eq(s->flags,
			  UET_SES_F_DC | UET_SES_F_REL | UET_SES_F_EOM);
	check_std_common(s);
	ck_assert_uint_eq(s->buffer_offset, 0xfedcba9876543210ull);
	ck_assert_uint_eq(s->memory_key, 0x1122334455667788ull);
	ck_assert_uint_eq(s->payload_length, 0x345);
	ck_assert_uint_eq(s->message_offset, 0x77665544);
	ck_assert_uint_eq(f.payload_bytes, 0);
	ck_assert_int_eq(uet_ses_build(out, sizeof(out), &f.ses), 44);
	ck_assert_int_eq(memcmp(out, ses_pcap.data[1] + 54, 44), 0);

	/* 3: DEFERRABLE_SEND: SOM=0 but header_data layout (caveat 7) */
	check_common(ses_pcap.data[2], ses_pcap.len[2], false, &f, 0);
	ck_assert_uint_eq(s->opcode, UET_SES_OP_DEFERRABLE_SEND);
	ck_assert_uint_eq(s->flags, 0x2a);
	check_std_common(s);
	ck_assert_uint_eq(s->buffer_offset, 0x8765432112345678ull);
	ck_assert_uint_eq(s->memory_key, 0x1122334455667788ull);
	ck_assert_uint_eq(s->header_data, 0xfedcba9876543210ull);
	ck_assert_uint_eq(s->payload_length, 0x3a98);
	ck_assert_uint_eq(s->message_offset, 0x76543210);

	/* 4: DEFERRABLE_RTR: restart token in bytes 24-31 */
	check_common(ses_pcap.data[3], ses_pcap.len[3], false, &f, 0);
	ck_assert_uint_eq(s->opcode, UET_SES_OP_DEFERRABLE_RTR);
	ck_assert_str_eq(uet_ses_opcode_name(s->opcode), "DEFERRABLE_RTR");
	check_std_common(s);
	ck_assert_uint_eq(s->buffer_offset, 0x8899aabbccddeeffull);
	ck_assert_uint_eq(s->memory_key, 0x8765432112345678ull);
	ck_assert_uint_eq(s->header_data, 0xfedcba9876543210ull);

	/* 5, 6: ATOMIC SOM=0 with the 4-byte and 36-byte extensions, which
	 * are left as payload. */
	for (i = 4; i <= 5; i++) {
		check_common(ses_pcap.data[i], ses_pcap.len[i], false, &f, 0);
		ck_assert_uint_eq(s->opcode, UET_SES_OP_ATOMIC);
		ck_assert_uint_eq(s->flags, 0x2a);
		check_std_common(s);
		ck_assert_uint_eq(s->payload_length, 0x345);
		ck_assert_uint_eq(s->message_offset, 0x77665544);
		ck_assert_uint_eq(f.payload_offset, 98);
		ck_assert_uint_eq(f.payload_bytes, i == 4 ? 4 : 36);
	}
	ck_assert_int_eq(memcmp(ses_pcap.data[4] + 98, atomic_ext, 4), 0);
	ck_assert_uint_eq(ses_pcap.data[5][98], 0x11); /* CSWAP_GE */

	/* 16: RENDEZVOUS_TSEND without its extension */
	check_common(ses_pcap.data[15], ses_pcap.len[15], false, &f, 0);
	check_p(&f, 3);
	check_ses_a(&f, UET_SES_OP_RENDEZVOUS_TSEND);
}
END_TEST

START_TEST(test_vectors_ses_small_and_medium)
{
	struct uet_frame f;
	const struct uet_ses_medium *m = &f.ses.u.medium;
	const struct uet_ses_small *sm = &f.ses.u.small;
	static const int medium[4] = {6, 7, 8, 16};
	static const size_t medium_ext[4] = {0, 4, 36, 0};
	uint8_t out[32];
	int i;

	load();
	for (i = 0; i < 4; i++) {
		const uint8_t *b = ses_pcap.data[medium[i]];

		check_common(b, ses_pcap.len[medium[i]], false, &f, 0);
		check_p(&f, 2);
		ck_assert_uint_eq(f.ses.kind, UET_SES_REQUEST_MEDIUM);
		ck_assert_uint_eq(m->opcode, i == 3   ? UET_SES_OP_NO_OP
					     : i == 0 ? UET_SES_OP_WRITE
						      : UET_SES_OP_ATOMIC);
		ck_assert_uint_eq(m->flags, 0x2b);
		ck_assert_uint_eq(m->request_length, 0x1234);
		ck_assert_uint_eq(m->ri_generation, 0x77);
		ck_assert_uint_eq(m->job_id, 0xabcdef);
		ck_assert_uint_eq(m->pid_on_fep, 0x678);
		ck_assert_uint_eq(m->resource_index, 0x9ab);
		ck_assert_uint_eq(m->buffer_offset, 0x9876543298765432ull);
		ck_assert_uint_eq(m->initiator, 0x87654321);
		ck_assert_uint_eq(m->memory_key, 0xccbbddeeff009988ull);
		ck_assert_uint_eq(f.payload_offset, 86);
		ck_assert_uint_eq(f.payload_bytes, medium_ext[i]);
		ck_assert_int_eq(uet_ses_build(out, sizeof(out), &f.ses), 32);
		ck_assert_int_eq(memcmp(out, b + 54, 32), 0);
	}
	for (i = 9; i <= 11; i++) {
		const uint8_t *b = ses_pcap.data[i];

		check_common(b, ses_pcap.len[i], false, &f, 0);
		check_p(&f, 1);
		ck_assert_uint_eq(f.ses.kind, UET_SES_REQUEST_SMALL);
		ck_assert_uint_eq(sm->opcode,
				  i == 9 ? UET_SES_OP_READ : UET_SES_OP_ATOMIC);
		ck_assert_uint_eq(sm->flags, 0x2b);
		ck_assert_uint_eq(sm->request_length, 0x1234);
		ck_assert_uint_eq(sm->ri_generation, 0x77);
		ck_assert_uint_eq(sm->job_id, 0xabcdef);
		ck_assert_uint_eq(sm->pid_on_fep, 0x678);
		ck_assert_uint_eq(sm->resource_index, 0x9ab);
		ck_assert_uint_eq(sm->buffer_offset, 0x9876543298765432ull);
		ck_assert_uint_eq(f.payload_offset, 74);
		ck_assert_uint_eq(f.payload_bytes, i == 9    ? 0
						   : i == 10 ? 4
							     : 36);
		ck_assert_int_eq(uet_ses_build(out, sizeof(out), &f.ses), 20);
		ck_assert_int_eq(memcmp(out, b + 54, 20), 0);
	}
	ck_assert_uint_eq(ses_pcap.data[10][74], 0x08); /* BAND */
}
END_TEST

START_TEST(test_vectors_ses_responses)
{
	struct uet_frame f;
	uint8_t out[20];

	load();
	/* 13: RESPONSE (nh 4) on RUDI_RESP */
	check_common(ses_pcap.data[12], ses_pcap.len[12], false, &f, 0);
	ck_assert_uint_eq(f.pds.type, UET_PDS_TYPE_RUDI_RESP);
	ck_assert_uint_eq(f.pds.flags, UET_PDS_RUDI_F_M);
	ck_assert_uint_eq(f.ses.kind, UET_SES_RESPONSE);
	ck_assert_uint_eq(f.ses.u.rsp.list, 3);
	ck_assert_uint_eq(f.ses.u.rsp.opcode, UET_SES_RSP_RESPONSE_W_DATA);
	ck_assert_uint_eq(f.ses.u.rsp.return_code, 9);
	ck_assert_uint_eq(f.ses.u.rsp.message_id, 0x1234);
	ck_assert_uint_eq(f.ses.u.rsp.ri_generation, 0x99);
	ck_assert_uint_eq(f.ses.u.rsp.job_id, 0x654321);
	ck_assert_uint_eq(f.ses.u.rsp.modified_length, 0x09abcdef);
	ck_assert_int_eq(uet_ses_build(out, sizeof(out), &f.ses), 12);
	ck_assert_int_eq(memcmp(out, ses_pcap.data[12] + 50, 12), 0);

	/* 14: RESPONSE_DATA (nh 5) */
	check_common(ses_pcap.data[13], ses_pcap.len[13], false, &f, 0);
	ck_assert_uint_eq(f.pds.next_hdr, 5);
	ck_assert_uint_eq(f.ses.kind, UET_SES_RESPONSE_DATA);
	ck_assert_uint_eq(f.ses.u.rsp_data.list, 3);
	ck_assert_uint_eq(f.ses.u.rsp_data.opcode, 2);
	ck_assert_uint_eq(f.ses.u.rsp_data.return_code, 9);
	ck_assert_uint_eq(f.ses.u.rsp_data.message_id, 0x1234);
	ck_assert_uint_eq(f.ses.u.rsp_data.job_id, 0x654321);
	ck_assert_uint_eq(f.ses.u.rsp_data.read_req_message_id, 0x1234);
	ck_assert_uint_eq(f.ses.u.rsp_data.payload_length, 0x321);
	ck_assert_uint_eq(f.ses.u.rsp_data.modified_length, 0x87654321);
	ck_assert_uint_eq(f.ses.u.rsp_data.message_offset, 0x09abcdef);
	ck_assert_uint_eq(f.payload_bytes, 0);
	ck_assert_int_eq(uet_ses_build(out, sizeof(out), &f.ses), 20);
	ck_assert_int_eq(memcmp(out, ses_pcap.data[13] + 50, 20), 0);

	/* 15: RESPONSE_DATA_SMALL (nh 6) */
	check_common(ses_pcap.data[14], ses_pcap.len[14], false, &f, 0);
	ck_assert_uint_eq(f.pds.next_hdr, 6);
	ck_assert_uint_eq(f.ses.kind, UET_SES_RESPONSE_DATA_SMALL);
	ck_assert_uint_eq(f.ses.u.rsp_data_small.list, 3);
	ck_assert_uint_eq(f.ses.u.rsp_data_small.opcode, 2);
	ck_assert_uint_eq(f.ses.u.rsp_data_small.return_code, 9);
	ck_assert_uint_eq(f.ses.u.rsp_data_small.payload_length, 0x3456);
	ck_assert_uint_eq(f.ses.u.rsp_data_small.job_id, 0x036870);
	ck_assert_uint_eq(f.ses.u.rsp_data_small.original_request_psn, 0x1234);
	ck_assert_int_eq(uet_ses_build(out, sizeof(out), &f.ses), 12);
	ck_assert_int_eq(memcmp(out, ses_pcap.data[14] + 50, 12), 0);
}
END_TEST

static Suite *wire_vectors_suite(void)
{
	Suite *s = suite_create("wire_vectors");
	TCase *tc = tcase_create("xdp2");

	/* Far below this on an idle machine; ASan on a loaded one is slow. */
	tcase_set_timeout(tc, 120);

	tcase_add_test(tc,
		       test_vectors_pds_file_has_19_frames_of_listed_lengths);
	tcase_add_test(tc, test_vectors_pds_requests);
	tcase_add_test(tc, test_vectors_pds_acks);
	tcase_add_test(tc, test_vectors_pds_nacks_and_cps);
	tcase_add_test(tc, test_vectors_pds_uud_and_rudi);
	tcase_add_test(tc, test_vectors_ses_standard_requests);
	tcase_add_test(tc, test_vectors_ses_small_and_medium);
	tcase_add_test(tc, test_vectors_ses_responses);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		vectors_dir = argv[1];
	return uet_check_run(wire_vectors_suite());
}
