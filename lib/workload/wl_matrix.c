/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection matrices in uet-htsim's text format (.cm/.tm): a header of
 * counts, then one line per connection (timed or triggered message) and
 * per trigger. ../shared/workloads/htsim-cm/README.md describes the format;
 * docs/workload.md says what we take from it and what we refuse.
 *
 * The whole file is read into connection and trigger tables first (trigger
 * lines may follow the connections that name them), checked, then built
 * into a program: a SEND at the source (after a COMP of its start time or
 * a WAIT on its trigger) and a RECV at the destination.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_private.h"

/* Most tokens on one line: a connection has at most 8 keys and values. */
#define CM_MAX_TOKENS 32
/* Largest message a NIC takes (UET_SES_MAX_MESSAGE_BYTES). */
#define CM_MAX_BYTES UINT64_C(0xffffffff)
#define PS_PER_US UINT64_C(1000000)

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

__attribute__((format(printf, 3, 4))) static int
cm_fail(struct cm *c, uint32_t line, const char *fmt, ...)
{
	char what[UET_WL_ERROR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (line != 0)
		return wl_fail(c->err, "%s:%u: %s", c->name, line, what);
	return wl_fail(c->err, "%s: %s", c->name, what);
}

/* A whole token as a signed decimal integer. */
static bool parse_int(const char *t, int64_t *v)
{
	char *end;
	long long x;

	if (*t == '\0' || *t == '+')
		return false;
	errno = 0;
	x = strtoll(t, &end, 10);
	if (errno != 0 || *end != '\0')
		return false;
	*v = x;
	return true;
}

/* Microseconds written as digits with an optional fraction, to ps.
 * Digits past the picosecond are dropped. */
static bool parse_us(const char *t, uet_time_t *ps)
{
	uint64_t whole = 0, frac = 0, scale = PS_PER_US;
	const char *p = t;
	bool digits = false;

	for (; *p >= '0' && *p <= '9'; p++, digits = true) {
		if (whole > (UET_TIME_NEVER / PS_PER_US - 10) / 10)
			return false;
		whole = whole * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.')
		for (p++; *p >= '0' && *p <= '9'; p++, digits = true) {
			scale /= 10;
			frac += (uint64_t)(*p - '0') * scale;
		}
	if (!digits || *p != '\0')
		return false;
	*ps = whole * PS_PER_US + frac;
	return true;
}

/* Split a line on single spaces; a tab or an empty token is an error. */
static int tokenize(struct cm *c, char *line, char **tok, uint32_t *n)
{
	char *p = line;

	*n = 0;
	for (;;) {
		char *sp = strchr(p, ' ');

		if (*n == CM_MAX_TOKENS)
			return cm_fail(c, c->line,
				       "more than %u tokens on one line",
				       CM_MAX_TOKENS);
		if (sp != NULL)
			*sp = '\0';
		if (*p == '\0')
			return cm_fail(
				c, c->line,
				"two spaces in a row (or a space at the "
				"start): tokens are separated by exactly "
				"one space");
		if (strchr(p, '\t') != NULL)
			return cm_fail(c, c->line,
				       "a tab in '%s': tokens are separated by "
				       "one space, not tabs",
				       p);
		tok[(*n)++] = p;
		if (sp == NULL)
			return 0;
		p = sp + 1;
	}
}

/* A header line: Nodes, Connections, Triggers, Failures. Others are
 * ignored, as uet-htsim does. */
static int header_line(struct cm *c, char **tok, uint32_t n)
{
	static const char *const keys[] = {"Nodes", "Connections", "Triggers",
					   "Failures"};
	int64_t *vals[] = {&c->nodes, &c->connections, &c->triggers,
			   &c->failures};
	int64_t v;
	uint32_t i;

	for (i = 0; i < 4; i++)
		if (strcmp(tok[0], keys[i]) == 0)
			break;
	if (i == 4)
		return 0;
	if (n != 2 || !parse_int(tok[1], &v) || v < 0 || v > UINT32_MAX)
		return cm_fail(c, c->line,
			       "%s needs one whole number >= 0 after it, not "
			       "'%s'",
			       keys[i], n >= 2 ? tok[1] : "");
	if (*vals[i] >= 0)
		return cm_fail(c, c->line, "%s is given twice", keys[i]);
	*vals[i] = v;
	if (i == 0)
		c->nodes_line = c->line;
	return 0;
}

/* A trigger id after a key: a whole number other than 0. */
static int trigger_id(struct cm *c, const char *key, const char *t, int64_t *id)
{
	if (!parse_int(t, id) || *id == 0)
		return cm_fail(c, c->line,
			       "%s '%s': a trigger id is a whole number other "
			       "than 0",
			       key, t);
	return 0;
}

static int conn_line(struct cm *c, char **tok, uint32_t n)
{
	static const char *const keys[] = {"id",
					   "start",
					   "trigger",
					   "size",
					   "send_done_trigger",
					   "recv_done_trigger",
					   "msg",
					   "prio"};
	uint32_t seen[8] = {0};
	struct cm_conn cn = {.line = c->line};
	char *arrow = strstr(tok[0], "->");
	int64_t src, dst, v;
	uint32_t i, k;
	int rc;

	*arrow = '\0';
	if (!parse_int(tok[0], &src) || !parse_int(arrow + 2, &dst))
		return cm_fail(c, c->line,
			       "'%s->%s' is not <src>-><dst> with two host "
			       "numbers",
			       tok[0], arrow + 2);
	if (src < 0 || dst < 0 || src >= c->nodes || dst >= c->nodes)
		return cm_fail(c, c->line,
			       "%" PRId64 "->%" PRId64
			       ": hosts are 0 to %" PRId64 " (Nodes %" PRId64
			       ")",
			       src, dst, c->nodes - 1, c->nodes);
	if (src == dst)
		return cm_fail(c, c->line,
			       "%" PRId64 "->%" PRId64
			       ": a host cannot send to "
			       "itself",
			       src, dst);
	cn.src = (uint32_t)src;
	cn.dst = (uint32_t)dst;
	for (i = 1; i < n; i++) {
		for (k = 0; k < 8; k++)
			if (strcmp(tok[i], keys[k]) == 0)
				break;
		if (k == 8)
			return cm_fail(c, c->line,
				       "unknown token '%s': a connection takes "
				       "id, start, trigger, size, "
				       "send_done_trigger, recv_done_trigger, "
				       "msg and prio",
				       tok[i]);
		if (seen[k])
			return cm_fail(c, c->line, "%s is given twice",
				       keys[k]);
		seen[k] = 1;
		/* msg's number is optional: a key may follow it. */
		if (k == 6) {
			cn.msg = true;
			if (i + 1 < n && parse_int(tok[i + 1], &v)) {
				if (v == 0)
					return cm_fail(c, c->line,
						       "msg 0: a message id is "
						       "other than 0");
				i++;
			}
			continue;
		}
		if (i + 1 == n)
			return cm_fail(c, c->line, "%s has no value after it",
				       keys[k]);
		i++;
		switch (k) {
		case 0:
			if (!parse_int(tok[i], &cn.id) || cn.id == 0)
				return cm_fail(c, c->line,
					       "id '%s': a connection id is a "
					       "whole number other than 0",
					       tok[i]);
			break;
		case 1:
			if (!parse_us(tok[i], &cn.start_ps))
				return cm_fail(c, c->line,
					       "start '%s': a start is "
					       "microseconds >= 0, digits with "
					       "an optional fraction",
					       tok[i]);
			cn.has_start = true;
			break;
		case 2:
			rc = trigger_id(c, "trigger", tok[i], &cn.trigger);
			if (rc < 0)
				return rc;
			break;
		case 3:
			if (!parse_int(tok[i], &v) || v < 0 ||
			    (uint64_t)v > CM_MAX_BYTES)
				return cm_fail(c, c->line,
					       "size '%s': bytes, a whole "
					       "number from 0 to %" PRIu64,
					       tok[i], CM_MAX_BYTES);
			cn.bytes = (uint64_t)v;
			cn.has_size = true;
			break;
		case 4:
			rc = trigger_id(c, "send_done_trigger", tok[i],
					&cn.send_done);
			if (rc < 0)
				return rc;
			break;
		case 5:
			rc = trigger_id(c, "recv_done_trigger", tok[i],
					&cn.recv_done);
			if (rc < 0)
				return rc;
			break;
		default: /* prio: read, not used (nor by htsim_uec) */
			if (!parse_int(tok[i], &v))
				return cm_fail(c, c->line,
					       "prio '%s' is not a whole "
					       "number",
					       tok[i]);
			break;
		}
	}
	if (cn.has_start == (cn.trigger != 0))
		return cm_fail(c, c->line,
			       cn.has_start ? "both start and trigger: a "
					      "connection starts one way"
					    : "no start method: give start "
					      "<us> or trigger <id>");
	if (!cn.has_size)
		return cm_fail(c, c->line, "no size: give size <bytes>");
	if (cn.trigger != 0 && cn.id == 0)
		return cm_fail(c, c->line,
			       "a triggered connection needs an id");
	if (cn.msg && cn.id == 0)
		return cm_fail(c, c->line,
			       "msg needs the id of the connection it is a "
			       "message of");
	if (c->n_conns == c->cap_conns) {
		uint32_t cap = c->cap_conns ? c->cap_conns * 2u : 64u;
		void *p = realloc(c->conns, cap * sizeof(*c->conns));

		if (p == NULL)
			return -ENOMEM;
		c->conns = p;
		c->cap_conns = cap;
	}
	c->conns[c->n_conns++] = cn;
	return 0;
}

static int trigger_line(struct cm *c, char **tok, uint32_t n)
{
	struct cm_trig t = {.line = c->line};
	int rc;

	if (n < 4 || strcmp(tok[1], "id") != 0)
		return cm_fail(c, c->line,
			       "a trigger line is 'trigger id <K> oneshot | "
			       "multishot | barrier [count <n>]'");
	rc = trigger_id(c, "trigger id", tok[2], &t.id);
	if (rc < 0)
		return rc;
	if (strcmp(tok[3], "oneshot") == 0)
		t.kind = UET_WL_TRIG_ONESHOT;
	else if (strcmp(tok[3], "multishot") == 0)
		t.kind = UET_WL_TRIG_MULTISHOT;
	else if (strcmp(tok[3], "barrier") == 0)
		t.kind = UET_WL_TRIG_BARRIER;
	else
		return cm_fail(c, c->line,
			       "trigger type '%s': oneshot, multishot or "
			       "barrier",
			       tok[3]);
	if (n == 6 && strcmp(tok[4], "count") == 0) {
		int64_t v;

		if (!parse_int(tok[5], &v) || v < 1 || v > UINT32_MAX)
			return cm_fail(c, c->line,
				       "count '%s': a whole number >= 1",
				       tok[5]);
		if (t.kind != UET_WL_TRIG_BARRIER)
			return cm_fail(c, c->line,
				       "count applies to a barrier, not to "
				       "a %s trigger",
				       tok[3]);
		t.count = (uint32_t)v;
	} else if (n != 4) {
		return cm_fail(c, c->line,
			       "'%s' after the trigger type: only count <n>",
			       tok[4]);
	}
	if (t.kind == UET_WL_TRIG_BARRIER && t.count == 0)
		return cm_fail(c, c->line,
			       "a barrier needs count <n>: the activations it "
			       "waits for");
	if (c->n_trigs == c->cap_trigs) {
		uint32_t cap = c->cap_trigs ? c->cap_trigs * 2u : 16u;
		void *p = realloc(c->trigs, cap * sizeof(*c->trigs));

		if (p == NULL)
			return -ENOMEM;
		c->trigs = p;
		c->cap_trigs = cap;
	}
	c->trigs[c->n_trigs++] = t;
	return 0;
}

/* Read every line into the tables. */
static int cm_read(struct cm *c, const char *text, size_t len)
{
	char *tok[CM_MAX_TOKENS], *buf;
	bool body = false;
	size_t pos = 0;
	uint32_t n;
	int rc = 0;

	buf = malloc(len + 1);
	if (buf == NULL)
		return -ENOMEM;
	while (pos < len && rc == 0) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - (text + pos)) : len - pos;

		memcpy(buf, text + pos, l);
		pos += l + 1;
		c->line++;
		/* A CR of a DOS line end, and trailing spaces, go. */
		while (l > 0 && (buf[l - 1] == '\r' || buf[l - 1] == ' '))
			l--;
		buf[l] = '\0';
		if (l == 0)
			continue;
		if (memchr(buf, '\0', l) != NULL) {
			rc = cm_fail(c, c->line, "a NUL byte: not a text file");
			break;
		}
		rc = tokenize(c, buf, tok, &n);
		if (rc < 0)
			break;
		if (!body && (strstr(tok[0], "->") != NULL ||
			      strcmp(tok[0], "trigger") == 0 ||
			      strcmp(tok[0], "failure") == 0))
			body = true;
		if (!body) {
			if (tok[0][0] != '#')
				rc = header_line(c, tok, n);
			continue;
		}
		if (c->nodes < 0) {
			rc = cm_fail(c, c->line,
				     "the body starts before a Nodes line");
			break;
		}
		if (strstr(tok[0], "->") != NULL)
			rc = conn_line(c, tok, n);
		else if (strcmp(tok[0], "trigger") == 0)
			rc = trigger_line(c, tok, n);
		else if (strcmp(tok[0], "failure") == 0)
			rc = cm_fail(c, c->line,
				     "failure lines (switch link failures) "
				     "are not supported");
		else if (tok[0][0] == '#')
			rc = cm_fail(c, c->line,
				     "a comment after the header: comments "
				     "are allowed only before the first "
				     "connection");
		else
			rc = cm_fail(c, c->line,
				     "'%s' is not <src>-><dst>, trigger or "
				     "failure",
				     tok[0]);
	}
	free(buf);
	return rc;
}

