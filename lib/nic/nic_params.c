/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Scenario attributes to the NIC's parameters (the only file of lib/nic
 * that includes uet_config.h; see nic_params.h).
 */
#include <errno.h>
#include <string.h>

#include "nic_params.h"
#include "uet_config.h"
#include "uet_ses.h"

int nic_params_from_scenario(struct nic_params *p, const void *scenario,
			     uint64_t downlink_bps)
{
	const struct uet_scenario *s = scenario;
	const struct uet_nic_config *n = &s->nic;

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
	p->dscp.codepoint[UET_DSCP_NO_TRIM] = n->dscp_no_trim;
	p->dscp.codepoint[UET_DSCP_TRIMMABLE] = n->dscp_trimmable;
	p->dscp.codepoint[UET_DSCP_TRIMMABLE_RTX] =
		n->dscp_trimmable_retransmit;
	p->dscp.codepoint[UET_DSCP_CONTROL] = n->dscp_control;
	p->dscp.codepoint[UET_DSCP_TRIMMED] = n->dscp_trimmed;
	p->dscp.codepoint[UET_DSCP_TRIMMED_LASTHOP] = n->dscp_trimmed_last_hop;
	p->udp_dport = n->udp_dest_port;
	p->pds.ack_request_every_nth = s->pds.ack_request_every_nth_packet;
	p->pds.ack_request_first = s->pds.ack_request_first_packet;
	p->pds.ack_request_last = s->pds.ack_request_last_packet;
	p->pds.initial_rto_ps = s->pds.initial_retransmit_timeout_ps;
	p->pds.max_rto_backoff_count = s->pds.max_exponential_rto_backoff_count;
	p->pds.fixed_rexmit_enable = s->pds.fixed_rexmit_time_enable;
	p->pds.fixed_rexmit_timeout_ps = s->pds.fixed_rexmit_timeout_ps;
	p->initial_base_rtt_ps = s->pds.initial_base_rtt_ps;
	p->window_bytes = s->derived.fixed_window_bytes;
	switch (s->pds.congestion_control) {
	case UET_SCENARIO_CC_FIXED:
		p->cc_algo = UET_CC_FIXED;
		break;
	case UET_SCENARIO_CC_NSCC:
		p->cc_algo = UET_CC_NSCC;
		break;
	default:
		return -EINVAL;
	}
	p->nscc_target_qdelay_ps = s->pds.nscc_target_qdelay_ps;
	p->nscc_initial_window_bytes = s->pds.nscc_initial_window_bytes;
	uet_lb_params_default(&p->lb);
	switch (s->pds.load_balancing) {
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
	p->lb.reps_cache_size = s->pds.reps_cache_size;
	p->lb.reps_usable_lifetime = s->pds.reps_usable_lifetime;
	p->lb.reps_freeze_ps = s->pds.reps_freeze_ps;
	p->lb.reps_explore_count = s->pds.reps_explore_count;
	p->lb.bitmap_paths = s->pds.bitmap_paths;
	p->cc_trace_enable = s->records.enable_cc_trace;
	p->stats_enable = s->records.enable_transport_stats;
	p->stats_interval_ps = s->records.nd_stats_report_interval_ps;
	p->events_enable = s->records.enable_event_logging;
	p->flows_enable = s->records.enable_flow_summary;
	/* Checked by the configuration: a bad list leaves PFC off. */
	(void)uet_config_pfc_class_mask(s->sw.pfc_classes, &p->pfc_classes);
	p->uet_policy = s->sw.uet_policy_enabled;
	p->pfc_xoff_bytes = n->pfc_xoff_bytes;
	p->pfc_xon_bytes = n->pfc_xon_bytes;
	p->pfc_pause_quanta = (uint16_t)s->sw.pfc_pause_quanta;
	if (p->mss_bytes == 0 || p->mss_bytes > UET_SES_MAX_MSS_BYTES ||
	    p->port_rate_bps == 0 || p->window_bytes == 0 ||
	    uet_pcie_params_check(&p->pcie) != 0 ||
	    uet_pds_params_check(&p->pds) != 0 ||
	    uet_dscp_map_validate(&p->dscp) != 0)
		return -EINVAL;
	return 0;
}
