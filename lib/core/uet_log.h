/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Logging by type and level to a replaceable sink: stderr by default, so
 * the model libraries need no DPDK; drivers/ or an app may point the sink
 * at rte_log.
 *
 * The logger's configuration (sink and per-type levels) is the one piece
 * of process-wide state in the project. Set it up before starting worker
 * threads; logging itself only reads it.
 */
#ifndef UET_LOG_H
#define UET_LOG_H

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Severity, most severe first; a message logs if level <= threshold. */
enum uet_log_level {
	UET_LOG_NONE = 0, /**< as a threshold: log nothing of the type */
	UET_LOG_ERROR,	  /**< the run cannot go on as asked */
	UET_LOG_WARNING,  /**< something is off, the run goes on */
	UET_LOG_INFO,	  /**< progress a user wants to see */
	UET_LOG_DEBUG,	  /**< detail for developers */
};

/** What part of the project a message comes from. */
enum uet_log_type {
	UET_LOGTYPE_CORE,
	UET_LOGTYPE_WIRE,
	UET_LOGTYPE_PCIE,
	UET_LOGTYPE_PDS,
	UET_LOGTYPE_SES,
	UET_LOGTYPE_CC,
	UET_LOGTYPE_LB,
	UET_LOGTYPE_NIC,
	UET_LOGTYPE_FABRIC,
	UET_LOGTYPE_CONFIG,
	UET_LOGTYPE_RECORD,
	UET_LOGTYPE_SYNC,
	UET_LOGTYPE_DRIVERS,
	UET_LOGTYPE_APP,
	UET_LOGTYPE_MAX, /**< number of types, not a type */
};

/** Threshold of every type until changed. */
#define UET_LOG_DEFAULT_LEVEL UET_LOG_INFO

/** Longest message a sink receives, NUL included; longer ones are cut. */
#define UET_LOG_MSG_LEN 512

/**
 * A log sink.
 *
 * @param arg
 *   The argument given to uet_log_set_sink().
 * @param level
 *   The message's level.
 * @param type
 *   The message's type.
 * @param msg
 *   The formatted message, without a trailing newline.
 */
typedef void (*uet_log_sink_fn)(void *arg, enum uet_log_level level,
				enum uet_log_type type, const char *msg);

/**
 * Send messages to a sink.
 *
 * @param fn
 *   The sink, or NULL for the default (one line per message on stderr).
 * @param arg
 *   Passed to every call of fn.
 */
void uet_log_set_sink(uet_log_sink_fn fn, void *arg);

/**
 * Set the threshold of one type.
 *
 * @param type
 *   The type.
 * @param level
 *   Messages at this level or more severe are logged.
 * @return
 *   0, or -EINVAL for an unknown type or level.
 */
int uet_log_set_level(enum uet_log_type type, enum uet_log_level level);

/**
 * Set the threshold of every type.
 *
 * @param level
 *   Messages at this level or more severe are logged.
 * @return
 *   0, or -EINVAL for an unknown level.
 */
int uet_log_set_level_all(enum uet_log_level level);

/**
 * The threshold of a type.
 *
 * @param type
 *   The type.
 * @return
 *   The level, or UET_LOG_NONE for an unknown type.
 */
enum uet_log_level uet_log_get_level(enum uet_log_type type);

/**
 * Whether a message of this level and type would be logged.
 *
 * @param level
 *   The level.
 * @param type
 *   The type.
 * @return
 *   true if it passes the type's threshold.
 */
bool uet_log_enabled(enum uet_log_level level, enum uet_log_type type);

/**
 * Name of a type ("pds"), as used in options such as --log-level=pds:debug.
 *
 * @param type
 *   The type.
 * @return
 *   A static string, or "unknown".
 */
const char *uet_log_type_name(enum uet_log_type type);

/**
 * Name of a level ("error", "warning", "info", "debug", "none").
 *
 * @param level
 *   The level.
 * @return
 *   A static string, or "unknown".
 */
const char *uet_log_level_name(enum uet_log_level level);

/**
 * Look a type up by name.
 *
 * @param name
 *   A name as returned by uet_log_type_name().
 * @return
 *   The type (>= 0), or -EINVAL.
 */
int uet_log_type_from_name(const char *name);

/**
 * Look a level up by name.
 *
 * @param name
 *   A name as returned by uet_log_level_name().
 * @return
 *   The level (>= 0), or -EINVAL.
 */
int uet_log_level_from_name(const char *name);

/**
 * Format a message and hand it to the sink if the type's threshold lets
 * it through. Prefer UET_LOG(), which skips the arguments' evaluation.
 *
 * @param level
 *   The level.
 * @param type
 *   The type.
 * @param fmt
 *   printf format, without a trailing newline.
 */
void uet_log(enum uet_log_level level, enum uet_log_type type, const char *fmt,
	     ...) __attribute__((format(printf, 3, 4)));

/**
 * Log a message: UET_LOG(WARNING, PDS, "pdc %u: %s", id, why).
 * level is ERROR, WARNING, INFO or DEBUG; type one of the UET_LOGTYPE_
 * suffixes; the rest is a printf format and its arguments, with no
 * trailing newline.
 */
#define UET_LOG(level, type, ...)                                              \
	do {                                                                   \
		if (uet_log_enabled(UET_LOG_##level, UET_LOGTYPE_##type))      \
			uet_log(UET_LOG_##level, UET_LOGTYPE_##type,           \
				__VA_ARGS__);                                  \
	} while (0)

#ifdef __cplusplus
}
#endif

#endif /* UET_LOG_H */
