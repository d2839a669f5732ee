/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic facing a host that is not ours (nic_rx.c): data frames written
 * here, as a foreign stack or an attacker would, delivered to NIC 1. The
 * attacks of issue 32's trial: a flood of SYN packets that never end their
 * message, arrivals forged by memory_key and request_length, a foreign
 * payload, a frame from the NIC's own address. Each is counted and
 * dropped, and none makes the NIC record a message nobody sent.
 */
#include <check.h>
#include <string.h>

#include <rte_mbuf.h>

#include "check_main.h"
#include "nic_harness.h"
#include "uet_ses.h"
#include "uet_wire.h"

/* The external host: 198.18.0.3, host 2 of the plan. */
#define EXT_IP ((198u << 24) | (18u << 16) | 3u)

static const uint32_t ext_ips[] = {EXT_IP};

/* A data packet as a sender writes it. */
struct pkt {
	uint32_t src_ip;
	uint16_t spdcid;
	uint32_t psn;
	uint16_t psn_offset; /**< SYN: psn less the PDC's start PSN */
	bool syn, ar, som, eom;
	uint64_t memory_key;
	uint32_t request_length;
	uint32_t message_offset;
	uint32_t payload_bytes;
};

static struct rte_mbuf *pkt_frame(struct nic_pair *pair, const struct pkt *p)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct rte_mbuf *m;
	uint8_t *d;
	size_t len = UET_DATA_HDR_FRAME_BYTES + p->payload_bytes;

	uet_frame_addr_default(&a);
	a.src_ip = p->src_ip;
	a.dst_ip = h_ip(1);
	a.dscp = pair->p.dscp.codepoint[UET_DSCP_TRIMMABLE];
	a.entropy = 0xc000;
	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_RUD_CC_REQ;
	pds.flags = (p->syn ? UET_PDS_REQ_F_SYN : 0) |
		    (p->ar ? UET_PDS_REQ_F_AR : 0);
	pds.u.req.psn = p->psn;
	pds.u.req.spdcid = p->spdcid;
	pds.u.req.syn.psn_offset = p->psn_offset;
	memset(&ses, 0, sizeof(ses));
	ses.kind = UET_SES_REQUEST_STD;
	ses.u.std.opcode = UET_SES_OP_SEND;
	ses.u.std.flags =
		(p->som ? UET_SES_F_SOM : 0) | (p->eom ? UET_SES_F_EOM : 0);
	ses.u.std.memory_key = p->memory_key;
	ses.u.std.request_length = p->request_length;
	if (!p->som) {
		ses.u.std.payload_length = (uint16_t)p->payload_bytes;
		ses.u.std.message_offset = p->message_offset;
	}
	m = rte_pktmbuf_alloc(pair->mp);
	ck_assert_ptr_nonnull(m);
	d = (uint8_t *)rte_pktmbuf_append(m, (uint16_t)len);
	ck_assert_ptr_nonnull(d);
	/* A payload that is not our pattern: a foreign stack's own bytes. */
	ck_assert_int_eq(
		uet_frame_build(d, len, &a, &pds, &ses, NULL, p->payload_bytes),
		(int)len);
	memset(d + UET_DATA_HDR_FRAME_BYTES, 0x5a, p->payload_bytes);
	return m;
}

static void start(struct nic_pair *pair, struct uet_ses_arrivals **arrivals)
{
	h_init(pair);
	ck_assert_int_eq(uet_ses_arrivals_create(arrivals, 8), 0);
	pair->arrivals = *arrivals;
	pair->external_ips = ext_ips;
	pair->external_count = 1;
	h_start(pair);
}

static void finish(struct nic_pair *pair, struct uet_ses_arrivals *arrivals)
{
	h_fini(pair);
	uet_ses_arrivals_free(arrivals);
}

/*
 * 3,000 SYN packets, each opening a PDC of its own, none with EOM: the
 * external host's receiving sides stop at the bound, the rest refused and
 * counted. None arrives, so before the fix they stayed open for the rest of
 * the run (a side's linger timer started only at its arrival); now each
 * closes a linger time after its last packet. Our own message then
 * completes.
 */
