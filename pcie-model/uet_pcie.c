/* SPDX-License-Identifier: BSD-3-Clause */
/* The PCIe link model: two serial directions and a write transmit buffer. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet_pcie.h"

#define UET_PCIE_PS_PER_S 1000000000000ULL
#define UET_PCIE_RING_INIT_SLOTS 16

/* GCC and clang both have it; __extension__ keeps -Wpedantic quiet. */
__extension__ typedef unsigned __int128 uet_pcie_u128;

/*
 * ceil(bytes * 8 * 10^12 / bps) in 128-bit integers: 4 GiB at 1 bit/s would
 * overflow 64 bits long before the division, and floating point is not
 * allowed for time. Saturates rather than wraps.
 */
static uet_time_t uet_pcie_ceil_ps(uint64_t bytes, uint64_t bps)
{
	uet_pcie_u128 num = (uet_pcie_u128)bytes * 8 * UET_PCIE_PS_PER_S;
	uet_pcie_u128 q = (num + bps - 1) / bps;

	if (q > UINT64_MAX)
		return UINT64_MAX;
	return (uet_time_t)q;
}

static uet_time_t uet_pcie_add_sat(uet_time_t a, uet_time_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uet_time_t uet_pcie_max(uet_time_t a, uet_time_t b)
{
	return a > b ? a : b;
}

static uint64_t uet_pcie_link_bps(const struct uet_pcie_params *params)
{
	return params->lane_bps * params->lane_count;
}

static uint64_t uet_pcie_tlp_count(const struct uet_pcie_params *params,
				   uint64_t payload_bytes)
{
	return (payload_bytes + params->max_payload_bytes - 1) /
	       params->max_payload_bytes;
}

int uet_pcie_params_check(const struct uet_pcie_params *params)
{
	if (params == NULL || params->lane_bps == 0 ||
	    params->lane_count == 0 || params->max_payload_bytes == 0 ||
	    params->read_request_bytes == 0)
		return -EINVAL;
	/* The link rate must fit in 64 bits for the division. */
	if (params->lane_bps > UINT64_MAX / params->lane_count)
		return -EINVAL;
	/* A buffer that cannot take one full TLP would never drain a write. */
	if ((uint64_t)params->write_buffer_bytes <
	    (uint64_t)params->max_payload_bytes + params->tlp_overhead_bytes)
		return -EINVAL;
	return 0;
}

uint64_t uet_pcie_link_bytes(const struct uet_pcie_params *params,
			     uint64_t payload_bytes)
{
	return payload_bytes + uet_pcie_tlp_count(params, payload_bytes) *
				       params->tlp_overhead_bytes;
}

uet_time_t uet_pcie_serialization_ps(const struct uet_pcie_params *params,
				     uint64_t bytes)
{
	return uet_pcie_ceil_ps(bytes, uet_pcie_link_bps(params));
}

uet_time_t uet_pcie_transfer_ps(const struct uet_pcie_params *params,
				uint64_t payload_bytes)
{
	return uet_pcie_serialization_ps(
		params, uet_pcie_link_bytes(params, payload_bytes));
}

uet_time_t uet_pcie_ack_hold_ps(const struct uet_pcie_params *params,
				uint64_t bytes)
{
	/* The page's estimate uses the raw lane rate: no TLP overhead. */
	return uet_pcie_serialization_ps(params, bytes);
}

int uet_pcie_init(struct uet_pcie *pcie, const struct uet_pcie_params *params)
{
	static const struct uet_pcie_params defaults = UET_PCIE_PARAMS_DEFAULTS;
	uint64_t slots;
	int ret;

	if (pcie == NULL)
		return -EINVAL;
	if (params == NULL)
		params = &defaults;
	ret = uet_pcie_params_check(params);
	if (ret < 0)
		return ret;
	memset(pcie, 0, sizeof(*pcie));
	pcie->params = *params;
	/* The check above makes the bound at least 1. */
	slots = params->write_buffer_bytes /
		((uint64_t)params->tlp_overhead_bytes + 1);
	if (slots > UET_PCIE_RING_INIT_SLOTS)
		slots = UET_PCIE_RING_INIT_SLOTS;
	pcie->ring = calloc((size_t)slots, sizeof(*pcie->ring));
	if (pcie->ring == NULL)
		return -ENOMEM;
	pcie->ring_slots = (uint32_t)slots;
	return 0;
}

void uet_pcie_fini(struct uet_pcie *pcie)
{
	if (pcie == NULL)
		return;
	free(pcie->ring);
	pcie->ring = NULL;
	pcie->ring_slots = 0;
	pcie->ring_head = 0;
	pcie->ring_count = 0;
	pcie->buffered_bytes = 0;
}

static int uet_pcie_check_issue(struct uet_pcie *pcie, uet_time_t issue_ps)
{
	if (issue_ps < pcie->last_issue_ps)
		return -EINVAL;
	pcie->last_issue_ps = issue_ps;
	return 0;
}

/*
 * Put a transfer on one direction after everything queued there before it;
 * return the time its last byte leaves.
 */
static uet_time_t uet_pcie_send(struct uet_pcie *pcie, enum uet_pcie_dir dir,
				uet_time_t ready_ps, uint64_t payload_bytes,
				uint64_t link_bytes, uint64_t tlps)
{
	struct uet_pcie_dir_stats *st = &pcie->stats[dir];
	uet_time_t start_ps = uet_pcie_max(ready_ps, pcie->free_ps[dir]);
	uet_time_t dur_ps =
		uet_pcie_serialization_ps(&pcie->params, link_bytes);
	uet_time_t end_ps = uet_pcie_add_sat(start_ps, dur_ps);

	pcie->free_ps[dir] = end_ps;
	st->link_bytes += link_bytes;
	st->payload_bytes += payload_bytes;
	st->tlps += tlps;
	st->busy_ps = uet_pcie_add_sat(st->busy_ps, dur_ps);
	return end_ps;
}

int uet_pcie_read(struct uet_pcie *pcie, uet_time_t issue_ps,
		  uint32_t payload_bytes, uet_time_t *arrival_ps)
{
	const struct uet_pcie_params *p;
	uet_time_t req_end_ps;
	int ret;

	if (pcie == NULL || arrival_ps == NULL)
		return -EINVAL;
	ret = uet_pcie_check_issue(pcie, issue_ps);
	if (ret < 0)
		return ret;
	/* Nothing to fetch for a packet with no payload. */
	if (payload_bytes == 0) {
		*arrival_ps = issue_ps;
		return 0;
	}
	p = &pcie->params;
	req_end_ps = uet_pcie_send(
		pcie, UET_PCIE_NIC_TO_HOST, issue_ps, p->read_request_bytes,
		(uint64_t)p->read_request_bytes + p->tlp_overhead_bytes, 1);
	/*
	 * Host memory answers at once; host-to-NIC is FIFO in call order, so
	 * completions come back in the order the requests were sent.
	 */
	*arrival_ps = uet_pcie_send(pcie, UET_PCIE_HOST_TO_NIC, req_end_ps,
				    payload_bytes,
				    uet_pcie_link_bytes(p, payload_bytes),
				    uet_pcie_tlp_count(p, payload_bytes));
	return 0;
}

static struct uet_pcie_write_slot *uet_pcie_ring_at(const struct uet_pcie *pcie,
						    uint32_t i)
{
	return &pcie->ring[(pcie->ring_head + i) % pcie->ring_slots];
}

/* Forget the writes whose last TLP has left by now_ps. */
static void uet_pcie_ring_drain(struct uet_pcie *pcie, uet_time_t now_ps)
{
	while (pcie->ring_count > 0) {
		struct uet_pcie_write_slot *w = uet_pcie_ring_at(pcie, 0);

		if (w->done_ps > now_ps)
			break;
		pcie->buffered_bytes -= w->link_bytes;
		pcie->ring_head = (pcie->ring_head + 1) % pcie->ring_slots;
		pcie->ring_count--;
	}
}

/*
 * Double the ring, but never past the most writes the buffer can hold at
 * once: each write holds at least one payload byte and one TLP overhead.
 */
static int uet_pcie_ring_grow(struct uet_pcie *pcie)
{
	const struct uet_pcie_params *p = &pcie->params;
	uint64_t bound = (uint64_t)p->write_buffer_bytes /
			 ((uint64_t)p->tlp_overhead_bytes + 1);
	uint64_t slots = (uint64_t)pcie->ring_slots * 2;
	struct uet_pcie_write_slot *ring;
	uint32_t i;

	if (slots > bound)
		slots = bound;
	if (slots <= pcie->ring_count)
		return -ENOMEM; /* unreachable while the bound holds */

	ring = calloc((size_t)slots, sizeof(*ring));
	if (ring == NULL)
		return -ENOMEM;
	for (i = 0; i < pcie->ring_count; i++)
		ring[i] = *uet_pcie_ring_at(pcie, i);
	free(pcie->ring);
	pcie->ring = ring;
	pcie->ring_slots = (uint32_t)slots;
	pcie->ring_head = 0;
	return 0;
}

int uet_pcie_write(struct uet_pcie *pcie, uet_time_t issue_ps,
		   uint32_t payload_bytes, uet_time_t *accepted_ps,
		   uet_time_t *done_ps)
{
	const struct uet_pcie_params *p;
	uet_time_t accept_ps = issue_ps;
	uet_time_t end_ps;
	uint64_t link_bytes;
	struct uet_pcie_write_slot *w;
	int ret;

	if (pcie == NULL || accepted_ps == NULL || pcie->ring == NULL)
		return -EINVAL;
	p = &pcie->params;
	link_bytes = uet_pcie_link_bytes(p, payload_bytes);
	if (link_bytes > p->write_buffer_bytes)
		return -EMSGSIZE;
	ret = uet_pcie_check_issue(pcie, issue_ps);
	if (ret < 0)
		return ret;
	if (payload_bytes == 0) {
		*accepted_ps = issue_ps;
		if (done_ps != NULL)
			*done_ps = issue_ps;
		return 0;
	}
	uet_pcie_ring_drain(pcie, issue_ps);
	/*
	 * Full buffer: writes leave in order, so wait for the oldest ones
	 * until this one fits. The last departure waited for is never later
	 * than the time NIC-to-host becomes free, so no gap opens on the link.
	 */
	while (pcie->buffered_bytes + link_bytes > p->write_buffer_bytes) {
		w = uet_pcie_ring_at(pcie, 0);
		accept_ps = uet_pcie_max(accept_ps, w->done_ps);
		uet_pcie_ring_drain(pcie, w->done_ps);
	}
	if (pcie->ring_count == pcie->ring_slots) {
		ret = uet_pcie_ring_grow(pcie);
		if (ret < 0)
			return ret;
	}
	end_ps = uet_pcie_send(pcie, UET_PCIE_NIC_TO_HOST, accept_ps,
			       payload_bytes, link_bytes,
			       uet_pcie_tlp_count(p, payload_bytes));
	w = uet_pcie_ring_at(pcie, pcie->ring_count);
	w->done_ps = end_ps;
	w->link_bytes = link_bytes;
	pcie->ring_count++;
	pcie->buffered_bytes += link_bytes;
	*accepted_ps = accept_ps;
	if (done_ps != NULL)
		*done_ps = end_ps;
	return 0;
}

uint64_t uet_pcie_write_buffer_used(const struct uet_pcie *pcie,
				    uet_time_t now_ps)
{
	uint64_t used = 0;
	uint32_t i;

	if (pcie == NULL || pcie->ring == NULL)
		return 0;
	for (i = 0; i < pcie->ring_count; i++) {
		const struct uet_pcie_write_slot *w = uet_pcie_ring_at(pcie, i);

		if (w->done_ps > now_ps)
			used += w->link_bytes;
	}
	return used;
}

uet_time_t uet_pcie_free_ps(const struct uet_pcie *pcie, enum uet_pcie_dir dir)
{
	if (pcie == NULL || (unsigned int)dir >= UET_PCIE_DIR_COUNT)
		return 0;
	return pcie->free_ps[dir];
}

int uet_pcie_stats_get(const struct uet_pcie *pcie, enum uet_pcie_dir dir,
		       struct uet_pcie_dir_stats *stats)
{
	if (pcie == NULL || stats == NULL ||
	    (unsigned int)dir >= UET_PCIE_DIR_COUNT)
		return -EINVAL;
	*stats = pcie->stats[dir];
	return 0;
}
