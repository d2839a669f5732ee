/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The switch records: switch-stats.csv (one row per switch port and
 * traffic class, at the end of the run) and switch-occupancy.csv (the
 * queues of chosen ports every switch.occupancy_interval). Integers only,
 * rows in port and class order, so identical runs give identical files.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_switch_records.h"

struct run_swrec {
	struct uet_fabric *fab;
	const struct uet_scenario *sc;
	FILE *occ;  /* switch-occupancy.csv, or NULL */
	bool stats; /* write switch-stats.csv at the end */
	int err;    /* a write failed */
};

/* out/name, with or without a slash at the end of out. */
static void swrec_path(char *buf, size_t size, const char *out,
		       const char *name)
{
	size_t n = strlen(out);

	snprintf(buf, size, "%s%s%s", out,
		 n > 0 && out[n - 1] == '/' ? "" : "/", name);
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
			fprintf(stderr,
				"%s: topology.failures[%u].link = %s: no such "
				"link; this fabric's links are %s\n",
				prog, i, lf->link, forms);
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
	unsigned int tc;

	if (uet_fabric_port_info(r->fab, port, &info) < 0)
		return;
	fprintf(r->occ, "%" PRIu64 ",%s,%u,%s,%" PRIu64, time_ps,
		info.switch_name, port, info.link_name, st->queue_bytes);
	for (tc = 0; tc < UET_FABRIC_TCS; tc++)
		fprintf(r->occ, ",%" PRIu64, st->tc[tc].queue_bytes);
	if (fputc('\n', r->occ) == EOF)
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
	while (*s != '\0') {
		size_t len;
		int port;

		while (*s == ' ' || *s == ',')
			s++;
		if (*s == '\0')
			break;
		len = strcspn(s, ", ");
		memcpy(name, s, len);
		name[len] = '\0';
		s += len;
		port = uet_fabric_port_find(r->fab, name);
		if (port < 0) {
			uet_fabric_link_forms(r->fab, forms, sizeof(forms));
			fprintf(stderr,
				"%s: switch.occupancy_ports: %s: no such "
				"port; a port is SWITCH:LINK (e.g. "
				"leaf0:leaf0-spine1, spine1:leaf0-spine1) or "
				"hostH, and this fabric's links are %s\n",
				prog, name, forms);
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
		unsigned int tc;

		swrec_path(path, sizeof(path), sc->run.out,
			   "switch-occupancy.csv");
		r->occ = fopen(path, "w");
		if (r->occ == NULL) {
			rc = -errno;
			fprintf(stderr, "%s: cannot create %s: %s\n", prog,
				path, strerror(errno));
			free(ports);
			free(r);
			return rc;
		}
		fputs("time_ps,switch,port,link,queue_bytes", r->occ);
		for (tc = 0; tc < UET_FABRIC_TCS; tc++)
			fprintf(r->occ, ",tc%u_bytes", tc);
		fputc('\n', r->occ);
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
	uint32_t port;
	unsigned int tc;
	FILE *f;
	int rc = 0;

	swrec_path(path, sizeof(path), r->sc->run.out, "switch-stats.csv");
	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	fputs("time_ps,switch,port,link,peer_switch,link_down,rate_bps,tc,"
	      "enq_frames,enq_bytes,drop_frames,drop_bytes,trim_frames,"
	      "ecn_frames,down_drop_frames,down_drop_bytes,paused_ps,"
	      "peak_queue_bytes,mean_queue_bytes\n",
	      f);
	for (port = 0; port < uet_fabric_port_count(r->fab); port++) {
		struct uet_fabric_port_info peer;
		const char *peer_name = "";

		if (uet_fabric_port_info(r->fab, port, &info) < 0 ||
		    uet_fabric_port_stats(r->fab, (uint16_t)port, &st) < 0)
			continue;
		if (info.peer >= 0 &&
		    uet_fabric_port_info(r->fab, (uint32_t)info.peer, &peer) ==
			    0)
			peer_name = peer.switch_name;
		for (tc = 0; tc < UET_FABRIC_TCS; tc++) {
			const struct uet_fabric_tc_stats *ts = &st.tc[tc];

			if (uet_fabric_tc_record(r->fab, port, tc, end_ps,
						 &rec) < 0)
				continue;
			fprintf(f,
				"%" PRIu64 ",%s,%u,%s,%s,%d,%" PRIu64
				",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64
				",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				"\n",
				end_ps, info.switch_name, port, info.link_name,
				peer_name, rec.link_down ? 1 : 0, rec.rate_bps,
				tc, ts->enq_frames, ts->enq_bytes,
				ts->drop_frames, ts->drop_bytes,
				ts->trim_frames, ts->ecn_frames,
				rec.down_drop_frames, rec.down_drop_bytes,
				rec.paused_ps, ts->peak_queue_bytes,
				rec.mean_queue_bytes);
		}
	}
	if (ferror(f))
		rc = -EIO;
	if (fclose(f) != 0)
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
		if (ferror(r->occ) || r->err < 0)
			rc = -EIO;
		if (fclose(r->occ) != 0)
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
	if (r->occ != NULL)
		fclose(r->occ);
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
