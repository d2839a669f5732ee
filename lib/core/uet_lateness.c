/* SPDX-License-Identifier: BSD-3-Clause */
/* The lateness histogram of a realtime run (log2 buckets in ns). */
#include <string.h>

#include "uet_lateness.h"

void uet_lateness_init(struct uet_lateness *l)
{
	memset(l, 0, sizeof(*l));
}

unsigned int uet_lateness_bucket(uet_time_t late_ps)
{
	uint64_t ns = late_ps / UET_PS_PER_NS;
	unsigned int k;

	if (ns == 0)
		return 0;
	/* ns in [2^(k-1), 2^k) lands in bucket k. */
	k = 64u - (unsigned int)__builtin_clzll(ns);
	return k < UET_LATENESS_BUCKETS ? k : UET_LATENESS_BUCKETS - 1;
}

uint64_t uet_lateness_bucket_upper_ns(unsigned int k)
{
	if (k >= UET_LATENESS_BUCKETS - 1)
		return UINT64_MAX;
	return UINT64_C(1) << k;
}

void uet_lateness_add(struct uet_lateness *l, uet_time_t late_ps)
{
	l->count++;
	l->sum_ps = l->sum_ps + late_ps < l->sum_ps ? UINT64_MAX
						    : l->sum_ps + late_ps;
	if (late_ps > l->max_ps)
		l->max_ps = late_ps;
	l->bucket[uet_lateness_bucket(late_ps)]++;
}

void uet_lateness_merge(struct uet_lateness *dst,
			const struct uet_lateness *src)
{
	unsigned int k;

	dst->count += src->count;
	dst->sum_ps = dst->sum_ps + src->sum_ps < dst->sum_ps
			      ? UINT64_MAX
			      : dst->sum_ps + src->sum_ps;
	if (src->max_ps > dst->max_ps)
		dst->max_ps = src->max_ps;
	for (k = 0; k < UET_LATENESS_BUCKETS; k++)
		dst->bucket[k] += src->bucket[k];
}

uet_time_t uet_lateness_mean_ps(const struct uet_lateness *l)
{
	return l->count == 0 ? 0 : l->sum_ps / l->count;
}

uint64_t uet_lateness_quantile_upper_ns(const struct uet_lateness *l,
					unsigned int per_mille)
{
	uint64_t rank, seen = 0;
	unsigned int k;

	if (l->count == 0)
		return 0;
	if (per_mille > 1000)
		per_mille = 1000;
	rank = (l->count * per_mille + 999) / 1000;
	if (rank == 0)
		rank = 1;
	for (k = 0; k < UET_LATENESS_BUCKETS; k++) {
		seen += l->bucket[k];
		if (seen >= rank)
			return uet_lateness_bucket_upper_ns(k);
	}
	return UINT64_MAX;
}
