/* SPDX-License-Identifier: BSD-3-Clause */
/* A uet_log sink that writes to rte_log, one rte_log type per uet type. */
#include <errno.h>
#include <stdio.h>

#include <rte_log.h>

#include "uet_log.h"
#include "uet_rte_log.h"

/* rte_log type of each uet log type. Filled once by uet_log_use_rte_log
 * before the sink is installed and only read afterwards; it belongs to the
 * logger's process-wide configuration (see uet_log.h). */
static int rte_types[UET_LOGTYPE_MAX];

static uint32_t rte_level(enum uet_log_level level)
{
	switch (level) {
	case UET_LOG_ERROR:
		return RTE_LOG_ERR;
	case UET_LOG_WARNING:
		return RTE_LOG_WARNING;
	case UET_LOG_INFO:
		return RTE_LOG_INFO;
	default:
		return RTE_LOG_DEBUG;
	}
}

static void rte_log_sink(void *arg, enum uet_log_level level,
			 enum uet_log_type type, const char *msg)
{
	(void)arg;
	if ((unsigned)type >= UET_LOGTYPE_MAX)
		return;
	rte_log(rte_level(level), (uint32_t)rte_types[type], "uet.%s: %s\n",
		uet_log_type_name(type), msg);
}

int uet_log_use_rte_log(void)
{
	char name[32];
	int t, id;

	for (t = 0; t < UET_LOGTYPE_MAX; t++) {
		snprintf(name, sizeof(name), "uet.%s",
			 uet_log_type_name((enum uet_log_type)t));
		/* Picks up a level given with --log-level=uet.<type>:<lvl>;
		 * otherwise INFO, and uet_log's thresholds filter first. */
		id = rte_log_register_type_and_pick_level(name, RTE_LOG_INFO);
		if (id < 0)
			return id;
		rte_types[t] = id;
	}
	uet_log_set_sink(rte_log_sink, NULL);
	return 0;
}