START_TEST(test_syn_flood_bounded_and_reclaimed)
{
	struct uet_ses_arrivals *arrivals;
	struct uet_nic_stats s;
	uet_time_t t = 1000;
	struct nic_pair pair;
	uint32_t i;

	start(&pair, &arrivals);
	for (i = 0; i < 3000; i++) {
		struct pkt p = {
			.src_ip = EXT_IP,
			.spdcid = (uint16_t)(1 + i),
			.psn = 1000 * i,
			.syn = true,
			.som = true,
			.memory_key = 5,
			.request_length = 1u << 31,
			.payload_bytes = 64,
		};

		h_deliver(&pair, 1, pkt_frame(&pair, &p), t);
		t += 10000;
		if (i % 500 == 499)
			h_run(&pair, t);
	}
	h_run(&pair, t);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.pdcs_created, 1024);
	ck_assert_uint_eq(s.transport.pdcs_open, 1024);
	ck_assert_uint_eq(s.transport.external_pdcs_refused, 3000 - 1024);
	ck_assert_uint_eq(s.transport.msgs_arrived, 0);
	ck_assert_uint_eq(s.payload_mismatches, 0);
	h_run(&pair, RUN_END_PS);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.pdcs_open, 0);
	ck_assert_uint_eq(s.external_stalls_closed, 1024);
	ck_assert_uint_eq(s.transport.msgs_arrived, 0);
	/* Our own traffic is unharmed. */
	t = uet_evq_now(&uet_nic_component(pair.nic[1])->evq) + 1000;
	ck_assert_int_eq(
		uet_nic_post_message(pair.nic[0], h_ip(1), 64 * 1024, t, 1), 0);
	h_run(&pair, RUN_END_PS);
	ck_assert_uint_eq(pair.arrived[1], 1);
	ck_assert_uint_eq(pair.completed[0], 1);
	ck_assert_uint_eq(h_stats(&pair, 1).payload_mismatches, 0);
	ck_assert_uint_eq(h_stats(&pair, 1).transport.pdcs_open, 0);
	finish(&pair, arrivals);
}
END_TEST

/*
 * A 1 KiB message of the external host whose memory_key is 3, one of our
 * message numbers: it is delivered and acknowledged, counted as an external
 * arrival, and its bytes (not our pattern) are no mismatch. It does not
 * enter the arrival table under number 3, and its completion is marked
 * external: before, it recorded our message 3 as arrived.
 */
START_TEST(test_external_message_is_not_ours)
{
	struct uet_ses_arrivals *arrivals;
	struct uet_nic_stats s;
	struct nic_pair pair;
	struct pkt p = {
		.src_ip = EXT_IP,
		.spdcid = 7,
		.psn = 100,
		.syn = true,
		.ar = true,
		.som = true,
		.eom = true,
		.memory_key = 3,
		.request_length = 1024,
		.payload_bytes = 1024,
	};

	start(&pair, &arrivals);
	h_deliver(&pair, 1, pkt_frame(&pair, &p), 1000);
	h_run(&pair, RUN_END_PS);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.msgs_arrived, 1);
	ck_assert_uint_eq(s.external_msgs_arrived, 1);
	ck_assert_uint_eq(s.payload_mismatches, 0);
	ck_assert_uint_eq(uet_ses_arrivals_get(arrivals, 3), UET_TIME_NEVER);
	ck_assert_uint_eq(pair.arrived[1], 0);
	ck_assert_uint_eq(pair.arrived_external[1], 1);
	/* Its ACK went back toward the external host. */
	ck_assert_uint_eq(pair.count[1][H_ACK], 1);
	ck_assert_uint_eq(h_nth_frame(&pair, 1, H_ACK, 0)->psn, 100);
	/* Its side closes on the linger timer (no CLOSE came). */
	ck_assert_uint_eq(s.transport.pdcs_open, 0);
	ck_assert_uint_eq(s.external_stalls_closed, 0);
	finish(&pair, arrivals);
}
END_TEST

/*
 * One 64-byte packet with SOM and EOM whose request_length says 2 GiB, from
 * one of our own hosts' addresses: before, an arrival of 2 GiB was
 * recorded. A message arrives only when all its bytes have, so nothing
 * arrives; the side stays until that sender's CLOSE (none comes here).
 */
