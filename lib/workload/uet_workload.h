/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/workload: what the hosts ask their NICs to send. A workload is a
 * program: one dependency graph per rank (rank = host) of four operations,
 * NOP, COMP (virtual time passes), SEND (a message on a new PDC) and RECV
 * (waits for the matching message). Chakra execution traces load into it
 * (collectives broken into point-to-point messages by a named algorithm);
 * the engine runs it against any network through a post function and the
 * NIC completions, in virtual time, deterministically.
 *
 * No DPDK here and no files other than the traces: the wiring (uet-emu)
 * gives the engine a post function and forwards completions.
 */
#ifndef UET_WORKLOAD_H
#define UET_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest error message of a load or a run. */
#define UET_WL_ERROR_LEN 320

/** Longest name of a collective kept for the records. */
#define UET_WL_NAME_LEN 64

/** Bit set in the tag of every message a collective is broken into, so
 * that it never matches a trace's own SEND/RECV tags (32-bit). */
#define UET_WL_COLL_TAG (UINT64_C(1) << 63)

/** What a load or a run failed on, in words. */
struct uet_wl_error {
	/** The message, NUL-terminated ("" while there is none). */
	char message[UET_WL_ERROR_LEN];
};

/** The operation of one graph node. */
enum uet_wl_op {
	UET_WL_NOP = 0, /**< finishes as soon as it is ready */
	UET_WL_COMP,	/**< finishes duration_ps after it is ready */
	UET_WL_SEND,	/**< posts a message; finishes when it is sent */
	UET_WL_RECV,	/**< finishes when the matching message has arrived */
	UET_WL_WAIT,	/**< finishes when its trigger starts it */
};

/** How a trigger starts the nodes waiting on it (uet-htsim's types). */
enum uet_wl_trigger_kind {
	UET_WL_TRIG_ONESHOT = 0, /**< the first activation starts them all */
	UET_WL_TRIG_MULTISHOT,	 /**< each activation starts the next one */
	UET_WL_TRIG_BARRIER,	 /**< the count-th activation starts them all */
};

/** A WAIT node a trigger starts. */
struct uet_wl_target {
	uint32_t rank; /**< the rank of the WAIT node */
	uint32_t node; /**< its index in the rank's nodes */
};

/** A trigger: activated when a node naming it (fires) finishes. */
struct uet_wl_trigger {
	uint64_t id;		       /**< the matrix's trigger id */
	enum uet_wl_trigger_kind kind; /**< how it starts its targets */
	uint32_t count;		       /**< barrier: activations needed */
	uint32_t n_targets;	       /**< WAIT nodes waiting on it */
	uint32_t cap_targets;	       /**< allocated */
	struct uet_wl_target *targets; /**< in file order */
};

/** One node of a rank's graph. */
struct uet_wl_node {
	/** The node's id in the trace; synthetic nodes carry their
	 * collective's id. */
	uint64_t trace_id;
	/** What the node does. */
	enum uet_wl_op op;
	/** SEND: destination rank; RECV: source rank. */
	uint32_t peer;
	/** SEND/RECV: the matching tag (UET_WL_COLL_TAG set for the
	 * messages of a collective). */
	uint64_t tag;
	/** SEND: message size, bytes. */
	uint64_t bytes;
	/** COMP: ps of virtual time the node takes. */
	uet_time_t duration_ps;
	/** Index of the collective the node belongs to, or -1. */
	int32_t coll;
	/** SEND/RECV: index + 1 of the trigger activated when the node
	 * finishes (0: none). WAIT: index + 1 of the trigger that starts
	 * it. */
	uint32_t trigger;
	/** Number of dependencies. */
	uint32_t n_deps;
	/** Indices (into the rank's nodes) of the nodes this one waits for.
	 */
	uint32_t *deps;
};

/** One collective of a rank, broken into begin, messages and end. */
struct uet_wl_coll {
	/** The trace node's name (truncated). */
	char name[UET_WL_NAME_LEN];
	/** The trace node's id. */
	uint64_t trace_id;
	/** Chakra CollectiveCommType. */
	uint32_t comm_type;
	/** comm_size, bytes. */
	uint64_t bytes;
	/** Node index of the NOP every message of the collective waits for. */
	uint32_t begin;
	/** Node index of the NOP that finishes with the collective (the trace
	 * node itself). */
	uint32_t end;
};

