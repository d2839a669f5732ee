/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection matrices (uet-htsim's .cm format): timed and triggered
 * connections run over the stand-in network (fake_net.h) to exact times,
 * the trigger delay between hosts, and every bad file stopped with its
 * line and what is wrong.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_net.h"

Suite *matrix_suite(void);

#define US UINT64_C(1000000)
/* The trigger delay of these tests: the defaults' lookahead. */
#define DELAY_PS UINT64_C(500000)

static int parse(struct uet_wl_program *p, const char *text, uint32_t hosts,
		 struct uet_wl_error *err)
{
	return uet_wl_matrix_parse(p, "t.cm", text, strlen(text), hosts, err);
}

/* Parse, run to the end over the stand-in network with DELAY_PS. */
static struct fake_net *run(struct uet_wl_program *p, const char *text,
			    uint32_t hosts)
{
	struct uet_wl_error err = {{0}};
	struct fake_net *f;
	int rc = parse(p, text, hosts, &err);

	ck_assert_msg(rc == 0, "%s", err.message);
	f = calloc(1, sizeof(*f));
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(uet_wl_engine_create(&f->e, p, fake_post, f), 0);
	uet_wl_engine_set_trigger_delay(f->e, DELAY_PS);
	ck_assert_int_eq(uet_wl_engine_start(f->e), 0);
	ck_assert_int_eq(fake_run(f), 0);
	ck_assert(uet_wl_engine_done(f->e));
	return f;
}

static void done(struct fake_net *f, struct uet_wl_program *p)
{
	uet_wl_engine_free(f->e);
	free(f);
	uet_wl_program_free(p);
}

/* The message of a matrix line (its origin): posted, sent, arrived. */
static void expect_msg(const struct fake_net *f, uint64_t line,
		       uet_time_t posted, uet_time_t sent, uet_time_t arrived)
{
	struct uet_wl_msg_info info;
	uint64_t id;

	for (id = 0; uet_wl_engine_msg_info(f->e, id, &info) != -EINVAL; id++) {
		if (info.origin != line)
			continue;
		ck_assert_msg(
			info.posted_ps == posted && info.sent_ps == sent &&
				info.arrived_ps == arrived,
			"line %lu: posted %lu sent %lu arrived %lu",
			(unsigned long)line, (unsigned long)info.posted_ps,
			(unsigned long)info.sent_ps,
			(unsigned long)info.arrived_ps);
		return;
	}
	ck_abort_msg("no message of line %lu", (unsigned long)line);
}

START_TEST(test_timed_connections_start_at_their_microseconds)
{
	struct uet_wl_program p;
	struct fake_net *f;

	/* Header comments and blank lines; a DOS line end; a fraction. */
	f = run(&p,
		"# two timed messages\n"
		"Nodes 3\r\n"
		"\n"
		"Connections 2\n"
		"0->1 start 0 size 1000\n"
		"2->1 id 5 start 1.5 size 2000 prio 3\n",
		3);
	ck_assert_uint_eq(p.n_messages, 2);
	/* 1000 bytes: sent 20 ns after the post, there 1 us later. */
	expect_msg(f, 5, 0, 20000, 1020000);
	expect_msg(f, 6, 1500000, 1540000, 2540000);
	ck_assert_uint_eq(uet_wl_engine_rank_end_ps(f->e, 1), 2540000);
	done(f, &p);
}
END_TEST

/*
 * A chain: 0's send completion starts 1's message (another host: one
 * trigger delay later); its arrival at 2 starts 2's message (the same
 * host: at once).
 */
START_TEST(test_oneshot_chain_waits_the_delay_across_hosts_only)
{
	struct uet_wl_program p;
	struct fake_net *f;

	f = run(&p,
		"Nodes 4\n"
		"Connections 3\n"
		"Triggers 2\n"
		"0->1 id 1 start 0 size 1000 send_done_trigger 1\n"
		"1->2 id 2 trigger 1 size 1000 recv_done_trigger 2\n"
		"2->3 id 3 trigger 2 size 1000\n"
		"trigger id 1 oneshot\n"
		"trigger id 2 oneshot\n",
		4);
	expect_msg(f, 4, 0, 20000, 1020000);
	expect_msg(f, 5, 20000 + DELAY_PS, 540000, 1540000);
	expect_msg(f, 6, 1540000, 1560000, 2560000);
	ck_assert_uint_eq(uet_wl_engine_rank_end_ps(f->e, 3), 2560000);
	done(f, &p);
}
END_TEST

/*
 * A barrier of two arrivals at host 3 starts 3's message on the second;
 * a multishot fed by two messages of one connection (msg) starts the two
 * connections waiting on it one by one, in file order.
 */
START_TEST(test_barrier_counts_and_multishot_starts_one_per_activation)
{
	struct uet_wl_program p;
	struct fake_net *f;

	f = run(&p,
		"Nodes 4\n"
		"Connections 7\n"
		"Triggers 2\n"
		"trigger id 1 barrier count 2\n"
		"0->3 id 1 start 0 size 1000 recv_done_trigger 1\n"
		"1->3 id 2 start 0 size 2000 recv_done_trigger 1\n"
		"3->2 id 3 trigger 1 size 1000\n"
		"2->0 id 4 start 0 size 500 send_done_trigger 2\n"
		"2->0 id 4 msg start 3 size 500 send_done_trigger 2\n"
		"1->0 id 5 trigger 2 size 100\n"
		"1->0 id 6 trigger 2 size 100\n"
		"trigger id 2 multishot\n",
		4);
	expect_msg(f, 5, 0, 20000, 1020000);
	expect_msg(f, 6, 0, 40000, 1040000);
	/* The barrier's second activation is on host 3 itself. */
	expect_msg(f, 7, 1040000, 1060000, 2060000);
	expect_msg(f, 8, 0, 10000, 1010000);
	expect_msg(f, 9, 3000000, 3010000, 4010000);
	expect_msg(f, 10, 10000 + DELAY_PS, 512000, 1512000);
	expect_msg(f, 11, 3010000 + DELAY_PS, 3512000, 4512000);
	done(f, &p);
}
END_TEST

/* Three activations of a multishot with one waiting connection: the
 * first starts it, the others are ignored, and the program finishes. */
START_TEST(test_multishot_ignores_activations_past_its_targets)
{
	struct uet_wl_program p;
	struct fake_net *f;

	f = run(&p,
		"Nodes 3\n"
		"Connections 4\n"
		"Triggers 1\n"
		"0->1 start 0 size 100 send_done_trigger 1\n"
		"0->2 start 0 size 100 send_done_trigger 1\n"
		"2->1 start 1 size 100 recv_done_trigger 1\n"
		"1->2 id 7 trigger 1 size 100\n"
		"trigger id 1 multishot\n",
		3);
	ck_assert_uint_eq(f->posts, 4);
	/* Line 4's send completion (2 ns) is the first activation. */
	expect_msg(f, 7, 2000 + DELAY_PS, 504000, 1504000);
	done(f, &p);
}
END_TEST

/*
 * A barrier that two hosts activate starts its target one delay after
 * the last activation, even on that host itself: its count is shared, so
 * it is taken in the engine's flush, not on the activating NIC. Before,
 * line 6 was posted at host 2's own arrival (1020000 ps).
 */
START_TEST(test_trigger_of_several_hosts_starts_its_own_host_after_the_delay)
{
	struct uet_wl_program p;
	struct fake_net *f;

	f = run(&p,
		"Nodes 3\n"
		"Connections 3\n"
		"Triggers 1\n"
		"0->2 id 1 start 0 size 1000 recv_done_trigger 1\n"
		"1->0 id 2 start 0 size 2000 send_done_trigger 1\n"
		"2->1 id 3 trigger 1 size 100\n"
		"trigger id 1 barrier count 2\n",
		3);
	expect_msg(f, 4, 0, 20000, 1020000);
	expect_msg(f, 5, 0, 40000, 1040000);
	expect_msg(f, 6, 1020000 + DELAY_PS, 1522000, 2522000);
	done(f, &p);
}
END_TEST

/* Posts in the order an engine made them. */
struct post_log {
	uint32_t n;
	uint32_t src[8];
	uint64_t msg[8];
	uet_time_t at_ps[8];
};

static int log_post(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes,
		    uet_time_t at_ps, uint64_t msg_id)
{
	struct post_log *l = ctx;

	(void)dst;
	(void)bytes;
	if (l->n == 8)
		return -ENOSPC;
	l->src[l->n] = src;
	l->msg[l->n] = msg_id;
	l->at_ps[l->n++] = at_ps;
	return 0;
}

/*
 * One window's completions of two ranks' hosts, taken in either order
 * (a one-process run takes host 0's first; rank 1 of two takes its host
 * 1's live and host 0's when rank 0's message comes), then the flush:
 * the same posts, in the same order, the earlier activation (host 1's,
 * 20 ns) starting the multishot's first target (line 6, host 2).
 */
START_TEST(test_flush_orders_two_ranks_completions_as_one_process)
{
	static const char text[] =
		"Nodes 4\n"
		"Connections 4\n"
		"Triggers 1\n"
		"0->2 id 1 start 0 size 1000 send_done_trigger 1\n"
		"1->3 id 2 start 0 size 1000 send_done_trigger 1\n"
		"2->0 id 3 trigger 1 size 100\n"
		"3->1 id 4 trigger 1 size 100\n"
		"trigger id 1 multishot\n";
	/* Host 0's send completion at 30 ns, host 1's at 20 ns. */
	static const uint64_t msg_of_host[2] = {0, 1};
	static const uet_time_t sent_ps[2] = {30000, 20000};
	struct uet_wl_error err = {{0}};
	struct post_log logs[2];
	struct uet_wl_program p;
	uint32_t order, i;

	ck_assert_msg(parse(&p, text, 4, &err) == 0, "%s", err.message);
	for (order = 0; order < 2; order++) {
		struct post_log *l = &logs[order];
		struct uet_wl_engine *e;

		memset(l, 0, sizeof(*l));
		ck_assert_int_eq(uet_wl_engine_create(&e, &p, log_post, l), 0);
		uet_wl_engine_set_trigger_delay(e, DELAY_PS);
		ck_assert_int_eq(uet_wl_engine_start(e), 0);
		ck_assert_uint_eq(l->n, 2); /* lines 4 and 5 at 0 */
		for (i = 0; i < 2; i++) {
			const uint32_t h = order == 0 ? i : 1u - i;

			ck_assert_int_eq(uet_wl_engine_sent(e, msg_of_host[h],
							    sent_ps[h]),
					 0);
		}
		/* Nothing crosses hosts before the flush. */
		ck_assert_uint_eq(l->n, 2);
		ck_assert_int_eq(uet_wl_engine_flush(e), 0);
		uet_wl_engine_free(e);
	}
	for (order = 0; order < 2; order++) {
		const struct post_log *l = &logs[order];

		ck_assert_uint_eq(l->n, 4);
		ck_assert_uint_eq(l->src[2], 2);
		ck_assert_uint_eq(l->msg[2], 2);
		ck_assert_uint_eq(l->at_ps[2], 20000 + DELAY_PS);
		ck_assert_uint_eq(l->src[3], 3);
		ck_assert_uint_eq(l->msg[3], 3);
		ck_assert_uint_eq(l->at_ps[3], 30000 + DELAY_PS);
	}
	uet_wl_program_free(&p);
}
END_TEST

/* A bad file and the message it gives (the whole text). */
struct bad {
	const char *text;
	const char *message;
};

START_TEST(test_bad_matrices_name_the_line_and_the_fault)
{
	static const struct bad cases[] = {
		{"Nodes 2\nConnections 1\n0->1 size 10\n",
		 "t.cm:3: no start method: give start <us> or trigger <id>"},
		{"Nodes 2\nConnections 1\nTriggers 1\n"
		 "0->1 id 1 start 0 trigger 1 size 10\ntrigger id 1 oneshot\n",
		 "t.cm:4: both start and trigger: a connection starts one "
		 "way"},
		{"Nodes 2\nConnections 1\n0->1 start 0 size 10 colour red\n",
		 "t.cm:3: unknown token 'colour': a connection takes id, "
		 "start, trigger, size, send_done_trigger, "
		 "recv_done_trigger, msg and prio"},
		{"Nodes 2\nConnections 1\n0->1  start 0 size 10\n",
		 "t.cm:3: two spaces in a row (or a space at the start): "
		 "tokens are separated by exactly one space"},
		{"Nodes 2\nConnections 1\n0->1\tstart 0 size 10\n",
		 "t.cm:3: a tab in '0->1\tstart': tokens are separated by "
		 "one space, not tabs"},
		{"Nodes 2\nConnections 1\n0->1 id 1 trigger 4 size 10\n",
		 "t.cm:3: trigger 4: no trigger line defines it"},
		{"Nodes 2\nConnections 2\n0->1 start 0 size 1\n",
		 "t.cm: Connections 2 in the header, and the file has 1 "
		 "connection lines"},
		{"Nodes 2\nConnections 1\n0->1 start 0 size 1\n"
		 "trigger id 1 oneshot\n",
		 "t.cm: Triggers 0 in the header, and the file has 1 trigger "
		 "lines"},
		{"Nodes 3\nConnections 1\n0->1 start 0 size 1\n",
		 "t.cm:1: Nodes 3, and topology.hosts is 2: the matrix must "
		 "name every host"},
		{"Nodes 2\nConnections 1\n0->2 start 0 size 1\n",
		 "t.cm:3: 0->2: hosts are 0 to 1 (Nodes 2)"},
		{"Nodes 2\nConnections 1\n1->1 start 0 size 1\n",
		 "t.cm:3: 1->1: a host cannot send to itself"},
		{"Nodes 2\nConnections 1\nx->1 start 0 size 1\n",
		 "t.cm:3: 'x->1' is not <src>-><dst> with two host numbers"},
		{"Nodes 2\nConnections 2\nTriggers 1\n"
		 "0->1 id 1 trigger 1 size 1 send_done_trigger 1\n"
		 "1->0 start 0 size 1\ntrigger id 1 oneshot\n",
		 "t.cm:4: this connection can never start: trigger 1 (line 6) "
		 "gets 0 activation(s) from connections that start, and it "
		 "needs one"},
		{"Nodes 2\nConnections 2\nTriggers 1\n"
		 "0->1 start 0 size 1 send_done_trigger 1\n"
		 "1->0 start 0 size 1 send_done_trigger 1\n"
		 "trigger id 1 oneshot\n",
		 "t.cm:6: trigger 1 is oneshot and lines 4 and 5 both "
		 "activate it: it can fire only once"},
		{"Nodes 2\nConnections 2\n0->1 id 3 start 0 size 1\n"
		 "1->0 id 3 start 0 size 1\n",
		 "t.cm:4: id 3 is already the id of line 3 (a further message "
		 "of it needs msg)"},
		{"Nodes 2\nConnections 2\n0->1 id 3 start 0 size 1\n"
		 "1->0 id 3 msg start 0 size 1\n",
		 "t.cm:4: msg on connection 3 goes 1->0, and line 3 made it "
		 "0->1"},
		{"Nodes 2\nConnections 1\n0->1 start 0 size 1\n# late\n",
		 "t.cm:4: a comment after the header: comments are allowed "
		 "only before the first connection"},
		{"Nodes 2\nConnections 0\nFailures 1\n"
		 "failure switch_type TOR switch_id 0 link_id 0\n",
		 "t.cm:4: failure lines (switch link failures) are not "
		 "supported"},
		{"Nodes 2\nConnections 0\nTriggers 1\ntrigger id 2 barrier\n",
		 "t.cm:4: a barrier needs count <n>: the activations it waits "
		 "for"},
		{"Nodes 2\nConnections 1\nTriggers 1\n"
		 "trigger id 2 oneshot\n0->1 trigger 2 size 1\n",
		 "t.cm:5: a triggered connection needs an id"},
		{"Nodes 2\nConnections 1\n0->1 start -1 size 1\n",
		 "t.cm:3: start '-1': a start is microseconds >= 0, digits "
		 "with an optional fraction"},
		{"Nodes 2\nConnections 1\n0->1 start 0\n",
		 "t.cm:3: no size: give size <bytes>"},
		{"Nodes 2\nConnections 1\n0->1 start 0 size 4294967296\n",
		 "t.cm:3: size '4294967296': bytes, a whole number from 0 to "
		 "4294967295"},
		{"Nodes 2\nConnections 1\n0->1 start 0 size\n",
		 "t.cm:3: size has no value after it"},
		{"Connections 1\n0->1 start 0 size 1\n",
		 "t.cm:2: the body starts before a Nodes line"},
		{"Nodes two\n", "t.cm:1: Nodes needs one whole number >= 0 "
				"after it, not 'two'"},
		{"Nodes 2\nConnections 0\nTriggers 2\n"
		 "trigger id 1 oneshot\ntrigger id 1 multishot\n",
		 "t.cm:5: trigger id 1 is already defined on line 4"},
		{"Nodes 2\nConnections 1\nTriggers 1\n"
		 "0->1 start 0 size 1 send_done_trigger 1\n"
		 "trigger id 1 barrier count 2\n",
		 "t.cm:5: barrier 1 counts to 2, and only 1 connection ends "
		 "activate it"},
		{"Nodes 2\nConnections 1\nTriggers 1\n"
		 "0->1 start 0 size 1\ntrigger id 1 sometimes\n",
		 "t.cm:5: trigger type 'sometimes': oneshot, multishot or "
		 "barrier"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct uet_wl_error err = {{0}};
		struct uet_wl_program p;
		int rc = parse(&p, cases[i].text, 2, &err);

		ck_assert_msg(rc == -EINVAL, "case %zu: rc %d", i, rc);
		ck_assert_msg(strcmp(err.message, cases[i].message) == 0,
			      "case %zu:\n got  %s\n want %s", i, err.message,
			      cases[i].message);
		uet_wl_program_free(&p);
	}
}
END_TEST

START_TEST(test_missing_file_says_so)
{
	struct uet_wl_error err = {{0}};
	struct uet_wl_program p;

	ck_assert_int_eq(uet_wl_matrix_load(&p, "/nonexistent/x.cm", 2, &err),
			 -ENOENT);
	ck_assert_str_eq(err.message,
			 "/nonexistent/x.cm: no such file: give the path of "
			 "a connection matrix file");
	uet_wl_program_free(&p);
}
END_TEST

/*
 * A path that names no regular file says what it names, without waiting
 * on it (a FIFO) or reading it for ever (/dev/zero). Before, a directory,
 * a FIFO, /dev/zero and a loop of links all said "no such file" in the
 * scenario's check, and the load of a FIFO waited for a writer.
 */
START_TEST(test_path_that_is_no_regular_file_says_what_it_is)
{
	char dir[] = "/tmp/uet-matrix-XXXXXX", fifo[64], loop[64], sub[64];
	const struct {
		const char *path;
		int rc;
		const char *words;
	} cases[] = {
		{sub, -EISDIR, "a directory, not a file"},
		{fifo, -ENODEV, "a FIFO, not a regular file"},
		{"/dev/zero", -ENODEV,
		 "a character device, not a regular file"},
		{loop, -ELOOP, "a loop of symbolic links"},
	};
	struct uet_wl_error err;
	struct uet_wl_program p;
	char want[256];
	size_t i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(sub, sizeof(sub), "%s/d.cm", dir);
	snprintf(fifo, sizeof(fifo), "%s/f.cm", dir);
	snprintf(loop, sizeof(loop), "%s/l.cm", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_eq(symlink(loop, loop), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&err, 0, sizeof(err));
		ck_assert_int_eq(uet_wl_matrix_load(&p, cases[i].path, 2, &err),
				 cases[i].rc);
		snprintf(want, sizeof(want), "%s: %s", cases[i].path,
			 cases[i].words);
		ck_assert_msg(strncmp(err.message, want, strlen(want)) == 0,
			      "got %s, want %s...", err.message, want);
		ck_assert_msg(strstr(err.message,
				     ": give the path of a connection matrix "
				     "file") != NULL,
			      "%s", err.message);
		uet_wl_program_free(&p);
	}
	unlink(loop);
	unlink(fifo);
	rmdir(sub);
	rmdir(dir);
}
END_TEST

Suite *matrix_suite(void)
{
	Suite *s = suite_create("matrix");
	TCase *tc = tcase_create("matrix");

	tcase_add_test(tc, test_timed_connections_start_at_their_microseconds);
	tcase_add_test(tc,
		       test_oneshot_chain_waits_the_delay_across_hosts_only);
	tcase_add_test(
		tc,
		test_barrier_counts_and_multishot_starts_one_per_activation);
	tcase_add_test(tc, test_multishot_ignores_activations_past_its_targets);
	tcase_add_test(
		tc,
		test_trigger_of_several_hosts_starts_its_own_host_after_the_delay);
	tcase_add_test(tc,
		       test_flush_orders_two_ranks_completions_as_one_process);
	tcase_add_test(tc, test_bad_matrices_name_the_line_and_the_fault);
	tcase_add_test(tc, test_missing_file_says_so);
	tcase_add_test(tc, test_path_that_is_no_regular_file_says_what_it_is);
	suite_add_tcase(s, tc);
	return s;
}
