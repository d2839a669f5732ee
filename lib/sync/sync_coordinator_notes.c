/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The coordinator's window notes (docs/lockstep.md, "Window notes"): each
 * NIC's NOTES of the window under way are kept per port as they come
 * (before that port's DONE); once every DONE is in, they are joined in
 * port order (= host order), handed to the switch process
 * (conf.notes_in_fn) and sent to every port whose HELLO asked, ahead of
 * its next GRANT or BYE: the link is FIFO, so they arrive first.
 *
 * The cost: one copy of a window's notes into the joined buffer and one
 * NOTES frame per 1,452 bytes per asking port; a window without notes
 * sends nothing at all.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "sync_coordinator_private.h"
#include "uet_port.h"

int co_rx_notes(struct uet_sync_coordinator *c, struct co_port *p,
		const struct uet_ls_ctrl *h)
{
	char name[128];
	int rc;

	if (c->state != CO_WAIT || p->done ||
	    h->u.notes.window_end_ps != c->window_end_ps)
		return co_fail(
			c, -EPROTO, UET_LS_ABORT_PROTOCOL,
			"NOTES of the window ending at %" PRIu64
			" ps from %s %s (window [%" PRIu64 ", %" PRIu64 ") ps)",
			h->u.notes.window_end_ps, co_who(p, name, sizeof(name)),
			c->state != CO_WAIT ? "outside a window"
			: h->u.notes.window_end_ps != c->window_end_ps
				? "for another window"
				: "after its DONE",
			c->window_start_ps, c->window_end_ps);
	if (c->notes_window_bytes + h->u.notes.len >
	    c->conf.notes_window_max_bytes)
		return co_fail(c, -EPROTO, UET_LS_ABORT_PROTOCOL,
			       "NOTES from %s take the window [%" PRIu64
			       ", %" PRIu64 ") ps over the bound of %u bytes "
			       "of notes a window",
			       co_who(p, name, sizeof(name)),
			       c->window_start_ps, c->window_end_ps,
			       c->conf.notes_window_max_bytes);
	rc = sync_bytes_append(&p->notes, h->u.notes.bytes, h->u.notes.len);
	if (rc < 0)
		return co_fail(c, rc, UET_LS_ABORT_INTERNAL,
			       "out of memory for the notes from %s",
			       co_who(p, name, sizeof(name)));
	c->notes_window_bytes += h->u.notes.len;
	return 0;
}

/* What sync_notes_send() hands each NOTES frame to: one port. */
struct co_notes_to {
	struct uet_sync_coordinator *c;
	struct co_port *p;
};

static int co_send_notes(void *ctx, struct uet_ls_ctrl *n)
{
	struct co_notes_to *to = ctx;

	return co_send_ctrl(to->c, to->p, n);
}

int co_notes_pass(struct uet_sync_coordinator *c)
{
	struct sync_bytes *all = &c->notes_all;
	uint32_t i;
	int rc = 0;

	all->len = 0;
	for (i = 0; i < c->conf.n_ports && rc == 0; i++) {
		rc = sync_bytes_append(all, c->ports[i].notes.b,
				       c->ports[i].notes.len);
		c->ports[i].notes.len = 0;
	}
	c->notes_window_bytes = 0;
	if (rc < 0)
		return co_fail(c, rc, UET_LS_ABORT_INTERNAL,
			       "out of memory for the notes of window "
			       "[%" PRIu64 ", %" PRIu64 ") ps",
			       c->window_start_ps, c->window_end_ps);
	if (c->conf.notes_in_fn != NULL) {
		rc = c->conf.notes_in_fn(c->conf.notes_arg, c->window_end_ps,
					 all->b, all->len);
		if (rc < 0)
			return co_fail(c, rc, UET_LS_ABORT_INTERNAL,
				       "%s cannot take the notes of window "
				       "[%" PRIu64 ", %" PRIu64 ") ps: %s",
				       c->conf.component->name,
				       c->window_start_ps, c->window_end_ps,
				       strerror(-rc));
	}
	for (i = 0; i < c->conf.n_ports && all->len > 0; i++) {
		struct co_notes_to to = {.c = c, .p = &c->ports[i]};

		if (!c->ports[i].wants_notes)
			continue;
		rc = sync_notes_send(c->window_end_ps, all->b, all->len,
				     co_send_notes, &to);
		if (rc < 0)
			return co_fail(c, rc, UET_LS_ABORT_INTERNAL,
				       "cannot build NOTES for port %s",
				       uet_port_name(c->ports[i].port));
	}
	return 0;
}

void co_notes_fini(struct uet_sync_coordinator *c)
{
	uint32_t i;

	for (i = 0; i < c->conf.n_ports; i++)
		sync_bytes_fini(&c->ports[i].notes);
	sync_bytes_fini(&c->notes_all);
}
