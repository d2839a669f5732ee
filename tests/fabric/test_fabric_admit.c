/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Classification and egress admission: the class of every codepoint under
 * both policies, the class limit and 1.5 times it for trimmable
 * retransmissions, trimming to 62 wire bytes with last-hop marking into
 * TC1, drops of no-trim packets and of trims TC1 cannot hold.
 */
#include "fabric_test.h"

/* Two big frames fill the class: 8,404 bytes. */
#define AT_LIMIT_BYTES (2 * FT_WIRE_BIG)
/* A trimmed frame: 58 bytes, 62 on the wire. */
#define AT_TRIM_WIRE_BYTES 62u

/* The 8-host test fabric under the UET policy with the NICs' default
 * codepoints and a limit of two big frames. */
static void at_conf(struct uet_fabric_conf *conf, bool trimming)
{
	ft_conf(conf);
	conf->queue_limit_bytes = AT_LIMIT_BYTES;
	conf->uet_policy = true;
	conf->trimming = trimming;
	uet_dscp_map_default(&conf->dscp);
}

/* A big data frame from src to host 0 with codepoint dscp. */
static struct rte_mbuf *at_frame(struct ft_env *env, uint32_t src, uint8_t dscp,
				 uint16_t tag)
{
	struct rte_mbuf *m = ft_frame(env, src, 0, FT_PAYLOAD_BIG, tag);

	ck_assert_int_eq(uet_frame_set_dscp(rte_pktmbuf_mtod(m, uint8_t *),
					    rte_pktmbuf_pkt_len(m), dscp),
			 0);
	return m;
}

/* n big frames from hosts 1..n to host 0, all fully received at T0. */
static void at_burst(struct ft_env *env, unsigned int n, const uint8_t *dscp)
{
	for (unsigned int i = 0; i < n; i++)
		ft_deliver(env, (uint16_t)(i + 1),
			   at_frame(env, i + 1, dscp[i], (uint16_t)(i + 1)),
			   FT_T0_PS);
	ft_run(env);
}

START_TEST(test_admission_at_the_limit_then_no_trim_dropped)
{
	struct uet_fabric_conf conf;
	struct ft_env env;
	const uint8_t dscp[3] = {UET_DSCP_DEFAULT_NO_TRIM,
				 UET_DSCP_DEFAULT_NO_TRIM,
				 UET_DSCP_DEFAULT_NO_TRIM};
	struct uet_fabric_port_stats st;

	at_conf(&conf, true);
	ft_open(&env, "limit", &conf);
	at_burst(&env, 3, dscp);
	st = ft_stats(&env, 0);
	/* 4,202 + 4,202 = 8,404 fits exactly; the third is a no-trim
	 * packet, dropped even with trimming on. */
	ck_assert_uint_eq(st.tc[0].enq_frames, 2);
	ck_assert_uint_eq(st.tc[0].peak_queue_bytes, AT_LIMIT_BYTES);
	ck_assert_uint_eq(st.tc[0].drop_frames, 1);
	ck_assert_uint_eq(st.tc[0].drop_bytes, FT_WIRE_BIG);
	ck_assert_uint_eq(st.drop_full_frames, 1);
	ck_assert_uint_eq(st.trim_frames, 0);
	ck_assert_uint_eq(st.tx_frames, 2);
	ck_assert_uint_eq(env.n_out, 2);
	ft_close(&env);
}
END_TEST

START_TEST(test_admission_trimmable_retransmission_to_1_5_times_limit)
{
	struct uet_fabric_conf conf;
	struct ft_env env;
	const uint8_t dscp[4] = {
		UET_DSCP_DEFAULT_TRIMMABLE_RTX, UET_DSCP_DEFAULT_TRIMMABLE_RTX,
		UET_DSCP_DEFAULT_TRIMMABLE_RTX, UET_DSCP_DEFAULT_TRIMMABLE_RTX};
	struct uet_fabric_port_stats st;

	at_conf(&conf, false);
	ft_open(&env, "rtx15", &conf);
	at_burst(&env, 4, dscp);
	st = ft_stats(&env, 0);
	/* 1.5 x 8,404 = 12,606: three frames exactly; the fourth is
	 * dropped (trimming off). */
	ck_assert_uint_eq(st.tc[0].enq_frames, 3);
	ck_assert_uint_eq(st.tc[0].peak_queue_bytes, 3 * FT_WIRE_BIG);
	ck_assert_uint_eq(st.tc[0].drop_frames, 1);
	ck_assert_uint_eq(st.trim_frames, 0);
	ft_close(&env);
}
END_TEST

