/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Defaults, --print-config output (derived values as comments), the
 * scenario hash and the documentation table: everything that reads the
 * attribute table without a YAML document.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_private.h"
#include "uet_cc.h"
#include "uet_config.h"
#include "uet_time.h"
#include "uet_units.h"

/* Sizes below this print as plain bytes ("4096"), the page's spelling. */
#define PLAIN_SIZE_BELOW_BYTES UINT64_C(10240)

#define FNV64_OFFSET UINT64_C(0xcbf29ce484222325)
#define FNV64_PRIME UINT64_C(0x100000001b3)

void cfg_field_set(const struct uet_attr *a, void *base, uint64_t v)
{
	char *p = (char *)base + a->offset;

	if (a->type == UET_ATTR_BOOL) {
		bool b = v != 0;

		memcpy(p, &b, sizeof(b));
		return;
	}
	switch (a->width) {
	case 1: {
		uint8_t x = (uint8_t)v;

		memcpy(p, &x, 1);
		break;
	}
	case 2: {
		uint16_t x = (uint16_t)v;

		memcpy(p, &x, 2);
		break;
	}
	case 4: {
		uint32_t x = (uint32_t)v;

		memcpy(p, &x, 4);
		break;
	}
	case 8:
		memcpy(p, &v, 8);
		break;
	}
}

uint64_t cfg_field_get(const struct uet_attr *a, const void *base)
{
	const char *p = (const char *)base + a->offset;

	if (a->type == UET_ATTR_BOOL) {
		bool b;

		memcpy(&b, p, sizeof(b));
		return b;
	}
	switch (a->width) {
	case 1: {
		uint8_t x;

		memcpy(&x, p, 1);
		return x;
	}
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		return x;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, 4);
		return x;
	}
	case 8: {
		uint64_t x;

		memcpy(&x, p, 8);
		return x;
	}
	}
	return 0;
}

int cfg_format_value(const struct uet_attr *a, uint64_t v, char *buf,
		     size_t len)
{
	int n;

	switch (a->type) {
	case UET_ATTR_DURATION:
		return uet_time_format(v, buf, len);
	case UET_ATTR_RATE:
		return uet_rate_format(v, buf, len);
	case UET_ATTR_SIZE:
		if (v < PLAIN_SIZE_BELOW_BYTES)
			break;
		return uet_size_format(v, buf, len);
	case UET_ATTR_PPM:
		return uet_ppm_format((uint32_t)v, buf, len);
	case UET_ATTR_BOOL:
		n = snprintf(buf, len, "%s", v ? "true" : "false");
		return n < 0 || (size_t)n >= len ? -ENOSPC : n;
	case UET_ATTR_ENUM:
		if (a->enum_names == NULL)
			return -EINVAL;
		n = snprintf(buf, len, "%s", a->enum_names[v]);
		return n < 0 || (size_t)n >= len ? -ENOSPC : n;
	case UET_ATTR_UINT:
		break;
	case UET_ATTR_STRING:
	case UET_ATTR_PATH:
		return -EINVAL;
	}
	n = snprintf(buf, len, "%" PRIu64, v);
	return n < 0 || (size_t)n >= len ? -ENOSPC : n;
}

/* Parse a row's default; the defaults are pinned by a unit test. */
static int parse_default(const struct uet_attr *a, uint64_t *v)
{
	uint32_t ppm = 0;
	unsigned int i;
	int rc;

	*v = 0;
	switch (a->type) {
	case UET_ATTR_DURATION:
		return uet_time_parse(a->def, v, NULL);
	case UET_ATTR_RATE:
		return uet_rate_parse(a->def, v, NULL);
	case UET_ATTR_SIZE:
		return uet_size_parse(a->def, v, NULL);
	case UET_ATTR_PPM:
		rc = uet_ppm_parse(a->def, &ppm, NULL);
		*v = ppm;
		return rc;
	case UET_ATTR_BOOL:
		*v = strcmp(a->def, "true") == 0;
		return 0;
	case UET_ATTR_UINT:
		*v = strtoull(a->def, NULL, 10);
		return 0;
	case UET_ATTR_ENUM:
		for (i = 0; a->enum_names[i] != NULL; i++)
			if (strcmp(a->def, a->enum_names[i]) == 0) {
				*v = i;
				return 0;
			}
		return -EINVAL;
	case UET_ATTR_STRING:
	case UET_ATTR_PATH:
		return -EINVAL;
	}
	return -EINVAL;
}

/* The NSCC parameters a new group derives, as comments under
 * CongestionControl. */
