/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inside the fabric: the frame FIFO, the switch port (arrivals, output
 * queue, serializer), the routing table and the fabric that holds them.
 */
#ifndef FABRIC_PRIVATE_H
#define FABRIC_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_event.h"
#include "uet_fabric.h"
#include "uet_rng.h"
#include "uet_wire_pfc.h"
#include "uet_xring.h"

/* One frame held by the fabric. */
struct fabric_entry {
	struct rte_mbuf *m;  /* the frame, owned by the fabric */
	uet_time_t time_ps;  /* ps: arrival time (arriving) or the time it
			      * joined the output queue (queue) */
	uint32_t wire_bytes; /* frame + FCS, trailer excluded; 0 until the
			      * frame is received */
	uint32_t ingress;    /* queued: the port it was received on, for
			      * PFC's ingress accounting; FABRIC_NO_PORT
			      * for the switch's own pause frames */
};

/* A time-weighted sum of bytes: bytes x ps overflows 64 bits in a long
 * run (1 GiB for 5 hours of virtual time). */
__extension__ typedef unsigned __int128 fabric_area_t;

/* fabric_port.out_slot of a port whose far end is in its own part (or a
 * host). */
#define FABRIC_PART_SAME UINT16_MAX

/* No port: the ingress of a frame the switch made itself. */
#define FABRIC_NO_PORT UINT32_MAX

/* Most ports of a fabric: a port's peer is an int32_t (-1: a host). The
 * hosts are the address plan's (UET_HOST_MAX_COUNT); the links between
 * switches are what the shape has. */
#define FABRIC_PORTS_MAX INT32_MAX

/* tx_tc of a port sending one of its own pause frames. */
#define FABRIC_TX_PFC UET_FABRIC_TCS

/* Events a port may have pending at once (arrival, serialization end,
 * PFC): the fabric reserves them up front so scheduling never allocates. */
#define FABRIC_EVENTS_PER_PORT 3

/*
 * A first-in first-out ring of entries. It grows by doubling, so it
 * allocates only when it reaches a new high-water mark, never per frame.
 */
struct fabric_fifo {
	struct fabric_entry *slots; /* cap slots */
	uint32_t head;		    /* index of the oldest entry */
	uint32_t len;		    /* entries held */
	uint32_t cap;		    /* slots allocated, a power of two */
};

/* Slots a ring takes when its first entry comes (fabric_fifo_init with
 * cap 0). */
#define FABRIC_FIFO_FIRST_SLOTS 16u

/* cap slots (a power of two), or 0: none until the first push, for the
 * rings most ports never use (a traffic class no frame takes), whose
 * memory would be faulted in at set-up for nothing. 0 or -EINVAL or
 * -ENOMEM. */
int fabric_fifo_init(struct fabric_fifo *f, uint32_t cap);
/* Free the ring and every frame still in it. */
void fabric_fifo_fini(struct fabric_fifo *f);
/* fabric_fifo_push() on a full (or never used) ring: grow it, then
 * append. */
int fabric_fifo_grow_push(struct fabric_fifo *f, const struct fabric_entry *e);

/*
 * Append; 0 or -ENOMEM (the ring is unchanged then). Inline: every frame
 * goes through two rings a hop. Field by field: a struct copy of the
 * caller's entry, just stored field by field, was one 16-byte load that
 * the store buffer cannot forward, so it waited for every store before it
 * to reach the cache (2-3% of the 1,024-host run on that one load).
 */
static inline int fabric_fifo_push(struct fabric_fifo *f,
				   const struct fabric_entry *e)
{
	struct fabric_entry *s;

	if (f->len == f->cap)
		return fabric_fifo_grow_push(f, e);
	s = &f->slots[(f->head + f->len) & (f->cap - 1)];
	s->m = e->m;
	s->time_ps = e->time_ps;
	s->wire_bytes = e->wire_bytes;
	s->ingress = e->ingress;
	f->len++;
	return 0;
}

/* Remove the oldest entry into *e; the ring must not be empty. */
static inline void fabric_fifo_pop(struct fabric_fifo *f,
				   struct fabric_entry *e)
{
	*e = f->slots[f->head];
	f->head = (f->head + 1) & (f->cap - 1);
	/* Emptied: the next frame takes slot 0 again, a line still in the
	 * cache, rather than the next one of a ring that would otherwise
	 * cycle all its slots through the cache (fabric_fifo_drop_head
	 * too). */
	if (--f->len == 0)
		f->head = 0;
}

