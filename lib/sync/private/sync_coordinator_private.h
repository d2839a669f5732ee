/* SPDX-License-Identifier: BSD-3-Clause */
/* The coordinator's state, shared by its port side (sync_coordinator.c:
 * frames in and out, the poll) and its window side
 * (sync_coordinator_window.c: the engine's ops). */
#ifndef SYNC_COORDINATOR_PRIVATE_H
#define SYNC_COORDINATOR_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>

#include "sync_engine.h"
#include "sync_private.h"
#include "sync_team.h"
#include "uet_sync_ports.h"
#include "uet_xring.h"

/** Where the coordinator is in the run. */
enum co_state {
	CO_HELLO,    /**< waiting for HELLO from every NIC */
	CO_WAIT,     /**< window granted, waiting for every DONE */
	CO_BYE_WAIT, /**< BYE sent, waiting for every NIC's BYE */
	CO_FINISHED,
	CO_FAILED,
};

/** One port, one NIC behind it. */
struct co_port {
	struct uet_port *port;
	uint8_t mac[UET_ETH_ADDR_LEN];	    /**< the port's own */
	uint8_t peer_mac[UET_ETH_ADDR_LEN]; /**< the NIC's, from HELLO */
	bool hello;			    /**< HELLO received */
	bool done;			    /**< DONE of this window received */
	bool bye;			    /**< BYE received */
	uint16_t nic_id;		    /**< from HELLO */
	uint32_t ipv4;			    /**< from HELLO, host order */
	uint32_t tx_seq;		    /**< next control seq to send */
	uint32_t rx_seq;		    /**< last control seq received */
	uint32_t data_tx_since_grant;	    /**< data frames since GRANT */
	uint32_t data_rx_window;	    /**< data frames this window */
	uet_time_t next_event_ps;	    /**< from the last DONE */
	uint64_t heard_ns;		    /**< wall ns of the last frame */
	struct sync_txq txq;
	bool wants_notes;	 /**< HELLO asked for the window notes */
	struct sync_bytes notes; /**< its NOTES of the window under way */
	struct uet_sync_port_drops drops; /**< frames not for this run */
};

/**
 * What the switch's parts note as they send in a window, one lane per
 * lcore that runs them (sync_coordinator_out.c), merged after it.
 */
struct co_lane {
	uet_time_t min_sent_ps;	 /**< earliest arrival sent */
	uint64_t data_frames_tx; /**< frames sent */
	int fail_err;		 /**< first failure, 0: none */
	uint32_t fail_step;	 /**< its sync_team_step() */
	uint32_t fail_code;	 /**< enum uet_ls_abort_code */
	char fail_text[UET_SYNC_ERROR_BYTES];
} __rte_cache_aligned;

struct uet_sync_coordinator {
	struct uet_sync_coordinator_conf conf;
	struct co_port *ports;
	struct sync_team *team; /**< the switch's lcores, NULL: this one */
	struct co_lane *lanes;	/**< one per lcore of the team */
	uint32_t n_lanes;
	struct sync_engine eng;
	enum co_state state;
	uint64_t run_id;
	uint64_t nonce;
	uet_time_t window_start_ps; /**< T of the current window */
	uet_time_t window_end_ps;   /**< T' of the current window */
	uet_time_t min_sent_ps;	    /**< earliest arrival sent this window */
	/** This window's received data frames, in the order they came:
	 * port = the NIC's port, order = their place on it. */
	struct uet_xframe *frames;
	struct uet_xframe *frames_tmp; /**< the sort's scratch */
	uint32_t n_frames;
	uint32_t cap_frames;
	uint64_t start_ns;    /**< wall ns of the first poll */
	uint64_t poll_ns;     /**< wall ns of the poll under way: what
			       * the waits are measured from */
	uint64_t run_ns;      /**< wall ns of the first GRANT, 0 before */
	uint64_t progress_ns; /**< wall ns of the last progress call */
	/** Bytes of NOTES of the window under way, all ports. */
	size_t notes_window_bytes;
	/** The window's notes joined in port order (co_notes_pass()). */
	struct sync_bytes notes_all;
	struct uet_sync_stats stats;
	struct sync_error error;
};

/** "nic 3 (198.18.0.4) on port ring_l3a", for messages. */
const char *co_who(const struct co_port *p, char *buf, size_t len);

/** Stop the run: drop what is queued, tell every NIC, remember why. */
int co_fail(struct uet_sync_coordinator *c, int err, uint32_t code,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/** Queue a control frame for port p (its ids and sequence filled in). */
int co_send_ctrl(struct uet_sync_coordinator *c, struct co_port *p,
		 struct uet_ls_ctrl *ctrl);

/** The switch component's out hook: trailer, the port's queue, the
 * calling lcore's lane. */
int co_out(void *ctx, uint32_t port, struct rte_mbuf *m, uet_time_t arrival_ps);

/** Empty the lanes, as a window of the switch starts. */
void co_lanes_reset(struct uet_sync_coordinator *c);

/** Merge the lanes once the switch's window ran: min_sent_ps, the frames'
 * count, and the first failure (co_fail()), whose error it returns. */
int co_lanes_merge(struct uet_sync_coordinator *c);

/** A NOTES frame from port p: check it (the window under way, before the
 * port's DONE, the bound), keep its bytes. 0 or the error. */
int co_rx_notes(struct uet_sync_coordinator *c, struct co_port *p,
		const struct uet_ls_ctrl *h);

/** Every DONE of the window is in: join the ports' notes in port order,
 * hand them to conf.notes_in_fn, queue them as NOTES to every port that
 * asked (none when the window had none). 0 or the error. */
int co_notes_pass(struct uet_sync_coordinator *c);

/** Free the notes' buffers. */
void co_notes_fini(struct uet_sync_coordinator *c);

/** The engine's ops over ports, the coordinator's side. */
extern const struct sync_transport_ops co_transport_ops;

#endif /* SYNC_COORDINATOR_PRIVATE_H */
