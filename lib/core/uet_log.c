/* SPDX-License-Identifier: BSD-3-Clause */
/* The logger: per-type thresholds and one sink, process-wide. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "uet_log.h"

static const char *const type_names[UET_LOGTYPE_MAX] = {
	[UET_LOGTYPE_CORE] = "core",	   [UET_LOGTYPE_WIRE] = "wire",
	[UET_LOGTYPE_PCIE] = "pcie",	   [UET_LOGTYPE_PDS] = "pds",
	[UET_LOGTYPE_SES] = "ses",	   [UET_LOGTYPE_CC] = "cc",
	[UET_LOGTYPE_LB] = "lb",	   [UET_LOGTYPE_NIC] = "nic",
	[UET_LOGTYPE_FABRIC] = "fabric",   [UET_LOGTYPE_CONFIG] = "config",
	[UET_LOGTYPE_RECORD] = "record",   [UET_LOGTYPE_SYNC] = "sync",
	[UET_LOGTYPE_DRIVERS] = "drivers", [UET_LOGTYPE_APP] = "app",
};

static const char *const level_names[] = {
	[UET_LOG_NONE] = "none",       [UET_LOG_ERROR] = "error",
	[UET_LOG_WARNING] = "warning", [UET_LOG_INFO] = "info",
	[UET_LOG_DEBUG] = "debug",
};

#define N_LEVELS (sizeof(level_names) / sizeof(level_names[0]))

static void stderr_sink(void *arg, enum uet_log_level level,
			enum uet_log_type type, const char *msg)
{
	(void)arg;
	fprintf(stderr, "uet %s %s: %s\n", type_names[type], level_names[level],
		msg);
}

/*
 * The process-wide logger configuration (the exception to "no global
 * mutable state", see uet_log.h). A zero level means "never set", read as
 * the default, so that no constructor is needed.
 */
static struct {
	uet_log_sink_fn sink;
	void *sink_arg;
	unsigned char level_plus_one[UET_LOGTYPE_MAX];
} logger;

void uet_log_set_sink(uet_log_sink_fn fn, void *arg)
{
	logger.sink = fn;
	logger.sink_arg = fn != NULL ? arg : NULL;
}

static bool type_ok(enum uet_log_type type)
{
	return (unsigned int)type < UET_LOGTYPE_MAX;
}

static bool level_ok(enum uet_log_level level)
{
	return (unsigned int)level < N_LEVELS;
}

int uet_log_set_level(enum uet_log_type type, enum uet_log_level level)
{
	if (!type_ok(type) || !level_ok(level))
		return -EINVAL;
	logger.level_plus_one[type] = (unsigned char)(level + 1);
	return 0;
}

int uet_log_set_level_all(enum uet_log_level level)
{
	int t;

	if (!level_ok(level))
		return -EINVAL;
	for (t = 0; t < UET_LOGTYPE_MAX; t++)
		logger.level_plus_one[t] = (unsigned char)(level + 1);
	return 0;
}

enum uet_log_level uet_log_get_level(enum uet_log_type type)
{
	if (!type_ok(type))
		return UET_LOG_NONE;
	if (logger.level_plus_one[type] == 0)
		return UET_LOG_DEFAULT_LEVEL;
	return (enum uet_log_level)(logger.level_plus_one[type] - 1);
}

bool uet_log_enabled(enum uet_log_level level, enum uet_log_type type)
{
	return level != UET_LOG_NONE && level_ok(level) &&
	       level <= uet_log_get_level(type);
}

const char *uet_log_type_name(enum uet_log_type type)
{
	return type_ok(type) ? type_names[type] : "unknown";
}

const char *uet_log_level_name(enum uet_log_level level)
{
	return level_ok(level) ? level_names[level] : "unknown";
}

int uet_log_type_from_name(const char *name)
{
	int t;

	for (t = 0; name != NULL && t < UET_LOGTYPE_MAX; t++)
		if (strcmp(name, type_names[t]) == 0)
			return t;
	return -EINVAL;
}

int uet_log_level_from_name(const char *name)
{
	size_t l;

	for (l = 0; name != NULL && l < N_LEVELS; l++)
		if (strcmp(name, level_names[l]) == 0)
			return (int)l;
	return -EINVAL;
}

void uet_log(enum uet_log_level level, enum uet_log_type type, const char *fmt,
	     ...)
{
	char msg[UET_LOG_MSG_LEN];
	va_list ap;

	if (!type_ok(type) || !uet_log_enabled(level, type))
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (logger.sink != NULL)
		logger.sink(logger.sink_arg, level, type, msg);
	else
		stderr_sink(NULL, level, type, msg);
}
