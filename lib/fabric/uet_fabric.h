/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The fabric: one store-and-forward switch with one port per host (port i
 * faces host i), or the switches of a leaf-spine or a fat tree linked
 * inside the component, routing by IPv4 destination with a per-switch
 * hash of the 5-tuple between equal-cost next hops, per egress port eight
 * traffic class queues with byte limits, trimming, ECN marking and
 * scheduling between the classes, a serializer per port, and an optional
 * seeded random drop.
 * It is a model component (uet_component.h): frames come in through
 * deliver() and go out through the wiring's out(); it never touches a port.
 * See docs/fabric.md.
 */
#ifndef UET_FABRIC_H
#define UET_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_component.h"
#include "uet_host_addr.h"
#include "uet_time.h"
#include "uet_wire_dscp.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_mbuf;

/** The fabric; opaque. Its first member is its struct uet_component. */
struct uet_fabric;

/**
 * The switch's stream of the scenario seed (uet_rng_seed()): "SWITCH" in
 * ASCII, far from the NICs' streams, which are their host indexes.
 */
#define UET_FABRIC_RNG_STREAM UINT64_C(0x535749544348)

/**
 * The switch's stream of the scenario seed for ECN marking: "ECN" in ASCII,
 * apart from the random drop's so that marking never shifts those draws.
 */
#define UET_FABRIC_ECN_RNG_STREAM UINT64_C(0x45434e)

/** Traffic classes of a switch port (lib/wire's uet_dscp_class()). */
#define UET_FABRIC_TCS UET_TC_COUNT

/** How a port picks the traffic class it sends next. */
enum uet_fabric_sched {
	UET_FABRIC_SCHED_STRICT = 0, /**< the highest class with a frame */
	UET_FABRIC_SCHED_WRR = 1,    /**< weighted round robin, in frames */
};

/**
 * The salt of switch sw comes from this stream of the seed plus sw: "SALT"
 * in ASCII, far from the other streams.
 */
#define UET_FABRIC_SALT_RNG_STREAM UINT64_C(0x53414c5400000000)

/** The shape of the fabric (docs/fabric.md, "Topologies"). */
enum uet_fabric_topo {
	UET_FABRIC_TOPO_SINGLE = 0,	/**< one switch, port i faces host i */
	UET_FABRIC_TOPO_LEAF_SPINE = 1, /**< leaves under spines, two tiers */
	UET_FABRIC_TOPO_FAT_TREE = 2,	/**< k-ary fat tree, three tiers */
};

