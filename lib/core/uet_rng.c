/* SPDX-License-Identifier: BSD-3-Clause */
/* Seeding of the per-component generators. */
#include "uet_rng.h"

/* splitmix64's finaliser: a bijection on 64 bits with good avalanche. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t splitmix64_next(uint64_t *state)
{
	*state += UINT64_C(0x9e3779b97f4a7c15);
	return mix64(*state);
}

void uet_rng_seed(struct uet_rng *r, uint64_t seed, uint64_t stream)
{
	/*
	 * Mix the stream before combining it with the seed: with plain
	 * seed + stream, (s, k + 1) and (s + 1, k) would be one generator, and
	 * nearby streams would share splitmix64 states, shifted by a step.
	 */
	uint64_t state = seed ^ mix64(stream + UINT64_C(0x632be59bd9b4e019));
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64_next(&state);
	/* All-zero is xoshiro's one fixed point; splitmix64 never gives it. */
	if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0)
		r->s[0] = 1;
}
