/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rules that stop a run and involve more than one attribute: checked
 * after every section is loaded, so the order of sections does not matter.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_private.h"
#include "uet_host_addr.h"
#include "uet_config.h"
#include "uet_infile.h"
#include "uet_ipv4_text.h"
#include "uet_packet_sizes.h"
#include "uet_units.h"

/* Index of the row section.name. A rule names rows of the table only:
 * a name that is not one is this library's bug, which would otherwise
 * blame the first row (run.clock) for the rule, so it stops here. */
static size_t row_of(const struct cfg_ctx *c, const char *section,
		     const char *name)
{
	size_t i;

	for (i = 0; i < c->n_attrs; i++)
		if (strcmp(c->attrs[i].section, section) == 0 &&
		    strcmp(c->attrs[i].name, name) == 0)
			return i;
	fprintf(stderr,
		"lib/config: a rule names %s.%s, which is no row of "
		"the attribute table\n",
		section, name);
	abort();
}

int cfg_fail_attr(struct cfg_ctx *c, const char *section, const char *name,
		  const char *fmt, ...)
{
	size_t i = row_of(c, section, name);
	const struct uet_attr *a = &c->attrs[i];
	char key[160], value[CFG_VALUE_LEN], rule[384];
	va_list ap;

	snprintf(key, sizeof(key), "%s.%s", section, name);
	if (c->src[i].line != 0)
		snprintf(value, sizeof(value), "%s", c->src[i].text);
	else
		cfg_format_value(a, cfg_field_get(a, c->s), value,
				 sizeof(value));
	va_start(ap, fmt);
	vsnprintf(rule, sizeof(rule), fmt, ap);
	va_end(ap);
	return cfg_fail(c, c->src[i].line, 0, key, value, c->src[i].line == 0,
			"%s", rule);
}

static bool is_set(const struct cfg_ctx *c, const char *section,
		   const char *name)
{
	return c->src[row_of(c, section, name)].line != 0;
}

static int check_dscp(struct cfg_ctx *c)
{
	static const char *const names[] = {
		"DscpNoTrim",  "DscpTrimmable", "DscpTrimmableRetransmit",
		"DscpControl", "DscpTrimmed",	"DscpTrimmedLastHop"};
	const struct uet_nic_config *n = &c->s->nic;
	const uint8_t v[] = {n->dscp_no_trim,
			     n->dscp_trimmable,
			     n->dscp_trimmable_retransmit,
			     n->dscp_control,
			     n->dscp_trimmed,
			     n->dscp_trimmed_last_hop};
	size_t i, j;

	for (i = 0; i < 6; i++) {
		for (j = i + 1; j < 6; j++) {
			size_t blame = j, other = i;

			if (v[i] != v[j])
				continue;
			/* Blame the one the file sets, not a default. */
			if (!is_set(c, "nic", names[j]) &&
			    is_set(c, "nic", names[i])) {
				blame = i;
				other = j;
			}
			return cfg_fail_attr(
				c, "nic", names[blame],
				"DSCP codepoints must be distinct, "
				"and %s is also %u",
				names[other], v[i]);
		}
	}
	return 0;
}

/*
 * Whether path is a file a workload may read: a regular file (a FIFO would
 * hang the run, a device never end it, a directory read as nothing). 0, or
 * the uet_infile_open() error with its words in why.
 */
static int input_file(const char *path, char *why, size_t len)
{
	struct uet_infile_info info;
	int fd, rc;

	rc = uet_infile_open(path, 0, &fd, &info);
	if (rc == 0)
		close(fd);
	else
		uet_infile_describe(rc, &info, 0, why, len);
	return rc;
}

/* workload.chakra: resolved against the scenario's folder, one rank file
 * per host (PREFIX.0.et .. PREFIX.<hosts-1>.et, and no PREFIX.<hosts>.et),
 * each a regular file, not together with messages. */
