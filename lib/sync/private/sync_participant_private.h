/* SPDX-License-Identifier: BSD-3-Clause */
/* The participant's state, shared by its port side (sync_participant.c:
 * frames in and out, the poll) and its window side
 * (sync_participant_window.c: the engine's ops, as a follower). */
#ifndef SYNC_PARTICIPANT_PRIVATE_H
#define SYNC_PARTICIPANT_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "sync_engine.h"
#include "sync_private.h"
#include "uet_sync_ports.h"

/** Where the participant is in the run. */
enum pa_state {
	PA_START,	 /**< nothing sent yet */
	PA_WAIT_WELCOME, /**< HELLO sent */
	PA_RUN,		 /**< welcomed: windows */
	PA_BYE_FLUSH,	 /**< BYE answered, frames still going out */
	PA_FINISHED,
	PA_FAILED,
};

struct uet_sync_participant {
	struct uet_sync_participant_conf conf;
	struct sync_engine eng;
	enum pa_state state;
	uint8_t switch_mac[UET_ETH_ADDR_LEN]; /**< from WELCOME's source */
	uint64_t run_id;
	uint64_t nonce;
	uet_time_t lookahead_ps;
	uet_time_t next_start_ps;     /**< T the next GRANT must carry */
	uet_time_t window_end_ps;     /**< T' of the window run last */
	uint32_t tx_seq;	      /**< next control seq to send */
	uint32_t rx_seq;	      /**< last control seq received */
	uint32_t data_rx_since_grant; /**< data frames since the GRANT */
	uint32_t data_tx_window;      /**< data frames sent since DONE */
	/* The agreement the switch sent: a GRANT's window, or BYE. */
	bool granted;
	bool bye;
	bool done_sent; /**< DONE of the window run last is queued */
	uet_time_t grant_start_ps, grant_end_ps;
	uint64_t hello_ns; /**< wall ns of the last HELLO */
	uint64_t heard_ns; /**< wall ns of the last frame received */
	uint64_t run_ns;   /**< wall ns WELCOME came, 0 before */
	uint64_t model_ns; /**< wall ns in the component so far */
	struct sync_txq txq;
	/** The switch's NOTES of the window run last, joined, until the
	 * next GRANT (or BYE) hands them over. */
	struct sync_bytes notes_in;
	struct uet_sync_port_drops drops; /**< frames not for this run */
	struct uet_sync_stats stats;
	struct sync_error error;
};

/** Queue a control frame to the switch (ids and sequence filled in). */
int pa_send_ctrl(struct uet_sync_participant *p, struct uet_ls_ctrl *ctrl);

/** Stop: drop what is queued and, unless the switch itself aborted, tell
 * it why. */
int pa_fail(struct uet_sync_participant *p, int err, uint32_t code,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/** Send the NIC's notes of the window run last (conf.notes_out_fn) as
 * NOTES frames, ahead of its DONE. 0 or the error (the run stopped). */
int pa_notes_out(struct uet_sync_participant *p);

/** A NOTES frame from the switch: check it, keep its bytes. */
int pa_rx_notes(struct uet_sync_participant *p, const struct uet_ls_ctrl *h);

/** Hand the notes of the window run last to conf.notes_in_fn (a port
 * that asked, once a window ran), as its next GRANT or BYE comes. */
int pa_notes_in(struct uet_sync_participant *p);

/** The engine's ops over ports, the participant's side. */
extern const struct sync_transport_ops pa_transport_ops;

#endif /* SYNC_PARTICIPANT_PRIVATE_H */
