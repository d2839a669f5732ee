/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Congestion control of a PDC group behind one interface (the data-path
 * page's "Congestion control" hooks): the group's window, counted at nominal
 * size (payload + 88), its base RTT, and the reactions to ACKs, trims and
 * timeouts. A fixed window is the one algorithm for now; NSCC comes later
 * behind the same ops table.
 */
#ifndef UET_CC_H
#define UET_CC_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_time.h"

/** Which algorithm a group uses. */
enum uet_cc_algo {
	UET_CC_FIXED = 0,	/**< a constant window */
	UET_CC_NSCC,		/**< reserved: NSCC (a later issue) */
};

/** Settings of a group's controller, from the scenario. */
struct uet_cc_params {
	enum uet_cc_algo algo;
	uint64_t data_rate_bps;		/**< the NIC's port rate */
	uet_time_t initial_base_rtt_ps;	/**< InitialBaseRTT */
	uint64_t window_bytes;		/**< fixed window (nominal bytes) */
	uint32_t mtu_nominal_bytes;	/**< a full packet: MSS + 88 */
};

/** What an ACK tells the controller (one call per ACK). */
struct uet_cc_ack {
	uet_time_t now_ps;
	uint64_t acked_bytes;	/**< nominal bytes this ACK retired */
	bool ecn;		/**< the ACK's M flag (CE seen) */
	bool rtt_valid;		/**< rtt_ps is a valid sample (Karn) */
	uet_time_t rtt_ps;	/**< raw round trip of the acked packet */
	uet_time_t service_ps;	/**< receiver's hold from the ACK, removed
				 * from the sample */
};

struct uet_cc;

/** An algorithm. */
struct uet_cc_ops {
	const char *name;
	/** Current window in nominal bytes. */
	uint64_t (*window_bytes)(const struct uet_cc *cc);
	void (*on_ack)(struct uet_cc *cc, const struct uet_cc_ack *ack);
	/** A NACK for an outstanding packet a switch trimmed. */
	void (*on_trim)(struct uet_cc *cc, uet_time_t now_ps,
			uint32_t nominal_bytes, bool last_hop);
	/** A packet's retransmission timer expired while in flight. */
	void (*on_timeout)(struct uet_cc *cc, uet_time_t now_ps,
			   uint32_t nominal_bytes);
};

/** A group's controller. State of every algorithm lives here (no heap). */
struct uet_cc {
	const struct uet_cc_ops *ops;
	struct uet_cc_params params;
	/** Base RTT estimate: starts at InitialBaseRTT, lowered by probe
	 * round trips and by ACK samples with the service time removed. */
	uet_time_t base_rtt_ps;
	uint64_t window_bytes;	/**< the fixed algorithm's window */
	/** Counters (land in the records). n_rtt_samples counts the RTT
	 * samples taken: valid ACK samples and probe round trips. */
	uint64_t n_acks, n_trims, n_timeouts, n_rtt_samples;
};

/**
 * Set up a group's controller. On error *cc is left untouched.
 * @param cc      the group's controller (no heap: all state is in *cc).
 * @param params  copied; mtu_nominal_bytes must not be 0, and the fixed
 *   algorithm needs window_bytes > 0.
 * @return 0, -EINVAL for bad parameters or an unknown algorithm, or
 *   -ENOTSUP for an algorithm not written yet (UET_CC_NSCC).
 */
int uet_cc_init(struct uet_cc *cc, const struct uet_cc_params *params);

/** The window in nominal bytes. */
static inline uint64_t
uet_cc_window_bytes(const struct uet_cc *cc)
{
	return cc->ops->window_bytes(cc);
}

/** An ACK: updates the base RTT from a valid sample, then the algorithm. */
void uet_cc_on_ack(struct uet_cc *cc, const struct uet_cc_ack *ack);

/** The round trip of a base-RTT probe (no hold on its ACK). */
void uet_cc_on_probe_rtt(struct uet_cc *cc, uet_time_t rtt_ps);

/** A trim NACK for an outstanding packet. */
void uet_cc_on_trim(struct uet_cc *cc, uet_time_t now_ps,
		    uint32_t nominal_bytes, bool last_hop);

/** A retransmission timeout of an in-flight packet. */
void uet_cc_on_timeout(struct uet_cc *cc, uet_time_t now_ps,
		       uint32_t nominal_bytes);

/** The base RTT estimate, ps. */
static inline uet_time_t
uet_cc_base_rtt_ps(const struct uet_cc *cc)
{
	return cc->base_rtt_ps;
}

#endif /* UET_CC_H */
