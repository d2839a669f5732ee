/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The PCIe link between an emulated NIC and its host, as a deterministic
 * function of virtual time.
 *
 * Two directions, each a serial server that carries TLPs in call order:
 * NIC-to-host (read requests, posted writes of received payload) and
 * host-to-NIC (read completions). The model holds no event queue: every call
 * returns the virtual times at which its effects happen, and the caller
 * schedules its own events at those times. Calls must come with
 * non-decreasing issue times. See docs/pcie-model.md.
 */
#ifndef UET_PCIE_H
#define UET_PCIE_H

#include <stdint.h>

#include "uet_packet_sizes.h"
#include "uet_time.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Parameters of one PCIe link. */
struct uet_pcie_params {
	/** Rate of one lane, bits/s (payload rate after encoding). */
	uint64_t lane_bps;
	/** Number of lanes; the link rate is lane_bps * lane_count. */
	uint32_t lane_count;
	/** Largest payload one TLP carries, bytes; longer transfers split. */
	uint32_t max_payload_bytes;
	/** Bytes each TLP adds to its payload on the link (headers). */
	uint32_t tlp_overhead_bytes;
	/**
	 * Size of the NIC-side transmit buffer that holds posted writes
	 * waiting for the NIC-to-host direction, bytes as on the link
	 * (payload plus TLP overhead).
	 */
	uint32_t write_buffer_bytes;
	/** Size of a read request on the link before TLP overhead, bytes. */
	uint32_t read_request_bytes;
};

/** Default lane rate: 31.52 Gbps. */
#define UET_PCIE_DEFAULT_LANE_BPS 31520000000ULL
/** Default lane count. */
#define UET_PCIE_DEFAULT_LANE_COUNT 16
/** Default maximum TLP payload, bytes. */
#define UET_PCIE_DEFAULT_MAX_PAYLOAD_BYTES 512
/** Default per-TLP overhead, bytes. */
#define UET_PCIE_DEFAULT_TLP_OVERHEAD_BYTES 34
/** Default NIC-side write transmit buffer, bytes (16 KiB). */
#define UET_PCIE_DEFAULT_WRITE_BUFFER_BYTES 16384
/** Default read request size, bytes: the page's 64-byte request. */
#define UET_PCIE_DEFAULT_READ_REQUEST_BYTES UET_READ_REQUEST_BYTES

/** Initialiser for struct uet_pcie_params with the defaults. */
#define UET_PCIE_PARAMS_DEFAULTS                                               \
	{                                                                      \
		.lane_bps = UET_PCIE_DEFAULT_LANE_BPS,                         \
		.lane_count = UET_PCIE_DEFAULT_LANE_COUNT,                     \
		.max_payload_bytes = UET_PCIE_DEFAULT_MAX_PAYLOAD_BYTES,       \
		.tlp_overhead_bytes = UET_PCIE_DEFAULT_TLP_OVERHEAD_BYTES,     \
		.write_buffer_bytes = UET_PCIE_DEFAULT_WRITE_BUFFER_BYTES,     \
		.read_request_bytes = UET_PCIE_DEFAULT_READ_REQUEST_BYTES,     \
	}

/** The two directions of the link. */
enum uet_pcie_dir {
	/** NIC to host: read requests and posted writes. */
	UET_PCIE_NIC_TO_HOST = 0,
	/** Host to NIC: read completions. */
	UET_PCIE_HOST_TO_NIC = 1,
	/** Number of directions. */
	UET_PCIE_DIR_COUNT = 2,
};

/** Counters of one direction, cumulative since uet_pcie_init(). */
struct uet_pcie_dir_stats {
	/** Bytes on the link, payload plus TLP overhead. */
	uint64_t link_bytes;
	/** Payload bytes (read requests count their request bytes). */
	uint64_t payload_bytes;
	/** TLPs sent. */
	uint64_t tlps;
	/** ps the direction spent sending. */
	uet_time_t busy_ps;
};

/** One posted write held in the NIC-side transmit buffer. */
struct uet_pcie_write_slot {
	/** ps, virtual time its last TLP leaves the NIC. */
	uet_time_t done_ps;
	/** Bytes it holds in the buffer, as on the link. */
	uint64_t link_bytes;
};

/**
 * State of one PCIe link. Embed it in its owner; initialise with
 * uet_pcie_init() and release with uet_pcie_fini(). Not thread-safe: one
 * owner drives it.
 */
struct uet_pcie {
	/** Parameters, copied at init. */
	struct uet_pcie_params params;
	/** ps, virtual time each direction finishes its last TLP. */
	uet_time_t free_ps[UET_PCIE_DIR_COUNT];
	/** Counters per direction. */
	struct uet_pcie_dir_stats stats[UET_PCIE_DIR_COUNT];
	/** ps, issue time of the last call; issue times never go back. */
	uet_time_t last_issue_ps;
	/** Ring of writes in the transmit buffer, oldest at head. */
	struct uet_pcie_write_slot *ring;
	/**
	 * Slots in ring. It grows on demand and never beyond
	 * write_buffer_bytes / (tlp_overhead_bytes + 1), the most writes
	 * the buffer can hold at once.
	 */
	uint32_t ring_slots;
	/** Index of the oldest write in ring. */
	uint32_t ring_head;
	/** Writes in ring. */
	uint32_t ring_count;
	/** Bytes the writes in ring hold, as on the link. */
	uint64_t buffered_bytes;
};

/**
 * Check a parameter set.
 *
 * @param params
 *   Parameters to check.
 * @return
 *   0 if usable; -EINVAL if a rate, count or size is zero, or the write
 *   buffer cannot hold one full TLP.
 */
