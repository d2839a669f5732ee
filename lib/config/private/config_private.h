/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the loader and the printer; not part of the API. */
#ifndef UET_CONFIG_PRIVATE_H
#define UET_CONFIG_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <yaml.h>

#include "uet_config.h"

/** Room for any formatted value but a path or string. */
#define CFG_VALUE_LEN 64

/* Store v into the field of a row at base (a scenario or a message). */
void cfg_field_set(const struct uet_attr *a, void *base, uint64_t v);
/* Read the field of a row at base as a number (not for paths/strings). */
uint64_t cfg_field_get(const struct uet_attr *a, const void *base);
/*
 * Format a number of the row's type as it is written in YAML, the form the
 * parsers read back exactly. Returns the length or a negative errno.
 */
int cfg_format_value(const struct uet_attr *a, uint64_t v, char *buf,
		     size_t len);
/* Loader state, shared by the loader and the rules. */
/* The table holds fewer rows than this; checked when a load starts. */
#define CFG_ATTRS_MAX 128

/* Where an attribute's value came from: its line and text, if written. */
struct cfg_src {
	unsigned int line; /* 1-based; 0 when the default applies */
	const char *text;  /* scalar as written; owned by the document */
};

/* Lines of one workload message, for rules checked after every section. */
struct cfg_msg_src {
	unsigned int line;
	unsigned int src_line;
	unsigned int dst_line;
};

/* One load in progress. */
struct cfg_ctx {
	const char *name; /* file name used in messages */
	/* Folder relative workload paths start from (the scenario file's,
	 * absolute), or NULL: the working directory. */
	const char *base_dir;
	yaml_document_t *doc;
	struct uet_scenario *s;
	struct uet_config_error *err;
	const struct uet_attr *attrs;
	size_t n_attrs;
	struct cfg_src src[CFG_ATTRS_MAX];
	struct cfg_msg_src *msg_src;
};

/*
 * Record an error. line 0 means no line applies (a default broke a rule);
 * key and value may be NULL. Always returns -EINVAL so callers can
 * `return cfg_fail(...)`.
 */
__attribute__((format(printf, 7, 8))) int
cfg_fail(struct cfg_ctx *c, unsigned int line, unsigned int column,
	 const char *key, const char *value, bool is_default, const char *fmt,
	 ...);
/*
 * Fail a rule on the attribute section.name (a row of the table): name
 * its line and text, or its default when the scenario left it out.
 * Returns -EINVAL.
 */
__attribute__((format(printf, 4, 5))) int cfg_fail_attr(struct cfg_ctx *c,
							const char *section,
							const char *name,
							const char *fmt, ...);
/* 1-based line of a node. */
unsigned int cfg_node_line(const yaml_node_t *n);
/* A scalar's text, or "(a mapping)" / "(a list)" for messages. */
const char *cfg_node_text(const yaml_node_t *n);
/*
 * Parse the scalar n as a value of row a and store it in the field at base
 * (a scenario or a message); key is the path errors name.
 */
int cfg_parse_value(struct cfg_ctx *c, const struct uet_attr *a,
		    const yaml_node_t *n, const char *key, void *base);
/* topology.failures: the list seq into s->topology.failures. */
int cfg_load_failures(struct cfg_ctx *c, const yaml_node_t *seq);

/* Rows a list entry's section may have (workload.messages, topology.failures).
 */
#define CFG_ENTRY_ROWS_MAX 8

/*
 * One entry of a list whose entries are mappings of section's rows: every
 * key a row, none twice, every row without a default given; values parsed
 * into obj. lines[r] is set to the line of the r-th row's key (0: not
 * given). An unknown key breaks unknown_rule; with hint, a near-miss row
 * name is suggested instead.
 */
int cfg_load_entry(struct cfg_ctx *c, const yaml_node_t *item,
		   const char *section, const char *item_path, void *obj,
		   unsigned int lines[CFG_ENTRY_ROWS_MAX], bool hint,
		   const char *unknown_rule);
/* records.PcapHosts: auto, all, or hosts and ranges of the topology
 * (uet_config_pcap.c). */
int cfg_check_pcap_hosts(struct cfg_ctx *c);
/* Check the cross-attribute rules of a loaded, derived scenario. */
int cfg_check_rules(struct cfg_ctx *c);

/* Derive every attribute left at auto and the values of s->derived
 * (uet_config_derive.c). */
void cfg_derive(struct uet_scenario *s);
/* The enum uet_auto_attr of a row whose default is auto, or -1. */
int cfg_auto_attr(const struct uet_attr *a);
/*
 * The value of an auto row of s and how it was derived, as one line of
 * text ("14.0544us = the fabric's longest unloaded RTT ..."). Returns its
 * length or a negative errno.
 */
int cfg_auto_explain(const struct uet_scenario *s, const struct uet_attr *a,
		     char *buf, size_t len);

#endif /* UET_CONFIG_PRIVATE_H */