static int check_chakra(struct cfg_ctx *c)
{
	struct uet_workload_config *w = &c->s->workload;
	uint32_t hosts = c->s->topology.hosts, n;
	char path[UET_CONFIG_PATH_MAX + 16], why[160];
	struct stat st;

	if (w->chakra[0] == '\0')
		return 0;
	if (w->chakra[0] != '/' && c->base_dir != NULL) {
		int len = snprintf(path, sizeof(path), "%s/%s", c->base_dir,
				   w->chakra);

		if (len < 0 || (size_t)len >= sizeof(w->chakra))
			return cfg_fail_attr(
				c, "workload", "chakra",
				"longer than %zu bytes once joined "
				"to the scenario's folder %s",
				sizeof(w->chakra) - 1, c->base_dir);
		memcpy(w->chakra, path, (size_t)len + 1);
	}
	for (n = 0; n <= hosts; n++) {
		snprintf(path, sizeof(path), "%s.%u.et", w->chakra, n);
		if (lstat(path, &st) != 0)
			break;
		if (n < hosts && input_file(path, why, sizeof(why)) < 0)
			return cfg_fail_attr(c, "workload", "chakra",
					     "%s is %s: give the prefix of "
					     "Chakra trace files, one regular "
					     "file per rank",
					     path, why);
	}
	if (n == 0)
		return cfg_fail_attr(c, "workload", "chakra",
				     "no trace file %s.0.et", w->chakra);
	if (n != hosts)
		return cfg_fail_attr(c, "workload", "chakra",
				     "%s%u rank files (%s.0.et on), and "
				     "topology.hosts is %u: one trace per host",
				     n > hosts ? "more than " : "",
				     n > hosts ? hosts : n, w->chakra, hosts);
	return 0;
}

/* One workload source: messages, chakra, matrix or a generator. The
 * second one written (in table order after messages) is blamed. */
static int check_one_source(struct cfg_ctx *c)
{
	const struct uet_workload_config *w = &c->s->workload;
	const char *first = w->message_count > 0 ? "workload.messages" : NULL;

	if (w->chakra[0] != '\0') {
		if (first != NULL)
			return cfg_fail_attr(
				c, "workload", "chakra",
				"not together with %s: one workload "
				"source per scenario",
				first);
		first = "workload.chakra";
	}
	if (w->matrix[0] != '\0') {
		if (first != NULL)
			return cfg_fail_attr(
				c, "workload", "matrix",
				"not together with %s: one workload "
				"source per scenario",
				first);
		first = "workload.matrix";
	}
	if (w->generate.pattern != UET_GENERATE_NONE && first != NULL)
		return cfg_fail_attr(
			c, "workload.generate", "pattern",
			"not together with %s: one workload source "
			"per scenario",
			first);
	return 0;
}

/* workload.matrix: resolved against the scenario's folder; the file must
 * exist (lib/workload parses it when the run starts). */
static int check_matrix(struct cfg_ctx *c)
{
	struct uet_workload_config *w = &c->s->workload;
	char path[UET_CONFIG_PATH_MAX + 16], why[160];
	int rc;

	if (w->matrix[0] == '\0')
		return 0;
	if (w->matrix[0] != '/' && c->base_dir != NULL) {
		int len = snprintf(path, sizeof(path), "%s/%s", c->base_dir,
				   w->matrix);

		if (len < 0 || (size_t)len >= sizeof(w->matrix))
			return cfg_fail_attr(
				c, "workload", "matrix",
				"longer than %zu bytes once joined "
				"to the scenario's folder %s",
				sizeof(w->matrix) - 1, c->base_dir);
		memcpy(w->matrix, path, (size_t)len + 1);
	}
	rc = input_file(w->matrix, why, sizeof(why));
	if (rc == -ENOENT)
		return cfg_fail_attr(c, "workload", "matrix",
				     "no such file %s: give the path of a "
				     "connection matrix file (uet-htsim's "
				     "format)",
				     w->matrix);
	if (rc < 0)
		return cfg_fail_attr(c, "workload", "matrix",
				     "%s is %s: give the path of a connection "
				     "matrix file (uet-htsim's format)",
				     w->matrix, why);
	return 0;
}

/* workload.generate: a pattern when any key is given, dst for incast
 * only and a host, and a message count the run can hold. */
