/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Scenario loading: walk the libyaml document, check every key and value
 * against the attribute table, then apply the rules that stop a run. Every
 * error names the file, line, key path, value and rule.
 */
#include <ctype.h>
#include <libgen.h>
#include <limits.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <yaml.h>

#include "config_private.h"
#include "uet_config.h"
#include "uet_infile.h"
#include "uet_time.h"
#include "uet_units.h"

static const char *const sections[] = {"run",	 "topology", "nic",	"pds",
				       "switch", "records",  "workload"};
#define N_SECTIONS (sizeof(sections) / sizeof(sections[0]))

/* Keys of workload that are not rows of the table: the message list and
 * the generator's mapping (its rows are section workload.generate). */
static const char *const workload_keys[] = {"messages", "generate"};
#define N_WORKLOAD_KEYS (sizeof(workload_keys) / sizeof(workload_keys[0]))

/* An empty value ("nic:" with nothing after it) reads as an empty map. */
static bool node_is_empty(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE &&
	       n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
	       (n->data.scalar.length == 0 ||
		strcmp((const char *)n->data.scalar.value, "~") == 0 ||
		strcmp((const char *)n->data.scalar.value, "null") == 0);
}

/* Edit distance, case-insensitive, for "did you mean"; capped at 99. */
static unsigned int edit_distance(const char *a, const char *b)
{
	unsigned int row[64], i, j;
	size_t la = strlen(a), lb = strlen(b);

	if (la >= 63 || lb >= 63)
		return 99;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		unsigned int diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			unsigned int cost = tolower((unsigned char)a[i - 1]) !=
					    tolower((unsigned char)b[j - 1]);
			unsigned int best = diag + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			unsigned int up = row[j];

			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* Closest of names to key within 2 edits (or 3 for long names), or NULL. */
static const char *closest(const char *key, const char *const *names, size_t n)
{
	const char *best = NULL;
	unsigned int best_d = 99;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned int d = edit_distance(key, names[i]);

		if (d < best_d) {
			best_d = d;
			best = names[i];
		}
	}
	if (best == NULL || best_d > (strlen(key) >= 12 ? 3u : 2u))
		return NULL;
	return best;
}

/* "unknown key" with the best hint: a near miss, or the right section. */
static int fail_unknown_key(struct cfg_ctx *c, const yaml_node_t *k,
			    const char *section, const char *key)
{
	const char *names[CFG_ATTRS_MAX] = {NULL};
	char path[160];
	const char *hint;
	size_t i, n = 0;

	snprintf(path, sizeof(path), "%s.%s", section, key);
	for (i = 0; i < c->n_attrs; i++)
		if (strcmp(c->attrs[i].section, section) == 0)
			names[n++] = c->attrs[i].name;
	hint = closest(key, names, n);
	if (hint != NULL)
		return cfg_fail(c, cfg_node_line(k), 0, path, NULL, false,
				"unknown key; did you mean '%s'?", hint);
	for (i = 0; i < c->n_attrs; i++)
		if (strcmp(c->attrs[i].name, key) == 0)
			return cfg_fail(c, cfg_node_line(k), 0, path, NULL,
					false,
					"unknown key; %s belongs in section "
					"'%s'",
					key, c->attrs[i].section);
	return cfg_fail(c, cfg_node_line(k), 0, path, NULL, false,
			"unknown key in section '%s'", section);
}

/* Walk a mapping's pairs as (key node, value node). */
#define FOR_PAIRS(doc, map, p)                                                 \
	for (p = (map)->data.mapping.pairs.start;                              \
	     p < (map)->data.mapping.pairs.top; p++)

static int check_key(struct cfg_ctx *c, const yaml_node_t *k, const char *where)
{
	if (k->type != YAML_SCALAR_NODE)
		return cfg_fail(c, cfg_node_line(k), 0, where, NULL, false,
				"keys must be plain names, not %s",
				cfg_node_text(k));
	return 0;
}