/** One rank (host) of a program. */
struct uet_wl_rank {
	uint32_t n_nodes;	   /**< nodes in the graph */
	uint32_t cap_nodes;	   /**< allocated */
	struct uet_wl_node *nodes; /**< the graph */
	uint32_t n_colls;	   /**< collectives */
	uint32_t cap_colls;	   /**< allocated */
	struct uet_wl_coll *colls; /**< the collectives, in trace order */
	uint32_t n_sends;	   /**< SEND nodes (messages it posts) */
};

/** A whole workload: one graph per rank. */
struct uet_wl_program {
	uint32_t n_ranks;	   /**< ranks, equal to the hosts */
	struct uet_wl_rank *ranks; /**< n_ranks of them */
	uint64_t *msg_base;	   /**< by rank: its first message number */
	uint64_t n_messages;	   /**< messages of the whole program */
	uint32_t n_triggers;	   /**< triggers (connection matrices) */
	struct uet_wl_trigger *triggers; /**< n_triggers of them */
};

/** Algorithms a collective is broken into messages by. */
enum uet_wl_algo {
	UET_WL_ALGO_DEFAULT = 0, /**< the collective's default */
	UET_WL_ALGO_RING,	 /**< neighbour to neighbour around the ranks */
	UET_WL_ALGO_DIRECT,	 /**< every rank to every other, one round */
	UET_WL_ALGO_TREE,	 /**< binary tree from the root */
};

/** Chakra CollectiveCommType values. */
enum uet_wl_coll_type {
	UET_WL_ALL_REDUCE = 0,
	UET_WL_REDUCE = 1,
	UET_WL_ALL_GATHER = 2,
	UET_WL_GATHER = 3,
	UET_WL_SCATTER = 4,
	UET_WL_BROADCAST = 5,
	UET_WL_ALL_TO_ALL = 6,
	UET_WL_REDUCE_SCATTER = 7,
	UET_WL_REDUCE_SCATTER_BLOCK = 8,
	UET_WL_BARRIER = 9,
	UET_WL_COLL_TYPES
};

/** The algorithm of each collective type (UET_WL_ALGO_DEFAULT: ring for
 * all-reduce, all-gather, reduce-scatter and barrier; direct for
 * all-to-all, reduce, gather and scatter; tree for broadcast). */
struct uet_wl_algos {
	/** By enum uet_wl_coll_type. */
	enum uet_wl_algo by_type[UET_WL_COLL_TYPES];
	/** ps a rank spends reducing one received chunk (all-reduce's and
	 * reduce-scatter's reduce steps, the ring only): a COMP node after
	 * each such receive, as an explicit trace writes it. 0: none. */
	uet_time_t reduce_chunk_ps;
};

/**
 * The name of an algorithm ("ring", "direct", "tree").
 */
const char *uet_wl_algo_name(enum uet_wl_algo algo);

/**
 * Parse an algorithm name.
 *
 * @return
 *   0 and *algo set; -EINVAL for an unknown name.
 */
int uet_wl_algo_parse(const char *name, enum uet_wl_algo *algo);

/**
 * The name of a collective type ("all_reduce", ...), or "unknown".
 */
const char *uet_wl_coll_type_name(uint32_t type);

/**
 * Whether an algorithm can break a collective type into messages.
 */
bool uet_wl_algo_supported(uint32_t type, enum uet_wl_algo algo);

/**
 * Load Chakra traces PREFIX.<rank>.et for ranks 0..hosts-1 (gzip or not)
 * into a program, collectives broken into messages by algos.
 *
 * @param prog
 *   Filled in; free with uet_wl_program_free() (also after a failure).
 * @param prefix
 *   Path prefix of the files.
 * @param hosts
 *   Hosts of the scenario: there must be exactly this many rank files.
 * @param algos
 *   Algorithms by collective type; NULL: the defaults.
 * @param err
 *   Why it failed: truncated file, malformed message, unknown node or
 *   attribute type, unknown dependency, dependency cycle, rank count,
 *   a receive that can never match.
 * @return
 *   0; -ENOENT (no rank 0 file); -EINVAL (a bad trace); -ENOMEM.
 */
int uet_wl_chakra_load(struct uet_wl_program *prog, const char *prefix,
		       uint32_t hosts, const struct uet_wl_algos *algos,
		       struct uet_wl_error *err);

/* ------------------------------------------------------------------------ */
/* Generators and plain message lists.                                       */

