/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One YAML scalar to one typed value, checked against its row's type and
 * range, and the error record every reject goes through.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <yaml.h>

#include "config_private.h"
#include "uet_config.h"
#include "uet_time.h"
#include "uet_units.h"

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

int cfg_fail(struct cfg_ctx *c, unsigned int line, unsigned int column,
	     const char *key, const char *value, bool is_default,
	     const char *fmt, ...)
{
	struct uet_config_error *e = c->err;
	char where[300];
	va_list ap;

	if (e == NULL)
		return -EINVAL;
	memset(e, 0, sizeof(*e));
	e->line = line;
	e->column = column;
	copy_str(e->key, sizeof(e->key), key);
	copy_str(e->value, sizeof(e->value), value);
	va_start(ap, fmt);
	vsnprintf(e->rule, sizeof(e->rule), fmt, ap);
	va_end(ap);

	if (line != 0 && column != 0)
		snprintf(where, sizeof(where), "%s:%u:%u", c->name, line,
			 column);
	else if (line != 0)
		snprintf(where, sizeof(where), "%s:%u", c->name, line);
	else
		snprintf(where, sizeof(where), "%s", c->name);

	if (key != NULL && value != NULL)
		snprintf(e->message, sizeof(e->message), "%s: %s = %s%s: %s",
			 where, key, value, is_default ? " (default)" : "",
			 e->rule);
	else if (key != NULL)
		snprintf(e->message, sizeof(e->message), "%s: %s: %s", where,
			 key, e->rule);
	else
		snprintf(e->message, sizeof(e->message), "%s: %s", where,
			 e->rule);
	return -EINVAL;
}

unsigned int cfg_node_line(const yaml_node_t *n)
{
	return (unsigned int)n->start_mark.line + 1;
}

const char *cfg_node_text(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return (const char *)n->data.scalar.value;
	case YAML_MAPPING_NODE:
		return "(a mapping)";
	case YAML_SEQUENCE_NODE:
		return "(a list)";
	default:
		return "(nothing)";
	}
}

