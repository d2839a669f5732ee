/* SPDX-License-Identifier: BSD-3-Clause */
/* The fabric's configuration from the scenario (uet_run_params.h). */
#include <errno.h>
#include <string.h>

#include "uet_run_params.h"

_Static_assert(UET_CONFIG_TCS == UET_FABRIC_TCS,
	       "switch.WrrWeights has a weight per fabric class");

int uet_run_fabric_conf(const struct uet_scenario *sc,
			struct uet_fabric_conf *conf)
{
	if (sc == NULL || conf == NULL)
		return -EINVAL;
	memset(conf, 0, sizeof(*conf));
	switch (sc->topology.kind) {
	case UET_TOPOLOGY_LEAF_SPINE:
		conf->topo = UET_FABRIC_TOPO_LEAF_SPINE;
		break;
	case UET_TOPOLOGY_FAT_TREE:
		conf->topo = UET_FABRIC_TOPO_FAT_TREE;
		break;
	default:
		conf->topo = UET_FABRIC_TOPO_SINGLE;
		break;
	}
	conf->hosts = sc->topology.hosts;
	conf->leaves = sc->topology.leaves;
	conf->spines = sc->topology.spines;
	conf->hosts_per_leaf = sc->topology.hosts_per_leaf;
	conf->k = sc->topology.k;
	conf->tier1_rate_bps = sc->topology.leaf_spine_rate_bps;
	conf->tier1_delay_ps = sc->topology.leaf_spine_delay_ps;
	conf->tier2_rate_bps = sc->topology.agg_core_rate_bps;
	conf->tier2_delay_ps = sc->topology.agg_core_delay_ps;
	conf->link_rate_bps = sc->topology.link_rate_bps;
	conf->link_delay_ps = sc->topology.link_delay_ps;
	conf->queue_limit_bytes = sc->sw.queue_limit_bytes;
	conf->drop_rate_ppm = sc->sw.drop_rate_ppm;
	conf->seed = sc->run.seed;
	conf->uet_policy = sc->sw.uet_policy_enabled;
	uet_run_dscp_map(sc, &conf->dscp);
	conf->trimming = sc->sw.trimming_enabled;
	conf->sched = sc->sw.scheduler == UET_SWITCH_SCHED_WRR
			      ? UET_FABRIC_SCHED_WRR
			      : UET_FABRIC_SCHED_STRICT;
	memcpy(conf->wrr_weight, sc->derived.wrr_weight,
	       sizeof(conf->wrr_weight));
	conf->ecn = sc->sw.ecn_enabled;
	conf->ecn_at_dequeue = sc->sw.ecn_mark_at == UET_SWITCH_ECN_DEQUEUE;
	conf->ecn_kmin_bytes = sc->sw.ecn_kmin_bytes;
	conf->ecn_kmax_bytes = sc->sw.ecn_kmax_bytes;
	/* switch.queue_limit and ECN auto: limits by each port's rate. */
	conf->queue_time_ps = sc->derived.queue_time_ps;
	conf->ecn_kmin_ppm = sc->derived.ecn_kmin_ppm;
	conf->ecn_kmax_ppm = sc->derived.ecn_kmax_ppm;
	conf->link_down_blackhole =
		sc->topology.on_link_down == UET_LINK_DOWN_BLACKHOLE;
	conf->pfc_classes = sc->derived.pfc_class_mask;
	conf->pfc_xoff_bytes = sc->sw.pfc_xoff_bytes;
	conf->pfc_xon_bytes = sc->sw.pfc_xon_bytes;
	conf->pfc_headroom_bytes = sc->sw.pfc_headroom_bytes;
	conf->pfc_pause_quanta = (uint16_t)sc->sw.pfc_pause_quanta;
	conf->external_lost_copies = sc->sw.external_lost_copies;
	return 0;
}
