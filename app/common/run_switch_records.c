/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch records: switch-stats.csv (one row per switch port and
 * traffic class, at the end of the run) and switch-occupancy.csv (the
 * queues of chosen ports every switch.occupancy_interval). Integers only,
 * rows in port and class order, so identical runs give identical files.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_switch_records.h"
#include "uet_record.h"
#include "uet_run_params.h"

struct run_swrec {
	struct uet_fabric *fab;
	const struct uet_scenario *sc;
	struct uet_record_file *occ; /* switch-occupancy.csv, or NULL */
	bool stats;		     /* write switch-stats.csv at the end */
	int err;		     /* a write failed */
};

/* out/name, with or without a slash at the end of out. */
static void swrec_path(char *buf, size_t size, const char *out,
		       const char *name)
{
	size_t n = strlen(out);

	snprintf(buf, size, "%s%s%s", out,
		 n > 0 && out[n - 1] == '/' ? "" : "/", name);
}

/* The message of a failure's link that names no link of the fabric. */
static void swrec_no_link(const char *prog, uint32_t i, const char *link,
			  const char *forms)
{
	fprintf(stderr,
		"%s: topology.failures[%u].link = %s: no such link; this "
		"fabric's links are %s\n",
		prog, i, link, forms);
}

/* The message of an occupancy port that names no port of the fabric. */
static void swrec_no_port(const char *prog, const char *name, const char *forms)
{
	fprintf(stderr,
		"%s: switch.occupancy_ports: %s: no such port; a port is "
		"SWITCH:LINK (e.g. leaf0:leaf0-spine1, spine1:leaf0-spine1) "
		"or hostH, and this fabric's links are %s\n",
		prog, name, forms);
}

/* The next name of a list separated by commas (spaces allowed), into
 * name; false at the end of the list. */
static bool swrec_next_name(const char **s, char *name, size_t size)
{
	size_t len;

	while (**s == ' ' || **s == ',')
		(*s)++;
	if (**s == '\0')
		return false;
	len = strcspn(*s, ", ");
	if (len >= size)
		len = size - 1;
	memcpy(name, *s, len);
	name[len] = '\0';
	*s += strcspn(*s, ", ");
	return true;
}

int run_swrec_check_names(const struct uet_scenario *sc, const char *prog)
{
	const struct uet_topology_config *t = &sc->topology;
	char name[UET_CONFIG_PORT_LIST_MAX], forms[256];
	const char *s = sc->sw.occupancy_ports;
	struct uet_fabric_conf fc;
	uint32_t i;
	int rc;

	rc = uet_run_fabric_conf(sc, &fc);
	if (rc < 0)
		return rc;
	uet_fabric_conf_link_forms(&fc, forms, sizeof(forms));
	for (i = 0; i < t->failure_count; i++)
		if (uet_fabric_conf_link_check(&fc, t->failures[i].link) < 0) {
			swrec_no_link(prog, i, t->failures[i].link, forms);
			return -EINVAL;
		}
	while (swrec_next_name(&s, name, sizeof(name)))
		if (uet_fabric_conf_port_check(&fc, name) < 0) {
			swrec_no_port(prog, name, forms);
			return -EINVAL;
		}
	return 0;
}

int run_swrec_failures(struct uet_fabric *fab, const struct uet_scenario *sc,
		       const char *prog)
{
	const struct uet_topology_config *t = &sc->topology;
	char forms[256];
	uint32_t i;

	for (i = 0; i < t->failure_count; i++) {
		const struct uet_link_failure *lf = &t->failures[i];
		int rc;
		struct uet_fabric_failure f = {
			.at_ps = lf->at_ps,
			.rate_ppm = lf->rate_ppm,
			.down = lf->down,
		};

		rc = uet_fabric_link_find(fab, lf->link);
		if (rc < 0) {
			uet_fabric_link_forms(fab, forms, sizeof(forms));
			swrec_no_link(prog, i, lf->link, forms);
			return -EINVAL;
		}
		f.port = (uint32_t)rc;
		rc = uet_fabric_add_failure(fab, &f);
		if (rc < 0) {
			fprintf(stderr,
				"%s: topology.failures[%u]: cannot schedule "
				"it: %s\n",
				prog, i, strerror(-rc));
			return rc;
		}
	}
	return 0;
}

