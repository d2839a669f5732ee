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
	if (l->len < sizeof(l->buf))
		l->buf[l->len++] = ',';
	else
		l->len = sizeof(l->buf) + 1;
}

/* "00" to "99": two digits a division. */
static const char rec_digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"68697071727374757677787980818283848586878889909192939495969798"
	"99";

/*
 * The digits written in place, from the last: a stats row is 54 numbers,
 * most of them one or two digits, so the call and copy around the digits
 * cost more than the digits (4% of a 16-host incast's instructions).
 */
void rec_line_u64(struct rec_line *l, uint64_t v)
{
	size_t n = 1;
	uint64_t t;
	char *p;

	for (t = v; t >= 10; t /= 10)
		n++;
	if (l->len + n > sizeof(l->buf)) {
		l->len = sizeof(l->buf) + 1;
		return;
	}
	p = l->buf + l->len + n;
	l->len += n;
	while (v >= 100) {
		const char *d = rec_digit_pairs + 2 * (v % 100);

		v /= 100;
		*--p = d[1];
		*--p = d[0];
	}
	if (v >= 10) {
		*--p = rec_digit_pairs[2 * v + 1];
		*--p = rec_digit_pairs[2 * v];
	} else {
		*--p = (char)('0' + v);
	}
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
