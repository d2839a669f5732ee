/* SPDX-License-Identifier: BSD-3-Clause */
/* IPv4 addresses as text. By hand rather than through snprintf() and
 * sscanf(): records write one address per row, and sscanf() measures its
 * whole input first, so reading the addresses of a large record with it
 * grew with the square of the record's size. */
#include "uet_ipv4_text.h"

/* Append the decimal digits of octet (0..255) at out; @return them. */
static size_t octet_format(unsigned int octet, char *out)
{
	size_t n = 0;

	if (octet >= 100)
		out[n++] = (char)('0' + octet / 100);
	if (octet >= 10)
		out[n++] = (char)('0' + octet / 10 % 10);
	out[n++] = (char)('0' + octet % 10);
	return n;
}

size_t uet_ipv4_format(uint32_t ip, char out[UET_IPV4_TEXT_BYTES])
{
	size_t n = 0;
	int shift;

	for (shift = 24; shift >= 0; shift -= 8) {
		if (shift != 24)
			out[n++] = '.';
		n += octet_format((ip >> shift) & 0xffu, out + n);
	}
	out[n] = '\0';
	return n;
}

size_t uet_ipv4_scan(const char *text, size_t len, uint32_t *ip)
{
	uint32_t v = 0;
	size_t at = 0;
	int part;

	for (part = 0; part < 4; part++) {
		uint32_t octet = 0;
		size_t digits = 0;

		if (part > 0 && (at == len || text[at++] != '.'))
			return 0;
		while (at < len && text[at] >= '0' && text[at] <= '9' &&
		       digits < 3) {
			octet = octet * 10 + (uint32_t)(text[at++] - '0');
			digits++;
		}
		if (digits == 0 || octet > 255)
			return 0;
		v = v << 8 | octet;
	}
	*ip = v;
	return at;
}
