/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine on small graphs over the stand-in network (fake_net.h):
 * COMP durations, SEND/RECV matching by source and tag in send order,
 * dependencies, collectives as messages, per-collective times, and the
 * shared traces run to completion the same way twice.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fake_net.h"

Suite *engine_suite(void);

#define US UINT64_C(1000000)

static struct fake_net *net_new(const struct uet_wl_program *p)
{
	struct fake_net *f = calloc(1, sizeof(*f));

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(uet_wl_engine_create(&f->e, p, fake_post, f), 0);
	return f;
}

static void net_free(struct fake_net *f)
{
	uet_wl_engine_free(f->e);
	free(f);
}

static uint32_t add(struct uet_wl_program *p, uint32_t rank, enum uet_wl_op op,
		    uint32_t peer, uint64_t tag, uint64_t bytes,
		    uet_time_t dur_ps, const uint32_t *deps, uint32_t n_deps)
{
	struct uet_wl_node nd = {
		.trace_id = p->ranks[rank].n_nodes,
		.op = op,
		.peer = peer,
		.tag = tag,
		.bytes = bytes,
		.duration_ps = dur_ps,
		.coll = -1,
		.n_deps = n_deps,
		.deps = (uint32_t *)(uintptr_t)deps,
	};
	uint32_t idx;

	ck_assert_int_eq(uet_wl_add_node(p, rank, &nd, &idx), 0);
	return idx;
}

START_TEST(test_comp_then_send_posts_after_the_duration)
{
	struct uet_wl_program p;
	struct uet_wl_error err;
	struct fake_net *f;
	uint32_t c;

	ck_assert_int_eq(uet_wl_program_init(&p, 2), 0);
	c = add(&p, 0, UET_WL_COMP, 0, 0, 0, 5 * US, NULL, 0);
	add(&p, 0, UET_WL_SEND, 1, 7, 1000, 0, &c, 1);
	add(&p, 1, UET_WL_RECV, 0, 7, 0, 0, NULL, 0);
	ck_assert_int_eq(uet_wl_program_check(&p, &err), 0);
	f = net_new(&p);
	ck_assert_int_eq(uet_wl_engine_start(f->e), 0);
	ck_assert_int_eq(fake_run(f), 0);
	ck_assert(uet_wl_engine_done(f->e));
	/* posted at 5 us, sent 1000 * 20 ps later (5.02 us), arrives 1 us
	 * after that. */
	ck_assert_uint_eq(uet_wl_engine_rank_end_ps(f->e, 0), 5020000);
	ck_assert_uint_eq(uet_wl_engine_rank_end_ps(f->e, 1), 6020000);
	net_free(f);
	uet_wl_program_free(&p);
}
END_TEST

START_TEST(test_recv_matches_source_and_tag_in_send_order)
{
	struct uet_wl_program p;
	struct uet_wl_error err;
	struct fake_net *f;
	uint32_t big, r1, after;

	ck_assert_int_eq(uet_wl_program_init(&p, 2), 0);
	/* rank 0 sends a big message then a small one, both tag 3, and a
	 * tag 4 one; the small one arrives first. */
	add(&p, 0, UET_WL_SEND, 1, 3, 100000, 0, NULL, 0);
	add(&p, 0, UET_WL_SEND, 1, 3, 10, 0, NULL, 0);
	add(&p, 0, UET_WL_SEND, 1, 4, 10, 0, NULL, 0);
	/* rank 1: first RECV tag 3 is the big one; a COMP after it. */
	big = add(&p, 1, UET_WL_RECV, 0, 3, 0, 0, NULL, 0);
	r1 = add(&p, 1, UET_WL_RECV, 0, 3, 0, 0, &big, 1);
	after = add(&p, 1, UET_WL_COMP, 0, 0, 0, 1 * US, &big, 1);
	(void)r1;
	(void)after;
	add(&p, 1, UET_WL_RECV, 0, 4, 0, 0, NULL, 0);
	ck_assert_int_eq(uet_wl_program_check(&p, &err), 0);
	f = net_new(&p);
	ck_assert_int_eq(uet_wl_engine_start(f->e), 0);
	ck_assert_uint_eq(f->posts, 3);
	ck_assert_int_eq(fake_run(f), 0);
	ck_assert(uet_wl_engine_done(f->e));
	/* big is sent at 2 us, arrives at 3 us; the COMP ends at 4 us. */
	ck_assert_uint_eq(uet_wl_engine_rank_end_ps(f->e, 1), 4 * US);
	net_free(f);
	uet_wl_program_free(&p);
}
END_TEST

