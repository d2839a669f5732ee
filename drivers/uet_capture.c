/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcap writer stamped with virtual time (ns precision). The format is
 * written here, not by libpcap: a header of 24 bytes, then per frame a
 * record header of 16 and the bytes (pcap-savefile(5), in the host's
 * byte order as libpcap writes it; tests/drivers/test_capture.c reads the
 * files back with libpcap and tshark). A program that writes captures
 * then needs no libpcap, whose loading (with libdbus, libsystemd and six
 * more) took a third of a small run's start. The reader
 * (uet_capture_read.c) is libpcap's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "uet_capture.h"
#include "uet_log.h"
#include "uet_outfile.h"

#define CAP_PS_PER_NS 1000u
#define CAP_NS_PER_S 1000000000u
#define CAP_PS_PER_S ((uint64_t)CAP_PS_PER_NS * CAP_NS_PER_S)
/* pcap-savefile(5): the magic of nanosecond timestamps, version 2.4, the
 * link type of Ethernet (LINKTYPE_ETHERNET, libpcap's DLT_EN10MB). */
#define CAP_MAGIC_NS 0xa1b23c4du
#define CAP_VERSION_MAJOR 2u
#define CAP_VERSION_MINOR 4u
#define CAP_LINKTYPE_ETHERNET 1u

/* The file header. */
struct cap_file_header {
	uint32_t magic;
	uint16_t version_major;
	uint16_t version_minor;
	int32_t thiszone; /* always 0 */
	uint32_t sigfigs; /* always 0 */
	uint32_t snaplen;
	uint32_t linktype;
};

_Static_assert(sizeof(struct cap_file_header) == 24, "pcap file header");

/* A frame's record header: seconds and nanoseconds, the bytes kept and
 * the bytes the frame had. */
struct cap_record_header {
	uint32_t ts_sec;
	uint32_t ts_nsec;
	uint32_t caplen;
	uint32_t len;
};

_Static_assert(sizeof(struct cap_record_header) == 16, "pcap record header");
/* stdio buffer of one capture: ~15 frames of 4 KiB a write(2), and 64 MiB
 * for the 1,024 ports of a k = 16 fat tree. */
#define CAP_BUF_BYTES UET_CAPTURE_BUFFER_BYTES

struct uet_capture {
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

int uet_capture_open(struct uet_capture **capp, const char *path)
{
	const struct cap_file_header fh = {
		.magic = CAP_MAGIC_NS,
		.version_major = CAP_VERSION_MAJOR,
		.version_minor = CAP_VERSION_MINOR,
		.snaplen = UET_CAPTURE_SNAPLEN_BYTES,
		.linktype = CAP_LINKTYPE_ETHERNET,
	};
	struct uet_capture *cap;
	int err;

	if (capp == NULL || path == NULL)
		return -EINVAL;
	cap = calloc(1, sizeof(*cap));
	if (cap == NULL)
		return -ENOMEM;
	cap->linear = malloc(UET_CAPTURE_SNAPLEN_BYTES);
	if (cap->linear == NULL) {
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
	/* Put the file header on disk now: an empty capture is still a
	 * valid pcap. */
	errno = 0;
	if (fwrite(&fh, sizeof(fh), 1, cap->out.f) != 1 ||
	    fflush(cap->out.f) != 0) {
		err = capture_failed(cap);
		(void)uet_outfile_close(&cap->out, err);
		goto fail;
	}
	cap->bytes = sizeof(fh);
	*capp = cap;
	return 0;
fail:
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
	const struct cap_record_header rh = {
		/* 32 bits of seconds, as libpcap writes them. */
		.ts_sec = (uint32_t)(t_ps / CAP_PS_PER_S),
		/* The sub-nanosecond rest of t_ps is dropped. */
		.ts_nsec = (uint32_t)((t_ps % CAP_PS_PER_S) / CAP_PS_PER_NS),
		.caplen = caplen,
		.len = len_bytes,
	};
	const size_t bytes = sizeof(rh) + caplen;

	if (cap->out.err != 0)
		return cap->out.err;
	if (cap->max_bytes != 0 && cap->bytes + bytes > cap->max_bytes) {
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
	cap->bytes += bytes;
	errno = 0;
	/* The buffer goes out before it would overflow, never by itself
	 * (stdio writes a full buffer at any byte): what reaches the disk
	 * always ends at a frame, so a process that is killed leaves whole
	 * frames only, less those still buffered. */
	if (cap->pending + bytes >= CAP_BUF_BYTES) {
		if (fflush(cap->out.f) != 0 || ferror(cap->out.f))
			return capture_failed(cap);
		cap->pending = 0;
	}
	if (fwrite(&rh, sizeof(rh), 1, cap->out.f) != 1 ||
	    (caplen > 0 && fwrite(frame, caplen, 1, cap->out.f) != 1))
		return capture_failed(cap);
	cap->pending += bytes;
	/* A frame longer than the buffer went out in part: the rest now. */
	if (cap->pending >= CAP_BUF_BYTES) {
		if (fflush(cap->out.f) != 0)
			return capture_failed(cap);
		cap->pending = 0;
	}
	if (ferror(cap->out.f))
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
	if (fflush(cap->out.f) != 0 || ferror(cap->out.f))
		(void)capture_failed(cap);
	/* Closed, and renamed to its name if whole. */
	logged = cap->out.err != 0;
	ret = uet_outfile_close(&cap->out, 0);
	if (ret < 0 && !logged)
		UET_LOG(ERROR, DRIVERS, "writing %s failed: %s", cap->out.path,
			strerror(-ret));
	free(cap->linear);
	free(cap->buf);
	free(cap);
	return ret;
}
