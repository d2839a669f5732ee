/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The participant's window notes (docs/lockstep.md, "Window notes"): its
 * own go out as NOTES frames after its window and before its DONE; the
 * whole window's, every NIC's in port order, come back from the switch
 * before the next GRANT (or BYE) on a port whose HELLO asked, and are
 * handed over when that GRANT comes, before the next window runs.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "sync_participant_private.h"
#include "uet_port.h"

static int pa_send_notes(void *ctx, struct uet_ls_ctrl *c)
{
	return pa_send_ctrl(ctx, c);
}

int pa_notes_out(struct uet_sync_participant *p)
{
	const void *bytes = NULL;
	size_t len = 0;
	int rc;

	if (p->conf.notes_out_fn == NULL)
		return 0;
	rc = p->conf.notes_out_fn(p->conf.notes_arg, p->window_end_ps, &bytes,
				  &len);
	if (rc < 0)
		return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
			       "nic %u: no notes for the window ending at "
			       "%" PRIu64 " ps: %s",
			       p->conf.nic_id, p->window_end_ps, strerror(-rc));
	if (len > UET_SYNC_NOTES_WINDOW_MAX_BYTES)
		return pa_fail(p, -EMSGSIZE, UET_LS_ABORT_INTERNAL,
			       "nic %u: %zu bytes of notes for the window "
			       "ending at %" PRIu64
			       " ps, over the bound of %u bytes a window",
			       p->conf.nic_id, len, p->window_end_ps,
			       UET_SYNC_NOTES_WINDOW_MAX_BYTES);
	if (len > 0 && bytes == NULL)
		return pa_fail(p, -EINVAL, UET_LS_ABORT_INTERNAL,
			       "nic %u: %zu bytes of notes for the window "
			       "ending at %" PRIu64 " ps, and no bytes",
			       p->conf.nic_id, len, p->window_end_ps);
	rc = sync_notes_send(p->window_end_ps, bytes, len, pa_send_notes, p);
	if (rc < 0)
		return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
			       "nic %u: cannot build NOTES", p->conf.nic_id);
	return 0;
}

int pa_rx_notes(struct uet_sync_participant *p, const struct uet_ls_ctrl *h)
{
	const char *port = uet_port_name(p->conf.port);
	int rc;

	if (!p->conf.wants_notes)
		return pa_fail(p, -EPROTO, UET_LS_ABORT_PROTOCOL,
			       "nic %u: NOTES on port %s, whose HELLO did not "
			       "ask for them",
			       p->conf.nic_id, port);
	/* The switch sends a window's notes once every DONE of it is in,
	 * so before the next GRANT: only the window run last has any. */
	if (p->stats.windows == 0 || !p->done_sent ||
	    h->u.notes.window_end_ps != p->window_end_ps)
		return pa_fail(p, -EPROTO, UET_LS_ABORT_PROTOCOL,
			       "nic %u: NOTES of the window ending at %" PRIu64
			       " ps on port %s, the window done last ends at "
			       "%" PRIu64 " ps",
			       p->conf.nic_id, h->u.notes.window_end_ps, port,
			       p->stats.windows == 0 ? 0 : p->window_end_ps);
	if (p->notes_in.len + h->u.notes.len > UET_SYNC_NOTES_WINDOW_MAX_BYTES)
		return pa_fail(p, -EPROTO, UET_LS_ABORT_PROTOCOL,
			       "nic %u: the switch sent over %u bytes of notes "
			       "for the window ending at %" PRIu64
			       " ps on port %s, the bound a window",
			       p->conf.nic_id, UET_SYNC_NOTES_WINDOW_MAX_BYTES,
			       p->window_end_ps, port);
	rc = sync_bytes_append(&p->notes_in, h->u.notes.bytes, h->u.notes.len);
	if (rc < 0)
		return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
			       "nic %u: out of memory for the notes",
			       p->conf.nic_id);
	return 0;
}

int pa_notes_in(struct uet_sync_participant *p)
{
	int rc;

	if (!p->conf.wants_notes || p->stats.windows == 0)
		return 0;
	rc = p->conf.notes_in_fn(p->conf.notes_arg, p->window_end_ps,
				 p->notes_in.b, p->notes_in.len);
	p->notes_in.len = 0;
	if (rc < 0)
		return pa_fail(p, rc, UET_LS_ABORT_INTERNAL,
			       "nic %u: cannot take the notes of the window "
			       "ending at %" PRIu64 " ps: %s",
			       p->conf.nic_id, p->window_end_ps, strerror(-rc));
	return 0;
}
