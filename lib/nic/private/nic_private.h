/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Internals of the Scala UET NIC: the NIC, its PDCs and PDC groups, the
 * pool of per-packet events, the egress queues. One file per concern of the
 * page uses them (docs/nic.md lists which).
 */
#ifndef NIC_PRIVATE_H
#define NIC_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include "uet_cc.h"
#include "uet_component.h"
#include "uet_lb.h"
#include "uet_nic.h"
#include "uet_nic_params.h"
#include "uet_pcie.h"
#include "uet_pds.h"
#include "uet_record.h"
#include "uet_rng.h"
#include "uet_ses.h"
#include "uet_train.h"
#include "uet_wire.h"

/** PDC numbers are 1..65535 per NIC; 0 is reserved ("none"). */
#define NIC_PDC_ID_MAX 65535u
/** Buckets of a NIC's lookup tables (receiving sides by peer, groups by
 * peer) at their first entry; they double when they hold as many entries
 * as buckets. */
#define NIC_HASH_FIRST 8u
/** Outstanding base-RTT probes remembered (by probe_opaque). */
#define NIC_PROBE_SLOTS 256u
/** Probe slots at the first probe; they double up to NIC_PROBE_SLOTS. */
#define NIC_PROBE_FIRST 4u
/** Closed receiving sides remembered per NIC. */
#define NIC_RX_CLOSED_MAX 1024u
/** Slots of the closed-side ring at its first close; it doubles up to
 * NIC_RX_CLOSED_MAX (a power-of-two fraction of it). */
#define NIC_RX_CLOSED_FIRST 16u
/** Receiving sides that external hosts (struct uet_nic_conf) may hold open
 * on one NIC at once, all of them together: the rest of the 65,535 PDC
 * numbers stay for our own hosts' traffic, whatever a foreign stack
 * opens. */
#define NIC_EXTERNAL_RX_PDCS_MAX 1024u
/** Per-packet events allocated together (stable addresses): a pool that
 * grows by a few at a time follows the NIC's peak closely. */
#define NIC_TEV_CHUNK 16u
/** Traffic classes: data and control, with the default classes. */
#define NIC_TC_DATA 0
#define NIC_TC_CONTROL 1
#define NIC_TC_COUNT 2

struct uet_nic;
struct nic_group;

/** PFC at the NIC's port (nic_pfc.c). */
struct nic_pfc {
	/** Class c of the link starts no frame before this time: the
	 * switch paused it. */
	uet_time_t paused_until_ps[UET_TC_COUNT];
	uint8_t data_classes;  /**< lossless classes of the data codepoints:
				* what a full data ingress pool pauses */
	bool xoff;	       /**< the NIC has paused them at the switch */
	uet_time_t refresh_ps; /**< when that XOFF is sent again */
	struct uet_event ev;   /**< a pause runs out, or the refresh */
};

/** What a frame waiting in an egress queue is. */
enum nic_frame_kind {
	NIC_FRAME_DATA = 0,  /**< data, first transmission */
	NIC_FRAME_DATA_RETX, /**< data, retransmission */
	NIC_FRAME_ACK,	     /**< ACK of a data packet */
	NIC_FRAME_PROBE_ACK, /**< ACK answering a probe */
	NIC_FRAME_NACK,	     /**< trim NACK */
	NIC_FRAME_PROBE,     /**< CP PROBE */
	NIC_FRAME_CLOSE,     /**< CP CLOSE */
	NIC_FRAME_PFC,	     /**< the NIC's own 802.1Qbb pause frame */
};

/** A frame in an egress queue, or on the port. */
struct nic_txq_item {
	struct rte_mbuf *m;  /**< the frame (owned) */
	uint32_t wire_bytes; /**< size on the wire, FCS counted */
	uint32_t psn;	     /**< data: its PSN; probe: its slot */
	uint32_t pdc_gen;    /**< generation of the PDC below */
	uint16_t pdc;	     /**< sending PDC (data, probe) or 0 */
	uint8_t kind;	     /**< enum nic_frame_kind */
	/** Monitor fields, kept so the row is written when the frame
	 * leaves without parsing it again. */
	struct uet_monitor_row mon;
};

