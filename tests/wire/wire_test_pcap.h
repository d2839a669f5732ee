/* SPDX-License-Identifier: BSD-3-Clause */
/* Read every frame of a pcap file into memory (test helper). */
#ifndef WIRE_TEST_PCAP_H
#define WIRE_TEST_PCAP_H

#include <check.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>

#define PCAP_MAX_FRAMES 32
#define PCAP_MAX_BYTES 2048

struct pcap_frames {
	int n;
	size_t len[PCAP_MAX_FRAMES];
	uint8_t data[PCAP_MAX_FRAMES][PCAP_MAX_BYTES];
};

/* The vectors folder, from argv[1]. */
static const char *vectors_dir = "tests/data/vectors/xdp2";

static inline void pcap_frames_load(struct pcap_frames *pf, const char *file)
{
	char path[1024], err[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	pcap_t *p;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", vectors_dir, file);
	p = pcap_open_offline(path, err);
	ck_assert_msg(p != NULL, "%s: %s", path, err);
	ck_assert_int_eq(pcap_datalink(p), DLT_EN10MB);
	pf->n = 0;
	while ((rc = pcap_next_ex(p, &h, &data)) == 1) {
		ck_assert_int_lt(pf->n, PCAP_MAX_FRAMES);
		ck_assert_uint_eq(h->caplen, h->len);
		ck_assert_uint_le(h->caplen, PCAP_MAX_BYTES);
		memcpy(pf->data[pf->n], data, h->caplen);
		pf->len[pf->n] = h->caplen;
		pf->n++;
	}
	ck_assert_int_eq(rc, PCAP_ERROR_BREAK);
	pcap_close(p);
}

#endif /* WIRE_TEST_PCAP_H */
