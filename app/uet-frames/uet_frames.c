/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-frames: one example of every frame kind the emulated NIC and switch
 * put on the wire, written to a pcap or sent on a DPDK port. It is the tool
 * to point at another UET stack's parser: every field a tester varies
 * (addresses, PSN, PDC ids, entropy, flags, sizes) is an option.
 *
 *   uet-frames [--pcap FILE] [options]
 *   uet-frames EAL-ARGS -- --port DEVARGS [options]
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

#include "uet_capture.h"
#include "uet_ipv4_text.h"
#include "uet_port.h"
#include "uet_time.h"
#include "uet_units.h"
#include "uet_wire.h"

#include "frames_catalog.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [--pcap FILE] [options]\n"
		"       %s EAL-ARGS -- --port DEVARGS [options]\n"
		"\n"
		"Writes one example of every frame kind uetemu's NIC and "
		"switch\n"
		"produce, to a pcap (nanosecond timestamps, 1 us apart) or to "
		"a\n"
		"DPDK port (EAL arguments before --, e.g. --vdev).\n"
		"\n"
		"  --pcap FILE         write the frames to FILE (default "
		"uet-frames.pcap)\n"
		"  --port DEVARGS      send them on this port instead "
		"(vdev string or PCI address)\n"
		"  --expect FILE       also write the fields a decoder must "
		"show, per frame\n"
		"                      (tests/wireshark/compare_fields.py "
		"format)\n"
		"  --list              list the frame kinds and exit\n"
		"  --only KIND[,KIND]  emit only these kinds\n"
		"  --src-ip A.B.C.D    source IPv4 (default 198.18.0.1)\n"
		"  --dst-ip A.B.C.D    destination IPv4 (default 198.18.0.2)\n"
		"  --src-mac MAC       source MAC (default 02:00:00:00:00:01)\n"
		"  --dst-mac MAC       destination MAC (default "
		"02:00:00:00:00:02)\n"
		"  --psn N             PSN of the first data packet (default "
		"1000)\n"
		"  --spdcid N          source PDC id (default 1)\n"
		"  --dpdcid N          destination PDC id (default 2)\n"
		"  --entropy N         UDP source port (default 0xc000)\n"
		"  --udp-port N        UET UDP destination port (default "
		"4793)\n"
		"  --mss SIZE          RdmaDataMSS, payload of a full packet "
		"(default 4096)\n"
		"  --message SIZE      message length (default 3 x mss + 100)\n"
		"  --ar / --no-ar      ACK-request flag on data packets "
		"(default on)\n"
		"  --trimmable         first transmissions carry the trimmable "
		"codepoint\n"
		"  --dscp-ROLE N       codepoint of a role: no-trim, "
		"trimmable,\n"
		"                      trimmable-rtx, control, trimmed, "
		"trimmed-lasthop\n"
		"  --count N           repeat the whole set N times (default "
		"1)\n"
		"  -h, --help          this text\n"
		"  --version           the version, and exit\n",
		prog, prog);
}

static int parse_u32(const char *opt, const char *s, uint32_t max,
		     uint32_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || *s == '\0' || *end != '\0' || v > max) {
		fprintf(stderr,
			"uet-frames: %s = '%s': expected an integer from 0 "
			"to %" PRIu32 "\n",
			opt, s, max);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

static int parse_size32(const char *opt, const char *s, uint32_t max,
			uint32_t *out)
{
	uint64_t v;
	const char *why = NULL;

	if (uet_size_parse(s, &v, &why) < 0 || v > max) {
		fprintf(stderr,
			"uet-frames: %s = '%s': %s (at most %" PRIu32
			" bytes)\n",
			opt, s, why != NULL ? why : "too large", max);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

static int parse_ipv4(const char *opt, const char *s, uint32_t *out)
{
	size_t n = uet_ipv4_scan(s, strlen(s), out);

	if (n == 0 || s[n] != '\0') {
		fprintf(stderr,
			"uet-frames: %s = '%s': expected a dotted IPv4 "
			"address\n",
			opt, s);
		return -EINVAL;
	}
	return 0;
}

static int parse_mac(const char *opt, const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char tail;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5], &tail) != 6) {
		fprintf(stderr,
			"uet-frames: %s = '%s': expected a MAC as "
			"xx:xx:xx:xx:xx:xx\n",
			opt, s);
		return -EINVAL;
	}
	for (int i = 0; i < 6; i++) {
		if (b[i] > 0xff) {
			fprintf(stderr, "uet-frames: %s = '%s': byte %d > ff\n",
				opt, s, i);
			return -EINVAL;
		}
		mac[i] = (uint8_t)b[i];
	}
	return 0;
}

