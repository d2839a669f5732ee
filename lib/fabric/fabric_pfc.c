/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IEEE 802.1Qbb priority flow control at a switch port. As an ingress the
 * port counts, per lossless class, the bytes received on it that the
 * switch still holds: reaching PFCXoff it sends a pause frame out of
 * itself toward the upstream, falling to PFCXon it sends a resume (quanta
 * 0), and PFCHeadroom above PFCXoff absorbs what was in flight. As an
 * egress it honours the pause frames it receives: a paused class starts no
 * frame until the pause runs out or a resume comes. Pause frames are real
 * frames on the links, sent ahead of every class at the next frame
 * boundary, so they show in the captures and take wire time.
 */
#include <errno.h>
#include <stdlib.h>

#include <rte_mbuf.h>

#include "fabric_meta.h"
#include "fabric_private.h"
#include "uet_log.h"
#include "uet_wire.h"

/* Wire bytes of a pause frame: 60 bytes and the FCS. */
#define FABRIC_PFC_WIRE_BYTES (UET_PFC_FRAME_BYTES + UET_ETH_FCS_BYTES)

static void fabric_pfc_on_event(struct uet_evq *q, struct uet_event *ev,
				void *arg);

void fabric_pfc_fini(struct fabric_port *p)
{
	struct fabric_pfc_port *pfc = p->cold->pfc;

	if (pfc == &fabric_pfc_idle)
		return;
	fabric_fifo_fini(&pfc->ctrl);
	free(pfc);
	p->cold->pfc = &fabric_pfc_idle;
}

/* Port p's PFC state, to change: allocated with the first pause it keeps
 * or lossless byte it counts; NULL, the part failed, if that fails. */
static struct fabric_pfc_port *fabric_pfc_state(struct fabric_port *p)
{
	struct fabric_port_cold *cold = fabric_port_cold(p);
	struct fabric_pfc_port *pfc;

	if (cold == NULL)
		return NULL;
	if (cold->pfc != &fabric_pfc_idle)
		return cold->pfc;
	pfc = calloc(1, sizeof(*pfc));
	if (pfc == NULL) {
		fabric_part_fail(p->part, -ENOMEM);
		return NULL;
	}
	pfc->port = p;
	uet_event_init(&pfc->ev, fabric_pfc_on_event, pfc);
	(void)fabric_fifo_init(&pfc->ctrl, 0);
	cold->pfc = pfc;
	return pfc;
}

static uet_time_t fabric_pfc_now(const struct fabric_port *p)
{
	return fabric_port_now(p);
}

static void fabric_pfc_fail(struct fabric_port *p, int err)
{
	if (p->part->error == 0) {
		fabric_part_fail(p->part, err);
		UET_LOG(ERROR, FABRIC, "%s: pause frame: %d",
			fabric_port_fab(p)->comp.name, err);
	}
}

/*
 * The one event of a port: the earliest pause of its egress to run out
 * and the earliest XOFF of its ingress to send again. Moving it is all
 * that changes; the queue is reserved for it at creation.
 */
static void fabric_pfc_arm(struct fabric_port *p)
{
	struct fabric_pfc_port *pfc = p->cold->pfc;
	struct uet_evq *q = fabric_port_evq(p);
	const uet_time_t now = uet_evq_now(q);
	uet_time_t next = UET_TIME_NEVER;
	unsigned int tc;

	/* Never paused nor pausing: nothing to wait for. */
	if (pfc == &fabric_pfc_idle)
		return;
	for (tc = 0; tc < UET_FABRIC_TCS; tc++) {
		if (pfc->paused_until_ps[tc] > now &&
		    pfc->paused_until_ps[tc] < next)
			next = pfc->paused_until_ps[tc];
		if ((pfc->xoff >> tc & 1u) && pfc->refresh_ps[tc] < next)
			next = pfc->refresh_ps[tc];
	}
	if (next == UET_TIME_NEVER) {
		if (uet_event_pending(&pfc->ev))
			(void)uet_evq_cancel(q, &pfc->ev);
		return;
	}
	if (!uet_event_pending(&pfc->ev) || pfc->ev.time_ps != next)
		(void)uet_evq_schedule(q, &pfc->ev, next < now ? now : next);
}