START_TEST(test_send_finishes_when_sent_not_when_arrived)
{
	struct uet_wl_program p;
	struct uet_wl_error err;
	struct fake_net *f;
	uint32_t s;

	ck_assert_int_eq(uet_wl_program_init(&p, 2), 0);
	s = add(&p, 0, UET_WL_SEND, 1, 0, 50000, 0, NULL, 0);
	add(&p, 0, UET_WL_COMP, 0, 0, 0, 3 * US, &s, 1);
	add(&p, 1, UET_WL_RECV, 0, 0, 0, 0, NULL, 0);
	ck_assert_int_eq(uet_wl_program_check(&p, &err), 0);
	f = net_new(&p);
	ck_assert_int_eq(uet_wl_engine_start(f->e), 0);
	ck_assert_int_eq(fake_run(f), 0);
	/* sent at 1 us, the COMP ends 3 us later; arrival at 2 us. */
	ck_assert_uint_eq(uet_wl_engine_rank_end_ps(f->e, 0), 4 * US);
	ck_assert_uint_eq(uet_wl_engine_rank_end_ps(f->e, 1), 2 * US);
	net_free(f);
	uet_wl_program_free(&p);
}
END_TEST

START_TEST(test_ring_all_reduce_of_4_is_6_steps_of_a_quarter)
{
	struct uet_wl_program p;
	struct uet_wl_error err;
	struct fake_net *f;
	uint32_t r;

	ck_assert_int_eq(uet_wl_program_init(&p, 4), 0);
	for (r = 0; r < 4; r++) {
		struct uet_wl_coll c = {.name = "ar",
					.trace_id = 9,
					.comm_type = UET_WL_ALL_REDUCE,
					.bytes = 4000};

		ck_assert_int_eq(uet_wl_add_coll(&p, r, &c, 0,
						 UET_WL_ALGO_DEFAULT, 0, NULL,
						 0, &err),
				 0);
	}
	ck_assert_int_eq(uet_wl_program_check(&p, &err), 0);
	ck_assert_uint_eq(p.n_messages, 24);
	f = net_new(&p);
	ck_assert_int_eq(uet_wl_engine_start(f->e), 0);
	ck_assert_int_eq(fake_run(f), 0);
	ck_assert(uet_wl_engine_done(f->e));
	ck_assert_uint_eq(f->bytes, 24 * 1000);
	for (r = 0; r < 4; r++) {
		uet_time_t b, e;

		ck_assert_int_eq(uet_wl_engine_coll_times(f->e, r, 0, &b, &e),
				 0);
		ck_assert_uint_eq(b, 0);
		/* 6 arrivals in a chain of 1.02 us each. */
		ck_assert_uint_eq(e, 6 * 1020000);
	}
	net_free(f);
	uet_wl_program_free(&p);
}
END_TEST

