/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A seeded random number generator, one per component: xoshiro256**,
 * seeded through splitmix64 from the scenario seed and a stream number.
 */
#ifndef UET_RNG_H
#define UET_RNG_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A generator's state. Not thread-safe: one per component. */
struct uet_rng {
	uint64_t s[4]; /**< xoshiro256** state, never all zero */
};

/**
 * Seed a generator. Components derive their own stream from the scenario's
 * seed and their id, so that adding a component leaves the others'
 * sequences unchanged.
 *
 * @param r
 *   The generator.
 * @param seed
 *   The scenario's seed.
 * @param stream
 *   The component's stream number (its id); different streams of one seed
 *   give unrelated sequences.
 */
void uet_rng_seed(struct uet_rng *r, uint64_t seed, uint64_t stream);

static inline uint64_t uet_rng_rotl_(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/**
 * Next 64 random bits.
 *
 * @param r
 *   The generator.
 * @return
 *   A uniformly distributed 64-bit value.
 */
static inline uint64_t uet_rng_u64(struct uet_rng *r)
{
	uint64_t *s = r->s;
	const uint64_t result = uet_rng_rotl_(s[1] * 5, 7) * 9;
	const uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = uet_rng_rotl_(s[3], 45);
	return result;
}

/**
 * A uniform value in [0, n), without modulo bias (Lemire's multiply and
 * reject; it draws more than once only with probability below n / 2^64).
 *
 * @param r
 *   The generator.
 * @param n
 *   Number of possible values.
 * @return
 *   A value in [0, n); 0 if n is 0 (no draw is made then).
 */
static inline uint64_t uet_rng_bounded(struct uet_rng *r, uint64_t n)
{
	unsigned __int128 m;
	uint64_t low;

	if (n == 0)
		return 0;
	m = (unsigned __int128)uet_rng_u64(r) * n;
	low = (uint64_t)m;
	if (low < n) {
		/* 2^64 mod n: the low products that would bias the result. */
		const uint64_t threshold = (UINT64_MAX - n + 1) % n;

		while (low < threshold) {
			m = (unsigned __int128)uet_rng_u64(r) * n;
			low = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/**
 * A Bernoulli trial with probability ppm / 10^6, in integer arithmetic.
 * It always makes exactly one bounded draw, whatever ppm, so that changing
 * a probability does not shift the rest of the component's sequence.
 *
 * @param r
 *   The generator.
 * @param ppm
 *   Probability in parts per million; 0 is never, 10^6 or more is always.
 * @return
 *   true with probability ppm / 10^6.
 */
static inline bool uet_rng_chance_ppm(struct uet_rng *r, uint32_t ppm)
{
	return uet_rng_bounded(r, 1000000) < ppm;
}

#ifdef __cplusplus
}
#endif

#endif /* UET_RNG_H */
