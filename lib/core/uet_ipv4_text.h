/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IPv4 addresses as text, the one formatter and the one parser of the
 * project: records, log lines, error messages, scenario attributes
 * (switch.external_hosts) and command lines (uet-frames --src-ip) all go
 * through these, so an address reads and writes the same everywhere.
 * Addresses are host-order uint32_t, as uet_host_addr.h gives them.
 */
#ifndef UET_IPV4_TEXT_H
#define UET_IPV4_TEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bytes of the longest dotted quad, "255.255.255.255", with its NUL. */
#define UET_IPV4_TEXT_BYTES 16

/**
 * Write an address as a dotted quad ("198.18.0.1"), NUL-terminated.
 *
 * @param ip
 *   The address, host order.
 * @param out
 *   Out: the text; UET_IPV4_TEXT_BYTES hold any address.
 * @return
 *   Characters written, the NUL not counted (7 to 15).
 */
size_t uet_ipv4_format(uint32_t ip, char out[UET_IPV4_TEXT_BYTES]);

/**
 * Read a dotted quad at the start of a text: four decimal numbers of one to
 * three digits, each at most 255, separated by dots. What follows it is the
 * caller's to judge (a comma of a list, the end of a field).
 *
 * @param text
 *   The text; not NUL-terminated necessarily.
 * @param len
 *   Characters of text that may be read.
 * @param ip
 *   Out: the address, host order; untouched when there is none.
 * @return
 *   Characters the address took (7 to 15), or 0 when text does not start
 *   with one.
 */
size_t uet_ipv4_scan(const char *text, size_t len, uint32_t *ip);

#ifdef __cplusplus
}
#endif

#endif /* UET_IPV4_TEXT_H */
