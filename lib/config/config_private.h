/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the loader and the printer; not part of the API. */
#ifndef UET_CONFIG_PRIVATE_H
#define UET_CONFIG_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

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
/* Derive the values of s->derived from the attributes. */
void cfg_derive(struct uet_scenario *s);

#endif /* UET_CONFIG_PRIVATE_H */
