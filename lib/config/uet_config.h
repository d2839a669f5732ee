/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Scenario configuration: load a scenario YAML file, validate it against the
 * attribute tables, and fill a typed struct uet_scenario.
 *
 * The attribute table (uet_config_attrs()) is the single source for the
 * names, types, defaults and ranges: the loader validates against it,
 * uet_scenario_print_config() prints from it and docs/configuration.md is
 * written from it.
 */
#ifndef UET_CONFIG_H
#define UET_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uet_host_addr.h"
#include "uet_time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest path (run.out) kept, including the terminating NUL. */
#define UET_CONFIG_PATH_MAX 256
/** Fewest and most hosts a topology may have: the most is what the
 * default address plan can number (uet_host_addr.h); memory, not a
 * constant, bounds a run below it (the sizing check, app/common). */
#define UET_CONFIG_HOSTS_MIN 2
#define UET_CONFIG_HOSTS_MAX UET_HOST_MAX_COUNT
/** Largest even topology.k whose k^3/4 hosts the address plan numbers
 * (k = 80: 128,000 hosts). */
#define UET_CONFIG_FAT_TREE_K_MAX 80
/** Most leaves, spines and hosts under a leaf of a leaf-spine; the hosts
 * they give are bounded by UET_CONFIG_HOSTS_MAX (2,048 leaves of 64 hosts
 * match a k = 64 fat tree's 65,536 hosts with room to spare). */
#define UET_CONFIG_LEAVES_MAX 4096
#define UET_CONFIG_SPINES_MAX 512
#define UET_CONFIG_HOSTS_PER_LEAF_MAX 1024
/** Largest scenario file read: a list of UET_CONFIG_MESSAGES_MAX messages
 * fits; a larger file is not a scenario (uet-emu /dev/zero). */
#define UET_CONFIG_FILE_MAX_BYTES (UINT64_C(64) << 20)
/** Most messages a workload.messages list may hold. */
#define UET_CONFIG_MESSAGES_MAX (1u << 20)
/** Traffic classes of a link (switch.PFCClasses, WrrWeights). */
#define UET_CONFIG_TCS 8

/** How virtual time advances (run.clock). */
enum uet_clock_mode {
	UET_CLOCK_LOCKSTEP = 0, /**< Conservative windows; deterministic. */
	UET_CLOCK_REALTIME = 1, /**< Wall time divided by time_dilation. */
};

/** Fabric shape (topology.kind); see docs/fabric.md. */
enum uet_topology_kind {
	UET_TOPOLOGY_SINGLE_SWITCH = 0,
	UET_TOPOLOGY_LEAF_SPINE = 1,
	UET_TOPOLOGY_FAT_TREE = 2,
};

/** Congestion control (pds.CongestionControl), in the names' order. */
enum uet_cc_kind {
	UET_SCENARIO_CC_FIXED =
		0, /**< A fixed window of pds.FixedWindow bytes. */
	UET_SCENARIO_CC_NSCC = 1, /**< NSCC (docs/congestion-control.md). */
};

/** Load balancing (pds.LoadBalancing), in the names' order. */
enum uet_lb_kind {
	UET_SCENARIO_LB_REPS = 0,      /**< Recycled entropy packet spraying. */
	UET_SCENARIO_LB_OBLIVIOUS = 1, /**< Every value once per round. */
	UET_SCENARIO_LB_SINGLE_PATH = 2, /**< One value per group. */
	UET_SCENARIO_LB_BITMAP = 3,	 /**< Oblivious, skip penalised. */
};

/** run: how the run is driven. */
struct uet_run_config {
	enum uet_clock_mode clock; /**< lockstep or realtime. */
	uint32_t time_dilation; /**< Wall ps per virtual ps; realtime only. */
	uint64_t seed;		/**< Seed of every per-component RNG. */
	uet_time_t end_ps;	/**< Virtual time limit of the run, ps. */
	char out[UET_CONFIG_PATH_MAX]; /**< Folder the records go to. */
	bool progress;	 /**< Print progress lines while running. */
	uint32_t lcores; /**< Worker lcores; 0: one per usable CPU. */
	uint32_t mbufs;	 /**< Pool size; 0: derived from the scenario. */
};

