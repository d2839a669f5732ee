/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Congestion control of a PDC group behind one interface (the data-path
 * page's "Congestion control" hooks): the group's window, counted at nominal
 * size (payload + 88), its base RTT, and the reactions to ACKs, trims and
 * timeouts. Two algorithms behind one ops table: a fixed window and NSCC
 * (docs/congestion-control.md). NSCC runs on integers only: gains are in
 * parts per million, so a run is bit-identical on every machine.
 */
#ifndef UET_CC_H
#define UET_CC_H

#include <stdbool.h>
#include <stdint.h>

#include "uet_time.h"

/** Which algorithm a group uses. */
enum uet_cc_algo {
	UET_CC_FIXED = 0, /**< a constant window */
	UET_CC_NSCC,	  /**< NSCC: delay, ECN and loss driven window */
};

/** Parts per million: the unit of every NSCC gain and ratio. */
#define UET_CC_PPM UINT64_C(1000000)

/** Why NSCC last changed (or kept) the window; lands in the CC trace. */
enum uet_cc_reason {
	UET_CC_R_NONE = 0,	/**< nothing yet */
	UET_CC_R_FAIR_INC,	/**< delay >= target, no ECN: fair increase */
	UET_CC_R_PROP_INC,	/**< delay < target, no ECN: proportional */
	UET_CC_R_FAST_INC,	/**< delay < 1 us for a window: fast increase */
	UET_CC_R_MULT_DEC,	/**< ECN and delay >= target: decrease */
	UET_CC_R_ECN_LOW_DELAY, /**< ECN below target: window kept */
	UET_CC_R_QUICK_ADAPT,	/**< quick adapt: window = bytes achieved */
	UET_CC_R_QA_IGNORE,	/**< ECN ACK ignored after a quick adapt */
	UET_CC_R_ADJUST,	/**< increases applied (bytes or period) */
	UET_CC_R_ETA,		/**< the additive eta term of a period */
	UET_CC_R_RCV_PENALTY,	/**< the receiver's window penalty */
	UET_CC_R_TRIM,		/**< a trim NACK: one packet off */
	UET_CC_R_TIMEOUT,	/**< a timeout: one packet off */
	UET_CC_R_MAXWND,	/**< clamped to the maximum window */
	UET_CC_R_COUNT
};

/** The reason's name, as the CC trace writes it. */
const char *uet_cc_reason_name(enum uet_cc_reason r);

/**
 * NSCC's parameters, derived from the base RTT, the rate and the packet
 * size (cc-and-multipath 1.1; docs/congestion-control.md has the table).
 * The network RTT is InitialBaseRTT; the reference network is 100 Gb/s
 * with a 12 us round trip (ref BDP 150000 bytes).
 */
struct uet_nscc_derived {
	uint64_t bdp_bytes;	       /**< rate x network RTT */
	uint64_t max_window_bytes;     /**< 1.5 x BDP, at least one packet */
	uint64_t min_window_bytes;     /**< one nominal packet */
	uint64_t initial_window_bytes; /**< a new group's window */
	uet_time_t target_qdelay_ps;   /**< tq */
	uet_time_t qa_threshold_ps;    /**< 4 x tq */
	uint64_t a_ppm;		       /**< scaling a = BDP / ref BDP */
	uint64_t b_ppm;		       /**< scaling b = tq / 12 us */
	uint64_t fair_inc_bytes;       /**< fi = 5 x MTU x a */
	uint64_t eta_bytes;	       /**< 0.15 x MTU x a, per period */
	uint64_t fast_inc_scale_ppm;   /**< fi_scale = 0.25 x a */
	/** alpha = 4 x MTU x a x b / tq, in millionths of a byte per ps:
	 * proportional increase adds alpha x acked x (tq - delay) to the
	 * pending increase (bytes^2, divided by the window when applied). */
	uint64_t alpha_ubytes_per_ps;
	uint64_t gamma_ppm;	      /**< multiplicative decrease gain 0.8 */
	uint64_t delay_ewma_ppm;      /**< weight of a new delay 0.0125 */
	uet_time_t adjust_period_ps;  /**< network RTT */
	uint64_t adjust_bytes;	      /**< 8 nominal packets */
	uet_time_t fast_inc_delay_ps; /**< 1 us */
	unsigned int qa_gate_shift;   /**< QA when achieved < maxwnd >> 3 */
};

/** NSCC's running state (all integers). */
struct uet_nscc_state {
	uint64_t avg_delay_ps;	     /**< EWMA of queueing delay */
	uint64_t achieved_bytes;     /**< acked in this QA period */
	uint64_t received_bytes;     /**< acked since the last adjustment */
	uint64_t inc_bytes2;	     /**< pending increase, bytes^2 */
	uint64_t fast_count_bytes;   /**< acked while delay < 1 us */
	uint64_t bytes_to_ignore;    /**< after QA: in flight when it fired */
	uint64_t bytes_ignored;	     /**< acked since QA fired */
	uet_time_t qa_end_ps;	     /**< end of this QA period; 0: none */
	uet_time_t last_adjust_ps;   /**< last eta period start */
	uet_time_t last_decrease_ps; /**< last multiplicative decrease */
	bool fast_mode;		     /**< fast increase running */
	bool trigger_qa;	     /**< a trim asks the next QA check */
	bool decreased_once;	     /**< last_decrease_ps is meaningful */
};

/** Settings of a group's controller, from the scenario. */
struct uet_cc_params {
	enum uet_cc_algo algo;
	uint64_t data_rate_bps;		/**< the NIC's port rate */
	uet_time_t initial_base_rtt_ps; /**< InitialBaseRTT */
	uint64_t window_bytes;		/**< fixed window (nominal bytes) */
	uint32_t mtu_nominal_bytes;	/**< a full packet: MSS + 88 */
	/** NSCC: target queueing delay; 0 derives it from the network RTT
	 * (0.75 x with trimming, 1.0 x without). */
	uet_time_t nscc_target_qdelay_ps;
	/** NSCC: a new group's window; 0 means the maximum window. */
	uint64_t nscc_initial_window_bytes;
	/** NSCC: the switches trim (selects the derived target delay). */
	bool trimming;
};

/** What an ACK tells the controller (one call per ACK). */
struct uet_cc_ack {
	uet_time_t now_ps;
	uint64_t acked_bytes;	  /**< nominal bytes this ACK retired */
	bool ecn;		  /**< the ACK's M flag (CE seen) */
	bool rtt_valid;		  /**< rtt_ps is a valid sample (Karn) */
	uet_time_t rtt_ps;	  /**< raw round trip of the acked packet */
	uet_time_t service_ps;	  /**< receiver's hold from the ACK, removed
				   * from the sample */
	uint64_t in_flight_bytes; /**< group's nominal bytes in flight after
				   * this ACK (quick adapt) */
	uint8_t rcv_cwnd_pend;	  /**< ACK_CC rcv_cwnd_pend, 0..127: the
				   * window loses acked x pend / 128; 0 none */
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
			uint32_t nominal_bytes, bool last_hop,
			uint64_t in_flight_bytes);
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
	uint64_t window_bytes; /**< the window (both algorithms) */
	/** Queueing delay of the last event, ps (NSCC; the trace). */
	uet_time_t last_delay_ps;
	enum uet_cc_reason last_reason; /**< why the window last moved */
	struct uet_nscc_derived nscc;	/**< NSCC: the derived parameters */
	struct uet_nscc_state ns;	/**< NSCC: the running state */
	/** Window changes per reason (NSCC). */
	uint64_t n_reason[UET_CC_R_COUNT];
	/** Counters (land in the records). n_rtt_samples counts the RTT
	 * samples taken: valid ACK samples and probe round trips. */
	uint64_t n_acks, n_trims, n_timeouts, n_rtt_samples;
};

