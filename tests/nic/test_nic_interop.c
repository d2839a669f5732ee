/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic answering what a foreign UET stack may send and our own NICs
 * never do (issue 32, item 1): a plain RUD request (PDS type 2, no CC
 * state) is delivered and acknowledged like the page's data packet, and a
 * CP CLOSE with the AR flag is acknowledged before the side closes (wire
 * format 4.1 and 4.4). Frames are written here as that stack would write
 * them and delivered to NIC 1.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "check_main.h"
#include "nic_harness.h"
#include "uet_ses.h"
#include "uet_wire.h"

/* The external host: 198.18.0.3, host 2 of the plan. */
#define EXT_IP ((198u << 24) | (18u << 16) | 3u)

static const uint32_t ext_ips[] = {EXT_IP};

/* A one-packet message of bytes on PDC spdcid at psn, PDS type type,
 * with AR; with SYN when dpdcid is 0, else to our side dpdcid. */
static struct rte_mbuf *data_frame_to(struct nic_pair *pair, uint8_t type,
				      uint16_t spdcid, uint32_t psn,
				      uint32_t bytes, uint16_t dpdcid)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct rte_mbuf *m;
	uint8_t *d;
	size_t len = UET_DATA_HDR_FRAME_BYTES + bytes;

	uet_frame_addr_default(&a);
	a.src_ip = EXT_IP;
	a.dst_ip = h_ip(1);
	a.dscp = pair->p.dscp.codepoint[UET_DSCP_TRIMMABLE];
	a.entropy = 0xc000;
	memset(&pds, 0, sizeof(pds));
	pds.type = type;
	pds.flags = UET_PDS_REQ_F_SYN | UET_PDS_REQ_F_AR;
	pds.u.req.psn = psn;
	pds.u.req.spdcid = spdcid;
	if (dpdcid != 0) {
		pds.flags &= (uint8_t)~UET_PDS_REQ_F_SYN;
		pds.u.req.dpdcid = dpdcid;
	}
	memset(&ses, 0, sizeof(ses));
	ses.kind = UET_SES_REQUEST_STD;
	ses.u.std.opcode = UET_SES_OP_SEND;
	ses.u.std.flags = UET_SES_F_SOM | UET_SES_F_EOM;
	ses.u.std.memory_key = 9;
	ses.u.std.request_length = bytes;
	if (type == UET_PDS_TYPE_RUD_REQ)
		len -= UET_PDS_CC_REQ_BYTES - UET_PDS_REQ_BYTES;
	m = rte_pktmbuf_alloc(pair->mp);
	ck_assert_ptr_nonnull(m);
	d = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(uet_frame_build(d, len, &a, &pds, &ses, NULL, bytes),
			 (int)len);
	memset(d + len - bytes, 0x5a, bytes);
	return m;
}

/* The same with SYN, starting its PDC at psn. */
static struct rte_mbuf *data_frame(struct nic_pair *pair, uint8_t type,
				   uint16_t spdcid, uint32_t psn,
				   uint32_t bytes)
{
	return data_frame_to(pair, type, spdcid, psn, bytes, 0);
}

/* A CP CLOSE from spdcid to our side dpdcid with PSN psn; with syn,
 * the SYN overlay with psn_offset in place of dpdcid. */
static struct rte_mbuf *close_frame_syn(struct nic_pair *pair, uint16_t spdcid,
					uint16_t dpdcid, uint32_t psn, bool ar,
					bool syn, uint16_t psn_offset)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct rte_mbuf *m;
	uint8_t *d;
	size_t len = UET_ETH_HDR_BYTES + UET_IPV4_HDR_BYTES +
		     UET_UDP_HDR_BYTES + UET_PDS_CP_BYTES;

	uet_frame_addr_default(&a);
	a.src_ip = EXT_IP;
	a.dst_ip = h_ip(1);
	a.dscp = pair->p.dscp.codepoint[UET_DSCP_CONTROL];
	a.entropy = 0xc001;
	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_CP;
	pds.next_hdr = UET_CP_CLOSE;
	pds.flags = (ar ? UET_PDS_CP_F_AR : 0) | (syn ? UET_PDS_CP_F_SYN : 0);
	pds.u.cp.psn = psn;
	pds.u.cp.spdcid = spdcid;
	pds.u.cp.dpdcid = dpdcid;
	pds.u.cp.syn.psn_offset = psn_offset;
	m = rte_pktmbuf_alloc(pair->mp);
	ck_assert_ptr_nonnull(m);
	d = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(uet_frame_build(d, len, &a, &pds, NULL, NULL, 0),
			 (int)len);
	return m;
}

