/* SPDX-License-Identifier: BSD-3-Clause */
/* Queue ports ("DEV@K/N"): two hosts' links on one memif device, one
 * queue pair each, keep their frames apart; the device opens with its
 * first queue and closes with its last; a bad suffix, another PMD, a
 * second count for an open device and a queue taken twice are refused.
 * The server is a child process that echoes each queue's frames back on
 * that queue until told to stop. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/wait.h>

#include <check.h>
#include <rte_cycles.h>

#include "check_main.h"
#include "drv_test.h"
#include "uet_port.h"

#define POOL_MBUFS 511u
#define QUEUES 2u

/* The child: open both queues, echo until a byte comes on fd in. */
static void echo_server_child(const char *dev, int in)
{
	struct uet_port_conf conf = {0};
	struct uet_port *q[QUEUES];
	struct rte_mbuf *pkts[16];
	char prefix[64], args[256];
	uint32_t i;
	char c;

	snprintf(prefix, sizeof(prefix), "uetdrv_memifq_%d", (int)getpid());
	if (uet_eal_init_default(prefix) < 0)
		_exit(10);
	conf.pool =
		uet_port_pool_create("srvq_pool", POOL_MBUFS, SOCKET_ID_ANY);
	if (conf.pool == NULL)
		_exit(11);
	for (i = 0; i < QUEUES; i++) {
		snprintf(args, sizeof(args), "%s@%u/%u", dev, i, QUEUES);
		if (uet_port_open(&q[i], args, &conf) < 0)
			_exit(12);
	}
	if (fcntl(in, F_SETFL, O_NONBLOCK) < 0)
		_exit(13);
	while (read(in, &c, 1) != 1) {
		for (i = 0; i < QUEUES; i++) {
			uint16_t n = uet_port_rx_burst(q[i], pkts, 16);
			uint16_t sent = 0;

			/* The client's ring takes them once it is up. */
			while (sent < n)
				sent += uet_port_tx_burst(q[i], pkts + sent,
							  n - sent);
		}
	}
	for (i = 0; i < QUEUES; i++)
		uet_port_close(q[i]);
	uet_eal_runtime_dir_remove();
	_exit(0);
}

/* A 64-byte frame whose bytes are all tag. */
static struct rte_mbuf *tagged_frame(struct rte_mempool *mp, uint8_t tag)
{
	struct rte_mbuf *m = rte_pktmbuf_alloc(mp);
	char *d;

	ck_assert_ptr_nonnull(m);
	d = rte_pktmbuf_append(m, 64);
	ck_assert_ptr_nonnull(d);
	memset(d, tag, 64);
	return m;
}

/* The tags of what queue port p receives (at most 8): until want came
 * (or 2 s passed), then 50 ms more for any that should not come. */
static uint32_t receive_tags(struct uet_port *p, uint8_t *tags, uint32_t want)
{
	const uint64_t hz = rte_get_timer_hz();
	uint64_t end = rte_get_timer_cycles() + 2 * hz;
	bool extra = false;
	struct rte_mbuf *m;
	uint32_t n = 0;

	while (n < 8) {
		if (rte_get_timer_cycles() >= end) {
			if (extra || n < want)
				break;
			extra = true;
			end = rte_get_timer_cycles() + hz / 20;
		}
		if (n >= want && !extra) {
			extra = true;
			end = rte_get_timer_cycles() + hz / 20;
		}
		if (uet_port_rx_burst(p, &m, 1) != 1)
			continue;
		tags[n++] = *rte_pktmbuf_mtod(m, uint8_t *);
		rte_pktmbuf_free(m);
	}
	return n;
}

