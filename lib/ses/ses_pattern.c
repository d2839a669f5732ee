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
 * since the sender's and the receiver's may be different ones. */
#define PATTERN_SEED UINT64_C(0x9e3779b97f4a7c15)

int uet_ses_pattern_create(struct uet_ses_pattern **patternp)
{
	struct uet_ses_pattern *p;
	uint64_t x = PATTERN_SEED;
	uint32_t i;

	if (patternp == NULL)
		return -EINVAL;
	p = malloc(sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	for (i = 0; i < UET_SES_PATTERN_PERIOD_BYTES; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p->bytes[i] = (uint8_t)(x >> 32);
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