/* Remove the oldest entry, unread (its copy is elsewhere); the ring must
 * not be empty. */
static inline void fabric_fifo_drop_head(struct fabric_fifo *f)
{
	f->head = (f->head + 1) & (f->cap - 1);
	if (--f->len == 0)
		f->head = 0;
}

static inline bool fabric_fifo_empty(const struct fabric_fifo *f)
{
	return f->len == 0;
}

/* The oldest entry; the ring must not be empty. */
static inline const struct fabric_entry *
fabric_fifo_head(const struct fabric_fifo *f)
{
	return &f->slots[f->head];
}

/* The newest entry; the ring must not be empty. */
static inline const struct fabric_entry *
fabric_fifo_tail(const struct fabric_fifo *f)
{
	return &f->slots[(f->head + f->len - 1) & (f->cap - 1)];
}

/*
 * PFC at one port (fabric_pfc.c). As an ingress it counts, per lossless
 * class, the bytes received here that the switch still holds, and pauses
 * the far end; as an egress it honours the far end's pauses. A port
 * without PFC (most, and every port of a run without it) points at
 * fabric_pfc_idle; its own comes with the first pause it keeps.
 */
struct fabric_pfc_port {
	uint8_t xoff; /* classes this port has paused upstream */
	/* When the XOFF of class c is sent again (while xoff has c). */
	uet_time_t refresh_ps[UET_FABRIC_TCS];
	/* Egress: class c starts no frame before this time. */
	uet_time_t paused_until_ps[UET_FABRIC_TCS];
	/* Egress: start of class c's current (or last) pause; with
	 * paused_until_ps the interval not yet in tc[c].paused_ps. */
	uet_time_t paused_since_ps[UET_FABRIC_TCS];
	struct fabric_fifo ctrl;  /* the port's own pause frames, sent before
				   * any class and never paused */
	struct uet_event ev;	  /* next pause expiry or XOFF refresh */
	struct fabric_port *port; /* its port */
	/* Class c's counters of uet_fabric_tc_stats that are PFC's. */
	uint64_t paused_ps[UET_FABRIC_TCS];
	uint64_t ingress_bytes[UET_FABRIC_TCS];
	uint64_t peak_ingress_bytes[UET_FABRIC_TCS];
};

/*
 * Partitions (fabric_part.c): the switches are split into parts that run
 * a window side by side, each with its own events and random draws. A
 * frame for a port of another part (over a link between switches, whose
 * delay is at least the lookahead) waits in an rte_ring (lib/xring) until
 * that part's next window; frames from the NICs wait in the ring of the
 * part holding their host port. A part takes its rings sorted by
 * (arrival, port, order on the port), as lib/sync hands frames to a
 * component.
 */

/* A frame whose next hop a part fetches ahead (fabric_part.c). */
struct fabric_route_pf {
	uet_time_t time_ps; /* its arrival */
	struct rte_mbuf *m;
	const struct fabric_port *out; /* its next hop's port, or NULL */
	uint32_t sw;		       /* the switch it arrives at */
	int32_t host; /* its destination, or a negative errno */
	uint8_t tc;   /* the class it joins at out */
};

/* One occupancy sample kept by a part until the window ends. */
struct fabric_occ_row {
	uet_time_t time_ps;
	uint32_t rank; /* the port's place in the chosen list */
	uint32_t port;
	struct uet_fabric_port_stats stats;
};

/* A host port whose frames its part takes from the NIC's own ring
 * (uet_component_parts.port_feed). */
struct fabric_feed {
	struct uet_xring *rings; /* [2]: filled in window w & 1, taken in
				  * w + 1 */
	uint32_t port;
};