int uet_pcie_params_check(const struct uet_pcie_params *params);

/**
 * Bytes a transfer occupies on the link: its payload split into TLPs of at
 * most max_payload_bytes, each with tlp_overhead_bytes added.
 *
 * @param params
 *   Link parameters.
 * @param payload_bytes
 *   Payload of the transfer; 0 gives 0.
 * @return
 *   Bytes on the link.
 */
uint64_t uet_pcie_link_bytes(const struct uet_pcie_params *params,
			     uint64_t payload_bytes);

/**
 * Time to send bytes at the link's full rate, rounded up to a ps:
 * ceil(bytes * 8 * 10^12 / (lane_bps * lane_count)).
 *
 * @param params
 *   Link parameters.
 * @param bytes
 *   Bytes on the link.
 * @return
 *   ps; UINT64_MAX if the result does not fit.
 */
uet_time_t uet_pcie_serialization_ps(const struct uet_pcie_params *params,
				     uint64_t bytes);

/**
 * Time one transfer of payload_bytes takes on one direction of an idle link
 * (its TLPs back to back, rounded once).
 *
 * @param params
 *   Link parameters.
 * @param payload_bytes
 *   Payload of the transfer.
 * @return
 *   ps.
 */
uet_time_t uet_pcie_transfer_ps(const struct uet_pcie_params *params,
				uint64_t payload_bytes);

/**
 * The receiver's ACK hold: its estimate of how long the acknowledged packet
 * takes to reach host memory, the bytes at the link's raw rate with no TLP
 * overhead, rounded up to a ps.
 *
 * @param params
 *   The receiver's link parameters.
 * @param bytes
 *   Bytes waiting in the data class's receive pool plus this packet's
 *   IP size.
 * @return
 *   ps.
 */
uet_time_t uet_pcie_ack_hold_ps(const struct uet_pcie_params *params,
				uint64_t bytes);

/**
 * Initialise a link: both directions idle at time 0, counters zero, an
 * empty write buffer.
 *
 * @param pcie
 *   State to initialise.
 * @param params
 *   Parameters; NULL for the defaults.
 * @return
 *   0; -EINVAL for bad parameters or a NULL pcie; -ENOMEM.
 */
int uet_pcie_init(struct uet_pcie *pcie, const struct uet_pcie_params *params);

/**
 * Release what uet_pcie_init() allocated. Safe on a zeroed or already
 * released state.
 *
 * @param pcie
 *   Link state.
 */
void uet_pcie_fini(struct uet_pcie *pcie);

/**
 * Fetch payload from host memory: one read request on NIC-to-host, then the
 * completion on host-to-NIC once the request has arrived and the direction
 * is free. Host memory answers at once. A zero-byte read fetches nothing
 * and costs no link time.
 *
 * @param pcie
 *   Link state.
 * @param issue_ps
 *   Virtual time the NIC issues the read; not before the previous call's.
 * @param payload_bytes
 *   Bytes to fetch.
 * @param arrival_ps
 *   Out: virtual time the completion's last byte reaches the NIC.
 * @return
 *   0; -EINVAL if an argument is NULL or issue_ps goes back in time.
 */
int uet_pcie_read(struct uet_pcie *pcie, uet_time_t issue_ps,
		  uint32_t payload_bytes, uet_time_t *arrival_ps);

/**
 * Write received payload to host memory as posted writes on NIC-to-host.
 * The write waits for room in the NIC-side transmit buffer, holds its link
 * bytes there from acceptance until its last TLP leaves, and is sent after
 * everything queued on NIC-to-host before it. A zero-byte write is accepted
 * and done at issue_ps with no link traffic.
 *
 * @param pcie
 *   Link state.
 * @param issue_ps
 *   Virtual time the NIC has the payload; not before the previous call's.
 * @param payload_bytes
 *   Bytes to write.
 * @param accepted_ps
 *   Out: virtual time the buffer accepts it (the receive pool may release
 *   the packet then).
 * @param done_ps
 *   Out: virtual time its last TLP leaves the NIC. May be NULL.
 * @return
 *   0; -EINVAL if an argument is NULL or issue_ps goes back in time;
 *   -EMSGSIZE if the write is larger than the whole buffer; -ENOMEM.
 */
int uet_pcie_write(struct uet_pcie *pcie, uet_time_t issue_ps,
		   uint32_t payload_bytes, uet_time_t *accepted_ps,
		   uet_time_t *done_ps);

/**
 * Bytes the write transmit buffer holds at a time, as on the link.
 *
 * @param pcie
 *   Link state.
 * @param now_ps
 *   Virtual time, not before the last call's issue time.
 * @return
 *   Bytes held by writes accepted and not yet sent at now_ps.
 */
uint64_t uet_pcie_write_buffer_used(const struct uet_pcie *pcie,
				    uet_time_t now_ps);

/**
 * Virtual time a direction becomes free.
 *
 * @param pcie
 *   Link state.
 * @param dir
 *   Direction.
 * @return
 *   ps; 0 for an unknown direction.
 */
uet_time_t uet_pcie_free_ps(const struct uet_pcie *pcie, enum uet_pcie_dir dir);

/**
 * Counters of a direction.
 *
 * @param pcie
 *   Link state.
 * @param dir
 *   Direction.
 * @param stats
 *   Out: a copy of the counters.
 * @return
 *   0; -EINVAL for an unknown direction or a NULL pointer.
 */
int uet_pcie_stats_get(const struct uet_pcie *pcie, enum uet_pcie_dir dir,
		       struct uet_pcie_dir_stats *stats);

#ifdef __cplusplus
}
#endif

#endif /* UET_PCIE_H */
