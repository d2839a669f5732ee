/* SPDX-License-Identifier: BSD-3-Clause */
/* Captures: pcap files (Ethernet, nanosecond timestamps) stamped with
 * virtual time, one per port, and a reader for tests and replay. */
#ifndef UET_CAPTURE_H
#define UET_CAPTURE_H

#include <stdint.h>

#include <rte_mbuf.h>

#include "uet_time.h"

/**
 * Largest number of bytes of a frame kept in a capture (the snap length).
 * Longer frames are recorded with their full original length and their first
 * UET_CAPTURE_SNAPLEN_BYTES bytes.
 */
#define UET_CAPTURE_SNAPLEN_BYTES 65535u

/** Bytes a capture holds before they go to the kernel (whole frames). */
#define UET_CAPTURE_BUFFER_BYTES (64u * 1024u)

/** A pcap file being written. */
struct uet_capture;

/** A pcap file being read. */
struct uet_capture_reader;

/** One frame read back from a capture. */
struct uet_capture_frame {
	/** Timestamp in ps: the file's seconds and nanoseconds, times 1000. */
	uet_time_t time_ps;
	/** Bytes present in data. */
	uint32_t caplen_bytes;
	/** Bytes the frame had on the wire. */
	uint32_t len_bytes;
	/** Frame bytes; valid until the next call on the reader. */
	const uint8_t *data;
};

/**
 * Create (or truncate) a pcap file: link type Ethernet (DLT_EN10MB),
 * nanosecond timestamps, snap length UET_CAPTURE_SNAPLEN_BYTES.
 *
 * Frames are written in bulk (a 64 KiB buffer per capture), and the
 * buffer goes to the kernel only whole frames at a time: a process killed
 * later leaves a readable pcap of every frame but the buffered ones (the
 * file is NAME.partial until it is closed, lib/core/uet_outfile.h).
 *
 * @param capp
 *   Set to the new capture.
 * @param path
 *   File to write.
 * @return
 *   0, or a negative errno (-EINVAL, -ENOMEM, or why the file could not be
 *   opened).
 */
int uet_capture_open(struct uet_capture **capp, const char *path);

/**
 * Write one frame from a byte buffer.
 *
 * The timestamp is the virtual time t_ps split into seconds and nanoseconds;
 * the sub-nanosecond part is truncated (1,999 ps is written as 1 ns), since
 * pcap has no finer unit.
 *
 * @param cap
 *   The capture.
 * @param t_ps
 *   Virtual time of the frame, in ps.
 * @param frame
 *   Frame bytes from the destination MAC on, without FCS.
 * @param len_bytes
 *   Frame length.
 * @return
 *   0, or a negative errno (-EINVAL, -EIO when the write fails).
 */
int uet_capture_write(struct uet_capture *cap, uet_time_t t_ps,
		      const void *frame, uint32_t len_bytes);

/**
 * Write one frame from an mbuf (any number of segments). A multi-segment
 * frame is copied into a buffer the capture allocated when it was opened;
 * nothing is allocated per frame. The mbuf is not freed.
 *
 * @param cap
 *   The capture.
 * @param t_ps
 *   Virtual time of the frame, in ps (truncated to ns as above).
 * @param m
 *   The frame.
 * @return
 *   0 or a negative errno.
 */
int uet_capture_write_mbuf(struct uet_capture *cap, uet_time_t t_ps,
			   const struct rte_mbuf *m);

/**
 * Number of frames written so far.
 *
 * @param cap
 *   The capture.
 * @return
 *   Frames written.
 */
uint64_t uet_capture_frames(const struct uet_capture *cap);

/**
 * Flush and close the file, and free the capture. NULL is accepted.
 *
 * @param cap
 *   The capture.
 * @return
 *   0, or -EIO if the last data could not be written.
 */
int uet_capture_close(struct uet_capture *cap);

/**
 * Bound the file: a frame that would take it past max_bytes is not written
 * and its write returns -EFBIG (logged once, naming the file and
 * records.MaxFileSize). 0: no limit (the default).
 */
void uet_capture_set_max_bytes(struct uet_capture *cap, uint64_t max_bytes);

/**
 * Open a pcap file for reading with nanosecond timestamps (files written
 * with microsecond precision are scaled by libpcap).
 *
 * @param readerp
 *   Set to the new reader.
 * @param path
 *   File to read.
 * @return
 *   0, or a negative errno (-EINVAL, -ENOMEM, -EIO when libpcap refuses the
 *   file).
 */
int uet_capture_reader_open(struct uet_capture_reader **readerp,
			    const char *path);

/**
 * Read the next frame.
 *
 * @param reader
 *   The reader.
 * @param frame
 *   Filled in when a frame is returned.
 * @return
 *   1 when a frame was read, 0 at the end of the file, or -EIO when the file
 *   is damaged.
 */
int uet_capture_reader_next(struct uet_capture_reader *reader,
			    struct uet_capture_frame *frame);

/**
 * Close the file and free the reader. NULL is accepted.
 *
 * @param reader
 *   The reader.
 */
void uet_capture_reader_close(struct uet_capture_reader *reader);

#endif /* UET_CAPTURE_H */
