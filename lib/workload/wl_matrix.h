/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection matrices inside lib/workload: the tables a file is read into
 * (wl_matrix_read.c), checked (wl_matrix_check.c) and built into a program
 * from (wl_matrix.c).
 */
#ifndef WL_MATRIX_H
#define WL_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wl_private.h"

struct cm_conn {
	uint32_t line;
	uint32_t src, dst;
	int64_t id; /* 0: none */
	bool has_start;
	uet_time_t start_ps;
	int64_t trigger; /* 0: timed */
	uint64_t bytes;
	bool has_size;
	int64_t send_done; /* 0: none */
	int64_t recv_done; /* 0: none */
	bool msg;	   /* a later message of connection id */
	bool startable;	   /* for the never-starts check */
};

struct cm_trig {
	uint32_t line;
	int64_t id;
	enum uet_wl_trigger_kind kind;
	uint32_t count;
	uint32_t activators; /* connection ends that activate it */
	uint32_t first_activator_line, second_activator_line;
};

struct cm {
	const char *name;
	struct uet_wl_error *err;
	uint32_t line;
	/* header */
	int64_t nodes, connections, triggers, failures;
	uint32_t nodes_line;
	struct cm_conn *conns;
	uint32_t n_conns, cap_conns;
	struct cm_trig *trigs;
	uint32_t n_trigs, cap_trigs;
};

/* Fail with "name:line: what" (no line: "name: what"); returns -EINVAL. */
__attribute__((format(printf, 3, 4))) int cm_fail(struct cm *c, uint32_t line,
						  const char *fmt, ...);
/* Read every line of text into c's tables (wl_matrix_read.c). */
int cm_read(struct cm *c, const char *text, size_t len);
/* Check the tables against the header and each other, for a run of hosts
 * hosts; sorts the triggers by id (wl_matrix_check.c). */
int cm_check(struct cm *c, uint32_t hosts);
/* The trigger of id, the triggers sorted (after cm_check()). */
struct cm_trig *cm_trig_find(struct cm *c, int64_t id);

#endif /* WL_MATRIX_H */
