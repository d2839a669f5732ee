/* SPDX-License-Identifier: BSD-3-Clause */
/* Captures: virtual-time nanosecond timestamps, byte-exact frames from
 * buffers and multi-segment mbufs, files that survive a kill, tshark reads
 * them, and the pcap PMD replays them through a port. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <check.h>

#include "check_main.h"
#include "drv_test.h"
#include "uet_capture.h"
#include "uet_port.h"

/* Virtual times with sub-microsecond and sub-nanosecond parts, and what the
 * file must hold: seconds and nanoseconds, the sub-ns rest truncated. */
static const struct {
	uet_time_t t_ps;
	uint64_t sec;
	uint64_t nsec;
	uint32_t len;
} frames[] = {
	{0, 0, 0, DRV_TEST_SMALL_BYTES},
	{999, 0, 0, DRV_TEST_SMALL_BYTES},	    /* 0.999 ns -> 0 */
	{1000, 0, 1, DRV_TEST_BIG_BYTES},	    /* 1 ns */
	{123456789, 0, 123456, DRV_TEST_BIG_BYTES}, /* 123.456789 us */
	{1550, 0, 1, 61},			    /* 1.55 ns: page's read */
	{1000000000999ull, 1, 0, 1500},		    /* 1 s + 999 ps */
	{5000000007000ull, 5, 7, DRV_TEST_BIG_BYTES},
	{3600123456789123ull, 3600, 123456789, 9000},
};
#define NB_FRAMES (sizeof(frames) / sizeof(frames[0]))

struct tmp {
	char dir[64];
	char path[128];
};

static void tmp_make(struct tmp *t, const char *file)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/uetdrv_cap_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(t->dir));
	snprintf(t->path, sizeof(t->path), "%s/%s", t->dir, file);
}

static void tmp_remove(struct tmp *t, const char *other)
{
	char p[160];

	unlink(t->path);
	if (other != NULL) {
		snprintf(p, sizeof(p), "%s/%s", t->dir, other);
		unlink(p);
	}
	rmdir(t->dir);
}

static void write_frames(const char *path)
{
	static uint8_t buf[9000];
	struct uet_capture *cap;
	uint32_t i;

	ck_assert_int_eq(uet_capture_open(&cap, path), 0);
	for (i = 0; i < NB_FRAMES; i++) {
		drv_test_fill(buf, 0, i, frames[i].len);
		ck_assert_int_eq(uet_capture_write(cap, frames[i].t_ps, buf,
						   frames[i].len),
				 0);
	}
	ck_assert_uint_eq(uet_capture_frames(cap), NB_FRAMES);
	ck_assert_int_eq(uet_capture_close(cap), 0);
}

/* Read path back and check it holds the first n frames of the table. */
static void check_file(const char *path, uint32_t n)
{
	struct uet_capture_reader *r;
	struct uet_capture_frame f;
	uint32_t i, j;

	ck_assert_int_eq(uet_capture_reader_open(&r, path), 0);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(uet_capture_reader_next(r, &f), 1);
		ck_assert_uint_eq(f.time_ps, (frames[i].sec * 1000000000ull +
					      frames[i].nsec) *
						     1000u);
		ck_assert_uint_eq(f.len_bytes, frames[i].len);
		ck_assert_uint_eq(f.caplen_bytes, frames[i].len);
		for (j = 0; j < f.caplen_bytes; j++)
			if (f.data[j] != drv_test_byte(0, i, frames[i].len, j))
				ck_abort_msg("frame %u byte %u differs", i, j);
	}
	ck_assert_int_eq(uet_capture_reader_next(r, &f), 0);
	uet_capture_reader_close(r);
}

START_TEST(test_capture_truncates_to_ns_and_keeps_bytes)
{
	struct tmp t;

	tmp_make(&t, "a.pcap");
	write_frames(t.path);
	check_file(t.path, NB_FRAMES);
	tmp_remove(&t, NULL);
}
END_TEST