static struct rte_mbuf *close_frame(struct nic_pair *pair, uint16_t spdcid,
				    uint16_t dpdcid, uint32_t psn, bool ar)
{
	return close_frame_syn(pair, spdcid, dpdcid, psn, ar, false, 0);
}

/* An ACK_CC from NIC 1 to NIC 0's PDC dpdcid, naming side spdcid as NIC
 * 1's, cumulative through cack (ACK_PSN = cack), an empty bitmap: as a
 * foreign receiver would write it. */
static struct rte_mbuf *ack_frame(struct nic_pair *pair, uint16_t spdcid,
				  uint16_t dpdcid, uint32_t cack)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct rte_mbuf *m;
	uint8_t *d;
	size_t len = UET_ETH_HDR_BYTES + UET_IPV4_HDR_BYTES +
		     UET_UDP_HDR_BYTES + UET_PDS_ACK_CC_BYTES;

	uet_frame_addr_default(&a);
	a.src_ip = h_ip(1);
	a.dst_ip = h_ip(0);
	a.dscp = pair->p.dscp.codepoint[UET_DSCP_CONTROL];
	a.entropy = 0xc002;
	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_ACK_CC;
	pds.u.ack.cack_psn = cack;
	pds.u.ack.spdcid = spdcid;
	pds.u.ack.dpdcid = dpdcid;
	m = rte_pktmbuf_alloc(pair->mp);
	ck_assert_ptr_nonnull(m);
	d = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
	ck_assert_ptr_nonnull(d);
	ck_assert_int_eq(uet_frame_build(d, len, &a, &pds, NULL, NULL, 0),
			 (int)len);
	return m;
}

/* NIC 0 posts a one-packet message to NIC 1, whose first ACK is lost,
 * and runs to 2 us: the data frame is out, its ACK dropped. */
static const struct h_frame *one_packet_ack_lost(struct nic_pair *pair)
{
	h_init(pair);
	pair->drop_ack[pair->ndrop_ack++] = 0;
	h_start(pair);
	ck_assert_int_eq(
		uet_nic_post_message(pair->nic[0], h_ip(1), 4096, 0, 7), 0);
	h_run(pair, 2000000);
	ck_assert_uint_eq(pair->count[1][H_ACK], 1);
	return h_nth_frame(pair, 0, H_DATA, 0);
}

/*
 * An ACK whose cumulative ACK lies 5 PSNs beyond the one packet sent
 * retires nothing and is counted stale; it draws no probe. Before, it
 * drew the PDC's probe at once, with destination PDC 0 and no SYN
 * (nothing learnt from the ACK), which no receiver can place. The
 * packet's timer then sends it again, NIC 1's ACK names its side, and
 * the probe follows that ACK, without SYN.
 */
START_TEST(test_ack_beyond_sent_draws_no_probe)
{
	const struct h_frame *d, *probe;
	struct uet_nic_stats s0, s;
	struct nic_pair pair;

	d = one_packet_ack_lost(&pair);
	s0 = h_stats(&pair, 0);
	h_deliver(&pair, 0, ack_frame(&pair, 9, d->spdcid, d->psn + 5),
		  3000000);
	h_run(&pair, 4000000);
	s = h_stats(&pair, 0);
	ck_assert_uint_eq(s.transport.stale_packets,
			  s0.transport.stale_packets + 1);
	ck_assert_uint_eq(pair.count[0][H_PROBE], 0);
	ck_assert_uint_eq(pair.completed[0], 0);
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(pair.completed[0], 1);
	ck_assert_uint_eq(pair.count[0][H_DATA], 2);
	ck_assert_uint_eq(pair.count[0][H_PROBE], 1);
	probe = h_nth_frame(&pair, 0, H_PROBE, 0);
	ck_assert_uint_eq(probe->flags & UET_PDS_CP_F_SYN, 0);
	h_fini(&pair);
}
END_TEST