/**
 * Slots of a transmit FIFO at its first frame. It doubles when full, and a
 * queue that never quite empties walks its whole ring, so the first size
 * is what a port's usual backlog needs, not a window's worth: 256 slots
 * were 22 KiB of pages touched per NIC in a 1,024-host run.
 */
#define NIC_TXQ_FIRST 16u

/** A frame in an egress queue: an item without its monitor row. */
struct nic_txq_slot {
	struct rte_mbuf *m;  /**< the frame (owned) */
	uint32_t wire_bytes; /**< size on the wire, FCS counted */
	uint32_t psn;	     /**< as in struct nic_txq_item */
	uint32_t pdc_gen;    /**< generation of the PDC below */
	uint16_t pdc;	     /**< sending PDC (data, probe) or 0 */
	uint8_t kind;	     /**< enum nic_frame_kind */
};

/**
 * A FIFO of frames; grows by doubling, never shrinks. The monitor rows
 * wait in a ring of their own, kept only when uet-monitor rows are
 * wanted: a queue's slot is a quarter of an item with its row.
 */
struct nic_txq {
	struct nic_txq_slot *items;   /**< ring */
	struct uet_monitor_row *mons; /**< their rows, or NULL */
	uint32_t cap;		      /**< slots, a power of two */
	uint32_t head;		      /**< oldest */
	uint32_t count;		      /**< frames waiting */
};

/** Kinds of pooled events. */
enum nic_tev_kind {
	NIC_TEV_FETCH = 0,    /**< a payload's PCIe completion arrived */
	NIC_TEV_RTO,	      /**< a retransmission's timer (nic_rto.c) */
	NIC_TEV_RX,	      /**< a frame arrives on the port */
	NIC_TEV_ACK_HOLD,     /**< a held ACK is released */
	NIC_TEV_INGRESS_FREE, /**< a PCIe write was accepted */
};

/**
 * A per-packet event from the NIC's pool: stable address, recycled through
 * a free list, so timers cost nothing per pending timer beyond the heap
 * slot. A retransmission's RTO timer is one of them (first transmissions'
 * timers wait in the train, nic_rto.c); none is ever cancelled.
 */
struct nic_tev {
	struct uet_event ev;	   /**< embedded event */
	struct uet_nic *nic;	   /**< owner */
	struct nic_tev *next_free; /**< free list link */
	struct rte_mbuf *m;	   /**< RX: the frame */
	uint32_t psn;		   /**< FETCH, RTO: the packet */
	uint32_t count;		   /**< RTO: the transmission it guards */
	uint32_t bytes;		   /**< INGRESS_FREE: bytes; ACK_HOLD: wire */
	uint32_t pdc_gen;	   /**< generation of pdc */
	uint16_t pdc;		   /**< FETCH, RTO: the PDC */
	uint8_t kind;		   /**< enum nic_tev_kind */
	uint8_t tc;		   /**< INGRESS_FREE: traffic class */
	bool in_use;		   /**< taken from the pool */
	struct nic_txq_item ack;   /**< ACK_HOLD: the ACK, for the port */
};

/** One chunk of pooled events. */
struct nic_tev_chunk {
	struct nic_tev_chunk *next;	   /**< chunks list */
	struct nic_tev tev[NIC_TEV_CHUNK]; /**< events */
};

/** A payload fetch waiting for its PCIe completion in the fetch train
 * (nic_sched.c). */
struct nic_fetch_entry {
	uint32_t psn;	  /**< the packet */
	uint32_t pdc_gen; /**< generation of pdc */
	uint16_t pdc;	  /**< the PDC */
};

/** A packet's transmission with the AR flag (nic_sched.c): while the
 * packet is in flight on that transmission, its ACK is on its way. */
struct nic_ack_request {
	uint32_t psn;	  /**< the packet */
	uint32_t count;	  /**< its transmission that asked */
	uint32_t pdc_gen; /**< generation of pdc */
	uint16_t pdc;	  /**< the PDC; 0: no request yet */
};

/** A retransmission timer waiting in the train (nic_rto.c). */
struct nic_rto_entry {
	uint32_t psn;	  /**< the packet */
	uint32_t count;	  /**< the transmission it guards */
	uint32_t pdc_gen; /**< generation of pdc */
	uint16_t pdc;	  /**< the PDC */
};

