/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A switch port: frames from the host are held until they are fully
 * received; frames to the host wait in their class queue and are
 * serialized one after another at the link rate, with no interframe gap,
 * in the order the scheduler picks the classes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "fabric_private.h"
#include "uet_log.h"

static void fabric_port_on_arrival(struct uet_evq *q, struct uet_event *ev,
				   void *arg);
static void fabric_port_on_tx_end(struct uet_evq *q, struct uet_event *ev,
				  void *arg);
static void fabric_port_tx_end(struct fabric_port *p);

/* Zeroed, never written: what a port points at for a class queue, its
 * seldom counters and PFC until it first uses them. */
struct fabric_tcq fabric_tcq_idle;
struct fabric_pfc_port fabric_pfc_idle;
struct fabric_port_cold fabric_cold_idle = {.pfc = &fabric_pfc_idle};

/*
 * The class queue limit and ECN thresholds at a nominal rate: the
 * configuration's, or with limits by rate one BDP of this link's rate and
 * shares of it, so a port of a faster tier holds the same time of traffic
 * as a host's.
 */
void fabric_port_nominal_limits(const struct uet_fabric_conf *c,
				uint64_t rate_bps, uint64_t *limit_bytes,
				uint64_t *ecn_kmin_bytes,
				uint64_t *ecn_kmax_bytes)
{
	const uint64_t limit =
		c->queue_time_ps != 0
			? uet_bytes_in_duration(c->queue_time_ps, rate_bps)
			: c->queue_limit_bytes;

	*limit_bytes = limit;
	/* Limits are at most a few GB, so bytes x ppm fits 64 bits. */
	*ecn_kmin_bytes = c->ecn_kmin_ppm != 0
				  ? limit * c->ecn_kmin_ppm / 1000000u
				  : c->ecn_kmin_bytes;
	*ecn_kmax_bytes = c->ecn_kmax_ppm != 0
				  ? limit * c->ecn_kmax_ppm / 1000000u
				  : c->ecn_kmax_bytes;
}

int fabric_port_init(struct fabric_port *p, struct uet_fabric *fab, uint32_t id)
{
	unsigned int tc;

	(void)fab;
	p->id = id;
	/* At the nominal rate until a failure degrades the link. */
	fabric_port_nominal_limits(&fabric_port_fab(p)->conf, p->rate_bps,
				   &p->limit_bytes, &p->ecn_kmin_applied,
				   &p->ecn_kmax_applied);
	/* Scheduled when its ring fills and run when the head arrives,
	 * never moved or cancelled in between: fixed. */
	uet_event_init_fixed(&p->arrival_ev, fabric_port_on_arrival, p);
	uet_event_init(&p->tx_end_ev, fabric_port_on_tx_end, p);
	/* Rings take slots with their first frame: a port that never
	 * receives costs none (at 1,024 hosts the eager class rings were a
	 * tenth of the run's page faults; at k = 64 a port was 3.4 KB). */
	(void)fabric_fifo_init(&p->arriving, 0);
	p->cold = &fabric_cold_idle;
	for (tc = 0; tc < UET_FABRIC_TCS; tc++)
		p->tcq[tc] = &fabric_tcq_idle;
	return 0;
}

struct fabric_tcq *fabric_port_tcq_alloc(struct fabric_port *p, unsigned int tc)
{
	/* Lines of its own: the class's ring state and bytes are what a
	 * frame of the class touches. */
	struct fabric_tcq *cq =
		aligned_alloc(_Alignof(struct fabric_tcq), sizeof(*cq));

	if (cq == NULL) {
		fabric_part_fail(p->part, -ENOMEM);
		return NULL;
	}
	memset(cq, 0, sizeof(*cq));
	p->tcq[tc] = cq;
	return cq;
}

struct fabric_port_cold *fabric_port_cold_alloc(struct fabric_port *p)
{
	struct fabric_port_cold *cold = calloc(1, sizeof(*cold));

	if (cold == NULL) {
		fabric_part_fail(p->part, -ENOMEM);
		return NULL;
	}
	cold->pfc = &fabric_pfc_idle;
	p->cold = cold;
	return cold;
}