struct fabric_part {
	struct uet_fabric *fab;
	uint32_t index;
	struct uet_evq evq;	      /* this part's events */
	struct uet_rng rng;	      /* random drops of frames it receives */
	struct uet_rng ecn_rng;	      /* its ECN marks */
	struct rte_mempool *pfc_pool; /* its pause frames: the pool of a
				       * frame it received */
	int error;		      /* first failure, sticky */
	uint32_t n_ports;	      /* ports of its switches */
	uint32_t *port_ids;	      /* their indices in fab->ports */
	uet_time_t window_end_ps;     /* of the window it is running */
	struct uet_xring nic_in;      /* from the NICs, for this window */
	uet_time_t nic_in_min_ps;     /* earliest arrival in nic_in */
	struct fabric_feed *feeds;    /* its host ports fed from rings */
	uint32_t n_feeds;
	/* To the n_out parts its links reach: out[w & 1][i], w the window
	 * being run, for the part of its ports' out_slot i; read (and
	 * emptied) by that part in window w + 1. */
	struct uet_xring *out[2];
	uint32_t n_out;
	uet_time_t out_min_ps[2]; /* earliest arrival in out[x] */
	/* From the n_in parts whose links reach it, by their index: in[x *
	 * n_in + i] is their out[x] ring to this part. */
	struct uet_xring **in;
	uint32_t n_in;
	/* The window's arrivals, for the prefetch
	 * (fabric_part_run_slices): as the ports hold them, then by time
	 * slice; the slices' starts. */
	struct fabric_route_pf *pf;
	struct fabric_route_pf *pf_sorted;
	uint32_t cap_pf;
	uint32_t *pf_slice;
	uint32_t cap_pf_slice;
	struct uet_xframe *merge;     /* the window's frames, sorted */
	struct uet_xframe *merge_tmp; /* the sort's scratch */
	uint32_t cap_merge;	      /* frames both hold */
	/* Occupancy samples of its chosen ports (fabric_occ.c); the next
	 * is never due (UINT64_MAX) when no port is chosen. */
	uet_time_t occ_next_ps;
	struct fabric_occ_row *occ;
	uint32_t n_occ, cap_occ;
	/* Lines of its own: parts run on different lcores at once, and
	 * two sharing a line (the event queue's head is in the first)
	 * would move it between the cores at every event. */
} __attribute__((aligned(64)));

/*
 * One traffic class queue of a port and what a frame joining or leaving
 * it changes: the ring, the queued bytes and their time integral in the
 * first cache line, the class's counters in the second. (The PFC
 * counters of a class are in the port's fabric_pfc_port.) A class no
 * frame has been offered to is fabric_tcq_idle, shared and only read: a
 * run uses two or three classes of most ports, and none of an idle port.
 */
struct fabric_tcq {
	struct fabric_fifo fifo;
	uet_time_t occ_since_ps;   /* time of the last change of queue_bytes */
	fabric_area_t occ_area;	   /* queue bytes x ps so far */
	uint64_t queue_bytes;	   /* as uet_fabric_tc_stats */
	uint64_t peak_queue_bytes; /* as uet_fabric_tc_stats */
	uint64_t enq_frames;	   /* as uet_fabric_tc_stats, and below */
	uint64_t enq_bytes;
	uint64_t drop_frames;
	uint64_t drop_bytes;
	uint64_t trim_frames;
	uint64_t ecn_frames;
} __attribute__((aligned(64)));

/* backlog bit of the port's own pause frames (after the classes'). */
#define FABRIC_BACKLOG_PFC (1u << UET_FABRIC_TCS)

/*
 * The counters of a port that few frames change (drops, trims, marks,
 * PFC) and its PFC state: fabric_cold_idle, shared and only read, until
 * the port first counts one (fabric_port_cold()).
 */
struct fabric_port_cold {
	uint64_t drop_full_frames; /* as uet_fabric_port_stats */
	uint64_t drop_full_bytes;
	uint64_t drop_random_frames;
	uint64_t drop_random_bytes;
	uint64_t drop_route_frames;
	uint64_t drop_route_bytes;
	uint64_t drop_control_frames;
	uint64_t drop_source_frames;
	uint64_t drop_lost_frames;
	/* external_lost_copies: the packet lost, once the port has seen
	 * its first data packet (fabric_lost.c). */
	bool lost_chosen;
	uint16_t lost_pdc;
	uint32_t lost_psn;
	uint64_t trim_frames;
	uint64_t drop_trim_frames;
	uint64_t ecn_frames;
	uint64_t pfc_tx_xoff_frames;
	uint64_t pfc_tx_xon_frames;
	uint64_t pfc_rx_xoff_frames;
	uint64_t pfc_rx_xon_frames;
	uint64_t pfc_headroom_drop_frames;
	struct fabric_pfc_port *pfc; /* fabric_pfc_idle until it pauses or
				      * counts a lossless class */
};

/* What an idle port points at: zeroed state, never written, so that
 * readers need no test (fabric_port.c). */