enum {
	OPT_PCAP = 256,
	OPT_PORT,
	OPT_EXPECT,
	OPT_LIST,
	OPT_ONLY,
	OPT_SRC_IP,
	OPT_DST_IP,
	OPT_SRC_MAC,
	OPT_DST_MAC,
	OPT_PSN,
	OPT_SPDCID,
	OPT_DPDCID,
	OPT_ENTROPY,
	OPT_UDP_PORT,
	OPT_MSS,
	OPT_MESSAGE,
	OPT_AR,
	OPT_NO_AR,
	OPT_TRIMMABLE,
	OPT_COUNT,
	OPT_DSCP_BASE, /* one per role, in enum uet_dscp_role order */
};

static const char *const dscp_opt_names[UET_DSCP_ROLE_COUNT] = {
	"dscp-no-trim", "dscp-trimmable", "dscp-trimmable-rtx",
	"dscp-control", "dscp-trimmed",	  "dscp-trimmed-lasthop",
};

struct app_args {
	const char *pcap_path;
	const char *port_devargs;
	const char *expect_path;
	const char *only;
	bool list;
	uint32_t count;
	bool message_set;
	struct uet_frames_opts fo;
};

static int parse_args(int argc, char **argv, struct app_args *a)
{
	struct option longopts[] = {
		{"pcap", required_argument, NULL, OPT_PCAP},
		{"port", required_argument, NULL, OPT_PORT},
		{"expect", required_argument, NULL, OPT_EXPECT},
		{"list", no_argument, NULL, OPT_LIST},
		{"only", required_argument, NULL, OPT_ONLY},
		{"src-ip", required_argument, NULL, OPT_SRC_IP},
		{"dst-ip", required_argument, NULL, OPT_DST_IP},
		{"src-mac", required_argument, NULL, OPT_SRC_MAC},
		{"dst-mac", required_argument, NULL, OPT_DST_MAC},
		{"psn", required_argument, NULL, OPT_PSN},
		{"spdcid", required_argument, NULL, OPT_SPDCID},
		{"dpdcid", required_argument, NULL, OPT_DPDCID},
		{"entropy", required_argument, NULL, OPT_ENTROPY},
		{"udp-port", required_argument, NULL, OPT_UDP_PORT},
		{"mss", required_argument, NULL, OPT_MSS},
		{"message", required_argument, NULL, OPT_MESSAGE},
		{"ar", no_argument, NULL, OPT_AR},
		{"no-ar", no_argument, NULL, OPT_NO_AR},
		{"trimmable", no_argument, NULL, OPT_TRIMMABLE},
		{"count", required_argument, NULL, OPT_COUNT},
		{dscp_opt_names[0], required_argument, NULL, OPT_DSCP_BASE + 0},
		{dscp_opt_names[1], required_argument, NULL, OPT_DSCP_BASE + 1},
		{dscp_opt_names[2], required_argument, NULL, OPT_DSCP_BASE + 2},
		{dscp_opt_names[3], required_argument, NULL, OPT_DSCP_BASE + 3},
		{dscp_opt_names[4], required_argument, NULL, OPT_DSCP_BASE + 4},
		{dscp_opt_names[5], required_argument, NULL, OPT_DSCP_BASE + 5},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	struct uet_frames_opts *fo = &a->fo;
	uint32_t v;
	int c, rc = 0;

	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_PCAP:
			a->pcap_path = optarg;
			break;
		case OPT_PORT:
			a->port_devargs = optarg;
			break;
		case OPT_EXPECT:
			a->expect_path = optarg;
			break;
		case OPT_LIST:
			a->list = true;
			break;
		case OPT_ONLY:
			a->only = optarg;
			break;
		case OPT_SRC_IP:
			rc = parse_ipv4("--src-ip", optarg, &fo->src_ip);
			break;
		case OPT_DST_IP:
			rc = parse_ipv4("--dst-ip", optarg, &fo->dst_ip);
			break;
		case OPT_SRC_MAC:
			rc = parse_mac("--src-mac", optarg, fo->src_mac);
			break;
		case OPT_DST_MAC:
			rc = parse_mac("--dst-mac", optarg, fo->dst_mac);
			break;
		case OPT_PSN:
			rc = parse_u32("--psn", optarg, UINT32_MAX, &fo->psn);
			break;
		case OPT_SPDCID:
			rc = parse_u32("--spdcid", optarg, UINT16_MAX, &v);
			fo->spdcid = (uint16_t)v;
			break;
		case OPT_DPDCID:
			rc = parse_u32("--dpdcid", optarg, UINT16_MAX, &v);
			fo->dpdcid = (uint16_t)v;
			break;
		case OPT_ENTROPY:
			rc = parse_u32("--entropy", optarg, UINT16_MAX, &v);
			fo->entropy = (uint16_t)v;
			break;
		case OPT_UDP_PORT:
			rc = parse_u32("--udp-port", optarg, UINT16_MAX, &v);
			fo->udp_dport = (uint16_t)v;
			break;
		case OPT_MSS:
			rc = parse_size32("--mss", optarg,
					  UET_FRAMES_MAX_MSS_BYTES,
					  &fo->mss_bytes);
			break;
		case OPT_MESSAGE:
			rc = parse_size32("--message", optarg, UINT32_MAX,
					  &fo->message_bytes);
			a->message_set = true;
			break;
		case OPT_AR:
			fo->ack_request = true;
			break;
		case OPT_NO_AR:
			fo->ack_request = false;
			break;
		case OPT_TRIMMABLE:
			fo->trimmable = true;
			break;
		case OPT_COUNT:
			rc = parse_u32("--count", optarg, 1000000, &a->count);
			break;
		case 'h':
			usage(stdout, argv[0]);
			exit(0);
		case 'V':
			printf("uet-frames %s\n", UET_VERSION);
			exit(0);
		default:
			if (c >= OPT_DSCP_BASE &&
			    c < OPT_DSCP_BASE + UET_DSCP_ROLE_COUNT) {
				char name[32];

				snprintf(name, sizeof(name), "--%s",
					 dscp_opt_names[c - OPT_DSCP_BASE]);
				rc = parse_u32(name, optarg, 63, &v);
				fo->dscp.codepoint[c - OPT_DSCP_BASE] =
					(uint8_t)v;
				break;
			}
			usage(stderr, argv[0]);
			return -EINVAL;
		}
		if (rc < 0)
			return rc;
	}
	if (optind < argc) {
		fprintf(stderr, "uet-frames: unexpected argument '%s'\n",
			argv[optind]);
		return -EINVAL;
	}
	if (fo->mss_bytes == 0) {
		fprintf(stderr, "uet-frames: --mss must be at least 1 byte\n");
		return -EINVAL;
	}
	if (!a->message_set)
		fo->message_bytes = 3 * fo->mss_bytes + 100;
	if (uet_dscp_map_validate(&fo->dscp) < 0) {
		fprintf(stderr,
			"uet-frames: the six DSCP codepoints must be distinct "
			"and below 64\n");
		return -EINVAL;
	}
	if (a->pcap_path != NULL && a->port_devargs != NULL) {
		fprintf(stderr,
			"uet-frames: give --pcap or --port, not both\n");
		return -EINVAL;
	}
	return 0;
}

