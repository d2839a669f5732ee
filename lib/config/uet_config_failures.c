/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topology.failures: a list of links degraded or taken down at a virtual
 * time, each entry a mapping of the "topology.failures" rows. Whether a
 * link of that name exists is the fabric's to say (it names the links);
 * the loader checks the keys, the values and that an entry either
 * degrades or takes down.
 */
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "config_private.h"
#include "uet_config.h"

#define FAILURES_SECTION "topology.failures"

/* Rows of the failure entries: at most this many keys. */
#define FAILURE_KEYS_MAX 8

/* An entry before its keys: the rows' defaults (0ns, 100%, false). */
static void failure_defaults(struct uet_link_failure *f)
{
	memset(f, 0, sizeof(*f));
	f->rate_ppm = 1000000;
}

static int load_failure(struct cfg_ctx *c, const yaml_node_t *item,
			uint32_t idx)
{
	struct uet_link_failure *f = &c->s->topology.failures[idx];
	unsigned int seen[FAILURE_KEYS_MAX] = {0};
	unsigned int rate_line = 0;
	char item_path[64];
	yaml_node_pair_t *p;
	size_t i, row;

	snprintf(item_path, sizeof(item_path), FAILURES_SECTION "[%u]", idx);
	if (item->type != YAML_MAPPING_NODE)
		return cfg_fail(c, cfg_node_line(item), 0, item_path,
				cfg_node_text(item), false,
				"wrong type: a failure is a mapping {link, at, "
				"rate} or {link, at, down: true}");
	failure_defaults(f);
	for (p = item->data.mapping.pairs.start;
	     p < item->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		const struct uet_attr *a = NULL;
		char path[160];
		const char *name;
		int rc;

		if (k->type != YAML_SCALAR_NODE)
			return cfg_fail(c, cfg_node_line(k), 0, item_path, NULL,
					false,
					"keys must be plain names, not %s",
					cfg_node_text(k));
		name = (const char *)k->data.scalar.value;
		for (i = 0, row = 0; i < c->n_attrs; i++) {
			if (strcmp(c->attrs[i].section, FAILURES_SECTION))
				continue;
			if (strcmp(c->attrs[i].name, name) == 0) {
				a = &c->attrs[i];
				break;
			}
			row++;
		}
		snprintf(path, sizeof(path), "%s.%s", item_path, name);
		if (a == NULL || row >= FAILURE_KEYS_MAX)
			return cfg_fail(c, cfg_node_line(k), 0, path, NULL,
					false,
					"unknown key: a failure has link, at, "
					"rate and down");
		if (seen[row] != 0)
			return cfg_fail(c, cfg_node_line(k), 0, path, NULL,
					false,
					"duplicate key: already set at line %u",
					seen[row]);
		rc = cfg_parse_value(c, a, v, path, f);
		if (rc < 0)
			return rc;
		seen[row] = cfg_node_line(k);
		if (strcmp(name, "rate") == 0)
			rate_line = seen[row];
	}
	for (i = 0, row = 0; i < c->n_attrs; i++) {
		if (strcmp(c->attrs[i].section, FAILURES_SECTION))
			continue;
		if (c->attrs[i].def == NULL && row < FAILURE_KEYS_MAX &&
		    seen[row] == 0)
			return cfg_fail(c, cfg_node_line(item), 0, item_path,
					NULL, false, "missing key '%s'",
					c->attrs[i].name);
		row++;
	}
	if (f->link[0] == '\0')
		return cfg_fail(c, cfg_node_line(item), 0, item_path, NULL,
				false,
				"link must name a link (hostH, "
				"leafL-spineS, torE-aggA, aggA-coreC)");
	if (f->down && rate_line != 0) {
		char path[96];

		snprintf(path, sizeof(path), "%s.rate", item_path);
		return cfg_fail(c, rate_line, 0, path, NULL, false,
				"a failure either degrades the link (rate) "
				"or takes it down (down: true), not both");
	}
	return 0;
}

int cfg_load_failures(struct cfg_ctx *c, const yaml_node_t *seq)
{
	struct uet_topology_config *t = &c->s->topology;
	yaml_node_item_t *it;
	size_t n;
	uint32_t i = 0;

	if (seq->type == YAML_SCALAR_NODE && seq->data.scalar.length == 0)
		return 0;
	if (seq->type != YAML_SEQUENCE_NODE)
		return cfg_fail(c, cfg_node_line(seq), 0, FAILURES_SECTION,
				cfg_node_text(seq), false,
				"wrong type: expected a list of failures");
	n = (size_t)(seq->data.sequence.items.top -
		     seq->data.sequence.items.start);
	if (n > UET_CONFIG_FAILURES_MAX)
		return cfg_fail(c, cfg_node_line(seq), 0, FAILURES_SECTION,
				NULL, false, "too many failures: at most %u",
				UET_CONFIG_FAILURES_MAX);
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++, i++) {
		int rc =
			load_failure(c, yaml_document_get_node(c->doc, *it), i);

		if (rc < 0)
			return rc;
	}
	t->failure_count = (uint32_t)n;
	return 0;
}
