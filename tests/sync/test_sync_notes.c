/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sync: window notes over ring port pairs (sync_coordinator_notes.c,
 * sync_participant_notes.c, docs/lockstep.md "Window notes"): every NIC's
 * notes of a window, joined in port order, reach the coordinator and the
 * ports that asked before the next window; a window without notes sends
 * no NOTES frame; notes over one frame are cut and joined again; a run
 * without notes is the run of before; the protocol errors stop the run
 * naming the NIC, the port and the window.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <rte_mbuf.h>

#include "check_main.h"
#include "eal_test.h"
#include "sync_coordinator_private.h"
#include "sync_harness.h"
#include "sync_participant_private.h"

#define MAX_WIN 64u
/* The notes of NIC 2 in the second window: over two frames' worth. */
#define BIG_NOTES_BYTES 3000u
/* What a NOTES frame carries at most: 1514 - 14 - 32 - 16. */
#define FRAME_NOTES 1452u

/* One party's side of the notes: a NIC (nic < MAX_NICS) or the
 * coordinator. */
struct party {
	uint32_t nic;
	uint8_t out[BIG_NOTES_BYTES]; /* what notes_out gave last */
	uint32_t n_out;		      /* notes_out calls */
	uint64_t frames_out;	      /* NOTES frames they take */
	uint32_t n_in;		      /* notes_in calls */
	uet_time_t in_end_ps[MAX_WIN];
	size_t in_len[MAX_WIN];
	uint64_t frames_in_per_port; /* coordinator: NOTES to each asker */
	/* For the tests of bad frames: what to do in the hook. */
	struct uet_sync_participant *pa;
	struct uet_sync_coordinator *co;
	int forge;
};

/*
 * The notes NIC nic gives for its k-th window (ending at end_ps): none
 * anywhere in the third window; none from NIC 3 ever, none from NIC 1 in
 * odd windows; 3,000 patterned bytes from NIC 2 in the second; else a
 * text naming the NIC and the window.
 */
static size_t gen_notes(uint32_t nic, uint32_t k, uet_time_t end_ps,
			uint8_t *buf)
{
	uint32_t j;

	if (k == 2 || nic == 3 || (nic == 1 && k % 2 == 1))
		return 0;
	if (nic == 2 && k == 1) {
		for (j = 0; j < BIG_NOTES_BYTES; j++)
			buf[j] = (uint8_t)(j * 13 + 2);
		return BIG_NOTES_BYTES;
	}
	return (size_t)snprintf((char *)buf, 64, "nic%u@%" PRIu64 ";", nic,
				end_ps);
}

static uint64_t frames_for(size_t len)
{
	return (len + FRAME_NOTES - 1) / FRAME_NOTES;
}

static int notes_out(void *arg, uet_time_t window_end_ps, const void **bytes,
		     size_t *len)
{
	struct party *p = arg;

	*len = gen_notes(p->nic, p->n_out++, window_end_ps, p->out);
	*bytes = p->out;
	p->frames_out += frames_for(*len);
	return 0;
}

/* Check the window's notes against what the NICs gave, in port order. */
static int notes_in(void *arg, uet_time_t window_end_ps, const void *bytes,
		    size_t len)
{
	static uint8_t want[4 * BIG_NOTES_BYTES];
	struct party *p = arg;
	size_t n = 0;
	uint32_t i;

	ck_assert_uint_lt(p->n_in, MAX_WIN);
	for (i = 0; i < 4; i++)
		n += gen_notes(i, p->n_in, window_end_ps, want + n);
	ck_assert_uint_eq(len, n);
	if (n > 0)
		ck_assert_mem_eq(bytes, want, n);
	p->in_end_ps[p->n_in] = window_end_ps;
	p->in_len[p->n_in++] = len;
	p->frames_in_per_port += frames_for(len);
	return 0;
}

/* Four NICs ping (ties at the switch, frames to the next port): the mesh
 * of test_sync_lockstep.c. NICs 0 and 2 ask for the notes. */
static void run_mesh_notes(struct rte_mempool *mp, const char *tag,
			   struct party *parties, bool reverse, struct env *e)
{
	struct uet_sync_participant *order[4];
	uint32_t i;

