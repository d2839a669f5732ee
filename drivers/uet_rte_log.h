/* SPDX-License-Identifier: BSD-3-Clause */
/* Points the project's logger (lib/core uet_log.h) at DPDK's rte_log. */
#ifndef UET_RTE_LOG_H
#define UET_RTE_LOG_H

/**
 * Send every uet_log message to rte_log: each uet log type becomes an rte_log
 * type named "uet.<type>" ("uet.pds", "uet.drivers"), so EAL's
 * --log-level=uet.pds:debug and rte_openlog_stream apply. A message is
 * written as "uet.<type>: <message>\n" and must pass both the uet_log
 * threshold of its type and the rte_log level of its rte_log type.
 *
 * Like uet_log_set_sink, call it once before starting worker threads (the
 * table of rte_log types it fills is process-wide, as the logger is).
 *
 * @return
 *   0, or a negative errno if rte_log refused to register a type.
 */
int uet_log_use_rte_log(void);

#endif /* UET_RTE_LOG_H */