/** Most lcores run.lcores may ask for (DPDK's RTE_MAX_LCORE is 128). */
#define UET_CONFIG_LCORES_MAX 64u
/** Most mbufs run.mbufs may ask for (about 48 GiB of 768-byte mbufs). */
#define UET_CONFIG_MBUFS_MAX (64u * 1024u * 1024u)

/** Most entries topology.failures may hold. */
#define UET_CONFIG_FAILURES_MAX 32
/** Longest link name kept, including the NUL (fabric's link names). */
#define UET_CONFIG_LINK_NAME_MAX 32

/** What a switch does with traffic routed to a downed link. */
enum uet_link_down_action {
	UET_LINK_DOWN_REROUTE = 0,   /**< Over the remaining next hops. */
	UET_LINK_DOWN_BLACKHOLE = 1, /**< Keep routing there; drop. */
};

/** One entry of topology.failures: a link degraded or taken down. */
struct uet_link_failure {
	char link[UET_CONFIG_LINK_NAME_MAX]; /**< "leaf0-spine1", "host3" */
	uet_time_t at_ps;		     /**< Virtual time it happens. */
	uint32_t rate_ppm; /**< Fraction of the rate left, ppm (1..1e6). */
	bool down;	   /**< The link goes down (rate then unused). */
};

/** topology: the fabric. */
struct uet_topology_config {
	enum uet_topology_kind kind; /**< Fabric shape. */
	uint32_t hosts;		     /**< Number of NICs, 2..1024. */
	uint64_t link_rate_bps;	     /**< Rack switch downlink rate, bps. */
	uet_time_t link_delay_ps;    /**< Switch-side link delay, ps. */
	uint32_t leaves;	     /**< leaf-spine: leaf switches. */
	uint32_t spines;	     /**< leaf-spine: spine switches. */
	uint32_t hosts_per_leaf;     /**< leaf-spine: hosts under a leaf. */
	uint32_t k;		     /**< fat-tree: ports per switch, even. */
	/** Leaf-to-spine (fat tree: rack-to-aggregation) links, bps. */
	uint64_t leaf_spine_rate_bps;
	uet_time_t leaf_spine_delay_ps; /**< Their one-way delay, ps. */
	uint64_t agg_core_rate_bps;	/**< fat-tree: agg-to-core links. */
	uet_time_t agg_core_delay_ps;	/**< Their one-way delay, ps. */
	/** on_link_down: reroute or blackhole. */
	enum uet_link_down_action on_link_down;
	/** failures: in the order written. */
	struct uet_link_failure failures[UET_CONFIG_FAILURES_MAX];
	uint32_t failure_count; /**< Entries of failures in use. */
};

/** nic: ScalaUETNic attributes, the same for every NIC. */
struct uet_nic_config {
	uint64_t data_rate_bps;		  /**< DataRate, bps. */
	uet_time_t delay_ps;		  /**< Delay to the rack switch, ps. */
	uint32_t rdma_data_mss_bytes;	  /**< RdmaDataMSS, payload bytes. */
	uint64_t lane_bps;		  /**< LaneBps, one PCIe lane, bps. */
	uint32_t lane_count;		  /**< LaneCount, PCIe lanes. */
	uint32_t pcie_max_payload_bytes;  /**< PcieMaxPayload, TLP bytes. */
	uint32_t pcie_tlp_overhead_bytes; /**< PcieTlpOverhead, per TLP. */
	uint64_t pcie_tx_buffer_size_bytes; /**< PcieTxBufferSize, bytes. */
	uint64_t egress_pool_size_bytes;    /**< EgressPoolSize (data class). */
	uint64_t ingress_pool_size_bytes;   /**< IngressPoolSize, bytes. */
	bool prefetch_buffer_enable;	    /**< PrefetchBufferEnable. */
	uint64_t prefetch_buffer_size_bytes; /**< PrefetchBufferSize, bytes. */
	bool trimming_enabled;		     /**< TrimmingEnabled (marking). */
	bool pdc_groups_enabled;	     /**< PDCGroupsEnabled. */
	uet_time_t transmit_start_delay_ps;  /**< TransmitStartDelay, ps. */
	uint8_t dscp_no_trim;		     /**< DscpNoTrim codepoint. */
	uint8_t dscp_trimmable;		     /**< DscpTrimmable codepoint. */
	uint8_t dscp_trimmable_retransmit;   /**< DscpTrimmableRetransmit. */
	uint8_t dscp_control;		     /**< DscpControl codepoint. */
	uint8_t dscp_trimmed;		     /**< DscpTrimmed codepoint. */
	uint8_t dscp_trimmed_last_hop;	     /**< DscpTrimmedLastHop. */
	bool retransmit_trimmable;	     /**< RetransmitTrimmable. */
	uint16_t udp_dest_port;		     /**< UdpDestPort. */
	uint64_t pfc_xoff_bytes; /**< PFCXoff, data ingress pool bytes. */
	uint64_t pfc_xon_bytes;	 /**< PFCXon, data ingress pool bytes. */
};