	env_open(e, mp, tag, 4, 1 * US, 1500 * NS, 1);
	for (i = 0; i < 4; i++) {
		fake_ping_at(&e->nic[i], 5 * US);
		fake_ping_at(&e->nic[i], 5 * US);
		fake_ping_at(&e->nic[i], (7 + i) * US + i * 100 * NS);
		fake_ping_at(&e->nic[i], 20 * US);
	}
	if (parties != NULL) {
		for (i = 0; i < 5; i++)
			parties[i].nic = i;
		e->notes.out = notes_out;
		e->notes.in = notes_in;
		e->notes.co_in = notes_in;
		for (i = 0; i < 4; i++)
			e->notes.nic_arg[i] = &parties[i];
		e->notes.co_arg = &parties[4];
		e->notes.wants_mask = 0x5;
	}
	env_roles(e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	for (i = 0; i < 4; i++)
		order[i] = e->pa[reverse ? 3 - i : i];
	ck_assert_int_eq(uet_sync_run_embedded(e->co, order, 4), 0);
}

START_TEST(test_notes_joined_in_port_order_reach_every_asker_each_window)
{
	struct uet_sync_stats cs0, cs1, ps0[4], ps1[4];
	struct party *parties = calloc(10, sizeof(*parties));
	struct env *e = calloc(3, sizeof(*e));
	const struct party *co;
	struct rte_mempool *mp;
	uint64_t nic_frames = 0;
	uint32_t i, k;

	ck_assert_ptr_nonnull(parties);
	ck_assert_ptr_nonnull(e);
	uet_test_eal("uetsync", "notes");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	run_mesh_notes(mp, "a", NULL, false, &e[0]);
	run_mesh_notes(mp, "b", parties, false, &e[1]);
	/* The NICs polled the other way round: they finish each window in
	 * another order, and the joined notes are the same bytes (each
	 * window's were checked against the NICs' in notes_in()). */
	run_mesh_notes(mp, "c", parties + 5, true, &e[2]);
	co = &parties[4];
	ck_assert_uint_eq(parties[9].n_in, co->n_in);
	ck_assert_mem_eq(parties[9].in_end_ps, co->in_end_ps,
			 sizeof(co->in_end_ps[0]) * co->n_in);
	ck_assert_mem_eq(parties[9].in_len, co->in_len,
			 sizeof(co->in_len[0]) * co->n_in);
	ck_assert_uint_eq(parties[7].n_in, co->n_in);

	uet_sync_coordinator_stats(e[0].co, &cs0);
	uet_sync_coordinator_stats(e[1].co, &cs1);
	/* The same windows, each NIC's notes asked once a window. */
	ck_assert_uint_eq(cs1.windows, cs0.windows);
	ck_assert_uint_ge(cs1.windows, 4);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(parties[i].n_out, cs1.windows);
	/* The coordinator and the two askers took every window's notes,
	 * in the windows' order; the others took none. */
	ck_assert_uint_eq(co->n_in, cs1.windows);
	ck_assert_uint_eq(parties[0].n_in, cs1.windows);
	ck_assert_uint_eq(parties[2].n_in, cs1.windows);
	ck_assert_uint_eq(parties[1].n_in, 0);
	ck_assert_uint_eq(parties[3].n_in, 0);
	for (k = 0; k < co->n_in; k++) {
		ck_assert_uint_eq(parties[0].in_end_ps[k], co->in_end_ps[k]);
		ck_assert_uint_eq(parties[2].in_end_ps[k], co->in_end_ps[k]);
		if (k > 0)
			ck_assert_uint_gt(co->in_end_ps[k],
					  co->in_end_ps[k - 1]);
	}
	/* The first window is [0, 1 us): three NICs' texts, port order. */
	ck_assert_uint_eq(co->in_end_ps[0], 1 * US);
	ck_assert_uint_eq(co->in_len[0], strlen("nic0@1000000;nic1@1000000;"
						"nic2@1000000;"));
	/* The second: NIC 0's text and NIC 2's 3,000 bytes (3 frames from
	 * NIC 2, 3 to each asker); the third has none anywhere. */
	ck_assert_uint_eq(co->in_len[1],
			  BIG_NOTES_BYTES + strlen("nic0@") +
				  (size_t)snprintf(NULL, 0, "%" PRIu64 ";",
						   co->in_end_ps[1]));
	ck_assert_uint_eq(co->in_len[2], 0);
	ck_assert_uint_eq(parties[0].in_len[2], 0);

	/* NOTES frames on the wire: each NIC's, then the joined ones to
	 * each of the two askers; none in a window without notes. Every
	 * other control frame is the run's without notes. */
	for (i = 0; i < 4; i++) {
		uet_sync_participant_stats(e[0].pa[i], &ps0[i]);
		uet_sync_participant_stats(e[1].pa[i], &ps1[i]);
		nic_frames += parties[i].frames_out;
		ck_assert_uint_eq(ps1[i].ctrl_frames_tx - ps0[i].ctrl_frames_tx,
				  parties[i].frames_out);
		ck_assert_uint_eq(ps1[i].ctrl_frames_rx - ps0[i].ctrl_frames_rx,
				  (0x5u >> i) & 1 ? co->frames_in_per_port : 0);
	}
	/* NIC 2: one frame a window, three in the second, none in the
	 * third. */
	ck_assert_uint_eq(parties[2].frames_out, cs1.windows + 1);
	ck_assert_uint_eq(parties[3].frames_out, 0);
	ck_assert_uint_eq(cs1.ctrl_frames_rx - cs0.ctrl_frames_rx, nic_frames);
	ck_assert_uint_eq(cs1.ctrl_frames_tx - cs0.ctrl_frames_tx,
			  2 * co->frames_in_per_port);
	/* The same for the joined notes: the second window's take 3. */
	ck_assert_uint_eq(co->frames_in_per_port, cs1.windows + 1);

	/* The model saw the same frames at the same times. */
	ck_assert_uint_eq(e[0].sw.n_log, e[1].sw.n_log);
	ck_assert_mem_eq(e[0].sw.log, e[1].sw.log,
			 sizeof(e[0].sw.log[0]) * e[0].sw.n_log);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(e[0].nic[i].n_log, e[1].nic[i].n_log);
		ck_assert_mem_eq(e[0].nic[i].log, e[1].nic[i].log,
				 sizeof(e[0].nic[i].log[0]) *
					 e[0].nic[i].n_log);
	}
	ck_assert_uint_eq(cs1.data_frames_tx, cs0.data_frames_tx);
	ck_assert_uint_eq(cs1.data_frames_rx, cs0.data_frames_rx);
	for (i = 0; i < 3; i++)
		env_close(&e[i]);
	ck_assert_uint_eq(rte_mempool_avail_count(mp), POOL_MBUFS);
	free(e);
	free(parties);
}
END_TEST