/** A window or prefetch key of a PDC that has no packet behind that gate. */
#define NIC_TURN_NONE UINT32_MAX

/**
 * A sending PDC's place in its group's ring of turns (nic_turns.c) and
 * what its next packet needs (nic_sched.c, pdc_sync): the keys are the
 * bytes its first gate must take, and each subtree keeps the least.
 */
struct nic_turn {
	struct nic_pdc *left, *right, *parent; /**< the tree, in ring order */
	uint32_t prio;	       /**< treap priority: above its children's */
	uint32_t size;	       /**< PDCs in the subtree */
	uint32_t window_key;   /**< nominal bytes the window must take */
	uint32_t prefetch_key; /**< wire bytes the prefetch buffer must take */
	uint32_t window_min;   /**< least window_key in the subtree */
	uint32_t prefetch_min; /**< least prefetch_key in the subtree */
	bool stale;	       /**< its retransmit FIFO holds stale entries
				* only: a visit of step 3 empties it */
	bool stale_any;	       /**< some PDC of the subtree is stale */
	bool work;	       /**< pdc_has_work, as the group counts it */
};

/** What nic_turns_first() looks for: a PDC whose key fits a room (-1: no
 * room), or a stale one. */
struct nic_turn_query {
	int64_t window_room;   /**< bytes the window takes; -1: none */
	int64_t prefetch_room; /**< bytes the prefetch buffer takes */
	bool stale;	       /**< look for stale PDCs instead */
};

/** A PDC: one side, sending or receiving, of one message's context. */
struct nic_pdc {
	struct uet_nic *nic;	 /**< owner */
	uint16_t id;		 /**< this NIC's PDC number, 0 until open */
	uint32_t gen;		 /**< generation: bumps on every open */
	bool is_tx;		 /**< sending side */
	bool open;		 /**< has a number and takes packets */
	uint32_t peer_ip;	 /**< host order */
	uint16_t peer_pdc;	 /**< peer's PDC number (0: not known yet) */
	struct nic_group *group; /**< its group (NULL: receiving side with
				  * PDCGroupsEnabled false) */
	struct nic_pdc *ring_next, *ring_prev; /**< group's sending PDCs */
	struct nic_turn tn;	   /**< its place in the ring's tree */
	struct nic_pdc *hash_next; /**< receiving sides by (ip, pdc, start) */
	/* Sending side. */
	struct nic_pdc *wait_next;    /**< next message waiting for a number */
	struct uet_event post_ev;     /**< the host posts (at at_ps) */
	struct uet_event doorbell_ev; /**< the doorbell reaches the NIC */
	struct uet_pds_tx tx;	      /**< PSNs and outstanding packets */
	struct uet_ses_msg_tx msg;    /**< the message */
	uint32_t dst_ip;	      /**< receiver */
	uint32_t start_psn;	      /**< first PSN */
	bool syn;		      /**< no ACK yet: packets carry SYN */
	bool probe_sent;	      /**< this message's probe has gone */
	uint32_t eom_psn;	 /**< PSN of the last segment, once taken */
	bool eom_taken;		 /**< eom_psn is valid */
	uint32_t commit_psn;	 /**< prefetch: next first transmission */
	uint32_t prefetch_ready; /**< prefetch: payloads arrived, waiting */
	/** The flow row's counts. A receiving side counts what it saw of
	 * an external host's message: packets with the retransmit flag,
	 * trimmed packets NACKed (trims and nacks). */
	uint32_t retransmits, trims, nacks, timeouts;
	/* Receiving side. */
	struct uet_pds_rx rx;	    /**< received PSNs */
	struct uet_ses_msg_rx rmsg; /**< the message */
	bool rmsg_known;	    /**< rmsg set from an untrimmed packet */
	bool external;		    /**< its peer is an external host */
	uint32_t rx_packets;	    /**< new data packets taken */
	/** An external host's message: the scenario's number the run
	 * matched it to at its arrival, or UET_RECORD_MSG_ID_NONE. */
	uint64_t ext_msg_id;
	uet_time_t last_rx_ps;	    /**< ps, last data packet */
	struct uet_event linger_ev; /**< closes a side the CLOSE missed */
};

