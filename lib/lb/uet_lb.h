/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Entropy selection of a PDC group behind one interface (the data-path
 * page's "Multipath" hooks). The entropy value is the UDP source port of a
 * data packet; switches hash it into their choice of path. The NIC stores
 * the value per packet, so feedback always concerns the right one.
 * Four balancers behind one ops table: single path, oblivious spraying,
 * Recycled Entropy Packet Spraying (REPS) and a penalty bitmap
 * (docs/multipath.md).
 */
#ifndef UET_LB_H
#define UET_LB_H

#include <stdint.h>

#include "uet_rng.h"
#include "uet_time.h"

/** Which balancer a group uses. */
enum uet_lb_algo {
	UET_LB_SINGLE_PATH = 0, /**< one entropy value per group */
	UET_LB_OBLIVIOUS,	/**< a new value for every packet */
	UET_LB_REPS,		/**< recycled entropy packet spraying */
	UET_LB_BITMAP,		/**< oblivious, skipping penalised values */
};

/** Most entries of a REPS entropy cache. */
#define UET_LB_REPS_CACHE_MAX 64
/** Most values the bitmap balancer keeps a penalty for. */
#define UET_LB_BITMAP_MAX 256
/** Defaults (docs/multipath.md says why). */
#define UET_LB_REPS_CACHE_DEFAULT 8
#define UET_LB_REPS_LIFETIME_DEFAULT 1
#define UET_LB_REPS_FREEZE_PS_DEFAULT UINT64_C(100000000) /* 100 us */
#define UET_LB_REPS_EXPLORE_DEFAULT 16
#define UET_LB_BITMAP_PATHS_DEFAULT 256
/** Bitmap penalties: added per kind of feedback, and the cap. */
#define UET_LB_BITMAP_PEN_ECN 1
#define UET_LB_BITMAP_PEN_TRIMMED 4
#define UET_LB_BITMAP_PEN_TIMEOUT 15
#define UET_LB_BITMAP_PEN_MAX 15

/** What happened to a packet that carried an entropy value. */
enum uet_lb_feedback {
	UET_LB_GOOD = 0,	/**< ACKed without ECN */
	UET_LB_ECN,		/**< ACK, or last-hop NACK, with the M flag */
	UET_LB_TRIMMED,		/**< NACK: trimmed on the way */
	UET_LB_TRIMMED_LASTHOP, /**< NACK: trimmed on the last hop, no M */
	UET_LB_TIMEOUT,		/**< retransmission timer */
};

/** Lowest entropy value the NIC uses: the start of the dynamic port range
 * (RFC 6335), so entropy never looks like a well-known port. */
#define UET_LB_ENTROPY_BASE_DEFAULT 49152
/** Number of entropy values the NIC uses: the whole dynamic range,
 * 49152..65535. A power of two, so oblivious spraying uses its XOR walk. */
#define UET_LB_ENTROPY_SPAN_DEFAULT 16384

/** Settings of a group's balancer. */
struct uet_lb_params {
	enum uet_lb_algo algo;
	/** Entropy values are drawn from [base, base + span): keeps the UDP
	 * source port out of the well-known range. */
	uint16_t entropy_base;
	uint16_t entropy_span;
	/** REPS: entries of the entropy cache, 1..UET_LB_REPS_CACHE_MAX. */
	uint32_t reps_cache_size;
	/** REPS: packets one recycled value may be reused for (>= 1). */
	uint32_t reps_usable_lifetime;
	/** REPS: how long a timeout freezes the cache, ps (> 0). */
	uet_time_t reps_freeze_ps;
	/** REPS: random values sent after a freeze ends (may be 0). */
	uint32_t reps_explore_count;
	/** Bitmap: values sprayed over, base..base + paths - 1; at most
	 * UET_LB_BITMAP_MAX and entropy_span. */
	uint32_t bitmap_paths;
};

/** One entry of the REPS cache. */
struct uet_lb_reps_entry {
	uint16_t value;	   /**< an entropy value known to be good */
	uint8_t uses_left; /**< packets it may still go on */
	bool valid;	   /**< fresh: not used up yet */
};

struct uet_lb;

/** A balancer. */
struct uet_lb_ops {
	const char *name;
	uint16_t (*next_entropy)(struct uet_lb *lb, uet_time_t now_ps);
	void (*feedback)(struct uet_lb *lb, uint16_t entropy,
			 enum uet_lb_feedback what, uet_time_t now_ps);
};

/** A group's balancer. State of every algorithm lives here (no heap). */
struct uet_lb {
	const struct uet_lb_ops *ops;
	struct uet_lb_params params;
	struct uet_rng rng;    /**< the group's own stream */
	uint16_t path_entropy; /**< single path: the group's value */
	/** Oblivious: packets sent in the current round, 0..span-1; a round
	 * uses each of the span values exactly once. */
	uint32_t round_pos;
	/** Oblivious: the round's XOR key (span a power of two), else the
	 * round's offset; both in [0, span), drawn when a round starts. */
	uint32_t round_key;
	/** Oblivious, span not a power of two: the round's step, coprime to
	 * span, so offset + pos * step (mod span) visits every value. */
	uint32_t round_step;
	/** REPS: the cache, a ring; head is where the next good value is
	 * written, so the oldest entry sits at head when the ring is full. */
	struct uet_lb_reps_entry cache[UET_LB_REPS_CACHE_MAX];
	uint32_t cache_head;   /**< next write, 0..size-1 */
	uint32_t cache_filled; /**< entries written since the last reset */
	uint32_t frozen_next;  /**< frozen: next entry of the round robin */
	uint32_t explore_left; /**< random values still to send */
	bool frozen;	       /**< a timeout froze the cache */
	uet_time_t freeze_until_ps; /**< frozen: when it may end */
	/** Bitmap: penalty per value offset, 0..UET_LB_BITMAP_PEN_MAX. */
	uint8_t penalty[UET_LB_BITMAP_MAX];
	/** Counters (land in the records). */
	uint64_t n_chosen, n_feedback[UET_LB_TIMEOUT + 1];
	/** REPS counters: values recycled from the cache, random values,
	 * freezes entered. Bitmap: values skipped for a penalty. */
	uint64_t n_recycled, n_random, n_freezes, n_skipped;
};

/** Fill params with the defaults of every balancer (algo single path,
 * the NIC's entropy range). */
void uet_lb_params_default(struct uet_lb_params *params);

/**
 * Set up a group's balancer. On error *lb is left untouched.
 * @param lb  the group's balancer (no heap: all state is in *lb).
 * @param params  copied; entropy_span must be at least 1 and
 *   entropy_base + entropy_span at most 65536; REPS and bitmap also check
 *   their own fields (see struct uet_lb_params).
 * @param seed  scenario seed; @param stream  distinct per group (NIC and
 *   group ids), so every group draws its own values.
 * @return 0, or -EINVAL for bad parameters or an unknown algorithm.
 */
int uet_lb_init(struct uet_lb *lb, const struct uet_lb_params *params,
		uint64_t seed, uint64_t stream);

/**
 * The entropy value for the next packet; the NIC asks again for every
 * retransmission. Single path answers with the group's one value every
 * time; oblivious spraying with the next value of its round.
 */
static inline uint16_t uet_lb_next_entropy(struct uet_lb *lb, uet_time_t now_ps)
{
	lb->n_chosen++;
	return lb->ops->next_entropy(lb, now_ps);
}

/** Report what happened to a packet that carried entropy. Counted in
 * n_feedback[what] (an unknown kind is ignored), then given to the
 * balancer; single path and oblivious spraying use it for nothing else.
 * REPS recycles the value of GOOD and TRIMMED_LASTHOP, drops that of ECN
 * and TRIMMED, and freezes on TIMEOUT; bitmap penalises ECN (+1), TRIMMED
 * (+4) and TIMEOUT (+15). The NIC reports a last-hop NACK with the M flag
 * as ECN: the trim was the receiver's, the mark the path's. */
void uet_lb_feedback(struct uet_lb *lb, uint16_t entropy,
		     enum uet_lb_feedback what, uet_time_t now_ps);

#endif /* UET_LB_H */