/* Without notes hooks a HELLO's flags are 0 and no NOTES frame is sent:
 * the control frames of the ping run of test_sync_lockstep.c, exactly. */
START_TEST(test_run_without_notes_sends_the_frames_of_before)
{
	struct uet_sync_stats cs, ps;
	struct rte_mempool *mp;
	struct env e;

	uet_test_eal("uetsync", "nonotes");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "p", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), 0);
	ck_assert(!e.co->ports[0].wants_notes);
	uet_sync_coordinator_stats(e.co, &cs);
	uet_sync_participant_stats(e.pa[0], &ps);
	/* WELCOME, 4 GRANTs, BYE; HELLO, 4 DONEs, BYE. */
	ck_assert_uint_eq(cs.ctrl_frames_tx, 6);
	ck_assert_uint_eq(ps.ctrl_frames_tx, 6);
	ck_assert_uint_eq(e.co->notes_all.cap, 0);
	env_close(&e);
}
END_TEST

/* ---- protocol errors ---- */

/* A NOTES frame forged onto the NIC's queue, with its next sequence. */
static void forge_notes(struct uet_sync_participant *pa, uet_time_t end_ps)
{
	static const uint8_t x[4] = "xxxx";
	struct uet_ls_ctrl n;

	memset(&n, 0, sizeof(n));
	n.type = UET_LS_NOTES;
	n.u.notes.window_end_ps = end_ps;
	n.u.notes.len = sizeof(x);
	n.u.notes.bytes = x;
	ck_assert_int_eq(pa_send_ctrl(pa, &n), 0);
}