/** What the fabric is built from. Zero means off for every option. */
struct uet_fabric_conf {
	enum uet_fabric_topo topo; /**< the shape; 0: one switch */
	/** hosts, 1..UET_HOST_MAX_COUNT (the address plan); for leaf-spine
	 * leaves * hosts_per_leaf, for a fat tree k^3 / 4, else creation
	 * fails */
	uint32_t hosts;
	uint32_t leaves;	  /**< leaf-spine: leaf switches */
	uint32_t spines;	  /**< leaf-spine: spine switches */
	uint32_t hosts_per_leaf;  /**< leaf-spine: hosts under each leaf */
	uint32_t k;		  /**< fat tree: ports per switch, even */
	uint64_t link_rate_bps;	  /**< switch-to-host links, bps, > 0 */
	uet_time_t link_delay_ps; /**< ps, switch to host, one way */
	/** Leaf-spine or rack-to-aggregation links, bps; 0: link_rate */
	uint64_t tier1_rate_bps;
	uet_time_t tier1_delay_ps;  /**< their delay, ps, one way */
	uint64_t tier2_rate_bps;    /**< aggregation-to-core, bps; 0: link */
	uet_time_t tier2_delay_ps;  /**< their delay, ps, one way */
	uint64_t queue_limit_bytes; /**< wire bytes each output queue holds */
	uint32_t drop_rate_ppm;	    /**< random drop of arriving frames, ppm */
	uint64_t seed;		    /**< the scenario's seed */
	/** UETPolicyEnabled: the class from the codepoint's role, and 1.5
	 * times the limit for trimmable retransmissions; else DSCP / 8. */
	bool uet_policy;
	/** Codepoint of each role (the NICs'); read under the UET policy and
	 * when trimming. */
	struct uet_dscp_map dscp;
	/** Trim trimmable packets that cannot be queued (needs uet_policy). */
	bool trimming;
	enum uet_fabric_sched sched; /**< between the classes of a port */
	/** Frames a class sends per WRR turn; 0 is taken as 1. */
	uint8_t wrr_weight[UET_FABRIC_TCS];
	bool ecn;		 /**< CE-mark ECT frames on occupancy */
	bool ecn_at_dequeue;	 /**< mark when a frame leaves, not joins */
	uint64_t ecn_kmin_bytes; /**< class queue bytes: no mark below */
	uint64_t ecn_kmax_bytes; /**< class queue bytes: always above */
	/** Limits by port rate (switch.queue_limit auto): each port's class
	 * queues hold this time of traffic at its link's nominal rate, ps;
	 * 0: queue_limit_bytes on every port. */
	uet_time_t queue_time_ps;
	/** ECNKmin auto: each port marks from this ppm of its own limit;
	 * 0: ecn_kmin_bytes on every port. */
	uint32_t ecn_kmin_ppm;
	uint32_t ecn_kmax_ppm; /**< ECNKmax likewise; 0: ecn_kmax_bytes */
	/** Traffic for a downed link is dropped there, not rerouted. */
	bool link_down_blackhole;
	/** Lossless classes (PFC), bit c for class c; 0: PFC off. */
	uint8_t pfc_classes;
	/** Wire bytes of a lossless class received on one port and still in
	 * its switch at which that port sends XOFF upstream. */
	uint64_t pfc_xoff_bytes;
	uint64_t pfc_xon_bytes; /**< at or below it: XON (quanta 0) */
	/** Bytes above pfc_xoff_bytes the ingress may still fill; a frame
	 * beyond it is dropped and counted. */
	uint64_t pfc_headroom_bytes;
	/** Quanta (512 bit times) an XOFF asks for; 0 is taken as 65535. */
	uint16_t pfc_pause_quanta;
	/** Hosts whose port faces an endpoint that is not ours
	 * (switch.external_hosts): a frame from one with another source
	 * address than its own is dropped. Read at create only; NULL: none. */
	const uint32_t *external_hosts;
	uint32_t external_count; /**< entries of external_hosts */
	/** switch.external_lost_copies: an external host's first data
	 * packet (its PDC and PSN) is lost at its port this many times,
	 * after the port received it; 0: nothing lost. */
	uint32_t external_lost_copies;
};

/** What routing looks at: the 5-tuple of a frame. */
struct uet_fabric_flow {
	uint32_t src_ipv4; /**< host order */
	uint32_t dst_ipv4; /**< host order */
	uint8_t protocol;  /**< IPv4 protocol */
	uint16_t src_port; /**< UDP source port (the entropy); 0 if not UDP */
	uint16_t dst_port; /**< UDP destination port; 0 if not UDP */
};

/** Where a switch port is: its switch and the link it ends. */
struct uet_fabric_port_info {
	uint32_t sw;	      /**< index of its switch */
	int32_t host;	      /**< the host it faces, or -1 */
	int32_t peer;	      /**< the switch port at the far end, or -1 */
	uint64_t rate_bps;    /**< the link's rate */
	uet_time_t delay_ps;  /**< the link's one-way delay */
	char switch_name[16]; /**< "switch", "leaf2", "tor0", "core3" */
	char link_name[32];   /**< "host5", "leaf2-spine1", "agg3-core2" */
};

/** Counters of one traffic class of one egress port. */
struct uet_fabric_tc_stats {
	uint64_t enq_frames;  /**< frames that joined the queue */
	uint64_t enq_bytes;   /**< their wire bytes */
	uint64_t drop_frames; /**< dropped: no room (after trimming) */
	uint64_t drop_bytes;  /**< their wire bytes, as offered */
	uint64_t trim_frames; /**< trimmed when offered to this class */
	uint64_t ecn_frames;  /**< CE-marked in this class */
	uint64_t queue_bytes; /**< wire bytes queued now, on the wire too */
	uint64_t peak_queue_bytes; /**< the most queue_bytes has been */
	/** ps this class could not start a frame on this egress port
	 * because the far end paused it (PFC), the current pause included
	 * up to the fabric's time. */
	uint64_t paused_ps;
	/** Lossless classes, at this ingress port: wire bytes received
	 * here in the class and still in the switch, now and the most. */
	uint64_t ingress_bytes;
	uint64_t peak_ingress_bytes;
};

