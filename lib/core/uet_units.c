/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Exact decimal parsing and formatting of durations, rates, sizes and
 * fractions, in integer arithmetic only.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "uet_time.h"
#include "uet_units.h"

typedef unsigned __int128 uet_u128;

/*
 * More significant fraction digits than this cannot be exact for any unit
 * below (all are at most 10^12 or 2^40 base units, which needs at most 12 or
 * 40 digits; we stop at 20 to keep the arithmetic within 128 bits, which
 * only rules out spellings nobody writes).
 */
#define MAX_FRACTION_DIGITS 20

/* 20 digits, '.', 40 fraction digits, a unit of up to 4 bytes, NUL. */
#define CANDIDATE_LEN 72

/* A unit a user may write, and how many base units (ps, bps, B, ppm) it is. */
struct unit {
	const char *name;
	uint64_t base_units;
	/* Used by the formatter; aliases are accepted by the parser only. */
	bool canonical;
};

/* Everything a parser needs to know about one kind of quantity. */
struct quantity {
	/* Units in ascending order of base_units. */
	const struct unit *units;
	size_t n_units;
	/* Base units of a plain number, or 0 if only zero may be plain. */
	uint64_t plain_base_units;
	/* The largest value the result type holds. */
	uint64_t max;
	/* Why a value finer than one base unit is refused. */
	const char *too_fine;
};

static const struct unit time_units[] = {
	{"ps", 1, true},
	{"ns", UET_PS_PER_NS, true},
	{"us", UET_PS_PER_US, true},
	{"\xc2\xb5s", UET_PS_PER_US, false}, /* µs in UTF-8 */
	{"ms", UET_PS_PER_MS, true},
	{"s", UET_PS_PER_S, true},
};

static const struct unit rate_units[] = {
	{"bps", 1, true},
	{"kbps", UET_BPS_PER_KBPS, true},
	{"Kbps", UET_BPS_PER_KBPS, false},
	{"Mbps", UET_BPS_PER_MBPS, true},
	{"Gbps", UET_BPS_PER_GBPS, true},
	{"Tbps", UET_BPS_PER_TBPS, true},
};

static const struct unit size_units[] = {
	{"B", 1, true},
	{"kB", UINT64_C(1000), true},
	{"KB", UINT64_C(1000), false},
	{"KiB", UET_BYTES_PER_KIB, true},
	{"MB", UINT64_C(1000000), true},
	{"MiB", UET_BYTES_PER_MIB, true},
	{"GB", UINT64_C(1000000000), true},
	{"GiB", UET_BYTES_PER_GIB, true},
	{"TB", UINT64_C(1000000000000), true},
	{"TiB", UINT64_C(1) << 40, true},
};

static const struct unit ppm_units[] = {
	{"ppm", 1, false},
	{"%", UET_PPM_ONE / 100, true},
};

static const struct quantity time_quantity = {
	time_units, sizeof(time_units) / sizeof(time_units[0]), 0, UINT64_MAX,
	"finer than one picosecond"};
static const struct quantity rate_quantity = {
	rate_units, sizeof(rate_units) / sizeof(rate_units[0]), 0, UINT64_MAX,
	"finer than one bit per second"};
static const struct quantity size_quantity = {
	size_units, sizeof(size_units) / sizeof(size_units[0]), 1, UINT64_MAX,
	"a fraction of a byte"};
static const struct quantity ppm_quantity = {
	ppm_units, sizeof(ppm_units) / sizeof(ppm_units[0]), UET_PPM_ONE,
	UINT32_MAX, "finer than one part per million"};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int fail(const char **reason, const char *why)
{
	if (reason != NULL)
		*reason = why;
	return -EINVAL;
}

