/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The record files byte for byte: headers, rows of each kind, ivl_ per NIC,
 * disabled kinds, folder creation and errors, identical runs.
 */
#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "record_test_dir.h"
#include "uet_record.h"

#define IP(a, b, c, d)                                                         \
	((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 |      \
	 (uint32_t)(d))

#define STATS_HEADER                                                           \
	"time_ps,nic,msgs_posted,msgs_completed,msgs_arrived,pdcs_created,"    \
	"pdcs_closed,data_pkts_sent,data_payload_bytes_sent,retransmits,"      \
	"rto_expiries,acks_sent,acks_received,nacks_sent,nacks_received,"      \
	"probes_sent,probe_acks_received,data_pkts_received,"                  \
	"data_payload_bytes_delivered,duplicates_received,ooo_events,"         \
	"trimmed_received,ingress_drops,malformed_frames,other_frames,"        \
	"stale_packets,own_source_frames,misfit_packets,pdc_exhausted,"        \
	"external_pdcs_refused,late_probe_acks,out_of_window_packets,"         \
	"late_closes,pcie_read_bytes,"                                         \
	"pcie_write_bytes,ivl_msgs_posted,ivl_msgs_completed,"                 \
	"ivl_msgs_arrived,ivl_pdcs_created,ivl_pdcs_closed,"                   \
	"ivl_data_pkts_sent,ivl_data_payload_bytes_sent,ivl_retransmits,"      \
	"ivl_rto_expiries,ivl_acks_sent,ivl_acks_received,ivl_nacks_sent,"     \
	"ivl_nacks_received,ivl_probes_sent,ivl_probe_acks_received,"          \
	"ivl_data_pkts_received,ivl_data_payload_bytes_delivered,"             \
	"ivl_duplicates_received,ivl_ooo_events,ivl_trimmed_received,"         \
	"ivl_ingress_drops,ivl_malformed_frames,ivl_other_frames,"             \
	"ivl_stale_packets,ivl_own_source_frames,ivl_misfit_packets,"          \
	"ivl_pdc_exhausted,ivl_external_pdcs_refused,ivl_late_probe_acks,"     \
	"ivl_out_of_window_packets,ivl_late_closes,"                           \
	"ivl_pcie_read_bytes,"                                                 \
	"ivl_pcie_write_bytes,in_flight_bytes,egress_pool_used_bytes,"         \
	"ingress_pool_used_bytes,pdcs_open\n"
#define EVENTS_HEADER "time_ps,nic,pdc,peer,msg_id,bytes,event\n"
#define MONITOR_HEADER                                                         \
	"time_ps,nic,pdc,dir,pkt,psn,ar,retx,dscp,entropy,wire_bytes,"         \
	"cack_psn,sack_base_psn,sack_bitmap,service_time,nack_code\n"
#define FLOWS_HEADER                                                           \
	"msg_id,src,dst,src_pdc,dst_pdc,bytes,packets,posted_ps,sent_ps,"      \
	"arrived_ps,completed_ps,fct_ps,retransmits,trims,nacks,timeouts\n"

#define N_COUNTERS 33
#define N_GAUGES 4
_Static_assert(sizeof(struct uet_transport_stats) ==
		       (N_COUNTERS + N_GAUGES) * sizeof(uint64_t),
	       "the test fills the stats struct as an array");

static char *path_in(const char *dir, const char *name)
{
	char *p;

	ck_assert_int_gt(asprintf(&p, "%s/%s", dir, name), 0);
	return p;
}

static bool file_exists(const char *dir, const char *name)
{
	char *p = path_in(dir, name);
	bool yes = access(p, F_OK) == 0;

	free(p);
	return yes;
}

/* The whole file as a string (NULL-terminated copy). */
static char *slurp(const char *dir, const char *name)
{
	char *p = path_in(dir, name);
	FILE *f = fopen(p, "rb");
	char *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	ck_assert_int_ge(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	free(p);
	return buf;
}

static void check_file(const char *dir, const char *name, const char *want)
{
	char *got = slurp(dir, name);

	ck_assert_str_eq(got, want);
	free(got);
}

static struct uet_record_conf conf_all(const char *dir)
{
	struct uet_record_conf c = {
		.out_dir = dir,
		.transport_stats = true,
		.stats_interval_ps = 10 * UET_PS_PER_US,
		.events = true,
		.monitor = true,
		.flows = true,
	};
	return c;
}

START_TEST(test_headers_written_at_open)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec = NULL;

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_ptr_nonnull(rec);
	/* On disk already, before close, under the temporary name: a cut
	 * run still has headers, and no file passes for a whole one. */
	check_file(dir, "uet-transport-stats.csv.partial", STATS_HEADER);
	check_file(dir, "uet-events.csv.partial", EVENTS_HEADER);
	check_file(dir, "uet-monitor.csv.partial", MONITOR_HEADER);
	check_file(dir, "flows.csv.partial", FLOWS_HEADER);
	ck_assert(!file_exists(dir, "flows.csv"));
	ck_assert_uint_eq(uet_record_stats_interval_ps(rec),
			  10 * UET_PS_PER_US);
	ck_assert_int_eq(uet_record_close(rec), 0);
	/* Whole: renamed to its name. */
	check_file(dir, "flows.csv", FLOWS_HEADER);
	ck_assert(!file_exists(dir, "flows.csv.partial"));
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_event_rows_exact)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec;
	struct uet_event_row r = {
		.time_ps = 0,
		.nic_ip = IP(10, 0, 0, 1),
		.pdc = 7,
		.peer_ip = IP(10, 0, 1, 255),
		.msg_id = 42,
		.bytes = 1048576,
		.kind = UET_EV_MSG_POSTED,
	};
	enum uet_event_kind k;

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	for (k = UET_EV_PDC_CREATED; k < UET_EV_KIND_COUNT; k++) {
		r.kind = k;
		r.time_ps = 84040 * (uint64_t)k;
		ck_assert_int_eq(uet_record_event(rec, &r), 0);
	}
	ck_assert_int_eq(uet_record_close(rec), 0);
	check_file(dir, "uet-events.csv",
		   EVENTS_HEADER
		   "0,10.0.0.1,7,10.0.1.255,42,1048576,pdc_created\n"
		   "84040,10.0.0.1,7,10.0.1.255,42,1048576,pdc_closed\n"
		   "168080,10.0.0.1,7,10.0.1.255,42,1048576,msg_posted\n"
		   "252120,10.0.0.1,7,10.0.1.255,42,1048576,msg_sent\n"
		   "336160,10.0.0.1,7,10.0.1.255,42,1048576,msg_arrived\n"
		   "420200,10.0.0.1,7,10.0.1.255,42,1048576,msg_completed\n");
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_monitor_columns_per_packet_kind)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec;
	/* Every field set, so empty cells show what the kind leaves out. */
	struct uet_monitor_row r = {
		.time_ps = UINT64_C(18446744073709551615),
		.nic_ip = IP(192, 168, 0, 2),
		.pdc = 65535,
		.tx = true,
		.psn = 4294967295u,
		.ar = true,
		.retx = false,
		.dscp = 46,
		.entropy = 65535,
		.wire_bytes = 4202,
		.cack_psn = 100,
		.sack_base_psn = 101,
		.sack_bitmap = UINT64_C(0x8000000000000005),
		.service_time = 3,
		.nack_code = 2,
	};

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert(uet_record_monitor_on(rec));
	r.pkt = UET_MON_DATA;
	ck_assert_int_eq(uet_record_monitor(rec, &r), 0);
	r.pkt = UET_MON_ACK;
	r.tx = false;
	ck_assert_int_eq(uet_record_monitor(rec, &r), 0);
	r.pkt = UET_MON_NACK;
	ck_assert_int_eq(uet_record_monitor(rec, &r), 0);
	r.pkt = UET_MON_PROBE;
	r.tx = true;
	ck_assert_int_eq(uet_record_monitor(rec, &r), 0);
	r.pkt = UET_MON_TRIMMED;
	r.ar = false;
	r.retx = true;
	r.tx = false;
	r.time_ps = 0;
	r.sack_bitmap = 0;
	ck_assert_int_eq(uet_record_monitor(rec, &r), 0);
	r.pkt = UET_MON_ACK;
	ck_assert_int_eq(uet_record_monitor(rec, &r), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	check_file(dir, "uet-monitor.csv",
		   MONITOR_HEADER
		   "18446744073709551615,192.168.0.2,65535,tx,data,"
		   "4294967295,1,0,46,65535,4202,,,,,\n"
		   "18446744073709551615,192.168.0.2,65535,rx,ack,"
		   ",,,46,65535,4202,100,101,0x8000000000000005,3,\n"
		   "18446744073709551615,192.168.0.2,65535,rx,nack,"
		   "4294967295,,,46,65535,4202,,,,,2\n"
		   "18446744073709551615,192.168.0.2,65535,tx,probe,"
		   ",,,46,65535,4202,,,,,\n"
		   "0,192.168.0.2,65535,rx,trimmed,"
		   "4294967295,0,1,46,65535,4202,,,,,\n"
		   "0,192.168.0.2,65535,rx,ack,"
		   ",,,46,65535,4202,100,101,0x0000000000000000,3,\n");
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_cc_trace_rows_exact)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = {.out_dir = dir, .cc_trace = true};
	struct uet_record *rec;
	struct uet_cc_trace_row r = {
		.time_ps = 1584040,
		.nic_ip = 0xc6120002,
		.peer_ip = 0xc6120001,
		.event = "ack",
		.reason = "fair_inc",
		.window_bytes = 300000,
		.in_flight_bytes = 4184,
		.base_rtt_ps = 4000000,
		.delay_ps = 66371,
	};

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert(uet_record_cc_trace_on(rec));
	ck_assert(!uet_record_flows_on(rec));
	ck_assert_int_eq(uet_record_cc_trace(rec, &r), 0);
	r.event = "timeout";
	r.reason = "timeout";
	r.window_bytes = 295816;
	ck_assert_int_eq(uet_record_cc_trace(rec, &r), 0);
	ck_assert_int_eq(uet_record_cc_trace(rec, NULL), -EINVAL);
	ck_assert_int_eq(uet_record_close(rec), 0);
	check_file(dir, "uet-cc-trace.csv",
		   "time_ps,nic,peer,event,reason,window_bytes,"
		   "in_flight_bytes,base_rtt_ps,delay_ps\n"
		   "1584040,198.18.0.2,198.18.0.1,ack,fair_inc,300000,4184,"
		   "4000000,66371\n"
		   "1584040,198.18.0.2,198.18.0.1,timeout,timeout,295816,4184,"
		   "4000000,66371\n");
	/* Off: no file, and a row is accepted and dropped. */
	record_test_dir_remove(dir);
	dir = record_test_dir("uetrec");
	c.out_dir = dir;
	c.cc_trace = false;
	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_cc_trace(rec, &r), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	ck_assert(!file_exists(dir, "uet-cc-trace.csv"));
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_wl_message_rows_exact)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = {.out_dir = dir, .workload = true};
	struct uet_record *rec;
	struct uet_wl_message_row r = {
		.msg_id = 9,
		.src_rank = 7,
		.dst_rank = 0,
		.bytes = 1048576,
		.origin = 13,
		.posted_ps = 16095495,
		.sent_ps = 37698375,
		.arrived_ps = 38868935,
	};

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_wl_message(rec, &r), 0);
	/* Never arrived: empty arrival and duration. */
	r.msg_id = 10;
	r.sent_ps = UET_TIME_NEVER;
	r.arrived_ps = UET_TIME_NEVER;
	ck_assert_int_eq(uet_record_wl_message(rec, &r), 0);
	ck_assert_int_eq(uet_record_wl_message(rec, NULL), -EINVAL);
	ck_assert_int_eq(uet_record_close(rec), 0);
	check_file(dir, "workload-messages.csv",
		   "msg_id,src_rank,dst_rank,bytes,origin,posted_ps,sent_ps,"
		   "arrived_ps,duration_ps\n"
		   "9,7,0,1048576,13,16095495,37698375,38868935,22773440\n"
		   "10,7,0,1048576,13,16095495,,,\n");
	record_test_dir_remove(dir);
	/* Off with the workload record: no file, nothing written. */
	dir = record_test_dir("uetrec");
	c.out_dir = dir;
	c.workload = false;
	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_wl_message(rec, &r), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	ck_assert(!file_exists(dir, "workload-messages.csv"));
	record_test_dir_remove(dir);
}
END_TEST

