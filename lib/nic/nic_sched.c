/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transmit scheduler (the page's "PDC groups and the transmit
 * scheduler"), with segmentation's two gates (window room at nominal size,
 * egress-pool room at wire size), the prefetch buffer, and the payload
 * fetch over PCIe ("Fetching the payload over PCIe").
 *
 * One pass of the transmit process serves the queue of ready groups in
 * turns until no group can send or the egress pool is full; every packet
 * decision happens at the pass's virtual time.
 */
#include <errno.h>
#include <stdlib.h>

#include "nic_private.h"

/** What one step of the scheduler did. */
enum step_result {
	STEP_SENT = 0,	    /**< a packet was fetched or committed */
	STEP_NOTHING,	    /**< nothing to send */
	STEP_WINDOW_FULL,   /**< the group's window has no room */
	STEP_PREFETCH_FULL, /**< the prefetch buffer has no room */
	STEP_POOL_FULL,	    /**< the egress pool has no room */
};

/*
 * The idle heap. With the prefetch buffer on, a buffer that drains brings
 * back every group out of the queue that has work, newest first (the
 * order of the NIC's list of groups). Those groups wait in a heap by
 * creation number, so that finding them costs what they are, not a walk
 * of every group. With the buffer off it stays empty.
 */
static bool idle_before(const struct nic_group *a, const struct nic_group *b)
{
	return a->seq > b->seq;
}

static void idle_place(struct nic_sched *s, struct nic_group *g, uint32_t i)
{
	s->idle[i] = g;
	g->idle_slot = i + 1;
}

static void idle_sift_up(struct nic_sched *s, uint32_t i)
{
	struct nic_group *g = s->idle[i];

	while (i > 0 && idle_before(g, s->idle[(i - 1) / 2])) {
		idle_place(s, s->idle[(i - 1) / 2], i);
		i = (i - 1) / 2;
	}
	idle_place(s, g, i);
}

static void idle_sift_down(struct nic_sched *s, uint32_t i)
{
	struct nic_group *g = s->idle[i];

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= s->idle_len)
			break;
		if (c + 1 < s->idle_len &&
		    idle_before(s->idle[c + 1], s->idle[c]))
			c++;
		if (!idle_before(s->idle[c], g))
			break;
		idle_place(s, s->idle[c], i);
		i = c;
	}
	idle_place(s, g, i);
}

static void idle_remove(struct nic_sched *s, struct nic_group *g)
{
	uint32_t i = g->idle_slot - 1;
	struct nic_group *last = s->idle[--s->idle_len];

	g->idle_slot = 0;
	if (last == g)
		return;
	idle_place(s, last, i);
	idle_sift_up(s, i);
	idle_sift_down(s, last->idle_slot - 1);
}

/* The group joins the idle heap or leaves it, as its state says. */
static void idle_sync(struct uet_nic *nic, struct nic_group *g)
{
	struct nic_sched *s = &nic->sched;
	bool want = nic->p.prefetch_enable && !g->queued && g->work_pdcs > 0;

	if (want == (g->idle_slot != 0))
		return;
	if (!want) {
		idle_remove(s, g);
		return;
	}
	if (s->idle_len == s->idle_cap) {
		uint32_t cap = s->idle_cap ? s->idle_cap * 2 : 16;
		struct nic_group **t = realloc(s->idle, cap * sizeof(*t));

		if (t == NULL)
			return; /* not brought back by a drain: the next ACK
				 * or timeout of the group does */
		s->idle = t;
		s->idle_cap = cap;
	}
	s->idle_len++;
	idle_place(s, g, s->idle_len - 1);
	idle_sift_up(s, s->idle_len - 1);
}

static void queue_link_tail(struct nic_sched *s, struct nic_group *g)
{
	g->q_next = NULL;
	g->q_prev = s->q_tail;
	if (s->q_tail != NULL)
		s->q_tail->q_next = g;
	else
		s->q_head = g;
	s->q_tail = g;
}

static void queue_unlink(struct nic_sched *s, struct nic_group *g)
{
	if (g->q_prev != NULL)
		g->q_prev->q_next = g->q_next;
	else
		s->q_head = g->q_next;
	if (g->q_next != NULL)
		g->q_next->q_prev = g->q_prev;
	else
		s->q_tail = g->q_prev;
	g->q_next = g->q_prev = NULL;
}