/** pds: ScalaUETPdsManager attributes. */
struct uet_pds_config {
	uint32_t ack_request_every_nth_packet; /**< AckRequestEveryNthPacket. */
	bool ack_request_first_packet;	       /**< AckRequestFirstPacket. */
	bool ack_request_last_packet;	       /**< AckRequestLastPacket. */
	uet_time_t
		initial_retransmit_timeout_ps; /**< InitialRetransmitTimeout. */
	uint32_t max_exponential_rto_backoff_count; /**< Doublings cap. */
	bool fixed_rexmit_time_enable;	     /**< FixedRexmitTimeEnable. */
	uet_time_t fixed_rexmit_timeout_ps;  /**< FixedRexmitTimeout, ps. */
	uet_time_t initial_base_rtt_ps;	     /**< InitialBaseRTT, ps. */
	enum uet_cc_kind congestion_control; /**< CongestionControl. */
	uint64_t fixed_window_bytes; /**< FixedWindow as set; 0 = derived. */
	/** NsccTargetQdelay, ps; 0 derives it from InitialBaseRTT. */
	uet_time_t nscc_target_qdelay_ps;
	/** NsccInitialWindow, bytes; 0 is the maximum window. */
	uint64_t nscc_initial_window_bytes;
	enum uet_lb_kind load_balancing; /**< LoadBalancing. */
	uint32_t reps_cache_size;	 /**< RepsCacheSize, entries. */
	uint32_t reps_usable_lifetime;	 /**< RepsUsableLifetime, packets. */
	uet_time_t reps_freeze_ps;	 /**< RepsFreezeTime, ps. */
	uint32_t reps_explore_count;	 /**< RepsExploreCount, packets. */
	uint32_t bitmap_paths;		 /**< BitmapPaths, entropy values. */
};

/** How a switch port chooses between its traffic classes. */
enum uet_switch_scheduler {
	UET_SWITCH_SCHED_STRICT = 0, /**< Strict priority, highest TC first. */
	UET_SWITCH_SCHED_WRR = 1,    /**< Weighted round robin. */
};

/** Where a switch CE-marks ECT packets. */
enum uet_switch_ecn_at {
	UET_SWITCH_ECN_DEQUEUE = 0, /**< When the packet leaves its queue. */
	UET_SWITCH_ECN_ENQUEUE = 1, /**< When the packet joins its queue. */
};

/** Longest switch.occupancy_ports text kept, including the NUL. */
#define UET_CONFIG_PORT_LIST_MAX 512

/** Longest switch.WrrWeights text kept, including the NUL. */
#define UET_CONFIG_WRR_WEIGHTS_MAX 64
/** Bytes of switch.PFCClasses, its NUL included. */
#define UET_CONFIG_PFC_CLASSES_MAX 32

/** Longest switch.external_hosts text kept, including the NUL. */
#define UET_CONFIG_EXTERNAL_HOSTS_MAX 256

