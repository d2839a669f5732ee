/* SPDX-License-Identifier: BSD-3-Clause */
/* A NIC's parameters from the scenario (uet_run_params.h). */
#include <errno.h>
#include <string.h>

#include "uet_run_params.h"

void uet_run_dscp_map(const struct uet_scenario *sc, struct uet_dscp_map *map)
{
	const struct uet_nic_config *n = &sc->nic;

	map->codepoint[UET_DSCP_NO_TRIM] = n->dscp_no_trim;
	map->codepoint[UET_DSCP_TRIMMABLE] = n->dscp_trimmable;
	map->codepoint[UET_DSCP_TRIMMABLE_RTX] = n->dscp_trimmable_retransmit;
	map->codepoint[UET_DSCP_CONTROL] = n->dscp_control;
	map->codepoint[UET_DSCP_TRIMMED] = n->dscp_trimmed;
	map->codepoint[UET_DSCP_TRIMMED_LASTHOP] = n->dscp_trimmed_last_hop;
}

/* pds.CongestionControl and pds.LoadBalancing in the models' names. */
static int nic_params_algos(const struct uet_pds_config *pds,
			    struct uet_nic_params *p)
{
	switch (pds->congestion_control) {
	case UET_SCENARIO_CC_FIXED:
		p->cc_algo = UET_CC_FIXED;
		break;
	case UET_SCENARIO_CC_NSCC:
		p->cc_algo = UET_CC_NSCC;
		break;
	default:
		return -EINVAL;
	}
	uet_lb_params_default(&p->lb);
	switch (pds->load_balancing) {
	case UET_SCENARIO_LB_REPS:
		p->lb.algo = UET_LB_REPS;
		break;
	case UET_SCENARIO_LB_OBLIVIOUS:
		p->lb.algo = UET_LB_OBLIVIOUS;
		break;
	case UET_SCENARIO_LB_SINGLE_PATH:
		p->lb.algo = UET_LB_SINGLE_PATH;
		break;
	case UET_SCENARIO_LB_BITMAP:
		p->lb.algo = UET_LB_BITMAP;
		break;
	default:
		return -EINVAL;
	}
	p->lb.reps_cache_size = pds->reps_cache_size;
	p->lb.reps_usable_lifetime = pds->reps_usable_lifetime;
	p->lb.reps_freeze_ps = pds->reps_freeze_ps;
	p->lb.reps_explore_count = pds->reps_explore_count;
	p->lb.bitmap_paths = pds->bitmap_paths;
	return 0;
}

int uet_run_nic_params(const struct uet_scenario *sc, uint32_t host,
		       struct uet_nic_params *p)
{
	const struct uet_nic_config *n = &sc->nic;
	/* Every host's link to its rack switch runs at topology.link_rate
	 * at the start (a failure entry changes the switch's end later,
	 * in the run; docs/notes.md). */
	const uint64_t downlink_bps = sc->topology.link_rate_bps;
	int rc;

	(void)host;
	memset(p, 0, sizeof(*p));
	p->data_rate_bps = n->data_rate_bps;
	p->port_rate_bps = n->data_rate_bps;
	if (downlink_bps != 0 && downlink_bps < p->port_rate_bps)
		p->port_rate_bps = downlink_bps;
	p->delay_ps = n->delay_ps;
	p->mss_bytes = n->rdma_data_mss_bytes;
	p->pcie.lane_bps = n->lane_bps;
	p->pcie.lane_count = n->lane_count;
	p->pcie.max_payload_bytes = n->pcie_max_payload_bytes;
	p->pcie.tlp_overhead_bytes = n->pcie_tlp_overhead_bytes;
	p->pcie.write_buffer_bytes = (uint32_t)n->pcie_tx_buffer_size_bytes;
	p->pcie.read_request_bytes = UET_PCIE_DEFAULT_READ_REQUEST_BYTES;
	p->egress_pool_bytes = n->egress_pool_size_bytes;
	p->ingress_pool_bytes = n->ingress_pool_size_bytes;
	p->prefetch_enable = n->prefetch_buffer_enable;
	p->prefetch_bytes = n->prefetch_buffer_size_bytes;
	p->trimming_enabled = n->trimming_enabled;
	p->retransmit_trimmable = n->retransmit_trimmable;
	p->pdc_groups_enabled = n->pdc_groups_enabled;
	p->transmit_start_delay_ps = n->transmit_start_delay_ps;
	uet_run_dscp_map(sc, &p->dscp);
	p->udp_dport = n->udp_dest_port;
	p->pds.ack_request_every_nth = sc->pds.ack_request_every_nth_packet;
	p->pds.ack_request_first = sc->pds.ack_request_first_packet;
	p->pds.ack_request_last = sc->pds.ack_request_last_packet;
	p->pds.initial_rto_ps = sc->pds.initial_retransmit_timeout_ps;
	p->pds.max_rto_backoff_count =
		sc->pds.max_exponential_rto_backoff_count;
	p->pds.fixed_rexmit_enable = sc->pds.fixed_rexmit_time_enable;
	p->pds.fixed_rexmit_timeout_ps = sc->pds.fixed_rexmit_timeout_ps;
	p->initial_base_rtt_ps = sc->pds.initial_base_rtt_ps;
	p->window_bytes = sc->derived.fixed_window_bytes;
	p->nscc_target_qdelay_ps = sc->pds.nscc_target_qdelay_ps;
	p->nscc_initial_window_bytes = sc->pds.nscc_initial_window_bytes;
	rc = nic_params_algos(&sc->pds, p);
	if (rc < 0)
		return rc;
	p->cc_trace_enable = sc->records.enable_cc_trace;
	p->stats_enable = sc->records.enable_transport_stats;
	p->stats_interval_ps = sc->records.nd_stats_report_interval_ps;
	p->events_enable = sc->records.enable_event_logging;
	p->flows_enable = sc->records.enable_flow_summary;
	p->pfc_classes = sc->derived.pfc_class_mask;
	p->uet_policy = sc->sw.uet_policy_enabled;
	p->pfc_xoff_bytes = n->pfc_xoff_bytes;
	p->pfc_xon_bytes = n->pfc_xon_bytes;
	p->pfc_pause_quanta = (uint16_t)sc->sw.pfc_pause_quanta;
	return uet_nic_params_check(p);
}
