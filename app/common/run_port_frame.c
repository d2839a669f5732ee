/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The largest frame a port carries, from its device string
 * (run_port_frame.h). Measured over veth by running RdmaDataMSS values up
 * to the first that was lost (tests/ports/frame-limits.sh): af_packet
 * with framesz=8192 carried 8,126-byte frames, not 8,127, so its ring
 * slot gives 66 bytes to the kernel's packet header (TPACKET_V2's 32,
 * the sockaddr_ll, alignment) before the frame; memif with bsize=8192
 * carried 8,192.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_port_frame.h"

/* Bytes of an af_packet ring slot before the frame (measured, above). */
#define AF_PACKET_SLOT_HDR_BYTES 66u
/* The PMDs' defaults when the device string says nothing. */
#define AF_PACKET_FRAMESZ_DEFAULT 2048u
#define MEMIF_BSIZE_DEFAULT 2048u

/* The number after ",key=" in devargs, or dflt. */
static uint32_t devarg_u32(const char *devargs, const char *key, uint32_t dflt)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof(pat), ",%s=", key);
	p = strstr(devargs, pat);
	if (p == NULL)
		return dflt;
	return (uint32_t)strtoul(p + strlen(pat), NULL, 10);
}

uint32_t run_port_frame_max(const char *devargs, char *why, size_t len)
{
	uint32_t v;

	if (strncmp(devargs, "net_af_packet", strlen("net_af_packet")) == 0) {
		v = devarg_u32(devargs, "framesz", AF_PACKET_FRAMESZ_DEFAULT);
		snprintf(why, len,
			 "framesz=%u, less the kernel's %u-byte packet header",
			 v, AF_PACKET_SLOT_HDR_BYTES);
		return v > AF_PACKET_SLOT_HDR_BYTES
			       ? v - AF_PACKET_SLOT_HDR_BYTES
			       : 0;
	}
	if (strncmp(devargs, "net_memif", strlen("net_memif")) == 0) {
		v = devarg_u32(devargs, "bsize", MEMIF_BSIZE_DEFAULT);
		snprintf(why, len, "bsize=%u", v);
		return v;
	}
	if (len > 0)
		why[0] = '\0';
	return 0;
}