/** switch: the software switch. */
struct uet_switch_config {
	uint64_t queue_limit_bytes; /**< Limit of each class queue, bytes. */
	uint32_t drop_rate_ppm;	    /**< Random drop probability, ppm. */
	bool uet_policy_enabled;    /**< UETPolicyEnabled. */
	bool trimming_enabled;	    /**< TrimmingEnabled (switch trimming). */
	enum uet_switch_scheduler scheduler; /**< Scheduler. */
	/** WrrWeights: up to 8 comma-separated weights, TC0 first. */
	char wrr_weights[UET_CONFIG_WRR_WEIGHTS_MAX];
	bool ecn_enabled;		    /**< ECNEnabled. */
	enum uet_switch_ecn_at ecn_mark_at; /**< ECNMarkAt. */
	uint64_t ecn_kmin_bytes;	    /**< ECNKmin, class queue bytes. */
	uint64_t ecn_kmax_bytes;	    /**< ECNKmax, class queue bytes. */
	/** occupancy_ports: comma-separated switch ports whose queues
	 * switch-occupancy.csv samples; "" for none. */
	char occupancy_ports[UET_CONFIG_PORT_LIST_MAX];
	uet_time_t occupancy_interval_ps; /**< Sampling period, ps. */
	/** PFCClasses: lossless traffic classes, "0" or "0,3"; empty: off.
	 * uet_config_pfc_class_mask() reads it. */
	char pfc_classes[UET_CONFIG_PFC_CLASSES_MAX];
	uint64_t pfc_xoff_bytes;     /**< PFCXoff, ingress bytes per class. */
	uint64_t pfc_xon_bytes;	     /**< PFCXon, ingress bytes per class. */
	uint64_t pfc_headroom_bytes; /**< PFCHeadroom, above PFCXoff. */
	uint32_t pfc_pause_quanta;   /**< PFCPauseQuanta, 512 bit times. */
	/** external_hosts: comma-separated IPv4 addresses of hosts whose
	 * switch port faces a UET endpoint that is not ours ("": none). */
	char external_hosts[UET_CONFIG_EXTERNAL_HOSTS_MAX];
	/** external_lost_copies: transmissions of each external host's
	 * first data packet the switch loses (0: none). */
	uint32_t external_lost_copies;
};

/** Longest records.PcapHosts kept, including the NUL. */
#define UET_CONFIG_HOST_LIST_MAX 256
/** records.PcapHosts auto: every host's link up to this many hosts (one
 * file each), past it only the first UET_CONFIG_PCAP_AUTO_FEW: a 65,536-host
 * run would otherwise open 65,536 files (uet_config_pcap.c). */
#define UET_CONFIG_PCAP_AUTO_HOSTS 1024u
#define UET_CONFIG_PCAP_AUTO_FEW 16u

/** records: which records the run writes. */
struct uet_records_config {
	bool enable_transport_stats;		/**< uet-transport-stats. */
	uet_time_t nd_stats_report_interval_ps; /**< Stats row period, ps. */
	bool enable_event_logging;		/**< uet-events. */
	bool enable_uet_monitor;		/**< uet-monitor. */
	bool enable_flow_summary;		/**< Flow summary. */
	bool enable_pcap;			/**< pcap captures. */
	/** PcapHosts: "auto", "all" or host numbers and ranges ("0-15,40");
	 * uet_scenario_pcap_host() reads it. */
	char pcap_hosts[UET_CONFIG_HOST_LIST_MAX];
	bool enable_cc_trace;	  /**< uet-cc-trace. */
	bool enable_switch_stats; /**< switch-stats. */
	uint64_t max_file_bytes;  /**< MaxFileSize: most bytes of one file. */
};

/** One message of workload.messages. */
struct uet_workload_message {
	uint32_t src;	     /**< Sending host index, < topology.hosts. */
	uint32_t dst;	     /**< Receiving host index, != src. */
	uint64_t size_bytes; /**< Message size; 0 is one empty packet. */
	uet_time_t at_ps;    /**< Virtual time the host posts it, ps. */
};

/** Collective types that have a workload.<collective> algorithm row, in
 * Chakra's CollectiveCommType order (all_reduce = 0 ... barrier = 9). */
#define UET_CONFIG_COLL_TYPES 10

/** workload.generate.pattern, in the row's names order. */
enum uet_generate_pattern {
	UET_GENERATE_NONE = 0,	      /**< No generator. */
	UET_GENERATE_INCAST = 1,      /**< Every other host to dst. */
	UET_GENERATE_PERMUTATION = 2, /**< Each host to one other (a cycle). */
	UET_GENERATE_ALL_TO_ALL = 3,  /**< Each host to every other host. */
	UET_GENERATE_UNIFORM = 4,     /**< Each message to a random other. */
};

/** workload.generate: a traffic generator (docs/workload.md). */
struct uet_workload_generate {
	uint32_t pattern;	/**< enum uet_generate_pattern. */
	uint64_t size_bytes;	/**< Size of every message, bytes. */
	uint32_t count;		/**< Messages per host and destination. */
	uet_time_t start_ps;	/**< When each host posts its first, ps. */
	uet_time_t interval_ps; /**< Between a host's posts, ps. */
	uint32_t dst;		/**< incast: the destination host. */
	uint64_t seed;		/**< Random choices; 0: run.seed. */
};