/* Row section.name of the table, or NULL; *idx set to its index. */
static const struct uet_attr *find_row(const struct cfg_ctx *c,
				       const char *section, const char *name,
				       size_t *idx)
{
	size_t i;

	for (i = 0; i < c->n_attrs; i++)
		if (strcmp(c->attrs[i].section, section) == 0 &&
		    strcmp(c->attrs[i].name, name) == 0) {
			*idx = i;
			return &c->attrs[i];
		}
	return NULL;
}

/* A value of an auto row that does not parse: its rule says auto loads
 * too. */
static int fail_or_auto(struct cfg_ctx *c)
{
	struct uet_config_error *e = c->err;

	if (e != NULL) {
		const char *more =
			"; or auto, the default, derived from the fabric";

		strncat(e->rule, more, sizeof(e->rule) - strlen(e->rule) - 1);
		strncat(e->message, more,
			sizeof(e->message) - strlen(e->message) - 1);
	}
	return -EINVAL;
}

/* One attribute of row i: no duplicate, a valid value (or auto where the
 * default is auto); remember where. */
static int load_attr(struct cfg_ctx *c, size_t i, const yaml_node_t *k,
		     const yaml_node_t *v)
{
	const struct uet_attr *a = &c->attrs[i];
	int auto_id = cfg_auto_attr(a);
	char path[160];

	snprintf(path, sizeof(path), "%s.%s", a->section, a->name);
	if (c->src[i].line != 0)
		return cfg_fail(c, cfg_node_line(k), 0, path, NULL, false,
				"duplicate key: already set at line %u",
				c->src[i].line);
	if (auto_id >= 0 && v->type == YAML_SCALAR_NODE &&
	    strcmp((const char *)v->data.scalar.value, "auto") == 0) {
		/* Left to the derivation, as when the key is left out. */
		c->s->derived.auto_mask |= 1u << auto_id;
	} else {
		int rc = cfg_parse_value(c, a, v, path, c->s);

		if (rc < 0)
			return auto_id >= 0 ? fail_or_auto(c) : rc;
		if (auto_id >= 0)
			c->s->derived.auto_mask &= ~(1u << auto_id);
	}
	c->src[i].line = cfg_node_line(k);
	c->src[i].text = cfg_node_text(v);
	return 0;
}

/* One section of attributes (run, topology, nic, ...). */
static int load_section(struct cfg_ctx *c, const char *section,
			const yaml_node_t *map)
{
	yaml_node_pair_t *p;
	size_t i;

	if (node_is_empty(map))
		return 0;
	if (map->type != YAML_MAPPING_NODE)
		return cfg_fail(c, cfg_node_line(map), 0, section,
				cfg_node_text(map), false,
				"wrong type: a section must be a mapping of "
				"attributes");
	FOR_PAIRS(c->doc, map, p)
	{
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *name;
		int rc = check_key(c, k, section);

		if (rc < 0)
			return rc;
		name = (const char *)k->data.scalar.value;
		if (strcmp(section, "topology") == 0 &&
		    strcmp(name, "failures") == 0) {
			rc = cfg_load_failures(c, v);
			if (rc < 0)
				return rc;
			continue;
		}
		if (find_row(c, section, name, &i) == NULL)
			return fail_unknown_key(c, k, section, name);
		rc = load_attr(c, i, k, v);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Set a message's fields to the defaults of its rows. */
static void message_defaults(struct cfg_ctx *c, struct uet_workload_message *m)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < c->n_attrs; i++) {
		const struct uet_attr *a = &c->attrs[i];
		uint64_t v = 0;

		if (strcmp(a->section, "workload.messages") != 0 ||
		    a->def == NULL)
			continue;
		/* Defaults are pinned by a unit test; they always parse. */
		if (a->type == UET_ATTR_DURATION)
			uet_time_parse(a->def, &v, NULL);
		cfg_field_set(a, m, v);
	}
}