void nic_group_enqueue_tail(struct uet_nic *nic, struct nic_group *g)
{
	if (g->queued)
		return;
	g->queued = true;
	queue_link_tail(&nic->sched, g);
	idle_sync(nic, g);
}

void nic_group_enqueue_head(struct uet_nic *nic, struct nic_group *g)
{
	if (g->queued)
		return;
	g->queued = true;
	g->q_prev = NULL;
	g->q_next = nic->sched.q_head;
	if (nic->sched.q_head != NULL)
		nic->sched.q_head->q_prev = g;
	else
		nic->sched.q_tail = g;
	nic->sched.q_head = g;
	idle_sync(nic, g);
}

void nic_group_dequeue(struct uet_nic *nic, struct nic_group *g)
{
	if (!g->queued)
		return;
	queue_unlink(&nic->sched, g);
	g->queued = false;
	idle_sync(nic, g);
}

void nic_sched_group_gone(struct uet_nic *nic, struct nic_group *g)
{
	nic_group_dequeue(nic, g);
	if (g->idle_slot != 0)
		idle_remove(&nic->sched, g);
}

/* Whether step 3 has anything to look at in the PDC: a retransmit entry
 * (stale ones count until a visit drops them), a prefetched payload or a
 * segment. */
static bool pdc_has_work(const struct nic_pdc *pdc)
{
	return uet_pds_tx_fifo_len(&pdc->tx) > 0 || pdc->prefetch_ready > 0 ||
	       uet_ses_msg_tx_has_segment(&pdc->msg);
}

/*
 * What the PDC's next packet needs at step 3's first gate, the order
 * pdc_step() tries them in: the oldest waiting retransmission, or the
 * prefetched payload, at nominal size in the window; or a new segment,
 * in the prefetch buffer at wire size when it is on, else in the window.
 */
static void pdc_keys(const struct uet_nic *nic, const struct nic_pdc *pdc,
		     uint32_t *window_key, uint32_t *prefetch_key, bool *stale)
{
	const struct uet_pds_tx_packet *pkt;
	struct uet_ses_segment seg;
	uint32_t psn;

	*window_key = *prefetch_key = NIC_TURN_NONE;
	*stale = false;
	if (uet_pds_tx_peek_retransmit(&pdc->tx, &psn) == 0) {
		*window_key = uet_pds_tx_packet(&pdc->tx, psn)->nominal_bytes;
		return;
	}
	*stale = uet_pds_tx_fifo_len(&pdc->tx) > 0;
	if (nic->p.prefetch_enable && pdc->prefetch_ready > 0) {
		pkt = uet_pds_tx_packet(&pdc->tx, pdc->commit_psn);
		if (pkt != NULL)
			*window_key = pkt->nominal_bytes;
	} else if (uet_ses_msg_tx_has_segment(&pdc->msg) &&
		   uet_ses_segment_get(pdc->msg.bytes, pdc->msg.mss_bytes,
				       pdc->msg.next_segment, &seg) == 0) {
		if (nic->p.prefetch_enable)
			*prefetch_key = uet_data_wire_bytes(seg.payload_bytes);
		else
			*window_key = uet_data_ip_bytes(seg.payload_bytes);
	}
}

void nic_pdc_sync(struct uet_nic *nic, struct nic_pdc *pdc)
{
	struct nic_turn *t = &pdc->tn;
	struct nic_group *g = pdc->group;
	uint32_t wk, pk;
	bool stale, work = pdc_has_work(pdc);

	pdc_keys(nic, pdc, &wk, &pk, &stale);
	if (work != t->work) {
		t->work = work;
		g->work_pdcs += work ? 1u : -1u;
		if (g->work_pdcs == (work ? 1u : 0u))
			idle_sync(nic, g);
	}
	if (wk == t->window_key && pk == t->prefetch_key && stale == t->stale)
		return;
	g->window_pdcs +=
		(wk != NIC_TURN_NONE) - (t->window_key != NIC_TURN_NONE);
	g->prefetch_pdcs +=
		(pk != NIC_TURN_NONE) - (t->prefetch_key != NIC_TURN_NONE);
	t->window_key = wk;
	t->prefetch_key = pk;
	t->stale = stale;
	nic_turns_changed(pdc);
}

