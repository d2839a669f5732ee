/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-nic in lockstep: its NICs' participants polled over the process's
 * EAL lcores, each NIC by exactly one lcore (a contiguous share of the
 * hosted NICs per lcore, in host order), so that a process hosting many
 * NICs does not serve them one after another on one CPU.
 *
 * Nothing a NIC computes depends on this split: each NIC has its own port
 * (one FIFO link with one sender), its own event queue and its own record
 * view, and the participant's window is driven by the switch's GRANTs
 * alone. Only the order in which views reach the process's files varies;
 * a view keeps its NIC's rows in order, and uet-merge-records sorts the
 * rows of all NICs by (time, NIC), which that order does not touch.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_launch.h>
#include <rte_lcore.h>

#include "uet_sync_ports.h"
#include "run_private.h"

/* What one lcore polls. */
struct nic_share {
	struct run *run;
	uint32_t first, count; /* hosted NICs */
	int rc;		       /* 0, or the first failure of its NICs */
	int *failed; /* shared: a failure anywhere stops every lcore */
};

/*
 * Poll the share round-robin until every NIC of it finished, one failed,
 * another lcore's NIC failed, or a signal came. A round with nothing to
 * do yields the CPU: the peers (and the other lcores, when they outnumber
 * the CPUs) need it.
 */
static int share_main(void *arg)
{
	struct nic_share *s = arg;
	const volatile sig_atomic_t *stop = s->run->conf->stop;

	for (;;) {
		bool running = false;
		uint32_t i;

		if (stop != NULL && *stop) {
			s->rc = -EINTR;
			break;
		}
		if (__atomic_load_n(s->failed, __ATOMIC_ACQUIRE))
			break;
		for (i = s->first; i < s->first + s->count; i++) {
			int rc = uet_sync_participant_poll(s->run->pa[i]);

			if (rc < 0) {
				s->rc = rc;
				__atomic_store_n(s->failed, 1,
						 __ATOMIC_RELEASE);
				return 0;
			}
			if (rc == UET_SYNC_RUNNING)
				running = true;
		}
		if (!running)
			break;
		sched_yield();
	}
	return 0;
}

unsigned int run_nic_lcores(const struct run *run)
{
	unsigned int n = rte_lcore_count();

	if (run->co != NULL || run->count < 2 || run->wl != NULL)
		return 1;
	return n < run->count ? n : run->count;
}

int run_poll_nic_lcores(struct run *run)
{
	unsigned int n = run_nic_lcores(run), k, i, id;
	struct nic_share *s;
	uint32_t next = 0;
	int failed = 0, rc = 0;

	s = calloc(n, sizeof(*s));
	if (s == NULL)
		return -ENOMEM;
	for (k = 0; k < n; k++) {
		s[k].run = run;
		s[k].first = next;
		s[k].count = run->count / n + (k < run->count % n ? 1u : 0u);
		s[k].failed = &failed;
		next += s[k].count;
	}
	/* Said once, so that a log shows how the process ran. */
	fprintf(stderr, "%s: %u NICs polled on %u lcores\n", run->prog,
		run->count, n);
	k = 1;
	RTE_LCORE_FOREACH_WORKER(id)
	{
		if (k == n)
			break;
		/* Only a busy lcore refuses, and nothing else runs on them. */
		rc = rte_eal_remote_launch(share_main, &s[k], id);
		if (rc < 0) {
			fprintf(stderr, "%s: cannot start lcore %u: %s\n",
				run->prog, id, strerror(-rc));
			__atomic_store_n(&failed, 1, __ATOMIC_RELEASE);
			break;
		}
		k++;
	}
	if (rc == 0)
		share_main(&s[0]);
	rte_eal_mp_wait_lcore();
	for (i = 0; i < n && rc == 0; i++)
		rc = s[i].rc;
	free(s);
	return rc;
}
