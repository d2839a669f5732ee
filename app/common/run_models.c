/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The roles a process hosts (the switch, some NICs, or both), the
 * workload's messages posted to their source NICs, and the completion
 * counts the run's end and summary read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_launch.h>
#include <rte_lcore.h>

#include "uet_fabric.h"
#include "uet_host_addr.h"
#include "uet_nic.h"
#include "uet_run_params.h"
#include "uet_ses.h"
#include "run_private.h"
#include "run_workload.h"

/* The switch's MAC: outside the hosts' 02:00:00:00:xx:xx. */
static const uint8_t run_switch_mac[6] = {0x02, 0, 0, 0x01, 0, 0};

int run_roles(struct run *run, const struct uet_run_conf *conf)
{
	switch (conf->role) {
	case UET_RUN_EMBEDDED:
		run->has_switch = true;
		run->first = 0;
		run->count = run->hosts;
		return 0;
	case UET_RUN_SWITCH:
		run->has_switch = true;
		return 0;
	case UET_RUN_NICS:
		if (conf->nic_count == 0 || conf->nic_first >= run->hosts ||
		    conf->nic_count > run->hosts - conf->nic_first) {
			fprintf(stderr,
				"%s: NICs %u-%u: the scenario has hosts 0-%u\n",
				run->prog, conf->nic_first,
				conf->nic_first + conf->nic_count - 1,
				run->hosts - 1);
			return -EINVAL;
		}
		run->first = conf->nic_first;
		run->count = conf->nic_count;
		for (uint32_t h = run->first; h < run->first + run->count;
		     h++) {
			if (!uet_scenario_host_external(run->sc, h))
				continue;
			fprintf(stderr,
				"%s: host %u is external "
				"(switch.external_hosts): its endpoint is not "
				"an emulated NIC\n",
				run->prog, h);
			return -EINVAL;
		}
		return 0;
	}
	return -EINVAL;
}

/*
 * The messages this process answers for: the list's whose source or
 * destination is hosted, or a program's (chakra, matrix, generate) whose
 * source is. Every process runs a program's whole engine; over ports a
 * uet-nic posts on its own NICs only and logs its completions for the
 * others, and the switch's process, which hosts none, writes the
 * program's records (run_workload.c).
 */
int run_workload_open(struct run *run, struct uet_run_result *res)
{
	const struct uet_scenario *sc = run->sc;
	uint32_t i;
	int rc;

	run->n_messages = sc->workload.message_count;
	for (i = 0; i < sc->workload.message_count; i++) {
		if (run_hosted(run, sc->workload.messages[i].src))
			res->messages++;
		if (run_hosted(run, sc->workload.messages[i].dst))
			run->to_arrive++;
		if (run_expected(run, i))
			res->expected++;
	}
	if (run_wl_wanted(sc)) {
		/* What crosses the processes travels in the lockstep's
		 * window notes: a realtime run has no windows. */
		if (run->conf->role != UET_RUN_EMBEDDED &&
		    sc->run.clock == UET_CLOCK_REALTIME) {
			fprintf(stderr,
				"%s: %s over ports needs run.clock: lockstep "
				"(its completions cross the processes in the "
				"lockstep's window notes)\n",
				run->prog, run_wl_source(sc));
			return -ENOTSUP;
		}
		rc = run_wl_create(&run->wl, sc);
		if (rc < 0)
			return rc;
		if (run_wl_messages(run->wl) >= UINT32_MAX) {
			fprintf(stderr,
				"%s: the workload has too many "
				"messages\n",
				run->prog);
			return -E2BIG;
		}
		run->n_messages = (uint32_t)run_wl_messages(run->wl);
		res->messages = run->n_messages;
		res->workload = true;
		if (run->conf->role != UET_RUN_EMBEDDED) {
			run_wl_set_share(run->wl, run->first, run->count,
					 !run->has_switch);
			run_wl_set_keeper(run->wl, run->has_switch);
			res->messages = (uint32_t)run_wl_messages_from(
				run->wl, run->first, run->count);
		}
	}
	run->conf_messages = res->messages;
	run->msg_flags = calloc(run->n_messages + 1u, 1);
	return run->msg_flags == NULL ? -ENOMEM : 0;
}

/*
 * A message's completions. In uet-emu the NICs run on several lcores, so
 * the flags and counts are updated atomically (their order does not
 * matter: each flag is set once, each count only grows).
 */
bool run_expected(const struct run *run, uint32_t i)
{
	const struct uet_workload_message *m = &run->sc->workload.messages[i];

	return run->wl == NULL && run_hosted(run, m->dst) &&
	       uet_scenario_host_external(run->sc, m->src);
}