/*
 * An ACK that names PDC 0 as the receiver's side (a stack that writes 0
 * there) teaches nothing: the PDC's probe goes with SYN and the PSN
 * offset, as its data did, so that a receiver can place it. Before, it
 * went with destination PDC 0 and no SYN.
 */
START_TEST(test_probe_with_syn_when_side_unknown)
{
	const struct h_frame *d, *probe;
	struct nic_pair pair;

	d = one_packet_ack_lost(&pair);
	h_deliver(&pair, 0, ack_frame(&pair, 0, d->spdcid, d->psn), 3000000);
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(pair.completed[0], 1);
	ck_assert_uint_eq(pair.count[0][H_PROBE], 1);
	probe = h_nth_frame(&pair, 0, H_PROBE, 0);
	ck_assert_uint_eq(probe->flags & UET_PDS_CP_F_SYN, UET_PDS_CP_F_SYN);
	h_fini(&pair);
}
END_TEST

static void start(struct nic_pair *pair)
{
	h_init(pair);
	pair->external_ips = ext_ips;
	pair->external_count = 1;
	h_start(pair);
}

/*
 * A RUD request without CC state (type 2), 1 KiB in one packet: before,
 * counted in other_frames and dropped, so its sender retransmitted until
 * the end. Now it arrives and its ACK names its PSN.
 */
START_TEST(test_rud_request_without_cc_acknowledged)
{
	struct uet_nic_stats s;
	struct nic_pair pair;

	start(&pair);
	h_deliver(&pair, 1,
		  data_frame(&pair, UET_PDS_TYPE_RUD_REQ, 7, 100, 1024), 1000);
	h_run(&pair, RUN_END_PS);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.other_frames, 0);
	ck_assert_uint_eq(s.transport.data_pkts_received, 1);
	ck_assert_uint_eq(s.external_msgs_arrived, 1);
	ck_assert_uint_eq(s.transport.data_payload_bytes_delivered, 1024);
	ck_assert_uint_eq(pair.count[1][H_ACK], 1);
	ck_assert_uint_eq(h_nth_frame(&pair, 1, H_ACK, 0)->psn, 100);
	h_fini(&pair);
}
END_TEST

/*
 * A one-packet message, then its CLOSE with AR at the next PSN: the side
 * acknowledges the CLOSE (an ACK naming PSN 101, cumulative through it),
 * then closes. Before, the CLOSE closed the side and drew no ACK.
 */
START_TEST(test_close_with_ar_acknowledged)
{
	const struct h_frame *ack;
	struct uet_nic_stats s;
	struct nic_pair pair;
	uint16_t side;

	start(&pair);
	h_deliver(&pair, 1,
		  data_frame(&pair, UET_PDS_TYPE_RUD_CC_REQ, 7, 100, 1024),
		  1000);
	h_run(&pair, 2000000);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.pdcs_open, 1);
	side = h_nth_frame(&pair, 1, H_ACK, 0)->spdcid;
	h_deliver(&pair, 1, close_frame(&pair, 7, side, 101, true), 3000000);
	h_run(&pair, 4000000);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.pdcs_open, 0);
	ck_assert_uint_eq(s.close_acks_sent, 1);
	ck_assert_uint_eq(pair.count[1][H_ACK], 2);
	ack = h_nth_frame(&pair, 1, H_ACK, 1);
	ck_assert_uint_eq(ack->psn, 101);
	ck_assert_uint_eq(ack->flags & UET_PDS_ACK_F_P, 0);
	h_fini(&pair);
}
END_TEST

/*
 * A sender whose ACKs never named our side (a stack that writes PDC 0 in
 * them) closes with SYN and the PSN offset, as its data went: the side is
 * found by (address, PDC number, start PSN), the CLOSE acknowledged and
 * the side closed. Before, the CLOSE was looked up by dpdcid only.
 */