/* The switch records: the line builder gives the text printf gave (a
 * row of a PFC run, values as uet-emu wrote them). */
START_TEST(test_switch_rows_exact)
{
	char *dir = record_test_dir("uetrec");
	char *stats = path_in(dir, "switch-stats.csv");
	char *occ = path_in(dir, "switch-occupancy.csv");
	const uint64_t tc_bytes[3] = {174656, 0, 62};
	struct uet_record_file *f;
	struct uet_switch_stats_row r = {
		.time_ps = 472536962,
		.switch_name = "switch",
		.port = 0,
		.link = "host0",
		.peer_switch = "",
		.rate_bps = 400000000000,
		.enq_frames = 2048,
		.enq_bytes = 8605696,
		.ecn_frames = 462,
		.paused_ps = 82110478,
		.peak_queue_bytes = 865612,
		.mean_queue_bytes = 174656,
	};
	struct uet_switch_occ_row o = {
		.time_ps = 1000000,
		.switch_name = "leaf0",
		.port = 18,
		.link = "leaf0-spine2",
		.queue_bytes = 174718,
		.tc_bytes = tc_bytes,
	};

	ck_assert_int_eq(uet_record_switch_stats_open(&f, stats), 0);
	r.has_rx_drops = true;
	r.rx_drop_route_frames = 1;
	r.rx_drop_control_frames = 2;
	r.rx_drop_source_frames = 3;
	r.rx_drop_lost_frames = 4;
	r.rx_drop_random_frames = 5;
	ck_assert_int_eq(uet_record_switch_stats(f, &r), 0);
	r.has_rx_drops = false;
	r.switch_name = "leaf0";
	r.port = 18;
	r.link = "leaf0-spine2";
	r.peer_switch = "spine2";
	r.link_down = true;
	r.tc = 2;
	r.down_drop_frames = 9;
	r.down_drop_bytes = 702;
	ck_assert_int_eq(uet_record_switch_stats(f, &r), 0);
	ck_assert_int_eq(uet_record_switch_stats(f, NULL), -EINVAL);
	ck_assert_int_eq(uet_record_file_close(f), 0);
	check_file(dir, "switch-stats.csv",
		   "time_ps,switch,port,link,peer_switch,link_down,rate_bps,"
		   "tc,enq_frames,enq_bytes,drop_frames,drop_bytes,"
		   "trim_frames,ecn_frames,down_drop_frames,down_drop_bytes,"
		   "paused_ps,peak_queue_bytes,mean_queue_bytes,"
		   "rx_drop_route_frames,rx_drop_control_frames,"
		   "rx_drop_source_frames,rx_drop_lost_frames,"
		   "rx_drop_random_frames\n"
		   "472536962,switch,0,host0,,0,400000000000,0,2048,8605696,"
		   "0,0,0,462,0,0,82110478,865612,174656,1,2,3,4,5\n"
		   "472536962,leaf0,18,leaf0-spine2,spine2,1,400000000000,2,"
		   "2048,8605696,0,0,0,462,9,702,82110478,865612,174656,,,,,"
		   "\n");
	ck_assert_int_eq(uet_record_switch_occ_open(&f, occ, 3), 0);
	ck_assert_int_eq(uet_record_switch_occ(f, &o), 0);
	o.tc_bytes = NULL;
	ck_assert_int_eq(uet_record_switch_occ(f, &o), -EINVAL);
	ck_assert_int_eq(uet_record_file_close(f), 0);
	check_file(dir, "switch-occupancy.csv",
		   "time_ps,switch,port,link,queue_bytes,tc0_bytes,tc1_bytes,"
		   "tc2_bytes\n"
		   "1000000,leaf0,18,leaf0-spine2,174718,174656,0,62\n");
	ck_assert_int_eq(uet_record_file_close(NULL), 0);
	free(stats);
	free(occ);
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_workload_rows_exact)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = {.out_dir = dir, .workload = true};
	struct uet_record *rec;
	struct uet_workload_row r = {
		.rank = 2,
		.begin_ps = 0,
		.end_ps = 103762570,
	};

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert(uet_record_workload_on(rec));
	ck_assert(!uet_record_flows_on(rec));
	ck_assert_int_eq(uet_record_workload(rec, &r), 0);
	r.collective = true;
	r.coll = 0;
	r.name = "all_reduce, 1 \"MB\"";
	r.type = "all_reduce";
	r.bytes = 1048576;
	r.begin_ps = 5000;
	ck_assert_int_eq(uet_record_workload(rec, &r), 0);
	/* Not finished: empty end and duration. */
	r.coll = 1;
	r.end_ps = UET_TIME_NEVER;
	ck_assert_int_eq(uet_record_workload(rec, &r), 0);
	ck_assert_int_eq(uet_record_workload(rec, NULL), -EINVAL);
	ck_assert_int_eq(uet_record_close(rec), 0);
	check_file(dir, "workload.csv",
		   "rank,what,coll,name,type,bytes,begin_ps,end_ps,"
		   "duration_ps\n"
		   "2,trace,,,,,0,103762570,103762570\n"
		   "2,collective,0,all_reduce__1__MB_,all_reduce,1048576,"
		   "5000,103762570,103757570\n"
		   "2,collective,1,all_reduce__1__MB_,all_reduce,1048576,"
		   "5000,,\n");
	ck_assert(!file_exists(dir, "flows.csv"));
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_flow_rows_exact_fct_is_completed_minus_posted)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec;
	struct uet_flow_row r = {
		.msg_id = 3,
		.src_ip = IP(10, 1, 2, 3),
		.dst_ip = IP(10, 4, 5, 6),
		.src_pdc = 1,
		.dst_pdc = 9,
		.bytes = 8192,
		.packets = 2,
		.posted_ps = 1000000,
		.sent_ps = 1300000,
		.arrived_ps = 2100000,
		.completed_ps = 3084040,
		.retransmits = 1,
		.trims = 2,
		.nacks = 3,
		.timeouts = 4,
	};

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_flow(rec, &r), 0);
	/* A completion that never came: empty cells, no fct. */
	r.msg_id = 4;
	r.arrived_ps = UET_TIME_NEVER;
	r.completed_ps = UET_TIME_NEVER;
	ck_assert_int_eq(uet_record_flow(rec, &r), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	check_file(dir, "flows.csv",
		   FLOWS_HEADER
		   "3,10.1.2.3,10.4.5.6,1,9,8192,2,1000000,1300000,2100000,"
		   "3084040,2084040,1,2,3,4\n"
		   "4,10.1.2.3,10.4.5.6,1,9,8192,2,1000000,1300000,,,,"
		   "1,2,3,4\n");
	record_test_dir_remove(dir);
}
END_TEST