void fabric_port_fini(struct fabric_port *p)
{
	unsigned int tc;

	/* A zeroed port (never initialised) is accepted. */
	fabric_fifo_fini(&p->arriving);
	if (p->cold != NULL && p->cold != &fabric_cold_idle) {
		fabric_pfc_fini(p);
		free(p->cold);
	}
	p->cold = NULL;
	for (tc = 0; tc < UET_FABRIC_TCS; tc++) {
		if (p->tcq[tc] != NULL && p->tcq[tc] != &fabric_tcq_idle) {
			fabric_fifo_fini(&p->tcq[tc]->fifo);
			free(p->tcq[tc]);
		}
		p->tcq[tc] = NULL;
	}
}

void fabric_port_stats(const struct fabric_port *p,
		       struct uet_fabric_port_stats *out)
{
	const struct fabric_port_cold *cold = p->cold;
	const struct fabric_pfc_port *pfc = cold->pfc;
	unsigned int tc;

	memset(out, 0, sizeof(*out));
	out->rx_frames = p->rx_frames;
	out->rx_bytes = p->rx_bytes;
	out->tx_frames = p->tx_frames;
	out->tx_bytes = p->tx_bytes;
	out->queue_bytes = p->queue_bytes;
	out->peak_queue_bytes = p->peak_queue_bytes;
	out->drop_full_frames = cold->drop_full_frames;
	out->drop_full_bytes = cold->drop_full_bytes;
	out->drop_random_frames = cold->drop_random_frames;
	out->drop_random_bytes = cold->drop_random_bytes;
	out->drop_route_frames = cold->drop_route_frames;
	out->drop_route_bytes = cold->drop_route_bytes;
	out->drop_control_frames = cold->drop_control_frames;
	out->drop_source_frames = cold->drop_source_frames;
	out->drop_lost_frames = cold->drop_lost_frames;
	out->trim_frames = cold->trim_frames;
	out->drop_trim_frames = cold->drop_trim_frames;
	out->ecn_frames = cold->ecn_frames;
	out->pfc_tx_xoff_frames = cold->pfc_tx_xoff_frames;
	out->pfc_tx_xon_frames = cold->pfc_tx_xon_frames;
	out->pfc_rx_xoff_frames = cold->pfc_rx_xoff_frames;
	out->pfc_rx_xon_frames = cold->pfc_rx_xon_frames;
	out->pfc_headroom_drop_frames = cold->pfc_headroom_drop_frames;
	for (tc = 0; tc < UET_FABRIC_TCS; tc++) {
		const struct fabric_tcq *cq = p->tcq[tc];

		out->tc[tc] = (struct uet_fabric_tc_stats){
			.enq_frames = cq->enq_frames,
			.enq_bytes = cq->enq_bytes,
			.drop_frames = cq->drop_frames,
			.drop_bytes = cq->drop_bytes,
			.trim_frames = cq->trim_frames,
			.ecn_frames = cq->ecn_frames,
			.queue_bytes = cq->queue_bytes,
			.peak_queue_bytes = cq->peak_queue_bytes,
			.paused_ps = pfc->paused_ps[tc],
			.ingress_bytes = pfc->ingress_bytes[tc],
			.peak_ingress_bytes = pfc->peak_ingress_bytes[tc],
		};
	}
}

int fabric_port_arrive_hold(struct fabric_port *p, struct rte_mbuf *m,
			    uet_time_t arrival_ps)
{
	const struct fabric_entry e = {.m = m, .time_ps = arrival_ps};
	const bool idle = fabric_fifo_empty(&p->arriving);
	int ret;

	/* A link is FIFO: one port's arrivals come in time order, so the
	 * head of the ring is always the next one and one event suffices. */
	if (arrival_ps < fabric_port_now(p) ||
	    (!idle && arrival_ps < fabric_fifo_tail(&p->arriving)->time_ps)) {
		rte_pktmbuf_free(m);
		return -EINVAL;
	}
	ret = fabric_fifo_push(&p->arriving, &e);
	if (ret < 0) {
		rte_pktmbuf_free(m);
		return ret;
	}
	/* The arrival event is pending exactly while the ring holds a
	 * frame. */
	return idle ? 1 : 0;
}

int fabric_port_arrive_schedule(struct fabric_port *p)
{
	return uet_evq_schedule(fabric_port_evq(p), &p->arrival_ev,
				fabric_fifo_head(&p->arriving)->time_ps);
}