static int check_generate(struct cfg_ctx *c)
{
	static const char *const keys[] = {"size",     "count", "start",
					   "interval", "dst",	"seed"};
	const struct uet_workload_generate *g = &c->s->workload.generate;
	uint32_t hosts = c->s->topology.hosts;
	uint64_t per_host, total;
	size_t i;

	if (g->pattern == UET_GENERATE_NONE) {
		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (is_set(c, "workload.generate", keys[i]))
				return cfg_fail_attr(
					c, "workload.generate", "pattern",
					"required once workload.generate.%s "
					"is given: incast, permutation, "
					"all-to-all or uniform",
					keys[i]);
		return 0;
	}
	if (g->pattern != UET_GENERATE_INCAST &&
	    is_set(c, "workload.generate", "dst"))
		return cfg_fail_attr(c, "workload.generate", "dst",
				     "applies to pattern incast only");
	if (g->pattern == UET_GENERATE_INCAST && g->dst >= hosts)
		return cfg_fail_attr(
			c, "workload.generate", "dst",
			"host out of range: topology.hosts is %u, so "
			"hosts are 0 to %u",
			hosts, hosts - 1);
	per_host = (uint64_t)g->count *
		   (g->pattern == UET_GENERATE_ALL_TO_ALL ? hosts - 1 : 1);
	total = per_host *
		(g->pattern == UET_GENERATE_INCAST ? hosts - 1 : hosts);
	if (total > UET_CONFIG_MESSAGES_MAX)
		return cfg_fail_attr(
			c, "workload.generate", "count",
			"makes %llu messages on %u hosts; at most %u",
			(unsigned long long)total, hosts,
			UET_CONFIG_MESSAGES_MAX);
	/* Divided, not multiplied: an hour times 2^20 posts overflows. */
	if (is_set(c, "workload.generate", "interval") && per_host > 1 &&
	    g->interval_ps > 0 &&
	    (g->start_ps > c->s->run.end_ps ||
	     per_host - 1 > (c->s->run.end_ps - g->start_ps) / g->interval_ps))
		return cfg_fail_attr(
			c, "workload.generate", "interval",
			"each host's last message would start after "
			"run.end (%llu posts apart by this)",
			(unsigned long long)per_host);
	return 0;
}

static int check_workload(struct cfg_ctx *c)
{
	const struct uet_scenario *s = c->s;
	uint32_t i;
	int rc;

	rc = check_one_source(c);
	if (rc == 0)
		rc = check_chakra(c);
	if (rc == 0)
		rc = check_matrix(c);
	if (rc == 0)
		rc = check_generate(c);
	if (rc < 0)
		return rc;

	for (i = 0; i < s->workload.message_count; i++) {
		const struct uet_workload_message *m = &s->workload.messages[i];
		const struct cfg_msg_src *ms = &c->msg_src[i];
		char key[64], value[24];

		if (m->src >= s->topology.hosts ||
		    m->dst >= s->topology.hosts) {
			bool bad_src = m->src >= s->topology.hosts;

			snprintf(key, sizeof(key), "workload.messages[%u].%s",
				 i, bad_src ? "src" : "dst");
			snprintf(value, sizeof(value), "%u",
				 bad_src ? m->src : m->dst);
			return cfg_fail(
				c, bad_src ? ms->src_line : ms->dst_line, 0,
				key, value, false,
				"host out of range: topology.hosts is "
				"%u, so hosts are 0 to %u",
				s->topology.hosts, s->topology.hosts - 1);
		}
		if (m->src == m->dst) {
			snprintf(key, sizeof(key), "workload.messages[%u].dst",
				 i);
			snprintf(value, sizeof(value), "%u", m->dst);
			return cfg_fail(c, ms->dst_line, 0, key, value, false,
					"dst must differ from src: a host does "
					"not send to itself");
		}
	}
	return 0;
}

/* WrrWeights: up to 8 comma-separated integers, each 1..255. */
static int check_wrr_weights(struct cfg_ctx *c)
{
	uint8_t weight[UET_CONFIG_TCS];

	if (uet_config_wrr_weights(c->s->sw.wrr_weights, weight) < 0)
		return cfg_fail_attr(c, "switch", "WrrWeights",
				     "must be 1 to 8 weights of 1 to 255, "
				     "separated by commas");
	return 0;
}

