/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Queue ports: several ports on one memif device, one queue pair each
 * ("DEV@K/N", uet_port_open). Debian's DPDK has 32 ethdevs a process
 * (RTE_MAX_ETHPORTS), and a uet-switch took one a host; memif's queue
 * pairs are links of their own (a ring each way per queue, nothing
 * shared), so a uet-nic process's NICs can share one device with the
 * switch, one queue pair a NIC. The device is opened with all N queues by
 * its first queue port and closed with its last. Ports are opened and
 * closed from one thread (the processes' set-up and exit), so the list
 * of devices has no lock.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_log.h"
#include "uet_port.h"
#include "uet_port_priv.h"

/* A device behind queue ports. */
struct uet_port_shared {
	struct uet_port_shared *next;
	struct uet_port *dev;			  /* owns the ethdev (queue 0's
						   * set-up; never handed out) */
	char devargs[256];			  /* the device string */
	uint16_t queues;			  /* N */
	uint16_t open;				  /* queue ports open */
	uint64_t taken[UET_PORT_QUEUES_MAX / 64]; /* bit k: queue k open */
};

static struct uet_port_shared *shared_devices;

int uet_port_queue_spec(const char *devargs, size_t *dev_len, uint16_t *k,
			uint16_t *n)
{
	const char *at = strrchr(devargs, '@');
	unsigned long kk, nn;
	char *end;

	if (at == NULL)
		return 0;
	*dev_len = (size_t)(at - devargs);
	kk = strtoul(at + 1, &end, 10);
	if (end == at + 1 || *end != '/')
		goto bad;
	nn = strtoul(end + 1, &end, 10);
	if (*end != '\0' || nn == 0 || nn > UET_PORT_QUEUES_MAX || kk >= nn ||
	    *dev_len == 0)
		goto bad;
	*k = (uint16_t)kk;
	*n = (uint16_t)nn;
	return 1;
bad:
	UET_LOG(ERROR, DRIVERS,
		"port \"%s\": a queue port ends in @K/N, queue K of N with "
		"K < N <= %u",
		devargs, UET_PORT_QUEUES_MAX);
	return -EINVAL;
}

static struct uet_port_shared *shared_find(const char *devargs, size_t len)
{
	struct uet_port_shared *d;

	for (d = shared_devices; d != NULL; d = d->next)
		if (strlen(d->devargs) == len &&
		    memcmp(d->devargs, devargs, len) == 0)
			return d;
	return NULL;
}

/* The device of devargs[0..len), opened with n queues, or the one open. */
static int shared_get(struct uet_port_shared **dp, const char *devargs,
		      size_t len, uint16_t n, const struct uet_port_conf *conf)
{
	struct uet_port_shared *d = shared_find(devargs, len);
	int ret;

	if (d != NULL) {
		if (d->queues != n) {
			UET_LOG(ERROR, DRIVERS,
				"port \"%.*s\": opened with %u queues, asked "
				"for %u",
				(int)len, devargs, d->queues, n);
			return -EINVAL;
		}
		*dp = d;
		return 0;
	}
	if (len >= sizeof(d->devargs))
		return -EINVAL;
	if (strncmp(devargs, "net_memif", strlen("net_memif")) != 0) {
		UET_LOG(ERROR, DRIVERS,
			"port \"%.*s\": queue ports (@K/N) need net_memif, "
			"whose queue pairs are separate links",
			(int)len, devargs);
		return -EINVAL;
	}
	d = calloc(1, sizeof(*d));
	if (d == NULL)
		return -ENOMEM;
	memcpy(d->devargs, devargs, len);
	d->queues = n;
	ret = uet_port_ethdev_open(&d->dev, d->devargs, conf, n);
	if (ret < 0) {
		free(d);
		return ret;
	}
	d->next = shared_devices;
	shared_devices = d;
	*dp = d;
	return 0;
}

/* The device goes once no queue port is open on it. */
static void shared_release(struct uet_port_shared *d)
{
	struct uet_port_shared **link;

	if (d->open > 0)
		return;
	for (link = &shared_devices; *link != NULL; link = &(*link)->next)
		if (*link == d) {
			*link = d->next;
			break;
		}
	/* The device's own port closes the ethdev (its shared is NULL). */
	uet_port_close(d->dev);
	free(d);
}

int uet_port_queue_open(struct uet_port **portp, const char *devargs,
			size_t dev_len, uint16_t k, uint16_t n,
			const struct uet_port_conf *conf)
{
	const uint64_t bit = UINT64_C(1) << (k % 64u);
	struct uet_port_shared *d;
	struct uet_port *p;
	int ret;

	ret = shared_get(&d, devargs, dev_len, n, conf);
	if (ret < 0)
		return ret;
	if (d->taken[k / 64u] & bit) {
		UET_LOG(ERROR, DRIVERS, "port %s: queue %u is open already",
			d->dev->name, k);
		return -EBUSY;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		shared_release(d);
		return -ENOMEM;
	}
	p->ops = &uet_port_ethdev_ops;
	p->port_id = d->dev->port_id;
	p->queue = k;
	p->shared = d;
	p->afp_fd = -1;
	snprintf(p->name, sizeof(p->name), "%.*s#%u",
		 (int)(UET_PORT_NAME_BYTES - 8u), d->dev->name, k);
	d->taken[k / 64u] |= bit;
	d->open++;
	*portp = p;
	return 0;
}

void uet_port_shared_put(struct uet_port *p)
{
	struct uet_port_shared *d = p->shared;

	d->taken[p->queue / 64u] &= ~(UINT64_C(1) << (p->queue % 64u));
	d->open--;
	shared_release(d);
}
