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

/* A bucket of a table of cap (a power of two) buckets for a peer's
 * IPv4 and a PDC number (0 for groups). */
static uint32_t bucket_of(uint32_t ip, uint16_t pdc, uint32_t cap)
{
	uint32_t h = ip * UINT32_C(0x9e3779b1) + pdc;

	h ^= h >> 16;
	h *= UINT32_C(0x7feb352d);
	h ^= h >> 15;
	return h & (cap - 1);
}

/*
 * The NIC's lookup tables start empty (a NIC that never talks costs no
 * table) and double once they hold as many entries as buckets: a lookup
 * walks a chain of one entry or two, with 10 PDCs open or 65,535.
 * Entries are unique by their keys, so the order within a chain (which
 * a rehash changes) decides nothing.
 */
static int rx_hash_room(struct uet_nic *nic)
{
	uint32_t cap, b, i;
	struct nic_pdc **t, *p, *next;

	if (nic->rx_hash_count < nic->rx_hash_cap)
		return 0;
	cap = nic->rx_hash_cap != 0 ? 2 * nic->rx_hash_cap : NIC_HASH_FIRST;
	t = calloc(cap, sizeof(*t));
	if (t == NULL)
		return nic->rx_hash_cap != 0 ? 0 : -ENOMEM; /* longer chains */
	for (i = 0; i < nic->rx_hash_cap; i++)
		for (p = nic->rx_hash[i]; p != NULL; p = next) {
			next = p->hash_next;
			b = bucket_of(p->peer_ip, p->peer_pdc, cap);
			p->hash_next = t[b];
			t[b] = p;
		}
	free(nic->rx_hash);
	nic->rx_hash = t;
	nic->rx_hash_cap = cap;
	return 0;
}

static int group_hash_room(struct uet_nic *nic)
{
	uint32_t cap, b, i;
	struct nic_group **t, *g, *next;

	if (nic->group_hash_count < nic->group_hash_cap)
		return 0;
	cap = nic->group_hash_cap != 0 ? 2 * nic->group_hash_cap
				       : NIC_HASH_FIRST;
	t = calloc(cap, sizeof(*t));
	if (t == NULL)
		return nic->group_hash_cap != 0 ? 0 : -ENOMEM;
	for (i = 0; i < nic->group_hash_cap; i++)
		for (g = nic->group_hash[i]; g != NULL; g = next) {
			next = g->hash_next;
			b = bucket_of(g->peer_ip, 0, cap);
			g->hash_next = t[b];
			t[b] = g;
		}
	free(nic->group_hash);
	nic->group_hash = t;
	nic->group_hash_cap = cap;
	return 0;
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
	if (nic->p.pdc_groups_enabled && group_hash_room(nic) < 0) {
		free(g);
		return NULL;
	}
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
		uint32_t b = bucket_of(peer_ip, 0, nic->group_hash_cap);

		g->hash_next = nic->group_hash[b];
		nic->group_hash[b] = g;
		nic->group_hash_count++;
	}
	g->all_next = nic->groups;
	if (nic->groups != NULL)
		nic->groups->all_prev = g;
	nic->groups = g;
	return g;
}

static void group_destroy(struct uet_nic *nic, struct nic_group *g)
{
	nic_sched_group_gone(nic, g);
	if (nic->p.pdc_groups_enabled) {
		struct nic_group **pp = &nic->group_hash[bucket_of(
			g->peer_ip, 0, nic->group_hash_cap)];

		while (*pp != NULL && *pp != g)
			pp = &(*pp)->hash_next;
		if (*pp == g) {
			*pp = g->hash_next;
			nic->group_hash_count--;
		}
	}
	if (g->all_prev != NULL)
		g->all_prev->all_next = g->all_next;
	else
		nic->groups = g->all_next;
	if (g->all_next != NULL)
		g->all_next->all_prev = g->all_prev;
	/* A probe of this group still out has no window to feed any more. */
	while (g->probe_head != 0)
		nic_probe_release(nic, &nic->probes[g->probe_head - 1]);
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
	for (g = nic->group_hash_cap != 0
			 ? nic->group_hash[bucket_of(peer_ip, 0,
						     nic->group_hash_cap)]
			 : NULL;
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
		if (pdc->is_tx)
			nic_sched_pdc_join(nic, pdc);
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
			 pdc->is_tx	 ? pdc->msg.msg_id
			 : pdc->external ? pdc->ext_msg_id
					 : pdc->rmsg.msg_id,
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
			nic->rx_hash_cap != 0
				? &nic->rx_hash[bucket_of(pdc->peer_ip,
							  pdc->peer_pdc,
							  nic->rx_hash_cap)]
				: NULL;

		while (pp != NULL && *pp != NULL && *pp != pdc)
			pp = &(*pp)->hash_next;
		if (pp != NULL && *pp == pdc) {
			*pp = pdc->hash_next;
			nic->rx_hash_count--;
		}
		uet_pds_rx_fini(&pdc->rx);
		uet_evq_cancel(&nic->comp.evq, &pdc->linger_ev);
		if (pdc->external)
			nic->external_rx_open--;
	}
	if (g != NULL) {
		if (pdc->is_tx)
			nic_sched_pdc_leave(nic, pdc);
		/* A group lives while any of its PDCs does. */
		if (--g->members == 0)
			group_destroy(nic, g);
	}
	free(pdc);
	/* The number is free: the first message waiting for one opens
	 * with it, now. */
	if (nic->pdc_wait_head != NULL)
		nic_pdc_wait_start(nic);
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

	if (nic->rx_hash_cap == 0)
		return NULL;
	for (pdc = nic->rx_hash[bucket_of(peer_ip, peer_pdc, nic->rx_hash_cap)];
	     pdc != NULL; pdc = pdc->hash_next)
		if (pdc->peer_ip == peer_ip && pdc->peer_pdc == peer_pdc &&
		    pdc->rx.start_psn == start_psn)
			return pdc;
	return NULL;
}