START_TEST(test_close_with_syn_finds_side)
{
	struct uet_nic_stats s;
	struct nic_pair pair;

	start(&pair);
	h_deliver(&pair, 1,
		  data_frame(&pair, UET_PDS_TYPE_RUD_CC_REQ, 7, 100, 1024),
		  1000);
	h_run(&pair, 2000000);
	h_deliver(&pair, 1, close_frame_syn(&pair, 7, 0, 101, true, true, 1),
		  3000000);
	h_run(&pair, 4000000);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.pdcs_open, 0);
	ck_assert_uint_eq(s.close_acks_sent, 1);
	ck_assert_uint_eq(h_nth_frame(&pair, 1, H_ACK, 1)->psn, 101);
	h_fini(&pair);
}
END_TEST

/* Our own senders' CLOSE, without AR, closes the side and draws nothing,
 * as before. */
START_TEST(test_close_without_ar_not_acknowledged)
{
	struct uet_nic_stats s;
	struct nic_pair pair;

	start(&pair);
	h_deliver(&pair, 1,
		  data_frame(&pair, UET_PDS_TYPE_RUD_CC_REQ, 7, 100, 1024),
		  1000);
	h_run(&pair, 2000000);
	h_deliver(&pair, 1,
		  close_frame(&pair, 7, h_nth_frame(&pair, 1, H_ACK, 0)->spdcid,
			      101, false),
		  3000000);
	h_run(&pair, 4000000);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.pdcs_open, 0);
	ck_assert_uint_eq(s.close_acks_sent, 0);
	ck_assert_uint_eq(pair.count[1][H_ACK], 1);
	h_fini(&pair);
}
END_TEST

/*
 * Every drop has its kind's column: a packet of an open side 40,000 PSNs
 * past its start (beyond the 32,768-PSN receive window) counts in
 * out_of_window_packets, a CLOSE without AR for a side that is not there
 * in late_closes, neither in stale_packets. Before, both went uncounted.
 */
START_TEST(test_window_and_late_close_drops_counted)
{
	struct uet_nic_stats s0, s;
	struct nic_pair pair;

	start(&pair);
	h_deliver(&pair, 1,
		  data_frame(&pair, UET_PDS_TYPE_RUD_CC_REQ, 7, 100, 1024),
		  1000);
	h_run(&pair, 2000000);
	s0 = h_stats(&pair, 1);
	ck_assert_uint_eq(s0.transport.pdcs_open, 1);
	h_deliver(&pair, 1,
		  data_frame_to(&pair, UET_PDS_TYPE_RUD_CC_REQ, 7, 100 + 40000,
				1024, h_nth_frame(&pair, 1, H_ACK, 0)->spdcid),
		  3000000);
	h_run(&pair, 4000000);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.out_of_window_packets, 1);
	ck_assert_uint_eq(s.transport.data_pkts_received,
			  s0.transport.data_pkts_received);
	ck_assert_uint_eq(pair.count[1][H_ACK], 1);
	h_deliver(&pair, 1, close_frame(&pair, 7, 999, 101, false), 5000000);
	h_run(&pair, 6000000);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.late_closes, 1);
	ck_assert_uint_eq(s.transport.stale_packets,
			  s0.transport.stale_packets);
	ck_assert_uint_eq(s.transport.pdcs_open, 1);
	h_fini(&pair);
}
END_TEST

/* Line n (1: the first after the header) of dir/file, in line. */
static void csv_line(const char *dir, const char *file, int n, char *line,
		     size_t cap)
{
	char path[600];
	FILE *f;
	int i;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	for (i = 0; i <= n; i++)
		ck_assert_ptr_nonnull(fgets(line, (int)cap, f));
	fclose(f);
}

/*
 * Two external messages to NIC 1: one the run expects (it answers number
 * 5), one it does not. Each gets a flows.csv row written by NIC 1 at its
 * arrival, the sender's times and timeouts empty, and a msg_arrived event;
 * the expected one carries 5 in both, the other an empty msg_id. Before,
 * neither had a flows row and both events carried the stack's memory_key.
 */