static void print_nscc_derived(FILE *f, const struct uet_scenario *s)
{
	struct uet_nscc_derived d;
	char tq[32], period[32];

	if (uet_scenario_nscc(s, &d) < 0)
		return;
	uet_time_format(d.target_qdelay_ps, tq, sizeof(tq));
	uet_time_format(d.adjust_period_ps, period, sizeof(period));
	fprintf(f,
		"  # nscc: bdp %" PRIu64 " bytes, max window %" PRIu64
		" (1.5 x bdp), min window %" PRIu64 ", initial window %" PRIu64
		"\n",
		d.bdp_bytes, d.max_window_bytes, d.min_window_bytes,
		d.initial_window_bytes);
	fprintf(f,
		"  # nscc: target delay %s, a %" PRIu64 " ppm, b %" PRIu64
		" ppm, fair increase %" PRIu64 " bytes, eta %" PRIu64
		" bytes per %s\n",
		tq, d.a_ppm, d.b_ppm, d.fair_inc_bytes, d.eta_bytes, period);
	fprintf(f,
		"  # nscc: fast increase scale %" PRIu64 " ppm, alpha %" PRIu64
		" ubytes/ps, gamma %" PRIu64 " ppm, delay ewma %" PRIu64
		" ppm, adjust after %" PRIu64 " bytes\n",
		d.fast_inc_scale_ppm, d.alpha_ubytes_per_ps, d.gamma_ppm,
		d.delay_ewma_ppm, d.adjust_bytes);
}

int uet_scenario_defaults(struct uet_scenario *s)
{
	const struct uet_attr *attrs;
	size_t i, n;

	memset(s, 0, sizeof(*s));
	attrs = uet_config_attrs(&n);
	for (i = 0; i < n; i++) {
		const struct uet_attr *a = &attrs[i];
		uint64_t v;

		if (strcmp(a->section, "workload.messages") == 0 ||
		    strcmp(a->section, "topology.failures") == 0)
			continue;
		if (a->type == UET_ATTR_PATH || a->type == UET_ATTR_STRING) {
			snprintf((char *)s + a->offset, a->width, "%s", a->def);
			continue;
		}
		if (cfg_auto_attr(a) >= 0) {
			s->derived.auto_mask |= 1u << cfg_auto_attr(a);
			continue;
		}
		if (parse_default(a, &v) == 0)
			cfg_field_set(a, s, v);
	}
	cfg_derive(s);
	return 0;
}

