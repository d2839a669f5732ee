/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-emu's workload driver. The program comes from the scenario's Chakra
 * traces, connection matrix or generator; lib/workload's engine runs it.
 * A post decided by a NIC's own completion (or before the run) goes to
 * that NIC at once, at a time no earlier than the completion: in its
 * present or future. What a completion changes on other hosts (a
 * connection-matrix trigger's starts, and every activation of a trigger
 * that several hosts activate) the engine defers to its flush, which
 * runs here once every NIC has run the window (run_wl_flush()): those
 * starts are the trigger delay (>= the lookahead) after their
 * activation, so in every NIC's future (docs/workload.md).
 *
 * Over MPI ranks every rank runs the same engine over the whole program.
 * A rank's NICs' completions are handled here as they come, and logged;
 * each window's log goes to every other rank (run_mpi_window.c), which
 * replays it into its engine before its flush. Live and replayed
 * completions change only their own host's state, the flush applies the
 * rest in one order, so every engine ends each window the same and makes
 * the same posts. A rank posts only on its own NICs: the others' owners
 * post the same messages (a NIC writes a post's rows when it runs it).
 * The start, before the shares are known, posts on every NIC, as a
 * message list is posted.
 *
 * Over ports (uet-switch and uet-nic processes) the same holds, the logs
 * carried by the lockstep's window notes (run_workload_notes.c); a
 * uet-nic has only its own NICs' models, so its share is set before the
 * start, and the switch's process, which hosts no NIC and hears every
 * log, alone writes the program's records.
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

/* A completion in the log, as it crosses ranks: the message with the
 * kind in its top bit (set: ARRIVED), and the time. */
struct run_wl_logged {
	uint64_t id_kind;
	uet_time_t time_ps;
};

#define RUN_WL_ARRIVED_BIT (UINT64_C(1) << 63)

struct run_wl {
	const struct uet_scenario *sc;
	struct uet_wl_program prog;
	struct uet_wl_engine *eng;
	struct uet_nic *const *nics; /* nics[0] is host nics_first's */
	uint32_t nics_first;
	bool keeper; /* writes the records and summary rows */
	/* The NICs whose posts this process makes (all but over ranks):
	 * nic_first .. nic_first + nic_count - 1. */
	uint32_t nic_first, nic_count;
	bool flushing;		  /* in run_wl_flush() */
	uet_time_t first_post_ps; /* the flush's earliest post, any NIC's */
	/* Over ranks: this rank's completions since the last pack. */
	bool logging;
	struct run_wl_logged *log;
	uint32_t n_log, cap_log;
	struct uet_event wake; /* in the switch's queue: the next window */
	/* Completions come from NICs on several lcores (uet-emu): one at a
	 * time through the engine. A completion changes only its own
	 * host's state until the flush, so their order across hosts does
	 * not matter. */
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
	w->nic_count = sc->topology.hosts;
	w->keeper = true;
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

/* The engine's post: on the source's NIC if this process runs it. */
static int post(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes,
		uet_time_t at_ps, uint64_t msg_id)
{
	struct run_wl *w = ctx;
	int rc;

	if (w->flushing && at_ps < w->first_post_ps)
		w->first_post_ps = at_ps;
	if (src < w->nic_first || src - w->nic_first >= w->nic_count)
		return 0; /* another rank's NIC: its owner posts it */
	rc = uet_nic_post_message(w->nics[src - w->nics_first],
				  uet_host_ipv4(dst), bytes, at_ps, msg_id);
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
		 uint32_t nics_first, uet_time_t trigger_delay_ps)
{
	int rc;

	w->nics = nics;
	w->nics_first = nics_first;
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

void run_wl_set_share(struct run_wl *w, uint32_t nic_first, uint32_t nic_count,
		      bool log)
{
	w->nic_first = nic_first;
	w->nic_count = nic_count;
	w->logging = log;
}

void run_wl_set_keeper(struct run_wl *w, bool keeper)
{
	w->keeper = keeper;
}

uint64_t run_wl_messages_from(const struct run_wl *w, uint32_t first,
			      uint32_t count)
{
	const struct uet_wl_program *p = &w->prog;
	uint32_t end = first + count;

	if (first >= p->n_ranks || count == 0)
		return 0;
	if (end >= p->n_ranks)
		return p->n_messages - p->msg_base[first];
	return p->msg_base[end] - p->msg_base[first];
}

int run_wl_flush(struct run_wl *w, struct uet_evq *wake_q)
{
	int rc;

	if (w->err != 0 || w->eng == NULL)
		return w->err;
	w->flushing = true;
	w->first_post_ps = UET_TIME_NEVER;
	rc = uet_wl_engine_flush(w->eng);
	w->flushing = false;
	/* Every process schedules the same wake-up (the switch's own queue
	 * runs alike on every rank), whichever NICs it posted on; a
	 * process without the switch has no queue that decides a window. */
	if (rc == 0 && wake_q != NULL && w->first_post_ps != UET_TIME_NEVER &&
	    (!uet_event_pending(&w->wake) ||
	     w->wake.time_ps > w->first_post_ps))
		rc = uet_evq_schedule(wake_q, &w->wake, w->first_post_ps);
	if (rc < 0)
		w->err = rc;
	return rc;
}

/* The engine takes a completion (the lock held); a failure is kept. */
static void take(struct run_wl *w, uint64_t msg_id, bool arrived,
		 uet_time_t time_ps, const char *whose)
{
	int rc = arrived ? uet_wl_engine_arrived(w->eng, msg_id, time_ps)
			 : uet_wl_engine_sent(w->eng, msg_id, time_ps);

	if (rc < 0) {
		fprintf(stderr,
			"uet-emu: workload message %" PRIu64 ": the engine "
			"failed on its %s %s: %s\n",
			msg_id, whose, arrived ? "arrival" : "send completion",
			strerror(-rc));
		w->err = rc;
	}
}

/* Room for one more logged completion. */
static int log_room(struct run_wl *w)
{
	uint32_t cap;
	void *p;

	if (w->n_log < w->cap_log)
		return 0;
	cap = w->cap_log != 0 ? 2u * w->cap_log : 256u;
	p = realloc(w->log, (size_t)cap * sizeof(*w->log));
	if (p == NULL)
		return -ENOMEM;
	w->log = p;
	w->cap_log = cap;
	return 0;
}

void run_wl_completion(struct run_wl *w, const struct uet_ses_completion *c)
{
	if (c->kind != UET_SES_SENT && c->kind != UET_SES_ARRIVED)
		return;
	pthread_mutex_lock(&w->lock);
	if (w->eng == NULL || w->err != 0) {
		pthread_mutex_unlock(&w->lock);
		return;
	}
	take(w, c->msg_id, c->kind == UET_SES_ARRIVED, c->time_ps, "own");
	/* The other ranks replay it in the order this engine took it. */
	if (w->err == 0 && w->logging) {
		if (log_room(w) < 0) {
			w->err = -ENOMEM;
		} else {
			w->log[w->n_log++] = (struct run_wl_logged){
				.id_kind = c->msg_id |
					   (c->kind == UET_SES_ARRIVED
						    ? RUN_WL_ARRIVED_BIT
						    : 0),
				.time_ps = c->time_ps,
			};
		}
	}
	pthread_mutex_unlock(&w->lock);
}

int run_wl_pack_log(struct run_wl *w, uint8_t *dst, size_t room, size_t *used)
{
	const uint32_t n = w->n_log;
	const size_t need = sizeof(n) + (size_t)n * sizeof(*w->log);

	if (room < need)
		return -ENOSPC;
	memcpy(dst, &n, sizeof(n));
	if (n > 0)
		memcpy(dst + sizeof(n), w->log, (size_t)n * sizeof(*w->log));
	w->n_log = 0;
	*used = need;
	return 0;
}

size_t run_wl_log_bytes(const struct run_wl *w)
{
	return sizeof(uint32_t) + (size_t)w->n_log * sizeof(*w->log);
}

int run_wl_replay(struct run_wl *w, const uint8_t *src, size_t len,
		  size_t *used)
{
	struct run_wl_logged c;
	uint32_t n, i;

	if (len < sizeof(n))
		return -EBADMSG;
	memcpy(&n, src, sizeof(n));
	if ((len - sizeof(n)) / sizeof(c) < n)
		return -EBADMSG;
	for (i = 0; i < n && w->err == 0 && w->eng != NULL; i++) {
		uint64_t id;

		memcpy(&c, src + sizeof(n) + (size_t)i * sizeof(c), sizeof(c));
		id = c.id_kind & ~RUN_WL_ARRIVED_BIT;
		if (id >= w->prog.n_messages)
			return -EBADMSG;
		take(w, id, (c.id_kind & RUN_WL_ARRIVED_BIT) != 0, c.time_ps,
		     "replayed");
	}
	*used = sizeof(n) + (size_t)n * sizeof(c);
	return w->err;
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

	if (w->eng == NULL || !w->keeper)
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

	if (w->eng == NULL || !w->keeper)
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
	free(w->log);
	free(w);
}