/*
 * Queue a pause frame for classes (quanta 0: resume) out of port p, ahead
 * of its class queues. Its source is the port's own address: 02:00 then
 * 0x10000 + the port number on 32 bits, which is 02:00:00:01 then the port
 * on 16 bits for the first 65,536 ports, as before port numbers grew.
 */
static void fabric_pfc_send(struct fabric_port *p, uint8_t classes,
			    uint16_t quanta)
{
	struct fabric_pfc_port *f = p->cold->pfc; /* the sender's: allocated */
	struct rte_mempool *pool = p->part->pfc_pool;
	const uint32_t mac_low = UINT32_C(0x10000) + p->id;
	struct fabric_entry e = {.ingress = FABRIC_NO_PORT};
	struct uet_pfc pfc = {0};
	char *buf;
	int len;

	if (pool == NULL) {
		fabric_pfc_fail(p, -ENOMEM);
		return;
	}
	e.m = rte_pktmbuf_alloc(pool);
	if (e.m == NULL) {
		fabric_pfc_fail(p, -ENOMEM);
		return;
	}
	fabric_meta_clear(e.m); /* an mbuf's field outlives its last frame */
	pfc.src[0] = 0x02;
	pfc.src[2] = (uint8_t)(mac_low >> 24);
	pfc.src[3] = (uint8_t)(mac_low >> 16);
	pfc.src[4] = (uint8_t)(mac_low >> 8);
	pfc.src[5] = (uint8_t)mac_low;
	uet_pfc_set_classes(&pfc, classes, quanta);
	buf = rte_pktmbuf_append(e.m, UET_PFC_FRAME_BYTES);
	len = buf == NULL ? -ENOSPC
			  : uet_pfc_build((uint8_t *)buf, UET_PFC_FRAME_BYTES,
					  &pfc);
	e.time_ps = fabric_pfc_now(p);
	e.wire_bytes = FABRIC_PFC_WIRE_BYTES;
	if (len < 0 || fabric_fifo_push(&f->ctrl, &e) < 0) {
		rte_pktmbuf_free(e.m);
		fabric_pfc_fail(p, len < 0 ? len : -ENOMEM);
		return;
	}
	p->backlog |= FABRIC_BACKLOG_PFC;
	if (quanta != 0)
		p->cold->pfc_tx_xoff_frames++;
	else
		p->cold->pfc_tx_xon_frames++;
	fabric_port_kick(p);
}

/* Send XOFF for classes, and send it again when half of the pause has
 * passed, so that a long congestion keeps the upstream paused. */
static void fabric_pfc_xoff(struct fabric_port *p, uint8_t classes)
{
	struct fabric_pfc_port *pfc = p->cold->pfc; /* allocated */
	const uint16_t quanta =
		uet_pfc_pause_quanta(fabric_port_fab(p)->conf.pfc_pause_quanta);
	const uet_time_t refresh_ps =
		fabric_pfc_now(p) + uet_pfc_refresh_ps(quanta, p->rate_bps);
	unsigned int tc;

	fabric_pfc_send(p, classes, quanta);
	for (tc = 0; tc < UET_FABRIC_TCS; tc++)
		if (classes >> tc & 1u)
			pfc->refresh_ps[tc] = refresh_ps;
	pfc->xoff |= classes;
	fabric_pfc_arm(p);
}

bool fabric_pfc_admit(const struct fabric_port *in, unsigned int tc,
		      uint32_t wire_bytes)
{
	const struct uet_fabric_conf *conf = &fabric_port_fab(in)->conf;

	return in->cold->pfc->ingress_bytes[tc] + wire_bytes <=
	       conf->pfc_xoff_bytes + conf->pfc_headroom_bytes;
}

void fabric_pfc_ingress_add(struct fabric_port *in, unsigned int tc,
			    uint32_t wire_bytes)
{
	struct fabric_pfc_port *pfc = fabric_pfc_state(in);

	if (pfc == NULL)
		return;
	pfc->ingress_bytes[tc] += wire_bytes;
	if (pfc->ingress_bytes[tc] > pfc->peak_ingress_bytes[tc])
		pfc->peak_ingress_bytes[tc] = pfc->ingress_bytes[tc];
	if (!(pfc->xoff >> tc & 1u) &&
	    pfc->ingress_bytes[tc] >= fabric_port_fab(in)->conf.pfc_xoff_bytes)
		fabric_pfc_xoff(in, (uint8_t)(1u << tc));
}