static void fill_stats(struct uet_transport_stats *s, uint64_t base)
{
	uint64_t v[N_COUNTERS + N_GAUGES];
	int i;

	for (i = 0; i < N_COUNTERS + N_GAUGES; i++)
		v[i] = base * (uint64_t)(i + 1);
	memcpy(s, v, sizeof(*s));
}

/* The expected row: cumulative, then cumulative minus prev, then gauges. */
static void stats_line(char *out, size_t len, uint64_t t, const char *nic,
		       const struct uet_transport_stats *s,
		       const struct uet_transport_stats *prev)
{
	uint64_t v[N_COUNTERS + N_GAUGES], p[N_COUNTERS + N_GAUGES];
	size_t n;
	int i;

	memcpy(v, s, sizeof(v));
	memcpy(p, prev, sizeof(p));
	n = (size_t)snprintf(out, len, "%" PRIu64 ",%s", t, nic);
	for (i = 0; i < N_COUNTERS; i++)
		n += (size_t)snprintf(out + n, len - n, ",%" PRIu64, v[i]);
	for (i = 0; i < N_COUNTERS; i++)
		n += (size_t)snprintf(out + n, len - n, ",%" PRIu64,
				      v[i] - p[i]);
	for (i = N_COUNTERS; i < N_COUNTERS + N_GAUGES; i++)
		n += (size_t)snprintf(out + n, len - n, ",%" PRIu64, v[i]);
	snprintf(out + n, len - n, "\n");
}