static int parse_quantity(const struct quantity *qty, const char *str,
			  uint64_t *value, const char **reason)
{
	const char *p = str, *frac_begin, *frac_end;
	uet_u128 integer = 0, fraction = 0, pow10 = 1, total;
	uint64_t base_units = 0;
	unsigned int frac_digits;

	if (str == NULL || value == NULL)
		return fail(reason, "no text to parse");
	if (*p == '-')
		return fail(reason, "negative values are not allowed");
	if (!is_digit(*p))
		return fail(reason, "expected a number");
	for (; is_digit(*p); p++) {
		integer = integer * 10 + (unsigned int)(*p - '0');
		if (integer > UINT64_MAX)
			return fail(reason, "value too large");
	}
	frac_begin = frac_end = p;
	if (*p == '.') {
		p++;
		if (!is_digit(*p))
			return fail(reason, "expected a digit after '.'");
		frac_begin = p;
		while (is_digit(*p))
			p++;
		frac_end = p;
		/* Trailing zeros add no precision: "1.500us" is "1.5us". */
		while (frac_end > frac_begin && frac_end[-1] == '0')
			frac_end--;
	}
	frac_digits = (unsigned int)(frac_end - frac_begin);
	if (frac_digits > MAX_FRACTION_DIGITS)
		return fail(reason, "too many decimal places");
	for (const char *d = frac_begin; d < frac_end; d++) {
		fraction = fraction * 10 + (unsigned int)(*d - '0');
		pow10 *= 10;
	}

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0') {
		base_units = qty->plain_base_units;
		if (base_units == 0) {
			if (integer != 0 || fraction != 0)
				return fail(reason, "missing unit");
			*value = 0;
			return 0;
		}
	} else {
		for (size_t i = 0; i < qty->n_units; i++) {
			if (strcmp(p, qty->units[i].name) == 0) {
				base_units = qty->units[i].base_units;
				break;
			}
		}
		if (base_units == 0)
			return fail(reason, "unknown unit");
	}

	/* integer < 2^64 and base_units < 2^41: the product fits. */
	total = integer * base_units;
	/* fraction < 10^20 < 2^67 and base_units < 2^41: fits too. */
	fraction *= base_units;
	if (fraction % pow10 != 0)
		return fail(reason, qty->too_fine);
	total += fraction / pow10;
	if (total > qty->max)
		return fail(reason, "value too large");
	*value = (uint64_t)total;
	return 0;
}

/* Write value / base_units exactly in decimal, then the unit, into out. */
static size_t format_in_unit(uint64_t value, const struct unit *u, char *out)
{
	const uint64_t base = u->base_units; /* never 0 */
	char digits[24];
	uint64_t whole = value / base, rem = value % base;
	size_t n = 0, k = 0;

	do {
		digits[k++] = (char)('0' + whole % 10);
		whole /= 10;
	} while (whole != 0);
	while (k > 0)
		out[n++] = digits[--k];
	if (rem != 0) {
		out[n++] = '.';
		/*
		 * Every unit is 2^a * 5^b base units, so the expansion ends,
		 * after at most 40 digits. rem * 10 < 2^45 cannot overflow.
		 */
		do {
			rem *= 10;
			out[n++] = (char)('0' + rem / base);
			rem %= base;
		} while (rem != 0);
	}
	k = strlen(u->name);
	memcpy(out + n, u->name, k);
	n += k;
	out[n] = '\0';
	return n;
}

/*
 * The shortest exact text among the canonical units the value reaches (the
 * smallest unit always qualifies); on a tie the larger unit wins, so 84,040
 * ps is "84.04ns", not "84040ps".
 */
static int format_quantity(const struct quantity *qty, uint64_t value,
			   char *buf, size_t len)
{
	/* A candidate can be long ("1.00...01TiB"); the best never is. */
	char best[UET_UNITS_FMT_LEN], cand[CANDIDATE_LEN];
	size_t best_len = SIZE_MAX, n, i;

	if (buf == NULL)
		return -EINVAL;
	for (i = 0; i < qty->n_units; i++) {
		const struct unit *u = &qty->units[i];

		if (!u->canonical)
			continue;
		if (best_len != SIZE_MAX && value < u->base_units)
			break;
		n = format_in_unit(value, u, cand);
		if (n <= best_len && n < sizeof(best)) {
			memcpy(best, cand, n + 1);
			best_len = n;
		}
	}
	if (best_len + 1 > len) {
		if (len > 0)
			buf[0] = '\0';
		return -ENOSPC;
	}
	memcpy(buf, best, best_len + 1);
	return (int)best_len;
}

int uet_time_parse(const char *str, uet_time_t *time_ps, const char **reason)
{
	return parse_quantity(&time_quantity, str, time_ps, reason);
}

int uet_time_format(uet_time_t time_ps, char *buf, size_t len)
{
	return format_quantity(&time_quantity, time_ps, buf, len);
}

int uet_rate_parse(const char *str, uint64_t *rate_bps, const char **reason)
{
	return parse_quantity(&rate_quantity, str, rate_bps, reason);
}

int uet_rate_format(uint64_t rate_bps, char *buf, size_t len)
{
	return format_quantity(&rate_quantity, rate_bps, buf, len);
}

int uet_size_parse(const char *str, uint64_t *size_bytes, const char **reason)
{
	return parse_quantity(&size_quantity, str, size_bytes, reason);
}

int uet_size_format(uint64_t size_bytes, char *buf, size_t len)
{
	return format_quantity(&size_quantity, size_bytes, buf, len);
}

int uet_ppm_parse(const char *str, uint32_t *ppm, const char **reason)
{
	uint64_t v;
	int rc;

	if (ppm == NULL)
		return fail(reason, "no place for the result");
	rc = parse_quantity(&ppm_quantity, str, &v, reason);
	if (rc == 0)
		*ppm = (uint32_t)v;
	return rc;
}

int uet_ppm_format(uint32_t ppm, char *buf, size_t len)
{
	return format_quantity(&ppm_quantity, ppm, buf, len);
}