uint32_t run_expected_arrived(const struct run *run)
{
	uint32_t i, n = 0;

	for (i = 0; run->wl == NULL && i < run->sc->workload.message_count; i++)
		if (run_expected(run, i) &&
		    (run->msg_flags[i] & RUN_MSG_ARRIVED) != 0)
			n++;
	return n;
}

/*
 * A message from an external host arrived whole at a NIC here: the first
 * message of the list from that host to this NIC, of that size, not yet
 * arrived, has (the stack's memory_key is not our number). One that the
 * list does not expect is counted by the NIC only.
 */
static void on_external_arrival(struct run *run,
				const struct uet_ses_completion *c)
{
	const struct uet_scenario *sc = run->sc;
	uint32_t i;

	if (run->wl != NULL)
		return;
	for (i = 0; i < sc->workload.message_count; i++) {
		const struct uet_workload_message *m =
			&sc->workload.messages[i];

		if (uet_host_ipv4(m->src) != c->src_ip ||
		    uet_host_ipv4(m->dst) != c->dst_ip ||
		    m->size_bytes != c->bytes)
			continue;
		if (__atomic_fetch_or(&run->msg_flags[i], RUN_MSG_ARRIVED,
				      __ATOMIC_RELAXED) &
		    RUN_MSG_ARRIVED)
			continue;
		__atomic_fetch_add(&run->arrived, 1, __ATOMIC_RELAXED);
		/* The NIC's flows and events rows carry our number. */
		if (c->match_msg_id != NULL)
			*c->match_msg_id = i;
		return;
	}
}

static void on_completion(void *ctx, const struct uet_ses_completion *c)
{
	struct run *run = ctx;
	uint8_t bit, old;

	if (c->external) {
		on_external_arrival(run, c);
		return;
	}
	if (c->msg_id >= run->n_messages)
		return;
	if (run->wl != NULL)
		run_wl_completion(run->wl, c);
	switch (c->kind) {
	case UET_SES_SENT:
		bit = RUN_MSG_SENT;
		break;
	case UET_SES_ARRIVED:
		bit = RUN_MSG_ARRIVED;
		break;
	case UET_SES_COMPLETED:
		bit = RUN_MSG_COMPLETED;
		break;
	default:
		return;
	}
	old = __atomic_fetch_or(&run->msg_flags[c->msg_id], bit,
				__ATOMIC_RELAXED);
	if (old & bit)
		return;
	if (bit == RUN_MSG_ARRIVED && run->wl == NULL &&
	    run_hosted(run, run->sc->workload.messages[c->msg_id].dst))
		__atomic_fetch_add(&run->arrived, 1, __ATOMIC_RELAXED);
	/* Over ranks the senders elsewhere learn it (run_clock_mpi.c). */
	if (bit == RUN_MSG_ARRIVED && run->arrived_log != NULL)
		run->arrived_log[__atomic_fetch_add(
			&run->n_arrived_log, 1, __ATOMIC_ACQ_REL)] = c->msg_id;
	if (bit == RUN_MSG_COMPLETED)
		__atomic_fetch_add(&run->completed, 1, __ATOMIC_RELAXED);
}

/* The hosts of switch.external_hosts (*list NULL when there are none):
 * what they send is untrusted, at the switch and at the NICs. */
static int run_external_hosts(const struct uet_scenario *sc, uint32_t hosts,
			      uint32_t **list, uint32_t *count)
{
	uint32_t h;

	*list = NULL;
	*count = 0;
	if (sc->sw.external_hosts[0] == '\0')
		return 0;
	for (h = 0; h < hosts; h++) {
		uint32_t *grown;

		if (!uet_scenario_host_external(sc, h))
			continue;
		grown = realloc(*list, (*count + 1) * sizeof(**list));
		if (grown == NULL) {
			free(*list);
			*list = NULL;
			return -ENOMEM;
		}
		*list = grown;
		(*list)[(*count)++] = h;
	}
	return 0;
}

/* The switch's model, built; its outputs not attached yet. */
static int switch_create(struct run *run)
{
	struct uet_fabric_conf fc;
	uint32_t *ext = NULL;
	int rc;

	rc = uet_run_fabric_conf(run->sc, &fc);
	if (rc == 0)
		rc = run_external_hosts(run->sc, run->hosts, &ext,
					&fc.external_count);
	fc.external_hosts = ext;
	if (rc == 0)
		rc = uet_fabric_create(&run->fabric, &fc);
	free(ext);
	if (rc < 0)
		fprintf(stderr, "%s: cannot create the switch: %s\n", run->prog,
			strerror(-rc));
	return rc;
}

static int switch_create_lcore(void *arg)
{
	return switch_create(arg);
}

/* The switch, where this process runs it. */
static int run_wire_switch(struct run *run)
{
	int rc;

	if (!run->has_switch)
		return 0;
	rc = switch_create(run);
	return rc < 0 ? rc : run_outputs_attach_switch(run);
}

