/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The NIC's life and its host-side API: create and destroy, the
 * component, and the post of a message ("Messages and packet delivery
 * contexts"): the host's doorbell with its WQE crosses PCIe, creates the
 * sending side of a new PDC, queues its group, and the transmit process
 * starts TransmitStartDelay later.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nic_private.h"
#include "uet_ipv4_text.h"
#include "uet_log.h"

/* A message's PDC opens: its group to the back of the queue, and the
 * transmit process 15 ns (TransmitStartDelay) later. */
static void pdc_start(struct uet_nic *nic, struct nic_pdc *pdc)
{
	/* Sized for the message's packets, up to a window's worth: a short
	 * message's record is a few slots; a long one's grows with what is
	 * outstanding. */
	uint32_t slots = pdc->msg.segments < 64 ? pdc->msg.segments : 64;

	if (uet_pds_tx_init(&pdc->tx, &nic->p.pds, pdc->start_psn, slots) < 0 ||
	    nic_pdc_open(nic, pdc, pdc->dst_ip) < 0) {
		UET_LOG(ERROR, NIC, "%s: no memory for message %llu: dropped",
			nic->comp.name, (unsigned long long)pdc->msg.msg_id);
		uet_pds_tx_fini(&pdc->tx);
		nic->st.transport.pdc_exhausted++;
		free(pdc);
		return;
	}
	nic->tx_pdcs_open++;
	nic_group_enqueue_tail(nic, pdc->group);
	nic_transmit_start(nic, nic_now(nic) + nic->p.transmit_start_delay_ps);
}

/* The doorbell reaches the NIC: a new PDC, or, with every PDC number in
 * use (or messages already waiting), a place at the back of the line. */
static void doorbell(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct nic_pdc *pdc = arg;
	struct uet_nic *nic = pdc->nic;

	(void)q;
	(void)ev;
	nic->posts_pending--;
	pdc->start_psn = (uint32_t)uet_rng_u64(&nic->rng);
	pdc->commit_psn = pdc->start_psn;
	pdc->syn = true;
	if (nic->pdc_wait_head != NULL || !nic_pdc_id_free(nic)) {
		pdc->wait_next = NULL;
		if (nic->pdc_wait_tail != NULL)
			nic->pdc_wait_tail->wait_next = pdc;
		else
			nic->pdc_wait_head = pdc;
		nic->pdc_wait_tail = pdc;
		nic->pdc_waiting++;
		nic->st.pdc_waits++;
		return;
	}
	pdc_start(nic, pdc);
}

void nic_pdc_wait_start(struct uet_nic *nic)
{
	struct nic_pdc *pdc;

	while ((pdc = nic->pdc_wait_head) != NULL && nic_pdc_id_free(nic)) {
		nic->pdc_wait_head = pdc->wait_next;
		if (nic->pdc_wait_head == NULL)
			nic->pdc_wait_tail = NULL;
		nic->pdc_waiting--;
		pdc_start(nic, pdc);
	}
}

/* Messages still waiting at teardown own their PDC struct. */
static void free_waiting(struct uet_nic *nic)
{
	struct nic_pdc *pdc;

	while ((pdc = nic->pdc_wait_head) != NULL) {
		nic->pdc_wait_head = pdc->wait_next;
		free(pdc);
	}
	nic->pdc_wait_tail = NULL;
	nic->pdc_waiting = 0;
}

/* The host posts: the doorbell and WQE (64 bytes) cross PCIe host to NIC.
 * The PCIe model has no host-to-NIC posted write, so its time is the
 * transfer time of 64 bytes on an idle link (1,555 ps at the defaults). */
static void post(struct uet_evq *q, struct uet_event *ev, void *arg)
{
	struct nic_pdc *pdc = arg;
	struct uet_nic *nic = pdc->nic;

	(void)ev;
	nic->st.transport.msgs_posted++;
	nic_record_event(nic, UET_EV_MSG_POSTED, pdc, pdc->msg.msg_id,
			 pdc->msg.bytes);
	nic_stats_start(nic);
	uet_evq_schedule(
		q, &pdc->doorbell_ev,
		uet_evq_now(q) +
			uet_pcie_transfer_ps(&nic->p.pcie, UET_DOORBELL_BYTES));
}

int uet_nic_post_message(struct uet_nic *nic, uint32_t dst_ip, uint64_t bytes,
			 uet_time_t at_ps, uint64_t msg_id)
{
	struct nic_pdc *pdc;
	int rc;

	if (nic == NULL || bytes > UET_SES_MAX_MESSAGE_BYTES ||
	    at_ps < nic_now(nic) || at_ps == UET_TIME_NEVER ||
	    dst_ip == nic->ip)
		return -EINVAL;
	pdc = calloc(1, sizeof(*pdc));
	if (pdc == NULL)
		return -ENOMEM;
	pdc->nic = nic;
	pdc->is_tx = true;
	pdc->dst_ip = dst_ip;
	rc = uet_ses_msg_tx_init(&pdc->msg, msg_id, bytes, nic->p.mss_bytes,
				 nic->next_message_id++, nic->index, at_ps);
	if (rc < 0) {
		free(pdc);
		return rc;
	}
	uet_event_init(&pdc->post_ev, post, pdc);
	uet_event_init(&pdc->doorbell_ev, doorbell, pdc);
	rc = uet_evq_schedule(&nic->comp.evq, &pdc->post_ev, at_ps);
	if (rc < 0) {
		free(pdc);
		return rc;
	}
	nic->posts_pending++;
	return 0;
}

/* The component's name in log lines: "nic 198.18.0.1". */
static void nic_name(struct uet_nic *nic, uint32_t ip)
{
	char text[UET_IPV4_TEXT_BYTES];

	uet_ipv4_format(ip, text);
	snprintf(nic->comp.name, sizeof(nic->comp.name), "nic %s", text);
}

int uet_nic_create(struct uet_nic **nicp, const struct uet_nic_conf *conf)
{
	struct uet_nic *nic;
	int rc;

	if (nicp == NULL || conf == NULL || conf->mempool == NULL ||
	    uet_nic_params_check(conf->params) < 0)
		return -EINVAL;
	nic = calloc(1, sizeof(*nic));
	if (nic == NULL)
		return -ENOMEM;
	nic->p = *conf->params;
	rc = uet_evq_init(&nic->comp.evq);
	if (rc < 0)
		goto fail_free;
	rc = nic_rto_init(nic);
	if (rc == 0)
		rc = nic_rx_init(nic);
	if (rc == 0)
		rc = nic_sched_init(nic);
	if (rc < 0)
		goto fail_free;
	nic_name(nic, conf->ip);
	nic->comp.deliver = nic_deliver;
	nic->index = conf->index;
	nic->ip = conf->ip;
	memcpy(nic->mac, conf->mac, sizeof(nic->mac));
	memcpy(nic->switch_mac, conf->switch_mac, sizeof(nic->switch_mac));
	nic->mp = conf->mempool;
	nic->payload_mp = conf->payload_mempool != NULL ? conf->payload_mempool
							: conf->mempool;
	nic->rec = conf->record;
	nic->monitor_on = nic->rec != NULL && uet_record_monitor_on(nic->rec);
	nic->arrivals = conf->arrivals;
	nic->seed = conf->seed;
	if (conf->external_count > 0) {
		rc = -EINVAL;
		if (conf->external_ips == NULL)
			goto fail_evq;
		rc = -ENOMEM;
		nic->external_ips = malloc(conf->external_count *
					   sizeof(*nic->external_ips));
		if (nic->external_ips == NULL)
			goto fail_evq;
		memcpy(nic->external_ips, conf->external_ips,
		       conf->external_count * sizeof(*nic->external_ips));
		nic->external_count = conf->external_count;
	}
	rc = nic_fault_from_env(nic);
	if (rc < 0)
		goto fail_evq;
	uet_rng_seed(&nic->rng, conf->seed,
		     UINT64_C(0x4e4943) << 32 | conf->index);
	uet_wire_cfg_default(&nic->wire);
	nic->wire.udp_dport = nic->p.udp_dport;
	nic->next_new_id = 1;
	nic_pools_init(&nic->pools, &nic->p);
	nic_port_init(nic, nic_tx_sent);
	uet_event_init(&nic->stats_ev, nic_stats_event, nic);
	nic_pfc_init(nic);
	rc = uet_pcie_init(&nic->pcie, &nic->p.pcie);
	if (rc < 0)
		goto fail_evq;
	rc = nic_payload_create(nic, conf->pattern);
	if (rc < 0)
		goto fail_pcie;
	*nicp = nic;
	return 0;
fail_pcie:
	uet_pcie_fini(&nic->pcie);
fail_evq:
	free(nic->external_ips);
	uet_evq_fini(&nic->comp.evq);
fail_free:
	free(nic);
	return rc;
}

/*
 * Messages posted whose doorbell has not run yet own their PDC struct.
 * They are gathered first, then cancelled: a cancel moves heap slots (the
 * last one into the hole, then up or down), so cancelling while walking
 * the heap misses some (the posts of an interrupted run leaked, seen by
 * LeakSanitizer).
 */
static void cancel_pending_posts(struct uet_nic *nic)
{
	struct uet_evq *q = &nic->comp.evq;
	struct uet_event **evs;
	uint32_t i, n = 0;

	if (q->len == 0)
		return;
	evs = malloc(q->len * sizeof(*evs));
	if (evs == NULL)
		return; /* left to the process's exit */
	for (i = 0; i < q->len; i++) {
		struct uet_event *ev = uet_evq_slot_event(&q->heap[i]);

		if (ev->fn == post || ev->fn == doorbell)
			evs[n++] = ev;
	}
	for (i = 0; i < n; i++) {
		uet_evq_cancel(q, evs[i]);
		free(evs[i]->arg);
	}
	free(evs);
}

void uet_nic_destroy(struct uet_nic *nic)
{
	if (nic == NULL)
		return;
	nic->rec = NULL; /* teardown is not part of the run's records */
	nic->monitor_on = false;
	cancel_pending_posts(nic);
	free_waiting(nic);
	nic_pdcs_fini(nic);
	nic_sched_fini(nic);
	nic_port_fini(nic);
	uet_evq_fini(&nic->comp.evq);
	nic_tev_pool_fini(nic);
	nic_rto_fini(nic);
	nic_rx_fini(nic);
	uet_pcie_fini(&nic->pcie);
	nic_payload_release(nic->payload);
	free(nic->external_ips);
	free(nic);
}

struct uet_component *uet_nic_component(struct uet_nic *nic)
{
	return &nic->comp;
}

void uet_nic_set_callbacks(struct uet_nic *nic,
			   const struct uet_ses_callbacks *cb)
{
	if (cb == NULL)
		memset(&nic->cb, 0, sizeof(nic->cb));
	else
		nic->cb = *cb;
}

void uet_nic_stats(const struct uet_nic *nic, struct uet_nic_stats *stats)
{
	nic_stats_fill(nic, stats);
}

uint64_t uet_nic_mbuf_failures(const struct uet_nic *nic)
{
	return nic->st.mbuf_failures;
}

bool uet_nic_idle(const struct uet_nic *nic)
{
	return nic->posts_pending == 0 && nic->pdc_waiting == 0 &&
	       nic->tx_pdcs_open == 0 && nic_port_idle(nic);
}
