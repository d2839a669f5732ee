/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The robustness corpus of the lib/wire suites: every vector frame, every
 * PDS type with every SES kind it may carry, the NIC's data packet with a
 * trailer and trimmed, PFC and every lockstep control frame, each with the
 * shortest prefix of it that parses.
 */
#ifndef WIRE_TEST_CORPUS_H
#define WIRE_TEST_CORPUS_H

#include <check.h>
#include <stdbool.h>
#include <string.h>

#include "uet_wire.h"
#include "wire_test_pcap.h"
#include "wire_test_util.h"

#define MAX_FRAMES 160
#define FRAME_CAP 512

/* A frame and the shortest prefix of it that parses. */
struct sample {
	uint8_t data[FRAME_CAP];
	size_t len;
	size_t min_len;	   /* prefixes shorter than this are rejected */
	size_t trailer_at; /* 0, or the offset of a lockstep trailer */
	bool never_parses; /* the ACK_CCX vector (40-byte majority) */
};

static struct sample samples[MAX_FRAMES];
static int n_samples;

static inline void add(const uint8_t *data, size_t len)
{
	struct sample *s;
	struct uet_frame f;
	enum uet_wire_reason why;

	ck_assert_int_lt(n_samples, MAX_FRAMES);
	s = &samples[n_samples++];
	ck_assert_uint_le(len, FRAME_CAP);
	memcpy(s->data, data, len);
	s->len = len;
	s->trailer_at = 0;
	s->never_parses = false;
	if (uet_frame_parse(data, len, &f, &why) != 0) {
		s->never_parses = true;
		s->min_len = len + 1;
		return;
	}
	switch (f.kind) {
	case UET_FRAME_PFC:
		s->min_len = UET_PFC_BYTES;
		break;
	case UET_FRAME_LOCKSTEP:
		s->min_len = UET_ETH_HDR_BYTES + UET_LS_HDR_BYTES +
			     (size_t)uet_ls_body_bytes(&f.l2.ls);
		break;
	default:
		s->min_len = f.has_ipv4 ? f.ip_end : UET_ETH_HDR_BYTES;
		if (f.has_trailer)
			s->trailer_at = f.ip_end;
		break;
	}
}

static inline void add_built(const struct uet_frame_addr *a,
			     const struct uet_pds_hdr *pds,
			     const struct uet_ses_hdr *ses, size_t payload)
{
	uint8_t buf[FRAME_CAP];
	int len;

	memset(buf, 0x3c, sizeof(buf));
	len = uet_frame_build(buf, sizeof(buf), a, pds, ses, NULL, payload);
	ck_assert_int_gt(len, 0);
	add(buf, (size_t)len);
}

static inline void build_corpus(void)
{
	static struct pcap_frames pf;
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 9};
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_pfc pfc;
	struct uet_ls_ctrl c;
	uint8_t buf[FRAME_CAP];
	unsigned int t, k;
	int len, i;

	n_samples = 0;
	pcap_frames_load(&pf, "uet_pds.pcap");
	for (i = 0; i < pf.n; i++)
		add(pf.data[i], pf.len[i]);
	ck_assert(samples[11].never_parses); /* ACK_CCX, caveat 1 */
	pcap_frames_load(&pf, "uet_ses.pcap");
	for (i = 0; i < pf.n; i++)
		add(pf.data[i], pf.len[i]);

	test_addr(&a, UET_DSCP_DEFAULT_TRIMMABLE, 0xbeef);
	/* Every PDS type, alone and with every SES kind it may carry. */
	for (t = 2; t <= 14; t++) {
		memset(&pds, 0, sizeof(pds));
		pds.type = (uint8_t)t;
		pds.u.req.syn.psn_offset = 1;
		if (t == UET_PDS_TYPE_CP)
			pds.next_hdr = UET_CP_PROBE;
		add_built(&a, &pds, NULL, 0);
		if (t == UET_PDS_TYPE_CP || t == UET_PDS_TYPE_NACK ||
		    t == UET_PDS_TYPE_NACK_CCX)
			continue;
		for (k = 1; k <= 6; k++) {
			memset(&ses, 0, sizeof(ses));
			ses.kind = (uint8_t)k;
			ses.u.std.flags = UET_SES_F_SOM;
			add_built(&a, &pds, &ses, k * 7);
		}
	}
	/* The NIC's data packet, with a trailer, and trimmed. */
	test_data_hdrs(&pds, &ses, 200);
	len = uet_frame_build(buf, sizeof(buf), &a, &pds, &ses, NULL, 200);
	add(buf, (size_t)len);
	len = uet_ls_trailer_append(buf, (size_t)len, sizeof(buf), 123456);
	ck_assert_int_eq(len, 314);
	add(buf, (size_t)len);
	ck_assert_uint_eq(samples[n_samples - 1].trailer_at, 302);
	len = uet_frame_trim(buf, (size_t)len, UET_DSCP_DEFAULT_TRIMMED);
	ck_assert_int_eq(len, 58);
	add(buf, (size_t)len);
	len = uet_ls_trailer_append(buf, (size_t)len, sizeof(buf), 9);
	add(buf, (size_t)len);
	/* PFC and every lockstep control frame. */
	memset(&pfc, 0, sizeof(pfc));
	pfc.class_enable = 0xff;
	pfc.quanta[0] = 0xffff;
	len = uet_pfc_build(buf, sizeof(buf), &pfc);
	add(buf, (size_t)len);
	for (t = UET_LS_HELLO; t <= UET_LS_ABORT; t++) {
		memset(&c, 0, sizeof(c));
		c.type = (uint8_t)t;
		c.seq = t;
		if (t == UET_LS_ABORT) {
			c.u.abort.text_len = 30;
			memset(c.u.abort.text, 'a', 30);
		}
		len = uet_ls_ctrl_build(buf, sizeof(buf), mac, mac, &c);
		ck_assert_int_gt(len, 0);
		add(buf, (size_t)len);
	}
}

#endif /* WIRE_TEST_CORPUS_H */
