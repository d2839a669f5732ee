/* SPDX-License-Identifier: BSD-3-Clause */
/* The ACK-request rule: which data packets of a PDC carry the AR flag, and
 * which packets the receiver acknowledges. */
#include "uet_pds.h"

bool uet_pds_ack_request(const struct uet_pds_params *params,
			 uint64_t packet_count, bool last_of_message)
{
	uint64_t n = params->ack_request_every_nth;

	/* N = 0 is rejected by uet_pds_params_check(); read it as 1 here so a
	 * bad attribute cannot divide by zero. */
	if (n == 0)
		n = 1;
	if (params->ack_request_last && last_of_message)
		return true;
	/* k counts from 1. The first-packet variant flags 1, N+1, 2N+1...;
	 * the other flags N, 2N, 3N... */
	if (packet_count == 0)
		return false;
	if (params->ack_request_first)
		return (packet_count - 1) % n == 0;
	return packet_count % n == 0;
}

bool uet_pds_rx_acknowledges(bool ack_request, bool last_arrived)
{
	/* After the message's last packet the request rule cannot fire
	 * again for what is still unacknowledged: the receiver answers
	 * every packet itself. */
	return ack_request || last_arrived;
}
