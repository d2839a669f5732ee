/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * IEEE 802.1Qbb priority flow control at the NIC's port. The NIC honours
 * the switch's pauses: a frame whose class (the switch's classification of
 * its codepoint) is lossless and paused does not start until the pause
 * runs out or a resume comes; the frame on the wire finishes. And the data
 * ingress pool is the receive pool of the lossless classes of the data
 * codepoints: reaching PFCXoff the NIC pauses them at the switch, falling
 * to PFCXon it resumes them, and while the pool stays above PFCXon it
 * pauses again at half of each pause. Its pause frames go before every
 * queued frame and are never paused.
 */
#include <errno.h>
#include <string.h>

#include "nic_private.h"

/* Wire bytes of a pause frame: 60 bytes and the FCS. */
#define NIC_PFC_WIRE_BYTES (UET_PFC_FRAME_BYTES + UET_ETH_FCS_BYTES)
/* Offset of the IPv4 TOS byte (DSCP in its upper six bits). */
#define NIC_PFC_TOS_OFFSET (UET_ETH_HDR_BYTES + 1)

static void nic_pfc_on_event(struct uet_evq *q, struct uet_event *ev,
			     void *arg);

static bool nic_pfc_lossless(const struct uet_nic *nic, unsigned int tc)
{
	return tc < UET_TC_COUNT && (nic->p.pfc_classes >> tc & 1u);
}

void nic_pfc_init(struct uet_nic *nic)
{
	static const int data_roles[] = {UET_DSCP_NO_TRIM, UET_DSCP_TRIMMABLE,
					 UET_DSCP_TRIMMABLE_RTX};
	unsigned int i;

	uet_event_init(&nic->pfc.ev, nic_pfc_on_event, nic);
	for (i = 0; i < sizeof(data_roles) / sizeof(data_roles[0]); i++) {
		const unsigned int tc =
			uet_dscp_class(nic->p.uet_policy, &nic->p.dscp,
				       nic->p.dscp.codepoint[data_roles[i]]);

		if (nic_pfc_lossless(nic, tc))
			nic->pfc.data_classes |= (uint8_t)(1u << tc);
	}
}

/* The one event: the earliest pause to run out, or the XOFF refresh. */
static void nic_pfc_arm(struct uet_nic *nic)
{
	struct uet_evq *q = &nic->comp.evq;
	const uet_time_t now = nic_now(nic);
	uet_time_t next = UET_TIME_NEVER;
	unsigned int tc;

	for (tc = 0; tc < UET_TC_COUNT; tc++)
		if (nic->pfc.paused_until_ps[tc] > now &&
		    nic->pfc.paused_until_ps[tc] < next)
			next = nic->pfc.paused_until_ps[tc];
	if (nic->pfc.xoff && nic->pfc.refresh_ps < next)
		next = nic->pfc.refresh_ps;
	if (next == UET_TIME_NEVER) {
		if (uet_event_pending(&nic->pfc.ev))
			(void)uet_evq_cancel(q, &nic->pfc.ev);
		return;
	}
	if (!uet_event_pending(&nic->pfc.ev) || nic->pfc.ev.time_ps != next)
		(void)uet_evq_schedule(q, &nic->pfc.ev,
				       next < now ? now : next);
}

void nic_pfc_receive(struct uet_nic *nic, const struct uet_pfc *pfc)
{
	const uet_time_t now = nic_now(nic);
	bool pause = false;
	unsigned int tc;

	/* Quanta are 512 bit times at the port's rate; only lossless
	 * classes are paused. */
	for (tc = 0; tc < UET_TC_COUNT; tc++) {
		uet_time_t ps;

		if (!(pfc->class_enable >> tc & 1u))
			continue;
		pause |= pfc->quanta[tc] != 0;
		if (!nic_pfc_lossless(nic, tc))
			continue;
		ps = uet_pfc_quanta_to_ps(pfc->quanta[tc],
					  nic->p.port_rate_bps);
		nic->pfc.paused_until_ps[tc] = uet_pfc_pause_end_ps(now, ps);
	}
	if (pause)
		nic->st.pfc_rx_xoff_frames++;
	else
		nic->st.pfc_rx_xon_frames++;
	nic_pfc_arm(nic);
	nic_port_kick(nic);
}

bool nic_pfc_may_send(const struct uet_nic *nic, const struct rte_mbuf *m)
{
	unsigned int tc;
	uint8_t dscp;

	if (nic->p.pfc_classes == 0 ||
	    rte_pktmbuf_data_len(m) <= NIC_PFC_TOS_OFFSET)
		return true;
	/* Every frame the NIC queues is IPv4, its headers in the first
	 * segment. */
	dscp = rte_pktmbuf_mtod(m, const uint8_t *)[NIC_PFC_TOS_OFFSET] >> 2;
	tc = uet_dscp_class(nic->p.uet_policy, &nic->p.dscp, dscp);
	return !nic_pfc_lossless(nic, tc) ||
	       nic_now(nic) >= nic->pfc.paused_until_ps[tc];
}

/* Queue a pause (quanta 0: resume) of the data classes, ahead of every
 * other frame. */
static void nic_pfc_send(struct uet_nic *nic, uint16_t quanta)
{
	struct uet_pfc pfc = {0};
	struct nic_txq_item it = {0};
	char *buf;

	it.m = rte_pktmbuf_alloc(nic->mp);
	if (it.m == NULL) {
		nic->st.mbuf_failures++;
		return;
	}
	memcpy(pfc.src, nic->mac, sizeof(pfc.src));
	uet_pfc_set_classes(&pfc, nic->pfc.data_classes, quanta);
	it.wire_bytes = NIC_PFC_WIRE_BYTES;
	it.kind = NIC_FRAME_PFC;
	buf = rte_pktmbuf_append(it.m, UET_PFC_FRAME_BYTES);
	if (buf == NULL ||
	    uet_pfc_build((uint8_t *)buf, UET_PFC_FRAME_BYTES, &pfc) < 0 ||
	    nic_port_queue_pause(nic, &it) < 0) {
		rte_pktmbuf_free(it.m);
		nic->st.mbuf_failures++;
		return;
	}
	if (quanta != 0)
		nic->st.pfc_tx_xoff_frames++;
	else
		nic->st.pfc_tx_xon_frames++;
	nic_port_kick(nic);
}

static void nic_pfc_xoff(struct uet_nic *nic)
{
	const uint16_t quanta = uet_pfc_pause_quanta(nic->p.pfc_pause_quanta);

	nic_pfc_send(nic, quanta);
	nic->pfc.xoff = true;
	nic->pfc.refresh_ps =
		nic_now(nic) + uet_pfc_refresh_ps(quanta, nic->p.port_rate_bps);
	nic_pfc_arm(nic);
}

void nic_pfc_pool_changed(struct uet_nic *nic)
{
	const uint64_t used = nic_ingress_used(&nic->pools, NIC_TC_DATA);

	if (nic->pfc.data_classes == 0)
		return;
	if (!nic->pfc.xoff && used >= nic->p.pfc_xoff_bytes) {
		nic_pfc_xoff(nic);
	} else if (nic->pfc.xoff && used <= nic->p.pfc_xon_bytes) {
		nic->pfc.xoff = false;
		nic_pfc_send(nic, 0);
		nic_pfc_arm(nic);
	}
}

static void nic_pfc_on_event(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct uet_nic *nic = arg;

	(void)q;
	(void)ev;
	if (nic->pfc.xoff && nic->pfc.refresh_ps <= nic_now(nic))
		nic_pfc_xoff(nic);
	nic_pfc_arm(nic);
	nic_port_kick(nic);
}