int nic_pdc_rx_hash_add(struct nic_pdc *pdc)
{
	struct uet_nic *nic = pdc->nic;
	uint32_t b;

	if (rx_hash_room(nic) < 0)
		return -ENOMEM;
	b = bucket_of(pdc->peer_ip, pdc->peer_pdc, nic->rx_hash_cap);
	pdc->hash_next = nic->rx_hash[b];
	nic->rx_hash[b] = pdc;
	nic->rx_hash_count++;
	return 0;
}

/* The bucket of the closed sides named by (peer IPv4, peer PDC). */
static uint16_t *closed_bucket(struct uet_nic *nic, uint32_t peer_ip,
			       uint16_t peer_pdc)
{
	return &nic->rx_closed_head[bucket_of(peer_ip, peer_pdc,
					      nic->rx_closed_cap)];
}

static void closed_link(struct uet_nic *nic, uint32_t slot)
{
	struct nic_rx_closed *c = &nic->rx_closed[slot];
	uint16_t *head = closed_bucket(nic, c->peer_ip, c->peer_pdc);

	c->hash_next = *head;
	*head = (uint16_t)(slot + 1);
}

static void closed_unlink(struct uet_nic *nic, uint32_t slot)
{
	struct nic_rx_closed *c = &nic->rx_closed[slot];
	uint16_t *pp = closed_bucket(nic, c->peer_ip, c->peer_pdc);

	while (*pp != 0 && *pp != slot + 1)
		pp = &nic->rx_closed[*pp - 1].hash_next;
	if (*pp != 0)
		*pp = c->hash_next;
}

/*
 * Make room for the next closed side. The ring starts small and doubles
 * while it is not yet full, each side at the slot a ring of the full size
 * would give it, so the lookups see the same slots in the same order: a
 * NIC that closes a few sides (one message each way, the common run)
 * touches 256 bytes, not the 16 KiB of the whole ring (a first touch of a
 * page is the dearest thing a large run does). Its index (a bucket per
 * slot) is built again at each growth.
 */
static int rx_closed_room(struct uet_nic *nic)
{
	struct nic_rx_closed *p;
	uint32_t cap = nic->rx_closed_cap, i;
	uint16_t *head;

	if (nic->rx_closed_next < cap)
		return 0;
	p = grow_zeroed(nic->rx_closed, &cap, NIC_RX_CLOSED_FIRST,
			NIC_RX_CLOSED_MAX, sizeof(*p));
	if (p == NULL)
		return -ENOMEM;
	nic->rx_closed = p;
	head = calloc(cap, sizeof(*head));
	if (head == NULL)
		return -ENOMEM; /* the ring grew; its index did not */
	free(nic->rx_closed_head);
	nic->rx_closed_head = head;
	nic->rx_closed_cap = cap;
	for (i = 0; i < cap; i++)
		if (p[i].peer_ip != 0)
			closed_link(nic, i);
	return 0;
}

/* A closed side is remembered (a ring of the last NIC_RX_CLOSED_MAX), so
 * that a retransmission of its message still gets its ACK: the sender
 * only stops when everything is acknowledged. */