START_TEST(test_capture_header_is_ethernet_nanosecond_pcap)
{
	struct tmp t;
	uint8_t hdr[24];
	FILE *f;

	tmp_make(&t, "h.pcap");
	write_frames(t.path);
	f = fopen(t.path, "rb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fread(hdr, 1, sizeof(hdr), f), sizeof(hdr));
	fclose(f);
	/* Nanosecond pcap magic 0xa1b23c4d (host order, little-endian),
	 * snap length 65535, link type 1 (Ethernet). */
	ck_assert_uint_eq(hdr[0] | hdr[1] << 8 | hdr[2] << 16 |
				  (uint32_t)hdr[3] << 24,
			  0xa1b23c4du);
	ck_assert_uint_eq(hdr[16] | hdr[17] << 8, 65535);
	ck_assert_uint_eq(hdr[20], 1);
	tmp_remove(&t, NULL);
}
END_TEST

START_TEST(test_tshark_reads_exact_ns_timestamps)
{
	const char *tshark = getenv("UET_TSHARK");
	char cmd[512], line[256], want[256];
	struct tmp t;
	uint32_t i = 0;
	FILE *p;

	if (tshark == NULL)
		tshark = "tshark";
	tmp_make(&t, "ts.pcap");
	write_frames(t.path);
	snprintf(cmd, sizeof(cmd),
		 "%s -r %s -T fields -e frame.time_epoch -e frame.len "
		 "-e frame.cap_len 2>/dev/null",
		 tshark, t.path);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (fgets(line, sizeof(line), p) != NULL) {
		ck_assert_uint_lt(i, NB_FRAMES);
		snprintf(want, sizeof(want),
			 "%" PRIu64 ".%09" PRIu64 "\t%u\t%u\n", frames[i].sec,
			 frames[i].nsec, frames[i].len, frames[i].len);
		ck_assert_str_eq(line, want);
		i++;
	}
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_uint_eq(i, NB_FRAMES);
	tmp_remove(&t, NULL);
}
END_TEST

/* Frames written before the kill: three buffers' worth of 9,000 bytes. */
#define KILL_FRAMES (3u * UET_CAPTURE_BUFFER_BYTES / 9000u)

START_TEST(test_capture_is_whole_after_the_writer_is_killed)
{
	static uint8_t buf[9000];
	struct uet_capture_reader *r;
	struct uet_capture_frame f;
	uint32_t n = 0, j;
	struct tmp t;
	pid_t pid;
	int status, rc;

	tmp_make(&t, "k.pcap");
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct uet_capture *cap;
		uint32_t i;

		if (uet_capture_open(&cap, t.path) != 0)
			_exit(2);
		for (i = 0; i < KILL_FRAMES; i++) {
			drv_test_fill(buf, 0, i, sizeof(buf));
			if (uet_capture_write(cap, i, buf, sizeof(buf)) != 0)
				_exit(3);
		}
		/* No close: the process dies with the capture open. */
		raise(SIGKILL);
		_exit(4);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSIGNALED(status));
	ck_assert_int_eq(WTERMSIG(status), SIGKILL);
	/* Under its temporary name (never closed, so never renamed); frames
	 * leave in bulk, so the last buffer's are lost, but what reached
	 * the file is whole frames: it reads to its end without damage. */
	ck_assert_int_ne(access(t.path, F_OK), 0);
	strcat(t.path, ".partial");
	ck_assert_int_eq(uet_capture_reader_open(&r, t.path), 0);
	while ((rc = uet_capture_reader_next(r, &f)) == 1) {
		ck_assert_uint_eq(f.time_ps, 0); /* i ps: under 1 ns */
		ck_assert_uint_eq(f.len_bytes, sizeof(buf));
		for (j = 0; j < f.caplen_bytes; j++)
			if (f.data[j] != drv_test_byte(0, n, sizeof(buf), j))
				ck_abort_msg("frame %u byte %u differs", n, j);
		n++;
	}
	ck_assert_int_eq(rc, 0);
	uet_capture_reader_close(r);
	/* At least the first two buffers' frames, never all of them. */
	ck_assert_uint_ge(n,
			  2u * UET_CAPTURE_BUFFER_BYTES / (9000u + 16u) - 1u);
	ck_assert_uint_lt(n, KILL_FRAMES);
	tmp_remove(&t, NULL);
}
END_TEST

START_TEST(test_capture_linearises_multi_segment_mbufs)
{
	struct uet_capture_reader *r;
	struct uet_capture_frame f;
	struct uet_capture *cap;
	struct rte_mempool *mp;
	struct rte_mbuf *head, *seg;
	const uint32_t seg_bytes[3] = {14, 2000, 2188}; /* 4,202 in all */
	uint32_t i, j, off = 0;
	struct tmp t;

	uet_test_eal("uetdrv", "capmbuf");
	mp = uet_test_pool("cap_pool", 63);
	head = NULL;
	for (i = 0; i < 3; i++) {
		uint8_t *p;

		seg = rte_pktmbuf_alloc(mp);
		ck_assert_ptr_nonnull(seg);
		p = (uint8_t *)rte_pktmbuf_append(seg, (uint16_t)seg_bytes[i]);
		ck_assert_ptr_nonnull(p);
		for (j = 0; j < seg_bytes[i]; j++, off++)
			p[j] = drv_test_byte(0, 9, DRV_TEST_BIG_BYTES, off);
		if (head == NULL)
			head = seg;
		else
			ck_assert_int_eq(rte_pktmbuf_chain(head, seg), 0);
	}
	ck_assert_uint_eq(head->nb_segs, 3);
	ck_assert_uint_eq(head->pkt_len, DRV_TEST_BIG_BYTES);

	tmp_make(&t, "m.pcap");
	ck_assert_int_eq(uet_capture_open(&cap, t.path), 0);
	ck_assert_int_eq(uet_capture_write_mbuf(cap, 84040, head), 0);
	/* A one-segment mbuf too (written straight from the mbuf). */
	seg = drv_test_mbuf(mp, 1, 10, DRV_TEST_SMALL_BYTES);
	ck_assert_int_eq(uet_capture_write_mbuf(cap, 69290, seg), 0);
	ck_assert_int_eq(uet_capture_close(cap), 0);

	ck_assert_int_eq(uet_capture_reader_open(&r, t.path), 0);
	ck_assert_int_eq(uet_capture_reader_next(r, &f), 1);
	ck_assert_uint_eq(f.time_ps, 84000); /* 84.04 ns -> 84 ns */
	ck_assert_uint_eq(f.len_bytes, DRV_TEST_BIG_BYTES);
	ck_assert_uint_eq(f.caplen_bytes, DRV_TEST_BIG_BYTES);
	for (j = 0; j < DRV_TEST_BIG_BYTES; j++)
		if (f.data[j] != drv_test_byte(0, 9, DRV_TEST_BIG_BYTES, j))
			ck_abort_msg("byte %u differs", j);
	ck_assert_int_eq(uet_capture_reader_next(r, &f), 1);
	ck_assert_uint_eq(f.time_ps, 69000);
	ck_assert_uint_eq(f.len_bytes, DRV_TEST_SMALL_BYTES);
	ck_assert_mem_eq(f.data, rte_pktmbuf_mtod(seg, uint8_t *),
			 DRV_TEST_SMALL_BYTES);
	ck_assert_int_eq(uet_capture_reader_next(r, &f), 0);
	uet_capture_reader_close(r);

	/* The capture did not take or free the mbufs. */
	ck_assert_uint_eq(rte_mempool_in_use_count(mp), 4);
	rte_pktmbuf_free(head);
	rte_pktmbuf_free(seg);
	rte_mempool_free(mp);
	tmp_remove(&t, NULL);
}
END_TEST

