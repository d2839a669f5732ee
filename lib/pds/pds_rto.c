/* SPDX-License-Identifier: BSD-3-Clause */
/* Retransmission timeout per attempt, and the ACK service time field. */
#include <errno.h>

#include "uet_pds.h"

int uet_pds_params_check(const struct uet_pds_params *params)
{
	if (params->ack_request_every_nth == 0)
		return -EINVAL;
	if (params->fixed_rexmit_enable) {
		if (params->fixed_rexmit_timeout_ps == 0)
			return -EINVAL;
	} else if (params->initial_rto_ps == 0) {
		return -EINVAL;
	}
	return 0;
}

uet_time_t uet_pds_rto_ps(const struct uet_pds_params *params,
			  uint32_t transmit_count)
{
	uet_time_t t0 = params->initial_rto_ps;
	uint32_t doublings;

	if (params->fixed_rexmit_enable)
		return params->fixed_rexmit_timeout_ps;
	if (transmit_count == 0)
		transmit_count = 1;
	/* Attempt a runs T0 * 2^min(a - 1, M): each retransmission doubles
	 * the packet's timeout until M doublings, then it stays. */
	doublings = transmit_count - 1;
	if (doublings > params->max_rto_backoff_count)
		doublings = params->max_rto_backoff_count;
	if (t0 == 0)
		return 0;
	/* Saturate rather than wrap: a huge M must not give a short timer. */
	if (doublings >= 64 || t0 > (UINT64_MAX >> doublings))
		return UINT64_MAX;
	return t0 << doublings;
}

uint16_t uet_pds_service_time_steps(uet_time_t hold_ps)
{
	uint64_t steps = hold_ps / UET_PDS_SERVICE_TIME_STEP_PS;

	/* The field is 16 bits; a longer hold reports the largest value. */
	return steps > UINT16_MAX ? UINT16_MAX : (uint16_t)steps;
}

uet_time_t uet_pds_service_time_ps(uint16_t steps)
{
	return (uet_time_t)steps * UET_PDS_SERVICE_TIME_STEP_PS;
}
