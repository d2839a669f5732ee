/* SPDX-License-Identifier: BSD-3-Clause */
/* Serialization time on a link, in exact integer picoseconds. */
#include "uet_time.h"

typedef unsigned __int128 uet_u128;

/* One bit per second lasts this many ps; and 8 bits are one byte. */
#define PS_BITS_PER_BYTE_S ((uet_u128)UET_PS_PER_S * UET_BITS_PER_BYTE)

uet_time_t uet_serialization_ps(uint64_t bytes, uint64_t rate_bps)
{
	/* bytes * 8 * 10^12 < 2^64 * 2^43: no overflow in 128 bits. */
	uet_u128 num = (uet_u128)bytes * PS_BITS_PER_BYTE_S;
	uet_u128 ps;

	if (rate_bps == 0)
		return UET_TIME_NEVER;
	/* Round up: the last bit is not on the wire before this time. */
	ps = (num + rate_bps - 1) / rate_bps;
	if (ps >= UET_TIME_NEVER)
		return UET_TIME_NEVER;
	return (uet_time_t)ps;
}

uint64_t uet_bytes_in_duration(uet_time_t duration_ps, uint64_t rate_bps)
{
	/*
	 * floor(duration * rate / (8 * 10^12)). The full product could
	 * reach 2^128, so split the rate into quotient and remainder.
	 */
	uet_u128 q = rate_bps / PS_BITS_PER_BYTE_S;
	uet_u128 r = rate_bps % PS_BITS_PER_BYTE_S;
	uet_u128 bytes = (uet_u128)duration_ps * q +
			 (uet_u128)duration_ps * r / PS_BITS_PER_BYTE_S;

	if (bytes > UINT64_MAX)
		return UINT64_MAX;
	return (uint64_t)bytes;
}