static int trig_cmp(const void *a, const void *b)
{
	const struct cm_trig *x = a, *y = b;

	/* Lines break ties: a duplicate id is blamed on the later line. */
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int trig_id_cmp(const void *key, const void *elem)
{
	int64_t id = *(const int64_t *)key;
	const struct cm_trig *t = elem;

	return id < t->id ? -1 : id > t->id;
}

static struct cm_trig *trig_find(struct cm *c, int64_t id)
{
	if (c->n_trigs == 0)
		return NULL;
	return bsearch(&id, c->trigs, c->n_trigs, sizeof(*c->trigs),
		       trig_id_cmp);
}

/* Connections by (id, line), for the duplicate and msg checks. */
static int conn_idx_cmp(const void *a, const void *b, void *arg)
{
	const struct cm_conn *base = arg;
	const struct cm_conn *x = &base[*(const uint32_t *)a];
	const struct cm_conn *y = &base[*(const uint32_t *)b];

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int check_ids(struct cm *c)
{
	const struct cm_conn *first = NULL;
	uint32_t *idx, i;
	int rc = 0;

	idx = malloc((c->n_conns + 1u) * sizeof(*idx));
	if (idx == NULL)
		return -ENOMEM;
	for (i = 0; i < c->n_conns; i++)
		idx[i] = i;
	if (c->n_conns > 1)
		qsort_r(idx, c->n_conns, sizeof(*idx), conn_idx_cmp, c->conns);
	for (i = 0; i < c->n_conns && rc == 0; i++) {
		const struct cm_conn *x = &c->conns[idx[i]];
		bool later =
			i > 0 && x->id != 0 && c->conns[idx[i - 1]].id == x->id;

		if (x->id == 0)
			continue;
		/* The first line of the id's group. */
		if (!later)
			first = x;
		if (!later && x->msg)
			rc = cm_fail(c, x->line,
				     "msg: no earlier line has id %" PRId64
				     " (the first line of a connection has "
				     "no msg)",
				     x->id);
		else if (later && !x->msg)
			rc = cm_fail(c, x->line,
				     "id %" PRId64 " is already the id of line "
				     "%u (a further message of it needs msg)",
				     x->id, first->line);
		else if (later &&
			 (x->src != first->src || x->dst != first->dst))
			rc = cm_fail(c, x->line,
				     "msg on connection %" PRId64 " goes "
				     "%u->%u, and line %u made it %u->%u",
				     x->id, x->src, x->dst, first->line,
				     first->src, first->dst);
	}
	free(idx);
	return rc;
}

/* Count activators; trigger references must resolve. */
static int check_trigger_refs(struct cm *c)
{
	uint32_t i, e;

	for (i = 0; i < c->n_conns; i++) {
		const struct cm_conn *x = &c->conns[i];
		const int64_t ids[3] = {x->trigger, x->send_done, x->recv_done};
		const char *keys[3] = {"trigger", "send_done_trigger",
				       "recv_done_trigger"};

		for (e = 0; e < 3; e++) {
			struct cm_trig *t;

			if (ids[e] == 0)
				continue;
			t = trig_find(c, ids[e]);
			if (t == NULL)
				return cm_fail(c, x->line,
					       "%s %" PRId64 ": no trigger "
					       "line defines it",
					       keys[e], ids[e]);
			if (e == 0)
				continue;
			if (t->activators++ == 0)
				t->first_activator_line = x->line;
			else if (t->activators == 2)
				t->second_activator_line = x->line;
			if (e == 1 && ids[2] == ids[1])
				return cm_fail(c, x->line,
					       "send_done_trigger and "
					       "recv_done_trigger are both "
					       "%" PRId64,
					       ids[1]);
		}
	}
	for (i = 0; i < c->n_trigs; i++) {
		const struct cm_trig *t = &c->trigs[i];

		if (i > 0 && c->trigs[i - 1].id == t->id)
			return cm_fail(c, t->line,
				       "trigger id %" PRId64 " is already "
				       "defined on line %u",
				       t->id, c->trigs[i - 1].line);
		if (t->kind == UET_WL_TRIG_ONESHOT && t->activators > 1)
			return cm_fail(c, t->line,
				       "trigger %" PRId64 " is oneshot and "
				       "lines %u and %u both activate it: it "
				       "can fire only once",
				       t->id, t->first_activator_line,
				       t->second_activator_line);
	}
	return 0;
}

/*
 * Every connection must be able to start: timed ones do; a triggered one
 * when its trigger gets enough activations from connections that start
 * (one for oneshot; count for a barrier; its place among the waiters for
 * multishot). A worklist: each connection is taken once.
 */
static uint32_t trig_index(struct cm *c, int64_t id)
{
	return (uint32_t)(trig_find(c, id) - c->trigs);
}

static int check_starts(struct cm *c)
{
	uint32_t *acts, *off, *fill, *waiter, *queue, i, head = 0, tail = 0;
	int rc = 0;

	acts = calloc(c->n_trigs + 1u, sizeof(*acts));
	off = calloc(c->n_trigs + 2u, sizeof(*off));
	fill = calloc(c->n_trigs + 1u, sizeof(*fill));
	waiter = calloc(c->n_conns + 1u, sizeof(*waiter));
	queue = calloc(c->n_conns + 1u, sizeof(*queue));
	if (!acts || !off || !fill || !waiter || !queue) {
		rc = -ENOMEM;
		goto out;
	}
	/* The waiters of each trigger, in file order. */
	for (i = 0; i < c->n_conns; i++)
		if (c->conns[i].trigger != 0)
			off[trig_index(c, c->conns[i].trigger) + 1]++;
	for (i = 0; i < c->n_trigs; i++)
		off[i + 1] += off[i];
	for (i = 0; i < c->n_conns; i++) {
		struct cm_conn *x = &c->conns[i];

		x->startable = x->trigger == 0;
		if (x->startable) {
			queue[tail++] = i;
		} else {
			uint32_t k = trig_index(c, x->trigger);

			waiter[off[k] + fill[k]++] = i;
		}
	}
	while (head < tail) {
		const struct cm_conn *x = &c->conns[queue[head++]];
		const int64_t fires[2] = {x->send_done, x->recv_done};
		uint32_t e, k, w, from, to;

		for (e = 0; e < 2; e++) {
			const struct cm_trig *t;

			if (fires[e] == 0)
				continue;
			k = trig_index(c, fires[e]);
			t = &c->trigs[k];
			acts[k]++;
			/* Which waiters this activation starts. */
			if (t->kind == UET_WL_TRIG_MULTISHOT) {
				from = acts[k] - 1;
				to = acts[k];
			} else if (acts[k] == (t->kind == UET_WL_TRIG_BARRIER
						       ? t->count
						       : 1u)) {
				from = 0;
				to = off[k + 1] - off[k];
			} else {
				continue;
			}
			for (w = from; w < to && off[k] + w < off[k + 1]; w++) {
				uint32_t j = waiter[off[k] + w];

				c->conns[j].startable = true;
				queue[tail++] = j;
			}
		}
	}
	for (i = 0; i < c->n_conns && rc == 0; i++) {
		const struct cm_conn *x = &c->conns[i];
		const struct cm_trig *t;

		if (x->startable)
			continue;
		t = trig_find(c, x->trigger);
		rc = cm_fail(c, x->line,
			     "this connection can never start: trigger "
			     "%" PRId64 " (line %u) gets %u activation(s) "
			     "from connections that start, and %s",
			     x->trigger, t->line, acts[t - c->trigs],
			     t->kind == UET_WL_TRIG_BARRIER
				     ? "its count is higher"
			     : t->kind == UET_WL_TRIG_MULTISHOT
				     ? "fewer than the connections waiting "
				       "before this one and this one"
				     : "it needs one");
	}
out:
	free(acts);
	free(off);
	free(fill);
	free(waiter);
	free(queue);
	return rc;
}

static int cm_check(struct cm *c, uint32_t hosts)
{
	uint32_t i;
	int rc;

	if (c->nodes < 0)
		return cm_fail(c, 0, "no Nodes line in the header");
	if ((uint64_t)c->nodes != hosts)
		return cm_fail(c, c->nodes_line,
			       "Nodes %" PRId64 ", and topology.hosts is %u: "
			       "the matrix must name every host",
			       c->nodes, hosts);
	if (c->connections < 0)
		return cm_fail(c, 0, "no Connections line in the header");
	if ((uint64_t)c->connections != c->n_conns)
		return cm_fail(c, 0,
			       "Connections %" PRId64 " in the header, and "
			       "the file has %u connection lines",
			       c->connections, c->n_conns);
	if ((uint64_t)(c->triggers < 0 ? 0 : c->triggers) != c->n_trigs)
		return cm_fail(c, 0,
			       "Triggers %" PRId64 " in the header, and the "
			       "file has %u trigger lines",
			       c->triggers < 0 ? 0 : c->triggers, c->n_trigs);
	if (c->failures > 0)
		return cm_fail(c, 0,
			       "Failures %" PRId64 ": failure lines (switch "
			       "link failures) are not supported",
			       c->failures);
	/* Sorted by id from here on; lines stay in each entry. */
	if (c->n_trigs > 1)
		qsort(c->trigs, c->n_trigs, sizeof(*c->trigs), trig_cmp);
	rc = check_trigger_refs(c);
	if (rc == 0)
		rc = check_ids(c);
	if (rc == 0)
		rc = check_starts(c);
	for (i = 0; rc == 0 && i < c->n_trigs; i++)
		if (c->trigs[i].kind == UET_WL_TRIG_BARRIER &&
		    c->trigs[i].activators < c->trigs[i].count)
			rc = cm_fail(c, c->trigs[i].line,
				     "barrier %" PRId64 " counts to %u, and "
				     "only %u connection ends activate it",
				     c->trigs[i].id, c->trigs[i].count,
				     c->trigs[i].activators);
	return rc;
}

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
			send.trigger = (uint32_t)(trig_find(c, x->send_done) -
						  c->trigs) +
				       1;
		if (x->recv_done != 0)
			recv.trigger = (uint32_t)(trig_find(c, x->recv_done) -
						  c->trigs) +
				       1;
		if (x->trigger != 0) {
			rc = uet_wl_add_wait(
				prog, x->src,
				(uint32_t)(trig_find(c, x->trigger) - c->trigs),
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
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	FILE *f;
	int rc;

	memset(prog, 0, sizeof(*prog));
	f = fopen(path, "rb");
	if (f == NULL) {
		rc = -errno;
		(void)wl_fail(err, "%s: cannot open: %s", path, strerror(-rc));
		return rc;
	}
	do {
		if (len == cap) {
			char *p;

			cap = cap ? cap * 2 : 65536;
			p = realloc(buf, cap);
			if (p == NULL) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = p;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got > 0);
	rc = ferror(f) ? -EIO : 0;
	fclose(f);
	if (rc < 0)
		(void)wl_fail(err, "%s: cannot read", path);
	else
		rc = uet_wl_matrix_parse(prog, path, buf, len, hosts, err);
	free(buf);
	return rc;
}