/**
 * A receiving side that closed, on its linger timer (the sender's CLOSE
 * never came) or on the CLOSE: the sender may still be retransmitting a
 * packet whose ACK was lost, and must get that ACK, or it retries until the
 * run ends; a retransmission the CLOSE overtook must not open a new side.
 */
struct nic_rx_closed {
	uint32_t peer_ip;   /**< host order; 0: a free slot */
	uint32_t start_psn; /**< the PDC's first PSN */
	uint32_t cack_psn;  /**< every PSN through this one had arrived */
	uint16_t peer_pdc;  /**< the sender's PDC number */
	uint16_t id;	    /**< the number this side had */
	uint16_t hash_next; /**< next slot + 1 of its bucket, 0: the last */
};

/** A PDC group: the PDCs to one peer (or one message), one window. */
struct nic_group {
	uint64_t seq;		   /**< creation number, for the lb stream */
	uint32_t peer_ip;	   /**< host order */
	uint32_t members;	   /**< PDCs (both sides) in the group */
	struct uet_cc cc;	   /**< shared congestion window */
	struct uet_lb lb;	   /**< shared spraying state */
	uint64_t in_flight_bytes;  /**< nominal bytes counted in the window */
	struct nic_pdc *turn;	   /**< sending PDC whose turn it is */
	uint32_t tx_pdcs;	   /**< sending PDCs in the ring */
	struct nic_pdc *turn_root; /**< the ring as a tree (nic_turns.c) */
	uint32_t work_pdcs;	   /**< sending PDCs with work (has_work) */
	uint32_t window_pdcs;	   /**< of those, with a window key */
	uint32_t prefetch_pdcs;	   /**< of those, with a prefetch key */
	uint32_t idle_slot;	   /**< slot in the NIC's idle heap + 1, or 0 */
	bool queued;		   /**< in the NIC's queue of ready groups */
	struct nic_group *q_next, *q_prev;     /**< queue links */
	struct nic_group *hash_next;	       /**< by peer (groups enabled) */
	struct nic_group *all_next, *all_prev; /**< every group */
	uint16_t probe_head; /**< its first probe slot + 1, or 0 */
	/** Packets the window admitted whose payload fetch is under way
	 * (prefetch buffer off): the last of them sent may close the
	 * window (ack_request_closes_window in nic_sched.c). */
	uint32_t fetching;
	/** The group's latest packet sent with AR. */
	struct nic_ack_request request;
};

/** A base-RTT probe waiting for its ACK. */
struct nic_probe_slot {
	struct nic_group *group; /**< NULL: free */
	uet_time_t sent_ps;	 /**< ps, serialization end; NEVER: queued */
	uint16_t opaque;	 /**< probe_opaque sent */
	/** The group's other slots (slot + 1, 0: none), so that a group
	 * that goes lets go of its own slots only. */
	uint16_t g_prev, g_next;
};

/** The payload pattern with the shared-info its payload mbufs point at. */
struct nic_payload {
	struct rte_mbuf_ext_shared_info shinfo; /**< refcount: NIC (+ mbufs
						 * of an own pattern) */
	struct uet_ses_pattern *owned;		/**< freed with it, or NULL */
	const struct uet_ses_pattern *pattern;	/**< the bytes */
	rte_iova_t iova;			/**< of pattern->bytes */
};

/**
 * The buffers (nic_pool.c owns these fields): bytes each holds, its size,
 * and its peak for the stats.
 */
struct nic_pools {
	uint64_t egress_bytes;		      /**< data class reservations */
	uint64_t egress_cap_bytes;	      /**< EgressPoolSize */
	uint64_t egress_peak_bytes;	      /**< highest egress_bytes seen */
	uint64_t prefetch_bytes;	      /**< prefetch buffer */
	uint64_t prefetch_cap_bytes;	      /**< PrefetchBufferSize */
	uint64_t prefetch_peak_bytes;	      /**< highest prefetch_bytes */
	uint64_t ingress_bytes[NIC_TC_COUNT]; /**< by class, IP bytes */
	uint64_t ingress_cap_bytes;	      /**< IngressPoolSize, each */
};

