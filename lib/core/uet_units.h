/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exact parsers and formatters for the units written in scenarios: rates,
 * sizes and fractions (durations are in uet_time.h). No floating point.
 */
#ifndef UET_UNITS_H
#define UET_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "uet_time.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UET_BPS_PER_KBPS UINT64_C(1000)		 /**< bps in one kbps */
#define UET_BPS_PER_MBPS UINT64_C(1000000)	 /**< bps in one Mbps */
#define UET_BPS_PER_GBPS UINT64_C(1000000000)	 /**< bps in one Gbps */
#define UET_BPS_PER_TBPS UINT64_C(1000000000000) /**< bps in one Tbps */

#define UET_BYTES_PER_KIB UINT64_C(1024)      /**< bytes in one KiB */
#define UET_BYTES_PER_MIB (UINT64_C(1) << 20) /**< bytes in one MiB */
#define UET_BYTES_PER_GIB (UINT64_C(1) << 30) /**< bytes in one GiB */

/** Parts per million that make a whole (100%). */
#define UET_PPM_ONE UINT32_C(1000000)

/**
 * Parse a rate such as "400Gbps", "31.52Gbps", "100Mbps", "1Tbps", "800bps".
 *
 * Units: bps, kbps (or Kbps), Mbps, Gbps, Tbps, all powers of 1000. The unit
 * may be left out only when the value is zero.
 *
 * @param str
 *   NUL-terminated text.
 * @param rate_bps
 *   Out: bits per second. Untouched on error.
 * @param reason
 *   Out, may be NULL: on error, a static string that says what is wrong.
 * @return
 *   0, or -EINVAL (bad number or unit, negative, finer than 1 bps, overflow).
 */
int uet_rate_parse(const char *str, uint64_t *rate_bps, const char **reason);

/**
 * Format a rate in its shortest exact form ("400Gbps", "31.52Gbps").
 *
 * @param rate_bps
 *   Bits per second.
 * @param buf
 *   Out: NUL-terminated text.
 * @param len
 *   Size of buf; UET_UNITS_FMT_LEN is always enough.
 * @return
 *   Length of the text, or -ENOSPC / -EINVAL as uet_time_format().
 */
int uet_rate_format(uint64_t rate_bps, char *buf, size_t len);

/**
 * Parse a size such as "4096", "4096B", "4KiB", "1.5KiB", "2MB", "1GiB".
 *
 * Units: B (the default), kB (or KB), MB, GB, TB in powers of 1000 and
 * KiB, MiB, GiB, TiB in powers of 1024.
 *
 * @param str
 *   NUL-terminated text.
 * @param size_bytes
 *   Out: bytes. Untouched on error.
 * @param reason
 *   Out, may be NULL: on error, a static string that says what is wrong.
 * @return
 *   0, or -EINVAL (bad number or unit, negative, a fraction of a byte,
 *   overflow).
 */
int uet_size_parse(const char *str, uint64_t *size_bytes, const char **reason);

/**
 * Format a size in its shortest exact form ("4KiB", "2MB", "4202B").
 *
 * @param size_bytes
 *   Bytes.
 * @param buf
 *   Out: NUL-terminated text.
 * @param len
 *   Size of buf; UET_UNITS_FMT_LEN is always enough.
 * @return
 *   Length of the text, or -ENOSPC / -EINVAL as uet_time_format().
 */
int uet_size_format(uint64_t size_bytes, char *buf, size_t len);

/**
 * Parse a fraction into parts per million: "25%" (250000), "0.01" (10000),
 * "150ppm" (150). A plain number is a fraction of one.
 *
 * Values above one ("150%") are accepted up to UINT32_MAX ppm; a caller
 * that needs a probability checks for <= UET_PPM_ONE itself.
 *
 * @param str
 *   NUL-terminated text.
 * @param ppm
 *   Out: parts per million. Untouched on error.
 * @param reason
 *   Out, may be NULL: on error, a static string that says what is wrong.
 * @return
 *   0, or -EINVAL (bad number or unit, negative, finer than 1 ppm,
 *   more than UINT32_MAX ppm).
 */
int uet_ppm_parse(const char *str, uint32_t *ppm, const char **reason);

/**
 * Format parts per million as an exact percentage ("25%", "0.0001%").
 *
 * @param ppm
 *   Parts per million.
 * @param buf
 *   Out: NUL-terminated text.
 * @param len
 *   Size of buf; UET_UNITS_FMT_LEN is always enough.
 * @return
 *   Length of the text, or -ENOSPC / -EINVAL as uet_time_format().
 */
int uet_ppm_format(uint32_t ppm, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* UET_UNITS_H */
