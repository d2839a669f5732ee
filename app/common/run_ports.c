/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The links of a run: a ring port pair per host in the embedded run,
 * otherwise one real port per role (docs/ports.md), opened with retries
 * while a peer starts, drained of what arrived while they opened, and kept
 * open after the last BYE until the switch has closed every link.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_mbuf.h>

#include "uet_port.h"
#include "uet_sync_ports.h"
#include "run_private.h"

/* Wall ms between two tries to open a port whose peer is not up yet. */
#define RUN_OPEN_RETRY_MS 50u

/* Wall ms a NICs-only process keeps its ports open after its last BYE. */
#define RUN_LINGER_MS 1000u

/*
 * One real port from its device string. A NIC's port may need its peer
 * (a memif client fails to start until the switch's server socket exists,
 * and is refused with -ENOTCONN until the switch's port has started), so a
 * uet-nic retries for up to the run's timeout before giving up.
 */
static int run_open_port(struct run *e, struct uet_port **pp,
			 const char *devargs, const char *what, uint32_t host)
{
	struct uet_port_conf pc = {.pool = e->mp};
	uint32_t timeout_ms = e->conf->timeout_ms ? e->conf->timeout_ms
						  : UET_SYNC_TIMEOUT_MS_DEFAULT;
	uint64_t end_ns = run_wall_ns() + timeout_ms * UINT64_C(1000000);
	int rc;

	if (e->conf->port_open == NULL)
		return -ENOTSUP; /* uet-emu: no real port */
	for (;;) {
		rc = e->conf->port_open(pp, devargs, &pc);
		if (rc == 0 || e->conf->role != UET_RUN_NICS ||
		    run_wall_ns() >= end_ns ||
		    (e->conf->stop != NULL && *e->conf->stop))
			break;
		usleep(RUN_OPEN_RETRY_MS * 1000u);
	}
	if (rc < 0)
		fprintf(stderr,
			"%s: cannot open the port of %s %u (%s)%s: %s\n",
			e->prog, what, host, devargs,
			e->conf->role == UET_RUN_NICS ? " in the time allowed"
						      : "",
			strerror(-rc));
	return rc;
}

/*
 * Drop whatever the ports received while they were being opened. An
 * af_packet port's socket receives from every interface of the namespace
 * between its creation and its bind to the port's interface, so a NIC's
 * HELLO may sit in another port's ring (the switch then saw one NIC on two
 * ports). Every port is bound once all are open: what is queued now is
 * dropped, and the peers repeat HELLO until WELCOME comes.
 */
static void run_drain_opened(struct uet_port **ports, uint32_t n)
{
	struct rte_mbuf *pkts[32];
	uint32_t i;
	uint16_t k;

	for (i = 0; i < n; i++) {
		if (ports[i] == NULL)
			continue;
		do {
			k = uet_port_rx_burst(ports[i], pkts, 32);
			rte_pktmbuf_free_bulk(pkts, k);
		} while (k > 0);
	}
}

/* The ports: a ring pair per NIC embedded, else the given devices. */
int run_open_ports(struct run *e)
{
	const char *const *dev = e->conf->port_devargs;
	uint32_t i;
	int rc;

	e->sw_port = calloc(e->hosts, sizeof(*e->sw_port));
	e->nic_port = calloc(e->hosts, sizeof(*e->nic_port));
	if (e->sw_port == NULL || e->nic_port == NULL)
		return -ENOMEM;
	if (e->conf->role == UET_RUN_EMBEDDED) {
		struct uet_port_conf pc = {.pool = e->mp};

		for (i = 0; i < e->hosts; i++) {
			char name[24];

			snprintf(name, sizeof(name), "l%u", i);
			rc = uet_port_pair_create(
				&e->sw_port[i], &e->nic_port[i], name, 0, &pc);
			if (rc < 0) {
				fprintf(stderr,
					"%s: cannot create the ports of nic "
					"%u: %s\n",
					e->prog, i, strerror(-rc));
				return rc;
			}
		}
		return 0;
	}
	if (dev == NULL) {
		fprintf(stderr, "%s: no ports given\n", e->prog);
		return -EINVAL;
	}
	for (i = 0; e->has_switch && i < e->hosts; i++) {
		rc = run_open_port(e, &e->sw_port[i], dev[i], "switch port", i);
		if (rc < 0)
			return rc;
	}
	for (i = 0; !e->has_switch && i < e->count; i++) {
		rc = run_open_port(e, &e->nic_port[i], dev[i], "nic",
				   e->first + i);
		if (rc < 0)
			return rc;
	}
	run_drain_opened(e->has_switch ? e->sw_port : e->nic_port,
			 e->has_switch ? e->hosts : e->count);
	/* Said once every switch port has started: a launcher waits for this
	 * line before it starts memif clients, which DPDK 22.11's memif
	 * server would turn away until then (uet_port_ethdev.c). */
	if (e->has_switch)
		fprintf(stderr, "%s: %u ports up\n", e->prog, e->hosts);
	return 0;
}

/*
 * A NIC's BYE may still sit in the port's ring (memif: shared memory that
 * goes when the client disconnects): keep the ports open until the switch
 * has closed every link, or for RUN_LINGER_MS at most, dropping what comes.
 */
void run_linger(struct run *e)
{
	uint64_t end_ns = run_wall_ns() + RUN_LINGER_MS * UINT64_C(1000000);
	struct rte_mbuf *pkts[32];

	while (run_wall_ns() < end_ns) {
		bool up = false;
		uint32_t i;

		for (i = 0; i < e->count; i++) {
			struct uet_port_link l;
			uint16_t n =
				uet_port_rx_burst(e->nic_port[i], pkts, 32);

			rte_pktmbuf_free_bulk(pkts, n);
			if (uet_port_link(e->nic_port[i], &l) == 0 && l.up)
				up = true;
		}
		if (!up)
			return;
		usleep(1000);
	}
}

/*
 * A memif port's close races, in DPDK 22.11, with the PMD's interrupt
 * thread serving the peer's own close: one run in four printed "EAL:
 * Error: Invalid memory" (a region freed twice) at the end of a good run.
 * A process about to exit leaves its memif sockets to the kernel, as it
 * leaves EAL's memory (uet_run_cli.c); other ports are closed (an AF_XDP
 * port detaches its program from the interface). The ports left open stay
 * reachable from here, so that a leak checker (the ASan build) does not
 * count them: the one process-wide pointer of this file, written once.
 */
static struct uet_port **volatile left_open[2]; /* volatile: never read */

/* Returns false when p is left open. */
static bool close_port(const struct run *e, struct uet_port *p)
{
	if (p == NULL)
		return true;
	if (e->conf->process_exits &&
	    strncmp(uet_port_name(p), "net_memif", 9) == 0)
		return false;
	uet_port_close(p);
	return true;
}

void run_close_ports(struct run *e)
{
	bool all = true;
	uint32_t i;

	for (i = 0; e->sw_port != NULL && i < e->hosts; i++)
		all = close_port(e, e->sw_port[i]) && all;
	for (i = 0; e->nic_port != NULL && i < e->hosts; i++)
		all = close_port(e, e->nic_port[i]) && all;
	if (!all) {
		left_open[0] = e->sw_port;
		left_open[1] = e->nic_port;
		return;
	}
	free(e->sw_port);
	free(e->nic_port);
}