/** Traffic patterns of a generator. */
enum uet_wl_pattern {
	UET_WL_GEN_INCAST = 0,	/**< every other host to one destination */
	UET_WL_GEN_PERMUTATION, /**< each host to one other, a random cycle */
	UET_WL_GEN_ALL_TO_ALL,	/**< each host to every other host */
	UET_WL_GEN_UNIFORM,	/**< each message to a random other host */
};

/** What a generator makes. */
struct uet_wl_gen {
	enum uet_wl_pattern pattern; /**< the pattern */
	uint32_t hosts;		     /**< hosts (ranks), at least 2 */
	uint64_t bytes;		     /**< size of every message */
	/** Rounds: each host sends this many messages per destination
	 * (all-to-all: to each other host; others: to its one). */
	uint32_t count;
	uet_time_t start_ps; /**< ps, when each host posts its first */
	/** ps between two successive posts of one host. */
	uet_time_t interval_ps;
	uint32_t dst;  /**< incast: the destination host */
	uint64_t seed; /**< permutation and uniform: the choices */
};

/** One message of a list: what a host posts and when. */
struct uet_wl_message {
	uint32_t src;	     /**< sending host */
	uint32_t dst;	     /**< receiving host, not src */
	uint64_t bytes;	     /**< size */
	uet_time_t start_ps; /**< ps, when the host posts it */
};

/**
 * The name of a pattern ("incast", "permutation", "all-to-all",
 * "uniform"), or "unknown".
 */
const char *uet_wl_pattern_name(enum uet_wl_pattern p);

/**
 * Make a generator's messages, in order: round by round, and inside a
 * round host by host (all-to-all: offset 1, 2, ... N-1 in turn). The k-th
 * message a host posts starts at start_ps + k x interval_ps.
 *
 * @param g
 *   The generator.
 * @param msgs
 *   Set to a malloc'ed array (free() it); NULL when there are none.
 * @param n
 *   Set to its length.
 * @param err
 *   Why it failed.
 * @return
 *   0; -EINVAL (a bad generator: pattern, hosts, dst, count); -E2BIG
 *   (more than 2^32 - 1 messages or a start past UET_TIME_NEVER);
 *   -ENOMEM.
 */
int uet_wl_generate(const struct uet_wl_gen *g, struct uet_wl_message **msgs,
		    uint32_t *n, struct uet_wl_error *err);

/**
 * Build a program from a message list: for message i, rank src waits
 * start_ps (a COMP) and sends it, rank dst receives it; each message has
 * its own tag i, and its nodes carry trace_id i (the message's origin in
 * the records).
 *
 * @return
 *   0 (the program is checked and numbered); -EINVAL (a host out of
 *   range, src equal to dst); -ENOMEM.
 */
int uet_wl_program_from_messages(struct uet_wl_program *prog, uint32_t hosts,
				 const struct uet_wl_message *msgs, uint32_t n,
				 struct uet_wl_error *err);

/* ------------------------------------------------------------------------ */
/* Connection matrices (uet-htsim's .cm format).                              */

/**
 * Parse a connection matrix into a program: each connection line becomes a
 * SEND at its source and a RECV at its destination, started at its start
 * time (a COMP) or by its trigger (a WAIT); send_done_trigger activates a
 * trigger when the SEND finishes, recv_done_trigger when the RECV does.
 * SEND and RECV nodes carry trace_id = the line's number.
 *
 * @param prog
 *   Filled in; free with uet_wl_program_free() (also after a failure).
 * @param name
 *   File name used in the messages.
 * @param text
 *   The file's bytes (need not be NUL-terminated).
 * @param len
 *   Their number.
 * @param hosts
 *   Hosts of the scenario: the matrix's Nodes must equal it.
 * @param err
 *   "name:line: what is wrong".
 * @return
 *   0; -EINVAL; -ENOMEM.
 */
int uet_wl_matrix_parse(struct uet_wl_program *prog, const char *name,
			const char *text, size_t len, uint32_t hosts,
			struct uet_wl_error *err);

/**
 * Read a connection matrix file and parse it (uet_wl_matrix_parse()).
 *
 * @return
 *   As uet_wl_matrix_parse(); -ENOENT etc. when the file cannot be read.
 */
int uet_wl_matrix_load(struct uet_wl_program *prog, const char *path,
		       uint32_t hosts, struct uet_wl_error *err);

