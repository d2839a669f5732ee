/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/nic: the Scala UET NIC of the data-path page, as one model component
 * (struct uet_component): messages posted by the host, a PDC per message,
 * the transmit scheduler over PDC groups, the PCIe fetch, frames on the
 * wire, the receive path, ACKs with their hold, NACKs, probes, per-packet
 * retransmission timers, the three completions and the records.
 *
 * Frames are rte_mbufs from a mempool the application creates; they leave
 * through the component's out function (port 0) and come in through its
 * deliver function. No ethdev calls. docs/nic.md maps every section of the
 * page to the code.
 */
#ifndef UET_NIC_H
#define UET_NIC_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_component.h"
#include "uet_record.h"
#include "uet_ses.h"
#include "uet_time.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_mempool;
struct uet_nic;
struct uet_nic_params;

/** How one NIC is set up. */
struct uet_nic_conf {
	/** Its parameters (uet_nic_params.h); copied at create. */
	const struct uet_nic_params *params;
	/** The NIC's index (the host number; also the SES initiator). */
	uint32_t index;
	/** The NIC's IPv4 address, host order. */
	uint32_t ip;
	/** The NIC's MAC address. */
	uint8_t mac[6];
	/** The rack switch's MAC: every frame is addressed to it. */
	uint8_t switch_mac[6];
	/** Frames come from here (header mbufs, and payload mbufs unless
	 * payload_mempool is set). */
	struct rte_mempool *mempool;
	/** Optional: payload mbufs come from here, mbufs without data room
	 * of their own (uet_port_pool_create_attach), which only point at
	 * the payload pattern; NULL: from mempool. */
	struct rte_mempool *payload_mempool;
	/** Records; NULL for none. */
	struct uet_record *record;
	/** Run-wide arrival table for flow rows; NULL: arrived_ps is written
	 * as UET_TIME_NEVER in the sender's flow row. */
	struct uet_ses_arrivals *arrivals;
	/** A shared payload pattern, which must outlive every frame the
	 * NIC sends; NULL: the NIC builds its own, kept until its last
	 * frame is freed. */
	const struct uet_ses_pattern *pattern;
	/** Scenario seed (start PSNs, entropy streams). */
	uint64_t seed;
	/** IPv4 addresses (host order) of the hosts whose switch port faces
	 * an endpoint that is not ours (switch.external_hosts); copied. What
	 * they send is untrusted: their receiving sides are bounded and
	 * reclaimed when they stall, and their messages are neither checked
	 * against our payload pattern nor entered in the arrival table; their
	 * arrival's completion is marked external. NULL: none. */
	const uint32_t *external_ips;
	/** Entries of external_ips. */
	uint32_t external_count;
};

/** Counters the tests and the stats rows read; see struct
 * uet_transport_stats for the page's columns. */
struct uet_nic_stats {
	/** The transport-stats columns (gauges filled at read time), the
	 * frames dropped by kind among them: ingress_drops,
	 * malformed_frames, other_frames, stale_packets, own_source_frames,
	 * misfit_packets, pdc_exhausted, external_pdcs_refused,
	 * late_probe_acks. */
	struct uet_transport_stats transport;
	/** Received payload bytes that differed from the pattern (packets). */
	uint64_t payload_mismatches;
	/** Times a group's in-flight bytes would have gone negative. */
	uint64_t in_flight_anomalies;
	/** PFC frames received that pause (non-zero quanta) or resume. */
	uint64_t pfc_rx_xoff_frames;
	uint64_t pfc_rx_xon_frames;
	/** PFC frames sent for the data ingress pool: pause, resume. */
	uint64_t pfc_tx_xoff_frames;
	uint64_t pfc_tx_xon_frames;
	/** Packets of a message whose receiving side had closed on its
	 * linger timer, acknowledged from what it remembers. */
	uint64_t closed_side_acks;
	/** mbuf allocation failures (a frame not built). */
	uint64_t mbuf_failures;
	/** Pooled events or train slots that could not be had (out of
	 * memory): a held ACK or an arrival is lost, a packet's timer
	 * expires at once. */
	uint64_t event_failures;
	/** Data packets that asked for an ACK because they closed their
	 * group's window while no request of the group was in flight. */
	uint64_t window_ack_requests;
	/** Messages whose doorbell found every PDC number in use: each
	 * waited, in post order, for the next number a close freed. */
	uint64_t pdc_waits;
	/** CP CLOSE frames sent after a message completed. */
	uint64_t closes_sent;
	/** ACKs sent for a CP CLOSE with the AR flag (a foreign sender's;
	 * wire format 4.4). */
	uint64_t close_acks_sent;
	/** Data packets retired, all PDCs (each PSN once). */
	uint64_t psns_retired;
	/** PSNs taken, all PDCs. */
	uint64_t psns_taken;
	/** Times the scheduler stopped on a full egress pool. */
	uint64_t egress_pool_stalls;
	/** Times a group left the queue on a full window. */
	uint64_t window_stalls;
	/** Times a fetch waited for the prefetch buffer. */
	uint64_t prefetch_stalls;
	/** Highest egress pool use seen, bytes. */
	uint64_t egress_pool_peak_bytes;
	/** Highest prefetch buffer use seen, bytes. */
	uint64_t prefetch_peak_bytes;
	/** Timer expiries that did nothing (acknowledged or stale). */
	uint64_t rto_ignored;
	/** Receiving sides of external hosts closed with their message not
	 * arrived, after a linger time with no packet (stalled). */
	uint64_t external_stalls_closed;
	/** Messages from external hosts that arrived whole. */
	uint64_t external_msgs_arrived;
};