/** workload: what the hosts send. */
struct uet_workload_config {
	struct uet_workload_message *messages; /**< Owned; see _free(). */
	uint32_t message_count;		       /**< Entries in messages. */
	/** Chakra trace prefix (PREFIX.<rank>.et), "" for none. A relative
	 * prefix is resolved against the scenario file's folder at load. */
	char chakra[UET_CONFIG_PATH_MAX];
	/** Connection matrix file (uet-htsim's format), "" for none;
	 * resolved against the scenario file's folder at load. */
	char matrix[UET_CONFIG_PATH_MAX];
	/** The generator (pattern none: no generator). */
	struct uet_workload_generate generate;
	/** ps a rank spends reducing one received chunk of a decomposed
	 * all-reduce or reduce-scatter (ring). */
	uet_time_t reduce_chunk_ps;
	/** By collective type: index of the algorithm in the row's enum
	 * names (workload.all_reduce, ...); see uet_config_attrs(). */
	uint32_t coll_algo[UET_CONFIG_COLL_TYPES];
};

/**
 * Attributes whose default is auto: derived from the fabric when the
 * scenario loads (uet_config_derive.c) and written into their fields, so
 * every consumer reads them as it reads a value the file set. Bit
 * (1 << n) of uet_scenario_derived.auto_mask is set while attribute n is
 * left at auto; a value in the file clears it and wins.
 */
enum uet_auto_attr {
	UET_AUTO_LEAF_SPINE_RATE = 0, /**< topology.leaf_spine_rate */
	UET_AUTO_LEAF_SPINE_DELAY,    /**< topology.leaf_spine_delay */
	UET_AUTO_AGG_CORE_RATE,	      /**< topology.agg_core_rate */
	UET_AUTO_AGG_CORE_DELAY,      /**< topology.agg_core_delay */
	UET_AUTO_INITIAL_RTO,	      /**< pds.InitialRetransmitTimeout */
	UET_AUTO_INITIAL_BASE_RTT,    /**< pds.InitialBaseRTT */
	UET_AUTO_NSCC_TARGET_QDELAY,  /**< pds.NsccTargetQdelay */
	UET_AUTO_QUEUE_LIMIT,	      /**< switch.queue_limit */
	UET_AUTO_ECN_KMIN,	      /**< switch.ECNKmin */
	UET_AUTO_ECN_KMAX,	      /**< switch.ECNKmax */
	UET_AUTO_SWITCH_TRIMMING,     /**< switch.TrimmingEnabled */
	UET_AUTO_COUNT,
};

/** Wire bytes of an ACK (ACK_CC): Ethernet 14, IPv4 20, UDP 8, PDS 32,
 * FCS 4; the ACK half of the fabric's round trip. */
#define UET_CONFIG_ACK_WIRE_BYTES 78
/** Share of a port's BDP at which ECN marking starts (auto). */
#define UET_CONFIG_ECN_KMIN_PPM 200000
/** Share of a port's BDP at which every ECT frame is marked (auto). */
#define UET_CONFIG_ECN_KMAX_PPM 800000
/** BDPs an auto queue holds without switch trimming (with it, one): what
 * drop tail needs to ride out a burst, the reference's choice. */
#define UET_CONFIG_QUEUE_BDPS_NO_TRIM 5

/** Values computed from the attributes after loading. */
struct uet_scenario_derived {
	/** Attributes left at auto: bit (1 << enum uet_auto_attr). */
	uint32_t auto_mask;
	/** The fabric's longest unloaded round trip: a full data frame
	 * (RdmaDataMSS + 106 bytes) over the longest host-to-host path and
	 * its ACK back, every link's delay and serialization, ps. */
	uet_time_t network_rtt_ps;
	/** Links of that path: 2 through one switch, 4 between leaves, 6
	 * across a fat tree's core. */
	uint32_t longest_path_links;
	/** switch.queue_limit auto: the time of traffic each switch port's
	 * class queues hold at its own link's rate, one network_rtt_ps (one
	 * BDP) with switch trimming, five without (queue_limit_bytes is the
	 * host links' one), ps; 0 when queue_limit is set. */
	uet_time_t queue_time_ps;
	/** ECNKmin auto: ppm of each port's queue limit (20% of one BDP);
	 * 0 when set. */
	uint32_t ecn_kmin_ppm;
	/** ECNKmax auto: ppm of each port's queue limit; 0 when set. */
	uint32_t ecn_kmax_ppm;
	/** Effective fixed window: FixedWindow, or 1.5 x DataRate x
	 * InitialBaseRTT when FixedWindow is 0, in bytes. */
	uint64_t fixed_window_bytes;
	/** Lockstep lookahead: the smallest NIC Delay, ps. */
	uet_time_t lookahead_ps;
	/** switch.PFCClasses read once: bit c for lossless class c (0: PFC
	 * off). */
	uint8_t pfc_class_mask;
	/** switch.WrrWeights read once: frames each class sends per turn,
	 * TC0 first, missing ones 1. */
	uint8_t wrr_weight[UET_CONFIG_TCS];
};