/* notes_out of a NIC that also sends NOTES of another window. */
static int notes_out_wrong_window(void *arg, uet_time_t window_end_ps,
				  const void **bytes, size_t *len)
{
	struct party *p = arg;

	forge_notes(p->pa, window_end_ps + 1);
	*bytes = NULL;
	*len = 0;
	return 0;
}

static void check_nic_heard_abort(struct env *e, uint32_t i, uint32_t code)
{
	ck_assert_int_eq(uet_sync_participant_poll(e->pa[i]), -ECONNABORTED);
	ck_assert_uint_eq(uet_sync_participant_abort_code(e->pa[i]), code);
}

START_TEST(test_notes_of_another_window_abort_naming_the_nic)
{
	struct party nic0 = {0};
	struct rte_mempool *mp;
	struct env e;
	char want[192];

	uet_test_eal("uetsync", "nwin");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "w", 1, 1 * US, 1 * US, 0);
	e.notes.out = notes_out_wrong_window;
	e.notes.nic_arg[0] = &nic0;
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	nic0.pa = e.pa[0];
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -EPROTO);
	ck_assert_uint_eq(uet_sync_coordinator_abort_code(e.co),
			  UET_LS_ABORT_PROTOCOL);
	snprintf(want, sizeof(want),
		 "NOTES of the window ending at 1000001 ps from nic 0 "
		 "(198.18.0.1) on port %s for another window (window [0, "
		 "1000000) ps)",
		 uet_port_name(e.sw_port[0]));
	ck_assert_str_eq(uet_sync_coordinator_error(e.co), want);
	check_nic_heard_abort(&e, 0, UET_LS_ABORT_PROTOCOL);
	env_close(&e);
}
END_TEST

/* The NIC's DONE of [0, 1 us) is in when its NOTES of that window come. */
START_TEST(test_notes_after_the_done_abort)
{
	struct uet_sync_stats ps;
	struct rte_mempool *mp;
	struct env e;
	char want[192];
	int i, rc;

	uet_test_eal("uetsync", "ndone");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "d", 1, 1 * US, 1 * US, 0);
	fake_ping_at(&e.nic[0], 10 * US);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	/* HELLO; WELCOME and GRANT [0, 1); the NIC runs it, DONE. */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), UET_SYNC_RUNNING);
	for (i = 0; i < 100 && uet_evq_now(&e.sw.c.evq) == 0; i++)
		ck_assert_int_eq(uet_sync_coordinator_poll(e.co),
				 UET_SYNC_RUNNING);
	uet_sync_participant_stats(e.pa[0], &ps);
	for (i = 0; i < 100 && ps.windows == 0; i++) {
		ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]),
				 UET_SYNC_RUNNING);
		uet_sync_participant_stats(e.pa[0], &ps);
	}
	ck_assert_uint_eq(ps.windows, 1);
	forge_notes(e.pa[0], 1 * US);
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), UET_SYNC_RUNNING);
	rc = uet_sync_coordinator_poll(e.co);
	ck_assert_int_eq(rc, -EPROTO);
	snprintf(want, sizeof(want),
		 "NOTES of the window ending at 1000000 ps from nic 0 "
		 "(198.18.0.1) on port %s after its DONE (window [0, 1000000) "
		 "ps)",
		 uet_port_name(e.sw_port[0]));
	ck_assert_str_eq(uet_sync_coordinator_error(e.co), want);
	check_nic_heard_abort(&e, 0, UET_LS_ABORT_PROTOCOL);
	env_close(&e);
}
END_TEST

/* Before WELCOME the coordinator is in no window: a NOTES frame with the
 * run's ids (only a forger has them then) stops the run. */