/*
 * One dotted-quad address from *p up to a comma or the end; *p is moved
 * past it. @return 0 with *ip (host order), or -EINVAL.
 */
static int parse_ipv4(const char **p, uint32_t *ip)
{
	size_t n = uet_ipv4_scan(*p, strlen(*p), ip);

	if (n == 0 || ((*p)[n] != ',' && (*p)[n] != '\0'))
		return -EINVAL;
	*p += n;
	return 0;
}

/* The host whose address is ip, or hosts when none is. */
static uint32_t host_of_ipv4(uint32_t ip, uint32_t hosts)
{
	uint32_t h = ip - uet_host_ipv4(0);

	return ip >= uet_host_ipv4(0) && h < hosts ? h : hosts;
}

bool uet_scenario_host_external(const struct uet_scenario *s, uint32_t host)
{
	const char *p = s->sw.external_hosts;
	uint32_t ip;

	while (*p != '\0') {
		if (parse_ipv4(&p, &ip) < 0)
			return false;
		if (host_of_ipv4(ip, s->topology.hosts) == host)
			return true;
		if (*p == ',')
			p++;
	}
	return false;
}

/* An address of external_hosts that the host plan does not give. */
static int fail_not_a_host(struct cfg_ctx *c, uint32_t ip)
{
	char text[UET_IPV4_TEXT_BYTES], first[UET_IPV4_TEXT_BYTES];

	uet_ipv4_format(ip, text);
	uet_ipv4_format(uet_host_ipv4(0), first);
	return cfg_fail_attr(c, "switch", "external_hosts",
			     "%s is not a host's address: with %u hosts they "
			     "are %s (host 0) and on",
			     text, c->s->topology.hosts, first);
}

/*
 * external_hosts: realtime only (an endpoint that is not ours takes no
 * part in lockstep), addresses of the host plan, at least one host ours,
 * and no message posted by an external host (we cannot make it send).
 */
static int check_external_hosts(struct cfg_ctx *c)
{
	const struct uet_scenario *s = c->s;
	const char *p = s->sw.external_hosts;
	uint32_t n = 0, i, ip;

	if (*p == '\0' && s->sw.external_lost_copies > 0)
		return cfg_fail_attr(
			c, "switch", "external_lost_copies",
			"needs switch.external_hosts: it loses packets "
			"an external host sends");
	if (*p == '\0')
		return 0;
	if (s->run.clock != UET_CLOCK_REALTIME)
		return cfg_fail_attr(
			c, "switch", "external_hosts",
			"applies only with run.clock realtime: an "
			"endpoint that is not ours takes no part in "
			"lockstep");
	while (*p != '\0') {
		uint32_t h;

		if (parse_ipv4(&p, &ip) < 0)
			return cfg_fail_attr(
				c, "switch", "external_hosts",
				"must be IPv4 addresses separated by "
				"commas");
		h = host_of_ipv4(ip, s->topology.hosts);
		if (h == s->topology.hosts)
			return fail_not_a_host(c, ip);
		n++;
		if (*p == ',')
			p++;
	}
	if (n >= s->topology.hosts)
		return cfg_fail_attr(
			c, "switch", "external_hosts",
			"names every host: at least one must be an "
			"emulated NIC");
	for (i = 0; i < s->workload.message_count; i++) {
		const struct uet_workload_message *m = &s->workload.messages[i];
		char key[64], value[24];

		/* A message from an external host is one the run expects
		 * it to send (nobody here posts it); one to another external
		 * host has no end of ours. */
		if (!uet_scenario_host_external(s, m->src) ||
		    !uet_scenario_host_external(s, m->dst))
			continue;
		snprintf(key, sizeof(key), "workload.messages[%u].dst", i);
		snprintf(value, sizeof(value), "%u", m->dst);
		return cfg_fail(c, c->msg_src[i].src_line, 0, key, value, false,
				"hosts %u and %u are both external "
				"(switch.external_hosts): a message needs an "
				"end that is ours",
				m->src, m->dst);
	}
	return 0;
}

