/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Robustness: every prefix of every vector frame and of every frame kind we
 * build, and thousands of seeded random bit flips, go through the top-level
 * parser and every sub-parser. Each is either parsed or rejected with a
 * reason; a prefix shorter than the frame's headers is always rejected.
 * Every input sits in a heap block of its exact size, so under ASan a read
 * past the end fails the test.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_wire.h"
#include "wire_test_corpus.h"

/* Run every parser over buf[0..len); check each result is sane. Returns
 * the top-level parser's result. */
static int parse_everything(const uint8_t *buf, size_t len, bool all_offsets)
{
	/* Where headers start in the frames we know: IPv4, UDP, PDS, and
	 * SES after a 4-, 8-, 12-, 16-, 32- or 40-byte PDS header. */
	static const size_t natural[] = {14, 34, 42, 46, 50, 54, 58, 74, 82};
	size_t step;
	struct uet_frame f;
	struct uet_eth_hdr eth;
	struct uet_ipv4_hdr ip;
	struct uet_udp_hdr udp;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;
	struct uet_pfc pfc;
	struct uet_ls_ctrl ls;
	enum uet_wire_reason why = UET_WIRE_REASON_COUNT;
	uet_time_t t;
	unsigned int k;
	size_t off;
	int rc, top;

	top = uet_frame_parse(buf, len, &f, &why);
	if (top == 0) {
		ck_assert_int_eq(why, UET_WIRE_OK);
		ck_assert_uint_le(f.payload_offset + f.payload_bytes, len);
		if (f.has_ipv4)
			ck_assert_uint_le(f.ip_end, len);
	} else {
		ck_assert_int_eq(top, -EBADMSG);
		ck_assert_int_gt(why, UET_WIRE_OK);
		ck_assert_int_lt(why, UET_WIRE_REASON_COUNT);
		ck_assert_str_ne(uet_wire_reason_str(why), "unknown reason");
	}

	rc = uet_eth_parse(buf, len, &eth, &why);
	ck_assert(rc == UET_ETH_HDR_BYTES || rc == -EBADMSG);
	rc = uet_pfc_parse(buf, len, &pfc, &why);
	ck_assert(rc == 0 || rc == -EBADMSG);
	rc = uet_ls_ctrl_parse(buf, len, &ls, &why);
	ck_assert(rc == 0 || rc == -EBADMSG);
	if (len >= UET_ETH_HDR_BYTES) {
		rc = uet_ipv4_parse(buf + 14, len - 14, &ip, &why);
		ck_assert(rc == -EBADMSG || (rc >= 20 && rc <= 60));
	}
	/* The L4+ parsers at every offset of the frame, or at the offsets
	 * where headers start. */
	for (step = 0; step <= (all_offsets ? len : 8); step++) {
		const uint8_t *p;
		size_t n;

		off = all_offsets ? step : natural[step];
		if (off > len)
			continue;
		p = buf + off;
		n = len - off;

		rc = uet_udp_parse(p, n, &udp, &why);
		ck_assert(rc == UET_UDP_HDR_BYTES || rc == -EBADMSG);
		rc = uet_pds_parse(p, n, &pds, &why);
		ck_assert(rc == -EBADMSG || (rc >= 4 && (size_t)rc <= n));
		for (k = 0; k <= 7; k++) {
			rc = uet_ses_parse(k, p, n, &ses, &why);
			ck_assert(rc == -EBADMSG ||
				  (rc >= 12 && (size_t)rc <= n));
		}
		rc = uet_ls_trailer_parse(p, n, &t, &why);
		ck_assert(rc == UET_LS_TRAILER_BYTES || rc == -EBADMSG);
	}
	rc = uet_ls_trailer_strip(buf, len, &t);
	ck_assert(rc == -EBADMSG || rc == -ENOENT ||
		  (rc >= 34 && (size_t)rc <= len));
	return top;
}

/* A heap copy of exactly n bytes, so that ASan sees any over-read. */
static int parse_exact(const uint8_t *data, size_t n, bool all_offsets)
{
	uint8_t *copy = malloc(n ? n : 1);
	int rc;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, data, n);
	rc = parse_everything(copy, n, all_offsets);
	free(copy);
	return rc;
}

START_TEST(test_every_full_frame_parses)
{
	int i, bad = 0;

	build_corpus();
	ck_assert_int_gt(n_samples, 80);
	for (i = 0; i < n_samples; i++) {
		int rc = parse_exact(samples[i].data, samples[i].len, true);

		if (samples[i].never_parses) {
			ck_assert_int_eq(rc, -EBADMSG);
			bad++;
		} else {
			ck_assert_msg(rc == 0, "sample %d rejected", i);
		}
	}
	ck_assert_int_eq(bad, 1); /* only the ACK_CCX vector */
}
END_TEST

START_TEST(test_every_prefix_parses_or_is_rejected)
{
	int i;

	build_corpus();
	for (i = 0; i < n_samples; i++) {
		const struct sample *s = &samples[i];
		size_t n;

		for (n = 0; n < s->len; n++) {
			int rc = parse_exact(s->data, n, false);
			bool cut_trailer = s->trailer_at != 0 &&
					   n >= s->trailer_at + 4 &&
					   n < s->trailer_at + 12;

			if (n < s->min_len || cut_trailer)
				ck_assert_msg(rc == -EBADMSG,
					      "sample %d prefix %zu parsed", i,
					      n);
			else
				ck_assert_msg(rc == 0,
					      "sample %d prefix %zu rejected",
					      i, n);
		}
	}
}
END_TEST

static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

START_TEST(test_random_bit_flips_parse_or_reject)
{
	uint64_t seed = 0x5eed0fdeadbeefull;
	unsigned int iter, accepted = 0, rejected = 0;
	uint8_t buf[FRAME_CAP];

	build_corpus();
	for (iter = 0; iter < 20000; iter++) {
		const struct sample *s =
			&samples[xorshift64(&seed) % (uint64_t)n_samples];
		unsigned int flips = 1 + xorshift64(&seed) % 4, j;
		size_t n = s->len;

		memcpy(buf, s->data, n);
		for (j = 0; j < flips; j++) {
			uint64_t r = xorshift64(&seed);

			buf[r % n] ^= (uint8_t)(1u << (r >> 32) % 8);
		}
		/* Now and then also cut the frame short. */
		if (iter % 8 == 0)
			n = (size_t)(xorshift64(&seed) % (n + 1));
		if (parse_exact(buf, n, iter % 16 == 0) == 0)
			accepted++;
		else
			rejected++;
	}
	ck_assert_uint_eq(accepted + rejected, 20000);
	/* Flips in payload or non-checked fields parse; flips in the IPv4
	 * header and lengths are rejected: both must happen. */
	ck_assert_uint_gt(accepted, 1000);
	ck_assert_uint_gt(rejected, 1000);
}
END_TEST

static Suite *wire_robust_suite(void)
{
	Suite *s = suite_create("wire_robust");
	TCase *tc = tcase_create("robust");

	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_every_full_frame_parses);
	tcase_add_test(tc, test_every_prefix_parses_or_is_rejected);
	tcase_add_test(tc, test_random_bit_flips_parse_or_reject);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		vectors_dir = argv[1];
	return uet_check_run(wire_robust_suite());
}
