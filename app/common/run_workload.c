/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-emu's workload driver. The program comes from the scenario's Chakra
 * traces, connection matrix or generator; lib/workload's engine runs it.
 * A post decided by a NIC's own completion (or before the run) goes to
 * that NIC at once, at a time no earlier than the completion: in its
 * present or future. A connection-matrix trigger activated on host A that
 * starts a message of host B is the one post decided elsewhere: the
 * engine starts it the trigger delay (>= the lookahead) after the
 * activation, and it waits here until every NIC has run the window
 * (run_wl_flush()), so that B's reported next event is never stale
 * (docs/workload.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "run_workload.h"
#include "uet_event.h"
#include "uet_host_addr.h"
#include "uet_nic.h"
#include "uet_record.h"
#include "uet_workload.h"

/* A post decided on another host's NIC, held until the window ends. */
struct run_wl_post {
	uint32_t src, dst;
	uint64_t bytes;
	uet_time_t at_ps;
	uint64_t msg_id;
};

/* No NIC's completion is being handled (the start, a flush). */
#define RUN_WL_NO_RANK UINT32_MAX

struct run_wl {
	const struct uet_scenario *sc;
	struct uet_wl_program prog;
	struct uet_wl_engine *eng;
	struct uet_nic *const *nics;
	uint32_t running_rank;	  /* whose completion is being handled */
	struct run_wl_post *held; /* posts for run_wl_flush() */
	uint32_t n_held, cap_held;
	struct uet_event wake; /* in the switch's queue: the next window */
	/* Completions come from NICs on several lcores (uet-emu): one at a
	 * time through the engine. A rank's decisions depend on its own
	 * completions only, so their order across ranks does not matter. */
	pthread_mutex_t lock;
	int err;
};

bool run_wl_wanted(const struct uet_scenario *sc)
{
	return sc->workload.chakra[0] != '\0' ||
	       sc->workload.matrix[0] != '\0' ||
	       sc->workload.generate.pattern != UET_GENERATE_NONE;
}

const char *run_wl_source(const struct uet_scenario *sc)
{
	if (sc->workload.chakra[0] != '\0')
		return "workload.chakra";
	if (sc->workload.matrix[0] != '\0')
		return "workload.matrix";
	return "workload.generate";
}

/* The algorithms of the scenario's collective rows, by Chakra type. */
static int algos_from_scenario(const struct uet_scenario *sc,
			       struct uet_wl_algos *al)
{
	const struct uet_attr *attrs;
	size_t i, n;
	uint32_t t;

	memset(al, 0, sizeof(*al));
	al->reduce_chunk_ps = sc->workload.reduce_chunk_ps;
	attrs = uet_config_attrs(&n);
	for (t = 0; t < UET_CONFIG_COLL_TYPES && t < UET_WL_COLL_TYPES; t++) {
		const char *name = uet_wl_coll_type_name(t);

		for (i = 0; i < n; i++)
			if (strcmp(attrs[i].section, "workload") == 0 &&
			    strcmp(attrs[i].name, name) == 0)
				break;
		if (i == n || attrs[i].enum_names == NULL)
			return -EINVAL;
		if (uet_wl_algo_parse(
			    attrs[i].enum_names[sc->workload.coll_algo[t]],
			    &al->by_type[t]) < 0)
			return -EINVAL;
	}
	return 0;
}

/* The generator's messages as a program. */
static int load_generate(struct run_wl *w, struct uet_wl_error *err)
{
	const struct uet_workload_generate *g = &w->sc->workload.generate;
	/* The scenario's names, in its order: none, incast, ... */
	static const enum uet_wl_pattern patterns[] = {
		[UET_GENERATE_INCAST] = UET_WL_GEN_INCAST,
		[UET_GENERATE_PERMUTATION] = UET_WL_GEN_PERMUTATION,
		[UET_GENERATE_ALL_TO_ALL] = UET_WL_GEN_ALL_TO_ALL,
		[UET_GENERATE_UNIFORM] = UET_WL_GEN_UNIFORM,
	};
	struct uet_wl_gen gen = {
		.hosts = w->sc->topology.hosts,
		.bytes = g->size_bytes,
		.count = g->count,
		.start_ps = g->start_ps,
		.interval_ps = g->interval_ps,
		.dst = g->dst,
		.seed = g->seed != 0 ? g->seed : w->sc->run.seed,
	};
	struct uet_wl_message *msgs;
	uint32_t n;
	int rc;

	if (g->pattern == UET_GENERATE_NONE ||
	    g->pattern > UET_GENERATE_UNIFORM)
		return -EINVAL;
	gen.pattern = patterns[g->pattern];
	rc = uet_wl_generate(&gen, &msgs, &n, err);
	if (rc == 0)
		rc = uet_wl_program_from_messages(&w->prog, gen.hosts, msgs, n,
						  err);
	free(msgs);
	return rc;
}

int run_wl_create(struct run_wl **wp, const struct uet_scenario *sc)
{
	struct uet_wl_error err = {{0}};
	struct uet_wl_algos al;
	struct run_wl *w;
	int rc;

	*wp = NULL;
	w = calloc(1, sizeof(*w));
	if (w == NULL)
		return -ENOMEM;
	w->sc = sc;
	w->running_rank = RUN_WL_NO_RANK;
	pthread_mutex_init(&w->lock, NULL);
	if (sc->workload.chakra[0] != '\0') {
		rc = algos_from_scenario(sc, &al);
		if (rc == 0)
			rc = uet_wl_chakra_load(&w->prog, sc->workload.chakra,
						sc->topology.hosts, &al, &err);
	} else if (sc->workload.matrix[0] != '\0') {
		rc = uet_wl_matrix_load(&w->prog, sc->workload.matrix,
					sc->topology.hosts, &err);
	} else {
		rc = load_generate(w, &err);
	}
	if (rc < 0) {
		/* A matrix's messages start with its path and line. */
		const char *path = sc->workload.chakra[0] != '\0'
					   ? sc->workload.chakra
					   : "";

		fprintf(stderr, "uet-emu: %s%s%s: %s\n", run_wl_source(sc),
			path[0] != '\0' ? " = " : "", path,
			err.message[0] ? err.message : strerror(-rc));
		run_wl_free(w);
		return rc;
	}
	*wp = w;
	return 0;
}

uint64_t run_wl_messages(const struct run_wl *w)
{
	return w->prog.n_messages;
}

/* Hold a post decided on another NIC until run_wl_flush(). */
static int hold(struct run_wl *w, uint32_t src, uint32_t dst, uint64_t bytes,
		uet_time_t at_ps, uint64_t msg_id)
{
	if (w->n_held == w->cap_held) {
		uint32_t cap = w->cap_held ? w->cap_held * 2u : 64u;
		void *p = realloc(w->held, cap * sizeof(*w->held));

		if (p == NULL)
			return -ENOMEM;
		w->held = p;
		w->cap_held = cap;
	}
	w->held[w->n_held++] =
		(struct run_wl_post){src, dst, bytes, at_ps, msg_id};
	return 0;
}

/* The engine's post: the source rank's own NIC, now if that NIC's own
 * completion decided it, else after the window. */
static int post(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes,
		uet_time_t at_ps, uint64_t msg_id)
{
	struct run_wl *w = ctx;
	int rc;

	if (w->running_rank != RUN_WL_NO_RANK && src != w->running_rank)
		return hold(w, src, dst, bytes, at_ps, msg_id);
	rc = uet_nic_post_message(w->nics[src], uet_host_ipv4(dst), bytes,
				  at_ps, msg_id);
	if (rc < 0)
		fprintf(stderr,
			"uet-emu: cannot post workload message %" PRIu64
			" (rank %u -> %u, %" PRIu64 " bytes): %s\n",
			msg_id, src, dst, bytes, strerror(-rc));
	return rc;
}

/* The wake-up only makes the switch's queue non-empty until then. */
static void wake_fn(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	(void)q;
	(void)ev;
	(void)arg;
}

int run_wl_start(struct run_wl *w, struct uet_nic *const *nics,
		 uet_time_t trigger_delay_ps)
{
	int rc;

	w->nics = nics;
	uet_event_init(&w->wake, wake_fn, w);
	rc = uet_wl_engine_create(&w->eng, &w->prog, post, w);
	if (rc == 0) {
		uet_wl_engine_set_trigger_delay(w->eng, trigger_delay_ps);
		rc = uet_wl_engine_start(w->eng);
	}
	if (rc < 0)
		w->err = rc;
	return rc;
}

int run_wl_flush(struct run_wl *w, struct uet_evq *wake_q)
{
	uet_time_t first = UET_TIME_NEVER;
	uint32_t i;
	int rc = 0;

	if (w->n_held == 0 || w->err != 0)
		return w->err;
	for (i = 0; i < w->n_held && rc == 0; i++) {
		const struct run_wl_post *p = &w->held[i];

		rc = post(w, p->src, p->dst, p->bytes, p->at_ps, p->msg_id);
		if (p->at_ps < first)
			first = p->at_ps;
	}
	w->n_held = 0;
	if (rc == 0 &&
	    (!uet_event_pending(&w->wake) || w->wake.time_ps > first))
		rc = uet_evq_schedule(wake_q, &w->wake, first);
	if (rc < 0)
		w->err = rc;
	return rc;
}

void run_wl_completion(struct run_wl *w, const struct uet_ses_completion *c)
{
	struct uet_wl_msg_info info;
	int rc;

	if (c->kind != UET_SES_SENT && c->kind != UET_SES_ARRIVED)
		return;
	pthread_mutex_lock(&w->lock);
	if (w->eng == NULL || w->err != 0) {
		pthread_mutex_unlock(&w->lock);
		return;
	}
	/* SENT comes from the source's NIC, ARRIVED from the
	 * destination's: posts for any other NIC wait for the flush. */
	rc = uet_wl_engine_msg_info(w->eng, c->msg_id, &info);
	if (rc == 0) {
		w->running_rank = c->kind == UET_SES_SENT ? info.src : info.dst;
		if (c->kind == UET_SES_SENT)
			rc = uet_wl_engine_sent(w->eng, c->msg_id, c->time_ps);
		else
			rc = uet_wl_engine_arrived(w->eng, c->msg_id,
						   c->time_ps);
		w->running_rank = RUN_WL_NO_RANK;
	}
	if (rc < 0) {
		fprintf(stderr,
			"uet-emu: workload message %" PRIu64 ": the engine "
			"failed: %s\n",
			c->msg_id, strerror(-rc));
		w->err = rc;
	}
	pthread_mutex_unlock(&w->lock);
}

uint32_t run_wl_send_peers(const struct run_wl *w, uint32_t rank)
{
	const struct uet_wl_rank *rk;
	uint8_t *seen;
	uint32_t i, n = 0;

	if (rank >= w->prog.n_ranks)
		return 0;
	rk = &w->prog.ranks[rank];
	seen = calloc(w->prog.n_ranks, 1);
	if (seen == NULL)
		return w->prog.n_ranks;
	for (i = 0; i < rk->n_nodes; i++) {
		const struct uet_wl_node *nd = &rk->nodes[i];

		if (nd->op == UET_WL_SEND && nd->peer < w->prog.n_ranks &&
		    !seen[nd->peer]) {
			seen[nd->peer] = 1;
			n++;
		}
	}
	free(seen);
	return n;
}

bool run_wl_ties_ranks(const struct run_wl *w)
{
	return w->prog.n_triggers > 0;
}

int run_wl_error(const struct run_wl *w)
{
	return w->err;
}

bool run_wl_done(const struct run_wl *w)
{
	return w->eng != NULL && w->err == 0 && uet_wl_engine_done(w->eng);
}

void run_wl_summary(const struct run_wl *w, FILE *f)
{
	char vt[UET_UNITS_FMT_LEN], what[256];
	uet_time_t first = UET_TIME_NEVER, last = 0;
	uint32_t r, done = 0, listed = 0;
	bool each;

	if (w->eng == NULL)
		return;
	/* Many ranks: the completed ones in one line (workload.csv has
	 * each), the others still one by one, up to the list's length. */
	each = w->prog.n_ranks <= RUN_SUMMARY_LIST_MAX;
	for (r = 0; r < w->prog.n_ranks; r++) {
		uet_time_t end = uet_wl_engine_rank_end_ps(w->eng, r);

		if (end != UET_TIME_NEVER) {
			done++;
			first = end < first ? end : first;
			last = end > last ? end : last;
			if (!each)
				continue;
			uet_time_format(end, vt, sizeof(vt));
			fprintf(f,
				"uet-emu: rank %u: trace completed at %s "
				"(%" PRIu64 " ps), %u nodes\n",
				r, vt, end, w->prog.ranks[r].n_nodes);
			continue;
		}
		if (listed++ >= RUN_SUMMARY_LIST_MAX)
			continue;
		uet_wl_engine_describe_rank(w->eng, r, what, sizeof(what));
		fprintf(f,
			"uet-emu: rank %u: not completed, %u of %u nodes: %s\n",
			r, uet_wl_engine_rank_finished(w->eng, r),
			w->prog.ranks[r].n_nodes, what);
	}
	if (listed > RUN_SUMMARY_LIST_MAX)
		fprintf(f, "uet-emu: and %u more ranks not completed\n",
			listed - RUN_SUMMARY_LIST_MAX);
	if (each || done == 0)
		return;
	uet_time_format(first, what, sizeof(what));
	uet_time_format(last, vt, sizeof(vt));
	fprintf(f,
		"uet-emu: %u of %u ranks' traces completed, between %s and %s "
		"(%" PRIu64 " ps; each rank in workload.csv)\n",
		done, w->prog.n_ranks, what, vt, last);
}

void run_wl_summary_csv(const struct run_wl *w, FILE *f)
{
	uint32_t r;

	if (w->eng == NULL)
		return;
	for (r = 0; r < w->prog.n_ranks; r++) {
		uet_time_t end = uet_wl_engine_rank_end_ps(w->eng, r);

		/* end_ps empty: the rank's trace did not complete. */
		if (end != UET_TIME_NEVER)
			fprintf(f, "rank.%u.end_ps,%" PRIu64 "\n", r, end);
		else
			fprintf(f, "rank.%u.end_ps,\n", r);
		fprintf(f, "rank.%u.nodes,%u\nrank.%u.nodes_finished,%u\n", r,
			w->prog.ranks[r].n_nodes, r,
			end != UET_TIME_NEVER
				? w->prog.ranks[r].n_nodes
				: uet_wl_engine_rank_finished(w->eng, r));
	}
}

/* workload-messages.csv: every posted message, by number. */
static int write_messages(const struct run_wl *w, struct uet_record *rec)
{
	struct uet_wl_msg_info info;
	uint64_t id;
	int rc;

	for (id = 0; id < w->prog.n_messages; id++) {
		struct uet_wl_message_row row;

		if (uet_wl_engine_msg_info(w->eng, id, &info) < 0)
			continue; /* never posted */
		row = (struct uet_wl_message_row){
			.msg_id = id,
			.src_rank = info.src,
			.dst_rank = info.dst,
			.bytes = info.bytes,
			.origin = info.origin,
			.posted_ps = info.posted_ps,
			.sent_ps = info.sent_ps,
			.arrived_ps = info.arrived_ps,
		};
		rc = uet_record_wl_message(rec, &row);
		if (rc < 0)
			return rc;
	}
	return 0;
}

int run_wl_write_record(const struct run_wl *w, struct uet_record *rec)
{
	uint32_t r, k;
	int rc;

	if (w->eng == NULL)
		return 0;
	for (r = 0; r < w->prog.n_ranks; r++) {
		const struct uet_wl_rank *rk = &w->prog.ranks[r];
		struct uet_workload_row row = {
			.rank = r,
			.begin_ps = 0,
			.end_ps = uet_wl_engine_rank_end_ps(w->eng, r),
		};

		rc = uet_record_workload(rec, &row);
		if (rc < 0)
			return rc;
		for (k = 0; k < rk->n_colls; k++) {
			row.collective = true;
			row.coll = k;
			row.name = rk->colls[k].name;
			row.type =
				uet_wl_coll_type_name(rk->colls[k].comm_type);
			row.bytes = rk->colls[k].bytes;
			/* Unfinished: -EAGAIN, the end NEVER (empty). */
			(void)uet_wl_engine_coll_times(
				w->eng, r, k, &row.begin_ps, &row.end_ps);
			rc = uet_record_workload(rec, &row);
			if (rc < 0)
				return rc;
		}
	}
	return write_messages(w, rec);
}

void run_wl_free(struct run_wl *w)
{
	if (w == NULL)
		return;
	pthread_mutex_destroy(&w->lock);
	uet_wl_engine_free(w->eng);
	uet_wl_program_free(&w->prog);
	free(w->held);
	free(w);
}
