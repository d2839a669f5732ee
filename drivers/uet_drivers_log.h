/* SPDX-License-Identifier: BSD-3-Clause */
/* Internal: the drivers' rte_log type and its logging macro. */
#ifndef UET_DRIVERS_LOG_H
#define UET_DRIVERS_LOG_H

#include <rte_log.h>

/* Registered once by RTE_LOG_REGISTER_DEFAULT in uet_port.c; DPDK's own
 * PMDs keep their log type the same way. */
extern int uet_drivers_logtype;

#define UET_DRV_LOG(level, fmt, ...)                                          \
	rte_log(RTE_LOG_##level, uet_drivers_logtype, "uet_drivers: " fmt "\n", \
		##__VA_ARGS__)

#endif /* UET_DRIVERS_LOG_H */
