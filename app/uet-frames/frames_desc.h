/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A catalog frame as lib/wire structs, between the catalog that describes
 * and builds it (frames_catalog.c) and the printer of what a decoder must
 * show (frames_expect.c).
 */
#ifndef FRAMES_DESC_H
#define FRAMES_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "frames_catalog.h"

/** Virtual arrival time written in the example lockstep trailer. */
#define EX_ARRIVAL_PS 1234567890123ull

enum frame_class { FC_UET, FC_PFC, FC_LOCKSTEP };

/* Everything needed to build a frame and to say what it holds. */
struct frame_desc {
	enum frame_class cls;
	struct uet_frame_addr addr;
	struct uet_pds_hdr pds;
	bool has_ses;
	struct uet_ses_hdr ses;
	uint32_t payload_bytes;
	uint32_t message_offset; /**< of the payload's first byte */
	int trim_role;		 /**< -1, or the role to trim to */
	bool trailer;		 /**< append the lockstep trailer */
	int role;		 /**< enum uet_dscp_role of the DSCP */
	struct uet_pfc pfc;
	struct uet_ls_ctrl ls;
};

/* Describe frame kind with options o; 0 or -EINVAL (no such kind). */
int frames_describe(unsigned int kind, const struct uet_frames_opts *o,
		    struct frame_desc *d);

#endif /* FRAMES_DESC_H */
