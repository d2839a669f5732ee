/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a run needs of the machine, derived from the scenario before EAL
 * starts: the mbuf pool (how many frames the hosted roles can hold at
 * once), EAL memory, the lcores. docs/performance.md, "Sizing", gives the
 * reasoning.
 *
 * Every data frame in the fabric belongs to some sender's window, so the
 * frames in flight are bounded by the windows the senders can have open
 * at once (one per destination they send to, each at most the congestion
 * control's largest window); they are also bounded by what the buffers on
 * the way can hold (switch queues, NIC pools). The pool takes the smaller
 * of the two, with room for retransmitted copies, control frames and the
 * lcores' mempool caches.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "uet_cc.h"
#include "uet_port.h"
#include "uet_workload.h"
#include "run_memlimit.h"
#include "run_sizing.h"
#include "run_workload.h"

/* mbufs per data frame: the header, the payload (an external buffer), the
 * ACK it may cause; over ports each of the two frames also carries a
 * trailer segment. Embedded, the payload's mbuf comes from a pool of its
 * own (uet_port_pool_create_attach), sized apart. */
#define SIZING_MBUFS_PER_FRAME_LOCAL 2u
#define SIZING_MBUFS_PER_FRAME_PORTS 5u
/* mbufs an lcore's mempool cache may hold of one pool (1.5 x its 256). */
#define SIZING_CACHE_MBUFS_PER_LCORE 384u
/* Slack beyond the count, as the pool rounds to a power of two minus 1. */
#define SIZING_POOL_SLACK_MBUFS 4095u
/* Retransmissions can put a second copy of a window in flight. */
#define SIZING_COPIES 2u
/* Without run.lcores, an embedded run of at most this many hosts takes
 * one lcore (run_size(): why). */
#define SIZING_ONE_LCORE_HOSTS 16u
/* Control frames per host beyond those of its windows: probes, CP
 * CLOSEs, PFC pauses, lockstep control frames. */
#define SIZING_CTRL_PER_HOST 64u
/* Of the switch queues: TC0, 1.5 x for trimmable retransmissions, and
 * the control class; the trimmed class holds headers only. */
#define SIZING_QUEUE_SHARE_X2 7u /* (1 + 1.5 + 1) x 2 */
/*
 * EAL's own memory when the pools are the process's (the embedded run):
 * the two pools' headers with their per-lcore caches, about 1 MiB each
 * whatever the pools' size, EAL's tables, the malloc heap. A 1,024-host run
 * on 2 lcores still starts with 3 MiB (2 is too little). Each MiB costs
 * the start 256 entries of EAL's memseg array, each written: 48 MiB were
 * 145 page faults, a tenth of a 16-host run's CPU time.
 */
#define SIZING_EAL_BASE_MB 8u
/* Measured peak memory (docs/performance.md, "Sizing"): of an idle NIC
 * (its model, record view, rings), of a fabric port, of a data frame in
 * flight beyond its mbufs (queue and ring entries, its timer, PSN slots),
 * and of the process with none (binary, libraries, EAL, records' stdio
 * buffers). */
#define SIZING_NIC_BYTES 4096u
#define SIZING_PORT_BYTES 1024u
/* Of a workload message, whatever else the run holds (its place in the
 * program, its NICs' state, its rows): an all-to-all of 256 hosts took
 * 318 MiB at its peak with 65,280 messages and 877 MiB with 261,120
 * (count 4), 2,990 bytes a message more; 1,024 hosts' 1,047,552 took
 * 4,617 MiB, which only this term brings near (4,084 expected). */
#define SIZING_MESSAGE_BYTES 3072u
#define SIZING_FRAME_STATE_BYTES 320u
#define SIZING_PROCESS_BYTES (UINT64_C(40) << 20)
#define SIZING_EAL_PORTS_MB 448u

/* Bytes a full-size data frame takes on the link (the page's payload +
 * 106). */
static uint64_t frame_bytes(const struct uet_scenario *sc)
{
	return (uint64_t)sc->nic.rdma_data_mss_bytes + 106u;
}

/* The largest window a group can open, bytes. */
static uint64_t max_window_bytes(const struct uet_scenario *sc)
{
	struct uet_nscc_derived d;
	uint64_t w = sc->derived.fixed_window_bytes;

	/* NSCC's largest window only falls with the base RTT; its initial
	 * window may be set above it. */
	if (sc->pds.congestion_control == UET_SCENARIO_CC_NSCC &&
	    uet_scenario_nscc(sc, &d) == 0) {
		w = d.max_window_bytes;
		if (d.initial_window_bytes > w)
			w = d.initial_window_bytes;
	}
	return w;
}

static int pair_cmp(const void *a, const void *b)
{
	const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * For every host, the destinations it sends to (its windows that can be
 * open at once) and the sources that send to it, and the workload's
 * messages. List: counted from the list; generator: from its pattern; a
 * matrix or a trace: from the program's sends. Only what the pattern
 * cannot say builds the program: an all-to-all of 1,024 hosts built took
 * 405 MB before the memory it needs was checked, and a 300 MB cgroup
 * killed the run there without a word.
 */
static int peer_counts(const struct uet_scenario *sc, uint32_t *out,
		       uint32_t *in, uint64_t *messages)
{
	const struct uet_workload_generate *g = &sc->workload.generate;
	const struct uet_workload_config *w = &sc->workload;
	const uint32_t hosts = sc->topology.hosts;
	uint64_t *pairs, n = 0, i;
	struct run_wl *wl = NULL;
	int rc;

	if (!run_wl_wanted(sc)) {
		*messages = w->message_count;
		pairs = calloc(w->message_count + 1u, sizeof(*pairs));
		if (pairs == NULL)
			return -ENOMEM;
		for (i = 0; i < w->message_count; i++)
			pairs[n++] = (uint64_t)w->messages[i].src << 32 |
				     w->messages[i].dst;
		qsort(pairs, n, sizeof(*pairs), pair_cmp);
		for (i = 0; i < n; i++) {
			if (i > 0 && pairs[i] == pairs[i - 1])
				continue;
			out[pairs[i] >> 32]++;
			in[(uint32_t)pairs[i]]++;
		}
		free(pairs);
		return 0;
	}
	if (g->pattern == UET_GENERATE_INCAST ||
	    g->pattern == UET_GENERATE_PERMUTATION) {
		/* One destination per sender; a receiver may have them all. */
		for (i = 0; i < hosts; i++) {
			out[i] = 1;
			in[i] = hosts - 1u;
		}
		*messages =
			(uint64_t)(hosts - 1u +
				   (g->pattern == UET_GENERATE_PERMUTATION)) *
			g->count;
		return 0;
	}
	if (g->pattern == UET_GENERATE_ALL_TO_ALL) {
		for (i = 0; i < hosts; i++)
			out[i] = in[i] = hosts - 1u;
		*messages = (uint64_t)hosts * (hosts - 1u) * g->count;
		return 0;
	}
	rc = run_wl_create(&wl, sc);
	if (rc < 0)
		return rc;
	*messages = run_wl_messages(wl);
	for (i = 0; i < hosts; i++) {
		out[i] = run_wl_send_peers(wl, (uint32_t)i);
		/* A receiver's senders are not counted per rank: assume
		 * every sender may send to it. */
		in[i] = hosts - 1u;
	}
	run_wl_free(wl);
	return 0;
}

/* Ports of the scenario's fabric (both ends of every link between
 * switches, one per host). */
static uint64_t fabric_ports(const struct uet_scenario *sc)
{
	const struct uet_topology_config *t = &sc->topology;
	uint64_t h = t->hosts;

	switch (t->kind) {
	case UET_TOPOLOGY_LEAF_SPINE:
		return h + 2u * (uint64_t)t->leaves * t->spines;
	case UET_TOPOLOGY_FAT_TREE:
		/* k^3/4 hosts; k^3/4 edge-agg and k^3/4 agg-core links. */
		return h + 4u * h;
	default:
		return h;
	}
}

/* Frames every switch queue of the fabric holds when full. */
static uint64_t switch_frames(const struct uet_scenario *sc)
{
	uint64_t q = sc->sw.queue_limit_bytes / frame_bytes(sc) + 1u;

	return fabric_ports(sc) * q * SIZING_QUEUE_SHARE_X2 / 2u;
}

/* Descriptors a run takes besides its captures: records, logs, EAL's
 * own, the ports' sockets. */
#define SIZING_FILES_BASE 256u

/*
 * The open files the captures need (one per captured host, in a process
 * that runs the switch), within RLIMIT_NOFILE: the soft limit is raised
 * to what they need when the hard one allows; else the run is refused
 * before anything is written, naming records.PcapHosts.
 */
static int size_files(const struct uet_scenario *sc, enum uet_run_role role,
		      const char *prog)
{
	uint64_t need = SIZING_FILES_BASE;
	struct rlimit lim;
	uint32_t h;

	if (role == UET_RUN_NICS || getrlimit(RLIMIT_NOFILE, &lim) < 0)
		return 0;
	for (h = 0; sc->records.enable_pcap && h < sc->topology.hosts; h++)
		need += uet_scenario_pcap_host(sc, h);
	if (lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur >= need)
		return 0;
	if (lim.rlim_max == RLIM_INFINITY || lim.rlim_max >= need) {
		lim.rlim_cur = need;
		if (setrlimit(RLIMIT_NOFILE, &lim) == 0)
			return 0;
	}
	fprintf(stderr,
		"%s: records.PcapHosts = %s: %" PRIu64
		" capture files and the run's other files need %" PRIu64
		" open files, more than this process may have (ulimit -n: "
		"%llu): capture fewer hosts, or raise the limit\n",
		prog, sc->records.pcap_hosts, need - SIZING_FILES_BASE, need,
		(unsigned long long)lim.rlim_max);
	return -EMFILE;
}

/*
 * The run's peak memory, expected: the models (every hosted NIC; the
 * fabric's ports where the switch runs) and the frames in flight when
 * every window is open once (their mbufs, and the state the models keep
 * for each: queue and ring entries, timers, PSN slots). The figures per
 * object are measured (docs/performance.md, "Sizing"); what the run
 * reserves of its address space adds EAL's memory and the pools' rings.
 */
static void size_expect(const struct uet_scenario *sc, enum uet_run_role role,
			bool local, uint32_t nics_here,
			struct run_sizing *sizing)
{
	const uint64_t frame_mbuf_bytes =
		local ? 2u * uet_port_pool_obj_bytes(sizing->mbuf_data_bytes) +
				uet_port_pool_attach_obj_bytes()
		      : (uint64_t)SIZING_MBUFS_PER_FRAME_PORTS *
				uet_port_pool_obj_bytes(
					sizing->mbuf_data_bytes);
	uint64_t model = (uint64_t)nics_here * SIZING_NIC_BYTES;

	if (role != UET_RUN_NICS)
		model += fabric_ports(sc) * SIZING_PORT_BYTES;
	sizing->model_bytes = model;
	sizing->messages_bytes = sizing->messages * SIZING_MESSAGE_BYTES;
	sizing->frames_bytes = sizing->expected_frames *
			       (frame_mbuf_bytes + SIZING_FRAME_STATE_BYTES);
	sizing->expected_bytes = SIZING_PROCESS_BYTES + model +
				 sizing->messages_bytes + sizing->frames_bytes;
	sizing->reserved_bytes =
		((uint64_t)sizing->eal_mem_mb << 20) + sizing->expected_bytes +
		(local ? 8u * ((uint64_t)sizing->mbufs + sizing->payload_mbufs)
		       : 0);
}

/*
 * The expected peak within what the machine and the process's cgroups
 * leave, and the address space within RLIMIT_AS (run_memlimit.c); else
 * the run is refused before anything starts, with the figures.
 */
static int size_check_memory(const struct uet_scenario *sc,
			     const struct run_sizing *sizing, const char *prog)
{
	struct run_memlimit lim;

	run_memlimit_read("", &lim);
	if (sizing->expected_bytes > lim.avail_bytes) {
		fprintf(stderr,
			"%s: the run needs about %" PRIu64
			" MiB (the models of %u hosts about %" PRIu64
			" MiB; %" PRIu64 " workload messages about %" PRIu64
			" MiB; up to %" PRIu64 " frames in flight, every "
			"window open, about %" PRIu64 " MiB), more than the "
			"%" PRIu64 " MiB %s leaves: run fewer hosts or "
			"messages, or smaller windows "
			"(pds.CongestionControl's) or queues "
			"(switch.queue_limit), or give the run more memory\n",
			prog, sizing->expected_bytes >> 20, sc->topology.hosts,
			sizing->model_bytes >> 20, sizing->messages,
			sizing->messages_bytes >> 20, sizing->expected_frames,
			sizing->frames_bytes >> 20, lim.avail_bytes >> 20,
			lim.avail_what);
		return -ENOMEM;
	}
	if (sizing->reserved_bytes > lim.as_bytes) {
		fprintf(stderr,
			"%s: the run reserves about %" PRIu64
			" MiB of address space (its frame buffers: run.mbufs "
			"= %" PRIu32 " mbufs%s, EAL -m %" PRIu32
			"; its expected peak about %" PRIu64 " MiB, %" PRIu64
			" workload messages about %" PRIu64
			" MiB of it), more than RLIMIT_AS allows (ulimit -v: "
			"%" PRIu64 " MiB): set run.mbufs lower, run fewer "
			"messages or raise the limit\n",
			prog, sizing->reserved_bytes >> 20, sizing->mbufs,
			sizing->derived ? ", derived from the scenario" : "",
			sizing->eal_mem_mb, sizing->expected_bytes >> 20,
			sizing->messages, sizing->messages_bytes >> 20,
			lim.as_bytes >> 20);
		return -ENOMEM;
	}
	return 0;
}

int run_size(const struct uet_scenario *sc, enum uet_run_role role,
	     uint32_t first, uint32_t count, const char *prog,
	     struct run_sizing *sizing)
{
	const bool local = role == UET_RUN_EMBEDDED;
	const uint32_t hosts = sc->topology.hosts;
	uint32_t senders_first = first, senders = count;
	uint64_t per_frame = local ? SIZING_MBUFS_PER_FRAME_LOCAL
				   : SIZING_MBUFS_PER_FRAME_PORTS;
	uint64_t groups = 0, arriving = 0, win_frames, in_pool, by_windows;
	uint64_t mbufs, ports_held = 0, messages = 0;
	uint32_t nics_here, h, *out, *in;
	int rc;

	memset(sizing, 0, sizeof(*sizing));
	rc = size_files(sc, role, prog);
	if (rc < 0)
		return rc;
	if (role == UET_RUN_EMBEDDED || role == UET_RUN_SWITCH) {
		/* The switch holds frames of every sender. */
		senders_first = 0;
		senders = hosts;
	}
	nics_here = role == UET_RUN_SWITCH ? 0 : count;
	sizing->lcores = sc->run.lcores != 0
				 ? sc->run.lcores
				 : run_lcores_choose(&sizing->lcores_choice);
	/* uet-switch runs its fabric's parts on its lcores in lockstep
	 * (lib/sync/sync_team.h); in realtime one lcore runs the switch. */
	if (role == UET_RUN_SWITCH && sc->run.clock == UET_CLOCK_REALTIME)
		sizing->lcores = 1;
	/* A small fabric's window holds too little work to pay for the
	 * barrier that joins two lcores (bench-htsim, idle machine, 16
	 * hosts, 2 lcores against 1: one flow 25 ms against 7, the incast
	 * 38 against 30, the permutations 2-7% faster; at 128 hosts 2
	 * lcores took 0.62x the wall of 1). */
	if (sc->run.lcores == 0 &&
	    (role == UET_RUN_EMBEDDED || role == UET_RUN_SWITCH) &&
	    hosts <= SIZING_ONE_LCORE_HOSTS && sizing->lcores > 1) {
		sizing->lcores = 1;
		sizing->small_fabric = true;
	}
	if (sizing->lcores > UET_CONFIG_LCORES_MAX)
		sizing->lcores = UET_CONFIG_LCORES_MAX;
	/* A NIC is polled by one lcore and the runs give an lcore at least
	 * one NIC, so lcores beyond the NICs would only idle: the EAL is not
	 * asked for them, and the sizing line says what the run uses. */
	if (nics_here > 0 && sizing->lcores > nics_here)
		sizing->lcores = nics_here;
	sizing->mbuf_data_bytes =
		local ? UET_MBUF_SMALL_DATA_BYTES : UET_MBUF_DATA_BYTES;
	out = calloc(hosts, sizeof(*out));
	in = calloc(hosts, sizeof(*in));
	rc = out == NULL || in == NULL ? -ENOMEM
				       : peer_counts(sc, out, in, &messages);
	if (rc < 0) {
		free(out);
		free(in);
		return rc;
	}
	win_frames = max_window_bytes(sc) / sc->nic.rdma_data_mss_bytes + 2u;
	in_pool = sc->nic.ingress_pool_size_bytes / frame_bytes(sc) + 2u;
	for (h = senders_first; h < senders_first + senders; h++)
		groups += out[h];
	/* A NICs-only process also holds what arrives for its NICs until
	 * it is written to the host: the windows of their senders, at most
	 * each NIC's ingress pool. */
	for (h = first; role == UET_RUN_NICS && h < first + count; h++) {
		uint64_t w = (uint64_t)in[h] * win_frames;

		arriving += w < in_pool ? w : in_pool;
	}
	free(out);
	free(in);
	sizing->window_frames = win_frames;
	sizing->groups = groups;
	/* The messages go with their NICs, spread over the hosts as far as
	 * the sizing can tell. */
	sizing->messages = role == UET_RUN_SWITCH ? 0
			   : role == UET_RUN_NICS
				   ? (messages * nics_here + hosts - 1u) / hosts
				   : messages;
	by_windows = groups * win_frames * SIZING_COPIES + arriving;
	sizing->frames = by_windows;
	if (role != UET_RUN_NICS) {
		/* The switch (and, embedded, every NIC) holds frames of
		 * every window, and at most what the queues on the way
		 * take. */
		uint64_t by_buffers = switch_frames(sc) +
				      (local ? (uint64_t)hosts * in_pool : 0);

		if (by_buffers < by_windows)
			sizing->frames = by_buffers;
	}
	/* Over real ports every port's rx and tx descriptors hold mbufs. */
	if (!local)
		ports_held =
			(uint64_t)(role == UET_RUN_SWITCH ? hosts : count) *
			(2u * UET_PORT_DEFAULT_DESC + 64u);
	mbufs = sizing->frames * per_frame + ports_held +
		(uint64_t)(role == UET_RUN_NICS ? nics_here : hosts) *
			SIZING_CTRL_PER_HOST +
		(uint64_t)sizing->lcores * SIZING_CACHE_MBUFS_PER_LCORE +
		SIZING_POOL_SLACK_MBUFS;
	sizing->derived = sc->run.mbufs == 0;
	sizing->derived_mbufs = mbufs > UET_CONFIG_MBUFS_MAX
					? UET_CONFIG_MBUFS_MAX
					: (uint32_t)mbufs;
	sizing->mbufs = sizing->derived ? sizing->derived_mbufs : sc->run.mbufs;
	/* A payload mbuf a frame, embedded (whatever run.mbufs says: it
	 * sizes the frames' own mbufs). */
	if (local) {
		uint64_t p = sizing->frames +
			     (uint64_t)sizing->lcores *
				     SIZING_CACHE_MBUFS_PER_LCORE +
			     SIZING_POOL_SLACK_MBUFS;

		sizing->payload_mbufs = p > UET_CONFIG_MBUFS_MAX
						? UET_CONFIG_MBUFS_MAX
						: (uint32_t)p;
	}
	sizing->pool_bytes =
		(uint64_t)sizing->mbufs *
			uet_port_pool_obj_bytes(sizing->mbuf_data_bytes) +
		(uint64_t)sizing->payload_mbufs *
			uet_port_pool_attach_obj_bytes();
	/* Embedded, the pools' memory is the process's (their mbufs never
	 * reach a device); else EAL's, reserved whole at start. */
	sizing->eal_mem_mb = local ? SIZING_EAL_BASE_MB
				   : (uint32_t)((sizing->pool_bytes +
						 sizing->pool_bytes / 8u) >>
						20) +
					     SIZING_EAL_PORTS_MB;
	sizing->expected_frames = by_windows / SIZING_COPIES;
	if (sizing->frames < sizing->expected_frames)
		sizing->expected_frames = sizing->frames;
	size_expect(sc, role, local, nics_here, sizing);
	return size_check_memory(sc, sizing, prog);
}