START_TEST(test_stats_first_row_ivl_equals_cumulative)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec;
	struct uet_transport_stats s;

	fill_stats(&s, 1);
	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(
		uet_record_transport_stats(rec, 10000000, IP(10, 0, 0, 1), &s),
		0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	/* Written out in full once, to pin the column order. */
	check_file(dir, "uet-transport-stats.csv",
		   STATS_HEADER
		   "10000000,10.0.0.1,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,"
		   "17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,1,2,3,"
		   "4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,"
		   "25,26,27,28,29,30,31,32,33,34,35,36,37\n");
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_stats_ivl_per_nic_interleaved)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec;
	struct uet_transport_stats a1, a2, a3, b1, b2, zero;
	const uint32_t ip_a = IP(10, 0, 0, 2), ip_b = IP(10, 0, 0, 1);
	char want[8192], line[2048];

	memset(&zero, 0, sizeof(zero));
	fill_stats(&a1, 10);
	fill_stats(&a2, 15);
	fill_stats(&a3, 15); /* an interval with nothing new */
	fill_stats(&b1, 1000);
	fill_stats(&b2, 3000);
	a3.pdcs_open = 0; /* gauges may fall */
	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_transport_stats(rec, 1, ip_a, &a1), 0);
	ck_assert_int_eq(uet_record_transport_stats(rec, 1, ip_b, &b1), 0);
	ck_assert_int_eq(uet_record_transport_stats(rec, 2, ip_a, &a2), 0);
	ck_assert_int_eq(uet_record_transport_stats(rec, 2, ip_b, &b2), 0);
	ck_assert_int_eq(uet_record_transport_stats(rec, 3, ip_a, &a3), 0);
	/* A counter that went down: refused, nothing written, and the next
	 * row still counts from the last good one. */
	ck_assert_int_eq(uet_record_transport_stats(rec, 3, ip_b, &b1),
			 -EINVAL);
	ck_assert_int_eq(uet_record_transport_stats(rec, 3, ip_b, &b2), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);

	strcpy(want, STATS_HEADER);
	stats_line(line, sizeof(line), 1, "10.0.0.2", &a1, &zero);
	strcat(want, line);
	stats_line(line, sizeof(line), 1, "10.0.0.1", &b1, &zero);
	strcat(want, line);
	stats_line(line, sizeof(line), 2, "10.0.0.2", &a2, &a1);
	strcat(want, line);
	stats_line(line, sizeof(line), 2, "10.0.0.1", &b2, &b1);
	strcat(want, line);
	stats_line(line, sizeof(line), 3, "10.0.0.2", &a3, &a2);
	strcat(want, line);
	stats_line(line, sizeof(line), 3, "10.0.0.1", &b2, &b2);
	strcat(want, line);
	check_file(dir, "uet-transport-stats.csv", want);
	/* Spot checks that do not go through the helper: A's second row has
	 * ivl_msgs_posted 5 (15 - 10), B's second 2000 (3000 - 1000), each
	 * after its last counter (33 x 15, 33 x 3000). */
	ck_assert_ptr_nonnull(strstr(want, "\n2,10.0.0.2,15,30,"));
	ck_assert_ptr_nonnull(strstr(want, ",495,5,10,15,"));
	ck_assert_ptr_nonnull(strstr(want, ",99000,2000,4000,"));
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_stats_many_nics_each_own_previous)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec;
	struct uet_transport_stats s;
	char *text, *p;
	int round, nic, rows = 0;

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	/* 100 NICs in a scrambled order, so the table grows and inserts in
	 * the middle; each NIC's msgs_posted grows by its own number. */
	for (round = 1; round <= 3; round++) {
		for (nic = 0; nic < 100; nic++) {
			uint32_t host = (uint32_t)(nic * 37 % 100) + 1;

			memset(&s, 0, sizeof(s));
			s.msgs_posted = (uint64_t)round * host;
			ck_assert_int_eq(
				uet_record_transport_stats(
					rec, (uint64_t)round,
					IP(10, 0, host / 256, host % 256), &s),
				0);
		}
	}
	ck_assert_int_eq(uet_record_close(rec), 0);
	text = slurp(dir, "uet-transport-stats.csv");
	for (p = strchr(text, '\n') + 1; *p != '\0'; p = strchr(p, '\n') + 1) {
		unsigned int t, a, b, cc, d;
		unsigned long long cum, ivl;

		ck_assert_int_eq(sscanf(p, "%u,%u.%u.%u.%u,%llu,", &t, &a, &b,
					&cc, &d, &cum),
				 6);
		/* ivl_msgs_posted is the 34th number after nic. */
		{
			const char *q = p;
			int commas = 0;

			while (commas < 2 + N_COUNTERS)
				commas += *q++ == ',';
			ck_assert_int_eq(sscanf(q, "%llu", &ivl), 1);
		}
		ck_assert_uint_eq(cum, (unsigned long long)t * d);
		ck_assert_uint_eq(ivl, d);
		rows++;
	}
	ck_assert_int_eq(rows, 300);
	free(text);
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_disabled_kinds_create_no_file)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = {.out_dir = dir, .monitor = true};
	struct uet_record *rec;
	struct uet_transport_stats s;
	struct uet_event_row ev = {.kind = UET_EV_MSG_SENT};
	struct uet_flow_row fl = {.msg_id = 1};
	struct uet_monitor_row mon = {.pkt = UET_MON_PROBE, .wire_bytes = 84};

	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert(uet_record_monitor_on(rec));
	ck_assert(!uet_record_transport_stats_on(rec));
	ck_assert(!uet_record_events_on(rec));
	ck_assert(!uet_record_flows_on(rec));
	/* Rows of a kind that is off: accepted, nothing written. */
	ck_assert_int_eq(uet_record_transport_stats(rec, 0, 1, &s), 0);
	ck_assert_int_eq(uet_record_event(rec, &ev), 0);
	ck_assert_int_eq(uet_record_flow(rec, &fl), 0);
	ck_assert_int_eq(uet_record_monitor(rec, &mon), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	ck_assert(!file_exists(dir, "uet-transport-stats.csv"));
	ck_assert(!file_exists(dir, "uet-events.csv"));
	ck_assert(!file_exists(dir, "flows.csv"));
	check_file(dir, "uet-monitor.csv",
		   MONITOR_HEADER "0,0.0.0.0,0,rx,probe,,,,0,0,84,,,,,\n");
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_out_dir_created_with_parents)
{
	char *dir = record_test_dir("uetrec");
	char *deep = path_in(dir, "run//a/b/c/");
	struct uet_record_conf c = conf_all(deep);
	struct uet_record *rec;

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	ck_assert(file_exists(dir, "run/a/b/c/uet-events.csv"));
	/* Again into the existing folder: files are rewritten, not added to. */
	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	check_file(deep, "uet-events.csv", EVENTS_HEADER);
	free(deep);
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_unwritable_folder_clean_error)
{
	char *dir = record_test_dir("uetrec");
	char *file = path_in(dir, "plain-file");
	char *under = path_in(dir, "plain-file/out");
	struct uet_record_conf c = conf_all(under);
	struct uet_record *rec = (struct uet_record *)&c; /* not NULL */
	FILE *f = fopen(file, "w");

	ck_assert_ptr_nonnull(f);
	fclose(f);
	/* A file where a folder should be, at any depth. */
	ck_assert_int_eq(uet_record_open(&rec, &c), -ENOTDIR);
	ck_assert_ptr_null(rec);
	c.out_dir = file;
	ck_assert_int_eq(uet_record_open(&rec, &c), -ENOTDIR);
	ck_assert_ptr_null(rec);
	/* A folder without write permission (root ignores permissions). */
	if (geteuid() != 0) {
		char *ro = path_in(dir, "ro");

		ck_assert_int_eq(mkdir(ro, 0500), 0);
		c.out_dir = ro;
		ck_assert_int_eq(uet_record_open(&rec, &c), -EACCES);
		ck_assert_ptr_null(rec);
		chmod(ro, 0700);
		free(ro);
	}
	c.out_dir = "";
	ck_assert_int_eq(uet_record_open(&rec, &c), -EINVAL);
	c.out_dir = NULL;
	ck_assert_int_eq(uet_record_open(&rec, &c), -EINVAL);
	ck_assert_int_eq(uet_record_open(&rec, NULL), -EINVAL);
	ck_assert_int_eq(uet_record_open(NULL, &c), -EINVAL);
	free(file);
	free(under);
	record_test_dir_remove(dir);
}
END_TEST