/**
 * Counters of one switch port. "rx" is from the host into the switch, "tx"
 * from the switch to the host. Bytes are wire bytes: the frame, FCS
 * included (4 bytes, counted although ports do not carry it), lockstep
 * trailer excluded.
 */
struct uet_fabric_port_stats {
	/* The counters of every frame first, in one cache line. */
	uint64_t rx_frames;	      /**< frames fully received on the port */
	uint64_t rx_bytes;	      /**< their wire bytes */
	uint64_t tx_frames;	      /**< frames forwarded out of the port */
	uint64_t tx_bytes;	      /**< their wire bytes */
	uint64_t queue_bytes;	      /**< wire bytes in the output queue now,
				       * the frame being serialized included */
	uint64_t peak_queue_bytes;    /**< the most queue_bytes has been */
	uint64_t drop_full_frames;    /**< dropped at this output queue: full */
	uint64_t drop_full_bytes;     /**< their wire bytes */
	uint64_t drop_random_frames;  /**< received here, dropped at random */
	uint64_t drop_random_bytes;   /**< their wire bytes */
	uint64_t drop_route_frames;   /**< received here: not IPv4, bad IPv4
				       * header, or no host at the address */
	uint64_t drop_route_bytes;    /**< their wire bytes */
	uint64_t drop_control_frames; /**< received here: lockstep control
				       * frames, and MAC control frames
				       * that are not PFC */
	uint64_t drop_source_frames;  /**< received here from an external
				       * host, with a source address not
				       * its own (spoofed) */
	uint64_t drop_lost_frames;    /**< received here from an external
				       * host, lost on purpose
				       * (external_lost_copies) */
	uint64_t trim_frames;	      /**< trimmed at this egress port */
	uint64_t drop_trim_frames;    /**< trimmed, then no room in TC1 */
	uint64_t ecn_frames;	      /**< CE-marked at this egress port */
	uint64_t pfc_tx_xoff_frames;  /**< pause frames (non-zero quanta)
				       * sent out of this port upstream */
	uint64_t pfc_tx_xon_frames;   /**< resume frames (quanta 0) sent */
	uint64_t pfc_rx_xoff_frames;  /**< pause frames received here */
	uint64_t pfc_rx_xon_frames;   /**< resume frames received here */
	/** Lossless frames received here and dropped: the ingress had
	 * used its headroom (also in the egress port's drop counters). */
	uint64_t pfc_headroom_drop_frames;
	/** Per traffic class; trims count on the class first offered. */
	struct uet_fabric_tc_stats tc[UET_FABRIC_TCS];
};

/**
 * Called for every frame the switch receives on a port, at the time it is
 * fully received (to_host false), and for every frame it sends on a port,
 * at the end of its serialization (to_host true). The mbuf is only lent:
 * the callback must neither keep nor free it.
 *
 * @param ctx
 *   The context given to uet_fabric_set_capture().
 * @param port
 *   The switch port (the host's index).
 * @param m
 *   The frame.
 * @param time_ps
 *   ps, virtual time.
 * @param to_host
 *   true when the switch sends the frame, false when it receives it.
 */
typedef void (*uet_fabric_capture_fn)(void *ctx, uint32_t port,
				      const struct rte_mbuf *m,
				      uet_time_t time_ps, bool to_host);

/**
 * Create a fabric at virtual time 0: its switches and their ports, the
 * links between them, the routes (host i's default address), empty
 * queues, the seeded generators and each switch's salt. The
 * component's out must be set by the wiring before the first frame leaves.
 *
 * @param fabp
 *   Out: the new fabric.
 * @param conf
 *   Its configuration (copied).
 * @return
 *   0, -EINVAL (NULL argument, hosts 0 or over UET_HOST_MAX_COUNT or
 *   not what the shape gives, a shape count 0, k odd, link rate 0),
 *   -ENOMEM.
 */
int uet_fabric_create(struct uet_fabric **fabp,
		      const struct uet_fabric_conf *conf);

