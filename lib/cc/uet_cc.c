/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A group's controller: picks the algorithm, keeps the counters and the
 * base-RTT estimate every algorithm shares, then hands each event to the
 * algorithm's ops.
 */
#include <errno.h>
#include <string.h>

#include "cc_private.h"

int uet_cc_init(struct uet_cc *cc, const struct uet_cc_params *params)
{
	struct uet_cc fresh;
	int rc;

	if (cc == NULL || params == NULL)
		return -EINVAL;
	/* Every window and every packet is counted in nominal bytes; a zero
	 * packet size has no meaning for any algorithm. */
	if (params->mtu_nominal_bytes == 0)
		return -EINVAL;

	/* Build in a local copy so that a failed init leaves *cc as it was. */
	memset(&fresh, 0, sizeof(fresh));
	fresh.params = *params;
	fresh.base_rtt_ps = params->initial_base_rtt_ps;
	switch (params->algo) {
	case UET_CC_FIXED:
		rc = uet_cc_fixed_init(&fresh);
		break;
	case UET_CC_NSCC:
		rc = uet_cc_nscc_init(&fresh);
		break;
	default:
		rc = -EINVAL;
		break;
	}
	if (rc < 0)
		return rc;
	*cc = fresh;
	return 0;
}

/* The base RTT only ever falls: it estimates the round trip with empty
 * queues, so a larger sample says "queueing", never "the path got longer". */
static void cc_lower_base_rtt(struct uet_cc *cc, uet_time_t sample_ps)
{
	cc->n_rtt_samples++;
	if (sample_ps < cc->base_rtt_ps)
		cc->base_rtt_ps = sample_ps;
}

void uet_cc_on_ack(struct uet_cc *cc, const struct uet_cc_ack *ack)
{
	cc->n_acks++;
	/* The receiver held the ACK for its PCIe service time: remove it, so
	 * a backlog at the receiver's host does not read as a long path. A
	 * service time longer than the whole round trip cannot be right
	 * (the field is rounded down), so such a sample is dropped. */
	if (ack->rtt_valid && ack->service_ps <= ack->rtt_ps)
		cc_lower_base_rtt(cc, ack->rtt_ps - ack->service_ps);
	cc->ops->on_ack(cc, ack);
}

void uet_cc_on_probe_rtt(struct uet_cc *cc, uet_time_t rtt_ps)
{
	/* A probe's ACK is not held: its round trip is the sample as is. */
	cc_lower_base_rtt(cc, rtt_ps);
}

void uet_cc_on_trim(struct uet_cc *cc, uet_time_t now_ps,
		    uint32_t nominal_bytes, bool last_hop,
		    uint64_t in_flight_bytes)
{
	cc->n_trims++;
	cc->ops->on_trim(cc, now_ps, nominal_bytes, last_hop, in_flight_bytes);
}

void uet_cc_on_timeout(struct uet_cc *cc, uet_time_t now_ps,
		       uint32_t nominal_bytes)
{
	cc->n_timeouts++;
	cc->ops->on_timeout(cc, now_ps, nominal_bytes);
}

const char *uet_cc_reason_name(enum uet_cc_reason r)
{
	static const char *const names[UET_CC_R_COUNT] = {
		[UET_CC_R_NONE] = "none",
		[UET_CC_R_FAIR_INC] = "fair_increase",
		[UET_CC_R_PROP_INC] = "proportional_increase",
		[UET_CC_R_FAST_INC] = "fast_increase",
		[UET_CC_R_MULT_DEC] = "multiplicative_decrease",
		[UET_CC_R_ECN_LOW_DELAY] = "ecn_low_delay",
		[UET_CC_R_QUICK_ADAPT] = "quick_adapt",
		[UET_CC_R_QA_IGNORE] = "quick_adapt_ignore",
		[UET_CC_R_ADJUST] = "adjust",
		[UET_CC_R_ETA] = "eta",
		[UET_CC_R_RCV_PENALTY] = "receiver_penalty",
		[UET_CC_R_TRIM] = "trim",
		[UET_CC_R_TIMEOUT] = "timeout",
		[UET_CC_R_MAXWND] = "max_window",
	};

	if ((unsigned int)r >= UET_CC_R_COUNT)
		return "unknown";
	return names[r];
}
