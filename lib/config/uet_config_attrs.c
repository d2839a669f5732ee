/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The attribute table: one row per scenario key, the single source for
 * validation, --print-config and docs/configuration.md.
 */
#include <stddef.h>
#include <stdint.h>

#include "uet_config.h"
#include "uet_packet_sizes.h"

#define PS_PER_NS UINT64_C(1000)
#define PS_PER_US UINT64_C(1000000)
#define PS_PER_S UINT64_C(1000000000000)
#define GBPS UINT64_C(1000000000)
#define MBPS UINT64_C(1000000)
#define KIB UINT64_C(1024)
#define MIB (KIB * KIB)
#define GIB (MIB * KIB)

#define FIELD(f)                                                               \
	offsetof(struct uet_scenario, f), sizeof(((struct uet_scenario *)0)->f)
#define FAILURE_FIELD(f)                                                       \
	offsetof(struct uet_link_failure, f),                                  \
		sizeof(((struct uet_link_failure *)0)->f)
#define MSG_FIELD(f)                                                           \
	offsetof(struct uet_workload_message, f),                              \
		sizeof(((struct uet_workload_message *)0)->f)

static const char *const clock_names[] = {"lockstep", "realtime", NULL};
static const char *const topology_names[] = {"single-switch", "leaf-spine",
					     "fat-tree", NULL};
static const char *const cc_names[] = {"fixed", "nscc", NULL};
static const char *const sched_names[] = {"strict", "wrr", NULL};
static const char *const ecn_at_names[] = {"dequeue", "enqueue", NULL};
static const char *const link_down_names[] = {"reroute", "blackhole", NULL};
static const char *const lb_names[] = {"reps", "oblivious", "single-path",
				       "bitmap", NULL};
/* Algorithms of each collective (lib/workload), the default first. */
static const char *const ring_direct[] = {"ring", "direct", NULL};
static const char *const direct_tree[] = {"direct", "tree", NULL};
static const char *const direct_only[] = {"direct", NULL};
static const char *const tree_ring[] = {"tree", "ring", NULL};
/* workload.generate.pattern, in enum uet_generate_pattern's order. */
static const char *const pattern_names[] = {
	"none", "incast", "permutation", "all-to-all", "uniform", NULL};

/* The algorithm row of a collective type (Chakra's number t). */
/* def repeats names[0]: an array element is not a constant expression. */
#define COLL_ROW(name, names, def, t)                                          \
	{                                                                      \
		"workload", name, UET_ATTR_ENUM, def, 0,                       \
			sizeof(names) / sizeof(names[0]) - 2, "",              \
			"algorithm a " name                                    \
			" collective is broken into messages by",              \
			"the usual one for this collective", names,            \
			sizeof(names) / sizeof(names[0]) - 1,                  \
			FIELD(workload.coll_algo[t])                           \
	}

/* A rate range wide enough for 1 Mbps test links and 1.6 Tbps ports. */
#define RATE_MIN MBPS
#define RATE_MAX (1600 * GBPS)
/* One hour of virtual time bounds every duration: far past any run. */
#define DURATION_MAX (3600 * PS_PER_S)