/**
 * Free a fabric, its event queue, and every frame it still holds (arriving,
 * queued or being serialized). NULL is accepted.
 *
 * @param fab
 *   The fabric.
 */
void uet_fabric_destroy(struct uet_fabric *fab);

/**
 * The fabric as lib/sync sees it. Frames are delivered with
 * deliver(c, port, m, arrival_ps): port is the host's index, arrival_ps the
 * time the frame's last bit reaches the switch, not earlier than the
 * component's time and not earlier than the previous arrival on that port.
 * deliver returns -EINVAL for a port out of range or a time out of order,
 * -ENOMEM if a queue could not grow; the mbuf is freed in every case.
 *
 * @param fab
 *   The fabric.
 * @return
 *   Its component (the same address as fab).
 */
struct uet_component *uet_fabric_component(struct uet_fabric *fab);

/**
 * Install or remove the capture callback.
 *
 * @param fab
 *   The fabric.
 * @param fn
 *   The callback, or NULL for none.
 * @param ctx
 *   Its context.
 */
void uet_fabric_set_capture(struct uet_fabric *fab, uet_fabric_capture_fn fn,
			    void *ctx);

/**
 * Read one port's counters.
 *
 * @param fab
 *   The fabric.
 * @param port
 *   The port, below uet_fabric_port_count() (host i's is i).
 * @param stats
 *   Out: a copy of the counters.
 * @return
 *   0, or -EINVAL (NULL argument, port out of range).
 */
int uet_fabric_port_stats(const struct uet_fabric *fab, uint32_t port,
			  struct uet_fabric_port_stats *stats);

/**
 * A 64-bit hash of a 5-tuple under a switch's salt, the same on every
 * platform: the basis of the choice between equal-cost next hops.
 *
 * @param flow
 *   The 5-tuple.
 * @param salt
 *   The switch's salt.
 * @return
 *   The hash.
 */
uint64_t uet_fabric_flow_hash(const struct uet_fabric_flow *flow,
			      uint64_t salt);

/**
 * The port switch sw sends a frame of this 5-tuple out of: the one next
 * hop towards the destination host, or among several equal-cost ones the
 * one the flow hash with the switch's salt picks.
 *
 * @param fab
 *   The fabric.
 * @param sw
 *   The switch.
 * @param flow
 *   The frame's 5-tuple.
 * @return
 *   The port (an index for uet_fabric_port_info()), -ENOENT if no host
 *   has the destination address, -EINVAL on a bad argument.
 */
int uet_fabric_next_port(const struct uet_fabric *fab, uint32_t sw,
			 const struct uet_fabric_flow *flow);

/**
 * Switches in the fabric.
 *
 * @param fab
 *   The fabric.
 * @return
 *   The count, 0 if fab is NULL.
 */
uint32_t uet_fabric_switch_count(const struct uet_fabric *fab);

/**
 * Switch ports in the fabric, all switches together. Ports 0 to hosts - 1
 * face hosts 0 to hosts - 1 (the component's ports); the rest are the
 * ends of links between switches.
 *
 * @param fab
 *   The fabric.
 * @return
 *   The count, 0 if fab is NULL.
 */
uint32_t uet_fabric_port_count(const struct uet_fabric *fab);

/**
 * Where a port is.
 *
 * @param fab
 *   The fabric.
 * @param port
 *   Below uet_fabric_port_count().
 * @param info
 *   Out: its switch, host or peer, link and names.
 * @return
 *   0, or -EINVAL.
 */
int uet_fabric_port_info(const struct uet_fabric *fab, uint32_t port,
			 struct uet_fabric_port_info *info);

/**
 * Run the fabric on its own (tests, tools) until t: windows of its parts'
 * lookahead, as lib/sync runs it (one window for one switch). The wiring
 * of a run uses the component's parts instead.
 *
 * @return
 *   Events run, or a negative errno.
 */
int64_t uet_fabric_run_until(struct uet_fabric *fab, uet_time_t t);

/** The virtual time of the part holding port (inside or between that
 * part's windows). */
uet_time_t uet_fabric_port_now(const struct uet_fabric *fab, uint32_t port);

/**
 * Events the fabric ran, every part (and its own queue) summed.
 */
uint64_t uet_fabric_events(const struct uet_fabric *fab);