/*
 * The switch and the NICs. Where one process runs both and the EAL has a
 * worker lcore (idle until the run starts), the fabric is built there
 * while this lcore builds the NICs: at 1,024 hosts each takes about
 * 100 ms, most of it the first touch of their memory, which two CPUs
 * take at once. They share nothing while they are built; the switch's
 * outputs are attached once both are done.
 */
int run_wire_models(struct run *run)
{
	const unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	int rc, rc_sw;

	if (!run->has_switch || run->count == 0 || worker >= RTE_MAX_LCORE ||
	    rte_eal_remote_launch(switch_create_lcore, run, worker) != 0) {
		rc = run_wire_switch(run);
		return rc < 0 ? rc : run_wire_nics(run);
	}
	rc = run_wire_nics(run);
	rc_sw = rte_eal_wait_lcore(worker);
	if (rc_sw < 0)
		return rc_sw;
	if (rc < 0)
		return rc;
	return run_outputs_attach_switch(run);
}

/*
 * The hosted NICs, and the workload's messages whose source is hosted, each
 * posted to its source NIC at its time.
 */
int run_wire_nics(struct run *run)
{
	const struct uet_scenario *sc = run->sc;
	struct uet_ses_callbacks cb = {
		.sent = on_completion,
		.arrived = on_completion,
		.completed = on_completion,
		.ctx = run,
	};
	uint32_t *ext_ips, ext_count;
	uint32_t i;
	int rc;

	run->nic = calloc(run->hosts, sizeof(*run->nic));
	if (run->nic == NULL)
		return -ENOMEM;
	rc = run_external_hosts(sc, run->hosts, &ext_ips, &ext_count);
	if (rc < 0)
		return rc;
	for (i = 0; i < ext_count; i++)
		ext_ips[i] = uet_host_ipv4(ext_ips[i]);
	for (i = 0; i < run->count; i++) {
		uint32_t h = run->first + i;
		struct uet_nic_params params;
		struct uet_nic_conf nc = {
			.params = &params,
			.index = h,
			.ip = uet_host_ipv4(h),
			.mempool = run->mp,
			.payload_mempool = run->payload_mp,
			.record = run_nic_record(run, i),
			.arrivals = run->arrivals,
			.pattern = run->pattern,
			.seed = sc->run.seed,
			.external_ips = ext_ips,
			.external_count = ext_count,
		};

		uet_host_mac(h, nc.mac);
		memcpy(nc.switch_mac, run_switch_mac, sizeof(nc.switch_mac));
		rc = uet_run_nic_params(sc, h, &params);
		if (rc == 0)
			rc = uet_nic_create(&run->nic[i], &nc);
		if (rc < 0) {
			fprintf(stderr, "%s: cannot create nic %u: %s\n",
				run->prog, h, strerror(-rc));
			free(ext_ips);
			return rc;
		}
		uet_nic_set_callbacks(run->nic[i], &cb);
	}
	free(ext_ips);
	if (run->wl != NULL) {
		uet_time_t lookahead_ps;

		/* A trigger crossing hosts waits one lookahead: the least
		 * that keeps every post in its NIC's future. */
		rc = run_lookahead(run, &lookahead_ps);
		if (rc == 0)
			rc = run_wl_start(run->wl, run->nic, run->first,
					  lookahead_ps);
		return rc;
	}
	for (i = 0; i < sc->workload.message_count; i++) {
		const struct uet_workload_message *m =
			&sc->workload.messages[i];

		if (!run_hosted(run, m->src))
			continue;
		rc = uet_nic_post_message(run->nic[m->src - run->first],
					  uet_host_ipv4(m->dst), m->size_bytes,
					  m->at_ps, i);
		if (rc < 0) {
			fprintf(stderr,
				"%s: cannot post message %u (host %u -> "
				"%u, %" PRIu64 " bytes): %s\n",
				run->prog, i, m->src, m->dst, m->size_bytes,
				strerror(-rc));
			return rc;
		}
	}
	return 0;
}

uint64_t run_total_events(const struct run *run)
{
	uint64_t n = 0;
	uint32_t i;

	if (run->has_switch && run->fabric != NULL)
		n += uet_fabric_events(run->fabric);
	for (i = 0; run->nic != NULL && i < run->count; i++)
		if (run->nic[i] != NULL)
			n += uet_nic_component(run->nic[i])->evq.n_run;
	return n;
}

void run_models_close(struct run *run)
{
	uint32_t i;

	for (i = 0; run->nic != NULL && i < run->count; i++)
		uet_nic_destroy(run->nic[i]);
	uet_fabric_destroy(run->fabric);
	free(run->nic);
	free(run->msg_flags);
	run_wl_free(run->wl);
}