START_TEST(test_close_and_flush_on_null)
{
	struct uet_event_row ev = {.kind = UET_EV_MSG_SENT};

	ck_assert_int_eq(uet_record_close(NULL), 0);
	ck_assert_int_eq(uet_record_flush(NULL), 0);
	ck_assert(!uet_record_monitor_on(NULL));
	ck_assert_int_eq(uet_record_event(NULL, &ev), 0);
	ck_assert_uint_eq(uet_record_stats_interval_ps(NULL), 0);
}
END_TEST

START_TEST(test_bad_rows_rejected)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec;
	struct uet_event_row ev = {.kind = UET_EV_KIND_COUNT};
	struct uet_monitor_row mon = {.pkt = UET_MON_PKT_COUNT};

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_event(rec, &ev), -EINVAL);
	ck_assert_int_eq(uet_record_monitor(rec, &mon), -EINVAL);
	ck_assert_int_eq(uet_record_event(rec, NULL), -EINVAL);
	ck_assert_int_eq(uet_record_monitor(rec, NULL), -EINVAL);
	ck_assert_int_eq(uet_record_flow(rec, NULL), -EINVAL);
	ck_assert_int_eq(uet_record_transport_stats(rec, 0, 1, NULL), -EINVAL);
	ck_assert_int_eq(uet_record_close(rec), 0);
	check_file(dir, "uet-events.csv", EVENTS_HEADER);
	check_file(dir, "uet-monitor.csv", MONITOR_HEADER);
	ck_assert_str_eq(uet_event_kind_name(UET_EV_KIND_COUNT), "unknown");
	ck_assert_str_eq(uet_monitor_pkt_name(UET_MON_TRIMMED), "trimmed");
	record_test_dir_remove(dir);
}
END_TEST