START_TEST(test_without_uet_policy_no_1_5_times_limit)
{
	struct uet_fabric_conf conf;
	struct ft_env env;
	const uint8_t dscp[3] = {UET_DSCP_DEFAULT_TRIMMABLE_RTX,
				 UET_DSCP_DEFAULT_TRIMMABLE_RTX,
				 UET_DSCP_DEFAULT_TRIMMABLE_RTX};
	struct uet_fabric_port_stats st;

	at_conf(&conf, false);
	conf.uet_policy = false;
	ft_open(&env, "nopolicy", &conf);
	at_burst(&env, 3, dscp);
	st = ft_stats(&env, 0);
	ck_assert_uint_eq(st.tc[0].enq_frames, 2);
	ck_assert_uint_eq(st.tc[0].drop_frames, 1);
	ft_close(&env);
}
END_TEST

START_TEST(test_trim_to_62_wire_bytes_marked_last_hop_in_tc1)
{
	struct uet_fabric_conf conf;
	struct ft_env env;
	const uint8_t dscp[3] = {UET_DSCP_DEFAULT_TRIMMABLE,
				 UET_DSCP_DEFAULT_TRIMMABLE,
				 UET_DSCP_DEFAULT_TRIMMABLE};
	struct uet_fabric_port_stats st;

	at_conf(&conf, true);
	ft_open(&env, "trim", &conf);
	/* Keep the frames to look at them: out() parses and frees them, so
	 * read the trimmed one through the capture of tx counters. */
	at_burst(&env, 3, dscp);
	st = ft_stats(&env, 0);
	ck_assert_uint_eq(st.tc[0].enq_frames, 2);
	ck_assert_uint_eq(st.tc[0].trim_frames, 1);
	ck_assert_uint_eq(st.trim_frames, 1);
	ck_assert_uint_eq(st.tc[1].enq_frames, 1);
	ck_assert_uint_eq(st.tc[1].enq_bytes, AT_TRIM_WIRE_BYTES);
	ck_assert_uint_eq(st.drop_full_frames, 0);
	/* Strict priority: the trimmed header (TC1) leaves right after the
	 * frame on the wire, ahead of the second data frame. */
	ck_assert_uint_eq(env.n_out, 3);
	ft_assert_out(&env, 0, 0, 1, FT_T0_PS + FT_SER_BIG_PS);
	ft_assert_out(&env, 1, 0, 3, FT_T0_PS + FT_SER_BIG_PS + 1240);
	ft_assert_out(&env, 2, 0, 2, FT_T0_PS + 2 * FT_SER_BIG_PS + 1240);
	ck_assert_uint_eq(st.tx_bytes, 2 * FT_WIRE_BIG + AT_TRIM_WIRE_BYTES);
	ft_close(&env);
}
END_TEST

/* The capture hook keeps the bytes of the trimmed frame when it leaves. */
struct at_seen {
	uint8_t buf[128];
	uint32_t len;
};

static void at_capture(void *ctx, uint32_t port, const struct rte_mbuf *m,
		       uet_time_t time_ps, bool to_host)
{
	struct at_seen *seen = ctx;

	(void)port;
	(void)time_ps;
	if (to_host && rte_pktmbuf_pkt_len(m) < sizeof(seen->buf)) {
		seen->len = rte_pktmbuf_pkt_len(m);
		memcpy(seen->buf, rte_pktmbuf_mtod(m, const uint8_t *),
		       seen->len);
	}
}

