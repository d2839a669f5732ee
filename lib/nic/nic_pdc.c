/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * PDCs and PDC groups (the page's "Messages and packet delivery contexts"
 * and "PDC groups"): PDC numbers 1..65535 per NIC from a free list, the
 * lookups a received packet needs, and groups that live while any of their
 * PDCs does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nic_private.h"

static uint32_t hash_ip(uint32_t ip)
{
	return (ip * UINT32_C(2654435761)) >> 8;
}

static struct nic_group *group_create(struct uet_nic *nic, uint32_t peer_ip)
{
	struct nic_group *g = calloc(1, sizeof(*g));
	struct uet_cc_params ccp = {
		.algo = nic->p.cc_algo,
		.data_rate_bps = nic->p.data_rate_bps,
		.initial_base_rtt_ps = nic->p.initial_base_rtt_ps,
		.window_bytes = nic->p.window_bytes,
		.mtu_nominal_bytes = uet_data_ip_bytes(nic->p.mss_bytes),
		.nscc_target_qdelay_ps = nic->p.nscc_target_qdelay_ps,
		.nscc_initial_window_bytes = nic->p.nscc_initial_window_bytes,
		.trimming = nic->p.trimming_enabled,
	};
	/* The NIC's balancer; its entropy range is the dynamic port range
	 * (uet_lb_params_default), out of the well-known ports. */
	const struct uet_lb_params lbp = nic->p.lb;

	if (g == NULL)
		return NULL;
	g->seq = nic->next_group_seq++;
	g->peer_ip = peer_ip;
	/* A new group starts afresh: initial window, InitialBaseRTT, new
	 * spraying state (its own stream). */
	if (uet_cc_init(&g->cc, &ccp) != 0 ||
	    uet_lb_init(&g->lb, &lbp, nic->seed,
			(uint64_t)nic->index << 40 | g->seq) != 0) {
		free(g);
		return NULL;
	}
	if (nic->p.pdc_groups_enabled) {
		uint32_t b = hash_ip(peer_ip) % NIC_GROUP_HASH_BUCKETS;

		g->hash_next = nic->group_hash[b];
		nic->group_hash[b] = g;
	}
	g->all_next = nic->groups;
	if (nic->groups != NULL)
		nic->groups->all_prev = g;
	nic->groups = g;
	return g;
}

static void group_destroy(struct uet_nic *nic, struct nic_group *g)
{
	uint32_t i;

	nic_group_dequeue(nic, g);
	if (nic->p.pdc_groups_enabled) {
		struct nic_group **pp =
			&nic->group_hash[hash_ip(g->peer_ip) %
					 NIC_GROUP_HASH_BUCKETS];

		while (*pp != NULL && *pp != g)
			pp = &(*pp)->hash_next;
		if (*pp == g)
			*pp = g->hash_next;
	}
	if (g->all_prev != NULL)
		g->all_prev->all_next = g->all_next;
	else
		nic->groups = g->all_next;
	if (g->all_next != NULL)
		g->all_next->all_prev = g->all_prev;
	/* A probe of this group still out has no window to feed any more. */
	for (i = 0; i < NIC_PROBE_SLOTS; i++)
		if (nic->probes[i].group == g)
			nic->probes[i].group = NULL;
	if (g->in_flight_bytes != 0)
		nic->st.in_flight_anomalies++;
	free(g);
}

/*
 * An array of elem-byte slots grown by doubling (to first at its first
 * growth) up to max slots, the new slots zeroed. Returns the array, *cap
 * updated, or NULL with both left as they were.
 */
static void *grow_zeroed(void *arr, uint32_t *cap, uint32_t first, uint32_t max,
			 size_t elem)
{
	uint32_t n = *cap != 0 ? *cap * 2u : first;
	uint8_t *p;

	if (n > max)
		n = max;
	p = realloc(arr, (size_t)n * elem);
	if (p == NULL)
		return NULL;
	memset(p + (size_t)*cap * elem, 0, (size_t)(n - *cap) * elem);
	*cap = n;
	return p;
}

/* The group a PDC to peer_ip joins: the peer's group with PDC groups on,
 * a new one per sending PDC with them off. */
static struct nic_group *group_for(struct uet_nic *nic, uint32_t peer_ip,
				   bool is_tx)
{
	struct nic_group *g;

	if (!nic->p.pdc_groups_enabled)
		return is_tx ? group_create(nic, peer_ip) : NULL;
	for (g = nic->group_hash[hash_ip(peer_ip) % NIC_GROUP_HASH_BUCKETS];
	     g != NULL; g = g->hash_next)
		if (g->peer_ip == peer_ip)
			return g;
	return group_create(nic, peer_ip);
}