/* A fixed sequence of rows of every kind. */
static void write_run(const char *dir, int n)
{
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec;
	struct uet_transport_stats s;
	int i;

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	memset(&s, 0, sizeof(s));
	for (i = 0; i < n; i++) {
		struct uet_monitor_row m = {
			.time_ps = (uint64_t)i * 84040,
			.nic_ip = IP(10, 0, 0, 1 + i % 4),
			.pdc = (uint16_t)i,
			.tx = i % 2,
			.pkt = (enum uet_monitor_pkt)(i % UET_MON_PKT_COUNT),
			.psn = (uint32_t)i,
			.sack_bitmap = (uint64_t)i << 7,
		};
		struct uet_event_row e = {
			.time_ps = (uint64_t)i,
			.kind = (enum uet_event_kind)(i % UET_EV_KIND_COUNT),
		};
		struct uet_flow_row f = {.msg_id = (uint64_t)i};

		ck_assert_int_eq(uet_record_monitor(rec, &m), 0);
		ck_assert_int_eq(uet_record_event(rec, &e), 0);
		ck_assert_int_eq(uet_record_flow(rec, &f), 0);
		if (i % 100 == 0) {
			s.acks_sent += (uint64_t)i;
			ck_assert_int_eq(uet_record_transport_stats(
						 rec, (uint64_t)i,
						 IP(10, 0, 0, 1 + i % 3), &s),
					 0);
		}
	}
	ck_assert_int_eq(uet_record_close(rec), 0);
}

START_TEST(test_identical_runs_identical_bytes)
{
	static const char *const names[] = {"uet-transport-stats.csv",
					    "uet-events.csv", "uet-monitor.csv",
					    "flows.csv"};
	char *d1 = record_test_dir("uetrec"), *d2 = record_test_dir("uetrec");
	size_t i;

	/* Well past one stdio buffer (1 MiB) of monitor rows. */
	write_run(d1, 30000);
	write_run(d2, 30000);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char *a = slurp(d1, names[i]), *b = slurp(d2, names[i]);
		const char *p;
		int lines = 0;

		ck_assert_str_eq(a, b);
		for (p = a; *p != '\0'; p++)
			lines += *p == '\n';
		ck_assert_int_eq(lines, i == 0 ? 1 + 300 : 1 + 30000);
		free(a);
		free(b);
	}
	record_test_dir_remove(d1);
	record_test_dir_remove(d2);
}
END_TEST

