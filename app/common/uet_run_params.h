/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * From a scenario to the models' parameters: the NIC's struct
 * uet_nic_params and the fabric's struct uet_fabric_conf. The models know
 * no scenario format; this is the one place that reads the scenario's
 * nic:, pds:, switch:, topology: and records: sections on their behalf
 * (the model/helper split of ns-3). Used by the wiring and by the tests
 * that build models from a scenario.
 */
#ifndef UET_RUN_PARAMS_H
#define UET_RUN_PARAMS_H

#include <stdint.h>

#include "uet_config.h"
#include "uet_fabric.h"
#include "uet_nic_params.h"

/**
 * The codepoint of each role, as nic: names them (the switch reads the
 * NICs' codepoints too).
 *
 * @param sc
 *   The scenario.
 * @param map
 *   Out: the codepoints.
 */
void uet_run_dscp_map(const struct uet_scenario *sc, struct uet_dscp_map *map);

/**
 * The parameters of host's NIC: nic.*, pds.*, records.*, the lists of
 * switch: the NIC follows (PFC classes, UET policy, pause quanta), and its
 * port rate, min(DataRate, the host's link to its rack switch as the
 * topology describes it).
 *
 * @param sc
 *   The scenario, loaded (its derived values set).
 * @param host
 *   The host, < topology.hosts.
 * @param p
 *   Out: the parameters.
 * @return
 *   0, or -EINVAL (a congestion control or balancer the NIC lacks, or
 *   values uet_nic_params_check() refuses).
 */
int uet_run_nic_params(const struct uet_scenario *sc, uint32_t host,
		       struct uet_nic_params *p);

/**
 * The fabric's configuration: topology.*, the switch: section, the NICs'
 * codepoints and run.seed.
 *
 * @param sc
 *   The scenario, loaded (its derived values set).
 * @param conf
 *   Out: the configuration.
 * @return
 *   0, -EINVAL if an argument is NULL.
 */
int uet_run_fabric_conf(const struct uet_scenario *sc,
			struct uet_fabric_conf *conf);

#endif /* UET_RUN_PARAMS_H */
