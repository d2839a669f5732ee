/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Big-endian loads and stores on unaligned byte buffers, shared by the wire
 * builders and parsers. Byte by byte, so they are independent of the host's
 * endianness and never make an unaligned access.
 */
#ifndef UET_WIRE_BE_H
#define UET_WIRE_BE_H

#include <stdint.h>

static inline uint16_t uet_be16_load(const uint8_t *p)
{
	return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t uet_be24_load(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t uet_be32_load(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t uet_be64_load(const uint8_t *p)
{
	return (uint64_t)uet_be32_load(p) << 32 | uet_be32_load(p + 4);
}

static inline void uet_be16_store(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void uet_be24_store(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

static inline void uet_be32_store(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void uet_be64_store(uint8_t *p, uint64_t v)
{
	uet_be32_store(p, (uint32_t)(v >> 32));
	uet_be32_store(p + 4, (uint32_t)v);
}

#endif /* UET_WIRE_BE_H */
