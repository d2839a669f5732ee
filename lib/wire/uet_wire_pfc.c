/* SPDX-License-Identifier: BSD-3-Clause */
/* IEEE 802.1Qbb PFC frames. */
#include <errno.h>
#include <string.h>

#include "uet_wire_be.h"
#include "uet_wire_pfc.h"

static int reject(enum uet_wire_reason *reason, enum uet_wire_reason why)
{
	if (reason != NULL)
		*reason = why;
	return -EBADMSG;
}

int uet_pfc_build(uint8_t *buf, size_t cap, const struct uet_pfc *pfc)
{
	static const uint8_t dst[UET_ETH_ADDR_LEN] = UET_PFC_DST_INIT;
	unsigned int c;

	if (cap < UET_PFC_FRAME_BYTES)
		return -ENOSPC;
	memset(buf, 0, UET_PFC_FRAME_BYTES);
	memcpy(buf, dst, UET_ETH_ADDR_LEN);
	memcpy(buf + 6, pfc->src, UET_ETH_ADDR_LEN);
	uet_be16_store(buf + 12, UET_ETHERTYPE_MAC_CONTROL);
	uet_be16_store(buf + 14, UET_PFC_OPCODE);
	uet_be16_store(buf + 16, pfc->class_enable);
	for (c = 0; c < UET_PFC_CLASSES; c++)
		uet_be16_store(buf + 18 + 2 * c, pfc->quanta[c]);
	return UET_PFC_FRAME_BYTES;
}

int uet_pfc_parse(const uint8_t *buf, size_t len, struct uet_pfc *pfc,
		  enum uet_wire_reason *reason)
{
	unsigned int c;

	if (len < UET_ETH_HDR_BYTES)
		return reject(reason, UET_WIRE_ETH_SHORT);
	if (uet_be16_load(buf + 12) != UET_ETHERTYPE_MAC_CONTROL)
		return reject(reason, UET_WIRE_PFC_ETHERTYPE);
	if (len < UET_PFC_BYTES)
		return reject(reason, UET_WIRE_PFC_SHORT);
	if (uet_be16_load(buf + 14) != UET_PFC_OPCODE)
		return reject(reason, UET_WIRE_PFC_OPCODE);
	memcpy(pfc->dst, buf, UET_ETH_ADDR_LEN);
	memcpy(pfc->src, buf + 6, UET_ETH_ADDR_LEN);
	/* The vector's upper byte is reserved: ignored on receipt. */
	pfc->class_enable = buf[17];
	for (c = 0; c < UET_PFC_CLASSES; c++)
		pfc->quanta[c] = uet_be16_load(buf + 18 + 2 * c);
	return 0;
}

uet_time_t uet_pfc_quanta_to_ps(uint16_t quanta, uint64_t rate_bps)
{
	/* bits * 1e12 exceeds 64 bits from about 18 Mbit of pause: compute
	 * in 128 bits; only a rate of 1 bit/s can overflow the result. */
	__extension__ typedef unsigned __int128 u128;
	u128 num, ps;

	if (rate_bps == 0)
		return 0;
	num = (u128)quanta * UET_PFC_QUANTUM_BITS * 1000000000000ull;
	ps = (num + rate_bps - 1) / rate_bps;
	return ps > UINT64_MAX ? UINT64_MAX : (uet_time_t)ps;
}

uet_time_t uet_pfc_refresh_ps(uint16_t quanta, uint64_t rate_bps)
{
	const uet_time_t half = uet_pfc_quanta_to_ps(quanta, rate_bps) / 2;

	return half == 0 ? 1 : half;
}

uet_time_t uet_pfc_pause_end_ps(uet_time_t now_ps, uet_time_t pause_ps)
{
	return pause_ps > UET_TIME_NEVER - 1 - now_ps ? UET_TIME_NEVER - 1
						      : now_ps + pause_ps;
}

void uet_pfc_set_classes(struct uet_pfc *pfc, uint8_t classes, uint16_t quanta)
{
	unsigned int c;

	pfc->class_enable = classes;
	for (c = 0; c < UET_PFC_CLASSES; c++)
		pfc->quanta[c] = classes >> c & 1u ? quanta : 0;
}
