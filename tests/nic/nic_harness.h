/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two NICs back to back: a frame one emits with arrival_ps is delivered to
 * the other at that time; chosen frames can be dropped or trimmed on the
 * way. Both event queues run in time order. Every frame is classified and
 * counted as it crosses.
 */
#ifndef NIC_HARNESS_H
#define NIC_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_nic.h"
#include "uet_nic_params.h"

struct rte_mbuf;

#define H_MAX_FRAMES 4096
/** h_run() to the end of every queue. */
#define RUN_END_PS (UINT64_C(1) << 62)

/** Kinds of frames seen on the link. */
enum h_kind {
	H_DATA,
	H_ACK,
	H_PROBE_ACK,
	H_NACK,
	H_PROBE,
	H_CLOSE,
	H_OTHER,
	H_PFC, /**< an 802.1Qbb pause frame */
	H_KIND_COUNT
};

/** One frame seen on the link. */
struct h_frame {
	int from; /**< NIC 0 or 1 */
	enum h_kind kind;
	uet_time_t arrival_ps; /**< as given to out */
	uint32_t pkt_len;      /**< frame bytes without FCS */
	uint32_t ip_bytes;     /**< IPv4 total length */
	uint32_t psn;	       /**< data, NACK */
	uint16_t spdcid;       /**< data, ACK: the sender's PDC number */
	uint8_t dscp, ttl, ecn;
	uint8_t flags; /**< PDS flags */
	uint16_t sport;
	uint16_t service_time; /**< ACK */
	uint8_t nack_code;
	uint8_t pfc_classes;  /**< PFC: the class-enable vector */
	uint16_t pfc_quanta0; /**< PFC: class 0's quanta */
	bool dropped, trimmed;
};

/** The harness. */
struct nic_pair {
	/** Both NICs' parameters: a default scenario's, with oblivious
	 * spraying (the tests' balancer unless scenario_lb). */
	struct uet_nic_params p;
	struct rte_mempool *mp;
	struct uet_nic *nic[2];
	struct h_frame frames[H_MAX_FRAMES];
	uint32_t nframes;
	uint32_t count[2][H_KIND_COUNT];
	/** Drop the data frames from NIC 0 with these indexes (0-based,
	 * counting every data frame NIC 0 sends). */
	uint32_t drop_data[8], ndrop_data;
	/** Drop the ACK frames from NIC 1 with these indexes. */
	uint32_t drop_ack[8], ndrop_ack;
	/** Trim the data frames from NIC 0 with these indexes. */
	uint32_t trim_data[8], ntrim_data;
	uint8_t trim_dscp;
	/** Also mark the trimmed frames CE (a switch before the trimming
	 * one found its queue past ECN's threshold). */
	bool trim_ce;
	/** Drop every CLOSE from NIC 0 (the receiver's side lingers). */
	bool drop_close;
	/** Keep a copy of NIC 0's data frame with index keep_data (0-based)
	 * in kept, for a test to deliver again later (a late duplicate). */
	bool keep;
	uint32_t keep_data;
	struct rte_mbuf *kept;
	/** Hold NIC 0's data frame with index hold_data (0-based) itself,
	 * not a copy, in held instead of delivering it (lost on the wire),
	 * for a test to free after the NICs are gone. */
	bool hold;
	uint32_t hold_data;
	struct rte_mbuf *held;
	/** The payload pattern given to both NICs (uet-emu gives its run's);
	 * NULL: each builds its own. */
	const struct uet_ses_pattern *pattern;
	uint32_t data_index, ack_index;
	uint64_t sent[2], arrived[2], completed[2];
	/** Arrivals whose completion says external (uet_nic_conf). */
	uint64_t arrived_external[2];
	uet_time_t last_completed_ps;
	/** Records and the arrival table given to both NICs (may be NULL). */
	struct uet_record *rec;
	struct uet_ses_arrivals *arrivals;
	/** NIC 1's PCIe lanes when not 0 (a receiver slower than its
	 * sender); otherwise both NICs use pair->p. */
	uint32_t nic1_lane_count;
	/** Answer an external arrival's match_msg_id with external_match_id
	 * (as a run that expects the message does). */
	bool external_match;
	uint64_t external_match_id;
	/** External hosts given to both NICs (uet_nic_conf). */
	const uint32_t *external_ips;
	uint32_t external_count;
};

/** Initialise EAL (once per process) and the parameters of a default
 * scenario. */
void h_init(struct nic_pair *pair);
/** Create both NICs from pair->p. */
void h_start(struct nic_pair *pair);
/** Run both queues in time order until empty or until end_ps. */
void h_run(struct nic_pair *pair, uet_time_t end_ps);
/** Destroy the NICs and the mempool. */
void h_fini(struct nic_pair *pair);
/** IPv4 of NIC i. */
uint32_t h_ip(int i);
/** Deliver m to NIC i at arrival_ps (later than any event already run). */
void h_deliver(struct nic_pair *pair, int i, struct rte_mbuf *m,
	       uet_time_t arrival_ps);
/** Start both NICs, run one message of bytes from NIC 0 to NIC 1 to the
 * end, check that it completed and the invariants. */
void h_run_one_message(struct nic_pair *pair, uint64_t bytes);
/** Check the invariants every run must keep (anomalies, PSNs retired). */
void h_check_invariants(struct nic_pair *pair);
/** NIC i's counters now. */
struct uet_nic_stats h_stats(struct nic_pair *pair, int i);
/** The nth (from 0) frame of kind sent by NIC from, or NULL. */
const struct h_frame *h_nth_frame(const struct nic_pair *pair, int from,
				  enum h_kind kind, uint32_t n);

#endif /* NIC_HARNESS_H */
