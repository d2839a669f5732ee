/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Hostile UET frames for the external-host tests, as a pcap file that
 * tests/ports/send-pcap.py puts on a veth: what a foreign stack behind an
 * external host could send our NICs (issue 32's trial).
 *
 *   craft-frames OUT.pcap syn N SRC DST    N SYN data packets from SRC to
 *       DST, each opening a PDC of its own (source PDC 1 + i, start PSN
 *       1000 x i), none ending its message: 64 bytes of a 1 MiB message.
 *   craft-frames OUT.pcap whole N SRC DST  N one-packet messages (SOM,
 *       EOM, AR) of 64 bytes, memory_key 0: from another host's address, a
 *       forged arrival of that host's message 0.
 *
 * SRC and DST are host numbers (198.18.0.1 + host). Exit 0, or 2 with a
 * line naming what was wrong.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uet_host_addr.h"
#include "uet_wire.h"

#define PAYLOAD_BYTES 64u

static int put_u32(FILE *f, uint32_t v)
{
	return fwrite(&v, sizeof(v), 1, f) == 1 ? 0 : -EIO;
}

/* The pcap file header: microseconds, Ethernet, host byte order. */
static int pcap_header(FILE *f)
{
	uint16_t ver[2] = {2, 4};

	if (put_u32(f, 0xa1b2c3d4u) < 0 || fwrite(ver, sizeof(ver), 1, f) != 1)
		return -EIO;
	if (put_u32(f, 0) < 0 || put_u32(f, 0) < 0 || put_u32(f, 65535) < 0 ||
	    put_u32(f, 1) < 0)
		return -EIO;
	return 0;
}

static int pcap_frame(FILE *f, const uint8_t *buf, uint32_t len)
{
	if (put_u32(f, 0) < 0 || put_u32(f, 0) < 0 || put_u32(f, len) < 0 ||
	    put_u32(f, len) < 0 || fwrite(buf, 1, len, f) != len)
		return -EIO;
	return 0;
}

static int craft(FILE *f, int whole, uint32_t i, uint32_t src, uint32_t dst)
{
	uint8_t buf[UET_DATA_HDR_FRAME_BYTES + PAYLOAD_BYTES];
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	int len;

	uet_frame_addr_default(&a);
	uet_host_mac(src, a.src_mac);
	memset(a.dst_mac, 0xff, sizeof(a.dst_mac));
	a.src_ip = uet_host_ipv4(src);
	a.dst_ip = uet_host_ipv4(dst);
	a.dscp = UET_DSCP_DEFAULT_NO_TRIM;
	a.entropy = (uint16_t)(0xc000u | (i & 0x3fffu));
	memset(&pds, 0, sizeof(pds));
	pds.type = UET_PDS_TYPE_RUD_CC_REQ;
	pds.flags = UET_PDS_REQ_F_SYN | (whole ? UET_PDS_REQ_F_AR : 0);
	pds.u.req.psn = 1000u * i;
	pds.u.req.spdcid = (uint16_t)(1u + i % 65535u);
	memset(&ses, 0, sizeof(ses));
	ses.kind = UET_SES_REQUEST_STD;
	ses.u.std.opcode = UET_SES_OP_SEND;
	ses.u.std.flags = UET_SES_F_SOM | (whole ? UET_SES_F_EOM : 0);
	ses.u.std.memory_key = 0;
	ses.u.std.request_length = whole ? PAYLOAD_BYTES : 1u << 20;
	len = uet_frame_build(buf, sizeof(buf), &a, &pds, &ses, NULL,
			      PAYLOAD_BYTES);
	if (len < 0)
		return len;
	memset(buf + UET_DATA_HDR_FRAME_BYTES, 0x5a, PAYLOAD_BYTES);
	return pcap_frame(f, buf, (uint32_t)len);
}

static int host_arg(const char *s, const char *what, uint32_t *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (*s == '\0' || *end != '\0' || v >= UET_HOST_MAX_COUNT) {
		fprintf(stderr, "craft-frames: %s '%s': want a host number\n",
			what, s);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

int main(int argc, char **argv)
{
	uint32_t n, src, dst, i;
	int whole, rc = 0;
	char *end;
	FILE *f;

	if (argc != 6 ||
	    (strcmp(argv[2], "syn") != 0 && strcmp(argv[2], "whole") != 0)) {
		fprintf(stderr, "usage: craft-frames OUT.pcap syn|whole N SRC "
				"DST\n");
		return 2;
	}
	whole = strcmp(argv[2], "whole") == 0;
	n = (uint32_t)strtoul(argv[3], &end, 10);
	if (*argv[3] == '\0' || *end != '\0' || n == 0 || n > 1000000) {
		fprintf(stderr, "craft-frames: N '%s': want 1 to 1000000\n",
			argv[3]);
		return 2;
	}
	if (host_arg(argv[4], "SRC", &src) < 0 ||
	    host_arg(argv[5], "DST", &dst) < 0)
		return 2;
	f = fopen(argv[1], "wb");
	if (f == NULL) {
		perror(argv[1]);
		return 2;
	}
	rc = pcap_header(f);
	for (i = 0; rc == 0 && i < n; i++)
		rc = craft(f, whole, i, src, dst);
	if (fclose(f) != 0 && rc == 0)
		rc = -EIO;
	if (rc < 0) {
		fprintf(stderr, "craft-frames: %s: %s\n", argv[1],
			strerror(-rc));
		return 2;
	}
	return 0;
}