void nic_sched_pdc_join(struct uet_nic *nic, struct nic_pdc *pdc)
{
	struct nic_group *g = pdc->group;
	struct nic_turn *t = &pdc->tn;

	/* Join the ring of turns just before the current turn: the newest
	 * PDC goes last. */
	t->window_key = t->prefetch_key = NIC_TURN_NONE;
	t->stale = t->work = false;
	if (g->turn == NULL) {
		pdc->ring_next = pdc->ring_prev = pdc;
		g->turn = pdc;
		nic_turns_insert(g, pdc, NULL);
	} else {
		pdc->ring_next = g->turn;
		pdc->ring_prev = g->turn->ring_prev;
		g->turn->ring_prev->ring_next = pdc;
		g->turn->ring_prev = pdc;
		nic_turns_insert(g, pdc, g->turn);
	}
	g->tx_pdcs++;
	nic_pdc_sync(nic, pdc);
}

void nic_sched_pdc_leave(struct uet_nic *nic, struct nic_pdc *pdc)
{
	struct nic_group *g = pdc->group;
	struct nic_turn *t = &pdc->tn;

	g->window_pdcs -= t->window_key != NIC_TURN_NONE;
	g->prefetch_pdcs -= t->prefetch_key != NIC_TURN_NONE;
	if (t->work) {
		t->work = false;
		if (--g->work_pdcs == 0)
			idle_sync(nic, g);
	}
	nic_turns_remove(g, pdc);
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

void nic_transmit_start(struct uet_nic *nic, uet_time_t at_ps)
{
	struct uet_event *ev = &nic->sched.tx_ev;

	if (uet_event_pending(ev) && ev->time_ps <= at_ps)
		return;
	uet_evq_schedule(&nic->comp.evq, ev, at_ps);
}

void nic_transmit_on_feedback(struct uet_nic *nic, struct nic_group *g)
{
	/* An ACK, a NACK or a timeout brings a group back at the head, and
	 * a stopped scheduler tries again. */
	if (g != NULL && !g->queued && nic_group_has_work(g))
		nic_group_enqueue_head(nic, g);
	if (nic->sched.q_head != NULL)
		nic_transmit_start(nic, nic_now(nic));
}

/* An egress reservation goes back (the packet left, or was never
 * built); a scheduler stopped on a full pool tries again at the latest
 * when the pool drains to half its size or less. */
static void egress_release(struct uet_nic *nic, uint32_t wire_bytes)
{
	if (nic_egress_release(&nic->pools, wire_bytes) &&
	    nic->sched.egress_stalled)
		nic_transmit_start(nic, nic_now(nic));
}

/* Room in the window of the group, at nominal size. An empty window always
 * takes one packet, so a window under one packet cannot stall forever. */
static bool window_room(const struct nic_group *g, uint32_t nominal_bytes)
{
	return g->in_flight_bytes == 0 || g->in_flight_bytes + nominal_bytes <=
						  uet_cc_window_bytes(&g->cc);
}

/* Prefetch space goes back at commit; at half or less, groups that left
 * on a full prefetch buffer come back at the tail and transmit restarts. */
static void prefetch_release(struct uet_nic *nic, uint32_t wire_bytes)
{
	struct nic_group *g;

	if (!nic_prefetch_release(&nic->pools, wire_bytes) ||
	    !nic->sched.prefetch_stalled)
		return;
	nic->sched.prefetch_stalled = false;
	/* Every group out of the queue with work, newest first; joining
	 * the queue takes each out of the idle heap. */
	while (nic->sched.idle_len > 0) {
		g = nic->sched.idle[0];
		nic_group_enqueue_tail(nic, g);
	}
	nic_transmit_start(nic, nic_now(nic));
}

static uint8_t first_dscp(const struct uet_nic *nic)
{
	return nic->p.dscp
		.codepoint[nic->p.trimming_enabled ? UET_DSCP_TRIMMABLE
						   : UET_DSCP_NO_TRIM];
}

static uint8_t retransmit_dscp(const struct uet_nic *nic)
{
	if (nic->p.retransmit_trimmable)
		return nic->p.dscp.codepoint[UET_DSCP_TRIMMABLE_RTX];
	return first_dscp(nic);
}

/*
 * A data frame that could not be built (no mbuf) or queued is lost
 * inside the NIC, as a frame is lost on the wire: its transmission
 * counts (lib/pds has it in flight), its reservation goes back, and its
 * timer starts now, so that the timeout sends it again. A first
 * transmission counts toward the message's transmit completion, as one
 * lost on the wire does: its retransmission would not. Before, the
 * packet stayed in flight with no timer and only a NACK, which nothing
 * would send, could recover it: its message hung for the rest of the
 * run.
 */
static void data_lost(struct uet_nic *nic, struct nic_pdc *pdc, uint32_t psn,
		      const struct uet_pds_tx_packet *pkt, uint32_t wire_bytes,
		      bool retx)
{
	nic->st.mbuf_failures++;
	egress_release(nic, wire_bytes);
	(void)nic_rto_start(nic, pdc, psn, pkt->transmit_count, nic_now(nic));
	if (!retx && uet_ses_msg_tx_first_sent(&pdc->msg, nic_now(nic)))
		nic_complete(nic, UET_SES_SENT, pdc);
}

/* Whether the group's latest request is still in flight on the
 * transmission that asked: its ACK is on its way. A request answered,
 * NACKed, timed out or of a closed PDC is not. */
static bool request_in_flight(struct uet_nic *nic, const struct nic_group *g)
{
	const struct nic_ack_request *r = &g->request;
	struct nic_pdc *pdc =
		r->pdc != 0 ? nic_pdc_lookup_gen(nic, r->pdc, r->pdc_gen)
			    : NULL;
	const struct uet_pds_tx_packet *pkt =
		pdc != NULL ? uet_pds_tx_packet(&pdc->tx, r->psn) : NULL;

	return pkt != NULL && pkt->state == UET_PDS_TX_IN_FLIGHT &&
	       pkt->transmit_count == r->count;
}

/*
 * A packet that closes its group's window asks for an ACK when nothing
 * else will. The page's rule (lib/pds: every Nth, first, last) assumes a
 * later request covers a packet sent without one; a sender whose window
 * has no room for another packet sends no later request until an ACK
 * frees room. So the packet sent last before the window closes (no room
 * for another of its size, and no packet the window admitted still to
 * be sent) carries AR when no request of the group is in flight. Without
 * it, a window under N packets left its packets to their timeouts, and
 * each timeout's reaction kept the window that small: the 15-to-1
 * incast at N = 4 sent one packet per three timeouts for the rest of
 * its run (docs/nic.md, "Window, pools, prefetch"). While a request is
 * in flight its ACK frees room and the page's cadence holds.
 */
static bool ack_request_closes_window(struct uet_nic *nic,
				      const struct nic_group *g,
				      uint32_t nominal_bytes)
{
	return g->fetching == 0 && !window_room(g, nominal_bytes) &&
	       !request_in_flight(nic, g);
}

/* Hand-off: the packet gets its headers and joins the data class's egress
 * queue. Its transmission is counted now (AR rule, entropy, in flight in
 * lib/pds); its timer starts when serialization ends. */
static void commit_to_egress(struct uet_nic *nic, struct nic_pdc *pdc,
			     uint32_t psn, bool retx)
{
	struct nic_group *g = pdc->group;
	const struct uet_pds_tx_packet *pkt;
	struct nic_txq_item it = {0};
	uint16_t entropy = uet_lb_next_entropy(&g->lb, nic_now(nic));
	uint8_t dscp = retx ? retransmit_dscp(nic) : first_dscp(nic);
	bool ar = false;

	if (uet_pds_tx_transmit(&pdc->tx, psn, entropy, nic_now(nic), &ar) < 0)
		return;
	pkt = uet_pds_tx_packet(&pdc->tx, psn);
	if (!ar && ack_request_closes_window(nic, g, pkt->nominal_bytes)) {
		ar = true;
		nic->st.window_ack_requests++;
	}
	if (ar)
		g->request = (struct nic_ack_request){
			.psn = psn,
			.count = pkt->transmit_count,
			.pdc_gen = pdc->gen,
			.pdc = pdc->id,
		};
	it.wire_bytes = uet_data_wire_bytes(pkt->payload_bytes);
	it.m = nic_frame_data(nic, pdc, psn, pkt, ar, retx, dscp);
	if (it.m == NULL) {
		data_lost(nic, pdc, psn, pkt, it.wire_bytes, retx);
		return;
	}
	it.psn = psn;
	it.pdc = pdc->id;
	it.pdc_gen = pdc->gen;
	it.kind = retx ? NIC_FRAME_DATA_RETX : NIC_FRAME_DATA;
	it.mon.pkt = UET_MON_DATA;
	it.mon.pdc = pdc->id;
	it.mon.psn = psn;
	it.mon.ar = ar;
	it.mon.retx = retx;
	it.mon.dscp = dscp;
	it.mon.entropy = entropy;
	it.mon.wire_bytes = it.wire_bytes;
	if (nic_port_queue(nic, NIC_TC_DATA, &it) < 0) {
		rte_pktmbuf_free(it.m);
		data_lost(nic, pdc, psn, pkt, it.wire_bytes, retx);
	}
}

/* Step 3, first kind: the oldest waiting retransmission. It reads nothing
 * over PCIe: it is rebuilt from its recorded size. */
static enum step_result send_retransmission(struct uet_nic *nic,
					    struct nic_pdc *pdc, uint32_t psn)
{
	const struct uet_pds_tx_packet *pkt = uet_pds_tx_packet(&pdc->tx, psn);
	uint32_t wire;

	if (pkt == NULL)
		return STEP_NOTHING;
	wire = uet_data_wire_bytes(pkt->payload_bytes);
	if (!window_room(pdc->group, pkt->nominal_bytes))
		return STEP_WINDOW_FULL;
	if (!nic_egress_room(&nic->pools, wire))
		return STEP_POOL_FULL;
	pdc->group->in_flight_bytes += pkt->nominal_bytes;
	nic_egress_reserve(&nic->pools, wire);
	pdc->retransmits++;
	nic->st.transport.retransmits++;
	commit_to_egress(nic, pdc, psn, true);
	return STEP_SENT;
}

/* Step 3, second kind: a payload already in the prefetch buffer; the
 * window is enforced now, at commit, and its prefetch space released. */
static enum step_result send_prefetched(struct uet_nic *nic,
					struct nic_pdc *pdc)
{
	uint32_t psn = pdc->commit_psn;
	const struct uet_pds_tx_packet *pkt = uet_pds_tx_packet(&pdc->tx, psn);
	uint32_t wire;

	if (pkt == NULL)
		return STEP_NOTHING;
	wire = uet_data_wire_bytes(pkt->payload_bytes);
	if (!window_room(pdc->group, pkt->nominal_bytes))
		return STEP_WINDOW_FULL;
	if (!nic_egress_room(&nic->pools, wire))
		return STEP_POOL_FULL;
	pdc->group->in_flight_bytes += pkt->nominal_bytes;
	nic_egress_reserve(&nic->pools, wire);
	pdc->commit_psn++;
	pdc->prefetch_ready--;
	prefetch_release(nic, wire);
	commit_to_egress(nic, pdc, psn, false);
	return STEP_SENT;
}

static void fetch_done(struct uet_evq *q, struct uet_event *ev, void *arg);

/* Fetching the payload, steps 1-2: the reservation (egress pool, or the
 * prefetch buffer), the PSN taken as the read request is issued, and the
 * completion scheduled (step 3) in request order. Completions come in
 * the order the reads were issued, so they wait in a train (one queue
 * event for the next; a window's worth of fetches issued at once took a
 * pooled event of 184 bytes each); an empty payload's completes at once,
 * possibly before those in flight, and takes a pooled event. */
static enum step_result fetch_segment(struct uet_nic *nic, struct nic_pdc *pdc)
{
	struct uet_ses_segment seg;
	struct uet_pds_tx_segment ts;
	struct nic_tev *t;
	uet_time_t arrival_ps;
	uint32_t nominal, wire, psn;

	if (uet_ses_segment_get(pdc->msg.bytes, pdc->msg.mss_bytes,
				pdc->msg.next_segment, &seg) < 0)
		return STEP_NOTHING;
	nominal = uet_data_ip_bytes(seg.payload_bytes);
	wire = uet_data_wire_bytes(seg.payload_bytes);
	if (nic->p.prefetch_enable) {
		if (!nic_prefetch_room(&nic->pools, wire))
			return STEP_PREFETCH_FULL;
	} else {
		if (!window_room(pdc->group, nominal))
			return STEP_WINDOW_FULL;
		if (!nic_egress_room(&nic->pools, wire))
			return STEP_POOL_FULL;
	}
	ts.payload_bytes = seg.payload_bytes;
	ts.msg_offset_bytes = seg.msg_offset_bytes;
	ts.msg_tag = pdc->msg.msg_id;
	ts.last_of_message = seg.eom;
	/* Room for the completion either way, before anything is taken. */
	if (uet_train_reserve(&nic->fetches) < 0 || nic_tev_reserve(nic) < 0 ||
	    uet_pds_tx_take_psn(&pdc->tx, &ts, &psn) < 0)
		return STEP_NOTHING;
	uet_ses_msg_tx_take_segment(&pdc->msg, &seg);
	nic->st.psns_taken++;
	if (seg.eom) {
		pdc->eom_psn = psn;
		pdc->eom_taken = true;
	}
	if (nic->p.prefetch_enable) {
		nic_prefetch_reserve(&nic->pools, wire);
	} else {
		pdc->group->in_flight_bytes += nominal;
		pdc->group->fetching++;
		nic_egress_reserve(&nic->pools, wire);
	}
	uet_pcie_read(&nic->pcie, nic_now(nic), seg.payload_bytes, &arrival_ps);
	nic->st.transport.pcie_read_bytes += seg.payload_bytes;
	if (uet_train_accepts(&nic->fetches, arrival_ps)) {
		const struct nic_fetch_entry e = {
			.psn = psn,
			.pdc_gen = pdc->gen,
			.pdc = pdc->id,
		};

		(void)uet_train_push(&nic->fetches, arrival_ps, &e);
		return STEP_SENT;
	}
	t = nic_tev_get(nic, NIC_TEV_FETCH, fetch_done);
	t->pdc = pdc->id;
	t->pdc_gen = pdc->gen;
	t->psn = psn;
	uet_evq_schedule(&nic->comp.evq, &t->ev, arrival_ps);
	return STEP_SENT;
}

static void payload_arrived(struct uet_nic *nic, uint16_t pdc_id,
			    uint32_t pdc_gen, uint32_t psn);

/* A completion of the fetch train is due. */
static void fetch_train_due(struct uet_evq *q, void *item, void *arg)
{
	const struct nic_fetch_entry *e = item;

	(void)q;
	payload_arrived(arg, e->pdc, e->pdc_gen, e->psn);
}

/* A completion in a pooled event is due. */
static void fetch_done(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct nic_tev *t = arg;
	struct uet_nic *nic = t->nic;
	uint16_t pdc = t->pdc;
	uint32_t gen = t->pdc_gen, psn = t->psn;

	(void)q;
	(void)ev;
	nic_tev_put(t);
	payload_arrived(nic, pdc, gen, psn);
}

/* Step 4 of the fetch: the payload has arrived. */
static void payload_arrived(struct uet_nic *nic, uint16_t pdc_id,
			    uint32_t pdc_gen, uint32_t psn)
{
	struct nic_pdc *pdc = nic_pdc_lookup_gen(nic, pdc_id, pdc_gen);

	if (pdc == NULL)
		return;
	if (!nic->p.prefetch_enable) {
		/* The window was checked at the fetch: straight on. */
		pdc->group->fetching--;
		commit_to_egress(nic, pdc, psn, false);
		return;
	}
	/* A payload arriving in the prefetch buffer brings the group back
	 * at the tail. */
	pdc->prefetch_ready++;
	nic_pdc_sync(nic, pdc);
	nic_group_enqueue_tail(nic, pdc->group);
	nic_transmit_start(nic, nic_now(nic));
}

/* Step 3: within a PDC, the oldest waiting retransmission, then a payload
 * in the prefetch buffer, then a new segment; never a later kind while an
 * earlier one waits for room. */
static enum step_result pdc_step(struct uet_nic *nic, struct nic_pdc *pdc)
{
	uint32_t psn;

	if (uet_pds_tx_next_retransmit(&pdc->tx, &psn) == 0)
		return send_retransmission(nic, pdc, psn);
	if (nic->p.prefetch_enable && pdc->prefetch_ready > 0)
		return send_prefetched(nic, pdc);
	if (uet_ses_msg_tx_has_segment(&pdc->msg))
		return fetch_segment(nic, pdc);
	return STEP_NOTHING;
}

/* The bytes a group's window takes now (window_room() at nominal
 * size), and those the prefetch buffer takes (nic_prefetch_room()), as
 * rooms for the keys; -1: none. Rooms stop short of NIC_TURN_NONE. */
static int64_t room_of(uint64_t used, uint64_t cap)
{
	if (used == 0)
		return NIC_TURN_NONE - 1;
	if (used > cap)
		return -1;
	return cap - used < NIC_TURN_NONE - 1 ? (int64_t)(cap - used)
					      : NIC_TURN_NONE - 1;
}

/* A visit of step 3 drops a PDC's stale retransmit entries: those of the
 * stale PDCs among the span positions of the ring from position from,
 * which the walk of step 2 passes on its way. */
static void visit_stale(struct uet_nic *nic, struct nic_group *g, uint32_t from,
			uint32_t span)
{
	const struct nic_turn_query q = {.stale = true};
	const uint32_t n = g->tx_pdcs;
	struct nic_pdc *pdc;
	uint32_t pos, psn, skip;

	while (span > 0 && (pdc = nic_turns_first(g, from, span, &q, &pos))) {
		(void)uet_pds_tx_next_retransmit(&pdc->tx, &psn);
		nic_pdc_sync(nic, pdc);
		skip = (pos + n - from) % n + 1;
		from = (pos + 1) % n;
		span -= skip;
	}
}

/*
 * Step 2: one packet from one PDC of the group; the turn passes to the
 * next PDC once the current one has sent. The page's walk tries the PDCs
 * in ring order from the turn and stops at the first that sends (or finds
 * the egress pool full); one whose packet the window or the prefetch
 * buffer cannot take is passed over. The ring's tree finds that first one
 * directly: the PDCs passed over would only have been looked at (and
 * their stale retransmit entries dropped, done here too).
 */
static enum step_result group_step(struct uet_nic *nic, struct nic_group *g)
{
	const uint32_t n = g->tx_pdcs;
	const struct nic_turn_query pass = {
		.window_room = room_of(g->in_flight_bytes,
				       uet_cc_window_bytes(&g->cc)),
		.prefetch_room = room_of(nic->pools.prefetch_bytes,
					 nic->pools.prefetch_cap_bytes),
	};
	uint32_t from = nic_turns_rank(g->turn), left = n, pos, span;
	uint32_t tried_window = 0, tried_prefetch = 0;
	struct nic_pdc *pdc;
	bool by_window;

	while (left > 0) {
		pdc = nic_turns_first(g, from, left, &pass, &pos);
		span = pdc != NULL ? (pos + n - from) % n : left;
		visit_stale(nic, g, from, span);
		if (pdc == NULL)
			break;
		by_window = pdc->tn.window_key != NIC_TURN_NONE;
		switch (pdc_step(nic, pdc)) {
		case STEP_SENT:
			nic_pdc_sync(nic, pdc);
			g->turn = pdc->ring_next;
			return STEP_SENT;
		case STEP_POOL_FULL:
			nic_pdc_sync(nic, pdc);
			g->turn = pdc;
			return STEP_POOL_FULL;
		case STEP_NOTHING:
			/* Out of events or PSNs: passed over, as the walk
			 * would have. */
			tried_window += by_window;
			tried_prefetch += !by_window;
			break;
		default:
			break;
		}
		nic_pdc_sync(nic, pdc);
		from = (pos + 1) % n;
		left -= span + 1;
	}
	/* Every PDC was looked at: one with a packet its gate cannot take
	 * says which gate stopped the group. */
	if (g->window_pdcs > tried_window)
		return STEP_WINDOW_FULL;
	return g->prefetch_pdcs > tried_prefetch ? STEP_PREFETCH_FULL
						 : STEP_NOTHING;
}

static void transmit_process(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct uet_nic *nic = arg;
	struct nic_group *g;

	(void)q;
	(void)ev;
	nic->sched.egress_stalled = false;
	/* Step 1: the group at the head of the queue. */
	while ((g = nic->sched.q_head) != NULL) {
		switch (g->tx_pdcs > 0 ? group_step(nic, g) : STEP_NOTHING) {
		case STEP_SENT:
			/* Step 4: back to the tail if it has more. */
			if (nic_group_has_work(g)) {
				queue_unlink(&nic->sched, g);
				queue_link_tail(&nic->sched, g);
			} else {
				nic_group_dequeue(nic, g);
			}
			break;
		case STEP_POOL_FULL:
			/* Stop with the group at the head. */
			nic->sched.egress_stalled = true;
			nic->st.egress_pool_stalls++;
			return;
		case STEP_WINDOW_FULL:
			nic->st.window_stalls++;
			nic_group_dequeue(nic, g);
			break;
		case STEP_PREFETCH_FULL:
			nic->st.prefetch_stalls++;
			nic->sched.prefetch_stalled = true;
			nic_group_dequeue(nic, g);
			break;
		default:
			nic_group_dequeue(nic, g);
			break;
		}
	}
}

int nic_sched_init(struct uet_nic *nic)
{
	uet_event_init(&nic->sched.tx_ev, transmit_process, nic);
	return uet_train_init(&nic->fetches, &nic->comp.evq,
			      sizeof(struct nic_fetch_entry), fetch_train_due,
			      nic);
}

void nic_sched_fini(struct uet_nic *nic)
{
	uet_train_fini(&nic->fetches);
	free(nic->sched.idle);
	nic->sched.idle = NULL;
	nic->sched.idle_len = nic->sched.idle_cap = 0;
}

/* A data packet's serialization has ended: release its reservation, start
 * its timer, and count its first transmission toward the message's
 * transmit completion. */
static void data_sent(struct uet_nic *nic, const struct nic_txq_item *it)
{
	struct nic_pdc *pdc = nic_pdc_lookup_gen(nic, it->pdc, it->pdc_gen);
	const struct uet_pds_tx_packet *pkt;

	egress_release(nic, it->wire_bytes);
	nic->st.transport.data_pkts_sent++;
	if (pdc == NULL)
		return;
	pkt = uet_pds_tx_packet(&pdc->tx, it->psn);
	nic->st.transport.data_payload_bytes_sent +=
		pkt != NULL ? pkt->payload_bytes : 0;
	if (uet_pds_tx_sent(&pdc->tx, it->psn, nic_now(nic)) == 0 &&
	    nic_rto_start(nic, pdc, it->psn, pkt->transmit_count,
			  nic_now(nic)) < 0)
		/* No event for its timer (out of memory, counted): it
		 * expires now, so the packet is sent again, not never. */
		nic_rto_fire(nic, pdc->id, pdc->gen, it->psn,
			     pkt->transmit_count);
	if (it->kind == NIC_FRAME_DATA &&
	    uet_ses_msg_tx_first_sent(&pdc->msg, nic_now(nic)))
		nic_complete(nic, UET_SES_SENT, pdc);
}

/* The port's sent hook: what the transmit side does once a frame has
 * left. */
void nic_tx_sent(struct uet_nic *nic, const struct nic_txq_item *it)
{
	switch (it->kind) {
	case NIC_FRAME_DATA:
	case NIC_FRAME_DATA_RETX:
		data_sent(nic, it);
		break;
	case NIC_FRAME_PROBE:
		nic_probe_sent(nic, it->psn);
		break;
	default:
		break;
	}
}