/* Is kind name in the comma-separated list (NULL list: everything)? */
static bool kind_selected(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	if (list == NULL)
		return true;
	while (*p != '\0') {
		const char *comma = strchr(p, ',');
		size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);

		if (len == n && strncmp(p, name, n) == 0)
			return true;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	return false;
}

static int check_only(const char *list)
{
	const char *p = list;

	while (p != NULL && *p != '\0') {
		const char *comma = strchr(p, ',');
		size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
		bool known = false;

		for (unsigned int i = 0; i < uet_frames_kind_count(); i++) {
			const char *name = uet_frames_kind_name(i);

			if (strlen(name) == len && strncmp(p, name, len) == 0)
				known = true;
		}
		if (!known) {
			fprintf(stderr,
				"uet-frames: --only: unknown kind '%.*s' "
				"(--list shows them)\n",
				(int)len, p);
			return -EINVAL;
		}
		p = comma != NULL ? comma + 1 : NULL;
	}
	return 0;
}

/* Where frames go: a pcap file or a port, and the expected fields. */
struct sink {
	FILE *expect;
	struct uet_capture *cap;
	struct uet_port *port;
	struct rte_mempool *pool;
	uint64_t frames;
};

static int sink_put(struct sink *s, uet_time_t t_ps, const uint8_t *frame,
		    size_t len)
{
	struct rte_mbuf *m;
	char *dst;
	int rc;

	s->frames++;
	if (s->cap != NULL)
		return uet_capture_write(s->cap, t_ps, frame, (uint32_t)len);

	m = rte_pktmbuf_alloc(s->pool);
	if (m == NULL)
		return -ENOMEM;
	dst = rte_pktmbuf_append(m, (uint16_t)len);
	if (dst == NULL) {
		rte_pktmbuf_free(m);
		return -EMSGSIZE;
	}
	memcpy(dst, frame, len);
	rc = uet_port_tx_all(s->port, &m, 1, 1000);
	return rc < 0 ? rc : 0;
}