START_TEST(test_short_message_does_not_arrive)
{
	struct uet_ses_arrivals *arrivals;
	struct uet_nic_stats s;
	struct nic_pair pair;
	struct pkt p = {
		.src_ip = h_ip(0),
		.spdcid = 9,
		.psn = 5000,
		.syn = true,
		.ar = true,
		.som = true,
		.eom = true,
		.memory_key = 2,
		.request_length = 1u << 31,
		.payload_bytes = 64,
	};

	start(&pair, &arrivals);
	h_deliver(&pair, 1, pkt_frame(&pair, &p), 1000);
	h_run(&pair, RUN_END_PS);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.data_pkts_received, 1);
	ck_assert_uint_eq(s.transport.msgs_arrived, 0);
	ck_assert_uint_eq(uet_ses_arrivals_get(arrivals, 2), UET_TIME_NEVER);
	ck_assert_uint_eq(pair.arrived[1], 0);
	ck_assert_uint_eq(s.transport.pdcs_open, 1);
	finish(&pair, arrivals);
}
END_TEST

/*
 * Packets that do not fit their message: a second packet of a PDC with
 * another request_length, and one whose bytes lie past request_length.
 * Both dropped and counted; the first packet's message then completes
 * with its real second half.
 */
START_TEST(test_misfit_packets_dropped)
{
	struct uet_ses_arrivals *arrivals;
	struct uet_nic_stats s;
	struct nic_pair pair;
	struct pkt p = {
		.src_ip = EXT_IP,
		.spdcid = 11,
		.psn = 200,
		.syn = true,
		.som = true,
		.memory_key = 1,
		.request_length = 2048,
		.payload_bytes = 1024,
	};

	start(&pair, &arrivals);
	h_deliver(&pair, 1, pkt_frame(&pair, &p), 1000);
	p.psn = 201;
	p.psn_offset = 1;
	p.som = false;
	p.eom = true;
	p.ar = true;
	p.message_offset = 1024;
	p.request_length = 3072;
	h_deliver(&pair, 1, pkt_frame(&pair, &p), 2000);
	p.request_length = 2048;
	p.message_offset = 1536;
	h_deliver(&pair, 1, pkt_frame(&pair, &p), 3000);
	h_run(&pair, 4000);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.misfit_packets, 2);
	ck_assert_uint_eq(s.transport.data_pkts_received, 1);
	ck_assert_uint_eq(s.transport.msgs_arrived, 0);
	p.message_offset = 1024;
	h_deliver(&pair, 1, pkt_frame(&pair, &p), 5000);
	h_run(&pair, RUN_END_PS);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.misfit_packets, 2);
	ck_assert_uint_eq(s.transport.msgs_arrived, 1);
	ck_assert_uint_eq(s.external_msgs_arrived, 1);
	ck_assert_uint_eq(s.transport.pdcs_open, 0);
	finish(&pair, arrivals);
}
END_TEST

/* A CP CLOSE from src for the side numbered dpdcid at NIC 1. */
static struct rte_mbuf *close_frame(struct nic_pair *pair, uint32_t src_ip,
				    uint16_t spdcid, uint16_t dpdcid)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct rte_mbuf *m;
	uint8_t *d;
	int len;

	uet_frame_addr_default(&a);
	a.src_ip = src_ip;
	a.dst_ip = h_ip(1);
	a.dscp = pair->p.dscp.codepoint[UET_DSCP_CONTROL];
	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_CP;
	pds.next_hdr = UET_CP_CLOSE;
	pds.u.cp.spdcid = spdcid;
	pds.u.cp.dpdcid = dpdcid;
	m = rte_pktmbuf_alloc(pair->mp);
	ck_assert_ptr_nonnull(m);
	d = (uint8_t *)rte_pktmbuf_append(m, 128);
	ck_assert_ptr_nonnull(d);
	len = uet_frame_build(d, 128, &a, &pds, NULL, NULL, 0);
	ck_assert_int_gt(len, 0);
	ck_assert_int_eq(rte_pktmbuf_trim(m, (uint16_t)(128 - len)), 0);
	return m;
}