START_TEST(test_capture_rejects_bad_arguments)
{
	struct uet_capture_reader *r = NULL;
	struct uet_capture *cap = NULL;

	ck_assert_int_eq(uet_capture_open(&cap, NULL), -EINVAL);
	ck_assert_int_eq(uet_capture_open(&cap, "/nonexistent/dir/x.pcap"),
			 -ENOENT);
	ck_assert_ptr_null(cap);
	ck_assert_int_eq(uet_capture_reader_open(&r, "/nonexistent/x.pcap"),
			 -EIO);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(uet_capture_close(NULL), 0);
	uet_capture_reader_close(NULL);
}
END_TEST

START_TEST(test_pcap_vdev_replays_a_capture_through_a_port)
{
	struct uet_port_conf conf = {0};
	struct uet_capture_reader *r;
	struct uet_capture_frame f;
	struct rte_mbuf *pkts[32];
	char devargs[512], out[160];
	struct uet_port *port;
	struct rte_mempool *mp;
	uint32_t got = 0, i;
	uint64_t deadline_ms;
	struct tmp t;

	tmp_make(&t, "in.pcap");
	write_frames(t.path);
	snprintf(out, sizeof(out), "%s/out.pcap", t.dir);
	uet_test_eal("uetdrv", "pcapvdev");
	mp = uet_test_pool("pcap_pool", 255);
	conf.pool = mp;
	snprintf(devargs, sizeof(devargs), "net_pcap0,rx_pcap=%s,tx_pcap=%s",
		 t.path, out);
	ck_assert_int_eq(uet_port_open(&port, devargs, &conf), 0);
	ck_assert_str_eq(uet_port_name(port), "net_pcap0");
	deadline_ms = drv_test_ms() + 5000;
	while (got < NB_FRAMES && drv_test_ms() < deadline_ms) {
		uint16_t nb = uet_port_rx_burst(port, pkts, 32);

		for (i = 0; i < nb; i++, got++)
			drv_test_check(pkts[i], 0, got, frames[got].len);
		/* Send them straight back out into out.pcap. */
		ck_assert_int_eq(uet_port_tx_all(port, pkts, nb, 1000), nb);
	}
	ck_assert_uint_eq(got, NB_FRAMES);
	uet_port_close(port);
	/* The vdev was removed: the name can be probed again. */
	ck_assert_int_eq(uet_port_open(&port, devargs, &conf), 0);
	uet_port_close(port);
	ck_assert_uint_eq(rte_mempool_in_use_count(mp), 0);
	rte_mempool_free(mp);

	/* The second open truncated out.pcap; it is a valid, empty pcap. */
	ck_assert_int_eq(uet_capture_reader_open(&r, out), 0);
	ck_assert_int_eq(uet_capture_reader_next(r, &f), 0);
	uet_capture_reader_close(r);
	tmp_remove(&t, "out.pcap");
}
END_TEST

static Suite *capture_suite(void)
{
	Suite *s = suite_create("drivers-capture");
	TCase *tc = tcase_create("capture");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_capture_truncates_to_ns_and_keeps_bytes);
	tcase_add_test(tc, test_capture_header_is_ethernet_nanosecond_pcap);
	tcase_add_test(tc, test_tshark_reads_exact_ns_timestamps);
	tcase_add_test(tc, test_capture_is_whole_after_the_writer_is_killed);
	tcase_add_test(tc, test_capture_linearises_multi_segment_mbufs);
	tcase_add_test(tc, test_capture_rejects_bad_arguments);
	tcase_add_test(tc, test_pcap_vdev_replays_a_capture_through_a_port);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(capture_suite)