static int parse_uint(const char *t, uint64_t *v)
{
	uint64_t x = 0;

	if (*t == '\0')
		return -EINVAL;
	for (; *t != '\0'; t++) {
		unsigned int d;

		if (*t < '0' || *t > '9')
			return -EINVAL;
		d = (unsigned int)(*t - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -ERANGE;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

/* A value outside the row's range; above: it was too large (a number
 * past 2^64 - 1 included), which a row without an upper bound can only
 * be by overflowing. */
static int fail_range(struct cfg_ctx *c, const struct uet_attr *a,
		      unsigned int line, const char *key, const char *text,
		      bool above)
{
	char lo[CFG_VALUE_LEN], hi[CFG_VALUE_LEN];

	cfg_format_value(a, a->min, lo, sizeof(lo));
	cfg_format_value(a, a->max, hi, sizeof(hi));
	if (a->max == UINT64_MAX && above)
		return cfg_fail(c, line, 0, key, text, false,
				"out of range: must be at most %s (2^64 - 1)",
				hi);
	if (a->max == UINT64_MAX)
		return cfg_fail(c, line, 0, key, text, false,
				"out of range: must be at least %s", lo);
	return cfg_fail(c, line, 0, key, text, false,
			"out of range: must be between %s and %s", lo, hi);
}

static void enum_list(const struct uet_attr *a, unsigned int n, char *buf,
		      size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && a->enum_names[i] != NULL; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 a->enum_names[i]);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
}

/*
 * Parse one scalar of the row's type into *v (or into the field directly,
 * for paths and strings). key is the full path for messages.
 */
int cfg_parse_value(struct cfg_ctx *c, const struct uet_attr *a,
		    const yaml_node_t *n, const char *key, void *base)
{
	const char *text = cfg_node_text(n);
	unsigned int line = cfg_node_line(n);
	const char *reason = NULL;
	uint64_t v = 0;
	uint32_t ppm;
	char list[128];
	unsigned int i;
	int rc = 0;

	if (n->type != YAML_SCALAR_NODE)
		return cfg_fail(c, line, 0, key, text, false,
				"wrong type: expected a %s, not %s",
				uet_attr_type_name(a->type),
				n->type == YAML_MAPPING_NODE ? "a mapping"
							     : "a list");

	switch (a->type) {
	case UET_ATTR_DURATION:
		rc = uet_time_parse(text, &v, &reason);
		if (rc < 0)
			return cfg_fail(c, line, 0, key, text, false,
					"not a duration (%s); write a number "
					"and a unit: ps, ns, us, ms or s",
					reason ? reason : "bad value");
		break;
	case UET_ATTR_RATE:
		rc = uet_rate_parse(text, &v, &reason);
		if (rc < 0)
			return cfg_fail(c, line, 0, key, text, false,
					"not a rate (%s); write a number and "
					"a unit: bps, kbps, Mbps, Gbps or Tbps",
					reason ? reason : "bad value");
		break;
	case UET_ATTR_SIZE:
		rc = uet_size_parse(text, &v, &reason);
		if (rc < 0)
			return cfg_fail(c, line, 0, key, text, false,
					"not a size (%s); write bytes, or a "
					"number and a unit: B, KiB, MiB, GiB, "
					"kB, MB or GB",
					reason ? reason : "bad value");
		break;
	case UET_ATTR_PPM:
		rc = uet_ppm_parse(text, &ppm, &reason);
		if (rc < 0)
			return cfg_fail(c, line, 0, key, text, false,
					"not a fraction (%s); write 0.01, 1%% "
					"or 10000ppm",
					reason ? reason : "bad value");
		v = ppm;
		break;
	case UET_ATTR_BOOL:
		if (strcmp(text, "true") == 0)
			v = 1;
		else if (strcmp(text, "false") == 0)
			v = 0;
		else
			return cfg_fail(c, line, 0, key, text, false,
					"wrong type: expected a bool, true or "
					"false");
		break;
	case UET_ATTR_UINT:
		rc = parse_uint(text, &v);
		if (rc == -ERANGE)
			return fail_range(c, a, line, key, text, true);
		if (rc < 0)
			return cfg_fail(c, line, 0, key, text, false,
					"wrong type: expected an unsigned "
					"integer");
		break;
	case UET_ATTR_ENUM:
		for (i = 0; a->enum_names[i] != NULL; i++)
			if (strcmp(text, a->enum_names[i]) == 0)
				break;
		if (a->enum_names[i] == NULL) {
			enum_list(a, a->enum_supported, list, sizeof(list));
			return cfg_fail(c, line, 0, key, text, false,
					"must be one of: %s", list);
		}
		if (i >= a->enum_supported) {
			enum_list(a, a->enum_supported, list, sizeof(list));
			return cfg_fail(c, line, 0, key, text, false,
					"not supported yet; supported: %s",
					list);
		}
		v = i;
		break;
	case UET_ATTR_PATH:
	case UET_ATTR_STRING:
		if (a->type == UET_ATTR_PATH && text[0] == '\0')
			return cfg_fail(c, line, 0, key, text, false,
					"a path must not be empty");
		if (n->data.scalar.length >= a->width ||
		    strlen(text) != n->data.scalar.length)
			return cfg_fail(c, line, 0, key, text, false,
					"too long or holds a NUL: at most %zu "
					"bytes",
					a->width - 1);
		memset((char *)base + a->offset, 0, a->width);
		memcpy((char *)base + a->offset, text, n->data.scalar.length);
		return 0;
	}
	if (v < a->min || v > a->max)
		return fail_range(c, a, line, key, text, v > a->max);
	cfg_field_set(a, base, v);
	return 0;
}

int uet_config_pfc_class_mask(const char *text, uint8_t *mask)
{
	unsigned int n = 0;

	if (text == NULL || mask == NULL)
		return -EINVAL;
	*mask = 0;
	if (*text == '\0')
		return 0;
	for (;;) {
		/* One digit 0 to 7, then a comma or the end. */
		if (*text < '0' || *text > '7' || ++n > 8)
			return -EINVAL;
		*mask |= (uint8_t)(1u << (*text - '0'));
		text++;
		if (*text == '\0')
			return 0;
		if (*text++ != ',')
			return -EINVAL;
	}
}

int uet_config_wrr_weights(const char *text, uint8_t weight[UET_CONFIG_TCS])
{
	unsigned int n = 0, tc;

	if (weight == NULL)
		return -EINVAL;
	for (tc = 0; tc < UET_CONFIG_TCS; tc++)
		weight[tc] = 1;
	if (text == NULL)
		return -EINVAL;
	for (;;) {
		unsigned long v = 0;
		unsigned int digits = 0;

		while (*text >= '0' && *text <= '9' && digits < 4) {
			v = v * 10 + (unsigned long)(*text - '0');
			text++;
			digits++;
		}
		if (digits == 0 || v == 0 || v > 255 || n == UET_CONFIG_TCS ||
		    (*text != ',' && *text != '\0'))
			break;
		weight[n++] = (uint8_t)v;
		if (*text == '\0')
			return 0;
		text++;
	}
	for (tc = 0; tc < UET_CONFIG_TCS; tc++)
		weight[tc] = 1;
	return -EINVAL;
}