/*
 * The closed sides a NIC remembers are ours: 1,100 one-packet messages of
 * the external host, each closed by its CLOSE, then a late duplicate of
 * the first packet of our own message, whose side had closed before them.
 * It is acknowledged from what the NIC remembers and delivers nothing.
 * Before, the external sides pushed ours out of the ring of 1,024, and the
 * duplicate opened a new side and delivered our message a second time.
 */
START_TEST(test_external_closes_keep_our_closed_sides)
{
	struct uet_ses_arrivals *arrivals;
	struct nic_pair pair;
	struct uet_nic_stats s;
	uet_time_t t;
	uint32_t i;

	h_init(&pair);
	ck_assert_int_eq(uet_ses_arrivals_create(&arrivals, 8), 0);
	pair.arrivals = arrivals;
	pair.external_ips = ext_ips;
	pair.external_count = 1;
	pair.keep = true;
	pair.keep_data = 0;
	h_run_one_message(&pair, 4096);
	ck_assert_uint_eq(pair.count[0][H_CLOSE], 1);
	ck_assert_ptr_nonnull(pair.kept);
	t = uet_evq_now(&uet_nic_component(pair.nic[1])->evq) + 1000;
	for (i = 0; i < 1100; i++) {
		struct pkt p = {
			.src_ip = EXT_IP,
			.spdcid = (uint16_t)(1 + i),
			.psn = 1000 * i,
			.syn = true,
			.ar = true,
			.som = true,
			.eom = true,
			.memory_key = 0,
			.request_length = 64,
			.payload_bytes = 64,
		};

		h_deliver(&pair, 1, pkt_frame(&pair, &p), t);
		/* Each side takes the number the last one freed. */
		h_deliver(&pair, 1, close_frame(&pair, EXT_IP, p.spdcid, 1),
			  t + 1000);
		t += 2000;
		h_run(&pair, t);
	}
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.external_msgs_arrived, 1100);
	ck_assert_uint_eq(s.transport.pdcs_open, 0);
	ck_assert_uint_eq(s.transport.pdcs_created, 1101);
	h_deliver(&pair, 1, pair.kept, t + 1000);
	pair.kept = NULL;
	h_run(&pair, RUN_END_PS);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.closed_side_acks, 1);
	ck_assert_uint_eq(s.transport.pdcs_created, 1101);
	ck_assert_uint_eq(s.transport.msgs_arrived, 1101);
	ck_assert_uint_eq(pair.arrived[1], 1);
	finish(&pair, arrivals);
}
END_TEST

/* A frame from the NIC's own address (a message "from" host 1 to itself):
 * no NIC sends to itself, so it is dropped and counted, and opens no
 * PDC. */
START_TEST(test_own_source_dropped)
{
	struct uet_ses_arrivals *arrivals;
	struct uet_nic_stats s;
	struct nic_pair pair;
	struct pkt p = {
		.src_ip = h_ip(1),
		.spdcid = 1,
		.psn = 0,
		.syn = true,
		.ar = true,
		.som = true,
		.eom = true,
		.memory_key = 4,
		.request_length = 64,
		.payload_bytes = 64,
	};

	start(&pair, &arrivals);
	h_deliver(&pair, 1, pkt_frame(&pair, &p), 1000);
	h_run(&pair, RUN_END_PS);
	s = h_stats(&pair, 1);
	ck_assert_uint_eq(s.transport.own_source_frames, 1);
	ck_assert_uint_eq(s.transport.pdcs_created, 0);
	ck_assert_uint_eq(s.transport.msgs_arrived, 0);
	ck_assert_uint_eq(uet_ses_arrivals_get(arrivals, 4), UET_TIME_NEVER);
	ck_assert_uint_eq(pair.count[1][H_ACK], 0);
	finish(&pair, arrivals);
}
END_TEST

static Suite *nic_external_suite(void)
{
	Suite *s = suite_create("nic-external");
	TCase *tc = tcase_create("untrusted");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_syn_flood_bounded_and_reclaimed);
	tcase_add_test(tc, test_external_message_is_not_ours);
	tcase_add_test(tc, test_short_message_does_not_arrive);
	tcase_add_test(tc, test_misfit_packets_dropped);
	tcase_add_test(tc, test_own_source_dropped);
	tcase_add_test(tc, test_external_closes_keep_our_closed_sides);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(nic_external_suite)
