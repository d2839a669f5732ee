/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Segmentation (the page's "Segmentation"): a message of N bytes is
 * ceil(N / RdmaDataMSS) packets of min(RdmaDataMSS, bytes left) bytes; an
 * empty message is one packet with no payload.
 */
#include <errno.h>

#include "uet_ses.h"

uint32_t uet_ses_segment_count(uint64_t msg_bytes, uint32_t mss_bytes)
{
	if (mss_bytes == 0)
		return 0;
	if (msg_bytes == 0)
		return 1;
	return (uint32_t)((msg_bytes + mss_bytes - 1) / mss_bytes);
}

int uet_ses_segment_get(uint64_t msg_bytes, uint32_t mss_bytes, uint32_t index,
			struct uet_ses_segment *seg)
{
	uint32_t count = uet_ses_segment_count(msg_bytes, mss_bytes);
	uint64_t left;

	if (count == 0 || index >= count || seg == NULL)
		return -EINVAL;
	seg->index = index;
	seg->msg_offset_bytes = (uint64_t)index * mss_bytes;
	left = msg_bytes - seg->msg_offset_bytes;
	seg->payload_bytes = (uint32_t)(left < mss_bytes ? left : mss_bytes);
	seg->som = index == 0;
	seg->eom = index == count - 1;
	return 0;
}
