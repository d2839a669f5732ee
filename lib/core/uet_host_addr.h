/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Default host addresses (docs/design.md, Addresses): host i is
 * 198.18.0.1 + i in 198.18.0.0/15 (the RFC 2544 benchmarking range) and
 * has the locally administered MAC 02:00:00 followed by i + 1 on 24 bits, so
 * that a host's MAC ends like its offset in the /15 (02:00:00:00:01:00 is
 * 198.18.1.0, 02:00:00:01:00:00 is 198.19.0.0). The first 65,535 hosts keep the
 * 02:00:00:00:xx:xx of the 16-bit plan.
 */
#ifndef UET_HOST_ADDR_H
#define UET_HOST_ADDR_H

#include <errno.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** 198.18.0.0, the base of the hosts' /15, host order. */
#define UET_HOST_IPV4_NET UINT32_C(0xc6120000)
/** Prefix length of the hosts' range: 198.18.0.0/15. */
#define UET_HOST_IPV4_PREFIX_LEN 15
/**
 * Most hosts with a default address: the /15's 131,072 addresses less its
 * first (198.18.0.0, the network) and its last (198.19.255.255, the
 * broadcast), so 198.18.0.1 to 198.19.255.254. The IPv4 range is the
 * limit; the MACs' 24 bits would hold 16,777,215.
 */
#define UET_HOST_MAX_COUNT                                                     \
	((UINT32_C(1) << (32 - UET_HOST_IPV4_PREFIX_LEN)) - UINT32_C(2))
/** Bytes of a MAC address. */
#define UET_HOST_MAC_BYTES 6

/**
 * IPv4 address of a host.
 *
 * @param host
 *   Host index, below UET_HOST_MAX_COUNT.
 * @return
 *   The address in host order (198.18.0.1 for host 0), or 0 (0.0.0.0, which
 *   never routes) when host is out of range.
 */
static inline uint32_t uet_host_ipv4(uint32_t host)
{
	if (host >= UET_HOST_MAX_COUNT)
		return 0;
	return UET_HOST_IPV4_NET + 1 + host;
}

/**
 * MAC address of a host: 02:00:00 then host + 1 on 24 bits, big-endian
 * (02:00:00:00:00:01 for host 0, 02:00:00:01:00:00 for host 65,535).
 *
 * @param host
 *   Host index, below UET_HOST_MAX_COUNT.
 * @param mac
 *   Out: six bytes; untouched on error.
 * @return
 *   0, or -EINVAL when host is out of range.
 */
static inline int uet_host_mac(uint32_t host, uint8_t mac[UET_HOST_MAC_BYTES])
{
	const uint32_t id = host + 1;

	if (host >= UET_HOST_MAX_COUNT)
		return -EINVAL;
	mac[0] = 0x02; /* locally administered, unicast */
	mac[1] = 0;
	mac[2] = 0;
	mac[3] = (uint8_t)(id >> 16);
	mac[4] = (uint8_t)(id >> 8);
	mac[5] = (uint8_t)id;
	return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* UET_HOST_ADDR_H */
