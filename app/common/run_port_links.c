/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * After a run over real ports that failed, what of its ports explains it:
 * data frames longer than the port carries, and each port whose kernel
 * interface went down or away, named. The lockstep sees a link that went
 * away only as a peer that stops answering ("nic 3 ... sent no DONE for
 * 10000 ms"), which sent a user looking at the NIC process, not at the
 * veth that was set down or deleted. The interface is the device string's
 * iface= (af_packet, af_xdp); its state is the kernel's operstate, read
 * in the process's own network namespace (ip netns exec mounts its sysfs).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "uet_wire_frame.h"
#include "uet_wire_lockstep.h"
#include "run_port_frame.h"
#include "run_private.h"

#define LINKS_IFNAME_MAX 64

/* The iface= of a device string into name; false when it has none. */
static bool port_iface(const char *devargs, char *name, size_t len)
{
	const char *p = strstr(devargs, ",iface=");
	size_t n;

	if (p == NULL)
		return false;
	p += strlen(",iface=");
	n = strcspn(p, ",");
	if (n == 0 || n >= len)
		return false;
	memcpy(name, p, n);
	name[n] = '\0';
	return true;
}

/* The port's name: its device string up to the first comma. */
static void port_name(const char *devargs, char *name, size_t len)
{
	size_t n = strcspn(devargs, ",");

	if (n >= len)
		n = len - 1;
	memcpy(name, devargs, n);
	name[n] = '\0';
}

/*
 * Whether the scenario's data frames fit the first real port (the ports
 * of a process share their kind and size): a frame longer than the port
 * carries is lost on the link, and the lockstep stops with FRAME_LOSS,
 * "the host lost frames", naming no size. uet-launch refuses such a
 * scenario before it starts; a launch by hand reaches this.
 */
static void report_frame_fit(const struct run *run, const char *devargs)
{
	const uint32_t mss = run->sc->nic.rdma_data_mss_bytes;
	const uint32_t trailer = run->sc->run.clock == UET_CLOCK_LOCKSTEP
					 ? UET_LS_TRAILER_BYTES
					 : 0;
	const uint32_t frame = mss + UET_DATA_HDR_FRAME_BYTES + trailer;
	uint32_t max;
	char why[96], port[64];

	max = run_port_frame_max(devargs, why, sizeof(why));
	if (max == 0 || frame <= max)
		return;
	port_name(devargs, port, sizeof(port));
	fprintf(stderr,
		"%s: port %s carries frames of %u bytes at most (%s); the "
		"scenario's data frames are %u (nic.RdmaDataMSS = %u, and %u "
		"bytes of headers%s): they were lost on the link. Set "
		"nic.RdmaDataMSS to %u at most over this port, or give it "
		"larger frames\n",
		run->prog, port, max, why, frame, mss,
		(unsigned int)UET_DATA_HDR_FRAME_BYTES + trailer,
		trailer != 0 ? " and lockstep trailer" : "",
		max > UET_DATA_HDR_FRAME_BYTES + trailer
			? max - UET_DATA_HDR_FRAME_BYTES - trailer
			: 0);
}

void run_report_port_links(const struct run *run)
{
	const char *const *dev = run->conf->port_devargs;
	uint32_t i, n = run->has_switch ? run->hosts : run->count;

	if (run->conf->role == UET_RUN_EMBEDDED || dev == NULL)
		return;
	if (n > 0 && dev[0] != NULL)
		report_frame_fit(run, dev[0]);
	for (i = 0; i < n; i++) {
		char ifname[LINKS_IFNAME_MAX], port[LINKS_IFNAME_MAX];
		char path[LINKS_IFNAME_MAX + 32], state[32] = "";
		FILE *f;

		if (dev[i] == NULL ||
		    !port_iface(dev[i], ifname, sizeof(ifname)))
			continue;
		port_name(dev[i], port, sizeof(port));
		snprintf(path, sizeof(path), "/sys/class/net/%s/operstate",
			 ifname);
		f = fopen(path, "r");
		if (f == NULL) {
			if (errno == ENOENT)
				fprintf(stderr,
					"%s: port %s: its interface %s is gone "
					"(deleted during the run): its peer "
					"could not answer\n",
					run->prog, port, ifname);
			continue;
		}
		if (fgets(state, sizeof(state), f) == NULL)
			state[0] = '\0';
		fclose(f);
		state[strcspn(state, "\n")] = '\0';
		/* A veth is "up", a tun or dummy "unknown". */
		if (state[0] == '\0' || strcmp(state, "up") == 0 ||
		    strcmp(state, "unknown") == 0)
			continue;
		fprintf(stderr,
			"%s: port %s: the link of its interface %s is %s (set "
			"down, or its peer's end down or deleted, during the "
			"run): its peer could not answer\n",
			run->prog, port, ifname, state);
	}
}