/** The transmit scheduler's state (nic_sched.c owns these fields). */
struct nic_sched {
	struct nic_group *q_head, *q_tail; /**< groups ready to send */
	/** With the prefetch buffer on: the groups out of the queue that
	 * have work, a heap by creation number, newest first (the order a
	 * drained buffer brings them back in). */
	struct nic_group **idle;
	uint32_t idle_len, idle_cap;
	struct uet_event tx_ev; /**< the transmit process runs */
	bool egress_stalled;	/**< stopped on a full egress pool */
	bool prefetch_stalled;	/**< a group left on a full prefetch buffer */
};

/** Told when a frame's serialization has ended (after it left). */
typedef void (*nic_port_sent_fn)(struct uet_nic *nic,
				 const struct nic_txq_item *it);

/** The egress queues and the port (nic_port.c owns these fields). */
struct nic_port {
	struct nic_txq txq[NIC_TC_COUNT]; /**< egress queues by class */
	struct nic_txq pfc_txq;		  /**< own pause frames, sent first */
	bool busy;			  /**< a frame is serializing */
	struct nic_txq_item on_port;	  /**< that frame */
	struct uet_event ev;		  /**< its serialization ends */
	nic_port_sent_fn sent;		  /**< then this is told */
};

/** The NIC. */
struct uet_nic {
	struct uet_component comp; /**< first: what lib/sync runs */
	struct uet_nic_params p;   /**< parameters */
	uint32_t index, ip;	   /**< host number, IPv4 (host order) */
	uint32_t *external_ips;	   /**< untrusted peers (uet_nic_conf) */
	uint32_t external_count;   /**< entries of external_ips */
	uint32_t external_rx_open; /**< their receiving sides open */
	enum uet_nic_fault fault;  /**< the fault switch (nic_fault.c) */
	uint8_t mac[6], switch_mac[6];
	struct rte_mempool *mp;		   /**< frames */
	struct rte_mempool *payload_mp;	   /**< payload mbufs */
	struct uet_record *rec;		   /**< records or NULL */
	bool monitor_on;		   /**< uet-monitor rows wanted */
	struct uet_ses_arrivals *arrivals; /**< run-wide, or NULL */
	struct nic_payload *payload;	   /**< pattern and shared-info */
	struct uet_ses_callbacks cb;	   /**< completions */
	struct uet_rng rng;		   /**< start PSNs */
	uint64_t seed;		  /**< scenario seed (entropy streams) */
	struct uet_pcie pcie;	  /**< the host link */
	struct uet_wire_cfg wire; /**< parser settings */
	/* PDCs. */
	struct nic_pdc **pdcs; /**< by number; NULL when free */
	uint32_t pdcs_cap;     /**< slots in pdcs */
	uint16_t *free_ids;    /**< numbers closed, reused last-in first */
	uint32_t free_count, free_cap;
	uint32_t next_new_id; /**< lowest number never used */
	uint32_t next_gen;    /**< generation counter */
	/** Receiving sides by (peer IPv4, peer PDC): buckets allocated at
	 * the first, doubled as they fill. */
	struct nic_pdc **rx_hash;
	uint32_t rx_hash_cap, rx_hash_count;
	/** The last NIC_RX_CLOSED_MAX receiving sides closed, a ring
	 * (allocated at the first, grown until it holds the maximum). */
	struct nic_rx_closed *rx_closed;
	uint32_t rx_closed_next; /**< next slot the ring writes */
	uint32_t rx_closed_cap;	 /**< slots allocated */
	/** The ring's slots by (peer IPv4, peer PDC): slot + 1 of the
	 * first in each of rx_closed_cap buckets. */
	uint16_t *rx_closed_head;
	uint32_t tx_pdcs_open;	/**< sending sides open */
	uint32_t posts_pending; /**< posted, doorbell not yet run */
	/** Messages whose doorbell found every PDC number in use, in the
	 * order they came: each takes the next number a close frees. */
	struct nic_pdc *pdc_wait_head, *pdc_wait_tail;
	uint32_t pdc_waiting;	  /**< messages in that line */
	uint16_t next_message_id; /**< SES message_id counter */
	/* Groups and the transmit scheduler. */
	struct nic_group **group_hash; /**< by peer, as rx_hash */
	uint32_t group_hash_cap, group_hash_count;
	struct nic_group *groups; /**< every group */
	uint64_t next_group_seq;
	struct nic_sched sched; /**< the transmit scheduler */
	struct nic_pools pools; /**< the buffers */
	struct nic_port port;	/**< egress queues and the port */
	struct nic_pfc pfc;	/**< pauses sent and honoured */
	/* ACKs. */
	uet_time_t last_ack_release_ps; /**< ACKs leave in order */
	/** Probe slots by probe_opaque % NIC_PROBE_SLOTS, allocated as
	 * the probes reach them. */
	struct nic_probe_slot *probes;
	uint32_t probes_cap;
	uint16_t next_probe_opaque;
	/* Pooled events. */
	struct nic_tev_chunk *tev_chunks;
	struct nic_tev *tev_free;
	struct uet_train rto;	   /**< first transmissions' RTO timers */
	struct uet_train fetches;  /**< PCIe completions of payloads */
	struct uet_train rx_train; /**< frames arriving, in order */
	/* Records. */
	struct uet_event stats_ev; /**< next stats row */
	struct uet_nic_stats st;   /**< counters */
};

