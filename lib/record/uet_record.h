/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Records of a run (the data-path page's "Records"): CSV files with a header
 * row, one file per record kind, in the run's output folder.
 *
 *   uet-transport-stats.csv  one row per NIC every NDStatsReportInterval:
 *                            cumulative columns and their ivl_ twins
 *   uet-events.csv           PDC created/closed, message posted, the three
 *                            completions
 *   uet-monitor.csv          one row per packet sent or received
 *   flows.csv                one row per message
 *
 * NICs are named by IPv4 address, PDCs by the NIC's address and the PDC
 * number. Model code fills the plain structs below; this library formats
 * and writes them, and keeps what the ivl_ columns need. docs/records.md
 * names every column and its unit.
 */
#ifndef UET_RECORD_H
#define UET_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uet_lateness.h"
#include "uet_time.h"

/**
 * Counters of one NIC, all PDCs combined. Every field is cumulative since
 * the start of the run, except the gauges at the end. The stats row prints
 * each counter twice: as is, and as ivl_<name>, its increase since the NIC's
 * previous row.
 */
struct uet_transport_stats {
	uint64_t msgs_posted;	 /**< messages the host posted */
	uint64_t msgs_completed; /**< sender completions (last ACK) */
	uint64_t msgs_arrived;	 /**< receiver: message arrived */
	uint64_t pdcs_created;	 /**< both sides */
	uint64_t pdcs_closed;
	uint64_t data_pkts_sent; /**< first transmissions and retransmissions */
	uint64_t data_payload_bytes_sent;
	uint64_t retransmits;  /**< data packets sent again */
	uint64_t rto_expiries; /**< timers that queued a retransmission */
	uint64_t acks_sent;
	uint64_t acks_received;
	uint64_t nacks_sent;
	uint64_t nacks_received;
	uint64_t probes_sent;
	uint64_t probe_acks_received;
	uint64_t data_pkts_received; /**< untrimmed data packets accepted */
	uint64_t data_payload_bytes_delivered; /**< new payload written to host
						*/
	uint64_t duplicates_received;
	uint64_t ooo_events; /**< packets beyond the next expected PSN */
	uint64_t trimmed_received;
	uint64_t ingress_drops;	   /**< receive pool full */
	uint64_t malformed_frames; /**< counted and dropped */
	/* Frames dropped for the other reasons, one counter per kind
	 * (docs/records.md): */
	uint64_t other_frames;	    /**< not UET to this NIC, nor PFC */
	uint64_t stale_packets;	    /**< for a PDC closed or not theirs */
	uint64_t own_source_frames; /**< UET frames from this NIC's address */
	uint64_t misfit_packets;    /**< payload outside their message */
	uint64_t pdc_exhausted;	    /**< no PDC number or memory for them */
	/** An external host's SYN packets beyond its bound of receiving
	 * sides. */
	uint64_t external_pdcs_refused;
	uint64_t late_probe_acks; /**< probe ACKs whose group had gone */
	/** Data packets beyond the receive window (or that could not be
	 * recorded for want of memory). */
	uint64_t out_of_window_packets;
	/** CLOSEs without AR for no side (it closed on its linger timer). */
	uint64_t late_closes;
	uint64_t pcie_read_bytes;  /**< payload fetched from host */
	uint64_t pcie_write_bytes; /**< payload written to host */
	/* gauges, printed once (no ivl_ twin): */
	uint64_t in_flight_bytes; /**< nominal bytes, all groups */
	uint64_t egress_pool_used_bytes;
	uint64_t ingress_pool_used_bytes;
	uint64_t pdcs_open;
};

/** Kinds of uet-events rows. */
enum uet_event_kind {
	UET_EV_PDC_CREATED = 0,
	UET_EV_PDC_CLOSED,
	UET_EV_MSG_POSTED,
	UET_EV_MSG_SENT,      /**< the sender's transmit completion */
	UET_EV_MSG_ARRIVED,   /**< the receiver: every byte arrived */
	UET_EV_MSG_COMPLETED, /**< the sender: last acknowledgement */
	UET_EV_KIND_COUNT
};

/** One uet-events row. */
struct uet_event_row {
	uet_time_t time_ps;
	uint32_t nic_ip;  /**< host order: the NIC writing the row */
	uint16_t pdc;	  /**< that NIC's PDC number */
	uint32_t peer_ip; /**< host order */
	uint64_t msg_id;  /**< scenario-wide message number */
	uint64_t bytes;	  /**< message size */
	enum uet_event_kind kind;
};

/** Kinds of packets in uet-monitor rows. */
enum uet_monitor_pkt {
	UET_MON_DATA = 0,
	UET_MON_ACK,
	UET_MON_NACK,
	UET_MON_PROBE,
	UET_MON_TRIMMED,
	UET_MON_PKT_COUNT
};

/** One uet-monitor row: a packet sent (tx) or received (rx) by a NIC. */
struct uet_monitor_row {
	uet_time_t time_ps;
	uint32_t nic_ip; /**< host order */
	uint16_t pdc;
	bool tx; /**< sent by this NIC, else received */
	enum uet_monitor_pkt pkt;
	uint32_t psn;	     /**< data/trimmed/NACK: the packet's PSN */
	bool ar;	     /**< ACK-request flag */
	bool retx;	     /**< retransmit flag */
	uint8_t dscp;	     /**< codepoint */
	uint16_t entropy;    /**< UDP source port */
	uint32_t wire_bytes; /**< size on the wire, FCS counted */
	/* ACK rows only: */
	uint32_t cack_psn;
	uint32_t sack_base_psn;
	uint64_t sack_bitmap;
	uint16_t service_time; /**< in 128 ns steps */
	/* NACK rows only: */
	uint8_t nack_code;
};

/** A msg_id with no scenario number (a message from an external host
 * that the scenario does not expect): written as an empty cell. */
#define UET_RECORD_MSG_ID_NONE UINT64_MAX
/** A flows.csv count nobody here knows (an external sender's timeouts):
 * written as an empty cell. */
#define UET_RECORD_COUNT_NONE UINT32_MAX

/** One flows.csv row: a message, written when its sender completes (or,
 * for a message from an external host, when the receiving NIC has it
 * whole: the sender's times are then UET_TIME_NEVER). */
struct uet_flow_row {
	uint64_t msg_id;
	uint32_t src_ip, dst_ip; /**< host order */
	uint16_t src_pdc, dst_pdc;
	uint64_t bytes;
	uint32_t packets;
	uet_time_t posted_ps;
	uet_time_t sent_ps;	 /**< transmit completion */
	uet_time_t arrived_ps;	 /**< receiver's arrival completion */
	uet_time_t completed_ps; /**< last acknowledgement */
	uint32_t retransmits;
	uint32_t trims; /**< trimmed packets NACKed */
	uint32_t nacks;
	uint32_t timeouts;
};

/** One uet-cc-trace.csv row: a group's congestion state after an event
 * that moved its window (or set a new reason). */
struct uet_cc_trace_row {
	uet_time_t time_ps;
	uint32_t nic_ip;	  /**< host order: the NIC of the group */
	uint32_t peer_ip;	  /**< host order: the group's remote NIC */
	const char *event;	  /**< ack, probe, trim, timeout */
	const char *reason;	  /**< why the window moved (uet_cc) */
	uint64_t window_bytes;	  /**< nominal bytes, after the event */
	uint64_t in_flight_bytes; /**< the group's, nominal bytes */
	uet_time_t base_rtt_ps;	  /**< the group's base RTT estimate */
	uet_time_t delay_ps;	  /**< queueing delay of the last sample */
};

/** One workload.csv row: a rank's whole trace, or one of its collectives. */
struct uet_workload_row {
	uint32_t rank;	     /**< host index */
	bool collective;     /**< false: the rank's trace */
	uint32_t coll;	     /**< collective: its index in the rank's trace */
	const char *name;    /**< collective: the trace node's name */
	const char *type;    /**< collective: "all_reduce", ... */
	uint64_t bytes;	     /**< collective: comm_size */
	uet_time_t begin_ps; /**< ready (collective) or 0 (trace) */
	uet_time_t end_ps;   /**< finished, or UET_TIME_NEVER */
};

/** One workload-messages.csv row: a message of a workload program. */
struct uet_wl_message_row {
	uint64_t msg_id;       /**< run-wide message number */
	uint32_t src_rank;     /**< sending host index */
	uint32_t dst_rank;     /**< receiving host index */
	uint64_t bytes;	       /**< size */
	uint64_t origin;       /**< matrix line, generated index, node id */
	uet_time_t posted_ps;  /**< the host posted it */
	uet_time_t sent_ps;    /**< SENT at the source, or UET_TIME_NEVER */
	uet_time_t arrived_ps; /**< ARRIVED at the destination, or NEVER */
};

/** Which records a run writes (the scenario's records: section). */
struct uet_record_conf {
	const char *out_dir;	      /**< created if missing */
	bool transport_stats;	      /**< EnableTransportStats */
	uet_time_t stats_interval_ps; /**< NDStatsReportInterval */
	bool events;		      /**< EnableEventLogging */
	bool monitor;		      /**< EnableUetMonitor */
	bool flows;		      /**< EnableFlowSummary */
	bool workload;		      /**< workload.csv and
				       * workload-messages.csv (a program) */
	bool cc_trace;		      /**< uet-cc-trace.csv (EnableCcTrace) */
	/** records.MaxFileSize: a row that would take a file past it is
	 * not written, and the write fails with -EFBIG; 0: no limit. */
	uint64_t max_file_bytes;
};

struct uet_record;

/**
 * Open the record files of a run (headers written at once). Creates
 * c->out_dir and its parents if missing, then one file per enabled kind
 * (an existing file is truncated; files of disabled kinds are not touched).
 * @param recp  out: the writer; NULL on error.
 * @param c     copied; c->out_dir is used only during the call.
 * @return 0, or a negative errno: -EINVAL for a NULL argument or an empty
 *   out_dir, -ENOTDIR when a file is in the way, -EACCES etc. when the
 *   folder or a file cannot be created.
 */
int uet_record_open(struct uet_record **recp, const struct uet_record_conf *c);

/** Flush and close every file (a view: flush it into its parent and free
 * it; close the views before their parent); safe on NULL. @return 0 or
 * -EIO. */
int uet_record_close(struct uet_record *rec);

/** uet_record_close(), then each file whose rows were not written in
 * their canonical order (uet_record_order()) sorted; a file written in
 * order is not read again. For the records a run leaves. @return 0 or a
 * negative errno (the first failure). */
int uet_record_close_in_order(struct uet_record *rec);

/** Put the closed records in out_dir in their canonical row order
 * (docs/records.md, "Row order"): the time-stamped ones by (time_ps, nic),
 * flows.csv by msg_id, stably; files absent are skipped (record_order.c).
 * Each file is read through; one in order is left as it is. For files
 * written elsewhere: uet_record_close_in_order() orders its own.
 * @return 0 or a negative errno (the first failure). */
int uet_record_order(const char *out_dir);

/**
 * A view of the records for one writer (one NIC): the same row functions
 * take it, but its rows wait in memory until uet_record_view_flush()
 * appends them to the parent's files. Writers on several lcores each
 * write their own view, and the wiring flushes the views in a fixed order
 * (host order) at every window boundary, so the files hold the rows in
 * the order a single thread would have written them. A view also keeps
 * its own previous stats rows (the ivl_ columns), so it must carry the
 * rows of the same NICs for the whole run.
 *
 * @param viewp
 *   Set to the new view.
 * @param parent
 *   The open records (not a view). Must outlive the view.
 * @return
 *   0, -EINVAL, -ENOMEM.
 */
int uet_record_view_create(struct uet_record **viewp,
			   struct uet_record *parent);

/**
 * Append a view's rows to its parent's files, in the order they were
 * written, and empty it. Not thread-safe with respect to the parent: call
 * it from one thread at a time.
 *
 * @return
 *   0, or -EIO when a file could not take them.
 */
int uet_record_view_flush(struct uet_record *view);

/**
 * Append the rows of several views of one parent (a window's rows of the
 * NICs, views in host order) to its files, and empty them: the
 * time-stamped kinds merged in their canonical row order, (time_ps, nic),
 * rows of one key in the order the views hold them; the others view after
 * view (record_merge.c). The same rows as uet_record_view_flush() of each
 * in turn, in the order uet_record_order() would give them. Not
 * thread-safe with respect to the parent.
 *
 * @return
 *   0; -EINVAL (views NULL, or not all views of one parent); -ENOMEM;
 *   -EFBIG (records.MaxFileSize reached); -EIO when a file could not take them.
 *   The views are emptied in every case.
 */
int uet_record_views_flush(struct uet_record *const *views, uint32_t n_views);

/** Bytes of rows a view holds (0: none to flush or export). */
size_t uet_record_view_bytes(const struct uet_record *view);

/**
 * The rows a view holds, every kind's, as one block of bytes (appended to
 * @p dst, which grows), the view emptied: how a process that runs some of
 * the NICs hands their window's rows to the process that writes the files
 * (uet-emu-mpi's ranks, docs/lockstep.md). The block is opaque: only
 * uet_record_view_import() of a view of the same records reads it.
 *
 * @return
 *   0, -EINVAL (not a view), -ENOMEM (@p dst could not grow; the view
 *   keeps its rows).
 */
int uet_record_view_export(struct uet_record *view, uint8_t **dst, size_t *len,
			   size_t *cap);

/**
 * Append a block of uet_record_view_export() to a view's rows, as if its
 * writer had written them here. *used is set to the block's bytes.
 *
 * @return
 *   0, -EBADMSG (not such a block, or cut short), -ENOMEM.
 */
int uet_record_view_import(struct uet_record *view, const uint8_t *src,
			   size_t len, size_t *used);

/** Flush every file now (records written so far are complete files). */
int uet_record_flush(struct uet_record *rec);

/** @return whether a kind is enabled (callers skip work when it is not);
 * false for a NULL rec. */
bool uet_record_monitor_on(const struct uet_record *rec);
bool uet_record_transport_stats_on(const struct uet_record *rec);
bool uet_record_events_on(const struct uet_record *rec);
bool uet_record_flows_on(const struct uet_record *rec);
bool uet_record_workload_on(const struct uet_record *rec);
bool uet_record_cc_trace_on(const struct uet_record *rec);

/** The conf's stats_interval_ps, kept for the caller that schedules the
 * stats rows (this library writes a row when asked); 0 for a NULL rec. */
uet_time_t uet_record_stats_interval_ps(const struct uet_record *rec);

/*
 * Row writers: each call appends one line, in call order. A kind that is
 * off (or a NULL rec) writes nothing and returns 0, so callers need no
 * check of their own. They return 0, -EINVAL for a NULL row or a kind out
 * of range, or -EIO when stdio fails.
 */

/**
 * Write one uet-transport-stats row for a NIC. ivl_ columns are computed
 * against the previous row written for the same nic_ip (all zero for its
 * first row). @return as above, also -EINVAL (nothing written) if a counter
 * is below its value in the NIC's previous row, -ENOMEM.
 */
int uet_record_transport_stats(struct uet_record *rec, uet_time_t time_ps,
			       uint32_t nic_ip,
			       const struct uet_transport_stats *s);

int uet_record_event(struct uet_record *rec, const struct uet_event_row *r);
int uet_record_monitor(struct uet_record *rec, const struct uet_monitor_row *r);
int uet_record_flow(struct uet_record *rec, const struct uet_flow_row *r);
/** A workload.csv row; name and type may be NULL (empty cells); any
 * character of name other than letters, digits and _ . / : - is written
 * as _, so a cell never needs quoting. */
int uet_record_workload(struct uet_record *rec,
			const struct uet_workload_row *r);

/** A workload-messages.csv row (written with workload.csv); duration_ps
 * is arrived_ps - posted_ps, empty when it never arrived. */
int uet_record_wl_message(struct uet_record *rec,
			  const struct uet_wl_message_row *r);

/** A uet-cc-trace.csv row; nothing is written when the kind is off. */
int uet_record_cc_trace(struct uet_record *rec,
			const struct uet_cc_trace_row *r);

/** One row of uet-realtime.csv: a component of a realtime run. */
struct uet_realtime_row {
	const char *component;	    /**< "switch", or the NIC's address */
	uint64_t events;	    /**< events run */
	uint64_t frames_rx;	    /**< frames received and delivered */
	uint64_t frames_tx;	    /**< frames sent */
	uint64_t foreign_frames;    /**< frames not for the model, dropped */
	uet_time_t tx_late_mean_ps; /**< ps, mean delay of frames leaving */
	uet_time_t tx_late_max_ps;  /**< ps, largest such delay */
	const struct uet_lateness *lateness; /**< how late events ran */
};

/**
 * Write uet-realtime.csv (docs/records.md): a header and one row per
 * component, then close it. Independent of uet_record_open(): a realtime
 * run writes it once, at its end.
 *
 * @param path
 *   The file, truncated.
 * @return
 *   0, -EINVAL, or a negative errno from creating or writing the file.
 */
int uet_record_realtime_write(const char *path,
			      const struct uet_realtime_row *rows, uint32_t n);

/*
 * The switch records (docs/records.md): switch-stats.csv and
 * switch-occupancy.csv. Files of their own, independent of
 * uet_record_open(): the process running the switch may host no NIC.
 */
struct uet_record_file;

/** One switch-stats.csv row: a traffic class of a switch port. */
struct uet_switch_stats_row {
	uet_time_t time_ps; /**< the end of the run */
	const char *switch_name;
	uint32_t port;
	const char *link;
	const char *peer_switch; /**< "" for a host's link */
	bool link_down;
	uint64_t rate_bps; /**< the link's rate now */
	uint32_t tc;
	uint64_t enq_frames, enq_bytes;
	uint64_t drop_frames, drop_bytes;
	uint64_t trim_frames, ecn_frames;
	uint64_t down_drop_frames, down_drop_bytes;
	uint64_t paused_ps;
	uint64_t peak_queue_bytes, mean_queue_bytes;
	/** Whether the row carries its port's rx_drop_ columns (the class 0
	 * row does; the others leave those cells empty): frames received on
	 * the port and dropped before any queue, per port, not per class. */
	bool has_rx_drops;
	uint64_t rx_drop_route_frames; /**< not IPv4, or no host there */
	uint64_t
		rx_drop_control_frames; /**< MAC or lockstep control, not PFC */
	uint64_t rx_drop_source_frames; /**< an external host's, spoofed */
	uint64_t rx_drop_lost_frames;	/**< an external host's, lost on
					 * purpose */
	uint64_t rx_drop_random_frames; /**< switch.drop_rate */
};

/** One switch-occupancy.csv row: a port's queues at a sample time. */
struct uet_switch_occ_row {
	uet_time_t time_ps;
	const char *switch_name;
	uint32_t port;
	const char *link;
	uint64_t queue_bytes;	  /**< every class */
	const uint64_t *tc_bytes; /**< per class, as many as the file has */
};

/**
 * Create a switch record file (truncated) and write its header:
 * switch-stats.csv, or switch-occupancy.csv with n_tcs class columns.
 *
 * @param fp
 *   Out: the file; NULL on error.
 * @return
 *   0, -EINVAL, -ENOMEM, or a negative errno from creating or writing it.
 */
int uet_record_switch_stats_open(struct uet_record_file **fp, const char *path);
int uet_record_switch_occ_open(struct uet_record_file **fp, const char *path,
			       unsigned int n_tcs);

/** Append a row. @return 0, -EINVAL, or -EIO. */
int uet_record_switch_stats(struct uet_record_file *f,
			    const struct uet_switch_stats_row *r);
int uet_record_switch_occ(struct uet_record_file *f,
			  const struct uet_switch_occ_row *r);

/** Close and free; NULL is accepted. @return 0, or -EIO if a write
 * failed. */
int uet_record_file_close(struct uet_record_file *f);

/** Names used in the CSVs ("pdc_created", "data", ...). */
const char *uet_event_kind_name(enum uet_event_kind k);
const char *uet_monitor_pkt_name(enum uet_monitor_pkt p);

#endif /* UET_RECORD_H */
