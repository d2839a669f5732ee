/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * State of one message at each end and its three completions (the page's
 * "Completion"): transmit completion when the last packet has been sent for
 * the first time, arrival when the packet ending the message has arrived
 * with no gap before it, completion at the last acknowledgement.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_ses.h"

int uet_ses_msg_tx_init(struct uet_ses_msg_tx *msg, uint64_t msg_id,
			uint64_t bytes, uint32_t mss_bytes, uint16_t message_id,
			uint32_t initiator, uet_time_t posted_ps)
{
	if (msg == NULL || mss_bytes == 0 ||
	    mss_bytes > UET_SES_MAX_MSS_BYTES ||
	    bytes > UET_SES_MAX_MESSAGE_BYTES)
		return -EINVAL;
	memset(msg, 0, sizeof(*msg));
	msg->msg_id = msg_id;
	msg->bytes = bytes;
	msg->mss_bytes = mss_bytes;
	msg->segments = uet_ses_segment_count(bytes, mss_bytes);
	msg->message_id = message_id;
	msg->initiator = initiator;
	msg->posted_ps = posted_ps;
	return 0;
}

int uet_ses_msg_tx_take_segment(struct uet_ses_msg_tx *msg,
				struct uet_ses_segment *seg)
{
	int rc;

	if (msg->next_segment >= msg->segments)
		return -ENOENT;
	rc = uet_ses_segment_get(msg->bytes, msg->mss_bytes, msg->next_segment,
				 seg);
	if (rc == 0)
		msg->next_segment++;
	return rc;
}

bool uet_ses_msg_tx_first_sent(struct uet_ses_msg_tx *msg, uet_time_t now_ps)
{
	if (msg->sent)
		return false;
	msg->first_sent++;
	if (msg->first_sent < msg->segments)
		return false;
	msg->sent = true;
	msg->sent_ps = now_ps;
	return true;
}

bool uet_ses_msg_tx_acked(struct uet_ses_msg_tx *msg, uint32_t count,
			  uet_time_t now_ps)
{
	if (msg->completed)
		return false;
	msg->acked += count;
	if (msg->acked < msg->segments)
		return false;
	msg->completed = true;
	msg->completed_ps = now_ps;
	return true;
}

void uet_ses_msg_rx_init(struct uet_ses_msg_rx *msg, uint64_t msg_id,
			 uint64_t bytes, uint16_t message_id,
			 uint32_t initiator)
{
	memset(msg, 0, sizeof(*msg));
	msg->msg_id = msg_id;
	msg->bytes = bytes;
	msg->message_id = message_id;
	msg->initiator = initiator;
	msg->shift = uet_ses_pattern_shift(message_id, initiator);
}

int uet_ses_arrivals_create(struct uet_ses_arrivals **tablep, uint64_t count)
{
	struct uet_ses_arrivals *t;
	uint64_t i;

	if (tablep == NULL || count == 0 || count > (UINT64_C(1) << 32))
		return -EINVAL;
	t = malloc(sizeof(*t));
	if (t == NULL)
		return -ENOMEM;
	t->arrived_ps = malloc(count * sizeof(*t->arrived_ps));
	if (t->arrived_ps == NULL) {
		free(t);
		return -ENOMEM;
	}
	for (i = 0; i < count; i++)
		t->arrived_ps[i] = UET_TIME_NEVER;
	t->count = count;
	*tablep = t;
	return 0;
}

void uet_ses_arrivals_free(struct uet_ses_arrivals *table)
{
	if (table == NULL)
		return;
	free(table->arrived_ps);
	free(table);
}

void uet_ses_arrivals_set(struct uet_ses_arrivals *table, uint64_t msg_id,
			  uet_time_t arrived_ps)
{
	if (table != NULL && msg_id < table->count)
		table->arrived_ps[msg_id] = arrived_ps;
}

uet_time_t uet_ses_arrivals_get(const struct uet_ses_arrivals *table,
				uint64_t msg_id)
{
	if (table == NULL || msg_id >= table->count)
		return UET_TIME_NEVER;
	return table->arrived_ps[msg_id];
}