/**
 * Set up a group's controller. On error *cc is left untouched.
 * @param cc      the group's controller (no heap: all state is in *cc).
 * @param params  copied; mtu_nominal_bytes must not be 0, and the fixed
 *   algorithm needs window_bytes > 0.
 * @return 0, or -EINVAL for bad parameters or an unknown algorithm (NSCC
 *   needs data_rate_bps and initial_base_rtt_ps > 0).
 */
int uet_cc_init(struct uet_cc *cc, const struct uet_cc_params *params);

/**
 * NSCC's parameters for a rate, network RTT and packet size, as
 * uet_cc_init derives them (also for --print-config).
 * @return 0, or -EINVAL when a rate, RTT or packet size is 0.
 */
int uet_nscc_derive(const struct uet_cc_params *params,
		    struct uet_nscc_derived *out);

/** The window in nominal bytes. */
static inline uint64_t uet_cc_window_bytes(const struct uet_cc *cc)
{
	return cc->ops->window_bytes(cc);
}

/** An ACK: updates the base RTT from a valid sample, then the algorithm. */
void uet_cc_on_ack(struct uet_cc *cc, const struct uet_cc_ack *ack);

/** The round trip of a base-RTT probe (no hold on its ACK). */
void uet_cc_on_probe_rtt(struct uet_cc *cc, uet_time_t rtt_ps);

/** A trim NACK for an outstanding packet; in_flight_bytes is the group's
 * in-flight bytes once the trimmed packet is taken off (quick adapt). */
void uet_cc_on_trim(struct uet_cc *cc, uet_time_t now_ps,
		    uint32_t nominal_bytes, bool last_hop,
		    uint64_t in_flight_bytes);

/** A retransmission timeout of an in-flight packet. */
void uet_cc_on_timeout(struct uet_cc *cc, uet_time_t now_ps,
		       uint32_t nominal_bytes);

/** The base RTT estimate, ps. */
static inline uet_time_t uet_cc_base_rtt_ps(const struct uet_cc *cc)
{
	return cc->base_rtt_ps;
}

#endif /* UET_CC_H */