extern struct fabric_tcq fabric_tcq_idle;
extern struct fabric_port_cold fabric_cold_idle;
extern struct fabric_pfc_port fabric_pfc_idle;

/*
 * A switch port: the link from its host ends here (frames arriving), and
 * its class queues, scheduler and serializer feed the link to the host.
 *
 * Laid out for a fabric of hundreds of thousands of ports, whose state is
 * far larger than a CPU's cache, and most of which may be idle: what
 * every frame through the port reads or writes is in six cache lines,
 * the serializer's and the receiver's each in one; a class queue, the
 * seldom counters and PFC are allocated when first used. An idle port is
 * these 384 bytes; names and nominal limits are worked out from the shape
 * when asked (fabric_topo.c, fabric_port_nominal_limits()).
 */
struct fabric_port {
	/* Every frame. */
	struct fabric_part *part;      /* the part its switch is in */
	uint64_t rate_bps;	       /* the link's rate */
	uet_time_t delay_ps;	       /* the link's one-way delay */
	uet_time_t delivered_ps;       /* host port: latest arrival given by
					* the wiring (a link is FIFO) */
	int32_t peer;		       /* the port at the far end, -1: a host */
	uint32_t id;		       /* index in fab->ports; host i's is i */
	uint32_t sw;		       /* index of its switch */
	uint16_t backlog;	       /* bit c: class c's queue holds a frame;
					* FABRIC_BACKLOG_PFC: a pause frame */
	uint8_t tx_tc;		       /* class of the frame on the wire */
	uint8_t wrr_tc;		       /* WRR: the class whose turn it is */
	uint16_t wrr_sent;	       /* WRR: frames it sent in this turn */
	bool faces_nic;		       /* the link's far end is a NIC: trims
					* here are trimmed on the last hop */
	bool external;		       /* it faces an external host, which
					* sends from its own address only */
	uint16_t out_slot;	       /* peer >= 0 in another part: its part's
					* out[][out_slot] ring leads there, found
					* without reading the far port (a line it
					* rarely needs); FABRIC_PART_SAME else */
	struct fabric_port_cold *cold; /* fabric_cold_idle until used */
	/* The serializer: the head of tcq[tx_tc] is on the wire while
	 * tx_end_ev is pending; tx_m, tx_cq, tx_wire_bytes and tx_ingress
	 * copy that head and its queue as it starts, so that its end finds
	 * them in the lines it reads anyway (the event's, the counters'),
	 * not in the port's queue pointers and the ring's slot (two cache
	 * misses a frame on a large fabric: docs/performance.md). */
	struct uet_event tx_end_ev;
	struct rte_mbuf *tx_m;
	struct fabric_tcq *tx_cq;
	/* Receiving. */
	struct uet_event arrival_ev; /* at the head's arrival time */
	uint64_t rx_frames;	     /* as uet_fabric_port_stats */
	uint64_t rx_bytes;
	struct fabric_fifo arriving; /* delivered, not yet fully received;
				      * in arrival order; slots from the
				      * first frame */
	/* Its class queues (their counters are the port's tc[] stats), in
	 * a line of their own: a port's receiving side never reads them. */
	struct fabric_tcq *tcq[UET_FABRIC_TCS] __attribute__((aligned(64)));
	/* Sending: one line with what a frame joining the port's queues,
	 * or leaving them, reads and updates. */
	uint64_t queue_bytes; /* as uet_fabric_port_stats */
	uint64_t peak_queue_bytes;
	uint64_t tx_frames; /* as uet_fabric_port_stats */
	uint64_t tx_bytes;
	uint32_t tx_wire_bytes; /* of tx_m */
	uint32_t tx_ingress;	/* of tx_m */
	/* Class queue limit as applied: scaled with the rate of a degraded
	 * link (fabric_link.c). */
	uint64_t limit_bytes;
	/* ECN thresholds as applied, like limit_bytes. */
	uint64_t ecn_kmin_applied;
	uint64_t ecn_kmax_applied;
} __attribute__((aligned(64)));

/* The fabric a port belongs to. */
static inline struct uet_fabric *fabric_port_fab(const struct fabric_port *p);

/* Port p's class queue tc, to change: its own, allocated (and the ring
 * empty) when first used; NULL, with the part failed (-ENOMEM), if that
 * allocation fails. */