static const struct uet_attr attrs[] = {
	/* run */
	{"run", "clock", UET_ATTR_ENUM, "lockstep", 0, 1, "",
	 "how virtual time advances: lockstep windows or wall time",
	 "lockstep results are identical whatever the host load", clock_names,
	 2, FIELD(run.clock)},
	{"run", "time_dilation", UET_ATTR_UINT, "1", 1, 1000000, "",
	 "realtime only: wall-clock ps per virtual ps",
	 "1 runs at real time; only set it with clock: realtime", NULL, 0,
	 FIELD(run.time_dilation)},
	{"run", "seed", UET_ATTR_UINT, "1", 0, UINT64_MAX, "",
	 "seed of every per-component random generator",
	 "any fixed seed makes reruns identical; 1 is the plainest", NULL, 0,
	 FIELD(run.seed)},
	{"run", "end", UET_ATTR_DURATION, "10ms", 1, DURATION_MAX, "ps",
	 "virtual time at which the run stops",
	 "ample for an 8-host incast of 1 MiB messages (about 150 us of "
	 "data) with room for timeouts",
	 NULL, 0, FIELD(run.end_ps)},
	{"run", "out", UET_ATTR_PATH, "out/", 0, 0, "",
	 "folder the records and captures are written to",
	 "a folder next to where the run starts", NULL, 0, FIELD(run.out)},
	{"run", "progress", UET_ATTR_BOOL, "true", 0, 1, "",
	 "print progress lines while the run goes",
	 "long runs should show they are alive", NULL, 0, FIELD(run.progress)},
	{"run", "lcores", UET_ATTR_UINT, "0", 0, UET_CONFIG_LCORES_MAX, "",
	 "worker lcores the NICs and the switches run on (uet-emu, "
	 "uet-nic, uet-switch in lockstep); 0: one per CPU the process "
	 "may use that other processes do not keep busy (their runnable "
	 "tasks at start; the summary says how many and why), one for a "
	 "fabric of 16 hosts or fewer (uet-emu, uet-switch); never more "
	 "than the NICs the process runs (each NIC has one lcore); "
	 "uet-switch runs its fabric's parts on them (one lcore in "
	 "realtime)",
	 "every CPU busy; results are the same for any count", NULL, 0,
	 FIELD(run.lcores)},
	{"run", "mbufs", UET_ATTR_UINT, "0", 0, UET_CONFIG_MBUFS_MAX, "",
	 "frame buffers (mbufs) of the process's pool; 0: derived from "
	 "the scenario (hosts, windows, pools)",
	 "the derivation covers every frame the windows let in flight", NULL, 0,
	 FIELD(run.mbufs)},

	/* topology */
	{"topology", "kind", UET_ATTR_ENUM, "single-switch", 0, 2, "",
	 "fabric shape: one switch, two-tier leaf-spine or three-tier k-ary "
	 "fat tree",
	 "one switch is the simplest fabric that shows congestion",
	 topology_names, 3, FIELD(topology.kind)},
	{"topology", "hosts", UET_ATTR_UINT, "2", UET_CONFIG_HOSTS_MIN,
	 UET_CONFIG_HOSTS_MAX, "",
	 "number of hosts, each with one NIC; derived for leaf-spine "
	 "and fat-tree",
	 "the smallest fabric that carries traffic", NULL, 0,
	 FIELD(topology.hosts)},
	{"topology", "link_rate", UET_ATTR_RATE, "400Gbps", RATE_MIN, RATE_MAX,
	 "bps", "rate of the rack switch's downlinks to the NICs",
	 "matches the NIC's DataRate, so neither end is the bottleneck", NULL,
	 0, FIELD(topology.link_rate_bps)},
	{"topology", "link_delay", UET_ATTR_DURATION, "500ns", 0, DURATION_MAX,
	 "ps", "one-way delay of a link between a switch and a NIC",
	 "matches the NIC's Delay", NULL, 0, FIELD(topology.link_delay_ps)},
	{"topology", "leaves", UET_ATTR_UINT, "2", 1, UET_CONFIG_LEAVES_MAX, "",
	 "leaf-spine only: leaf (rack) switches",
	 "the smallest leaf-spine with traffic between racks", NULL, 0,
	 FIELD(topology.leaves)},
	{"topology", "spines", UET_ATTR_UINT, "2", 1, UET_CONFIG_SPINES_MAX, "",
	 "leaf-spine only: spine switches, each linked to every leaf",
	 "two paths between racks, the fewest that need balancing", NULL, 0,
	 FIELD(topology.spines)},
	{"topology", "hosts_per_leaf", UET_ATTR_UINT, "2", 1,
	 UET_CONFIG_HOSTS_PER_LEAF_MAX, "",
	 "leaf-spine only: hosts under each leaf",
	 "as many hosts as uplinks: no oversubscription at equal rates", NULL,
	 0, FIELD(topology.hosts_per_leaf)},
	{"topology", "k", UET_ATTR_UINT, "4", 2, UET_CONFIG_FAT_TREE_K_MAX, "",
	 "fat-tree only: ports per switch, even; k^3/4 hosts",
	 "the textbook 16-host fat tree", NULL, 0, FIELD(topology.k)},
	{"topology", "leaf_spine_rate", UET_ATTR_RATE, "auto", RATE_MIN,
	 RATE_MAX, "bps",
	 "rate of leaf-spine links (fat tree: rack-to-aggregation links)",
	 "auto: link_rate, so one rate means every link (no "
	 "oversubscription)",
	 NULL, 0, FIELD(topology.leaf_spine_rate_bps)},
	{"topology", "leaf_spine_delay", UET_ATTR_DURATION, "auto", 0,
	 DURATION_MAX, "ps",
	 "one-way delay of leaf-spine (rack-to-aggregation) links",
	 "auto: link_delay, so one delay means every link", NULL, 0,
	 FIELD(topology.leaf_spine_delay_ps)},
	{"topology", "agg_core_rate", UET_ATTR_RATE, "auto", RATE_MIN, RATE_MAX,
	 "bps", "fat-tree only: rate of aggregation-to-core links",
	 "auto: link_rate, so one rate means every link (no "
	 "oversubscription)",
	 NULL, 0, FIELD(topology.agg_core_rate_bps)},
	{"topology", "agg_core_delay", UET_ATTR_DURATION, "auto", 0,
	 DURATION_MAX, "ps",
	 "fat-tree only: one-way delay of aggregation-to-core links",
	 "auto: link_delay, so one delay means every link", NULL, 0,
	 FIELD(topology.agg_core_delay_ps)},
	{"topology", "on_link_down", UET_ATTR_ENUM, "reroute", 0, 1, "",
	 "traffic a switch would send over a downed link: rerouted over the "
	 "remaining equal-cost next hops, or blackholed (dropped, counted)",
	 "a fabric's routing converges around a failed link", link_down_names,
	 2, FIELD(topology.on_link_down)},

	/* topology.failures: offsets are into struct uet_link_failure */
	{"topology.failures", "link", UET_ATTR_STRING, NULL, 0, 0, "",
	 "the link: hostH, leafL-spineS, torE-aggA or aggA-coreC "
	 "(docs/configuration.md, Link failures)",
	 "required", NULL, 0, FAILURE_FIELD(link)},
	{"topology.failures", "at", UET_ATTR_DURATION, "0ns", 0, DURATION_MAX,
	 "ps", "virtual time the failure happens", "from the start unless told",
	 NULL, 0, FAILURE_FIELD(at_ps)},
	{"topology.failures", "rate", UET_ATTR_PPM, "100%", 1, 1000000, "ppm",
	 "fraction of its rate the link keeps (both directions)",
	 "the full rate unless degraded", NULL, 0, FAILURE_FIELD(rate_ppm)},
	{"topology.failures", "down", UET_ATTR_BOOL, "false", 0, 1, "",
	 "the link goes down: frames queued or on it are lost",
	 "a degraded link unless told", NULL, 0, FAILURE_FIELD(down)},

	/* nic: ScalaUETNic */
	{"nic", "DataRate", UET_ATTR_RATE, "400Gbps", RATE_MIN, RATE_MAX, "bps",
	 "rate of the NIC's port", "the page's default", NULL, 0,
	 FIELD(nic.data_rate_bps)},
	{"nic", "Delay", UET_ATTR_DURATION, "500ns", 0, DURATION_MAX, "ps",
	 "one-way delay from the NIC to its rack switch; with "
	 "topology.link_delay it bounds the lockstep lookahead",
	 "about 100 m of fibre and a switch pipeline; must be > 0 in lockstep",
	 NULL, 0, FIELD(nic.delay_ps)},
	{"nic", "RdmaDataMSS", UET_ATTR_SIZE, "4096", 64, UET_MSS_MAX_BYTES,
	 "bytes", "payload bytes of every data packet but a message's last",
	 "the page's default; at most 9000 - 106 so a packet fits a jumbo "
	 "frame",
	 NULL, 0, FIELD(nic.rdma_data_mss_bytes)},
	{"nic", "LaneBps", UET_ATTR_RATE, "31.52Gbps", RATE_MIN, RATE_MAX,
	 "bps", "rate of one PCIe lane after encoding",
	 "PCIe Gen5 (32 GT/s, 128b/130b); gives the page's PCIe figures", NULL,
	 0, FIELD(nic.lane_bps)},
	{"nic", "LaneCount", UET_ATTR_UINT, "16", 1, 32, "",
	 "number of PCIe lanes", "an x16 slot, as in the page's figures", NULL,
	 0, FIELD(nic.lane_count)},
	{"nic", "PcieMaxPayload", UET_ATTR_SIZE, "512", 64, 4096, "bytes",
	 "largest payload of one PCIe TLP; completions split at it",
	 "with 34 bytes per TLP it gives the page's 69.29 ns completion", NULL,
	 0, FIELD(nic.pcie_max_payload_bytes)},
	{"nic", "PcieTlpOverhead", UET_ATTR_SIZE, "34", 0, 256, "bytes",
	 "bytes each TLP adds on the link (headers, framing, CRC)",
	 "gives the page's 1.55 ns read request and 69.29 ns completion", NULL,
	 0, FIELD(nic.pcie_tlp_overhead_bytes)},
	{"nic", "PcieTxBufferSize", UET_ATTR_SIZE, "16KiB", 64, GIB, "bytes",
	 "transaction-layer buffer of each PCIe direction",
	 "holds a few full packets' TLPs, enough to keep the link busy", NULL,
	 0, FIELD(nic.pcie_tx_buffer_size_bytes)},
	{"nic", "EgressPoolSize", UET_ATTR_SIZE, "256KiB", 0, GIB, "bytes",
	 "egress pool of the data class; reserved at wire size per packet",
	 "62 full packets, 5 us at 400 Gbps: more than ever waits for the "
	 "port",
	 NULL, 0, FIELD(nic.egress_pool_size_bytes)},
	{"nic", "IngressPoolSize", UET_ATTR_SIZE, "1MiB", 0, GIB, "bytes",
	 "ingress pool of the data class; charged at IP size per packet",
	 "250 full packets; PCIe (504 Gbps) drains it faster than the "
	 "port fills it",
	 NULL, 0, FIELD(nic.ingress_pool_size_bytes)},
	{"nic", "PrefetchBufferEnable", UET_ATTR_BOOL, "false", 0, 1, "",
	 "fetch payloads ahead into the NIC-wide prefetch buffer",
	 "the page's default", NULL, 0, FIELD(nic.prefetch_buffer_enable)},
	{"nic", "PrefetchBufferSize", UET_ATTR_SIZE, "160KiB", 0, GIB, "bytes",
	 "size of the prefetch buffer; used only when it is enabled",
	 "a little over half the default window, as the page describes", NULL,
	 0, FIELD(nic.prefetch_buffer_size_bytes)},
	{"nic", "TrimmingEnabled", UET_ATTR_BOOL, "false", 0, 1, "",
	 "mark first transmissions trimmable (the switches trim)",
	 "the page's default", NULL, 0, FIELD(nic.trimming_enabled)},
	{"nic", "PDCGroupsEnabled", UET_ATTR_BOOL, "true", 0, 1, "",
	 "PDCs to one peer share one window, balancer and turn",
	 "the page's default", NULL, 0, FIELD(nic.pdc_groups_enabled)},
	{"nic", "TransmitStartDelay", UET_ATTR_DURATION, "15ns", 0,
	 DURATION_MAX, "ps", "from the doorbell to the transmit process",
	 "the page's 15 ns", NULL, 0, FIELD(nic.transmit_start_delay_ps)},
	{"nic", "DscpNoTrim", UET_ATTR_UINT, "0", 0, 63, "",
	 "codepoint of packets a switch must not trim",
	 "CS0, what plain data uses", NULL, 0, FIELD(nic.dscp_no_trim)},
	{"nic", "DscpTrimmable", UET_ATTR_UINT, "1", 0, 63, "",
	 "codepoint of trimmable first transmissions",
	 "next free value in class 0", NULL, 0, FIELD(nic.dscp_trimmable)},
	{"nic", "DscpTrimmableRetransmit", UET_ATTR_UINT, "2", 0, 63, "",
	 "codepoint of trimmable retransmissions", "next free value in class 0",
	 NULL, 0, FIELD(nic.dscp_trimmable_retransmit)},
	{"nic", "DscpControl", UET_ATTR_UINT, "8", 0, 63, "",
	 "codepoint of ACKs, NACKs and probes",
	 "CS1, so DSCP / 8 puts control in class 1", NULL, 0,
	 FIELD(nic.dscp_control)},
	{"nic", "DscpTrimmed", UET_ATTR_UINT, "9", 0, 63, "",
	 "codepoint a switch writes on a trimmed packet",
	 "in class 1 with control, as the page's classes want", NULL, 0,
	 FIELD(nic.dscp_trimmed)},
	{"nic", "DscpTrimmedLastHop", UET_ATTR_UINT, "10", 0, 63, "",
	 "codepoint of a packet trimmed on a port facing a NIC",
	 "in class 1, next to DscpTrimmed", NULL, 0,
	 FIELD(nic.dscp_trimmed_last_hop)},
	{"nic", "RetransmitTrimmable", UET_ATTR_BOOL, "true", 0, 1, "",
	 "retransmissions carry the trimmable-retransmission codepoint",
	 "the page's default", NULL, 0, FIELD(nic.retransmit_trimmable)},
	{"nic", "UdpDestPort", UET_ATTR_UINT, "4793", 1, 65535, "",
	 "UDP destination port of UET packets", "the IANA port for UET", NULL,
	 0, FIELD(nic.udp_dest_port)},
	{"nic", "PFCXoff", UET_ATTR_SIZE, "768KiB", 0, GIB, "bytes",
	 "data ingress pool bytes at which the NIC pauses the lossless "
	 "classes (switch.PFCClasses) of its data codepoints; at most "
	 "IngressPoolSize",
	 "leaves a quarter of the default pool as headroom, four times "
	 "what a 500 ns, 400 Gbps link has in flight",
	 NULL, 0, FIELD(nic.pfc_xoff_bytes)},
	{"nic", "PFCXon", UET_ATTR_SIZE, "512KiB", 0, GIB, "bytes",
	 "data ingress pool bytes at or below which a pausing NIC resumes "
	 "its upstream; below PFCXoff",
	 "a 256 KiB gap: PCIe drains it in about 4 us, so pauses are few "
	 "and long rather than many and short",
	 NULL, 0, FIELD(nic.pfc_xon_bytes)},

	/* pds: ScalaUETPdsManager */
	{"pds", "AckRequestEveryNthPacket", UET_ATTR_UINT, "1", 1, 65535, "",
	 "every Nth data packet of a PDC carries the ACK-request flag",
	 "the page's default: every packet is acknowledged", NULL, 0,
	 FIELD(pds.ack_request_every_nth_packet)},
	{"pds", "AckRequestFirstPacket", UET_ATTR_BOOL, "true", 0, 1, "",
	 "count from the PDC's first packet (1st, N+1th, ...)",
	 "the first ACK comes back at once, so the first RTT sample is early",
	 NULL, 0, FIELD(pds.ack_request_first_packet)},
	{"pds", "AckRequestLastPacket", UET_ATTR_BOOL, "true", 0, 1, "",
	 "the last packet of each message carries the flag too",
	 "a message completes without waiting for a later Nth packet", NULL, 0,
	 FIELD(pds.ack_request_last_packet)},
	{"pds", "InitialRetransmitTimeout", UET_ATTR_DURATION, "auto", 1,
	 DURATION_MAX, "ps", "scale of the per-packet retransmission timer",
	 "auto: the fabric's RTT plus a full queue at every switch port of "
	 "the longest path, a frame ahead of the ACK on each link, the ACK "
	 "hold and the packets to the next ACK request; no longer",
	 NULL, 0, FIELD(pds.initial_retransmit_timeout_ps)},
	{"pds", "MaxExponentialRTOBackoffCount", UET_ATTR_UINT, "6", 0, 20, "",
	 "doublings of a packet's timeout before it stays fixed",
	 "caps the timeout at 64 x InitialRetransmitTimeout", NULL, 0,
	 FIELD(pds.max_exponential_rto_backoff_count)},
	{"pds", "FixedRexmitTimeEnable", UET_ATTR_BOOL, "false", 0, 1, "",
	 "every attempt uses FixedRexmitTimeout, with no doubling",
	 "the page's default", NULL, 0, FIELD(pds.fixed_rexmit_time_enable)},
	{"pds", "FixedRexmitTimeout", UET_ATTR_DURATION, "100us", 1,
	 DURATION_MAX, "ps", "timeout used when FixedRexmitTimeEnable is true",
	 "the reference's minimum RTO for its 3-tier tree at 100 Gbps with "
	 "one-BDP queues",
	 NULL, 0, FIELD(pds.fixed_rexmit_timeout_ps)},
	{"pds", "InitialBaseRTT", UET_ATTR_DURATION, "auto", 1, DURATION_MAX,
	 "ps", "base RTT a new group starts with",
	 "auto: the fabric's longest unloaded RTT, a full data packet there "
	 "and its ACK back (the estimate only falls, so it must not start "
	 "below the real one)",
	 NULL, 0, FIELD(pds.initial_base_rtt_ps)},
	{"pds", "CongestionControl", UET_ATTR_ENUM, "nscc", 0, 1, "",
	 "congestion control of each group: nscc, or a fixed window",
	 "the NIC's algorithm; fixed reproduces the data-path page's figures",
	 cc_names, 2, FIELD(pds.congestion_control)},
	{"pds", "FixedWindow", UET_ATTR_SIZE, "0", 0, GIB, "bytes",
	 "window of the fixed algorithm; 0 means 1.5 x DataRate x "
	 "InitialBaseRTT",
	 "0 follows the rate and RTT: 162840 bytes at the defaults", NULL, 0,
	 FIELD(pds.fixed_window_bytes)},
	{"pds", "NsccTargetQdelay", UET_ATTR_DURATION, "auto", 0, DURATION_MAX,
	 "ps", "NSCC target queueing delay; 0 derives it as auto does",
	 "auto: 0.75 x InitialBaseRTT with TrimmingEnabled, 1 x without (the "
	 "reference's)",
	 NULL, 0, FIELD(pds.nscc_target_qdelay_ps)},
	{"pds", "NsccInitialWindow", UET_ATTR_SIZE, "0", 0, GIB, "bytes",
	 "NSCC window of a new group; 0 means the maximum window",
	 "0: start at line rate, 1.5 x DataRate x InitialBaseRTT", NULL, 0,
	 FIELD(pds.nscc_initial_window_bytes)},
	{"pds", "LoadBalancing", UET_ATTR_ENUM, "reps", 0, 3, "",
	 "entropy choice of each group: reps, oblivious, single-path, bitmap",
	 "the NIC's balancer, Recycled Entropy Packet Spraying", lb_names, 4,
	 FIELD(pds.load_balancing)},
	{"pds", "RepsCacheSize", UET_ATTR_UINT, "8", 1, 64, "",
	 "REPS: entries of the cache of recycled entropy values",
	 "the REPS paper's cache, under 25 bytes of state", NULL, 0,
	 FIELD(pds.reps_cache_size)},
	{"pds", "RepsUsableLifetime", UET_ATTR_UINT, "1", 1, 255, "",
	 "REPS: packets one recycled value may be reused for",
	 "one ACK per packet at AckRequestEveryNthPacket 1", NULL, 0,
	 FIELD(pds.reps_usable_lifetime)},
	{"pds", "RepsFreezeTime", UET_ATTR_DURATION, "100us", 1, DURATION_MAX,
	 "ps", "REPS: how long a timeout freezes the cache",
	 "the REPS paper's runs", NULL, 0, FIELD(pds.reps_freeze_ps)},
	{"pds", "RepsExploreCount", UET_ATTR_UINT, "16", 0, 65535, "",
	 "REPS: random entropy values sent after a freeze ends",
	 "the UEC simulator's value", NULL, 0, FIELD(pds.reps_explore_count)},
	{"pds", "BitmapPaths", UET_ATTR_UINT, "256", 1, 256, "",
	 "bitmap balancer: entropy values sprayed over, each with a penalty",
	 "more values than ECMP paths in any fabric we model", NULL, 0,
	 FIELD(pds.bitmap_paths)},

	/* switch */
	{"switch", "queue_limit", UET_ATTR_SIZE, "auto", 0, GIB, "bytes",
	 "limit of each traffic class queue of each egress port",
	 "auto: one BDP (the port's link rate x the fabric's RTT) with "
	 "switch trimming, five without, as the reference; a port of "
	 "another rate gets its own",
	 NULL, 0, FIELD(sw.queue_limit_bytes)},
	{"switch", "drop_rate", UET_ATTR_PPM, "0", 0, 1000000, "ppm",
	 "probability that the switch drops a packet at random",
	 "no random loss unless asked for", NULL, 0, FIELD(sw.drop_rate_ppm)},
	{"switch", "UETPolicyEnabled", UET_ATTR_BOOL, "true", 0, 1, "",
	 "class from the codepoint's role (control TC2, trimmed TC1, the "
	 "rest TC0), 1.5 x queue_limit for trimmable retransmissions; "
	 "false: DSCP / 8",
	 "every NIC is a UET NIC, so the policy that knows their roles", NULL,
	 0, FIELD(sw.uet_policy_enabled)},
	{"switch", "TrimmingEnabled", UET_ATTR_BOOL, "auto", 0, 1, "",
	 "trim a trimmable packet that cannot be queued to its headers and "
	 "send it in TC1",
	 "auto: on when the NICs mark packets trimmable (nic.TrimmingEnabled) "
	 "and the switch may trim (UET policy, PFC off); else drop tail",
	 NULL, 0, FIELD(sw.trimming_enabled)},
	{"switch", "Scheduler", UET_ATTR_ENUM, "strict", 0, 1, "",
	 "how a port picks its next class: strict priority (highest TC "
	 "first) or weighted round robin",
	 "control and trimmed headers ahead of data, as in the page",
	 sched_names, 2, FIELD(sw.scheduler)},
	{"switch", "WrrWeights", UET_ATTR_STRING, "1,1,1,1,1,1,1,1", 0, 0, "",
	 "Scheduler wrr: frames each class sends per turn, TC0 first, up "
	 "to 8 weights of 1 to 255 (missing ones are 1)",
	 "equal shares", NULL, 0, FIELD(sw.wrr_weights)},
	{"switch", "external_hosts", UET_ATTR_STRING, "", 0, 0, "",
	 "realtime only: IPv4 addresses (of the host plan, comma-separated) "
	 "of hosts whose switch port faces a UET endpoint that is not ours",
	 "every host is an emulated NIC unless named", NULL, 0,
	 FIELD(sw.external_hosts)},
	{"switch", "external_lost_copies", UET_ATTR_UINT, "0", 0, 16, "",
	 "conformance runs: the first data packet each external host sends "
	 "is lost this many times (that PSN of that PDC), at its switch "
	 "port once received there, after a capture of the link saw it",
	 "nothing lost: a loss for the timeout-backoff case of "
	 "scripts/uet-conform only",
	 NULL, 0, FIELD(sw.external_lost_copies)},
	{"switch", "ECNEnabled", UET_ATTR_BOOL, "true", 0, 1, "",
	 "CE-mark ECT packets on their class queue's occupancy",
	 "the NICs send ECT(1), so congestion shows", NULL, 0,
	 FIELD(sw.ecn_enabled)},
	{"switch", "ECNMarkAt", UET_ATTR_ENUM, "dequeue", 0, 1, "",
	 "mark when the packet leaves its queue, or when it joins it",
	 "dequeue marking tells the receiver the freshest state", ecn_at_names,
	 2, FIELD(sw.ecn_mark_at)},
	{"switch", "ECNKmin", UET_ATTR_SIZE, "auto", 0, GIB, "bytes",
	 "class queue bytes below which no packet is marked; between ECNKmin "
	 "and ECNKmax the probability rises linearly",
	 "auto: 20% of each port's BDP (of queue_limit when it is set), the "
	 "reference's",
	 NULL, 0, FIELD(sw.ecn_kmin_bytes)},
	{"switch", "ECNKmax", UET_ATTR_SIZE, "auto", 0, GIB, "bytes",
	 "class queue bytes at or above which every ECT packet is marked",
	 "auto: 80% of each port's BDP (of queue_limit when it is set), the "
	 "reference's",
	 NULL, 0, FIELD(sw.ecn_kmax_bytes)},
	{"switch", "occupancy_ports", UET_ATTR_STRING, "", 0, 0, "",
	 "comma-separated switch ports (SWITCH:LINK, or hostH) whose queue "
	 "occupancy switch-occupancy.csv samples",
	 "no time series unless asked for", NULL, 0, FIELD(sw.occupancy_ports)},
	{"switch", "occupancy_interval", UET_ATTR_DURATION, "1us", 1,
	 DURATION_MAX, "ps", "period of the switch-occupancy.csv samples",
	 "a dozen samples per 4 us base RTT", NULL, 0,
	 FIELD(sw.occupancy_interval_ps)},
	{"switch", "PFCClasses", UET_ATTR_STRING, "", 0, 0, "",
	 "lossless traffic classes (802.1Qbb PFC), up to 8 class numbers 0 "
	 "to 7 separated by commas, e.g. 0; empty: PFC off; not with "
	 "TrimmingEnabled",
	 "drop tail or trimming unless a scenario asks for lossless classes",
	 NULL, 0, FIELD(sw.pfc_classes)},
	{"switch", "PFCXoff", UET_ATTR_SIZE, "64KiB", 1, GIB, "bytes",
	 "bytes of a lossless class received on one port and still in the "
	 "switch at which it sends a pause frame out of that port",
	 "15 full frames per ingress port: an 8-to-1 incast pauses before "
	 "the bottleneck holds 1 MiB",
	 NULL, 0, FIELD(sw.pfc_xoff_bytes)},
	{"switch", "PFCXon", UET_ATTR_SIZE, "32KiB", 0, GIB, "bytes",
	 "bytes at or below which a paused upstream is resumed (quanta 0); "
	 "below PFCXoff",
	 "half of PFCXoff: a few microseconds between XOFF and XON", NULL, 0,
	 FIELD(sw.pfc_xon_bytes)},
	{"switch", "PFCHeadroom", UET_ATTR_SIZE, "128KiB", 0, GIB, "bytes",
	 "bytes above PFCXoff an ingress port may still fill in a lossless "
	 "class (what is in flight while the pause travels); a frame "
	 "beyond it is dropped and counted",
	 "twice the 59 KB a 400 Gbps, 500 ns link holds in flight: two "
	 "delays and two full frames",
	 NULL, 0, FIELD(sw.pfc_headroom_bytes)},
	{"switch", "PFCPauseQuanta", UET_ATTR_UINT, "65535", 1, 65535, "",
	 "pause time every XOFF frame asks for (switches and NICs), in "
	 "quanta of 512 bit times at the link rate; re-sent at half of it "
	 "while still over XON",
	 "the longest pause (83.9 us at 400 Gbps); XON ends it early", NULL, 0,
	 FIELD(sw.pfc_pause_quanta)},

	/* records */
	{"records", "MaxFileSize", UET_ATTR_SIZE, "16GiB", MIB,
	 (uint64_t)1 << 50, "bytes",
	 "most bytes one record or capture file may take: a run whose "
	 "periodic records (uet-transport-stats, switch-occupancy) would "
	 "pass it is refused before it starts, and a file that reaches it "
	 "stops the run",
	 "a long run's captures fit, and a period of 1ps does not fill the "
	 "disk",
	 NULL, 0, FIELD(records.max_file_bytes)},
	{"records", "EnableTransportStats", UET_ATTR_BOOL, "true", 0, 1, "",
	 "write uet-transport-stats rows", "the page's default", NULL, 0,
	 FIELD(records.enable_transport_stats)},
	{"records", "NDStatsReportInterval", UET_ATTR_DURATION, "10us", 1,
	 DURATION_MAX, "ps", "period of the uet-transport-stats rows",
	 "1000 rows over the default 10 ms run", NULL, 0,
	 FIELD(records.nd_stats_report_interval_ps)},
	{"records", "EnableEventLogging", UET_ATTR_BOOL, "true", 0, 1, "",
	 "write uet-events rows (PDCs, messages, completions)",
	 "a few rows per message, and the completions are what runs study",
	 NULL, 0, FIELD(records.enable_event_logging)},
	{"records", "EnableUetMonitor", UET_ATTR_BOOL, "false", 0, 1, "",
	 "write one uet-monitor row per packet",
	 "a row per packet is large; off unless asked for", NULL, 0,
	 FIELD(records.enable_uet_monitor)},
	{"records", "EnableFlowSummary", UET_ATTR_BOOL, "true", 0, 1, "",
	 "write one flow-summary row per message",
	 "small, and the first thing to look at", NULL, 0,
	 FIELD(records.enable_flow_summary)},
	{"records", "EnablePcap", UET_ATTR_BOOL, "true", 0, 1, "",
	 "write pcap captures with virtual timestamps",
	 "frames are the point of an emulator", NULL, 0,
	 FIELD(records.enable_pcap)},
	{"records", "PcapHosts", UET_ATTR_STRING, "auto", 0, 0, "",
	 "whose links EnablePcap captures: auto, all, or host numbers and "
	 "ranges (\"0-15,1024\"); auto is every host up to 1024 hosts, "
	 "else hosts 0-15",
	 "a file a host is readable up to a thousand hosts; past that the "
	 "files, not the frames, would be the run's cost",
	 NULL, 0, FIELD(records.pcap_hosts)},
	{"records", "EnableCcTrace", UET_ATTR_BOOL, "false", 0, 1, "",
	 "write one uet-cc-trace row per window change of a group",
	 "a row per ACK at worst; off unless asked for", NULL, 0,
	 FIELD(records.enable_cc_trace)},
	{"records", "EnableSwitchStats", UET_ATTR_BOOL, "true", 0, 1, "",
	 "write switch-stats rows (per switch port and traffic class) at "
	 "the end of the run",
	 "a few rows per port, and where the bytes went is the question", NULL,
	 0, FIELD(records.enable_switch_stats)},

	/* workload: the sources other than messages */
	{"workload", "chakra", UET_ATTR_PATH, "", 0, 0, "",
	 "Chakra traces PREFIX.<rank>.et, one per host; relative to the "
	 "scenario's folder; not with messages",
	 "no trace unless asked for", NULL, 0, FIELD(workload.chakra)},
	{"workload", "reduce_chunk", UET_ATTR_DURATION, "0ns", 0, DURATION_MAX,
	 "ps",
	 "time a rank spends reducing one received chunk of a decomposed "
	 "ring all_reduce or reduce_scatter",
	 "the network alone unless the compute is modelled", NULL, 0,
	 FIELD(workload.reduce_chunk_ps)},
	COLL_ROW("all_reduce", ring_direct, "ring", 0),
	COLL_ROW("reduce", direct_tree, "direct", 1),
	COLL_ROW("all_gather", ring_direct, "ring", 2),
	COLL_ROW("gather", direct_only, "direct", 3),
	COLL_ROW("scatter", direct_only, "direct", 4),
	COLL_ROW("broadcast", tree_ring, "tree", 5),
	COLL_ROW("all_to_all", direct_only, "direct", 6),
	COLL_ROW("reduce_scatter", ring_direct, "ring", 7),
	COLL_ROW("reduce_scatter_block", ring_direct, "ring", 8),
	COLL_ROW("barrier", ring_direct, "ring", 9),
	{"workload", "matrix", UET_ATTR_PATH, "", 0, 0, "",
	 "connection matrix in uet-htsim's format (timed and triggered "
	 "messages); relative to the scenario's folder; one source only",
	 "no matrix unless asked for", NULL, 0, FIELD(workload.matrix)},

	/* workload.generate: a traffic generator (docs/workload.md) */
	{"workload.generate", "pattern", UET_ATTR_ENUM, "none", 0, 4, "",
	 "traffic pattern the hosts' messages follow; one source only",
	 "no generator unless asked for", pattern_names, 5,
	 FIELD(workload.generate.pattern)},
	{"workload.generate", "size", UET_ATTR_SIZE, "1MiB", 0, 0xffffffffu,
	 "bytes", "size of every generated message",
	 "the size of the incast examples", NULL, 0,
	 FIELD(workload.generate.size_bytes)},
	{"workload.generate", "count", UET_ATTR_UINT, "1", 1,
	 UET_CONFIG_MESSAGES_MAX, "",
	 "messages each host sends to each of its destinations",
	 "one round of the pattern", NULL, 0, FIELD(workload.generate.count)},
	{"workload.generate", "start", UET_ATTR_DURATION, "0ns", 0,
	 DURATION_MAX, "ps", "virtual time each host posts its first message",
	 "every host starts at once, the hardest case", NULL, 0,
	 FIELD(workload.generate.start_ps)},
	{"workload.generate", "interval", UET_ATTR_DURATION, "0ns", 0,
	 DURATION_MAX, "ps", "time between two successive posts of one host",
	 "all of a host's messages at once", NULL, 0,
	 FIELD(workload.generate.interval_ps)},
	{"workload.generate", "dst", UET_ATTR_UINT, "0", 0,
	 UET_CONFIG_HOSTS_MAX - 1, "",
	 "incast only: the host every other host sends to",
	 "host 0, as in the incast examples", NULL, 0,
	 FIELD(workload.generate.dst)},
	{"workload.generate", "seed", UET_ATTR_UINT, "0", 0, UINT64_MAX, "",
	 "seed of the permutation's and uniform's random choices; 0 takes "
	 "run.seed",
	 "reruns are identical, and a new run.seed gives new choices", NULL, 0,
	 FIELD(workload.generate.seed)},

	/* workload.messages: offsets are into struct uet_workload_message */
	{"workload.messages", "src", UET_ATTR_UINT, NULL, 0,
	 UET_CONFIG_HOSTS_MAX - 1, "", "sending host, < topology.hosts",
	 "required", NULL, 0, MSG_FIELD(src)},
	{"workload.messages", "dst", UET_ATTR_UINT, NULL, 0,
	 UET_CONFIG_HOSTS_MAX - 1, "",
	 "receiving host, < topology.hosts and not src", "required", NULL, 0,
	 MSG_FIELD(dst)},
	/* A message's size is a 32-bit field of the NIC (as a generated
	 * one's, a matrix's and a Chakra node's): 4 GiB - 1 at most. */
	{"workload.messages", "size", UET_ATTR_SIZE, NULL, 0, 0xffffffffu,
	 "bytes", "message size (4 GiB - 1 at most); 0 sends one empty packet",
	 "required", NULL, 0, MSG_FIELD(size_bytes)},
	{"workload.messages", "at", UET_ATTR_DURATION, "0ns", 0, DURATION_MAX,
	 "ps", "virtual time the host posts the message",
	 "messages start at the beginning unless told", NULL, 0,
	 MSG_FIELD(at_ps)},
};

const struct uet_attr *uet_config_attrs(size_t *count)
{
	*count = sizeof(attrs) / sizeof(attrs[0]);
	return attrs;
}

const char *uet_attr_type_name(enum uet_attr_type type)
{
	switch (type) {
	case UET_ATTR_DURATION:
		return "duration";
	case UET_ATTR_RATE:
		return "rate";
	case UET_ATTR_SIZE:
		return "size";
	case UET_ATTR_BOOL:
		return "bool";
	case UET_ATTR_UINT:
		return "uint";
	case UET_ATTR_PPM:
		return "ppm";
	case UET_ATTR_ENUM:
		return "enum";
	case UET_ATTR_STRING:
		return "string";
	case UET_ATTR_PATH:
		return "path";
	}
	return "?";
}