START_TEST(test_notes_before_welcome_abort)
{
	struct rte_mempool *mp;
	struct env e;
	char want[192];
	int rc;

	uet_test_eal("uetsync", "nhello");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "b", 2, 1 * US, 1 * US, 0);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	/* NIC 0 says HELLO, NIC 1 not yet: no WELCOME. */
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), UET_SYNC_RUNNING);
	ck_assert_int_eq(uet_sync_coordinator_poll(e.co), UET_SYNC_RUNNING);
	ck_assert_int_eq(e.co->state, CO_HELLO);
	e.pa[0]->run_id = e.co->run_id;
	e.pa[0]->nonce = e.co->nonce;
	forge_notes(e.pa[0], 0);
	ck_assert_int_eq(uet_sync_participant_poll(e.pa[0]), UET_SYNC_RUNNING);
	rc = uet_sync_coordinator_poll(e.co);
	ck_assert_int_eq(rc, -EPROTO);
	snprintf(want, sizeof(want),
		 "NOTES of the window ending at 0 ps from nic 0 (198.18.0.1) "
		 "on port %s outside a window (window [0, 0) ps)",
		 uet_port_name(e.sw_port[0]));
	ck_assert_str_eq(uet_sync_coordinator_error(e.co), want);
	env_close(&e);
}
END_TEST

static int notes_out_60(void *arg, uet_time_t window_end_ps, const void **bytes,
			size_t *len)
{
	static const uint8_t sixty[60];

	(void)arg;
	(void)window_end_ps;
	*bytes = sixty;
	*len = sizeof(sixty);
	return 0;
}

/* Two NICs of 60 bytes each, a bound of 100 a window: NIC 1's NOTES take
 * the window over it. */
START_TEST(test_notes_over_the_window_bound_abort_naming_the_port)
{
	struct rte_mempool *mp;
	struct env e;
	char want[192];

	uet_test_eal("uetsync", "nbound");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "m", 2, 1 * US, 1 * US, 0);
	e.notes.out = notes_out_60;
	e.notes.co_max_bytes = 100;
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 2), -EPROTO);
	snprintf(want, sizeof(want),
		 "NOTES from nic 1 (198.18.0.2) on port %s take the window "
		 "[0, 1000000) ps over the bound of 100 bytes of notes a "
		 "window",
		 uet_port_name(e.sw_port[1]));
	ck_assert_str_eq(uet_sync_coordinator_error(e.co), want);
	check_nic_heard_abort(&e, 0, UET_LS_ABORT_PROTOCOL);
	env_close(&e);
}
END_TEST

static int notes_out_too_many(void *arg, uet_time_t window_end_ps,
			      const void **bytes, size_t *len)
{
	(void)window_end_ps;
	*bytes = arg;
	*len = UET_SYNC_NOTES_WINDOW_MAX_BYTES + 1u;
	return 0;
}

/* A NIC that would send more than a window may carry stops itself. */
START_TEST(test_nic_notes_over_the_bound_stop_the_nic)
{
	struct rte_mempool *mp;
	struct env e;
	int rc;

	uet_test_eal("uetsync", "nbig");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "g", 1, 1 * US, 1 * US, 0);
	e.notes.out = notes_out_too_many;
	e.notes.nic_arg[0] = &e; /* never read */
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	rc = uet_sync_run_embedded(e.co, e.pa, 1);
	ck_assert_int_eq(rc, -EMSGSIZE);
	ck_assert_str_eq(uet_sync_participant_error(e.pa[0]),
			 "nic 0: 16777217 bytes of notes for the window ending "
			 "at 1000000 ps, over the bound of 16777216 bytes a "
			 "window");
	ck_assert_uint_eq(uet_sync_participant_abort_code(e.pa[0]),
			  UET_LS_ABORT_INTERNAL);
	env_close(&e);
}
END_TEST

/* The coordinator's hook forges NOTES to port 0, of the window plus
 * p->forge ps. */
static int co_notes_in_forging(void *arg, uet_time_t window_end_ps,
			       const void *bytes, size_t len)
{
	struct party *p = arg;
	struct uet_ls_ctrl n;

	(void)bytes;
	(void)len;
	memset(&n, 0, sizeof(n));
	n.type = UET_LS_NOTES;
	n.u.notes.window_end_ps = window_end_ps + (uet_time_t)p->forge;
	ck_assert_int_eq(co_send_ctrl(p->co, &p->co->ports[0], &n), 0);
	return 0;
}

