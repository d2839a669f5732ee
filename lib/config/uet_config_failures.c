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

/* An entry before its keys: the rows' defaults (0ns, 100%, false). */
static void failure_defaults(struct uet_link_failure *f)
{
	memset(f, 0, sizeof(*f));
	f->rate_ppm = 1000000;
}

/* Row 2 of topology.failures (link, at, rate, down). */
#define FAILURE_ROW_RATE 2

static int load_failure(struct cfg_ctx *c, const yaml_node_t *item,
			uint32_t idx)
{
	struct uet_link_failure *f = &c->s->topology.failures[idx];
	unsigned int lines[CFG_ENTRY_ROWS_MAX];
	char item_path[64];
	int rc;

	snprintf(item_path, sizeof(item_path), FAILURES_SECTION "[%u]", idx);
	if (item->type != YAML_MAPPING_NODE)
		return cfg_fail(c, cfg_node_line(item), 0, item_path,
				cfg_node_text(item), false,
				"wrong type: a failure is a mapping {link, at, "
				"rate} or {link, at, down: true}");
	failure_defaults(f);
	rc = cfg_load_entry(c, item, FAILURES_SECTION, item_path, f, lines,
			    false,
			    "unknown key: a failure has link, at, rate "
			    "and down");
	if (rc < 0)
		return rc;
	if (f->link[0] == '\0')
		return cfg_fail(c, cfg_node_line(item), 0, item_path, NULL,
				false,
				"link must name a link (hostH, "
				"leafL-spineS, torE-aggA, aggA-coreC)");
	if (f->down && lines[FAILURE_ROW_RATE] != 0) {
		char path[96];

		snprintf(path, sizeof(path), "%s.rate", item_path);
		return cfg_fail(c, lines[FAILURE_ROW_RATE], 0, path, NULL,
				false,
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