static inline struct fabric_tcq *fabric_port_tcq(struct fabric_port *p,
						 unsigned int tc);
/* Port p's seldom counters and PFC state, to change: allocated when first
 * used; NULL, with the part failed (-ENOMEM), if that fails. */
static inline struct fabric_port_cold *fabric_port_cold(struct fabric_port *p);
/* Out of line: allocate what the two above hand out. */
struct fabric_tcq *fabric_port_tcq_alloc(struct fabric_port *p,
					 unsigned int tc);
struct fabric_port_cold *fabric_port_cold_alloc(struct fabric_port *p);

/* Whether frame m, received at external port in, is one of the copies
 * the switch loses (switch.external_lost_copies; counted). */
bool fabric_lost(struct fabric_port *in, const struct rte_mbuf *m,
		 uint32_t copies);

/* The class queue limit and ECN thresholds of a port whose link runs at
 * rate_bps at its nominal rate, bytes: the configuration's, or by rate. */
void fabric_port_nominal_limits(const struct uet_fabric_conf *c,
				uint64_t rate_bps, uint64_t *limit_bytes,
				uint64_t *ecn_kmin_bytes,
				uint64_t *ecn_kmax_bytes);

/* The counters of port p, its classes' included. */
void fabric_port_stats(const struct fabric_port *p,
		       struct uet_fabric_port_stats *out);

/* Set up rings and events; the link fields are the topology's. */
int fabric_port_init(struct fabric_port *p, struct uet_fabric *fab,
		     uint32_t id);
void fabric_port_fini(struct fabric_port *p);
/* Hold a frame until its arrival time; the frame is freed on error. */
int fabric_port_arrive(struct fabric_port *p, struct rte_mbuf *m,
		       uet_time_t arrival_ps);
/* fabric_port_arrive() in two steps: hold the frame (1: the port had
 * nothing arriving, so its arrival event waits for the second step; 0; or
 * a negative errno, the frame freed), then schedule the event. */
int fabric_port_arrive_hold(struct fabric_port *p, struct rte_mbuf *m,
			    uet_time_t arrival_ps);
int fabric_port_arrive_schedule(struct fabric_port *p);
/*
 * Egress admission of a received frame with codepoint dscp: it joins its
 * class queue if it fits, else it is trimmed into TC1 (trimming on, a
 * trimmable codepoint) or dropped and counted. 0, or -ENOMEM if a queue
 * could not grow (the frame is freed then).
 */
int fabric_port_enqueue(struct fabric_port *p, struct rte_mbuf *m,
			uint32_t wire_bytes, uint8_t dscp, uint32_t ingress);
/* Append an admitted frame to class tc and start the wire if idle. */
int fabric_port_join(struct fabric_port *p, unsigned int tc, struct rte_mbuf *m,
		     uint32_t wire_bytes, uint32_t ingress);
/* Start the wire if it is idle and a frame may go. */
void fabric_port_kick(struct fabric_port *p);
/* Retire the frame on the wire if its serialization ends exactly now, so
 * that at one instant a departure comes before an arrival. */
void fabric_port_settle_now(struct fabric_port *p);

/* The class a port sends next (a non-empty queue), or -1 if all are
 * empty; under WRR it also charges the frame to the class's turn. */
int fabric_sched_pick(struct fabric_port *p);

/*
 * ECN: CE-mark frame m if it is ECT and its class queue at port p holds
 * occupancy_bytes (not counting m): never below kmin, always at or above
 * kmax (both as p applies them), with a linearly rising probability
 * between. Returns true if m was marked.
 */
bool fabric_ecn_mark(struct fabric_port *p, struct rte_mbuf *m,
		     uint64_t occupancy_bytes);

/* fabric_pfc.c: 802.1Qbb priority flow control. */
void fabric_pfc_fini(struct fabric_port *p);
static inline bool fabric_pfc_lossless(const struct uet_fabric_conf *conf,
				       unsigned int tc)
{
	return tc < UET_FABRIC_TCS && (conf->pfc_classes >> tc & 1u);
}
/* Whether a lossless frame received on port in fits its headroom. */
bool fabric_pfc_admit(const struct fabric_port *in, unsigned int tc,
		      uint32_t wire_bytes);
/* A lossless frame received on port in joined (add) or left (sub) the
 * switch: count it there, and send XOFF or XON out of in. */
void fabric_pfc_ingress_add(struct fabric_port *in, unsigned int tc,
			    uint32_t wire_bytes);
