/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * uet-transport-stats rows: every counter cumulative, then as ivl_<name>,
 * its increase since the same NIC's previous row, then the gauges. The
 * previous rows live in a table sorted by NIC address; it grows only when a
 * NIC writes its first row.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "record_private.h"

struct rec_stat_col {
	const char *name;
	size_t off; /**< offset of the uint64_t in uet_transport_stats */
};

#define REC_COL(n)                                                             \
	{                                                                      \
#n, offsetof(struct uet_transport_stats, n)                    \
	}

/* In the struct's order, which is the column order. */
static const struct rec_stat_col rec_counters[] = {
	REC_COL(msgs_posted),
	REC_COL(msgs_completed),
	REC_COL(msgs_arrived),
	REC_COL(pdcs_created),
	REC_COL(pdcs_closed),
	REC_COL(data_pkts_sent),
	REC_COL(data_payload_bytes_sent),
	REC_COL(retransmits),
	REC_COL(rto_expiries),
	REC_COL(acks_sent),
	REC_COL(acks_received),
	REC_COL(nacks_sent),
	REC_COL(nacks_received),
	REC_COL(probes_sent),
	REC_COL(probe_acks_received),
	REC_COL(data_pkts_received),
	REC_COL(data_payload_bytes_delivered),
	REC_COL(duplicates_received),
	REC_COL(ooo_events),
	REC_COL(trimmed_received),
	REC_COL(ingress_drops),
	REC_COL(malformed_frames),
	REC_COL(other_frames),
	REC_COL(stale_packets),
	REC_COL(own_source_frames),
	REC_COL(misfit_packets),
	REC_COL(pdc_exhausted),
	REC_COL(external_pdcs_refused),
	REC_COL(late_probe_acks),
	REC_COL(out_of_window_packets),
	REC_COL(late_closes),
	REC_COL(pcie_read_bytes),
	REC_COL(pcie_write_bytes),
};

static const struct rec_stat_col rec_gauges[] = {
	REC_COL(in_flight_bytes),
	REC_COL(egress_pool_used_bytes),
	REC_COL(ingress_pool_used_bytes),
	REC_COL(pdcs_open),
};

#define REC_N_COUNTERS (sizeof(rec_counters) / sizeof(rec_counters[0]))
#define REC_N_GAUGES (sizeof(rec_gauges) / sizeof(rec_gauges[0]))

/* A field added to the struct must get a column here too: every counter
 * of the struct is in the file. */
_Static_assert(sizeof(struct uet_transport_stats) ==
		       (REC_N_COUNTERS + REC_N_GAUGES) * sizeof(uint64_t),
	       "every field of uet_transport_stats needs a column");

static uint64_t rec_field(const struct uet_transport_stats *s, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)s + off, sizeof(v));
	return v;
}

int rec_stats_header(struct uet_record *rec)
{
	struct rec_line l;
	size_t i;

	rec_line_init(&l);
	rec_line_str(&l, "time_ps,nic");
	for (i = 0; i < REC_N_COUNTERS; i++) {
		rec_line_comma(&l);
		rec_line_str(&l, rec_counters[i].name);
	}
	for (i = 0; i < REC_N_COUNTERS; i++) {
		rec_line_str(&l, ",ivl_");
		rec_line_str(&l, rec_counters[i].name);
	}
	for (i = 0; i < REC_N_GAUGES; i++) {
		rec_line_comma(&l);
		rec_line_str(&l, rec_gauges[i].name);
	}
	return rec_line_write(rec, REC_STATS, &l);
}

/* Index of nic_ip in the sorted table, or where it would go. */
static size_t rec_nic_find(const struct uet_record *rec, uint32_t nic_ip)
{
	size_t lo = 0, hi = rec->n_nics;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rec->nics[mid].nic_ip < nic_ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The NIC's previous row; a NIC seen for the first time gets an all-zero
 * one, so its first ivl_ columns equal the cumulative ones. */
static struct rec_nic_prev *rec_nic_prev(struct uet_record *rec,
					 uint32_t nic_ip)
{
	size_t i = rec_nic_find(rec, nic_ip);

	if (i < rec->n_nics && rec->nics[i].nic_ip == nic_ip)
		return &rec->nics[i];
	if (rec->n_nics == rec->cap_nics) {
		/* A view writes for its one NIC: room for one at first. */
		size_t cap = rec->cap_nics != 0	   ? 2 * rec->cap_nics
			     : rec->parent != NULL ? 1
						   : 16;
		struct rec_nic_prev *n =
			realloc(rec->nics, cap * sizeof(*rec->nics));

		if (n == NULL)
			return NULL;
		rec->nics = n;
		rec->cap_nics = cap;
	}
	memmove(&rec->nics[i + 1], &rec->nics[i],
		(rec->n_nics - i) * sizeof(*rec->nics));
	rec->n_nics++;
	memset(&rec->nics[i], 0, sizeof(rec->nics[i]));
	rec->nics[i].nic_ip = nic_ip;
	return &rec->nics[i];
}

int uet_record_transport_stats(struct uet_record *rec, uet_time_t time_ps,
			       uint32_t nic_ip,
			       const struct uet_transport_stats *s)
{
	struct rec_nic_prev *p;
	struct rec_line l;
	size_t i;
	int rc;

	if (!uet_record_transport_stats_on(rec))
		return 0;
	if (s == NULL)
		return -EINVAL;
	p = rec_nic_prev(rec, nic_ip);
	if (p == NULL)
		return -ENOMEM;
	/* Counters only grow: a smaller one is the caller's mistake, and an
	 * ivl_ column that wrapped around would hide it. */
	for (i = 0; i < REC_N_COUNTERS; i++)
		if (rec_field(s, rec_counters[i].off) <
		    rec_field(&p->prev, rec_counters[i].off))
			return -EINVAL;

	rec_line_init(&l);
	rec_line_u64(&l, time_ps);
	rec_line_comma(&l);
	rec_line_ip(&l, nic_ip);
	for (i = 0; i < REC_N_COUNTERS; i++) {
		rec_line_comma(&l);
		rec_line_u64(&l, rec_field(s, rec_counters[i].off));
	}
	for (i = 0; i < REC_N_COUNTERS; i++) {
		rec_line_comma(&l);
		rec_line_u64(&l,
			     rec_field(s, rec_counters[i].off) -
				     rec_field(&p->prev, rec_counters[i].off));
	}
	for (i = 0; i < REC_N_GAUGES; i++) {
		rec_line_comma(&l);
		rec_line_u64(&l, rec_field(s, rec_gauges[i].off));
	}
	rc = rec_line_write(rec, REC_STATS, &l);
	if (rc == 0)
		p->prev = *s;
	return rc;
}
