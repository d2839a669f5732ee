/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rig of tests/fuzz/fuzz_nic.c (fuzz_nic_rig.c): two NICs and a
 * one-switch fabric wired in lockstep windows, the frames kept from the
 * links, the completions counted, frames injected.
 */
#ifndef FUZZ_NIC_H
#define FUZZ_NIC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "uet_fabric.h"
#include "uet_nic.h"
#include "uet_nic_params.h"
#include "uet_time.h"

#define FZ_HOSTS 2
#define FZ_POOL_MBUFS 16383u
/* Frames the input may inject, and their largest size. */
#define FZ_OPS_MAX 48u
#define FZ_FRAME_MAX 9216u
/* Most segments of an injected frame (a longer frame gets longer ones). */
#define FZ_SEGS_MAX 32u
/* Recent valid frames kept to be patched or replayed. */
#define FZ_KEPT 8u
/* A run stops here (virtual time) or after this many windows. */
#define FZ_END_PS (UINT64_C(20) * 1000 * 1000 * 1000)
#define FZ_WINDOWS_MAX 200000u
/* The scenarios an input runs on (fuzz_nic_rig.c). */
#define FZ_VARIANTS 5u

struct fz_variant {
	struct uet_nic_params p[FZ_HOSTS];
	struct uet_fabric_conf fc;
	uet_time_t lookahead_ps;
};

/* A valid frame seen on a link, as bytes. */
struct fz_kept {
	uint32_t len;
	uint8_t bytes[FZ_FRAME_MAX];
};

/* One message: what was posted and what the completions said. */
struct fz_msg {
	bool posted;
	uint32_t src, dst;
	uint64_t bytes;
	unsigned int sent, arrived, completed;
	uint64_t arrived_bytes;
};

struct fz_run {
	struct uet_nic *nic[FZ_HOSTS];
	struct uet_fabric *fab;
	struct uet_component *fc;
	uet_time_t t;			 /* the next window's start */
	uet_time_t last_in_ps[FZ_HOSTS]; /* latest arrival per switch port */
	uint16_t seg;			 /* injected frames' segment size */
	bool tainted;			 /* a UET frame was injected */
	bool data_to[FZ_HOSTS];		 /* a UET data frame for host h */
	bool pfc;			 /* a PFC frame was injected */
	struct fz_msg msg[2];
	struct fz_kept kept[FZ_KEPT];
	unsigned int nkept, next_kept;
};

extern struct fz_variant fz_var[FZ_VARIANTS];
extern struct fz_run fz;
/* FUZZ_NIC_TRACE set: every frame on the links and every arrival on
 * stderr (to read what a found input does). */
extern bool fz_trace;

#define FZ_CHECK(cond)                                                         \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "fuzz_nic: %s:%d: %s\n", __FILE__,     \
				__LINE__, #cond);                              \
			abort();                                               \
		}                                                              \
	} while (0)

/* EAL, the pool, the pattern and the scenarios' parameters, once. */
void fz_setup(void);
/* The models of a scenario, wired, at time 0. */
void fz_start(const struct fz_variant *var);
/* Message i from host src to the other host, bytes long, posted at at. */
void fz_post(unsigned int i, uint32_t src, uint64_t bytes, uet_time_t at);
/* Run the window [fz.t, fz.t + lookahead) and move fz.t to its end. */
void fz_run_window(const struct fz_variant *var);
/* The earliest pending event of the three models. */
uet_time_t fz_next_time(void);
/* Put len bytes on a link at fz.t, in an mbuf chain of fz.seg segments:
 * into NIC target (0, 1) or switch port target - 2 (2, 3). */
void fz_inject(unsigned int target, const uint8_t *bytes, uint32_t len);
/* Destroy the models; abort unless every mbuf is back in the pool. */
void fz_stop(void);

#endif /* FUZZ_NIC_H */