START_TEST(test_queue_ports_share_a_memif_device)
{
	char srv[160], cli[160], args[200];
	struct uet_port_conf conf = {0};
	struct uet_port *q[QUEUES], *extra = NULL;
	struct rte_mbuf *m;
	uint8_t tags[8];
	int to_child[2], status;
	pid_t pid;

	alarm(60);
	snprintf(
		srv, sizeof(srv),
		"net_memif0,role=server,socket=/tmp/uetdrv-memifq-%d.sock,id=0",
		(int)getpid());
	snprintf(
		cli, sizeof(cli),
		"net_memif0,role=client,socket=/tmp/uetdrv-memifq-%d.sock,id=0",
		(int)getpid());
	ck_assert_int_eq(pipe(to_child), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(to_child[1]);
		echo_server_child(srv, to_child[0]);
	}
	close(to_child[0]);

	uet_test_eal("uetdrv", "memifq");
	conf.pool = uet_test_pool("cliq_pool", POOL_MBUFS);
	/* The first queue port opens the device (waiting for its server),
	 * the second takes the open device. */
	for (uint32_t i = 0; i < QUEUES; i++) {
		int rc;

		snprintf(args, sizeof(args), "%s@%u/%u", cli, i, QUEUES);
		do
			rc = uet_port_open(&q[i], args, &conf);
		while (rc == -ENOTCONN);
		ck_assert_int_eq(rc, 0);
	}
	ck_assert_str_eq(uet_port_name(q[1]), "net_memif0#1");
	ck_assert_uint_eq(uet_port_id(q[0]), uet_port_id(q[1]));

	/* Each queue's frames come back on that queue only. */
	m = tagged_frame(conf.pool, 0xa0);
	ck_assert_uint_eq(uet_port_tx_burst(q[0], &m, 1), 1);
	m = tagged_frame(conf.pool, 0xb1);
	ck_assert_uint_eq(uet_port_tx_burst(q[1], &m, 1), 1);
	m = tagged_frame(conf.pool, 0xb2);
	ck_assert_uint_eq(uet_port_tx_burst(q[1], &m, 1), 1);
	ck_assert_uint_eq(receive_tags(q[0], tags, 1), 1);
	ck_assert_uint_eq(tags[0], 0xa0);
	ck_assert_uint_eq(receive_tags(q[1], tags, 2), 2);
	ck_assert_uint_eq(tags[0], 0xb1);
	ck_assert_uint_eq(tags[1], 0xb2);

	/* Refused: a queue taken, another count, K >= N, no K/N, not memif. */
	snprintf(args, sizeof(args), "%s@1/%u", cli, QUEUES);
	ck_assert_int_eq(uet_port_open(&extra, args, &conf), -EBUSY);
	snprintf(args, sizeof(args), "%s@2/3", cli);
	ck_assert_int_eq(uet_port_open(&extra, args, &conf), -EINVAL);
	snprintf(args, sizeof(args), "%s@2/2", cli);
	ck_assert_int_eq(uet_port_open(&extra, args, &conf), -EINVAL);
	snprintf(args, sizeof(args), "%s@x/2", cli);
	ck_assert_int_eq(uet_port_open(&extra, args, &conf), -EINVAL);
	ck_assert_int_eq(uet_port_open(&extra, "net_ring_q@0/2", &conf),
			 -EINVAL);
	ck_assert_ptr_null(extra);

	/* A queue closed is free again while the device stays open. */
	uet_port_close(q[1]);
	snprintf(args, sizeof(args), "%s@1/%u", cli, QUEUES);
	ck_assert_int_eq(uet_port_open(&q[1], args, &conf), 0);
	m = tagged_frame(conf.pool, 0xc3);
	ck_assert_uint_eq(uet_port_tx_burst(q[1], &m, 1), 1);
	ck_assert_uint_eq(receive_tags(q[1], tags, 1), 1);
	ck_assert_uint_eq(tags[0], 0xc3);

	uet_port_close(q[0]);
	uet_port_close(q[1]);
	ck_assert_int_eq(write(to_child[1], "q", 1), 1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

static Suite *memif_queues_suite(void)
{
	Suite *s = suite_create("drivers-memif-queues");
	TCase *tc = tcase_create("queues");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_queue_ports_share_a_memif_device);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(memif_queues_suite)
