/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A program's completions over ports (docs/workload.md, "Over ports"):
 * each uet-nic process's log of a window, carried by the lockstep's window
 * notes (docs/lockstep.md, "Window notes") to the switch and every other
 * uet-nic, which replay it into their own engines and flush before the
 * next window runs, as the ranks of uet-emu-mpi do with their window
 * message.
 *
 * A process's notes are its tag (its first host, so that it can skip its
 * own log in the window's notes) then its packed log. Two rules make the
 * engines end every window alike:
 *  - the log is sent by the last of the process's NICs to end the window
 *    (each participant's notes come after its own window, before its
 *    DONE; the next GRANT needs every DONE, so no NIC of the process can
 *    have run past the window when the last one packs it);
 *  - the first of the process's ports to get the window's notes replays
 *    and flushes, before any of its NICs runs the next window: every
 *    port asks for the notes (HELLO's flag), because the GRANT of another
 *    port of the process may be polled first. The copies cost bytes on
 *    the links, not the result.
 * The participants of a process with a program are polled on one lcore
 * (run_nic_lcores.c), so this state has no lock.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_workload.h"

struct run_wl_notes {
	struct run_wl *w;
	uint32_t tag;
	uint32_t nics;
	/* Notes out: the window under way and how many NICs ended it. */
	uet_time_t out_end_ps;
	uint32_t out_calls;
	uint8_t *buf;
	size_t cap;
	/* Notes in: the last window replayed and flushed. */
	bool in_any;
	uet_time_t in_end_ps;
};

int run_wl_notes_create(struct run_wl_notes **np, struct run_wl *w,
			uint32_t tag, uint32_t nics)
{
	struct run_wl_notes *n = calloc(1, sizeof(*n));

	*np = n;
	if (n == NULL)
		return -ENOMEM;
	n->w = w;
	n->tag = tag;
	n->nics = nics;
	return 0;
}

int run_wl_notes_out(struct run_wl_notes *n, uet_time_t window_end_ps,
		     const void **bytes, size_t *len)
{
	size_t need, used;
	int rc;

	*len = 0;
	if (n->tag == RUN_WL_NOTES_NO_TAG)
		return 0;
	if (n->out_calls == 0 || n->out_end_ps != window_end_ps) {
		n->out_end_ps = window_end_ps;
		n->out_calls = 0;
	}
	/* A window without completions sends nothing: most windows of a
	 * run, whose notes then cost no frame at all. */
	if (++n->out_calls < n->nics ||
	    run_wl_log_bytes(n->w) == sizeof(uint32_t))
		return 0;
	need = sizeof(n->tag) + run_wl_log_bytes(n->w);
	if (need > n->cap) {
		uint8_t *b = realloc(n->buf, need);

		if (b == NULL)
			return -ENOMEM;
		n->buf = b;
		n->cap = need;
	}
	memcpy(n->buf, &n->tag, sizeof(n->tag));
	rc = run_wl_pack_log(n->w, n->buf + sizeof(n->tag),
			     need - sizeof(n->tag), &used);
	if (rc < 0)
		return rc;
	*bytes = n->buf;
	*len = sizeof(n->tag) + used;
	return 0;
}

/* The bytes of the packed log at src (its count, then 16 bytes a
 * completion), or 0 when len cannot hold it. */
static size_t log_len(const uint8_t *src, size_t len)
{
	uint32_t count;

	if (len < sizeof(count))
		return 0;
	memcpy(&count, src, sizeof(count));
	if ((len - sizeof(count)) / 16u < count)
		return 0;
	return sizeof(count) + (size_t)count * 16u;
}

int run_wl_notes_in(struct run_wl_notes *n, uet_time_t window_end_ps,
		    const void *bytes, size_t len, struct uet_evq *wake_q)
{
	const uint8_t *p = bytes;
	size_t at = 0;
	int rc;

	if (n->in_any && n->in_end_ps == window_end_ps)
		return 0; /* another port of this process took them */
	n->in_any = true;
	n->in_end_ps = window_end_ps;
	while (at < len) {
		uint32_t tag;
		size_t one, used;

		one = len - at >= sizeof(tag) ? log_len(p + at + sizeof(tag),
							len - at - sizeof(tag))
					      : 0;
		if (one == 0) {
			fprintf(stderr,
				"uet-run: the window notes ending at %" PRIu64
				" ps are not a workload's completions (byte "
				"%zu of %zu)\n",
				window_end_ps, at, len);
			return -EBADMSG;
		}
		memcpy(&tag, p + at, sizeof(tag));
		at += sizeof(tag);
		if (tag != n->tag) {
			rc = run_wl_replay(n->w, p + at, one, &used);
			if (rc < 0)
				return rc;
		}
		at += one;
	}
	rc = run_wl_flush(n->w, wake_q);
	return rc < 0 ? rc : run_wl_error(n->w);
}

void run_wl_notes_free(struct run_wl_notes *n)
{
	if (n == NULL)
		return;
	free(n->buf);
	free(n);
}