START_TEST(test_trimmed_frame_ip_44_bytes_dscp_last_hop_checksum_ok)
{
	struct uet_fabric_conf conf;
	struct ft_env env;
	struct at_seen seen = {.len = 0};
	const uint8_t dscp[3] = {UET_DSCP_DEFAULT_TRIMMABLE,
				 UET_DSCP_DEFAULT_TRIMMABLE,
				 UET_DSCP_DEFAULT_TRIMMABLE};
	struct uet_ipv4_hdr ip;

	at_conf(&conf, true);
	ft_open(&env, "trimhdr", &conf);
	uet_fabric_set_capture(env.fab, at_capture, &seen);
	at_burst(&env, 3, dscp);
	ck_assert_uint_eq(seen.len, 58);
	/* The parser checks the header checksum. */
	ck_assert_int_eq(uet_ipv4_parse(seen.buf + UET_ETH_HDR_BYTES,
					seen.len - UET_ETH_HDR_BYTES, &ip,
					NULL),
			 UET_IPV4_HDR_BYTES);
	ck_assert_uint_eq(ip.total_length_bytes, 44);
	ck_assert_uint_eq(ip.dscp, UET_DSCP_DEFAULT_TRIMMED_LASTHOP);
	ck_assert_uint_eq(ip.id, 3);
	ft_close(&env);
}
END_TEST

START_TEST(test_trim_that_tc1_cannot_hold_is_dropped_and_counted)
{
	struct uet_fabric_conf conf;
	struct ft_env env;
	const uint8_t dscp[3] = {UET_DSCP_DEFAULT_TRIMMABLE,
				 UET_DSCP_DEFAULT_TRIMMABLE,
				 UET_DSCP_DEFAULT_TRIMMABLE};
	struct uet_fabric_port_stats st;

	at_conf(&conf, true);
	/* One big frame fits; TC1 cannot hold even one 62-byte header. */
	conf.queue_limit_bytes = FT_WIRE_BIG;
	ft_open(&env, "trimdrop", &conf);
	at_burst(&env, 2, dscp);
	st = ft_stats(&env, 0);
	ck_assert_uint_eq(st.tc[0].enq_frames, 1);
	ck_assert_uint_eq(st.trim_frames, 1);
	ck_assert_uint_eq(st.tc[1].enq_frames, 1);
	ft_close(&env);

	conf.queue_limit_bytes = 61;
	ft_open_pool(&env, &conf);
	ft_deliver(&env, 1, at_frame(&env, 1, UET_DSCP_DEFAULT_TRIMMABLE, 1),
		   FT_T0_PS);
	ft_run(&env);
	st = ft_stats(&env, 0);
	ck_assert_uint_eq(st.trim_frames, 1);
	ck_assert_uint_eq(st.drop_trim_frames, 1);
	ck_assert_uint_eq(st.tc[1].drop_frames, 1);
	ck_assert_uint_eq(st.tc[1].drop_bytes, AT_TRIM_WIRE_BYTES);
	ck_assert_uint_eq(st.drop_full_frames, 1);
	ck_assert_uint_eq(env.n_out, 0);
	ft_close(&env);
}
END_TEST

static Suite *fabric_admit_suite(void)
{
	Suite *s = suite_create("fabric_admit");
	TCase *tc = tcase_create("admit");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_admission_at_the_limit_then_no_trim_dropped);
	tcase_add_test(
		tc, test_admission_trimmable_retransmission_to_1_5_times_limit);
	tcase_add_test(tc, test_without_uet_policy_no_1_5_times_limit);
	tcase_add_test(tc, test_trim_to_62_wire_bytes_marked_last_hop_in_tc1);
	tcase_add_test(
		tc, test_trimmed_frame_ip_44_bytes_dscp_last_hop_checksum_ok);
	tcase_add_test(tc,
		       test_trim_that_tc1_cannot_hold_is_dropped_and_counted);
	suite_add_tcase(s, tc);
	return s;
}

/* EAL starts once a process: in each forked test. */
UET_CHECK_MAIN_FORKED(fabric_admit_suite)