void fabric_pfc_ingress_sub(struct fabric_port *in, unsigned int tc,
			    uint32_t wire_bytes);
/* A PFC frame received on port in: its pauses now apply to in's
 * egress. */
void fabric_pfc_receive(struct fabric_port *in, const struct uet_pfc *pfc);
/* Whether class tc of egress port p is paused now. */
bool fabric_pfc_paused(const struct fabric_port *p, unsigned int tc);
/* ps class tc of egress port p has been paused, the running pause
 * included up to now. */
uint64_t fabric_pfc_paused_ps(const struct fabric_port *p, unsigned int tc);

/* One route: a destination address and the host that has it. */
struct fabric_route {
	uint32_t ipv4; /* host order */
	uint32_t host;
};

/* Destination IPv4 to host, sorted by address for a binary search. */
struct fabric_routes {
	struct fabric_route *routes;
	uint32_t count;
};

int fabric_routes_init(struct fabric_routes *r, uint32_t hosts);
void fabric_routes_fini(struct fabric_routes *r);
/* The host with an address, or -ENOENT. */
int fabric_routes_lookup(const struct fabric_routes *r, uint32_t ipv4);
/* uet_fabric_next_port() for a destination already looked up: host, or
 * a negative errno passed through. */
int fabric_next_port_to(const struct uet_fabric *fab, uint32_t sw, int host,
			const struct uet_fabric_flow *flow);

/* The next hops of a switch towards one host: count ports from first,
 * consecutive; several are equal-cost and the flow hash picks one. */
struct fabric_hop {
	uint32_t first;
	uint32_t count;
};

/* A division by a constant d as a multiplication: n / d is
 * (n x recip) >> FABRIC_DIV_SHIFT, recip = 2^FABRIC_DIV_SHIFT / d + 1,
 * exact whenever n x d < 2^FABRIC_DIV_SHIFT (a host offset and a host
 * count, both under 2^17, are far from it). */
#define FABRIC_DIV_SHIFT 40

static inline uint64_t fabric_div_recip(uint32_t d)
{
	return (UINT64_C(1) << FABRIC_DIV_SHIFT) / d + 1u;
}

static inline uint32_t fabric_div(uint32_t n, uint64_t recip)
{
	return (uint32_t)(((uint64_t)n * recip) >> FABRIC_DIV_SHIFT);
}

/*
 * One switch of the fabric, and its routes as numbers of its shape
 * (fabric_topo.c): the hosts below it, host_lo to host_lo + host_span - 1,
 * are reached down one port, down_first + (host - host_lo) / (hosts per
 * downlink); every other host over its up_count uplinks from up_first, all
 * of equal cost (up-down routing, shortest paths only). So a route costs
 * a subtraction, a compare and a multiplication, and no memory per (switch,
 * host): a table of next hops took switches x hosts x 8 bytes, 1.3 GB at
 * k = 32.
 */
struct fabric_switch {
	uint32_t host_lo;    /* first host below it */
	uint32_t host_span;  /* hosts below it, consecutive */
	uint32_t down_first; /* the downlink towards host_lo */
	uint32_t up_first;   /* its first uplink */
	uint32_t up_count;   /* its uplinks, consecutive; 0 at the top */
	uint32_t part;	     /* its partition */
	uint64_t down_recip; /* fabric_div_recip(hosts per downlink) */
	uint64_t salt;	     /* of its flow hash */
	char name[16];	     /* "switch", "leaf2", "tor0", "core3" */
};

/* Whether host is below switch s: reached over a downlink. */
static inline bool fabric_switch_below(const struct fabric_switch *s,
				       uint32_t host)
{
	/* Hosts before host_lo wrap to far above the span. */
	return host - s->host_lo < s->host_span;
}

/* The next hops of switch s towards host (below UET_HOST_MAX_COUNT). */
static inline struct fabric_hop fabric_switch_hop(const struct fabric_switch *s,
						  uint32_t host)
{
	struct fabric_hop hop;

	if (fabric_switch_below(s, host)) {
		hop.first = s->down_first +
			    fabric_div(host - s->host_lo, s->down_recip);
		hop.count = 1;
	} else {
		hop.first = s->up_first;
		hop.count = s->up_count;
	}
	return hop;
}

/*
 * Build the shape of fab->conf: fab->switches, fab->ports (link fields
 * only) and their counts. 0, -EINVAL (a bad shape), -ENOMEM.
 */