static int id_take(struct uet_nic *nic, uint16_t *id)
{
	if (nic->free_count > 0) {
		*id = nic->free_ids[--nic->free_count];
		return 0;
	}
	if (nic->next_new_id > NIC_PDC_ID_MAX)
		return -ENOSPC;
	if (nic->next_new_id >= nic->pdcs_cap) {
		struct nic_pdc **t =
			grow_zeroed(nic->pdcs, &nic->pdcs_cap, 64,
				    NIC_PDC_ID_MAX + 1, sizeof(*t));

		if (t == NULL)
			return -ENOMEM;
		nic->pdcs = t;
	}
	*id = (uint16_t)nic->next_new_id++;
	return 0;
}

static void id_give_back(struct uet_nic *nic, uint16_t id)
{
	if (nic->free_count == nic->free_cap) {
		uint32_t cap = nic->free_cap ? nic->free_cap * 2 : 64;
		uint16_t *t = realloc(nic->free_ids, cap * sizeof(*t));

		if (t == NULL)
			return; /* the number is lost, not reused: harmless */
		nic->free_ids = t;
		nic->free_cap = cap;
	}
	nic->free_ids[nic->free_count++] = id;
}

int nic_pdc_open(struct uet_nic *nic, struct nic_pdc *pdc, uint32_t peer_ip)
{
	uint16_t id;
	int rc;

	rc = id_take(nic, &id);
	if (rc < 0)
		return rc;
	pdc->group = group_for(nic, peer_ip, pdc->is_tx);
	if (pdc->group == NULL && (pdc->is_tx || nic->p.pdc_groups_enabled)) {
		id_give_back(nic, id);
		return -ENOMEM;
	}
	pdc->nic = nic;
	pdc->id = id;
	pdc->gen = ++nic->next_gen;
	pdc->open = true;
	pdc->peer_ip = peer_ip;
	nic->pdcs[id] = pdc;
	if (pdc->group != NULL) {
		struct nic_group *g = pdc->group;

		g->members++;
		if (pdc->is_tx) {
			/* Join the ring of turns just before the current
			 * turn: the newest PDC goes last. */
			if (g->turn == NULL) {
				pdc->ring_next = pdc->ring_prev = pdc;
				g->turn = pdc;
			} else {
				pdc->ring_next = g->turn;
				pdc->ring_prev = g->turn->ring_prev;
				g->turn->ring_prev->ring_next = pdc;
				g->turn->ring_prev = pdc;
			}
			g->tx_pdcs++;
		}
	}
	nic->st.transport.pdcs_created++;
	nic_record_event(nic, UET_EV_PDC_CREATED, pdc,
			 pdc->is_tx ? pdc->msg.msg_id : 0,
			 pdc->is_tx ? pdc->msg.bytes : 0);
	return 0;
}

void nic_pdc_close(struct nic_pdc *pdc)
{
	struct uet_nic *nic = pdc->nic;
	struct nic_group *g = pdc->group;

	if (!pdc->open)
		return;
	nic_record_event(nic, UET_EV_PDC_CLOSED, pdc,
			 pdc->is_tx ? pdc->msg.msg_id : pdc->rmsg.msg_id,
			 pdc->is_tx ? pdc->msg.bytes : pdc->rmsg.bytes);
	pdc->open = false;
	nic->pdcs[pdc->id] = NULL;
	id_give_back(nic, pdc->id);
	nic->st.transport.pdcs_closed++;
	if (pdc->is_tx) {
		nic->tx_pdcs_open--;
		uet_pds_tx_fini(&pdc->tx);
	} else {
		struct nic_pdc **pp =
			&nic->rx_hash[(hash_ip(pdc->peer_ip) ^ pdc->peer_pdc) %
				      NIC_PDC_HASH_BUCKETS];

		while (*pp != NULL && *pp != pdc)
			pp = &(*pp)->hash_next;
		if (*pp == pdc)
			*pp = pdc->hash_next;
		uet_pds_rx_fini(&pdc->rx);
		uet_evq_cancel(&nic->comp.evq, &pdc->linger_ev);
	}
	if (g != NULL) {
		if (pdc->is_tx) {
			if (g->tx_pdcs == 1) {
				g->turn = NULL;
			} else {
				pdc->ring_prev->ring_next = pdc->ring_next;
				pdc->ring_next->ring_prev = pdc->ring_prev;
				if (g->turn == pdc)
					g->turn = pdc->ring_next;
			}
			g->tx_pdcs--;
		}
		/* A group lives while any of its PDCs does. */
		if (--g->members == 0)
			group_destroy(nic, g);
	}
	free(pdc);
}

struct nic_pdc *nic_pdc_lookup(struct uet_nic *nic, uint16_t id)
{
	if (id == 0 || id >= nic->pdcs_cap)
		return NULL;
	return nic->pdcs[id];
}

struct nic_pdc *nic_pdc_lookup_gen(struct uet_nic *nic, uint16_t id,
				   uint32_t gen)
{
	struct nic_pdc *pdc = nic_pdc_lookup(nic, id);

	return pdc != NULL && pdc->gen == gen ? pdc : NULL;
}