/* The switch's rules of the page. */
static int check_switch(struct cfg_ctx *c)
{
	const struct uet_switch_config *sw = &c->s->sw;

	uint8_t pfc_mask = 0;

	if (uet_config_pfc_class_mask(sw->pfc_classes, &pfc_mask) < 0)
		return cfg_fail_attr(c, "switch", "PFCClasses",
				     "must be empty or up to 8 traffic classes "
				     "0 to 7, separated by commas");
	if (sw->trimming_enabled && (!sw->uet_policy_enabled || pfc_mask))
		return cfg_fail_attr(
			c, "switch", "TrimmingEnabled",
			"switch trimming runs only under the UET "
			"policy (switch.UETPolicyEnabled true) and "
			"with PFC off on every switch traffic class");
	if (pfc_mask && sw->pfc_xon_bytes >= sw->pfc_xoff_bytes)
		return cfg_fail_attr(
			c, "switch", "PFCXon",
			"must be below switch.PFCXoff (%llu bytes)",
			(unsigned long long)sw->pfc_xoff_bytes);
	if (pfc_mask &&
	    c->s->nic.pfc_xoff_bytes > c->s->nic.ingress_pool_size_bytes)
		return cfg_fail_attr(
			c, "nic", "PFCXoff",
			"must not exceed nic.IngressPoolSize (%llu "
			"bytes)",
			(unsigned long long)c->s->nic.ingress_pool_size_bytes);
	if (pfc_mask && c->s->nic.pfc_xon_bytes >= c->s->nic.pfc_xoff_bytes)
		return cfg_fail_attr(
			c, "nic", "PFCXon",
			"must be below nic.PFCXoff (%llu bytes)",
			(unsigned long long)c->s->nic.pfc_xoff_bytes);
	if (sw->ecn_enabled && sw->ecn_kmin_bytes > sw->ecn_kmax_bytes)
		return cfg_fail_attr(
			c, "switch", "ECNKmin",
			"must not exceed switch.ECNKmax (%llu bytes)",
			(unsigned long long)sw->ecn_kmax_bytes);
	/* A switch with the UET policy requires every NIC to be a UET NIC:
	 * nic: describes UET NICs only, so the rule always holds here. */
	return check_wrr_weights(c);
}

/*
 * The topology's shape: its own keys only with its kind, an even k, and
 * topology.hosts derived from the shape (left out) or equal to it.
 */
static int check_topology(struct cfg_ctx *c)
{
	static const char *const ls_keys[] = {"leaves", "spines",
					      "hosts_per_leaf"};
	struct uet_topology_config *t = &c->s->topology;
	uint64_t hosts;
	size_t i;

	for (i = 0; i < 3; i++)
		if (t->kind != UET_TOPOLOGY_LEAF_SPINE &&
		    is_set(c, "topology", ls_keys[i]))
			return cfg_fail_attr(c, "topology", ls_keys[i],
					     "applies only with topology.kind "
					     "leaf-spine");
	if (t->kind != UET_TOPOLOGY_FAT_TREE && is_set(c, "topology", "k"))
		return cfg_fail_attr(
			c, "topology", "k",
			"applies only with topology.kind fat-tree");
	if (t->kind == UET_TOPOLOGY_SINGLE_SWITCH)
		return 0;
	if (t->kind == UET_TOPOLOGY_FAT_TREE) {
		if (t->k % 2 != 0)
			return cfg_fail_attr(c, "topology", "k",
					     "must be even");
		hosts = (uint64_t)t->k * t->k * t->k / 4;
	} else {
		hosts = (uint64_t)t->leaves * t->hosts_per_leaf;
	}
	if (hosts < UET_CONFIG_HOSTS_MIN || hosts > UET_CONFIG_HOSTS_MAX)
		return cfg_fail_attr(
			c, "topology", "kind",
			"gives %llu hosts, and a fabric has %u to %u",
			(unsigned long long)hosts, UET_CONFIG_HOSTS_MIN,
			UET_CONFIG_HOSTS_MAX);
	if (is_set(c, "topology", "hosts") && t->hosts != hosts)
		return cfg_fail_attr(c, "topology", "hosts",
				     "the shape gives %llu hosts; leave hosts "
				     "out or make it %llu",
				     (unsigned long long)hosts,
				     (unsigned long long)hosts);
	t->hosts = (uint32_t)hosts;
	return 0;
}