/* nic_tev.c. A pool that cannot grow (out of memory) counts it in
 * event_failures. */
struct nic_tev *nic_tev_get(struct uet_nic *nic, enum nic_tev_kind kind,
			    uet_event_fn fn);
/* Make sure the next nic_tev_get() finds a free event. */
int nic_tev_reserve(struct uet_nic *nic);
void nic_tev_put(struct nic_tev *t);
void nic_tev_pool_fini(struct uet_nic *nic);

/* nic_pdc.c: PDC numbers, lookups, groups. */
int nic_pdc_open(struct uet_nic *nic, struct nic_pdc *pdc, uint32_t peer_ip);
void nic_pdc_close(struct nic_pdc *pdc);
struct nic_pdc *nic_pdc_lookup(struct uet_nic *nic, uint16_t id);
struct nic_pdc *nic_pdc_lookup_gen(struct uet_nic *nic, uint16_t id,
				   uint32_t gen);
struct nic_pdc *nic_pdc_rx_find(struct uet_nic *nic, uint32_t peer_ip,
				uint16_t peer_pdc, uint32_t start_psn);
int nic_pdc_rx_hash_add(struct nic_pdc *pdc);
void nic_pdc_rx_closed_add(struct nic_pdc *pdc);
const struct nic_rx_closed *
nic_pdc_rx_closed_find(struct uet_nic *nic, uint32_t peer_ip, uint16_t peer_pdc,
		       uint32_t start_psn, uint32_t psn);
const struct nic_rx_closed *nic_pdc_rx_closed_by_id(struct uet_nic *nic,
						    uint32_t peer_ip,
						    uint16_t peer_pdc,
						    uint16_t id, uint32_t psn);
void nic_pdcs_fini(struct uet_nic *nic);
/* Whether a PDC number is free to open a PDC with. */
static inline bool nic_pdc_id_free(const struct uet_nic *nic)
{
	return nic->free_count > 0 || nic->next_new_id <= NIC_PDC_ID_MAX;
}
/* nic_create.c: messages waiting for a PDC number start, in order, while
 * numbers are free. */
void nic_pdc_wait_start(struct uet_nic *nic);
/* Probe slots (nic_pdc.c): the slot of a probe about to be sent, owned
 * by group g from now (NULL: no memory), and a slot let go of. */
struct nic_probe_slot *nic_probe_take(struct uet_nic *nic, uint32_t slot,
				      struct nic_group *g);
void nic_probe_release(struct uet_nic *nic, struct nic_probe_slot *s);

/* nic_turns.c: the ring of turns as a tree in ring order. */
void nic_turns_insert(struct nic_group *g, struct nic_pdc *pdc,
		      struct nic_pdc *before);
void nic_turns_remove(struct nic_group *g, struct nic_pdc *pdc);
void nic_turns_changed(struct nic_pdc *pdc);
uint32_t nic_turns_rank(const struct nic_pdc *pdc);
/* The first PDC among the count positions of the ring from position
 * from (wrapping past the last) that q asks for, its position in *pos;
 * or NULL. */
struct nic_pdc *nic_turns_first(struct nic_group *g, uint32_t from,
				uint32_t count, const struct nic_turn_query *q,
				uint32_t *pos);