int fabric_topo_build(struct uet_fabric *fab);
void fabric_topo_free(struct uet_fabric *fab);
/* The name of the link port ends ("host5", "leaf2-spine1", "tor0-agg1",
 * "agg3-core2"), made from the shape, into buf (cut to len). */
void fabric_topo_link_name(const struct uet_fabric *fab, uint32_t port,
			   char *buf, size_t len);
/* The port at the lower-tier end of the link of that name, or -ENOENT:
 * read from the shape, one spelling per link. */
int fabric_topo_link_find(const struct uet_fabric *fab, const char *name);
/* The same, from the configuration alone (no fabric built). */
int fabric_topo_conf_link_find(const struct uet_fabric_conf *c,
			       const char *name);
/* The lower-tier port of the link a port name (uet_fabric_port_find())
 * names, from the configuration alone; -ENOENT for no such port. */
int fabric_topo_conf_port_find(const struct uet_fabric_conf *c,
			       const char *name);

/*
 * Link failures and occupancy (fabric_link.c, fabric_occ.c): state kept
 * beside the ports so that the port code needs only the two hooks below.
 */

/* The failure state of one port whose link failed (the others run at
 * their nominal rate and lose nothing). */
struct fabric_link {
	uint32_t port;
	uint64_t nominal_rate_bps; /* the topology's rate of the link */
	/* ppm of its nominal rate the link runs at; the port's queue limit
	 * and ECN thresholds shrink with it (fabric_link_scaled_bytes) */
	uint32_t rate_ppm;
	bool down;				   /* the link is down */
	uint64_t down_drop_frames[UET_FABRIC_TCS]; /* lost to the down link */
	uint64_t down_drop_bytes[UET_FABRIC_TCS];  /* their wire bytes */
};

/* A scheduled failure: its event and what it does. */
/* A scheduled failure, applied at the start of the window that begins at
 * its time (windows end at failure times, so one does). */
struct fabric_failure {
	struct uet_fabric_failure f;
	bool applied;
};

struct fabric_links {
	/* The ports whose link failed: both ends of each failure's. */
	struct fabric_link failed[2 * UET_FABRIC_FAILURES_MAX];
	uint32_t n_failed;
	struct fabric_failure failures[UET_FABRIC_FAILURES_MAX];
	uint32_t n_failures;
	bool any_down; /* some link is down: routing looks at reach */
	/* Bit i: port i's link is down; NULL until a link goes down. */
	uint64_t *down_bits;
	/* Fat tree, reroute: up_reach[a * k + p] is 1 when aggregation
	 * switch a has an uplink that is up to a core whose downlink to pod
	 * p is up (fabric_link.c); NULL until a link goes down. */
	uint8_t *up_reach;
	/* The occupancy time series: chosen ports, period, next sample. */
	uint32_t *occ_ports;
	uint32_t n_occ_ports;
	uet_time_t occ_interval_ps;
	uet_fabric_occupancy_fn occ_fn;
	void *occ_ctx;
} __attribute__((aligned(64)));

/* Allocate fab->links once the topology is built; free it. */
int fabric_links_init(struct uet_fabric *fab);
void fabric_links_fini(struct uet_fabric *fab);
/* The failure state of port, or NULL: its link never failed. */
const struct fabric_link *fabric_link_of(const struct uet_fabric *fab,
					 uint32_t port);
/*
 * Port p's queue limit and ECN thresholds as it applies them: the nominal
 * ones scaled by the fraction of its rate a degradation left it (rounded
 * down), so that they stand for the same queueing time.
 */
void fabric_link_apply_limits(struct fabric_port *p);
/*
 * Call before class tc's queue_bytes of port p changes: the occupancy
 * integral and the samples due before now.
 */
void fabric_occ_change(struct fabric_port *p, unsigned int tc);
/*
 * A frame received over port p's link, or routed to it, while that link
 * is down is lost: count it on p and free it. Returns true if so.
 */
bool fabric_link_drop(struct uet_fabric *fab, struct fabric_port *p,
		      struct rte_mbuf *m, uint32_t wire_bytes, uint8_t dscp);
/*
 * Reroute: with some link down, the port among hop's equal-cost ones
 * that a frame for host takes, given the one the hash picked; hash is the
 * flow hash, whose low half spreads the rerouted flows.
 */