static void swrec_on_sample(void *ctx, uet_time_t time_ps, uint32_t port,
			    const struct uet_fabric_port_stats *st)
{
	struct run_swrec *r = ctx;
	struct uet_fabric_port_info info;
	uint64_t tc_bytes[UET_FABRIC_TCS];
	struct uet_switch_occ_row row = {
		.time_ps = time_ps,
		.port = port,
		.queue_bytes = st->queue_bytes,
		.tc_bytes = tc_bytes,
	};
	unsigned int tc;

	if (uet_fabric_port_info(r->fab, port, &info) < 0)
		return;
	row.switch_name = info.switch_name;
	row.link = info.link_name;
	for (tc = 0; tc < UET_FABRIC_TCS; tc++)
		tc_bytes[tc] = st->tc[tc].queue_bytes;
	if (uet_record_switch_occ(r->occ, &row) < 0)
		r->err = -EIO;
}

/* switch.occupancy_ports: names separated by commas (spaces allowed). */
static int swrec_parse_ports(struct run_swrec *r, const char *prog,
			     uint32_t **ports, uint32_t *n)
{
	const char *s = r->sc->sw.occupancy_ports;
	char name[UET_CONFIG_PORT_LIST_MAX];
	char forms[256];

	*n = 0;
	*ports = calloc(strlen(s) / 2 + 1, sizeof(**ports));
	if (*ports == NULL)
		return -ENOMEM;
	while (swrec_next_name(&s, name, sizeof(name))) {
		int port = uet_fabric_port_find(r->fab, name);

		if (port < 0) {
			uet_fabric_link_forms(r->fab, forms, sizeof(forms));
			swrec_no_port(prog, name, forms);
			free(*ports);
			*ports = NULL;
			return -EINVAL;
		}
		(*ports)[(*n)++] = (uint32_t)port;
	}
	return 0;
}

int run_swrec_open(struct run_swrec **rp, struct uet_fabric *fab,
		   const struct uet_scenario *sc, const char *prog)
{
	struct run_swrec *r;
	uint32_t *ports = NULL, n = 0;
	int rc;

	*rp = NULL;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	r->fab = fab;
	r->sc = sc;
	r->stats = sc->records.enable_switch_stats;
	rc = swrec_parse_ports(r, prog, &ports, &n);
	if (rc < 0) {
		free(r);
		return rc;
	}
	if (n > 0) {
		char path[UET_CONFIG_PATH_MAX + 32];

		swrec_path(path, sizeof(path), sc->run.out,
			   "switch-occupancy.csv");
		rc = uet_record_switch_occ_open(&r->occ, path, UET_FABRIC_TCS);
		if (rc < 0) {
			fprintf(stderr, "%s: cannot create %s: %s\n", prog,
				path, strerror(-rc));
			free(ports);
			free(r);
			return rc;
		}
		rc = uet_fabric_set_occupancy(fab, sc->sw.occupancy_interval_ps,
					      ports, n, swrec_on_sample, r);
	}
	free(ports);
	if (rc < 0) {
		run_swrec_free(r);
		return rc;
	}
	*rp = r;
	return 0;
}