int cfg_load_entry(struct cfg_ctx *c, const yaml_node_t *item,
		   const char *section, const char *item_path, void *obj,
		   unsigned int lines[CFG_ENTRY_ROWS_MAX], bool hint,
		   const char *unknown_rule)
{
	const char *names[CFG_ENTRY_ROWS_MAX];
	yaml_node_pair_t *p;
	size_t i, row, n_rows = 0;

	memset(lines, 0, CFG_ENTRY_ROWS_MAX * sizeof(lines[0]));
	for (i = 0; i < c->n_attrs && n_rows < CFG_ENTRY_ROWS_MAX; i++)
		if (strcmp(c->attrs[i].section, section) == 0)
			names[n_rows++] = c->attrs[i].name;
	FOR_PAIRS(c->doc, item, p)
	{
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const struct uet_attr *a = NULL;
		char path[160];
		const char *name;
		int rc = check_key(c, k, item_path);

		if (rc < 0)
			return rc;
		name = (const char *)k->data.scalar.value;
		for (row = 0; row < n_rows; row++)
			if (strcmp(names[row], name) == 0)
				break;
		if (row < n_rows)
			a = find_row(c, section, name, &i);
		snprintf(path, sizeof(path), "%s.%s", item_path, name);
		if (a == NULL) {
			const char *close =
				hint ? closest(name, names, n_rows) : NULL;

			if (close != NULL)
				return cfg_fail(c, cfg_node_line(k), 0, path,
						NULL, false,
						"unknown key; did you mean "
						"'%s'?",
						close);
			return cfg_fail(c, cfg_node_line(k), 0, path, NULL,
					false, "%s", unknown_rule);
		}
		if (lines[row] != 0)
			return cfg_fail(c, cfg_node_line(k), 0, path, NULL,
					false,
					"duplicate key: already set at line %u",
					lines[row]);
		rc = cfg_parse_value(c, a, v, path, obj);
		if (rc < 0)
			return rc;
		lines[row] = cfg_node_line(k);
	}
	for (row = 0; row < n_rows; row++) {
		const struct uet_attr *a = find_row(c, section, names[row], &i);

		if (a->def == NULL && lines[row] == 0)
			return cfg_fail(c, cfg_node_line(item), 0, item_path,
					NULL, false, "missing key '%s'",
					a->name);
	}
	return 0;
}

static int load_message(struct cfg_ctx *c, const yaml_node_t *item,
			uint32_t idx)
{
	struct uet_workload_message *m = &c->s->workload.messages[idx];
	struct cfg_msg_src *ms = &c->msg_src[idx];
	unsigned int lines[CFG_ENTRY_ROWS_MAX];
	char item_path[64];
	int rc;

	snprintf(item_path, sizeof(item_path), "workload.messages[%u]", idx);
	ms->line = cfg_node_line(item);
	if (item->type != YAML_MAPPING_NODE)
		return cfg_fail(c, cfg_node_line(item), 0, item_path,
				cfg_node_text(item), false,
				"wrong type: a message is a mapping {src, dst, "
				"size, at}");
	message_defaults(c, m);
	rc = cfg_load_entry(c, item, "workload.messages", item_path, m, lines,
			    true,
			    "unknown key: a message has src, dst, size "
			    "and at");
	if (rc < 0)
		return rc;
	/* Rows 0 and 1 of workload.messages: src and dst. */
	ms->src_line = lines[0];
	ms->dst_line = lines[1];
	return 0;
}