START_TEST(test_tree_broadcast_of_7_is_3_levels)
{
	struct uet_wl_program p;
	struct uet_wl_error err;
	struct fake_net *f;
	uint32_t r;

	ck_assert_int_eq(uet_wl_program_init(&p, 7), 0);
	for (r = 0; r < 7; r++) {
		struct uet_wl_coll c = {.comm_type = UET_WL_BROADCAST,
					.bytes = 50};

		ck_assert_int_eq(uet_wl_add_coll(&p, r, &c, 2, UET_WL_ALGO_TREE,
						 0, NULL, 0, &err),
				 0);
	}
	ck_assert_int_eq(uet_wl_program_check(&p, &err), 0);
	ck_assert_uint_eq(p.n_messages, 6);
	f = net_new(&p);
	ck_assert_int_eq(uet_wl_engine_start(f->e), 0);
	ck_assert_int_eq(fake_run(f), 0);
	ck_assert(uet_wl_engine_done(f->e));
	/* Leaves are two hops from the root (rank 2): 2 x 1.001 us. */
	ck_assert_uint_eq(uet_wl_engine_rank_end_ps(f->e, (2 + 6) % 7),
			  2 * 1001000);
	net_free(f);
	uet_wl_program_free(&p);
}
END_TEST

static const char *chakra_dir(void)
{
	const char *d = getenv("UET_CHAKRA_DIR");

	ck_assert_ptr_nonnull(d);
	return d;
}

/* Run a trace over the stand-in network; returns the last rank end. */
static uet_time_t run_trace(const char *prefix, uint32_t n,
			    uet_time_t reduce_chunk_ps)
{
	struct uet_wl_algos algos = {.reduce_chunk_ps = reduce_chunk_ps};
	struct uet_wl_program p;
	struct uet_wl_error err;
	struct fake_net *f;
	uet_time_t end = 0;
	uint32_t r;

	ck_assert_msg(uet_wl_chakra_load(&p, prefix, n, &algos, &err) == 0,
		      "%s", err.message);
	f = net_new(&p);
	ck_assert_int_eq(uet_wl_engine_start(f->e), 0);
	ck_assert_int_eq(fake_run(f), 0);
	ck_assert(uet_wl_engine_done(f->e));
	for (r = 0; r < n; r++)
		if (uet_wl_engine_rank_end_ps(f->e, r) > end)
			end = uet_wl_engine_rank_end_ps(f->e, r);
	net_free(f);
	uet_wl_program_free(&p);
	return end;
}

START_TEST(test_custom_ring_equals_decomposed_ring_with_its_reductions)
{
	char a[600], b[600];
	uet_time_t custom, decomposed;

	snprintf(a, sizeof(a),
		 "%s/system/custom_collectives/"
		 "custom_ring_allreduce_8npus_1MB/custom_allreduce",
		 chakra_dir());
	snprintf(b, sizeof(b),
		 "%s/workload/microbenchmarks/all_reduce/8npus_1MB/all_reduce",
		 chakra_dir());
	custom = run_trace(a, 8, 0);
	ck_assert_uint_eq(custom, run_trace(a, 8, 0));
	/* 14 steps of 128 KiB (2.62144 us sent + 1 us) and the 7 reductions
	 * of 7 us the custom trace writes as COMP nodes. */
	ck_assert_uint_eq(custom, 14 * 3621440 + 7 * 7 * US);
	decomposed = run_trace(b, 8, 7 * US);
	ck_assert_uint_eq(decomposed, custom);
	ck_assert_uint_eq(run_trace(b, 8, 0), 14 * 3621440);
}
END_TEST

Suite *engine_suite(void)
{
	Suite *s = suite_create("engine");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_comp_then_send_posts_after_the_duration);
	tcase_add_test(tc, test_recv_matches_source_and_tag_in_send_order);
	tcase_add_test(tc, test_send_finishes_when_sent_not_when_arrived);
	tcase_add_test(tc, test_ring_all_reduce_of_4_is_6_steps_of_a_quarter);
	tcase_add_test(tc, test_tree_broadcast_of_7_is_3_levels);
	tcase_add_test(
		tc,
		test_custom_ring_equals_decomposed_ring_with_its_reductions);
	suite_add_tcase(s, tc);
	return s;
}