/* a * b, UINT64_MAX when it does not fit. */
static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	uint64_t r;

	return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

/*
 * A periodic record's size is known before the run: rows = writers x
 * (run.end / period + 1), at row_bytes each (about a row's widest). More
 * than records.MaxFileSize stops the run here, naming the period.
 */
static int check_periodic(struct cfg_ctx *c, const char *file,
			  const char *section, const char *name,
			  uet_time_t period_ps, uint64_t writers,
			  const char *writer, uint64_t row_bytes)
{
	const struct uet_scenario *s = c->s;
	uint64_t rows = mul_sat(writers, s->run.end_ps / period_ps + 1);
	uint64_t bytes = mul_sat(rows, row_bytes);
	char sz[32], max[32], end[32];

	if (bytes <= s->records.max_file_bytes)
		return 0;
	if (bytes == UINT64_MAX)
		snprintf(sz, sizeof(sz), "more than 16 EiB");
	else if (bytes >= (UINT64_C(1) << 40))
		snprintf(sz, sizeof(sz), "%.1f TiB",
			 (double)bytes / (double)(UINT64_C(1) << 40));
	else if (bytes >= (UINT64_C(1) << 30))
		snprintf(sz, sizeof(sz), "%.1f GiB",
			 (double)bytes / (double)(UINT64_C(1) << 30));
	else
		snprintf(sz, sizeof(sz), "%.1f MiB",
			 (double)bytes / (double)(UINT64_C(1) << 20));
	uet_size_format(s->records.max_file_bytes, max, sizeof(max));
	uet_time_format(s->run.end_ps, end, sizeof(end));
	return cfg_fail_attr(
		c, section, name,
		"%s would take about %s (%llu rows: one per %s at "
		"every period to run.end %s), more than "
		"records.MaxFileSize %s: a longer period, a shorter "
		"run.end or a larger records.MaxFileSize",
		file, sz, (unsigned long long)rows, writer, end, max);
}

static int check_records(struct cfg_ctx *c)
{
	const struct uet_scenario *s = c->s;
	uint64_t ports = 0;
	const char *p;
	int rc = 0;

	if (s->records.enable_transport_stats)
		rc = check_periodic(c, "uet-transport-stats.csv", "records",
				    "NDStatsReportInterval",
				    s->records.nd_stats_report_interval_ps,
				    s->topology.hosts, "NIC", 1024);
	if (rc < 0 || s->sw.occupancy_ports[0] == '\0')
		return rc;
	for (ports = 1, p = s->sw.occupancy_ports; *p != '\0'; p++)
		ports += *p == ',';
	return check_periodic(c, "switch-occupancy.csv", "switch",
			      "occupancy_interval", s->sw.occupancy_interval_ps,
			      ports, "port", 160);
}