/** A whole scenario. Initialise with uet_scenario_defaults() or a load. */
struct uet_scenario {
	struct uet_run_config run;
	struct uet_topology_config topology;
	struct uet_nic_config nic;
	struct uet_pds_config pds;
	struct uet_switch_config sw; /**< The "switch:" section. */
	struct uet_records_config records;
	struct uet_workload_config workload;
	struct uet_scenario_derived derived;
};

/** Why a load failed. message is the whole line an app prints. */
struct uet_config_error {
	unsigned int line;   /**< 1-based line, 0 when no line applies. */
	unsigned int column; /**< 1-based column, 0 when not known. */
	char key[96];	     /**< Key path, e.g. "nic.Delay"; may be empty. */
	char value[128];     /**< The value as written; may be empty. */
	char rule[384];	     /**< The rule that was broken. */
	char message[768];   /**< "file:line: key = value: rule". */
};

/** Type of an attribute's value. */
enum uet_attr_type {
	UET_ATTR_DURATION, /**< "500ns": stored in ps. */
	UET_ATTR_RATE,	   /**< "400Gbps": stored in bps. */
	UET_ATTR_SIZE,	   /**< "4KiB" or "4096": stored in bytes. */
	UET_ATTR_BOOL,	   /**< true or false. */
	UET_ATTR_UINT,	   /**< A plain unsigned integer. */
	UET_ATTR_PPM,	   /**< "0.01" or "1%": stored in parts per million. */
	UET_ATTR_ENUM,	   /**< One of a list of names. */
	UET_ATTR_STRING,   /**< Any text. */
	UET_ATTR_PATH,	   /**< A file system path. */
};

/** One row of the attribute table. */
struct uet_attr {
	const char *section; /**< "run", "nic", "workload.messages", ... */
	const char *name;    /**< Key in the section, the page's spelling. */
	enum uet_attr_type type;
	const char *def;     /**< Default as written in YAML; NULL: required. */
	uint64_t min;	     /**< Smallest value, in the stored unit. */
	uint64_t max;	     /**< Largest value, in the stored unit. */
	const char *unit;    /**< Stored unit: "ps", "bps", "bytes", "ppm". */
	const char *meaning; /**< One line: what it does. */
	const char *why;     /**< One line: why this default. */
	const char *const *enum_names; /**< NULL-terminated; enum only. */
	unsigned int enum_supported;   /**< Names before this index load. */
	size_t offset; /**< Offset of the field in its struct. */
	size_t width;  /**< sizeof the field. */
};

/**
 * The attribute table.
 *
 * @param count
 *   Set to the number of rows.
 * @return
 *   The rows, in print order (sections in file order).
 */
const struct uet_attr *uet_config_attrs(size_t *count);

/** @return the name of an attribute type ("duration", "rate", ...). */
const char *uet_attr_type_name(enum uet_attr_type type);

/**
 * Fill a scenario with every default and the derived values.
 *
 * @return
 *   0 (the defaults always load).
 */
int uet_scenario_defaults(struct uet_scenario *s);

/**
 * Load and validate a scenario file.
 *
 * @param s
 *   Overwritten: filled on success, left with the defaults and no messages
 *   on failure. Free an earlier load's messages first.
 * @param path
 *   YAML file.
 * @param err
 *   Filled on failure; may be NULL.
 * @return
 *   0, -EINVAL for a file that cannot be read or a scenario that breaks a
 *   rule (see err), -ENOMEM.
 */
int uet_scenario_load_file(struct uet_scenario *s, const char *path,
			   struct uet_config_error *err);

