/* SPDX-License-Identifier: BSD-3-Clause */
/* State of the record writer and the CSV line builder, lib/record only. */
#ifndef UET_RECORD_PRIVATE_H
#define UET_RECORD_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uet_outfile.h"
#include "uet_record.h"

/** The record files, in the order they are opened. */
enum rec_kind {
	REC_STATS = 0,
	REC_EVENTS,
	REC_MONITOR,
	REC_FLOWS,
	REC_WORKLOAD,
	REC_CC_TRACE,
	REC_WL_MESSAGES,
	REC_KIND_COUNT
};

/** Rows held per file (uet_outfile_rows_buffer): they reach the kernel
 * in large writes, each ending on a whole row. */
#define REC_ROWS_BUF_BYTES (1u << 20)

/**
 * Longest line any record writes: a stats row has 54 numbers of at most 20
 * digits and their commas, about 1150 bytes.
 */
#define REC_LINE_MAX_BYTES 2048

/** The previous stats row of one NIC, for its ivl_ columns. */
struct rec_nic_prev {
	uint32_t nic_ip; /**< host order; the table is sorted by it */
	struct uet_transport_stats prev; /**< last row written for it */
};

/**
 * What closing one file needs to know of its row order (record_order.c):
 * the keys of the last row written to it and whether a row ever had
 * lower keys than the one before it. A file written in order is not read
 * back at close.
 */
struct rec_order_track {
	uint64_t key1;	  /**< the last row's time_ps (or msg_id) */
	uint32_t key2;	  /**< the last row's nic, or 0 */
	bool header_done; /**< the first row (the header) went by */
	bool unordered;	  /**< a row came after one with higher keys */
};

/** Rows a view holds for one kind until it is flushed into its parent. */
struct rec_view_buf {
	char *bytes;
	size_t len, cap;
};

struct uet_record {
	struct uet_record_conf conf; /**< out_dir not kept (caller's) */
	/**
	 * NULL when the kind is off. A view shares its parent's pointers
	 * (so the *_on() tests agree) but never writes through them.
	 */
	FILE *f[REC_KIND_COUNT];
	/** The files behind f (written as NAME.partial, renamed at close),
	 * or NULL; a view has none. */
	struct uet_outfile *out[REC_KIND_COUNT];
	/** Bytes written to each file (not a view's). */
	uint64_t bytes[REC_KIND_COUNT];
	/** A view: the records its rows go to when flushed; else NULL. */
	struct uet_record *parent;
	/** A view: its rows since the last flush, by kind. */
	struct rec_view_buf view[REC_KIND_COUNT];
	/** A view: the bytes of view[] in all, so that a flush passes over a
	 * view without rows (most, every window) with one read. */
	size_t view_bytes;
	/** The order of the rows written to each file (not a view's). */
	struct rec_order_track order[REC_KIND_COUNT];
	/** Previous rows by NIC, sorted by nic_ip for a binary search. */
	struct rec_nic_prev *nics;
	size_t n_nics, cap_nics;
};

/** Give a view's buffer back (record_view.c): a window's rows only. */
void rec_view_buf_release(struct rec_view_buf *b);

/** Whether kind k's rows are ordered by (time_ps, nic) (record_order.c;
 * the others are flows.csv, by msg_id, and files kept as written). */
bool rec_order_by_time(enum rec_kind k);

/** Whether closing kind k's file puts it in order (the kinds of
 * uet_record_order(): the time-stamped ones and flows.csv). */
bool rec_order_kept(enum rec_kind k);

/**
 * Note whole rows (len bytes, each ending in a newline) just written to
 * file k of rec (not a view): the file's first row is its header, the
 * others are keyed as record_order.c sorts them.
 */
void rec_order_note_rows(struct uet_record *rec, enum rec_kind k,
			 const char *rows, size_t len);

/** Note one row of file k of rec by its keys (a row known not to be the
 * header). */
void rec_order_note_key(struct uet_record *rec, enum rec_kind k, uint64_t key1,
			uint32_t key2);

/**
 * Put the closed file at path (kind k) in its canonical row order when a
 * row was noted out of order; a file written in order is left unread.
 * @return 0 or a negative errno.
 */
int rec_order_closed(const struct uet_record *rec, enum rec_kind k,
		     const char *path);

/**
 * The keys of one row of len bytes (its first field and, by_time_nic,
 * its second as a dotted IPv4 number) that record_order.c sorts by. The
 * row need not be NUL-terminated past its newline.
 */
void rec_order_keys(const char *row, size_t len, bool by_time_nic,
		    uint64_t *key1, uint32_t *key2);

/** One CSV line built on the stack, then written with one fwrite. */
struct rec_line {
	size_t len;
	char buf[REC_LINE_MAX_BYTES];
};

void rec_line_init(struct rec_line *l);
void rec_line_str(struct rec_line *l, const char *s);
void rec_line_comma(struct rec_line *l);
void rec_line_u64(struct rec_line *l, uint64_t v);
/** A dotted IPv4 address from a host-order value. */
void rec_line_ip(struct rec_line *l, uint32_t ip);
/** 0x and 16 lower-case hex digits. */
void rec_line_hex64(struct rec_line *l, uint64_t v);
/** A time, or an empty cell for UET_TIME_NEVER. */
void rec_line_time(struct rec_line *l, uet_time_t t_ps);

/**
 * End the line and write it to a kind's file.
 * @return 0, or -EIO if the line did not fit or stdio failed.
 */
int rec_line_write(struct uet_record *rec, enum rec_kind k, struct rec_line *l);
/** Append a line to a view's buffer of kind k; 0 or -ENOMEM. */
int rec_view_append(struct uet_record *view, enum rec_kind k,
		    const struct rec_line *l);
/** Flush a view into its parent and free it (uet_record_close). */
int rec_view_close(struct uet_record *view);
/** The same to a file of its own (the switch records): its rows go out
 * whole (uet_outfile_put_rows). */
int rec_line_put(struct uet_outfile *o, struct rec_line *l);
/**
 * Note that writing o failed (errno tells why): logged once per file,
 * naming it. Returns the error (-errno).
 */
int rec_out_failed(struct uet_outfile *o);
/**
 * Account len more bytes of file k (rec is not a view): -EFBIG, logged once,
 * when they would take it past records.MaxFileSize; they are not to be
 * written then.
 */
int rec_room(struct uet_record *rec, enum rec_kind k, size_t len);

/** Header line of the transport-stats file. */
int rec_stats_header(struct uet_record *rec);

#endif /* UET_RECORD_PRIVATE_H */