void fabric_pfc_ingress_sub(struct fabric_port *in, unsigned int tc,
			    uint32_t wire_bytes)
{
	/* Counted in by fabric_pfc_ingress_add: allocated, unless that
	 * failed and the run is stopping. */
	struct fabric_pfc_port *pfc = in->cold->pfc;

	if (pfc == &fabric_pfc_idle)
		return;
	pfc->ingress_bytes[tc] -= wire_bytes;
	if ((pfc->xoff >> tc & 1u) &&
	    pfc->ingress_bytes[tc] <= fabric_port_fab(in)->conf.pfc_xon_bytes) {
		pfc->xoff &= (uint8_t) ~(1u << tc);
		fabric_pfc_send(in, (uint8_t)(1u << tc), 0);
		fabric_pfc_arm(in);
	}
}

/* ps of class tc's current (or last) pause that have passed by now and
 * are not yet in its paused_ps. */
static uet_time_t fabric_pfc_paused_open(const struct fabric_pfc_port *pfc,
					 unsigned int tc, uet_time_t now)
{
	const uet_time_t end = RTE_MIN(pfc->paused_until_ps[tc], now);

	return end > pfc->paused_since_ps[tc] ? end - pfc->paused_since_ps[tc]
					      : 0;
}

/* Close the part of class tc's pause that has passed into paused_ps and
 * start a new one of pause_ps from now (0: the class resumes). */
static void fabric_pfc_pause(struct fabric_port *p, unsigned int tc,
			     uet_time_t pause_ps)
{
	const uet_time_t now = fabric_pfc_now(p);
	struct fabric_pfc_port *f = fabric_pfc_state(p);

	if (f == NULL)
		return;
	f->paused_ps[tc] += fabric_pfc_paused_open(f, tc, now);
	f->paused_since_ps[tc] = now;
	f->paused_until_ps[tc] = uet_pfc_pause_end_ps(now, pause_ps);
}

void fabric_pfc_receive(struct fabric_port *in, const struct uet_pfc *pfc)
{
	const struct uet_fabric_conf *conf = &fabric_port_fab(in)->conf;
	struct fabric_port_cold *cold = fabric_port_cold(in);
	bool pause = false;
	unsigned int tc;

	/* The quanta are 512 bit times at this link's rate. Only lossless
	 * classes are paused; the frame is taken and counted anyway. */
	for (tc = 0; tc < UET_FABRIC_TCS; tc++) {
		if (!(pfc->class_enable >> tc & 1u))
			continue;
		pause |= pfc->quanta[tc] != 0;
		if (fabric_pfc_lossless(conf, tc))
			fabric_pfc_pause(in, tc,
					 uet_pfc_quanta_to_ps(pfc->quanta[tc],
							      in->rate_bps));
	}
	if (cold != NULL && pause)
		cold->pfc_rx_xoff_frames++;
	else if (cold != NULL)
		cold->pfc_rx_xon_frames++;
	fabric_pfc_arm(in);
	fabric_port_kick(in);
}

bool fabric_pfc_paused(const struct fabric_port *p, unsigned int tc)
{
	return fabric_pfc_now(p) < p->cold->pfc->paused_until_ps[tc];
}

/* A pause ran out (the egress may send again) or an XOFF is due again. */
static void fabric_pfc_on_event(struct uet_evq *q, struct uet_event *ev,
				void *arg)
{
	struct fabric_pfc_port *pfc = arg;
	struct fabric_port *p = pfc->port;
	const uet_time_t now = uet_evq_now(q);
	uint8_t due = 0;
	unsigned int tc;

	(void)ev;
	for (tc = 0; tc < UET_FABRIC_TCS; tc++)
		if ((pfc->xoff >> tc & 1u) && pfc->refresh_ps[tc] <= now)
			due |= (uint8_t)(1u << tc);
	if (due != 0)
		fabric_pfc_xoff(p, due);
	fabric_pfc_arm(p);
	fabric_port_kick(p);
}

uint64_t fabric_pfc_paused_ps(const struct fabric_port *p, unsigned int tc)
{
	const struct fabric_pfc_port *pfc = p->cold->pfc;

	return pfc->paused_ps[tc] +
	       fabric_pfc_paused_open(pfc, tc, fabric_pfc_now(p));
}