void nic_pdc_rx_closed_add(struct nic_pdc *pdc)
{
	struct uet_nic *nic = pdc->nic;
	struct nic_rx_closed *c;
	uint32_t slot;

	/* An external host's sides are not remembered: the ring holds the
	 * last NIC_RX_CLOSED_MAX, and a foreign stack that opened and closed
	 * that many would push out our own senders' sides, whose late
	 * retransmissions would then be delivered a second time. */
	if (pdc->external)
		return;
	if (rx_closed_room(nic) != 0)
		return; /* not remembered: the sender may stall */
	slot = nic->rx_closed_next;
	c = &nic->rx_closed[slot];
	nic->rx_closed_next = (slot + 1) % NIC_RX_CLOSED_MAX;
	if (c->peer_ip != 0)
		closed_unlink(nic, slot);
	c->peer_ip = pdc->peer_ip;
	c->peer_pdc = pdc->peer_pdc;
	c->id = pdc->id;
	c->start_psn = pdc->rx.start_psn;
	c->cack_psn = uet_pds_rx_cack_psn(&pdc->rx);
	if (c->peer_ip != 0)
		closed_link(nic, slot);
}

/*
 * The closed side of (peer IPv4, peer PDC) that matches: by start PSN
 * (by_id false) or by the number it had (by_id true), and whose received
 * PSNs (start through cack) hold psn. Of several, the one in the lowest
 * slot, as a scan of the ring would find.
 */
static const struct nic_rx_closed *closed_find(struct uet_nic *nic,
					       uint32_t peer_ip,
					       uint16_t peer_pdc, bool by_id,
					       uint32_t key, uint32_t psn)
{
	const struct nic_rx_closed *best = NULL, *c;
	uint16_t i;

	if (nic->rx_closed_cap == 0 || peer_ip == 0)
		return NULL;
	for (i = *closed_bucket(nic, peer_ip, peer_pdc); i != 0;
	     i = c->hash_next) {
		c = &nic->rx_closed[i - 1];
		if (c->peer_ip == peer_ip && c->peer_pdc == peer_pdc &&
		    (by_id ? c->id == key : c->start_psn == key) &&
		    psn - c->start_psn <= c->cack_psn - c->start_psn &&
		    (best == NULL || c < best))
			best = c;
	}
	return best;
}

/* A closed side by the SYN packet's name (peer IPv4, peer PDC, start
 * PSN), for a PSN it had received. */
const struct nic_rx_closed *
nic_pdc_rx_closed_find(struct uet_nic *nic, uint32_t peer_ip, uint16_t peer_pdc,
		       uint32_t start_psn, uint32_t psn)
{
	return closed_find(nic, peer_ip, peer_pdc, false, start_psn, psn);
}

/* A closed side by the number it had, for a packet without SYN whose PSN
 * it had received (start through cack). */
const struct nic_rx_closed *nic_pdc_rx_closed_by_id(struct uet_nic *nic,
						    uint32_t peer_ip,
						    uint16_t peer_pdc,
						    uint16_t id, uint32_t psn)
{
	return closed_find(nic, peer_ip, peer_pdc, true, id, psn);
}

/* The probe slots grow as the probes reach them (opaque values count up
 * from 0), so a NIC that sends a few messages has a few slots. */
struct nic_probe_slot *nic_probe_take(struct uet_nic *nic, uint32_t slot,
				      struct nic_group *g)
{
	struct nic_probe_slot *s;

	while (slot >= nic->probes_cap) {
		s = grow_zeroed(nic->probes, &nic->probes_cap, NIC_PROBE_FIRST,
				NIC_PROBE_SLOTS, sizeof(*s));
		if (s == NULL)
			return NULL;
		nic->probes = s;
	}
	s = &nic->probes[slot];
	if (s->group != NULL)
		nic_probe_release(nic, s);
	s->group = g;
	s->g_prev = 0;
	s->g_next = g->probe_head;
	if (g->probe_head != 0)
		nic->probes[g->probe_head - 1].g_prev = (uint16_t)(slot + 1);
	g->probe_head = (uint16_t)(slot + 1);
	return s;
}

void nic_probe_release(struct uet_nic *nic, struct nic_probe_slot *s)
{
	struct nic_group *g = s->group;

	if (g == NULL)
		return;
	if (s->g_prev != 0)
		nic->probes[s->g_prev - 1].g_next = s->g_next;
	else
		g->probe_head = s->g_next;
	if (s->g_next != 0)
		nic->probes[s->g_next - 1].g_prev = s->g_prev;
	s->group = NULL;
	s->g_prev = s->g_next = 0;
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
	free(nic->rx_closed_head);
	free(nic->rx_hash);
	free(nic->group_hash);
	free(nic->probes);
	nic->rx_closed = NULL;
	nic->rx_closed_head = NULL;
	nic->rx_closed_cap = 0;
	nic->rx_closed_next = 0;
	nic->rx_hash = NULL;
	nic->group_hash = NULL;
	nic->rx_hash_cap = nic->group_hash_cap = 0;
	nic->probes = NULL;
	nic->probes_cap = 0;
	nic->pdcs = NULL;
	nic->free_ids = NULL;
}
