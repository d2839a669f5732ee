/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The catalog of frame kinds uet-frames emits: one builder per kind, each
 * writing the frame with lib/wire and, optionally, the fields a decoder must
 * find in it (the "expected" format of tests/wireshark/compare_fields.py).
 */
#ifndef UET_FRAMES_CATALOG_H
#define UET_FRAMES_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "uet_wire.h"

/** Largest payload a data frame may carry: a 9000-byte MTU less 88. */
#define UET_FRAMES_MAX_MSS_BYTES (9000u - UET_DATA_HDR_IP_BYTES)
/** Room for the largest frame, with a lockstep trailer. */
#define UET_FRAMES_BUF_BYTES 9216u

/** What a tester varies. */
struct uet_frames_opts {
	uint8_t src_mac[UET_ETH_ADDR_LEN];
	uint8_t dst_mac[UET_ETH_ADDR_LEN];
	uint32_t src_ip;	  /**< host order */
	uint32_t dst_ip;	  /**< host order */
	uint32_t psn;		  /**< PSN of the message's first packet */
	uint16_t spdcid;	  /**< the sender's PDC id */
	uint16_t dpdcid;	  /**< the receiver's PDC id */
	uint16_t entropy;	  /**< UDP source port of data packets */
	uint16_t udp_dport;	  /**< 4793 */
	uint32_t mss_bytes;	  /**< RdmaDataMSS */
	uint32_t message_bytes;	  /**< length of the example message */
	bool ack_request;	  /**< AR on data packets */
	bool trimmable;		  /**< first sends trimmable, not no-trim */
	struct uet_dscp_map dscp; /**< codepoints by role */
};

/**
 * Fill options with the defaults: hosts 0 and 1 of 198.18.0.0/15 and their
 * locally administered MACs, PSN 1000, PDCs 1 and 2, entropy 0xc000, UDP
 * port 4793, MSS 4096, a message of 3 x 4096 + 100 bytes, AR on, the
 * default codepoints.
 *
 * @param o
 *   Options to fill.
 */
void uet_frames_opts_default(struct uet_frames_opts *o);

/** @return the number of frame kinds. */
unsigned int uet_frames_kind_count(void);

/**
 * @param kind
 *   Index below uet_frames_kind_count().
 * @return
 *   The kind's short name ("data-first"), or NULL.
 */
const char *uet_frames_kind_name(unsigned int kind);

/**
 * @param kind
 *   Index below uet_frames_kind_count().
 * @return
 *   One line on what the kind is and who sends it, or NULL.
 */
const char *uet_frames_kind_doc(unsigned int kind);

/**
 * Build one frame of a kind.
 *
 * @param kind
 *   Index below uet_frames_kind_count().
 * @param o
 *   Options.
 * @param buf
 *   Destination, at least UET_FRAMES_BUF_BYTES.
 * @param cap
 *   Bytes available.
 * @return
 *   The frame length, or a negative errno.
 */
int uet_frames_build(unsigned int kind, const struct uet_frames_opts *o,
		     uint8_t *buf, size_t cap);

/**
 * Write the fields a decoder must show for one frame of a kind, as
 * "name = value" lines (no "frame N" header).
 *
 * @param kind
 *   Index below uet_frames_kind_count().
 * @param o
 *   Options the frame was built with.
 * @param f
 *   Where to write.
 * @return
 *   0, or -EINVAL for an unknown kind.
 */
int uet_frames_expect(unsigned int kind, const struct uet_frames_opts *o,
		      FILE *f);

#endif /* UET_FRAMES_CATALOG_H */