/*
 * Views flushed together: a window's event rows of two NICs are written
 * merged by (time, nic), rows of one key in the views' order; flows.csv
 * rows view after view. The file is then already in the order
 * uet_record_order() gives, and the views are empty for the next window.
 */
START_TEST(test_views_flush_merges_a_window_by_time_then_nic)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec, *views[2];
	struct uet_event_row r = {
		.pdc = 1,
		.peer_ip = IP(10, 0, 0, 9),
		.msg_id = 5,
		.bytes = 0,
		.kind = UET_EV_MSG_POSTED,
	};
	/* NIC 10.0.0.2 (view 0) at 300 and 100, then 10.0.0.1 (view 1) at
	 * 100 and 200: as the NICs of two lcores write one window. */
	static const struct {
		int view;
		uint32_t last_octet;
		uet_time_t time_ps;
	} rows[] = {{0, 2, 100},
		    {0, 2, 300},
		    {1, 1, 100},
		    {1, 1, 200},
		    {1, 1, 200}};
	size_t i;

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_view_create(&views[0], rec), 0);
	ck_assert_int_eq(uet_record_view_create(&views[1], rec), 0);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		r.nic_ip = IP(10, 0, 0, rows[i].last_octet);
		r.time_ps = rows[i].time_ps;
		r.msg_id = i;
		ck_assert_int_eq(uet_record_event(views[rows[i].view], &r), 0);
	}
	ck_assert_int_eq(uet_record_views_flush(views, 2), 0);
	/* Emptied: a second flush adds nothing. */
	ck_assert_int_eq(uet_record_views_flush(views, 2), 0);
	ck_assert_int_eq(uet_record_views_flush(views, 0), 0);
	ck_assert_int_eq(uet_record_close(views[0]), 0);
	ck_assert_int_eq(uet_record_close(views[1]), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	check_file(dir, "uet-events.csv",
		   EVENTS_HEADER "100,10.0.0.1,1,10.0.0.9,2,0,msg_posted\n"
				 "100,10.0.0.2,1,10.0.0.9,0,0,msg_posted\n"
				 "200,10.0.0.1,1,10.0.0.9,3,0,msg_posted\n"
				 "200,10.0.0.1,1,10.0.0.9,4,0,msg_posted\n"
				 "300,10.0.0.2,1,10.0.0.9,1,0,msg_posted\n");
	record_test_dir_remove(dir);
}
END_TEST

/* Views of two different records are not flushed together. */
START_TEST(test_views_flush_refuses_views_of_two_parents)
{
	char *dir = record_test_dir("uetrec"),
	     *dir2 = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir), c2 = conf_all(dir2);
	struct uet_record *a, *b, *views[2];

	ck_assert_int_eq(uet_record_open(&a, &c), 0);
	ck_assert_int_eq(uet_record_open(&b, &c2), 0);
	ck_assert_int_eq(uet_record_view_create(&views[0], a), 0);
	ck_assert_int_eq(uet_record_view_create(&views[1], b), 0);
	ck_assert_int_eq(uet_record_views_flush(views, 2), -EINVAL);
	ck_assert_int_eq(uet_record_views_flush(NULL, 2), -EINVAL);
	ck_assert_int_eq(uet_record_close(views[0]), 0);
	ck_assert_int_eq(uet_record_close(views[1]), 0);
	ck_assert_int_eq(uet_record_close(a), 0);
	ck_assert_int_eq(uet_record_close(b), 0);
	record_test_dir_remove(dir);
	record_test_dir_remove(dir2);
}
END_TEST

START_TEST(test_flush_makes_rows_visible)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec;
	struct uet_flow_row f = {
		.msg_id = 5, .posted_ps = 7, .completed_ps = 9};

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_flow(rec, &f), 0);
	/* Buffered: not on disk yet. */
	check_file(dir, "flows.csv.partial", FLOWS_HEADER);
	ck_assert_int_eq(uet_record_flush(rec), 0);
	check_file(dir, "flows.csv.partial",
		   FLOWS_HEADER
		   "5,0.0.0.0,0.0.0.0,0,0,0,0,7,0,0,9,2,0,0,0,0\n");
	ck_assert_int_eq(uet_record_close(rec), 0);
	record_test_dir_remove(dir);
}
END_TEST

/* The file on disk ends where a row ends: its last byte a newline (or
 * nothing written yet). */
static void check_ends_on_row(const char *dir, const char *name)
{
	char *p = path_in(dir, name);
	struct stat st;
	char last = '\n';
	FILE *f;

	ck_assert_int_eq(stat(p, &st), 0);
	if (st.st_size > 0) {
		f = fopen(p, "rb");
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(fseek(f, -1, SEEK_END), 0);
		ck_assert_int_eq(fread(&last, 1, 1, f), 1);
		fclose(f);
	}
	if (last != '\n')
		ck_abort_msg("%s: %lld bytes on disk, the last row cut", name,
			     (long long)st.st_size);
	free(p);
}

/*
 * What a run killed outright (SIGKILL, the OOM killer) leaves: the
 * NAME.partial files end on a whole row at every moment, whether the rows
 * come from the records, from views flushed a window at a time, or to a
 * switch file. 3 MiB of rows pass the 1 MiB held per file more than once.
 * Before, stdio's buffer went to the file whenever it was full, cutting a
 * row at any byte (issue 34, item 5).
 */