static int swrec_write_stats(struct run_swrec *r, uet_time_t end_ps)
{
	char path[UET_CONFIG_PATH_MAX + 32];
	struct uet_fabric_port_info info;
	struct uet_fabric_port_stats st;
	struct uet_fabric_tc_record rec;
	struct uet_record_file *f;
	uint32_t port;
	unsigned int tc;
	int rc;

	swrec_path(path, sizeof(path), r->sc->run.out, "switch-stats.csv");
	rc = uet_record_switch_stats_open(&f, path);
	if (rc < 0)
		return rc;
	for (port = 0; port < uet_fabric_port_count(r->fab); port++) {
		struct uet_fabric_port_info peer;
		const char *peer_name = "";

		if (uet_fabric_port_info(r->fab, port, &info) < 0 ||
		    uet_fabric_port_stats(r->fab, port, &st) < 0)
			continue;
		if (info.peer >= 0 &&
		    uet_fabric_port_info(r->fab, (uint32_t)info.peer, &peer) ==
			    0)
			peer_name = peer.switch_name;
		for (tc = 0; tc < UET_FABRIC_TCS; tc++) {
			const struct uet_fabric_tc_stats *ts = &st.tc[tc];
			struct uet_switch_stats_row row;

			if (uet_fabric_tc_record(r->fab, port, tc, end_ps,
						 &rec) < 0)
				continue;
			row = (struct uet_switch_stats_row){
				.time_ps = end_ps,
				.switch_name = info.switch_name,
				.port = port,
				.link = info.link_name,
				.peer_switch = peer_name,
				.link_down = rec.link_down,
				.rate_bps = rec.rate_bps,
				.tc = tc,
				.enq_frames = ts->enq_frames,
				.enq_bytes = ts->enq_bytes,
				.drop_frames = ts->drop_frames,
				.drop_bytes = ts->drop_bytes,
				.trim_frames = ts->trim_frames,
				.ecn_frames = ts->ecn_frames,
				.down_drop_frames = rec.down_drop_frames,
				.down_drop_bytes = rec.down_drop_bytes,
				.paused_ps = rec.paused_ps,
				.peak_queue_bytes = ts->peak_queue_bytes,
				.mean_queue_bytes = rec.mean_queue_bytes,
				/* Frames the port received and dropped before
				 * any queue have no class: class 0's row. */
				.has_rx_drops = tc == 0,
				.rx_drop_route_frames = st.drop_route_frames,
				.rx_drop_control_frames =
					st.drop_control_frames,
				.rx_drop_source_frames = st.drop_source_frames,
				.rx_drop_lost_frames = st.drop_lost_frames,
				.rx_drop_random_frames = st.drop_random_frames,
			};
			if (uet_record_switch_stats(f, &row) < 0)
				rc = -EIO;
		}
	}
	if (uet_record_file_close(f) < 0)
		rc = -EIO;
	return rc;
}

int run_swrec_finish(struct run_swrec *r, uet_time_t end_ps)
{
	int rc = 0;

	if (r == NULL)
		return 0;
	if (r->occ != NULL) {
		uet_fabric_occupancy_flush(r->fab, end_ps);
		/* Nothing more may be sampled into a closed file. */
		(void)uet_fabric_set_occupancy(r->fab, 0, NULL, 0, NULL, NULL);
		if (uet_record_file_close(r->occ) < 0 || r->err < 0)
			rc = -EIO;
		r->occ = NULL;
	}
	if (r->stats) {
		const int ret = swrec_write_stats(r, end_ps);

		if (ret < 0)
			rc = ret;
	}
	return rc;
}

void run_swrec_free(struct run_swrec *r)
{
	if (r == NULL)
		return;
	(void)uet_record_file_close(r->occ);
	free(r);
}

uint64_t run_swrec_down_drops(const struct uet_fabric *fab)
{
	struct uet_fabric_tc_record rec;
	uint64_t n = 0;
	uint32_t port;
	unsigned int tc;

	for (port = 0; port < uet_fabric_port_count(fab); port++)
		for (tc = 0; tc < UET_FABRIC_TCS; tc++)
			if (uet_fabric_tc_record(fab, port, tc, 0, &rec) == 0)
				n += rec.down_drop_frames;
	return n;
}
