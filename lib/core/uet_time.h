/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Virtual time: unsigned 64-bit picoseconds, its constants, the exact
 * duration parser and formatter, and serialization time on a link.
 */
#ifndef UET_TIME_H
#define UET_TIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Virtual time or a duration, in picoseconds. */
typedef uint64_t uet_time_t;

#define UET_PS_PER_NS UINT64_C(1000)	     /**< ps in one nanosecond */
#define UET_PS_PER_US UINT64_C(1000000)	     /**< ps in one microsecond */
#define UET_PS_PER_MS UINT64_C(1000000000)   /**< ps in one millisecond */
#define UET_PS_PER_S UINT64_C(1000000000000) /**< ps in one second */
#define UET_BITS_PER_BYTE 8		     /**< bits in one byte (octet) */

/** A time that never comes: "no event pending", "no horizon". */
#define UET_TIME_NEVER UINT64_MAX

/** A buffer of this many bytes holds any formatted time, rate or size. */
#define UET_UNITS_FMT_LEN 48

/**
 * Parse a duration such as "84.04ns", "1.5us", "250ps", "10ms", "1s" or "0".
 *
 * The decimal number is read with integer arithmetic, so the result is
 * exact. Units: ps, ns, us (or µs), ms, s; the unit may be left out only
 * when the value is zero. Spaces may separate number and unit.
 *
 * @param str
 *   NUL-terminated text.
 * @param time_ps
 *   Out: the duration in ps. Untouched on error.
 * @param reason
 *   Out, may be NULL: on error, a static string that says what is wrong.
 * @return
 *   0, or -EINVAL for a bad number or unit, a negative value, a value finer
 *   than one picosecond ("1.0001ps") or one that overflows 64 bits.
 */
int uet_time_parse(const char *str, uet_time_t *time_ps, const char **reason);

/**
 * Format a duration in its shortest exact form ("84.04ns", "1.5us", "0ps").
 *
 * @param time_ps
 *   The duration, ps.
 * @param buf
 *   Out: NUL-terminated text.
 * @param len
 *   Size of buf in bytes; UET_UNITS_FMT_LEN is always enough.
 * @return
 *   Length of the text without the NUL, or -ENOSPC if buf is too small
 *   (buf then holds "" when len > 0), -EINVAL if buf is NULL.
 */
int uet_time_format(uet_time_t time_ps, char *buf, size_t len);

/**
 * Time to serialize a frame on a link, rounded UP to the next picosecond.
 *
 * Rounding up means a frame never leaves earlier than the wire allows; the
 * error is under 1 ps per frame. Computed with 128-bit integers.
 *
 * @param bytes
 *   Frame size in bytes (as counted by the caller: wire or IP size).
 * @param rate_bps
 *   Link rate in bits per second.
 * @return
 *   Duration in ps; UET_TIME_NEVER if rate_bps is 0 or the result does not
 *   fit in 64 bits.
 */
uet_time_t uet_serialization_ps(uint64_t bytes, uint64_t rate_bps);

/**
 * Whole bytes that a link serializes in a duration, rounded DOWN.
 *
 * The inverse of uet_serialization_ps(): for any n and any rate r up to
 * 8 Tbps, uet_bytes_in_duration(uet_serialization_ps(n, r), r) == n.
 *
 * @param duration_ps
 *   Duration, ps.
 * @param rate_bps
 *   Link rate in bits per second.
 * @return
 *   Bytes; saturates at UINT64_MAX.
 */
uint64_t uet_bytes_in_duration(uet_time_t duration_ps, uint64_t rate_bps);

#ifdef __cplusplus
}
#endif

#endif /* UET_TIME_H */