/**
 * Add a trigger to a program.
 *
 * @param index
 *   Set to its index (nodes name it as index + 1).
 * @return
 *   0; -ENOMEM.
 */
int uet_wl_add_trigger(struct uet_wl_program *prog, uint64_t id,
		       enum uet_wl_trigger_kind kind, uint32_t count,
		       uint32_t *index);

/**
 * Append a WAIT node that trigger index starts (a target, in call order).
 *
 * @param node_index
 *   Set to the node's index in the rank; may be NULL.
 * @return
 *   0; -EINVAL (rank or trigger out of range); -ENOMEM.
 */
int uet_wl_add_wait(struct uet_wl_program *prog, uint32_t rank,
		    uint32_t trigger, uint64_t trace_id, uint32_t *node_index);

/**
 * Start an empty program of n_ranks ranks (for generators and tests).
 *
 * @return
 *   0; -EINVAL (no rank); -ENOMEM.
 */
int uet_wl_program_init(struct uet_wl_program *prog, uint32_t n_ranks);

/**
 * Append a node to a rank's graph.
 *
 * @param prog
 *   The program.
 * @param rank
 *   The rank.
 * @param node
 *   The node; deps are copied (n_deps indices, checked by
 *   uet_wl_program_check(): they may point forward).
 * @param index
 *   Set to the node's index; may be NULL.
 * @return
 *   0; -EINVAL (rank, peer or dependency out of range); -ENOMEM.
 */
int uet_wl_add_node(struct uet_wl_program *prog, uint32_t rank,
		    const struct uet_wl_node *node, uint32_t *index);

/**
 * Append a collective to a rank's graph: a begin NOP waiting for deps, the
 * messages of the algorithm, and an end NOP.
 *
 * @param prog
 *   The program (every rank takes part).
 * @param rank
 *   The rank.
 * @param coll
 *   Name, trace id, type and bytes; begin and end are set.
 * @param root
 *   Root rank of broadcast, reduce, gather and scatter.
 * @param algo
 *   The algorithm (UET_WL_ALGO_DEFAULT: the type's default).
 * @param reduce_chunk_ps
 *   ps of COMP after each reduced chunk (see struct uet_wl_algos).
 * @param deps
 *   Indices of the nodes the collective waits for.
 * @param n_deps
 *   Their number.
 * @param err
 *   Why it failed.
 * @return
 *   0; -EINVAL (unsupported type or algorithm); -ENOMEM.
 */
int uet_wl_add_coll(struct uet_wl_program *prog, uint32_t rank,
		    struct uet_wl_coll *coll, uint32_t root,
		    enum uet_wl_algo algo, uet_time_t reduce_chunk_ps,
		    const uint32_t *deps, uint32_t n_deps,
		    struct uet_wl_error *err);

/**
 * Check a complete program and number its messages: no dependency cycle,
 * every receive matched by a send (same source, destination and tag, as
 * many sends as receives).
 *
 * @return
 *   0; -EINVAL with err set.
 */
int uet_wl_program_check(struct uet_wl_program *prog, struct uet_wl_error *err);

/** Free what a program holds (not the struct). */
void uet_wl_program_free(struct uet_wl_program *prog);

/* ------------------------------------------------------------------------ */
/* The engine.                                                               */

/**
 * Post a message: the engine asks the source rank's NIC to send it.
 *
 * @param ctx
 *   The context given to the engine.
 * @param src
 *   Source rank (the NIC that posts).
 * @param dst
 *   Destination rank.
 * @param bytes
 *   Message size.
 * @param at_ps
 *   Virtual time of the post, never before the completion being handled
 *   (or 0 at the start).
 * @param msg_id
 *   Program-wide message number, below the program's n_messages.
 * @return
 *   0, or a negative errno that stops the engine.
 */
typedef int (*uet_wl_post_fn)(void *ctx, uint32_t src, uint32_t dst,
			      uint64_t bytes, uet_time_t at_ps,
			      uint64_t msg_id);

struct uet_wl_engine;

/**
 * Create an engine over a checked program.
 *
 * @param ep
 *   Set to the engine.
 * @param prog
 *   The program; must outlive the engine.
 * @param post
 *   Called for every SEND.
 * @param ctx
 *   Passed to post.
 * @return
 *   0; -EINVAL; -ENOMEM.
 */
int uet_wl_engine_create(struct uet_wl_engine **ep,
			 const struct uet_wl_program *prog, uet_wl_post_fn post,
			 void *ctx);