int fabric_port_arrive(struct fabric_port *p, struct rte_mbuf *m,
		       uet_time_t arrival_ps)
{
	const int ret = fabric_port_arrive_hold(p, m, arrival_ps);

	return ret > 0 ? fabric_port_arrive_schedule(p) : ret;
}

/* The head of the arriving ring is fully received: the switch takes it. */
static void fabric_port_on_arrival(struct uet_evq *q, struct uet_event *ev,
				   void *arg)
{
	struct fabric_port *p = arg;
	struct fabric_entry e;

	fabric_fifo_pop(&p->arriving, &e);
	/* Scheduled before the frame is handled, whatever that does. The
	 * next arrival is not before now (checked on delivery), so this
	 * cannot fail: the queue is reserved for both events of every
	 * port. */
	if (!fabric_fifo_empty(&p->arriving))
		(void)uet_evq_schedule(q, ev,
				       fabric_fifo_head(&p->arriving)->time_ps);
	fabric_receive(fabric_port_fab(p), p, e.m);
}

/* Put the head of the class the scheduler picks on the wire, if any. */
static void fabric_port_start_tx(struct fabric_port *p)
{
	struct uet_fabric *fab = fabric_port_fab(p);
	struct uet_evq *q = fabric_port_evq(p);
	const struct fabric_entry *head;
	struct fabric_tcq *cq;
	uet_time_t ser_ps;
	int tc;

	/* The port's own pause frames go first, whatever is paused. */
	if (p->backlog & FABRIC_BACKLOG_PFC) {
		p->tx_tc = FABRIC_TX_PFC;
		ser_ps = uet_serialization_ps(
			fabric_fifo_head(&p->cold->pfc->ctrl)->wire_bytes,
			p->rate_bps);
		(void)uet_evq_schedule(q, &p->tx_end_ev,
				       uet_evq_now(q) + ser_ps);
		return;
	}
	tc = fabric_sched_pick(p);
	if (tc < 0)
		return;
	p->tx_tc = (uint8_t)tc;
	cq = p->tcq[tc];
	head = fabric_fifo_head(&cq->fifo);
	/* Dequeue marking sees the bytes left behind in its class. */
	if (fab->conf.ecn && fab->conf.ecn_at_dequeue &&
	    fabric_ecn_mark(p, head->m, cq->queue_bytes - head->wire_bytes)) {
		struct fabric_port_cold *cold = fabric_port_cold(p);

		if (cold != NULL)
			cold->ecn_frames++;
		cq->ecn_frames++;
	}
	p->tx_m = head->m;
	p->tx_cq = cq;
	p->tx_wire_bytes = head->wire_bytes;
	p->tx_ingress = head->ingress;
	ser_ps = uet_serialization_ps(head->wire_bytes, p->rate_bps);
	/* The rate is non-zero and a frame is at most 64 KiB, so the time
	 * is finite and the reserved queue takes the event. */
	(void)uet_evq_schedule(q, &p->tx_end_ev, uet_evq_now(q) + ser_ps);
}

void fabric_port_settle_now(struct fabric_port *p)
{
	/* At one instant a departure comes before an arrival: a frame whose
	 * last bit leaves now no longer holds its buffer, whichever event
	 * the queue happened to order first. So a queue one frame deep
	 * passes a line-rate stream. */
	if (uet_event_pending(&p->tx_end_ev) &&
	    p->tx_end_ev.time_ps == fabric_port_now(p)) {
		(void)uet_evq_cancel(fabric_port_evq(p), &p->tx_end_ev);
		fabric_port_tx_end(p);
	}
}

void fabric_port_kick(struct fabric_port *p)
{
	if (!uet_event_pending(&p->tx_end_ev))
		fabric_port_start_tx(p);
}

