/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * records.PcapHosts: whose links the captures cover. A capture is a file a
 * host (port-<host>.pcap, both directions of the host's link), which is
 * what a reader wants on a fabric of tens of hosts and what a fabric of
 * tens of thousands cannot afford (65,536 open files, each with its
 * buffer). "auto" keeps every host's file up to UET_CONFIG_PCAP_AUTO_HOSTS
 * hosts and the first UET_CONFIG_PCAP_AUTO_FEW past it; "all" or a list
 * of host numbers and ranges ("0-15,1024,4096-4103") says otherwise.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config_private.h"
#include "uet_config.h"

/* One item of the list at *p: a host or a range first-last; *p moves past
 * it and its comma. 0, or -EINVAL when it is neither. */
static int pcap_item(const char **p, uint32_t *first, uint32_t *last)
{
	const char *s = *p;
	char *end;
	unsigned long a, b;

	while (*s == ' ')
		s++;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	a = strtoul(s, &end, 10);
	b = a;
	if (*end == '-') {
		s = end + 1;
		if (*s < '0' || *s > '9')
			return -EINVAL;
		b = strtoul(s, &end, 10);
	}
	while (*end == ' ')
		end++;
	if (*end != ',' && *end != '\0')
		return -EINVAL;
	if (a > UINT32_MAX || b > UINT32_MAX)
		return -EINVAL;
	*first = (uint32_t)a;
	*last = (uint32_t)b;
	*p = *end == ',' ? end + 1 : end;
	return 0;
}

static bool pcap_auto(const struct uet_scenario *s)
{
	return strcmp(s->records.pcap_hosts, "auto") == 0;
}

bool uet_scenario_pcap_host(const struct uet_scenario *s, uint32_t host)
{
	const char *p = s->records.pcap_hosts;
	uint32_t first, last;

	if (!s->records.enable_pcap || host >= s->topology.hosts)
		return false;
	if (pcap_auto(s))
		return s->topology.hosts <= UET_CONFIG_PCAP_AUTO_HOSTS ||
		       host < UET_CONFIG_PCAP_AUTO_FEW;
	if (strcmp(p, "all") == 0)
		return true;
	while (*p != '\0' && pcap_item(&p, &first, &last) == 0)
		if (host >= first && host <= last)
			return true;
	return false;
}

bool uet_scenario_pcap_auto_limited(const struct uet_scenario *s)
{
	return s->records.enable_pcap && pcap_auto(s) &&
	       s->topology.hosts > UET_CONFIG_PCAP_AUTO_HOSTS;
}

int cfg_check_pcap_hosts(struct cfg_ctx *c)
{
	const struct uet_scenario *s = c->s;
	const char *p = s->records.pcap_hosts;
	uint32_t first, last;

	if (pcap_auto(s) || strcmp(p, "all") == 0)
		return 0;
	if (*p == '\0')
		return cfg_fail_attr(c, "records", "PcapHosts",
				     "must be auto, all, or host numbers and "
				     "ranges such as 0-15,1024 (to capture "
				     "nothing, set records.EnablePcap false)");
	while (*p != '\0') {
		if (pcap_item(&p, &first, &last) < 0)
			return cfg_fail_attr(c, "records", "PcapHosts",
					     "must be auto, all, or host "
					     "numbers and ranges such as "
					     "0-15,1024");
		if (first > last)
			return cfg_fail_attr(c, "records", "PcapHosts",
					     "the range %u-%u runs backwards",
					     first, last);
		if (last >= s->topology.hosts)
			return cfg_fail_attr(c, "records", "PcapHosts",
					     "host %u is out of range: "
					     "topology.hosts is %u",
					     last, s->topology.hosts);
	}
	return 0;
}