START_TEST(test_external_messages_recorded)
{
	char dir[] = "/tmp/uet_nic_interop_XXXXXX";
	struct uet_record_conf rc = {
		.out_dir = dir,
		.events = true,
		.flows = true,
	};
	struct nic_pair pair;
	char line[1024];

	ck_assert_ptr_nonnull(mkdtemp(dir));
	h_init(&pair);
	pair.external_ips = ext_ips;
	pair.external_count = 1;
	ck_assert_int_eq(uet_record_open(&pair.rec, &rc), 0);
	h_start(&pair);
	pair.external_match = true;
	pair.external_match_id = 5;
	h_deliver(&pair, 1,
		  data_frame(&pair, UET_PDS_TYPE_RUD_CC_REQ, 7, 100, 1024),
		  1000);
	h_run(&pair, 2000000);
	pair.external_match = false;
	h_deliver(&pair, 1,
		  data_frame(&pair, UET_PDS_TYPE_RUD_CC_REQ, 8, 500, 1500),
		  3000000);
	h_run(&pair, 4000000);
	h_fini(&pair);
	ck_assert_int_eq(uet_record_close(pair.rec), 0);
	csv_line(dir, "flows.csv", 1, line, sizeof(line));
	ck_assert_msg(strncmp(line, "5,198.18.0.3,198.18.0.2,7,", 26) == 0,
		      "%s", line);
	ck_assert_msg(strstr(line, ",1024,1,,,1") != NULL, "%s", line);
	ck_assert_msg(strstr(line, ",,,0,0,0,\n") != NULL, "%s", line);
	csv_line(dir, "flows.csv", 2, line, sizeof(line));
	ck_assert_msg(strncmp(line, ",198.18.0.3,198.18.0.2,8,", 25) == 0, "%s",
		      line);
	ck_assert_msg(strstr(line, ",1500,1,,,3") != NULL, "%s", line);
	/* uet-events: created, arrived for each (no CLOSE came). */
	csv_line(dir, "uet-events.csv", 2, line, sizeof(line));
	ck_assert_msg(strstr(line, ",198.18.0.3,5,1024,msg_arrived\n") != NULL,
		      "%s", line);
	csv_line(dir, "uet-events.csv", 4, line, sizeof(line));
	ck_assert_msg(strstr(line, ",198.18.0.3,,1500,msg_arrived\n") != NULL,
		      "%s", line);
}
END_TEST

/* The fault switch's names (UET_NIC_FAULT, docs/interop.md) parse back to
 * their faults; anything else is refused. */
START_TEST(test_fault_names_round_trip)
{
	enum uet_nic_fault f;
	int i;

	for (i = 0; i < UET_NIC_FAULT_COUNT; i++) {
		ck_assert_ptr_nonnull(
			uet_nic_fault_name((enum uet_nic_fault)i));
		ck_assert_int_eq(
			uet_nic_fault_parse(
				uet_nic_fault_name((enum uet_nic_fault)i), &f),
			0);
		ck_assert_int_eq(f, i);
	}
	ck_assert_str_eq(uet_nic_fault_name(UET_NIC_FAULT_NO_SACK), "no-sack");
	ck_assert_ptr_null(uet_nic_fault_name(UET_NIC_FAULT_COUNT));
	ck_assert_int_eq(uet_nic_fault_parse("no_sack", &f), -EINVAL);
	ck_assert_int_eq(uet_nic_fault_parse(NULL, &f), -EINVAL);
}
END_TEST

static Suite *nic_interop_suite(void)
{
	Suite *s = suite_create("nic-interop");
	TCase *tc = tcase_create("foreign");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_rud_request_without_cc_acknowledged);
	tcase_add_test(tc, test_close_with_ar_acknowledged);
	tcase_add_test(tc, test_close_without_ar_not_acknowledged);
	tcase_add_test(tc, test_window_and_late_close_drops_counted);
	tcase_add_test(tc, test_close_with_syn_finds_side);
	tcase_add_test(tc, test_external_messages_recorded);
	tcase_add_test(tc, test_fault_names_round_trip);
	tcase_add_test(tc, test_ack_beyond_sent_draws_no_probe);
	tcase_add_test(tc, test_probe_with_syn_when_side_unknown);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_interop_suite)