/** Free an engine; NULL is accepted. */
void uet_wl_engine_free(struct uet_wl_engine *e);

/**
 * Start every rank at virtual time 0: nodes without dependencies run, the
 * first messages are posted.
 *
 * @return
 *   0, or the first post error.
 */
int uet_wl_engine_start(struct uet_wl_engine *e);

/**
 * A message arrived at its destination (the receiver's NIC reported it).
 * Only the destination rank's state changes.
 *
 * @param e
 *   The engine.
 * @param msg_id
 *   The message.
 * @param time_ps
 *   ps, virtual time of the arrival.
 * @return
 *   0; -EINVAL (unknown message, reported twice); or a post error.
 */
int uet_wl_engine_arrived(struct uet_wl_engine *e, uint64_t msg_id,
			  uet_time_t time_ps);

/**
 * A message was handed to the network at its source: the NIC's transmit
 * completion (every packet sent once), after which the host's send buffer
 * is free, so the SEND node finishes. Only the source rank's state
 * changes.
 *
 * @return
 *   As uet_wl_engine_arrived().
 */
int uet_wl_engine_sent(struct uet_wl_engine *e, uint64_t msg_id,
		       uet_time_t time_ps);

/**
 * Delay of a trigger activated on one rank starting a node of another:
 * the node starts delay_ps after the activation (same rank: at once,
 * unless nodes of several ranks activate the trigger).
 * A host learns of another host's completion no sooner than a frame could
 * tell it; the wiring sets at least the lockstep lookahead, so a post
 * never lands in a NIC's past (docs/workload.md). Default 0.
 */
void uet_wl_engine_set_trigger_delay(struct uet_wl_engine *e,
				     uet_time_t delay_ps);

/**
 * Apply what the completions handled since the last flush changed beyond
 * their own ranks: the starts of other ranks' WAIT nodes (at the
 * activation + the trigger delay), and the activations of triggers that
 * nodes of several ranks activate (each of their starts, on any rank, at
 * the activation + the trigger delay), in the order (activation time,
 * activating rank, that rank's own order). The posts they make go to the
 * post function. A run in windows calls it once every completion of the
 * window is in; its result is then the same whatever order the ranks'
 * completions came in.
 *
 * @return
 *   0, or the first post error.
 */
int uet_wl_engine_flush(struct uet_wl_engine *e);

/** What the engine knows of one message, for the records. */
struct uet_wl_msg_info {
	uint32_t src;	       /**< source rank */
	uint32_t dst;	       /**< destination rank */
	uint64_t bytes;	       /**< size */
	uint64_t origin;       /**< the SEND node's trace_id */
	uet_time_t posted_ps;  /**< ps, when the source posted it */
	uet_time_t sent_ps;    /**< ps, its SENT completion, or NEVER */
	uet_time_t arrived_ps; /**< ps, its ARRIVED completion, or NEVER */
};

/**
 * A message's source, destination, origin and times.
 *
 * @return
 *   0; -EINVAL (no such message); -EAGAIN (not posted yet).
 */
int uet_wl_engine_msg_info(const struct uet_wl_engine *e, uint64_t msg_id,
			   struct uet_wl_msg_info *info);

/** Whether every node of every rank has finished. */
bool uet_wl_engine_done(const struct uet_wl_engine *e);

/**
 * When a rank's last node finished.
 *
 * @return
 *   ps, or UET_TIME_NEVER while the rank has not finished.
 */
uet_time_t uet_wl_engine_rank_end_ps(const struct uet_wl_engine *e,
				     uint32_t rank);

/** Nodes of a rank that have finished. */
uint32_t uet_wl_engine_rank_finished(const struct uet_wl_engine *e,
				     uint32_t rank);

/**
 * When a collective of a rank began (its dependencies done) and ended.
 *
 * @return
 *   0; -EINVAL (no such collective); -EAGAIN (not finished yet).
 */
int uet_wl_engine_coll_times(const struct uet_wl_engine *e, uint32_t rank,
			     uint32_t coll, uet_time_t *begin_ps,
			     uet_time_t *end_ps);

/**
 * Describe what a rank still waits for (first unfinished node), for the
 * summary of a run that did not finish.
 */
void uet_wl_engine_describe_rank(const struct uet_wl_engine *e, uint32_t rank,
				 char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* UET_WORKLOAD_H */