/* nic_pool.c: the buffers. */
void nic_pools_init(struct nic_pools *pl, const struct uet_nic_params *p);
bool nic_egress_room(const struct nic_pools *pl, uint32_t wire_bytes);
void nic_egress_reserve(struct nic_pools *pl, uint32_t wire_bytes);
/* Returns true when the pool is at half its size or less. */
bool nic_egress_release(struct nic_pools *pl, uint32_t wire_bytes);
bool nic_prefetch_room(const struct nic_pools *pl, uint32_t wire_bytes);
void nic_prefetch_reserve(struct nic_pools *pl, uint32_t wire_bytes);
/* Returns true when the buffer is at half its size or less. */
bool nic_prefetch_release(struct nic_pools *pl, uint32_t wire_bytes);
bool nic_ingress_charge(struct nic_pools *pl, int tc, uint32_t ip_bytes);
void nic_ingress_release(struct nic_pools *pl, int tc, uint32_t ip_bytes);
/* Bytes class tc's ingress pool holds. */
static inline uint64_t nic_ingress_used(const struct nic_pools *pl, int tc)
{
	return pl->ingress_bytes[tc];
}
/* The pools' gauges and peaks into a stats snapshot. */
void nic_pools_stats(const struct nic_pools *pl, struct uet_nic_stats *out);

/* nic_sched.c: the transmit scheduler, segmentation and the fetch. */
int nic_sched_init(struct uet_nic *nic);
void nic_group_enqueue_tail(struct uet_nic *nic, struct nic_group *g);
void nic_group_enqueue_head(struct uet_nic *nic, struct nic_group *g);
void nic_group_dequeue(struct uet_nic *nic, struct nic_group *g);
void nic_transmit_start(struct uet_nic *nic, uet_time_t at_ps);
void nic_transmit_on_feedback(struct uet_nic *nic, struct nic_group *g);
void nic_tx_sent(struct uet_nic *nic, const struct nic_txq_item *it);
void nic_sched_fini(struct uet_nic *nic);
/* A sending PDC's state changed (an ACK, a NACK, a timeout): its keys
 * and its group's counts follow. */
void nic_pdc_sync(struct uet_nic *nic, struct nic_pdc *pdc);
/* A sending PDC joins its group's ring of turns, or leaves it. */
void nic_sched_pdc_join(struct uet_nic *nic, struct nic_pdc *pdc);
void nic_sched_pdc_leave(struct uet_nic *nic, struct nic_pdc *pdc);
/* A group is going: out of the scheduler's queue and idle heap. */
void nic_sched_group_gone(struct uet_nic *nic, struct nic_group *g);

/** Whether a group's sending PDCs have anything to send (or a stale
 * retransmit entry a visit would drop). */
static inline bool nic_group_has_work(const struct nic_group *g)
{
	return g->work_pdcs > 0;
}

/* nic_frame.c: frames as mbufs. */
struct rte_mbuf *nic_frame_data(struct uet_nic *nic, struct nic_pdc *pdc,
				uint32_t psn,
				const struct uet_pds_tx_packet *pkt, bool ar,
				bool retx, uint8_t dscp);
/* A control frame (ACK_CC, NACK or CP) built from its PDS header, to dst_ip
 * with entropy, as an egress item of kind: the mbuf, its wire size and its
 * monitor row from the header (an ACK's row leaves psn, the PSN it
 * acknowledges, to the caller: the header has it only as a 16-bit
 * offset). Returns 0, or -ENOMEM (counted as an mbuf failure). */
int nic_ctrl_item(struct uet_nic *nic, uint32_t dst_ip, uint16_t entropy,
		  const struct uet_pds_hdr *h, enum nic_frame_kind kind,
		  struct nic_txq_item *it);
int nic_payload_create(struct uet_nic *nic,
		       const struct uet_ses_pattern *shared);
void nic_payload_release(struct nic_payload *payload);

/* nic_port.c: egress queues and the port. */
void nic_port_init(struct uet_nic *nic, nic_port_sent_fn sent);
int nic_port_queue(struct uet_nic *nic, int tc, const struct nic_txq_item *it);
int nic_port_queue_pause(struct uet_nic *nic, const struct nic_txq_item *it);
void nic_port_kick(struct uet_nic *nic);
bool nic_port_idle(const struct uet_nic *nic);
void nic_port_fini(struct uet_nic *nic);
/* Queue a control item on the control class (freed and counted if the
 * queue cannot take it). */
