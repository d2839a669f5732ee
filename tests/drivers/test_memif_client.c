/* SPDX-License-Identifier: BSD-3-Clause */
/* A memif client that reaches its server between the server's probe (its
 * socket listens) and its start (it answers "ID not found") is turned away
 * for good by DPDK 22.11: uet_port_open must not hand it out as connected.
 * The server is a child process driven step by step through pipes. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <check.h>
#include <rte_dev.h>

#include "check_main.h"
#include "drv_test.h"
#include "uet_port.h"

#define POOL_MBUFS 255u

/* One byte through a pipe; 0 on success, -1 if the other end is gone. */
static int pipe_put(int fd, char c)
{
	return write(fd, &c, 1) == 1 ? 0 : -1;
}

static int pipe_get(int fd, char *c)
{
	return read(fd, c, 1) == 1 ? 0 : -1;
}

/*
 * The server side, in the child: probe the memif device (its socket now
 * listens; the port is not started), say 'p'; on 's' start it through
 * uet_port_open (which finds the probed device) and say 's'; on 'l' say
 * whether its link is up ('1' or '0'); on 'q' or a closed pipe, exit.
 * No Check asserts here: the exit code tells the parent.
 */
static void memif_server_child(const char *devargs, int in, int out)
{
	struct uet_port_conf conf = {0};
	struct uet_port *port = NULL;
	struct uet_port_link link;
	char prefix[64];
	char c;

	snprintf(prefix, sizeof(prefix), "uetdrv_memifsrv_%d", (int)getpid());
	if (uet_eal_init_default(prefix) < 0)
		_exit(10);
	conf.pool = uet_port_pool_create("srv_pool", POOL_MBUFS, SOCKET_ID_ANY);
	if (conf.pool == NULL)
		_exit(11);
	if (rte_dev_probe(devargs) < 0)
		_exit(12);
	if (pipe_put(out, 'p') < 0)
		_exit(13);
	while (pipe_get(in, &c) == 0) {
		if (c == 's') {
			if (uet_port_open(&port, devargs, &conf) < 0)
				_exit(14);
			if (pipe_put(out, 's') < 0)
				_exit(15);
		} else if (c == 'l') {
			bool up = port != NULL &&
				  uet_port_link(port, &link) == 0 && link.up;

			if (pipe_put(out, up ? '1' : '0') < 0)
				_exit(16);
		} else {
			break;
		}
	}
	/* The process ends here: no EAL cleanup (docs/ports.md says why),
	 * but no empty runtime folder left behind either. */
	uet_eal_runtime_dir_remove();
	_exit(0);
}

START_TEST(
	test_memif_client_turned_away_before_the_server_starts_is_not_returned)
{
	char srv_args[160], cli_args[160];
	struct uet_port_conf conf = {0};
	struct uet_port *port = NULL;
	struct uet_port_link link;
	int to_child[2], from_child[2], status;
	char c;
	pid_t pid;

	alarm(60);
	/* memif's sockets are abstract by default: nothing on disk. */
	snprintf(srv_args, sizeof(srv_args),
		 "net_memif0,role=server,socket=/tmp/uetdrv-memif-%d.sock,id=0",
		 (int)getpid());
	snprintf(cli_args, sizeof(cli_args),
		 "net_memif0,role=client,socket=/tmp/uetdrv-memif-%d.sock,id=0",
		 (int)getpid());
	ck_assert_int_eq(pipe(to_child), 0);
	ck_assert_int_eq(pipe(from_child), 0);
	/* Fork before EAL: each process starts its own. */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(to_child[1]);
		close(from_child[0]);
		memif_server_child(srv_args, to_child[0], from_child[1]);
	}
	close(to_child[0]);
	close(from_child[1]);

	uet_test_eal("uetdrv", "memifcli");
	conf.pool = uet_test_pool("cli_pool", POOL_MBUFS);
	ck_assert_int_eq(pipe_get(from_child[0], &c), 0);
	ck_assert_int_eq(c, 'p');
	/* The server listens but has not started: the client is connected,
	 * then turned away; it must come back as an error, not a port. */
	ck_assert_int_eq(uet_port_open(&port, cli_args, &conf), -ENOTCONN);
	ck_assert_ptr_null(port);
	ck_assert_int_eq(pipe_put(to_child[1], 's'), 0);
	ck_assert_int_eq(pipe_get(from_child[0], &c), 0);
	ck_assert_int_eq(c, 's');
	/* Started: the same client is taken, and both links are up. */
	ck_assert_int_eq(uet_port_open(&port, cli_args, &conf), 0);
	ck_assert_int_eq(uet_port_link(port, &link), 0);
	ck_assert(link.up);
	ck_assert_int_eq(pipe_put(to_child[1], 'l'), 0);
	ck_assert_int_eq(pipe_get(from_child[0], &c), 0);
	ck_assert_int_eq(c, '1');
	uet_port_close(port);
	ck_assert_int_eq(pipe_put(to_child[1], 'q'), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}
END_TEST

static Suite *memif_suite(void)
{
	Suite *s = suite_create("drivers-memif-client");
	TCase *tc = tcase_create("memif");

	tcase_set_timeout(tc, 60);
	tcase_add_test(
		tc,
		test_memif_client_turned_away_before_the_server_starts_is_not_returned);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(memif_suite)
