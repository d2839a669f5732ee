/* SPDX-License-Identifier: BSD-3-Clause */
/* The pcap reader, libpcap's (apart from the writer, uet_capture.c, so
 * that a program that only writes captures does not link libpcap). */
#include <errno.h>
#include <stdlib.h>

#include <pcap/pcap.h>

#include "uet_capture.h"

#define CAP_PS_PER_NS 1000u
#define CAP_NS_PER_S 1000000000u

struct uet_capture_reader {
	/** Offline handle opened with nanosecond precision. */
	pcap_t *pcap;
};

int uet_capture_reader_open(struct uet_capture_reader **readerp,
			    const char *path)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct uet_capture_reader *r;

	if (readerp == NULL || path == NULL)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	r->pcap = pcap_open_offline_with_tstamp_precision(
		path, PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (r->pcap == NULL) {
		free(r);
		return -EIO;
	}
	*readerp = r;
	return 0;
}

int uet_capture_reader_next(struct uet_capture_reader *reader,
			    struct uet_capture_frame *frame)
{
	struct pcap_pkthdr *hdr;
	const u_char *data;
	int ret;

	if (reader == NULL || frame == NULL)
		return -EINVAL;
	ret = pcap_next_ex(reader->pcap, &hdr, &data);
	if (ret == PCAP_ERROR_BREAK)
		return 0;
	if (ret != 1)
		return -EIO;
	frame->time_ps = ((uint64_t)hdr->ts.tv_sec * CAP_NS_PER_S +
			  (uint64_t)hdr->ts.tv_usec) *
			 CAP_PS_PER_NS;
	frame->caplen_bytes = hdr->caplen;
	frame->len_bytes = hdr->len;
	frame->data = data;
	return 1;
}

void uet_capture_reader_close(struct uet_capture_reader *reader)
{
	if (reader == NULL)
		return;
	pcap_close(reader->pcap);
	free(reader);
}