START_TEST(test_notes_to_a_port_that_did_not_ask_stop_the_nic)
{
	struct party co = {0};
	struct rte_mempool *mp;
	struct env e;
	char want[128];

	uet_test_eal("uetsync", "nask");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "k", 1, 1 * US, 1 * US, 0);
	e.notes.co_in = co_notes_in_forging;
	e.notes.co_arg = &co;
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	co.co = e.co;
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -EPROTO);
	snprintf(want, sizeof(want),
		 "nic 0: NOTES on port %s, whose HELLO did not ask for them",
		 uet_port_name(e.nic_port[0]));
	ck_assert_str_eq(uet_sync_participant_error(e.pa[0]), want);
	env_close(&e);
}
END_TEST

static int notes_in_ignored(void *arg, uet_time_t window_end_ps,
			    const void *bytes, size_t len)
{
	(void)arg;
	(void)window_end_ps;
	(void)bytes;
	(void)len;
	return 0;
}

/* A port that asked gets NOTES of a window it has not run. */
START_TEST(test_notes_of_a_window_not_run_stop_the_nic)
{
	struct party co = {.forge = 1};
	struct rte_mempool *mp;
	struct env e;
	char want[160];

	uet_test_eal("uetsync", "nrun");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "r", 1, 1 * US, 1 * US, 0);
	e.notes.co_in = co_notes_in_forging;
	e.notes.co_arg = &co;
	e.notes.in = notes_in_ignored;
	e.notes.wants_mask = 1;
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	co.co = e.co;
	ck_assert_int_eq(uet_sync_run_embedded(e.co, e.pa, 1), -EPROTO);
	snprintf(want, sizeof(want),
		 "nic 0: NOTES of the window ending at 1000001 ps on port %s, "
		 "the window done last ends at 1000000 ps",
		 uet_port_name(e.nic_port[0]));
	ck_assert_str_eq(uet_sync_participant_error(e.pa[0]), want);
	env_close(&e);
}
END_TEST

/* wants_notes and notes_in_fn go together. */
START_TEST(test_wants_notes_without_a_hook_is_refused)
{
	struct uet_sync_participant *pa = NULL;
	struct rte_mempool *mp;
	struct env e;
	struct uet_sync_participant_conf pc;

	uet_test_eal("uetsync", "nconf");
	mp = uet_test_pool("sync_pool", POOL_MBUFS);
	env_open(&e, mp, "c", 1, 1 * US, 1 * US, 0);
	memset(&pc, 0, sizeof(pc));
	pc.port = e.nic_port[0];
	pc.component = &e.nic[0].c;
	pc.pool = mp;
	pc.wants_notes = true;
	ck_assert_int_eq(uet_sync_participant_create(&pa, &pc), -EINVAL);
	pc.wants_notes = false;
	pc.notes_in_fn = notes_in;
	ck_assert_int_eq(uet_sync_participant_create(&pa, &pc), -EINVAL);
	ck_assert_ptr_null(pa);
	env_roles(&e, 1 * US, UET_TIME_NEVER, 0, 0, 0);
	env_close(&e);
}
END_TEST

static Suite *sync_notes_suite(void)
{
	Suite *s = suite_create("sync_notes");
	TCase *tc = tcase_create("notes");

	tcase_set_timeout(tc, 30);
	tcase_add_test(
		tc,
		test_notes_joined_in_port_order_reach_every_asker_each_window);
	tcase_add_test(tc, test_run_without_notes_sends_the_frames_of_before);
	tcase_add_test(tc, test_notes_of_another_window_abort_naming_the_nic);
	tcase_add_test(tc, test_notes_after_the_done_abort);
	tcase_add_test(tc, test_notes_before_welcome_abort);
	tcase_add_test(tc,
		       test_notes_over_the_window_bound_abort_naming_the_port);
	tcase_add_test(tc, test_nic_notes_over_the_bound_stop_the_nic);
	tcase_add_test(tc, test_notes_to_a_port_that_did_not_ask_stop_the_nic);
	tcase_add_test(tc, test_notes_of_a_window_not_run_stop_the_nic);
	tcase_add_test(tc, test_wants_notes_without_a_hook_is_refused);
	suite_add_tcase(s, tc);
	return s;
}

UET_CHECK_MAIN(sync_notes_suite)
