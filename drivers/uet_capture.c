/* SPDX-License-Identifier: BSD-3-Clause */
/* pcap writer stamped with virtual time (ns precision) and pcap reader. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pcap/pcap.h>
#include <rte_common.h>

#include "uet_capture.h"
#include "uet_log.h"
#include "uet_outfile.h"

#define CAP_PS_PER_NS 1000u
#define CAP_NS_PER_S 1000000000u
#define CAP_PS_PER_S ((uint64_t)CAP_PS_PER_NS * CAP_NS_PER_S)
/* stdio buffer of one capture: ~15 frames of 4 KiB a write(2), and 64 MiB
 * for the 1,024 ports of a k = 16 fat tree. */
#define CAP_BUF_BYTES UET_CAPTURE_BUFFER_BYTES

struct uet_capture {
	/** Dead pcap handle that carries link type, snap length, precision. */
	pcap_t *pcap;
	/** The open file. */
	pcap_dumper_t *dumper;
	/** Frames written. */
	uint64_t frames;
	/** Where multi-segment mbufs are linearised; snap length bytes. */
	uint8_t *linear;
	/** The file: NAME.partial until it is closed whole. */
	struct uet_outfile out;
	/** Bytes in the file, and the most it may hold (0: no limit). */
	uint64_t bytes, max_bytes;
	/** Bytes written since the last flush (they sit in buf). */
	size_t pending;
	/** stdio's buffer for the file: frames leave in bulk. */
	char *buf;
};

/* Writing the capture failed (errno says why): named once. */
static int capture_failed(struct uet_capture *cap)
{
	bool first = cap->out.err == 0;
	int err = uet_outfile_failed(&cap->out);

	if (first)
		UET_LOG(ERROR, DRIVERS, "writing %s failed: %s", cap->out.path,
			strerror(-err));
	return err;
}

struct uet_capture_reader {
	/** Offline handle opened with nanosecond precision. */
	pcap_t *pcap;
};

int uet_capture_open(struct uet_capture **capp, const char *path)
{
	struct uet_capture *cap;
	int err;

	if (capp == NULL || path == NULL)
		return -EINVAL;
	cap = calloc(1, sizeof(*cap));
	if (cap == NULL)
		return -ENOMEM;
	cap->linear = malloc(UET_CAPTURE_SNAPLEN_BYTES);
	cap->pcap = pcap_open_dead_with_tstamp_precision(
		DLT_EN10MB, UET_CAPTURE_SNAPLEN_BYTES,
		PCAP_TSTAMP_PRECISION_NANO);
	if (cap->linear == NULL || cap->pcap == NULL) {
		err = -ENOMEM;
		goto fail;
	}
	err = uet_outfile_open(&cap->out, path);
	if (err < 0)
		goto fail;
	cap->buf = malloc(CAP_BUF_BYTES);
	if (cap->buf == NULL ||
	    setvbuf(cap->out.f, cap->buf, _IOFBF, CAP_BUF_BYTES) != 0) {
		err = -ENOMEM;
		(void)uet_outfile_close(&cap->out, err);
		goto fail;
	}
	cap->dumper = pcap_dump_fopen(cap->pcap, cap->out.f);
	if (cap->dumper == NULL) {
		err = -EIO;
		(void)uet_outfile_close(&cap->out, err);
		goto fail;
	}
	/* Put the file header on disk now: an empty capture is still a
	 * valid pcap. */
	errno = 0;
	if (pcap_dump_flush(cap->dumper) != 0) {
		err = capture_failed(cap);
		pcap_dump_close(cap->dumper);
		cap->out.f = NULL; /* closed with the dumper */
		(void)uet_outfile_close(&cap->out, err);
		goto fail;
	}
	cap->bytes = 24; /* the pcap file header */
	*capp = cap;
	return 0;
fail:
	if (cap->pcap != NULL)
		pcap_close(cap->pcap);
	free(cap->linear);
	free(cap->buf);
	free(cap);
	return err;
}