static int emit_all(const struct app_args *a, struct sink *s)
{
	static uint8_t buf[UET_FRAMES_BUF_BYTES];
	uet_time_t t_ps = 0;

	for (uint32_t round = 0; round < a->count; round++) {
		for (unsigned int i = 0; i < uet_frames_kind_count(); i++) {
			int len, rc;

			if (!kind_selected(a->only, uet_frames_kind_name(i)))
				continue;
			len = uet_frames_build(i, &a->fo, buf, sizeof(buf));
			if (len < 0) {
				fprintf(stderr,
					"uet-frames: cannot build '%s': %s\n",
					uet_frames_kind_name(i),
					strerror(-len));
				return len;
			}
			rc = sink_put(s, t_ps, buf, (size_t)len);
			if (rc == 0 && s->expect != NULL) {
				fprintf(s->expect,
					"\nframe %" PRIu64 "  # %s\n",
					s->frames, uet_frames_kind_name(i));
				rc = uet_frames_expect(i, &a->fo, s->expect);
			}
			if (rc < 0) {
				fprintf(stderr,
					"uet-frames: cannot emit '%s': %s\n",
					uet_frames_kind_name(i), strerror(-rc));
				return rc;
			}
			t_ps += UET_PS_PER_US;
		}
	}
	return 0;
}

static int expect_open(const struct app_args *a, struct sink *s)
{
	if (a->expect_path == NULL)
		return 0;
	s->expect = fopen(a->expect_path, "w");
	if (s->expect == NULL) {
		fprintf(stderr, "uet-frames: cannot create '%s': %s\n",
			a->expect_path, strerror(errno));
		return -errno;
	}
	fprintf(s->expect, "# Fields a decoder must show in the frames "
			   "uet-frames wrote.\n");
	return 0;
}