uint32_t fabric_link_reroute(const struct uet_fabric *fab,
			     struct fabric_hop hop, uint32_t host,
			     uint32_t picked, uint64_t hash);

/* A port's counters as another process gave them. */
struct fabric_port_given {
	bool set;
	struct uet_fabric_port_stats stats;
	struct uet_fabric_tc_record tc[UET_FABRIC_TCS];
};

struct uet_fabric {
	struct uet_component comp; /* first: a component pointer is a fabric */
	struct uet_fabric_conf conf;
	struct fabric_routes routes;
	struct fabric_switch *switches;
	uint32_t n_switches;
	uint32_t n_ports; /* hosts first, then links between switches */
	uet_fabric_capture_fn capture;
	void *capture_ctx;
	int error; /* the first failure outside a part, sticky */
	/* Per port, NULL until one is given: the counters of a port another
	 * process ran (uet_fabric_port_give(), over ranks). */
	struct fabric_port_given *given;
	struct fabric_port *ports; /* n_ports ports */
	struct fabric_part *parts; /* n_parts partitions */
	uint32_t n_parts;
	uint32_t *part_weight;	    /* work per part (ports, a host's port
				     * weighing more), for sharing among
				     * lcores */
	uint64_t window;	    /* windows run so far */
	uet_time_t lookahead_ps;    /* least delay of a link between parts */
	struct fabric_links *links; /* failures and occupancy */
};

static inline struct uet_fabric *fabric_port_fab(const struct fabric_port *p)
{
	return p->part->fab;
}

static inline struct fabric_tcq *fabric_port_tcq(struct fabric_port *p,
						 unsigned int tc)
{
	struct fabric_tcq *cq = p->tcq[tc];

	return cq != &fabric_tcq_idle ? cq : fabric_port_tcq_alloc(p, tc);
}

static inline struct fabric_port_cold *fabric_port_cold(struct fabric_port *p)
{
	return p->cold != &fabric_cold_idle ? p->cold
					    : fabric_port_cold_alloc(p);
}

/* The events of port p's part, and its time now. */
static inline struct uet_evq *fabric_port_evq(const struct fabric_port *p)
{
	return &p->part->evq;
}

static inline uet_time_t fabric_port_now(const struct fabric_port *p)
{
	return uet_evq_now(&p->part->evq);
}

/* Record a part's first internal failure; read after the window. */
static inline void fabric_part_fail(struct fabric_part *pt, int err)
{
	if (pt->error == 0)
		pt->error = err;
}

/* fabric_part.c: split the switches into parts (after the topology is
 * built), set them up and free them. */
int fabric_parts_init(struct uet_fabric *fab);
void fabric_parts_fini(struct uet_fabric *fab);
/* fabric_part_take.c: a frame leaves port p for its peer port, a link
 * delay later: now if the peer is in the same part, else through the
 * rings between parts. */
int fabric_part_send(struct fabric_port *p, struct rte_mbuf *m,
		     uet_time_t arrival_ps);
/* Frames from a NIC for host port port, taken by its part's window. */
int fabric_part_deliver(struct uet_fabric *fab, uint32_t port,
			struct rte_mbuf *m, uet_time_t arrival_ps);
/* At a window's start: what the window brought part pt (the NICs' frames
 * and those the other parts sent it in the previous one), on its ports'
 * arriving rings. */
int fabric_part_take(struct fabric_part *pt);
/* fabric_part_prefetch.c: fetch what the frames arriving in part pt
 * before end_ps will touch (hints only). */
int64_t fabric_part_run_slices(struct fabric_part *pt, uet_time_t end_ps);
/* fabric_link.c: the failures due at or before t, applied (serial, at a
 * window's start); the earliest one after t. */
int fabric_links_apply(struct uet_fabric *fab, uet_time_t t);
uet_time_t fabric_links_next_ps(const struct uet_fabric *fab, uet_time_t t);
/* fabric_occ.c: a part's samples due before t; the window's samples of
 * every part to the callback in (time, list) order. */
void fabric_occ_part_sample_before(struct fabric_part *pt, uet_time_t t);
void fabric_occ_emit(struct uet_fabric *fab);

/* The switch's work on a frame fully received on port in at now. */
void fabric_receive(struct uet_fabric *fab, struct fabric_port *in,
		    struct rte_mbuf *m);

#endif /* FABRIC_PRIVATE_H */