/**
 * Load and validate a scenario held in memory.
 *
 * @param name
 *   Name used in messages in place of a file name.
 * @param yaml
 *   The text, len bytes (need not be NUL-terminated).
 * @return
 *   As uet_scenario_load_file().
 */
int uet_scenario_load_string(struct uet_scenario *s, const char *name,
			     const char *yaml, size_t len,
			     struct uet_config_error *err);

/**
 * Whether host's link is captured (port-<host>.pcap): records.EnablePcap,
 * and host among records.PcapHosts (auto: every host of a fabric of up to
 * UET_CONFIG_PCAP_AUTO_HOSTS, else hosts 0 to UET_CONFIG_PCAP_AUTO_FEW - 1).
 */
bool uet_scenario_pcap_host(const struct uet_scenario *s, uint32_t host);

/**
 * Whether records.PcapHosts auto left hosts out (a fabric past
 * UET_CONFIG_PCAP_AUTO_HOSTS): the run says so, and how to ask for more.
 */
bool uet_scenario_pcap_auto_limited(const struct uet_scenario *s);

/**
 * Whether a host's switch port faces an external UET endpoint (one of the
 * addresses of switch.external_hosts), so that no uet-nic hosts it.
 *
 * @param s
 *   A loaded scenario (its external_hosts already checked).
 * @param host
 *   Host index.
 * @return
 *   true when the host's address is listed.
 */
bool uet_scenario_host_external(const struct uet_scenario *s, uint32_t host);

/** Release what a load allocated; s stays valid with no messages. */
void uet_scenario_free(struct uet_scenario *s);

/**
 * Print every effective attribute, grouped by section, as YAML that loads
 * back to the same scenario. Derived values are printed as comments.
 *
 * @return
 *   0, or -EIO when writing fails.
 */
int uet_scenario_print_config(const struct uet_scenario *s, FILE *f);

/**
 * Hash of the scenario for the lockstep HELLO: 64-bit FNV-1a over the text
 * uet_scenario_print_config() prints.
 *
 * @param hash
 *   Set on success.
 * @return
 *   0 or -ENOMEM.
 */
int uet_scenario_hash(const struct uet_scenario *s, uint64_t *hash);

/** @return true when a and b hold the same attributes and workload. */
bool uet_scenario_equal(const struct uet_scenario *a,
			const struct uet_scenario *b);

/**
 * Print the attribute table as the Markdown table rows docs/configuration.md
 * carries, one row per attribute.
 *
 * @return
 *   0, or -EIO when writing fails.
 */
int uet_config_print_doc_table(FILE *f);

/**
 * The lossless traffic classes of switch.PFCClasses as a bit mask (bit c:
 * class c): up to eight class numbers 0 to 7 separated by commas; empty
 * (PFC off) gives 0.
 *
 * @param text
 *   The attribute's value.
 * @param mask
 *   Out: the classes.
 * @return
 *   0, or -EINVAL (not a list of classes 0 to 7, or NULL).
 */
int uet_config_pfc_class_mask(const char *text, uint8_t *mask);

/**
 * The weights of switch.WrrWeights: one to eight integers 1 to 255
 * separated by commas, TC0 first; the classes not named weigh 1.
 *
 * @param text
 *   The attribute's value.
 * @param weight
 *   Out: UET_CONFIG_TCS weights (all 1 on -EINVAL).
 * @return
 *   0, or -EINVAL (not such a list, or NULL).
 */
int uet_config_wrr_weights(const char *text, uint8_t weight[UET_CONFIG_TCS]);

struct uet_nscc_derived;

/**
 * The NSCC values a new PDC group of this scenario's NICs derives
 * (lib/cc's uet_nscc_derive() on nic.DataRate, pds.InitialBaseRTT, the
 * NSCC attributes and a full-size packet, RdmaDataMSS + 88 nominal
 * bytes), whatever pds.CongestionControl says: what --print-config
 * comments and what sizing reads the largest window from.
 *
 * @param s
 *   A loaded scenario (its derived values set).
 * @param d
 *   Out: the values.
 * @return
 *   0, or -EINVAL (a parameter uet_nscc_derive() refuses).
 */
int uet_scenario_nscc(const struct uet_scenario *s, struct uet_nscc_derived *d);

#ifdef __cplusplus
}
#endif

#endif /* UET_CONFIG_H */