/* Write caplen bytes of a frame that had len_bytes on the wire. */
static int capture_record(struct uet_capture *cap, uet_time_t t_ps,
			  const void *frame, uint32_t caplen,
			  uint32_t len_bytes)
{
	struct pcap_pkthdr hdr;

	memset(&hdr, 0, sizeof(hdr));
	hdr.ts.tv_sec = (time_t)(t_ps / CAP_PS_PER_S);
	/* With nanosecond precision the "usec" field carries nanoseconds;
	 * the sub-nanosecond rest of t_ps is dropped. */
	hdr.ts.tv_usec = (suseconds_t)((t_ps % CAP_PS_PER_S) / CAP_PS_PER_NS);
	hdr.len = len_bytes;
	hdr.caplen = caplen;
	if (cap->out.err != 0)
		return cap->out.err;
	/* A pcap record header is 16 bytes. */
	if (cap->max_bytes != 0 && cap->bytes + 16 + caplen > cap->max_bytes) {
		if (cap->bytes <= cap->max_bytes)
			UET_LOG(ERROR, DRIVERS,
				"%s reached records.MaxFileSize (%llu bytes): "
				"its later frames are not written and the run "
				"stops; raise records.MaxFileSize for a run "
				"this long",
				cap->out.path,
				(unsigned long long)cap->max_bytes);
		cap->bytes = cap->max_bytes + 1; /* logged */
		return -EFBIG;
	}
	cap->bytes += 16 + caplen;
	errno = 0;
	/* The buffer goes out before it would overflow, never by itself
	 * (stdio writes a full buffer at any byte): what reaches the disk
	 * always ends at a frame, so a process that is killed leaves whole
	 * frames only, less those still buffered. */
	if (cap->pending + 16 + caplen >= CAP_BUF_BYTES) {
		if (pcap_dump_flush(cap->dumper) != 0 ||
		    ferror(pcap_dump_file(cap->dumper)))
			return capture_failed(cap);
		cap->pending = 0;
	}
	pcap_dump((u_char *)cap->dumper, &hdr, frame);
	cap->pending += 16 + caplen;
	/* A frame longer than the buffer went out in part: the rest now. */
	if (cap->pending >= CAP_BUF_BYTES) {
		if (pcap_dump_flush(cap->dumper) != 0)
			return capture_failed(cap);
		cap->pending = 0;
	}
	if (ferror(pcap_dump_file(cap->dumper)))
		return capture_failed(cap);
	cap->frames++;
	return 0;
}

int uet_capture_write(struct uet_capture *cap, uet_time_t t_ps,
		      const void *frame, uint32_t len_bytes)
{
	if (cap == NULL || (frame == NULL && len_bytes > 0))
		return -EINVAL;
	return capture_record(cap, t_ps, frame,
			      RTE_MIN(len_bytes, UET_CAPTURE_SNAPLEN_BYTES),
			      len_bytes);
}

int uet_capture_write_mbuf(struct uet_capture *cap, uet_time_t t_ps,
			   const struct rte_mbuf *m)
{
	uint32_t caplen;
	const void *data;

	if (cap == NULL || m == NULL)
		return -EINVAL;
	caplen = RTE_MIN(m->pkt_len, UET_CAPTURE_SNAPLEN_BYTES);
	/* Points into the mbuf when the bytes are contiguous, else copies
	 * the segments into cap->linear. */
	data = rte_pktmbuf_read(m, 0, caplen, cap->linear);
	if (data == NULL)
		return -EINVAL;
	return capture_record(cap, t_ps, data, caplen, m->pkt_len);
}

void uet_capture_set_max_bytes(struct uet_capture *cap, uint64_t max_bytes)
{
	if (cap != NULL)
		cap->max_bytes = max_bytes;
}

uint64_t uet_capture_frames(const struct uet_capture *cap)
{
	return cap->frames;
}

int uet_capture_close(struct uet_capture *cap)
{
	bool logged;
	int ret;

	if (cap == NULL)
		return 0;
	errno = 0;
	if (pcap_dump_flush(cap->dumper) != 0 ||
	    ferror(pcap_dump_file(cap->dumper)))
		(void)capture_failed(cap);
	/* pcap closes the FILE; renamed to its name if whole. */
	logged = cap->out.err != 0;
	pcap_dump_close(cap->dumper);
	cap->out.f = NULL;
	ret = uet_outfile_close(&cap->out, 0);
	if (ret < 0 && !logged)
		UET_LOG(ERROR, DRIVERS, "writing %s failed: %s", cap->out.path,
			strerror(-ret));
	pcap_close(cap->pcap);
	free(cap->linear);
	free(cap->buf);
	free(cap);
	return ret;
}

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