/**
 * Create a NIC.
 *
 * @param nicp
 *   Set to the new NIC.
 * @param conf
 *   Its setup; copied (the pointers it holds must outlive the NIC).
 * @return
 *   0; -EINVAL for missing parameters or mempool or an unusable value
 *   (uet_nic_params_check());
 *   -ENOMEM.
 */
int uet_nic_create(struct uet_nic **nicp, const struct uet_nic_conf *conf);

/**
 * The rules the fault switch can break, one at a time (tests only: a NIC
 * built with -Dnic_faults=true takes one from the environment variable
 * UET_NIC_FAULT at uet_nic_create(); docs/interop.md lists what each
 * breaks and the conformance case that catches it).
 */
enum uet_nic_fault {
	UET_NIC_FAULT_NONE = 0,
	UET_NIC_FAULT_NO_ACK,	      /**< no ACK for the 2nd packet of a PDC */
	UET_NIC_FAULT_NO_SACK,	      /**< ACKs carry an empty SACK bitmap */
	UET_NIC_FAULT_CACK_AHEAD,     /**< cumulative ACK one PSN too far */
	UET_NIC_FAULT_NACK_CODE,      /**< trim NACKs carry NO_RESOURCE */
	UET_NIC_FAULT_NO_RETX_FLAG,   /**< retransmissions without RETX */
	UET_NIC_FAULT_NO_ECN_ECHO,    /**< ACKs never set M for a CE packet */
	UET_NIC_FAULT_PROBE_IGNORED,  /**< PROBE not answered */
	UET_NIC_FAULT_CLOSE_IGNORED,  /**< CLOSE neither acted on nor ACKed */
	UET_NIC_FAULT_PDC_ZERO,	      /**< data ACKs name PDC 0 as their own */
	UET_NIC_FAULT_DUP_NO_ACK,     /**< a duplicate data packet not ACKed */
	UET_NIC_FAULT_MALFORMED_DEAF, /**< deaf after a malformed frame */
	UET_NIC_FAULT_NO_BACKOFF,     /**< every retransmission timer the
				       * first attempt's: no doubling */
	UET_NIC_FAULT_ACK_UNREQUESTED, /**< data ACKed with or without AR */
	UET_NIC_FAULT_NACK_LASTHOP,    /**< every trim NACKed as last-hop */
	UET_NIC_FAULT_COUNT
};

/** The fault's name as UET_NIC_FAULT spells it ("no-sack"), or NULL. */
const char *uet_nic_fault_name(enum uet_nic_fault f);

/** @return 0 with *out set, or -EINVAL when name is no fault's. */
int uet_nic_fault_parse(const char *name, enum uet_nic_fault *out);

/**
 * Free a NIC and every frame it holds. Frames it sent that others still
 * hold stay valid: a pattern of its own lives until the last is freed (a
 * shared one is the caller's, uet_nic_conf).
 * NULL is accepted.
 *
 * @param nic
 *   The NIC.
 */
void uet_nic_destroy(struct uet_nic *nic);

/**
 * The NIC as a model component: its event queue, deliver, and the out
 * function the wiring sets.
 *
 * @param nic
 *   The NIC.
 * @return
 *   The component, embedded in the NIC.
 */
struct uet_component *uet_nic_component(struct uet_nic *nic);

/**
 * Post a message: at at_ps the host rings the doorbell with a WQE for it.
 * May be called before the run for every message of a workload.
 *
 * @param nic
 *   The sending NIC.
 * @param dst_ip
 *   Receiver's IPv4, host order.
 * @param bytes
 *   Message size; 0 is one empty packet; at most UET_SES_MAX_MESSAGE_BYTES.
 * @param at_ps
 *   Virtual time of the post, not before the NIC's current time.
 * @param msg_id
 *   Scenario-wide message number (carried in every data packet).
 * @return
 *   0; -EINVAL; -ENOMEM.
 */
int uet_nic_post_message(struct uet_nic *nic, uint32_t dst_ip, uint64_t bytes,
			 uet_time_t at_ps, uint64_t msg_id);

/**
 * Set the completion callbacks (copied).
 *
 * @param nic
 *   The NIC.
 * @param cb
 *   Callbacks; NULL clears them.
 */
void uet_nic_set_callbacks(struct uet_nic *nic,
			   const struct uet_ses_callbacks *cb);

/**
 * Frames the NIC could not build because its mbuf pool was empty (also in
 * uet_nic_stats()); cheap, for a check after every window.
 */
uint64_t uet_nic_mbuf_failures(const struct uet_nic *nic);

/**
 * Read the NIC's counters.
 *
 * @param nic
 *   The NIC.
 * @param stats
 *   Filled in.
 */
void uet_nic_stats(const struct uet_nic *nic, struct uet_nic_stats *stats);

/**
 * Whether the NIC has nothing left to do as a sender: no message posted and
 * not completed, no frame waiting for or on its port.
 *
 * @param nic
 *   The NIC.
 * @return
 *   true when idle.
 */
bool uet_nic_idle(const struct uet_nic *nic);

#ifdef __cplusplus
}
#endif

#endif /* UET_NIC_H */