/* The rules that involve more than one attribute. */
int cfg_check_rules(struct cfg_ctx *c)
{
	const struct uet_scenario *s = c->s;
	uint64_t wire_bytes =
		(uint64_t)s->nic.rdma_data_mss_bytes + UET_DATA_HDR_WIRE_BYTES;
	uint64_t nominal_bytes =
		(uint64_t)s->nic.rdma_data_mss_bytes + UET_DATA_HDR_IP_BYTES;
	int rc;

	if (s->run.clock == UET_CLOCK_LOCKSTEP &&
	    is_set(c, "run", "time_dilation"))
		return cfg_fail_attr(
			c, "run", "time_dilation",
			"applies only with run.clock realtime, and "
			"run.clock is lockstep");
	if (s->run.clock == UET_CLOCK_LOCKSTEP && s->nic.delay_ps == 0)
		return cfg_fail_attr(c, "nic", "Delay",
				     "must be > 0 with run.clock lockstep: the "
				     "smaller of it and topology.link_delay is "
				     "the lookahead of every window");
	if (s->run.clock == UET_CLOCK_LOCKSTEP &&
	    s->topology.link_delay_ps == 0)
		return cfg_fail_attr(
			c, "topology", "link_delay",
			"must be > 0 with run.clock lockstep: the "
			"smaller of it and nic.Delay is the lookahead "
			"of every window");
	if (s->run.clock == UET_CLOCK_LOCKSTEP &&
	    s->topology.kind == UET_TOPOLOGY_LEAF_SPINE &&
	    s->topology.leaf_spine_delay_ps == 0)
		return cfg_fail_attr(
			c, "topology", "leaf_spine_delay",
			"must be > 0 with run.clock lockstep: the "
			"leaves and spines run as parts of the fabric "
			"that meet over these links, so their delay "
			"bounds the lookahead");
	if (s->run.clock == UET_CLOCK_LOCKSTEP &&
	    s->topology.kind == UET_TOPOLOGY_FAT_TREE &&
	    s->topology.agg_core_delay_ps == 0)
		return cfg_fail_attr(
			c, "topology", "agg_core_delay",
			"must be > 0 with run.clock lockstep: the "
			"pods and the core groups run as parts of the "
			"fabric that meet over these links, so their "
			"delay bounds the lookahead");
	if (s->nic.prefetch_buffer_enable &&
	    s->nic.prefetch_buffer_size_bytes < wire_bytes)
		return cfg_fail_attr(
			c, "nic", "PrefetchBufferSize",
			"with PrefetchBufferEnable true it must hold "
			"one full packet on the wire, RdmaDataMSS + "
			"%u = %llu bytes",
			UET_DATA_HDR_WIRE_BYTES,
			(unsigned long long)wire_bytes);
	if (s->nic.egress_pool_size_bytes < wire_bytes)
		return cfg_fail_attr(c, "nic", "EgressPoolSize",
				     "must hold one full packet on the wire, "
				     "RdmaDataMSS + %u = %llu bytes",
				     UET_DATA_HDR_WIRE_BYTES,
				     (unsigned long long)wire_bytes);
	/* A class queue that cannot take one full frame drops every one. */
	if (is_set(c, "switch", "queue_limit") &&
	    s->sw.queue_limit_bytes < wire_bytes)
		return cfg_fail_attr(c, "switch", "queue_limit",
				     "a class queue must hold one full packet "
				     "on the wire, RdmaDataMSS + %u = %llu "
				     "bytes, or the switch drops every one: "
				     "set at least %llu, or auto",
				     UET_DATA_HDR_WIRE_BYTES,
				     (unsigned long long)wire_bytes,
				     (unsigned long long)wire_bytes);
	if (s->nic.ingress_pool_size_bytes < nominal_bytes)
		return cfg_fail_attr(c, "nic", "IngressPoolSize",
				     "must hold one full packet at IP size, "
				     "RdmaDataMSS + %u = %llu bytes",
				     UET_DATA_HDR_IP_BYTES,
				     (unsigned long long)nominal_bytes);
	rc = check_topology(c);
	if (rc < 0)
		return rc;
	rc = check_dscp(c);
	if (rc < 0)
		return rc;
	rc = check_switch(c);
	if (rc < 0)
		return rc;
	if (s->derived.fixed_window_bytes < nominal_bytes)
		return cfg_fail_attr(
			c, "pds", "FixedWindow",
			"the effective window, %llu bytes, must hold "
			"one packet at its nominal size, RdmaDataMSS "
			"+ %u = %llu bytes",
			(unsigned long long)s->derived.fixed_window_bytes,
			UET_DATA_HDR_IP_BYTES,
			(unsigned long long)nominal_bytes);
	rc = check_workload(c);
	if (rc < 0)
		return rc;
	rc = check_records(c);
	if (rc < 0)
		return rc;
	rc = cfg_check_pcap_hosts(c);
	if (rc < 0)
		return rc;
	return check_external_hosts(c);
}
