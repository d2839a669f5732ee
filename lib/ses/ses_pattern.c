/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The payload pattern: one read-only buffer whose bytes every data packet
 * points into, so payload is never copied and every received byte can be
 * checked with a memcmp.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_ses.h"

/* A fixed xorshift stream: the pattern must be the same in every process,
 * since the sender's and the receiver's may be different ones. Byte i is
 * the top half's low byte of the state after i + 1 steps from the seed. */
#define PATTERN_SEED UINT64_C(0x9e3779b97f4a7c15)

/*
 * The stream made as four at once, each a quarter of the period from the
 * state the one stream reaches there (constants below, which test_ses
 * checks against the one stream byte for byte). A step is six dependent
 * operations; four independent chains run in little more than the time
 * of one, and the pattern is made at every run's start (0.1 ms of a
 * 16-host run's CPU as one stream).
 */
#define PATTERN_STREAMS 4u
#define PATTERN_QUARTER (UET_SES_PATTERN_PERIOD_BYTES / PATTERN_STREAMS)

/* The state after PATTERN_QUARTER * k steps from PATTERN_SEED (for this
 * period only). */
_Static_assert(UET_SES_PATTERN_PERIOD_BYTES == 65537u,
	       "pattern_starts are the states of a 65,537-byte period");
static const uint64_t pattern_starts[PATTERN_STREAMS] = {
	PATTERN_SEED,
	UINT64_C(0x2f16c105fb716e09),
	UINT64_C(0xa16d39dd93298711),
	UINT64_C(0xc4b494f7b00aa26b),
};

static inline uint64_t pattern_step(uint64_t x)
{
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

int uet_ses_pattern_create(struct uet_ses_pattern **patternp)
{
	struct uet_ses_pattern *p;
	uint64_t x0 = pattern_starts[0], x1 = pattern_starts[1];
	uint64_t x2 = pattern_starts[2], x3 = pattern_starts[3];
	uint8_t *b;
	uint32_t i;

	if (patternp == NULL)
		return -EINVAL;
	p = malloc(sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	b = p->bytes;
	/* Four named states, not an array: kept in registers, the four
	 * chains overlap (27 us for the period, against 91 as one stream
	 * and 57 as an array of four). */
	for (i = 0; i < PATTERN_QUARTER; i++) {
		x0 = pattern_step(x0);
		x1 = pattern_step(x1);
		x2 = pattern_step(x2);
		x3 = pattern_step(x3);
		b[i] = (uint8_t)(x0 >> 32);
		b[PATTERN_QUARTER + i] = (uint8_t)(x1 >> 32);
		b[2 * PATTERN_QUARTER + i] = (uint8_t)(x2 >> 32);
		b[3 * PATTERN_QUARTER + i] = (uint8_t)(x3 >> 32);
	}
	/* The last stream goes on over what the quarters leave (65,537 is
	 * 4 x 16,384 + 1). */
	for (i = PATTERN_STREAMS * PATTERN_QUARTER;
	     i < UET_SES_PATTERN_PERIOD_BYTES; i++) {
		x3 = pattern_step(x3);
		b[i] = (uint8_t)(x3 >> 32);
	}
	/* The tail repeats the head, so a segment never wraps. */
	memcpy(p->bytes + UET_SES_PATTERN_PERIOD_BYTES, p->bytes,
	       UET_SES_MAX_MSS_BYTES);
	*patternp = p;
	return 0;
}

void uet_ses_pattern_free(struct uet_ses_pattern *pattern)
{
	free(pattern);
}

uint32_t uet_ses_pattern_shift(uint16_t message_id, uint32_t initiator)
{
	/* A multiplicative hash: consecutive message ids land far apart. */
	uint64_t h = ((uint64_t)initiator << 16 | message_id) *
		     UINT64_C(0x9e3779b97f4a7c15);

	return (uint32_t)((h >> 32) % UET_SES_PATTERN_PERIOD_BYTES);
}

int uet_ses_pattern_verify(const struct uet_ses_pattern *pattern,
			   uint32_t shift, uint64_t msg_offset_bytes,
			   const void *buf, size_t len)
{
	const uint8_t *want;

	if (len > UET_SES_MAX_MSS_BYTES)
		return -EINVAL;
	if (len == 0)
		return 0;
	want = uet_ses_pattern_at(pattern, shift, msg_offset_bytes);
	/* A frame that never left the process points into this very
	 * pattern: at the expected place its bytes are the expected ones,
	 * and reading both (two cold 4 KiB spans per packet) proves nothing
	 * more. Any other place, or a copy (a frame that crossed a port), is
	 * compared byte for byte. */
	if ((const uint8_t *)buf == want)
		return 0;
	if (memcmp(want, buf, len) != 0)
		return -EILSEQ;
	return 0;
}