/* A receiving side is named by (peer IPv4, peer PDC number, start PSN): the
 * sender reuses a closed number at once, and when its CLOSE was lost the
 * old side still lingers here under the same (IPv4, number). Only the
 * random start PSN tells the new PDC's SYN packets from the old one's. */
struct nic_pdc *nic_pdc_rx_find(struct uet_nic *nic, uint32_t peer_ip,
				uint16_t peer_pdc, uint32_t start_psn)
{
	struct nic_pdc *pdc;

	for (pdc = nic->rx_hash[(hash_ip(peer_ip) ^ peer_pdc) %
				NIC_PDC_HASH_BUCKETS];
	     pdc != NULL; pdc = pdc->hash_next)
		if (pdc->peer_ip == peer_ip && pdc->peer_pdc == peer_pdc &&
		    pdc->rx.start_psn == start_psn)
			return pdc;
	return NULL;
}

void nic_pdc_rx_hash_add(struct nic_pdc *pdc)
{
	struct uet_nic *nic = pdc->nic;
	uint32_t b =
		(hash_ip(pdc->peer_ip) ^ pdc->peer_pdc) % NIC_PDC_HASH_BUCKETS;

	pdc->hash_next = nic->rx_hash[b];
	nic->rx_hash[b] = pdc;
}

/*
 * Make room for the next closed side. The ring starts small and doubles
 * while it is not yet full, each side at the slot a ring of the full size
 * would give it, so the lookups see the same slots in the same order: a
 * NIC that closes a few sides (one message each way, the common run)
 * touches 256 bytes, not the 16 KiB of the whole ring (a first touch of a
 * page is the dearest thing a large run does).
 */
static int rx_closed_room(struct uet_nic *nic)
{
	struct nic_rx_closed *p;

	if (nic->rx_closed_next < nic->rx_closed_cap)
		return 0;
	p = grow_zeroed(nic->rx_closed, &nic->rx_closed_cap,
			NIC_RX_CLOSED_FIRST, NIC_RX_CLOSED_MAX, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	nic->rx_closed = p;
	return 0;
}

/* A closed receiving side is remembered (a ring of the last
 * NIC_RX_CLOSED_MAX), so that a retransmission of its message still gets
 * its ACK: the sender only stops when everything is acknowledged. */
void nic_pdc_rx_closed_add(struct nic_pdc *pdc)
{
	struct uet_nic *nic = pdc->nic;
	struct nic_rx_closed *c;

	if (rx_closed_room(nic) != 0)
		return; /* not remembered: the sender may stall */
	c = &nic->rx_closed[nic->rx_closed_next];
	nic->rx_closed_next = (nic->rx_closed_next + 1) % NIC_RX_CLOSED_MAX;
	c->peer_ip = pdc->peer_ip;
	c->peer_pdc = pdc->peer_pdc;
	c->id = pdc->id;
	c->start_psn = pdc->rx.start_psn;
	c->cack_psn = uet_pds_rx_cack_psn(&pdc->rx);
}

/* A closed side by the SYN packet's name (peer IPv4, peer PDC, start
 * PSN), for a PSN it had received. */
const struct nic_rx_closed *
nic_pdc_rx_closed_find(struct uet_nic *nic, uint32_t peer_ip, uint16_t peer_pdc,
		       uint32_t start_psn, uint32_t psn)
{
	uint32_t i;

	for (i = 0; i < nic->rx_closed_cap; i++) {
		const struct nic_rx_closed *c = &nic->rx_closed[i];

		if (c->peer_ip != 0 && c->peer_ip == peer_ip &&
		    c->peer_pdc == peer_pdc && c->start_psn == start_psn &&
		    psn - start_psn <= c->cack_psn - start_psn)
			return c;
	}
	return NULL;
}

/* A closed side by the number it had, for a packet without SYN whose PSN
 * it had received (start through cack). */
const struct nic_rx_closed *nic_pdc_rx_closed_by_id(struct uet_nic *nic,
						    uint32_t peer_ip,
						    uint16_t peer_pdc,
						    uint16_t id, uint32_t psn)
{
	uint32_t i;

	for (i = 0; i < nic->rx_closed_cap; i++) {
		const struct nic_rx_closed *c = &nic->rx_closed[i];

		if (c->peer_ip != 0 && c->peer_ip == peer_ip &&
		    c->peer_pdc == peer_pdc && c->id == id &&
		    psn - c->start_psn <= c->cack_psn - c->start_psn)
			return c;
	}
	return NULL;
}

void nic_pdcs_fini(struct uet_nic *nic)
{
	uint32_t id;

	for (id = 1; id < nic->pdcs_cap; id++)
		if (nic->pdcs[id] != NULL)
			nic_pdc_close(nic->pdcs[id]);
	free(nic->pdcs);
	free(nic->free_ids);
	free(nic->rx_closed);
	nic->rx_closed = NULL;
	nic->rx_closed_cap = 0;
	nic->rx_closed_next = 0;
	nic->pdcs = NULL;
	nic->free_ids = NULL;
}