/**
 * Partitions of the fabric (docs/performance.md): 1 for one switch, a
 * part per leaf and per spine, a part per pod and per core group.
 */
uint32_t uet_fabric_part_count(const struct uet_fabric *fab);

/**
 * The first failure inside the fabric's events: an error returned by the
 * wiring's out() (-ENOTCONN if out was never set), or an output queue that
 * could not grow (-ENOMEM). Events cannot return errors, so the fabric
 * goes on; lib/sync checks this after each window and stops the run (the
 * transport may not lose frames, and the model decides every drop).
 *
 * @param fab
 *   The fabric.
 * @return
 *   0, the first negative errno, or -EINVAL if fab is NULL.
 */
int uet_fabric_error(const struct uet_fabric *fab);

/*
 * Link failures, the per-class record and the occupancy time series
 * (fabric_link.c, fabric_occ.c; docs/fabric.md, "Link failures").
 */

/** Most failures one fabric takes (uet_fabric_add_failure()). */
#define UET_FABRIC_FAILURES_MAX 32

/** A link degraded or taken down at a virtual time. */
struct uet_fabric_failure {
	uint32_t port;	   /**< either end's port (uet_fabric_link_find()) */
	uet_time_t at_ps;  /**< ps, virtual time; not before the fabric's */
	uint32_t rate_ppm; /**< rate left, ppm of the nominal, 1..1000000 */
	bool down;	   /**< the link goes down; rate_ppm is unused */
};

/** What the switch stats record adds to uet_fabric_tc_stats. */
struct uet_fabric_tc_record {
	uint64_t down_drop_frames; /**< lost to a downed link, this class */
	uint64_t down_drop_bytes;  /**< their wire bytes */
	/** Class queue bytes averaged over [0, now] weighted by time. */
	uint64_t mean_queue_bytes;
	uint64_t paused_ps; /**< ps the class was paused: 0 without PFC */
	bool link_down;	    /**< the port's link is down now */
	uint64_t rate_bps;  /**< the link's rate now (degraded or not) */
};

/**
 * Called with the queue state of every chosen port at every sampling
 * time (see uet_fabric_set_occupancy()).
 *
 * @param ctx
 *   The context given to uet_fabric_set_occupancy().
 * @param time_ps
 *   ps, the sample's time: the state after every event at or before it.
 * @param port
 *   The port.
 * @param stats
 *   Its counters at that time (queue_bytes, tc[].queue_bytes).
 */
typedef void (*uet_fabric_occupancy_fn)(
	void *ctx, uet_time_t time_ps, uint32_t port,
	const struct uet_fabric_port_stats *stats);

/**
 * The port at the lower-tier end of a link, by the link's name: "hostH"
 * (the switch's port facing host H), "leafL-spineS", "torE-aggA",
 * "aggA-coreC", as uet_fabric_port_info() names links.
 *
 * @param fab
 *   The fabric.
 * @param name
 *   The link's name.
 * @return
 *   The port, -ENOENT for no link of that name, -EINVAL on NULL.
 */
int uet_fabric_link_find(const struct uet_fabric *fab, const char *name);

/**
 * A switch port by name: "SWITCH:LINK" (the port of switch SWITCH on link
 * LINK, e.g. "leaf0:leaf0-spine1" sends up, "spine1:leaf0-spine1" down),
 * or a host link's name alone ("host3": the port facing host 3).
 *
 * @param fab
 *   The fabric.
 * @param name
 *   The port's name.
 * @return
 *   The port, -ENOENT for no such port, -EINVAL on NULL.
 */
int uet_fabric_port_find(const struct uet_fabric *fab, const char *name);

/**
 * Describe how the links of this fabric are named, with their ranges,
 * for an error message ("host0..host15, leafL-spineS with L 0..3 and S
 * 0..3").
 *
 * @param fab
 *   The fabric.
 * @param buf
 *   Out: the text, NUL-terminated, cut to len.
 * @param len
 *   Its size.
 */
void uet_fabric_link_forms(const struct uet_fabric *fab, char *buf, size_t len);

/**
 * Whether the fabric conf describes has a link of this name, as
 * uet_fabric_link_find() would find it, without building the fabric: the
 * names a scenario gives (topology.failures) are checked before a run
 * opens any output.
 *
 * @return
 *   0, -ENOENT for no link of that name, -EINVAL on NULL.
 */
