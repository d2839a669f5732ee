/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection matrices: reading. Every line of a .cm/.tm file into the
 * connection and trigger tables (trigger lines may follow the connections
 * that name them), each checked on its own; wl_matrix_check.c checks them
 * together.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wl_matrix.h"

/* Most tokens on one line: a connection has at most 8 keys and values. */
#define CM_MAX_TOKENS 32
/* Largest message a NIC takes (UET_SES_MAX_MESSAGE_BYTES). */
#define CM_MAX_BYTES UINT64_C(0xffffffff)
#define PS_PER_US UINT64_C(1000000)

int cm_fail(struct cm *c, uint32_t line, const char *fmt, ...)
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
int cm_read(struct cm *c, const char *text, size_t len)
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
