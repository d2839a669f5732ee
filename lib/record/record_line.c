/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CSV lines built by hand: integer digits without printf's format parsing,
 * on the stack, so a monitor row (one per packet) costs a few hundred
 * byte stores and one buffered fwrite, and no allocation.
 */
#include <errno.h>
#include <string.h>

#include "record_private.h"
#include "uet_ipv4_text.h"

void rec_line_init(struct rec_line *l)
{
	l->len = 0;
}

/* Past the end, the line is marked full (len beyond the buffer) and
 * rec_line_write refuses it: a cut row would be a wrong row. */
static void rec_line_bytes(struct rec_line *l, const char *s, size_t n)
{
	if (l->len + n > sizeof(l->buf)) {
		l->len = sizeof(l->buf) + 1;
		return;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

void rec_line_str(struct rec_line *l, const char *s)
{
	rec_line_bytes(l, s, strlen(s));
}

void rec_line_comma(struct rec_line *l)
{
	rec_line_bytes(l, ",", 1);
}

void rec_line_u64(struct rec_line *l, uint64_t v)
{
	char digits[20];
	size_t n = sizeof(digits);

	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	rec_line_bytes(l, digits + n, sizeof(digits) - n);
}

void rec_line_ip(struct rec_line *l, uint32_t ip)
{
	char text[UET_IPV4_TEXT_BYTES];
	size_t n = uet_ipv4_format(ip, text);

	rec_line_bytes(l, text, n);
}

void rec_line_hex64(struct rec_line *l, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char out[18];
	int i;

	out[0] = '0';
	out[1] = 'x';
	for (i = 0; i < 16; i++)
		out[2 + i] = hex[(v >> (60 - 4 * i)) & 0xf];
	rec_line_bytes(l, out, sizeof(out));
}

void rec_line_time(struct rec_line *l, uet_time_t t_ps)
{
	if (t_ps != UET_TIME_NEVER)
		rec_line_u64(l, t_ps);
}

int rec_line_write(struct uet_record *rec, enum rec_kind k, struct rec_line *l)
{
	if (rec->parent == NULL) {
		int rc = rec_room(rec, k, l->len + 1);

		if (rc < 0)
			return rc;
		errno = 0;
		rc = rec_line_put(rec->out[k], l);
		if (rc == 0)
			rec_order_note_rows(rec, k, l->buf, l->len);
		return rc < 0 && rec->out[k] != NULL
			       ? rec_out_failed(rec->out[k])
			       : rc;
	}
	rec_line_bytes(l, "\n", 1);
	if (l->len > sizeof(l->buf))
		return -EIO;
	return rec_view_append(rec, k, l);
}

int rec_line_put(struct uet_outfile *o, struct rec_line *l)
{
	rec_line_bytes(l, "\n", 1);
	if (l->len > sizeof(l->buf))
		return -EIO;
	return uet_outfile_put_rows(o, l->buf, l->len);
}
