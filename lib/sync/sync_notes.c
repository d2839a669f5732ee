/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Window notes (docs/lockstep.md, "Window notes"): what the coordinator
 * and the participant share to carry them, a growing byte buffer and the
 * cut of a window's notes into NOTES frames. The bytes are opaque here:
 * the workload engines of the processes give and take them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sync_private.h"

int sync_bytes_append(struct sync_bytes *s, const void *bytes, size_t n)
{
	size_t cap;
	void *nb;

	if (n == 0)
		return 0;
	if (s->len + n > s->cap) {
		cap = s->cap ? s->cap : 4096;
		while (cap < s->len + n)
			cap *= 2;
		nb = realloc(s->b, cap);
		if (nb == NULL)
			return -ENOMEM;
		s->b = nb;
		s->cap = cap;
	}
	memcpy(s->b + s->len, bytes, n);
	s->len += n;
	return 0;
}

void sync_bytes_fini(struct sync_bytes *s)
{
	free(s->b);
	memset(s, 0, sizeof(*s));
}

int sync_notes_send(uet_time_t window_end_ps, const uint8_t *bytes, size_t len,
		    int (*send)(void *ctx, struct uet_ls_ctrl *c), void *ctx)
{
	struct uet_ls_ctrl n;
	size_t off, chunk;
	int rc;

	for (off = 0; off < len; off += chunk) {
		chunk = len - off < UET_LS_NOTES_MAX_BYTES
				? len - off
				: UET_LS_NOTES_MAX_BYTES;
		memset(&n, 0, sizeof(n));
		n.type = UET_LS_NOTES;
		n.u.notes.window_end_ps = window_end_ps;
		n.u.notes.len = (uint16_t)chunk;
		n.u.notes.bytes = bytes + off;
		rc = send(ctx, &n);
		if (rc < 0)
			return rc;
	}
	return 0;
}
