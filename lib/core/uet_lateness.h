/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lateness of a realtime run: how far behind its virtual time an event ran
 * (the virtual clock read when the event started, minus the event's time),
 * kept as a log2 histogram in ns of virtual time with the count, the sum
 * and the maximum, so that a run can say how faithful it was.
 */
#ifndef UET_LATENESS_H
#define UET_LATENESS_H

#include <stdint.h>

#include "uet_time.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Buckets: 0 holds lateness under 1 ns; k in 1..30 holds [2^(k-1), 2^k) ns;
 * 31 holds 2^30 ns (about 1.07 s of virtual time) and more.
 */
#define UET_LATENESS_BUCKETS 32u

/** A lateness histogram. Zero-initialise it (or uet_lateness_init()). */
struct uet_lateness {
	uint64_t count;	   /**< events counted */
	uint64_t sum_ps;   /**< ps, total lateness (saturates) */
	uet_time_t max_ps; /**< ps, largest lateness seen */
	uint64_t bucket[UET_LATENESS_BUCKETS]; /**< events per bucket */
};

/** Empty a histogram. */
void uet_lateness_init(struct uet_lateness *l);

/**
 * The bucket a lateness falls in.
 *
 * @param late_ps
 *   ps of virtual time.
 * @return
 *   0 .. UET_LATENESS_BUCKETS - 1.
 */
unsigned int uet_lateness_bucket(uet_time_t late_ps);

/**
 * The exclusive upper bound of a bucket, in ns: 1 for bucket 0, 2^k for
 * bucket k; UINT64_MAX for the last, which has none.
 */
uint64_t uet_lateness_bucket_upper_ns(unsigned int k);

/** Count one event that ran late_ps behind its time. */
void uet_lateness_add(struct uet_lateness *l, uet_time_t late_ps);

/** Add every count of src into dst (a process's components together). */
void uet_lateness_merge(struct uet_lateness *dst,
			const struct uet_lateness *src);

/** @return the mean lateness in ps, rounded down (0 with no event). */
uet_time_t uet_lateness_mean_ps(const struct uet_lateness *l);

/**
 * An upper bound of a quantile: the upper bound in ns of the bucket that
 * holds the event of rank ceil(count * per_mille / 1000).
 *
 * @param per_mille
 *   1..1000 (990: the 99th percentile).
 * @return
 *   ns; 0 with no event; UINT64_MAX when the quantile is in the last
 *   bucket.
 */
uint64_t uet_lateness_quantile_upper_ns(const struct uet_lateness *l,
					unsigned int per_mille);

#ifdef __cplusplus
}
#endif

#endif /* UET_LATENESS_H */