void nic_port_send_ctrl(struct uet_nic *nic, const struct nic_txq_item *it);

/* nic_pfc.c: 802.1Qbb priority flow control at the port. */
void nic_pfc_init(struct uet_nic *nic);
void nic_pfc_receive(struct uet_nic *nic, const struct uet_pfc *pfc);
bool nic_pfc_may_send(const struct uet_nic *nic, const struct rte_mbuf *m);
void nic_pfc_pool_changed(struct uet_nic *nic);

/* nic_rx.c: receiving a packet. */
int nic_rx_init(struct uet_nic *nic);
void nic_rx_fini(struct uet_nic *nic);
int nic_deliver(struct uet_component *c, uint32_t port, struct rte_mbuf *m,
		uet_time_t arrival_ps);
void nic_rx_monitor(struct uet_nic *nic, const struct uet_frame *f,
		    uint16_t pdc, enum uet_monitor_pkt kind);
bool nic_peer_external(const struct uet_nic *nic, uint32_t ip);

/* nic_fault.c: the fault switch, built with -Dnic_faults=true only. */
#ifdef UET_NIC_FAULTS
#define UET_NIC_FAULTS_BUILT 1
#else
#define UET_NIC_FAULTS_BUILT 0
#endif
/** Whether nic breaks rule f: the constant false in a normal build. */
#define NIC_FAULT(nic, f) (UET_NIC_FAULTS_BUILT && (nic)->fault == (f))
/* Take the fault UET_NIC_FAULT names; 0, or a negative errno with a
 * message on stderr. */
int nic_fault_from_env(struct uet_nic *nic);

/* nic_rx_control.c: control packets received (PROBE, CLOSE). */
void nic_rx_control(struct uet_nic *nic, const struct uet_frame *f);

/* nic_ack.c: the sender's side of ACKs, NACKs and timers. */
void nic_rx_ack(struct uet_nic *nic, const struct uet_frame *f);
void nic_rx_nack(struct uet_nic *nic, const struct uet_frame *f);
void nic_rto_fire(struct uet_nic *nic, uint16_t pdc_id, uint32_t pdc_gen,
		  uint32_t psn, uint32_t count);

/* nic_rto.c: retransmission timers, first transmissions in a train. */
/* Start the timer of a packet's transmission sent at sent_ps; -ENOMEM
 * when no event could be had for it (counted by the event pool). */
int nic_rto_start(struct uet_nic *nic, struct nic_pdc *pdc, uint32_t psn,
		  uint32_t transmit_count, uet_time_t sent_ps);
int nic_rto_init(struct uet_nic *nic);
void nic_rto_fini(struct uet_nic *nic);
void nic_probe_sent(struct uet_nic *nic, uint32_t slot);
void nic_rto_acked(struct uet_nic *nic);

/* nic_record.c: records and completions. */
void nic_record_event(struct uet_nic *nic, enum uet_event_kind kind,
		      const struct nic_pdc *pdc, uint64_t msg_id,
		      uint64_t bytes);
void nic_record_monitor(struct uet_nic *nic, const struct uet_monitor_row *r);
void nic_record_cc(struct uet_nic *nic, const struct nic_group *g,
		   const char *event, uint64_t window_before,
		   enum uet_cc_reason reason_before);
void nic_complete(struct uet_nic *nic, enum uet_ses_completion_kind kind,
		  struct nic_pdc *pdc);
void nic_stats_start(struct uet_nic *nic);
void nic_stats_event(struct uet_evq *q, struct uet_event *ev, void *arg);
void nic_stats_fill(const struct uet_nic *nic, struct uet_nic_stats *out);

/** Current virtual time of the NIC. */
static inline uet_time_t nic_now(const struct uet_nic *nic)
{
	return uet_evq_now(&nic->comp.evq);
}

/** Count an in-flight decrease, never below zero (an anomaly instead). */
static inline void nic_in_flight_sub(struct uet_nic *nic, struct nic_group *g,
				     uint64_t bytes)
{
	if (bytes > g->in_flight_bytes) {
		nic->st.in_flight_anomalies++;
		g->in_flight_bytes = 0;
		return;
	}
	g->in_flight_bytes -= bytes;
}

#endif /* NIC_PRIVATE_H */