static int expect_close(const struct app_args *a, struct sink *s, int rc)
{
	if (s->expect == NULL)
		return rc;
	if (rc == 0)
		fprintf(s->expect, "\ncount %" PRIu64 "\n", s->frames);
	if (fclose(s->expect) != 0 && rc == 0) {
		fprintf(stderr, "uet-frames: writing '%s': %s\n",
			a->expect_path, strerror(errno));
		rc = -EIO;
	}
	return rc;
}

static int run_port(const struct app_args *a)
{
	struct uet_port_conf conf = {0};
	struct sink s = {0};
	int rc;

	rc = expect_open(a, &s);
	if (rc < 0)
		return rc;

	s.pool = uet_port_pool_create("uet_frames", 1023, (int)rte_socket_id());
	if (s.pool == NULL) {
		fprintf(stderr, "uet-frames: cannot create the mbuf pool\n");
		return expect_close(a, &s, -ENOMEM);
	}
	conf.pool = s.pool;
	rc = uet_port_open(&s.port, a->port_devargs, &conf);
	if (rc < 0) {
		fprintf(stderr, "uet-frames: cannot open port '%s': %s\n",
			a->port_devargs, strerror(-rc));
		return expect_close(a, &s, rc);
	}
	rc = emit_all(a, &s);
	if (rc == 0)
		printf("uet-frames: sent %" PRIu64 " frames on %s\n", s.frames,
		       uet_port_name(s.port));
	uet_port_close(s.port);
	return expect_close(a, &s, rc);
}

static int run_pcap(const struct app_args *a)
{
	const char *path =
		a->pcap_path != NULL ? a->pcap_path : "uet-frames.pcap";
	struct sink s = {0};
	int rc, rc2;

	rc = expect_open(a, &s);
	if (rc < 0)
		return rc;
	rc = uet_capture_open(&s.cap, path);
	if (rc < 0) {
		fprintf(stderr, "uet-frames: cannot create '%s': %s\n", path,
			strerror(-rc));
		return expect_close(a, &s, rc);
	}
	rc = emit_all(a, &s);
	rc2 = uet_capture_close(s.cap);
	if (rc == 0 && rc2 < 0) {
		fprintf(stderr, "uet-frames: closing '%s': %s\n", path,
			strerror(-rc2));
		rc = rc2;
	}
	if (rc == 0)
		printf("uet-frames: wrote %" PRIu64 " frames to %s\n", s.frames,
		       path);
	return expect_close(a, &s, rc);
}

int main(int argc, char **argv)
{
	struct app_args a = {.count = 1};
	bool eal = false;
	int rc;

	uet_frames_opts_default(&a.fo);

	/* EAL arguments come first only when the user gives a "--". */
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			eal = true;
			break;
		}
	}
	if (eal) {
		int used;

		uet_eal_tidy_at_exit();
		used = rte_eal_init(argc, argv);

		if (used < 0) {
			fprintf(stderr, "uet-frames: EAL init failed: %s\n",
				rte_strerror(rte_errno));
			return 2;
		}
		argc -= used;
		argv += used;
		argv[0] = (char *)"uet-frames";
	}
	if (parse_args(argc, argv, &a) < 0 || check_only(a.only) < 0)
		return 2;
	if (a.list) {
		for (unsigned int i = 0; i < uet_frames_kind_count(); i++)
			printf("%-22s %s\n", uet_frames_kind_name(i),
			       uet_frames_kind_doc(i));
		return 0;
	}
	if (a.port_devargs != NULL && !eal) {
		fprintf(stderr,
			"uet-frames: --port needs EAL arguments before '--', "
			"e.g. uet-frames --no-huge -m 512 --no-pci "
			"--no-shconf -- --port net_ring0\n");
		return 2;
	}
	rc = a.port_devargs != NULL ? run_port(&a) : run_pcap(&a);
	if (eal)
		rte_eal_cleanup();
	return rc < 0 ? 1 : 0;
}
