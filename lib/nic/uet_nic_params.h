/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The NIC's parameters: a plain struct in the units the hot path uses,
 * filled by whoever creates a NIC (app/common/run_nic_params.c from a
 * scenario; the tests by hand). lib/nic knows no scenario format.
 */
#ifndef UET_NIC_PARAMS_H
#define UET_NIC_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_cc.h"
#include "uet_lb.h"
#include "uet_pcie.h"
#include "uet_pds.h"
#include "uet_time.h"
#include "uet_wire_dscp.h"

/** A NIC's parameters, named after the scenario attributes they come
 * from. */
struct uet_nic_params {
	uint64_t data_rate_bps;	     /**< DataRate */
	uint64_t port_rate_bps;	     /**< min(DataRate, switch downlink) */
	uet_time_t delay_ps;	     /**< Delay to the rack switch */
	uint32_t mss_bytes;	     /**< RdmaDataMSS */
	struct uet_pcie_params pcie; /**< LaneBps, LaneCount, ... */
	uint64_t egress_pool_bytes;  /**< EgressPoolSize (data class) */
	uint64_t ingress_pool_bytes; /**< IngressPoolSize (each class) */
	bool prefetch_enable;	     /**< PrefetchBufferEnable */
	uint64_t prefetch_bytes;     /**< PrefetchBufferSize */
	bool trimming_enabled;	     /**< TrimmingEnabled */
	bool retransmit_trimmable;   /**< RetransmitTrimmable */
	bool pdc_groups_enabled;     /**< PDCGroupsEnabled */
	uet_time_t transmit_start_delay_ps; /**< TransmitStartDelay */
	struct uet_dscp_map dscp;	    /**< codepoints by role */
	uint16_t udp_dport;		    /**< UdpDestPort */
	struct uet_pds_params pds;	    /**< ACK request, RTO */
	uet_time_t initial_base_rtt_ps;	    /**< InitialBaseRTT */
	uint64_t window_bytes;		    /**< effective FixedWindow */
	enum uet_cc_algo cc_algo;	    /**< CongestionControl */
	uet_time_t nscc_target_qdelay_ps;   /**< NsccTargetQdelay; 0 derived */
	uint64_t nscc_initial_window_bytes; /**< NsccInitialWindow; 0 max */
	/** LoadBalancing and the REPS and bitmap attributes; the entropy
	 * range is the NIC's (the dynamic port range). */
	struct uet_lb_params lb;
	bool cc_trace_enable;	      /**< EnableCcTrace */
	bool stats_enable;	      /**< EnableTransportStats */
	uet_time_t stats_interval_ps; /**< NDStatsReportInterval */
	bool events_enable;	      /**< EnableEventLogging */
	bool flows_enable;	      /**< EnableFlowSummary */
	/** Lossless classes of the links (switch.PFCClasses), bit c for
	 * class c; 0: the NIC neither sends nor honours pauses. */
	uint8_t pfc_classes;
	/** switch.UETPolicyEnabled: how the switch, and so PFC, maps a
	 * codepoint to a class (uet_dscp_class()). */
	bool uet_policy;
	uint64_t pfc_xoff_bytes;   /**< PFCXoff: data ingress pool bytes */
	uint64_t pfc_xon_bytes;	   /**< PFCXon: at or below it, resume */
	uint16_t pfc_pause_quanta; /**< switch.PFCPauseQuanta */
};

/**
 * Check parameters as uet_nic_create() does: a usable MSS (1 to the
 * largest SES payload), port rate and window, and valid PCIe, PDS and
 * codepoint parameters.
 *
 * @param p
 *   The parameters.
 * @return
 *   0, or -EINVAL.
 */
int uet_nic_params_check(const struct uet_nic_params *p);

#endif /* UET_NIC_PARAMS_H */