int uet_fabric_conf_link_check(const struct uet_fabric_conf *conf,
			       const char *name);

/**
 * Whether the fabric conf describes has a port of this name, as
 * uet_fabric_port_find() would find it, without building the fabric
 * (switch.occupancy_ports).
 *
 * @return
 *   0, -ENOENT for no such port, -EINVAL on NULL.
 */
int uet_fabric_conf_port_check(const struct uet_fabric_conf *conf,
			       const char *name);

/** uet_fabric_link_forms() of the fabric conf describes. */
void uet_fabric_conf_link_forms(const struct uet_fabric_conf *conf, char *buf,
				size_t len);

/**
 * Schedule a failure: at at_ps both directions of the link serialize at
 * rate_ppm of their nominal rate (a frame already on the wire keeps its
 * end), or the link goes down: the frames queued at either end and the
 * one being serialized are dropped, frames arriving over it are lost, and
 * traffic routed to it is rerouted over the remaining equal-cost next
 * hops (conf.link_down_blackhole false) or dropped there. Every loss is
 * counted (uet_fabric_tc_record()). Add failures before the first frame.
 *
 * @param fab
 *   The fabric.
 * @param f
 *   The failure (copied).
 * @return
 *   0, -EINVAL (bad port, rate 0 or above 1000000 without down, a time
 *   before the fabric's), -ENOSPC (UET_FABRIC_FAILURES_MAX reached),
 *   -ENOMEM.
 */
int uet_fabric_add_failure(struct uet_fabric *fab,
			   const struct uet_fabric_failure *f);

/**
 * The record's view of one class of one port at now_ps: link-down drops,
 * the time-weighted mean occupancy from 0 to now_ps, time paused, and the
 * link's state.
 *
 * @param fab
 *   The fabric.
 * @param port
 *   Below uet_fabric_port_count().
 * @param tc
 *   Below UET_FABRIC_TCS.
 * @param now_ps
 *   ps, not before the fabric's time: the end of the averaging.
 * @param rec
 *   Out.
 * @return
 *   0, or -EINVAL.
 */
int uet_fabric_tc_record(const struct uet_fabric *fab, uint32_t port,
			 unsigned int tc, uet_time_t now_ps,
			 struct uet_fabric_tc_record *rec);

/**
 * Give the counters of a port that another process ran (a run over
 * ranks, lib/sync's uet_sync_ranks.h: each runs some of the parts, and
 * the one that writes the records gathers the others' ports at the end).
 * From then uet_fabric_port_stats() and uet_fabric_tc_record() return
 * these for the port (tc_record whatever its now_ps: @p tc was taken at
 * the run's end).
 *
 * @return
 *   0, -EINVAL (NULL argument, port out of range), -ENOMEM.
 */
int uet_fabric_port_give(struct uet_fabric *fab, uint32_t port,
			 const struct uet_fabric_port_stats *stats,
			 const struct uet_fabric_tc_record *tc);

/**
 * Sample the queues of some ports every interval_ps from time 0. The
 * fabric schedules nothing for it: samples are given, in time order and
 * port order within a time, when the fabric's queues next change and by
 * uet_fabric_occupancy_flush(), so sampling never keeps a run alive nor
 * changes its events.
 *
 * @param fab
 *   The fabric.
 * @param interval_ps
 *   ps between samples, > 0.
 * @param ports
 *   The ports (copied), each below uet_fabric_port_count().
 * @param n_ports
 *   How many; 0 turns sampling off.
 * @param fn
 *   The callback.
 * @param ctx
 *   Its context.
 * @return
 *   0, -EINVAL, -ENOMEM.
 */
int uet_fabric_set_occupancy(struct uet_fabric *fab, uet_time_t interval_ps,
			     const uint32_t *ports, uint32_t n_ports,
			     uet_fabric_occupancy_fn fn, void *ctx);

/**
 * Give every sample due at or before end_ps (the end of the run).
 *
 * @param fab
 *   The fabric.
 * @param end_ps
 *   ps.
 */
void uet_fabric_occupancy_flush(struct uet_fabric *fab, uet_time_t end_ps);

#ifdef __cplusplus
}
#endif

#endif /* UET_FABRIC_H */