START_TEST(test_partial_file_ends_on_a_whole_row)
{
	char *dir = record_test_dir("uetrec");
	char *stats = path_in(dir, "switch-stats.csv");
	struct uet_record_conf c = conf_all(dir);
	struct uet_record *rec, *views[2];
	struct uet_record_file *sw;
	struct uet_flow_row f = {.posted_ps = 7, .completed_ps = 9};
	struct uet_switch_stats_row r = {.switch_name = "leaf0",
					 .link = "leaf0-spine2",
					 .peer_switch = "spine2"};
	uint64_t i;

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_view_create(&views[0], rec), 0);
	ck_assert_int_eq(uet_record_view_create(&views[1], rec), 0);
	ck_assert_int_eq(uet_record_switch_stats_open(&sw, stats), 0);
	for (i = 0; i < 40000; i++) {
		/* Rows of many widths: ids of 1 to 15 digits. */
		f.msg_id = i * 2654435761u % 1000000000000000u;
		f.bytes = i;
		ck_assert_int_eq(uet_record_flow(rec, &f), 0);
		check_ends_on_row(dir, "flows.csv.partial");
		f.posted_ps = i;
		ck_assert_int_eq(uet_record_flow(views[i % 2], &f), 0);
		if (i % 97 == 0) {
			ck_assert_int_eq(uet_record_views_flush(views, 2), 0);
			check_ends_on_row(dir, "flows.csv.partial");
		}
		r.time_ps = i * 1000003u;
		r.enq_bytes = i * i;
		ck_assert_int_eq(uet_record_switch_stats(sw, &r), 0);
		check_ends_on_row(dir, "switch-stats.csv.partial");
	}
	ck_assert_int_eq(uet_record_file_close(sw), 0);
	ck_assert_int_eq(uet_record_close(views[0]), 0);
	ck_assert_int_eq(uet_record_close(views[1]), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	check_ends_on_row(dir, "flows.csv");
	free(stats);
	record_test_dir_remove(dir);
}
END_TEST

/* A write that fails (the file may not grow past 64 KiB here, as a full
 * disk stops it): the flush says so, close too, and neither the file nor
 * its temporary remains, so no reader takes a cut file for a whole one.
 * An earlier run's file of the same name is gone as well. */
START_TEST(test_write_error_leaves_no_file)
{
	char *dir = record_test_dir("uetrec");
	struct uet_record_conf c = conf_all(dir);
	struct uet_flow_row f = {.posted_ps = 7, .completed_ps = 9};
	struct rlimit lim = {.rlim_cur = 64 * 1024, .rlim_max = 64 * 1024};
	struct uet_record *rec;
	int i, rc = 0;

	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert_int_eq(uet_record_close(rec), 0);
	ck_assert(file_exists(dir, "flows.csv"));
	/* This test runs in a process of its own (Check forks). */
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
	ck_assert_int_eq(uet_record_open(&rec, &c), 0);
	ck_assert(!file_exists(dir, "flows.csv"));
	for (i = 0; i < 100000 && rc == 0; i++) {
		f.msg_id = (uint64_t)i;
		rc = uet_record_flow(rec, &f);
		if (rc == 0 && i % 1000 == 0)
			rc = uet_record_flush(rec);
	}
	ck_assert_int_eq(rc, -EFBIG);
	ck_assert_int_lt(uet_record_close(rec), 0);
	ck_assert(!file_exists(dir, "flows.csv"));
	ck_assert(!file_exists(dir, "flows.csv.partial"));
	/* The other files were small enough: whole. */
	check_file(dir, "uet-events.csv", EVENTS_HEADER);
	record_test_dir_remove(dir);
}
END_TEST

static Suite *record_csv_suite(void)
{
	Suite *s = suite_create("record_csv");
	TCase *tc = tcase_create("csv");

	/* Room for ASan on a loaded machine; a hang guard only. */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_headers_written_at_open);
	tcase_add_test(tc, test_event_rows_exact);
	tcase_add_test(tc, test_monitor_columns_per_packet_kind);
	tcase_add_test(tc, test_flow_rows_exact_fct_is_completed_minus_posted);
	tcase_add_test(tc, test_stats_first_row_ivl_equals_cumulative);
	tcase_add_test(tc, test_stats_ivl_per_nic_interleaved);
	tcase_add_test(tc, test_stats_many_nics_each_own_previous);
	tcase_add_test(tc, test_disabled_kinds_create_no_file);
	tcase_add_test(tc, test_out_dir_created_with_parents);
	tcase_add_test(tc, test_unwritable_folder_clean_error);
	tcase_add_test(tc, test_close_and_flush_on_null);
	tcase_add_test(tc, test_bad_rows_rejected);
	tcase_add_test(tc, test_identical_runs_identical_bytes);
	tcase_add_test(tc, test_flush_makes_rows_visible);
	tcase_add_test(tc, test_write_error_leaves_no_file);
	tcase_add_test(tc, test_partial_file_ends_on_a_whole_row);
	tcase_add_test(tc, test_workload_rows_exact);
	tcase_add_test(tc, test_wl_message_rows_exact);
	tcase_add_test(tc, test_cc_trace_rows_exact);
	tcase_add_test(tc, test_switch_rows_exact);
	tcase_add_test(tc, test_views_flush_merges_a_window_by_time_then_nic);
	tcase_add_test(tc, test_views_flush_refuses_views_of_two_parents);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(record_csv_suite)