/* Print text as a double-quoted YAML scalar. */
static void print_quoted(FILE *f, const char *t)
{
	fputc('"', f);
	for (; *t != '\0'; t++) {
		unsigned char ch = (unsigned char)*t;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void print_value(FILE *f, const struct uet_attr *a, const void *base)
{
	char buf[CFG_VALUE_LEN];

	if (a->type == UET_ATTR_PATH || a->type == UET_ATTR_STRING) {
		print_quoted(f, (const char *)base + a->offset);
		return;
	}
	if (cfg_format_value(a, cfg_field_get(a, base), buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	fputs(buf, f);
}

static void print_messages(FILE *f, const struct uet_scenario *s,
			   const struct uet_attr *attrs, size_t n)
{
	uint32_t m;
	size_t i;

	if (s->workload.message_count == 0) {
		fputs("  messages: []\n", f);
		return;
	}
	fputs("  messages:\n", f);
	for (m = 0; m < s->workload.message_count; m++) {
		const char *sep = "";

		fputs("    - {", f);
		for (i = 0; i < n; i++) {
			if (strcmp(attrs[i].section, "workload.messages"))
				continue;
			fprintf(f, "%s%s: ", sep, attrs[i].name);
			print_value(f, &attrs[i], &s->workload.messages[m]);
			sep = ", ";
		}
		fputs("}\n", f);
	}
}

/* topology.failures, inside the topology section; none: nothing. */
static void print_failures(FILE *f, const struct uet_scenario *s,
			   const struct uet_attr *attrs, size_t n)
{
	uint32_t e;
	size_t i;

	if (s->topology.failure_count == 0)
		return;
	fputs("  failures:\n", f);
	for (e = 0; e < s->topology.failure_count; e++) {
		const struct uet_link_failure *lf = &s->topology.failures[e];
		const char *sep = "";

		fputs("    - {", f);
		for (i = 0; i < n; i++) {
			if (strcmp(attrs[i].section, "topology.failures"))
				continue;
			/* rate and down do not load together. */
			if (lf->down && strcmp(attrs[i].name, "rate") == 0)
				continue;
			fprintf(f, "%s%s: ", sep, attrs[i].name);
			print_value(f, &attrs[i], lf);
			sep = ", ";
		}
		fputs("}\n", f);
	}
}

/* The kind a topology key belongs to, or NULL for a key of every kind. */
static const char *topology_key_only_for(const char *name)
{
	if (strcmp(name, "leaves") == 0 || strcmp(name, "spines") == 0 ||
	    strcmp(name, "hosts_per_leaf") == 0)
		return "leaf-spine";
	if (strcmp(name, "k") == 0)
		return "fat-tree";
	return NULL;
}

static const char *topology_kind_name(enum uet_topology_kind kind)
{
	switch (kind) {
	case UET_TOPOLOGY_LEAF_SPINE:
		return "leaf-spine";
	case UET_TOPOLOGY_FAT_TREE:
		return "fat-tree";
	default:
		return "single-switch";
	}
}

/* One row of workload.generate, four spaces in under "  generate:"; with
 * no pattern, one comment line stands for the whole mapping. */
static void print_generate_row(FILE *f, const struct uet_scenario *s,
			       const struct uet_attr *a, bool first)
{
	const struct uet_workload_generate *g = &s->workload.generate;

	if (g->pattern == UET_GENERATE_NONE) {
		if (first)
			fputs("  # generate: (none)\n", f);
		return;
	}
	if (first)
		fputs("  generate:\n", f);
	/* dst loads only with incast. */
	if (strcmp(a->name, "dst") == 0 && g->pattern != UET_GENERATE_INCAST) {
		fputs("    # dst: ", f);
		print_value(f, a, s);
		fputs("  (incast only)\n", f);
		return;
	}
	fprintf(f, "    %s: ", a->name);
	print_value(f, a, s);
	fputc('\n', f);
}

int uet_scenario_print_config(const struct uet_scenario *s, FILE *f)
{
	const struct uet_attr *attrs;
	const char *section = "";
	char buf[CFG_VALUE_LEN];
	size_t i, n;

	attrs = uet_config_attrs(&n);
	fputs("# uetemu scenario: every effective attribute; derived values "
	      "are comments.\n",
	      f);
	for (i = 0; i < n; i++) {
		const struct uet_attr *a = &attrs[i];

		if (strcmp(a->section, "workload.messages") == 0)
			continue;
		if (strcmp(a->section, "topology.failures") == 0) {
			/* Its rows follow topology's: print the list once. */
			if (strcmp(a->name, "link") == 0)
				print_failures(f, s, attrs, n);
			continue;
		}
		/* The generator is a mapping inside workload. */
		if (strcmp(a->section, "workload.generate") == 0) {
			print_generate_row(f, s, a,
					   strcmp(a->section, section) != 0);
			section = a->section;
			continue;
		}
		if (strcmp(a->section, section) != 0) {
			section = a->section;
			fprintf(f, "%s:\n", section);
		}
		/* Loading time_dilation with lockstep is an error. */
		if (strcmp(a->name, "time_dilation") == 0 &&
		    s->run.clock != UET_CLOCK_REALTIME) {
			fprintf(f, "  # %s: ", a->name);
			print_value(f, a, s);
			fputs("  (realtime only)\n", f);
			continue;
		}
		/* An empty path does not load back: no trace. */
		if (a->type == UET_ATTR_PATH &&
		    ((const char *)s + a->offset)[0] == '\0') {
			fprintf(f, "  # %s: (none)\n", a->name);
			continue;
		}
		/* A shape's own keys load only with its topology.kind. */
		if (strcmp(a->section, "topology") == 0 &&
		    topology_key_only_for(a->name) != NULL &&
		    strcmp(topology_key_only_for(a->name),
			   topology_kind_name(s->topology.kind)) != 0) {
			fprintf(f, "  # %s: ", a->name);
			print_value(f, a, s);
			fprintf(f, "  (%s only)\n",
				topology_key_only_for(a->name));
			continue;
		}
		if (cfg_auto_attr(a) >= 0 &&
		    (s->derived.auto_mask >> cfg_auto_attr(a)) & 1u) {
			/* auto loads back to the same derivation; the value
			 * and its reason are the comment. */
			char why[512];

			cfg_auto_explain(s, a, why, sizeof(why));
			fprintf(f, "  %s: auto  # %s\n", a->name, why);
			continue;
		}
		fprintf(f, "  %s: ", a->name);
		print_value(f, a, s);
		if (strcmp(a->name, "FixedWindow") == 0)
			fprintf(f, "  # effective %" PRIu64 " bytes%s",
				s->derived.fixed_window_bytes,
				s->pds.fixed_window_bytes == 0
					? " = 1.5 x DataRate x InitialBaseRTT"
					: "");
		fputc('\n', f);
		if (strcmp(a->name, "CongestionControl") == 0 &&
		    s->pds.congestion_control == UET_SCENARIO_CC_NSCC)
			print_nscc_derived(f, s);
		if (strcmp(a->name, "Delay") == 0) {
			uet_time_format(s->derived.lookahead_ps, buf,
					sizeof(buf));
			fprintf(f,
				"  # lookahead: %s (min of nic.Delay, "
				"topology.link_delay%s)\n",
				buf,
				s->topology.kind == UET_TOPOLOGY_LEAF_SPINE
					? " and leaf_spine_delay"
				: s->topology.kind == UET_TOPOLOGY_FAT_TREE
					? " and agg_core_delay"
					: "");
		}
	}
	print_messages(f, s, attrs, n);
	return ferror(f) ? -EIO : 0;
}

int uet_scenario_hash(const struct uet_scenario *s, uint64_t *hash)
{
	char *text = NULL;
	size_t len = 0;
	uint64_t h = FNV64_OFFSET;
	FILE *f;
	int rc;

	f = open_memstream(&text, &len);
	if (f == NULL)
		return -ENOMEM;
	rc = uet_scenario_print_config(s, f);
	if (fclose(f) != 0 && rc == 0)
		rc = -ENOMEM;
	if (rc == 0) {
		for (size_t i = 0; i < len; i++) {
			h ^= (unsigned char)text[i];
			h *= FNV64_PRIME;
		}
		*hash = h;
	}
	free(text);
	return rc;
}

static bool row_equal(const struct uet_attr *a, const void *x, const void *y)
{
	if (a->type == UET_ATTR_PATH || a->type == UET_ATTR_STRING)
		return strncmp((const char *)x + a->offset,
			       (const char *)y + a->offset, a->width) == 0;
	return cfg_field_get(a, x) == cfg_field_get(a, y);
}

bool uet_scenario_equal(const struct uet_scenario *a,
			const struct uet_scenario *b)
{
	const struct uet_attr *attrs;
	size_t i, n;
	uint32_t m;

	attrs = uet_config_attrs(&n);
	if (a->workload.message_count != b->workload.message_count)
		return false;
	if (a->topology.failure_count != b->topology.failure_count)
		return false;
	for (i = 0; i < n; i++) {
		if (strcmp(attrs[i].section, "topology.failures") == 0) {
			for (m = 0; m < a->topology.failure_count; m++)
				if (!row_equal(&attrs[i],
					       &a->topology.failures[m],
					       &b->topology.failures[m]))
					return false;
			continue;
		}
		if (strcmp(attrs[i].section, "workload.messages") != 0) {
			if (!row_equal(&attrs[i], a, b))
				return false;
			continue;
		}
		for (m = 0; m < a->workload.message_count; m++)
			if (!row_equal(&attrs[i], &a->workload.messages[m],
				       &b->workload.messages[m]))
				return false;
	}
	return a->derived.fixed_window_bytes == b->derived.fixed_window_bytes &&
	       a->derived.lookahead_ps == b->derived.lookahead_ps &&
	       a->derived.auto_mask == b->derived.auto_mask;
}

/* The "range" cell of the documentation table. */
static void doc_range(const struct uet_attr *a, char *buf, size_t len)
{
	char lo[CFG_VALUE_LEN], hi[CFG_VALUE_LEN];
	size_t used = 0;
	unsigned int i;

	switch (a->type) {
	case UET_ATTR_BOOL:
		snprintf(buf, len, "true, false");
		return;
	case UET_ATTR_ENUM:
		buf[0] = '\0';
		for (i = 0; a->enum_names[i] != NULL; i++) {
			int w = snprintf(buf + used, len - used, "%s%s%s",
					 i ? ", " : "", a->enum_names[i],
					 i >= a->enum_supported ? " (later)"
								: "");
			if (w < 0 || (size_t)w >= len - used)
				return;
			used += (size_t)w;
		}
		return;
	case UET_ATTR_PATH:
	case UET_ATTR_STRING:
		snprintf(buf, len, "up to %zu bytes", a->width - 1);
		return;
	default:
		break;
	}
	cfg_format_value(a, a->min, lo, sizeof(lo));
	if (a->max == UINT64_MAX) {
		snprintf(buf, len, ">= %s", lo);
		return;
	}
	cfg_format_value(a, a->max, hi, sizeof(hi));
	snprintf(buf, len, "%s .. %s", lo, hi);
}

int uet_config_print_doc_table(FILE *f)
{
	const struct uet_attr *attrs;
	char range[160];
	size_t i, n;

	attrs = uet_config_attrs(&n);
	fputs("| section | name | type | default | range | unit | meaning | "
	      "why this default |\n",
	      f);
	fputs("|---|---|---|---|---|---|---|---|\n", f);
	for (i = 0; i < n; i++) {
		const struct uet_attr *a = &attrs[i];

		doc_range(a, range, sizeof(range));
		fprintf(f, "| %s | `%s` | %s | %s | %s | %s | %s | %s |\n",
			a->section, a->name, uet_attr_type_name(a->type),
			a->def ? a->def : "required", range,
			a->unit[0] ? a->unit : "-", a->meaning, a->why);
	}
	return ferror(f) ? -EIO : 0;
}
