/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-emu's workload driver. The program comes from the scenario's Chakra
 * traces; lib/workload's engine runs it. Every post goes to the NIC of the
 * rank that decides it, from that NIC's own completion (or before the run),
 * at a time no earlier than the completion: always in that NIC's present
 * or future, never in another NIC's past (docs/workload.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "run_workload.h"
#include "uet_host_addr.h"
#include "uet_nic.h"
#include "uet_record.h"
#include "uet_workload.h"

struct run_wl {
	const struct uet_scenario *sc;
	struct uet_wl_program prog;
	struct uet_wl_engine *eng;
	struct uet_nic *const *nics;
	int err;
};

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
	rc = algos_from_scenario(sc, &al);
	if (rc == 0)
		rc = uet_wl_chakra_load(&w->prog, sc->workload.chakra,
					sc->topology.hosts, &al, &err);
	if (rc < 0) {
		fprintf(stderr, "uet-emu: workload.chakra = %s: %s\n",
			sc->workload.chakra,
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

/* The engine's post: the source rank's own NIC. */
static int post(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes,
		uet_time_t at_ps, uint64_t msg_id)
{
	struct run_wl *w = ctx;
	int rc;

	rc = uet_nic_post_message(w->nics[src], uet_host_ipv4(dst), bytes,
				  at_ps, msg_id);
	if (rc < 0)
		fprintf(stderr,
			"uet-emu: cannot post workload message %" PRIu64
			" (rank %u -> %u, %" PRIu64 " bytes): %s\n",
			msg_id, src, dst, bytes, strerror(-rc));
	return rc;
}

int run_wl_start(struct run_wl *w, struct uet_nic *const *nics)
{
	int rc;

	w->nics = nics;
	rc = uet_wl_engine_create(&w->eng, &w->prog, post, w);
	if (rc == 0)
		rc = uet_wl_engine_start(w->eng);
	if (rc < 0)
		w->err = rc;
	return rc;
}

void run_wl_completion(struct run_wl *w, const struct uet_ses_completion *c)
{
	int rc;

	if (w->eng == NULL || w->err != 0)
		return;
	if (c->kind == UET_SES_SENT)
		rc = uet_wl_engine_sent(w->eng, c->msg_id, c->time_ps);
	else if (c->kind == UET_SES_ARRIVED)
		rc = uet_wl_engine_arrived(w->eng, c->msg_id, c->time_ps);
	else
		return;
	if (rc < 0) {
		fprintf(stderr,
			"uet-emu: workload message %" PRIu64 ": the engine "
			"failed: %s\n",
			c->msg_id, strerror(-rc));
		w->err = rc;
	}
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
	uint32_t r;

	if (w->eng == NULL)
		return;
	for (r = 0; r < w->prog.n_ranks; r++) {
		uet_time_t end = uet_wl_engine_rank_end_ps(w->eng, r);

		if (end != UET_TIME_NEVER) {
			uet_time_format(end, vt, sizeof(vt));
			fprintf(f,
				"uet-emu: rank %u: trace completed at %s "
				"(%" PRIu64 " ps), %u nodes\n",
				r, vt, end, w->prog.ranks[r].n_nodes);
			continue;
		}
		uet_wl_engine_describe_rank(w->eng, r, what, sizeof(what));
		fprintf(f,
			"uet-emu: rank %u: not completed, %u of %u nodes: %s\n",
			r, uet_wl_engine_rank_finished(w->eng, r),
			w->prog.ranks[r].n_nodes, what);
	}
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
	return 0;
}

void run_wl_free(struct run_wl *w)
{
	if (w == NULL)
		return;
	uet_wl_engine_free(w->eng);
	uet_wl_program_free(&w->prog);
	free(w);
}
