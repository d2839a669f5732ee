/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection matrices in uet-htsim's text format (.cm/.tm): a header of
 * counts, then one line per connection (timed or triggered message) and
 * per trigger. tests/data/workloads/htsim-cm/README.md describes the format;
 * docs/workload.md says what we take from it and what we refuse.
 *
 * The whole file is read into connection and trigger tables first
 * (wl_matrix_read.c), checked (wl_matrix_check.c), then built here
 * into a program: a SEND at the source (after a COMP of its start time or
 * a WAIT on its trigger) and a RECV at the destination.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uet_infile.h"
#include "wl_matrix.h"

/* The program: triggers first (in id order), then each connection in file
 * order, so that multishot targets are in file order. */
static int cm_build(struct cm *c, struct uet_wl_program *prog,
		    struct uet_wl_error *err)
{
	uint32_t i;
	int rc;

	rc = uet_wl_program_init(prog, (uint32_t)c->nodes);
	for (i = 0; rc == 0 && i < c->n_trigs; i++)
		rc = uet_wl_add_trigger(prog, (uint64_t)c->trigs[i].id,
					c->trigs[i].kind, c->trigs[i].count,
					NULL);
	for (i = 0; rc == 0 && i < c->n_conns; i++) {
		const struct cm_conn *x = &c->conns[i];
		struct uet_wl_node send = {.trace_id = x->line,
					   .op = UET_WL_SEND,
					   .peer = x->dst,
					   .tag = i,
					   .bytes = x->bytes,
					   .coll = -1};
		struct uet_wl_node recv = {.trace_id = x->line,
					   .op = UET_WL_RECV,
					   .peer = x->src,
					   .tag = i,
					   .coll = -1};
		uint32_t before = UINT32_MAX;

		if (x->send_done != 0)
			send.trigger =
				(uint32_t)(cm_trig_find(c, x->send_done) -
					   c->trigs) +
				1;
		if (x->recv_done != 0)
			recv.trigger =
				(uint32_t)(cm_trig_find(c, x->recv_done) -
					   c->trigs) +
				1;
		if (x->trigger != 0) {
			rc = uet_wl_add_wait(
				prog, x->src,
				(uint32_t)(cm_trig_find(c, x->trigger) -
					   c->trigs),
				x->line, &before);
		} else if (x->start_ps > 0) {
			struct uet_wl_node comp = {.trace_id = x->line,
						   .op = UET_WL_COMP,
						   .duration_ps = x->start_ps,
						   .coll = -1};

			rc = uet_wl_add_node(prog, x->src, &comp, &before);
		}
		if (before != UINT32_MAX) {
			send.n_deps = 1;
			send.deps = &before;
		}
		if (rc == 0)
			rc = uet_wl_add_node(prog, x->src, &send, NULL);
		if (rc == 0)
			rc = uet_wl_add_node(prog, x->dst, &recv, NULL);
	}
	if (rc == 0)
		rc = uet_wl_program_check(prog, err);
	return rc;
}

int uet_wl_matrix_parse(struct uet_wl_program *prog, const char *name,
			const char *text, size_t len, uint32_t hosts,
			struct uet_wl_error *err)
{
	struct cm c = {
		.name = name != NULL ? name : "(matrix)",
		.err = err,
		.nodes = -1,
		.connections = -1,
		.triggers = -1,
		.failures = -1,
	};
	int rc;

	memset(prog, 0, sizeof(*prog));
	if (err != NULL)
		err->message[0] = '\0';
	rc = cm_read(&c, text, len);
	if (rc == 0)
		rc = cm_check(&c, hosts);
	if (rc == 0)
		rc = cm_build(&c, prog, err);
	free(c.conns);
	free(c.trigs);
	return rc;
}

int uet_wl_matrix_load(struct uet_wl_program *prog, const char *path,
		       uint32_t hosts, struct uet_wl_error *err)
{
	struct uet_infile_info info;
	char *buf = NULL, why[160];
	size_t len = 0;
	int fd, rc;

	memset(prog, 0, sizeof(*prog));
	/* A regular file of a bounded size, checked before it is read: a
	 * FIFO would hang the run, /dev/zero never end it. */
	rc = uet_infile_open(path, WL_MATRIX_MAX_BYTES, &fd, &info);
	if (rc == 0) {
		rc = uet_infile_read_fd(fd, WL_MATRIX_MAX_BYTES, &buf, &len);
		close(fd);
		if (rc == -EFBIG)
			info.size_bytes = WL_MATRIX_MAX_BYTES + 1;
	}
	if (rc == -ENOMEM || rc == -EIO) {
		(void)wl_fail(err, "%s: cannot read: %s", path, strerror(-rc));
		return rc;
	}
	if (rc < 0) {
		uet_infile_describe(rc, &info, WL_MATRIX_MAX_BYTES, why,
				    sizeof(why));
		(void)wl_fail(err,
			      "%s: %s: give the path of a connection matrix "
			      "file",
			      path, why);
		return rc;
	}
	rc = uet_wl_matrix_parse(prog, path, buf, len, hosts, err);
	free(buf);
	return rc;
}