int fabric_port_join(struct fabric_port *p, unsigned int tc, struct rte_mbuf *m,
		     uint32_t wire_bytes, uint32_t ingress)
{
	struct uet_fabric *fab = fabric_port_fab(p);
	struct fabric_tcq *cq = fabric_port_tcq(p, tc);
	const struct fabric_entry e = {
		.m = m,
		.time_ps = fabric_port_now(p),
		.wire_bytes = wire_bytes,
		.ingress = ingress,
	};
	int ret;

	if (cq == NULL) {
		rte_pktmbuf_free(m);
		return -ENOMEM;
	}
	/* Enqueue marking sees the bytes already in its class. */
	if (fab->conf.ecn && !fab->conf.ecn_at_dequeue &&
	    fabric_ecn_mark(p, m, cq->queue_bytes)) {
		struct fabric_port_cold *cold = fabric_port_cold(p);

		if (cold != NULL)
			cold->ecn_frames++;
		cq->ecn_frames++;
	}
	ret = fabric_fifo_push(&cq->fifo, &e);
	if (ret < 0) {
		rte_pktmbuf_free(m);
		return ret;
	}
	p->backlog |= (uint16_t)(1u << tc);
	cq->enq_frames++;
	cq->enq_bytes += wire_bytes;
	fabric_occ_change(p, tc);
	cq->queue_bytes += wire_bytes;
	if (cq->queue_bytes > cq->peak_queue_bytes)
		cq->peak_queue_bytes = cq->queue_bytes;
	p->queue_bytes += wire_bytes;
	if (p->queue_bytes > p->peak_queue_bytes)
		p->peak_queue_bytes = p->queue_bytes;
	if (ingress != FABRIC_NO_PORT && fabric_pfc_lossless(&fab->conf, tc))
		fabric_pfc_ingress_add(&fab->ports[ingress], tc, wire_bytes);
	if (!uet_event_pending(&p->tx_end_ev))
		fabric_port_start_tx(p);
	return 0;
}

/* The head's last bit is on the wire: it reaches the host a link delay
 * later, and the next frame starts at once (no interframe gap). */
static void fabric_port_tx_end(struct fabric_port *p)
{
	struct uet_fabric *fab = fabric_port_fab(p);
	const uet_time_t now = fabric_port_now(p);
	struct fabric_entry e;
	int ret;

	if (p->tx_tc == FABRIC_TX_PFC) {
		struct fabric_fifo *ctrl = &p->cold->pfc->ctrl;

		fabric_fifo_pop(ctrl, &e);
		if (fabric_fifo_empty(ctrl))
			p->backlog &= (uint16_t)~FABRIC_BACKLOG_PFC;
	} else {
		struct fabric_tcq *cq = p->tx_cq;

		/* The head, as fabric_port_start_tx copied it: only this
		 * removes a class queue's head while it is on the wire. */
		e.m = p->tx_m;
		e.wire_bytes = p->tx_wire_bytes;
		e.ingress = p->tx_ingress;
		fabric_fifo_drop_head(&cq->fifo);
		if (fabric_fifo_empty(&cq->fifo))
			p->backlog &= (uint16_t) ~(1u << p->tx_tc);
		fabric_occ_change(p, p->tx_tc);
		cq->queue_bytes -= e.wire_bytes;
		p->queue_bytes -= e.wire_bytes;
		/* Its buffer is free: the ingress it came from may resume. */
		if (e.ingress != FABRIC_NO_PORT &&
		    fabric_pfc_lossless(&fab->conf, p->tx_tc))
			fabric_pfc_ingress_sub(&fab->ports[e.ingress], p->tx_tc,
					       e.wire_bytes);
	}
	p->tx_frames++;
	p->tx_bytes += e.wire_bytes;
	fabric_port_start_tx(p);
	/* The capture shows the links to the hosts only. */
	if (p->peer < 0 && fab->capture != NULL)
		fab->capture(fab->capture_ctx, p->id, e.m, now, true);
	if (p->peer >= 0) {
		/* A link inside the fabric: the frame reaches the next
		 * switch's port after the link's delay, as an event there. */
		ret = fabric_part_send(p, e.m, now + p->delay_ps);
	} else if (fab->comp.out == NULL) {
		/* The wiring forgot to connect the fabric: not a model drop. */
		rte_pktmbuf_free(e.m);
		ret = -ENOTCONN;
	} else {
		ret = uet_component_out(&fab->comp, p->id, e.m,
					now + p->delay_ps);
	}
	if (ret < 0 && p->part->error == 0) {
		fabric_part_fail(p->part, ret);
		UET_LOG(ERROR, FABRIC, "%s: port %u: out() failed: %d",
			fab->comp.name, p->id, ret);
	}
}

static void fabric_port_on_tx_end(struct uet_evq *q, struct uet_event *ev,
				  void *arg)
{
	(void)q;
	(void)ev;
	fabric_port_tx_end(arg);
}