static int load_messages(struct cfg_ctx *c, const yaml_node_t *seq)
{
	struct uet_workload_config *w = &c->s->workload;
	yaml_node_item_t *it;
	size_t n;
	uint32_t i = 0;

	if (node_is_empty(seq))
		return 0;
	if (seq->type != YAML_SEQUENCE_NODE)
		return cfg_fail(c, cfg_node_line(seq), 0, "workload.messages",
				cfg_node_text(seq), false,
				"wrong type: expected a list of messages");
	n = (size_t)(seq->data.sequence.items.top -
		     seq->data.sequence.items.start);
	if (n > UET_CONFIG_MESSAGES_MAX)
		return cfg_fail(c, cfg_node_line(seq), 0, "workload.messages",
				NULL, false, "too many messages: at most %u",
				UET_CONFIG_MESSAGES_MAX);
	if (n == 0)
		return 0;
	w->messages = calloc(n, sizeof(*w->messages));
	c->msg_src = calloc(n, sizeof(*c->msg_src));
	if (w->messages == NULL || c->msg_src == NULL)
		return -ENOMEM;
	w->message_count = (uint32_t)n;
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++, i++) {
		int rc =
			load_message(c, yaml_document_get_node(c->doc, *it), i);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int load_workload(struct cfg_ctx *c, const yaml_node_t *map)
{
	unsigned int messages_line = 0, generate_line = 0;
	yaml_node_pair_t *p;

	if (node_is_empty(map))
		return 0;
	if (map->type != YAML_MAPPING_NODE)
		return cfg_fail(c, cfg_node_line(map), 0, "workload",
				cfg_node_text(map), false,
				"wrong type: a section must be a mapping");
	FOR_PAIRS(c->doc, map, p)
	{
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *name, *hint;
		char path[160];
		size_t i;
		int rc = check_key(c, k, "workload");
		if (rc < 0)
			return rc;
		name = (const char *)k->data.scalar.value;
		snprintf(path, sizeof(path), "workload.%s", name);
		if (strcmp(name, "messages") == 0) {
			if (messages_line != 0)
				return cfg_fail(c, cfg_node_line(k), 0, path,
						NULL, false,
						"duplicate key: already set at "
						"line %u",
						messages_line);
			messages_line = cfg_node_line(k);
			rc = load_messages(c, v);
			if (rc < 0)
				return rc;
			continue;
		}
		if (strcmp(name, "generate") == 0) {
			if (generate_line != 0)
				return cfg_fail(c, cfg_node_line(k), 0, path,
						NULL, false,
						"duplicate key: already set at "
						"line %u",
						generate_line);
			generate_line = cfg_node_line(k);
			rc = load_section(c, "workload.generate", v);
			if (rc < 0)
				return rc;
			continue;
		}
		if (find_row(c, "workload", name, &i) != NULL) {
			rc = load_attr(c, i, k, v);
			if (rc < 0)
				return rc;
			continue;
		}
		hint = closest(name, workload_keys, N_WORKLOAD_KEYS);
		if (hint != NULL)
			return cfg_fail(
				c, cfg_node_line(k), 0, path, NULL, false,
				"unknown key; did you mean '%s'?", hint);
		return fail_unknown_key(c, k, "workload", name);
	}
	return 0;
}

static int load_root(struct cfg_ctx *c)
{
	yaml_node_t *root = yaml_document_get_root_node(c->doc);
	unsigned int seen[N_SECTIONS] = {0};
	yaml_node_pair_t *p;
	size_t i;

	if (root == NULL || node_is_empty(root))
		return 0; /* an empty file: every default */
	if (root->type != YAML_MAPPING_NODE)
		return cfg_fail(c, cfg_node_line(root), 0, NULL, NULL, false,
				"the top level must be a mapping of sections: "
				"run, topology, nic, pds, switch, records, "
				"workload");
	FOR_PAIRS(c->doc, root, p)
	{
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const char *name;
		int rc = check_key(c, k, "(top level)");
		if (rc < 0)
			return rc;
		name = (const char *)k->data.scalar.value;
		for (i = 0; i < N_SECTIONS; i++)
			if (strcmp(name, sections[i]) == 0)
				break;
		if (i == N_SECTIONS) {
			const char *hint = closest(name, sections, N_SECTIONS);

			if (hint != NULL)
				return cfg_fail(c, cfg_node_line(k), 0, name,
						NULL, false,
						"unknown section; did you mean "
						"'%s'?",
						hint);
			return cfg_fail(c, cfg_node_line(k), 0, name, NULL,
					false,
					"unknown section; sections are run, "
					"topology, nic, pds, switch, records "
					"and workload");
		}
		if (seen[i] != 0)
			return cfg_fail(c, cfg_node_line(k), 0, name, NULL,
					false,
					"duplicate section: already at line %u",
					seen[i]);
		seen[i] = cfg_node_line(k);
		if (strcmp(name, "workload") == 0)
			rc = load_workload(c, v);
		else
			rc = load_section(c, name, v);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Load from text; relative workload paths start at base_dir (or NULL). */
static int load_text(struct uet_scenario *s, const char *name, const char *yaml,
		     size_t len, const char *base_dir,
		     struct uet_config_error *err)
{
	struct uet_scenario tmp;
	yaml_parser_t parser;
	yaml_document_t doc;
	struct cfg_ctx *c;
	int rc;

	uet_scenario_defaults(s);
	if (yaml == NULL)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	c->name = name != NULL ? name : "(scenario)";
	c->base_dir = base_dir;
	c->err = err;
	c->attrs = uet_config_attrs(&c->n_attrs);
	if (c->n_attrs > CFG_ATTRS_MAX) {
		free(c);
		return -EINVAL;
	}
	if (err != NULL)
		memset(err, 0, sizeof(*err));

	if (!yaml_parser_initialize(&parser)) {
		free(c);
		return -ENOMEM;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)yaml, len);
	if (!yaml_parser_load(&parser, &doc)) {
		rc = cfg_fail(c, (unsigned int)parser.problem_mark.line + 1,
			      (unsigned int)parser.problem_mark.column + 1,
			      NULL, NULL, false, "YAML syntax error: %s%s%s",
			      parser.problem ? parser.problem : "unknown",
			      parser.context ? " " : "",
			      parser.context ? parser.context : "");
		if (parser.error == YAML_MEMORY_ERROR)
			rc = -ENOMEM;
		yaml_parser_delete(&parser);
		free(c);
		return rc;
	}

	uet_scenario_defaults(&tmp);
	c->doc = &doc;
	c->s = &tmp;
	rc = load_root(c);
	if (rc == 0) {
		cfg_derive(&tmp);
		rc = cfg_check_rules(c);
	}
	if (rc == 0)
		*s = tmp;
	else
		uet_scenario_free(&tmp);
	free(c->msg_src);
	free(c);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return rc;
}

int uet_scenario_load_string(struct uet_scenario *s, const char *name,
			     const char *yaml, size_t len,
			     struct uet_config_error *err)
{
	return load_text(s, name, yaml, len, NULL, err);
}

int uet_scenario_load_file(struct uet_scenario *s, const char *path,
			   struct uet_config_error *err)
{
	struct cfg_ctx c = {.name = path, .err = err};
	struct uet_infile_info info;
	char *buf = NULL, why[160];
	size_t len = 0;
	int fd, rc;

	uet_scenario_defaults(s);
	if (path == NULL)
		return -EINVAL;
	/* A regular file of a bounded size: a FIFO would hang the load, a
	 * device or a huge file never end it. */
	rc = uet_infile_open(path, UET_CONFIG_FILE_MAX_BYTES, &fd, &info);
	if (rc == 0) {
		rc = uet_infile_read_fd(fd, UET_CONFIG_FILE_MAX_BYTES, &buf,
					&len);
		close(fd);
		if (rc == -EFBIG)
			info.size_bytes = UET_CONFIG_FILE_MAX_BYTES + 1;
	}
	if (rc == -ENOMEM)
		return rc;
	if (rc == -EFBIG)
		return cfg_fail(&c, 0, 0, NULL, NULL, false,
				"the file is larger than %" PRIu64
				" MiB, the most a scenario may be: "
				"not a scenario",
				UET_CONFIG_FILE_MAX_BYTES >> 20);
	if (rc == -EIO)
		return cfg_fail(&c, 0, 0, NULL, NULL, false,
				"cannot read the scenario: %s", strerror(EIO));
	if (rc < 0) {
		uet_infile_describe(rc, &info, UET_CONFIG_FILE_MAX_BYTES, why,
				    sizeof(why));
		return cfg_fail(&c, 0, 0, NULL, NULL, false,
				"cannot open the scenario: %s; give the path "
				"of a scenario file (YAML)",
				why);
	}
	{
		/* The scenario's folder, absolute: traces are found from it
		 * whatever the working directory of a later run. */
		char *copy = strdup(path), *dir = NULL;

		if (copy != NULL)
			dir = realpath(dirname(copy), NULL);
		rc = dir == NULL ? -ENOMEM
				 : load_text(s, path, buf, len, dir, err);
		free(dir);
		free(copy);
	}
	free(buf);
	return rc;
}

void uet_scenario_free(struct uet_scenario *s)
{
	free(s->workload.messages);
	s->workload.messages = NULL;
	s->workload.message_count = 0;
}
