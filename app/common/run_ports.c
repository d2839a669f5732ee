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
static int run_open_port(struct run *run, struct uet_port **pp,
			 const char *devargs, const char *what, uint32_t host)
{
	struct uet_port_conf pc = {.pool = run->mp};
	uint32_t timeout_ms = run->conf->timeout_ms
				      ? run->conf->timeout_ms
				      : UET_SYNC_TIMEOUT_MS_DEFAULT;
	uint64_t end_ns = run_wall_ns() + timeout_ms * UINT64_C(1000000);
	int rc;

	if (run->conf->port_open == NULL)
		return -ENOTSUP; /* uet-emu: no real port */
	for (;;) {
		rc = run->conf->port_open(pp, devargs, &pc);
		if (rc == 0 || run->conf->role != UET_RUN_NICS ||
		    run_wall_ns() >= end_ns ||
		    (run->conf->stop != NULL && *run->conf->stop))
			break;
		usleep(RUN_OPEN_RETRY_MS * 1000u);
	}
	if (rc < 0)
		fprintf(stderr,
			"%s: cannot open the port of %s %u (%s)%s: %s\n",
			run->prog, what, host, devargs,
			run->conf->role == UET_RUN_NICS ? " in the time allowed"
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
int run_open_ports(struct run *run)
{
	const char *const *dev = run->conf->port_devargs;
	uint32_t i;
	int rc;

	run->sw_port = calloc(run->hosts, sizeof(*run->sw_port));
	run->nic_port = calloc(run->hosts, sizeof(*run->nic_port));
	if (run->sw_port == NULL || run->nic_port == NULL)
		return -ENOMEM;
	if (run->conf->role == UET_RUN_EMBEDDED) {
		struct uet_port_conf pc = {.pool = run->mp};

		for (i = 0; i < run->hosts; i++) {
			char name[24];

			snprintf(name, sizeof(name), "l%u", i);
			rc = uet_port_pair_create(&run->sw_port[i],
						  &run->nic_port[i], name, 0,
						  &pc);
			if (rc < 0) {
				fprintf(stderr,
					"%s: cannot create the ports of nic "
					"%u: %s\n",
					run->prog, i, strerror(-rc));
				return rc;
			}
		}
		return 0;
	}
	if (dev == NULL) {
		fprintf(stderr, "%s: no ports given\n", run->prog);
		return -EINVAL;
	}
	for (i = 0; run->has_switch && i < run->hosts; i++) {
		rc = run_open_port(run, &run->sw_port[i], dev[i], "switch port",
				   i);
		if (rc < 0)
			return rc;
	}
	for (i = 0; !run->has_switch && i < run->count; i++) {
		rc = run_open_port(run, &run->nic_port[i], dev[i], "nic",
				   run->first + i);
		if (rc < 0)
			return rc;
	}
	run_drain_opened(run->has_switch ? run->sw_port : run->nic_port,
			 run->has_switch ? run->hosts : run->count);
	/* Said once every switch port has started: a launcher waits for this
	 * line before it starts memif clients, which DPDK 22.11's memif
	 * server would turn away until then (uet_port_ethdev.c). */
	if (run->has_switch)
		fprintf(stderr, "%s: %u ports up\n", run->prog, run->hosts);
	return 0;
}

/*
 * A NIC's BYE may still sit in the port's ring (memif: shared memory that
 * goes when the client disconnects): keep the ports open until the switch
 * has closed every link, or for RUN_LINGER_MS at most, dropping what comes.
 */
void run_linger(struct run *run)
{
	uint64_t end_ns = run_wall_ns() + RUN_LINGER_MS * UINT64_C(1000000);
	struct rte_mbuf *pkts[32];

	while (run_wall_ns() < end_ns) {
		bool up = false;
		uint32_t i;

		for (i = 0; i < run->count; i++) {
			struct uet_port_link l;
			uint16_t n =
				uet_port_rx_burst(run->nic_port[i], pkts, 32);

			rte_pktmbuf_free_bulk(pkts, n);
			if (uet_port_link(run->nic_port[i], &l) == 0 && l.up)
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
static bool close_port(const struct run *run, struct uet_port *p)
{
	if (p == NULL)
		return true;
	if (run->conf->process_exits &&
	    strncmp(uet_port_name(p), "net_memif", 9) == 0)
		return false;
	uet_port_close(p);
	return true;
}

void run_close_ports(struct run *run)
{
	bool all = true;
	uint32_t i;

	for (i = 0; run->sw_port != NULL && i < run->hosts; i++)
		all = close_port(run, run->sw_port[i]) && all;
	for (i = 0; run->nic_port != NULL && i < run->hosts; i++)
		all = close_port(run, run->nic_port[i]) && all;
	if (!all) {
		left_open[0] = run->sw_port;
		left_open[1] = run->nic_port;
		return;
	}
	free(run->sw_port);
	free(run->nic_port);
}
