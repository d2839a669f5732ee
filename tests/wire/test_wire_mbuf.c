/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The frame reader on mbufs (lib/wire/uet_wire_mbuf.h): the same result as
 * the buffer parser, field for field, whatever the segments; headers read
 * in place from the first segment; nothing read past a head or a segment.
 * The mbufs are built by hand over heap blocks of their exact size (no EAL,
 * no pool), so under ASan a read past a segment fails the test.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "uet_wire_mbuf.h"
#include "wire_test_corpus.h"

#define CHAIN_MAX_SEGS 3

/* A frame cut into segments, each in a heap block of its own. */
struct chain {
	struct rte_mbuf seg[CHAIN_MAX_SEGS];
	uint8_t *data[CHAIN_MAX_SEGS];
	unsigned int n;
};

/* Cut data[0..len) at the given offsets (ascending, each <= len). */
static void chain_make(struct chain *c, const uint8_t *data, size_t len,
		       const size_t *cuts, unsigned int n_cuts)
{
	size_t from = 0;
	unsigned int i;

	ck_assert_uint_lt(n_cuts, CHAIN_MAX_SEGS);
	memset(c, 0, sizeof(*c));
	c->n = n_cuts + 1;
	for (i = 0; i < c->n; i++) {
		size_t to = i < n_cuts ? cuts[i] : len;
		size_t n = to - from;

		c->data[i] = malloc(n ? n : 1);
		ck_assert_ptr_nonnull(c->data[i]);
		memcpy(c->data[i], data + from, n);
		c->seg[i].buf_addr = c->data[i];
		c->seg[i].buf_len = (uint16_t)n;
		c->seg[i].data_off = 0;
		c->seg[i].data_len = (uint16_t)n;
		c->seg[i].next = i + 1 < c->n ? &c->seg[i + 1] : NULL;
		from = to;
	}
	c->seg[0].pkt_len = (uint32_t)len;
	c->seg[0].nb_segs = (uint16_t)c->n;
}

static void chain_free(struct chain *c)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		free(c->data[i]);
}

/* The buffer parse and the mbuf reader of data cut at cuts agree. */
static void check_same(const uint8_t *data, size_t len, const size_t *cuts,
		       unsigned int n_cuts, uint8_t depth)
{
	struct uet_wire_cfg cfg;
	struct uet_frame want, got;
	enum uet_wire_reason want_why, got_why;
	struct chain c;
	int want_rc, got_rc;

	uet_wire_cfg_default(&cfg);
	cfg.depth = depth;
	memset(&want, 0, sizeof(want));
	memset(&got, 0, sizeof(got));
	want_rc = uet_frame_parse_cfg(&cfg, data, len, &want, &want_why);
	chain_make(&c, data, len, cuts, n_cuts);
	got_rc = uet_frame_parse_mbuf(&cfg, &c.seg[0], &got, &got_why);
	chain_free(&c);
	ck_assert_msg(got_rc == want_rc, "len %zu cut %zu: rc %d, want %d", len,
		      n_cuts ? cuts[0] : len, got_rc, want_rc);
	ck_assert_int_eq(got_why, want_why);
	ck_assert_msg(memcmp(&got, &want, sizeof(got)) == 0,
		      "len %zu cut %zu: frames differ", len,
		      n_cuts ? cuts[0] : len);
}

START_TEST(test_reader_equals_buffer_parse_at_every_cut)
{
	int i;

	build_corpus();
	for (i = 0; i < n_samples; i++) {
		const struct sample *s = &samples[i];
		size_t a, b;

		for (a = 0; a <= s->len; a++) {
			size_t cuts[2] = {a, 0};

			check_same(s->data, s->len, cuts, 1,
				   UET_FRAME_DEPTH_ALL);
			check_same(s->data, s->len, cuts, 1,
				   UET_FRAME_DEPTH_UDP);
			/* Three segments: a second cut at every seventh
			 * byte after the first. */
			for (b = a; b <= s->len; b += 7) {
				cuts[1] = b;
				check_same(s->data, s->len, cuts, 2,
					   UET_FRAME_DEPTH_ALL);
			}
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

START_TEST(test_reader_equals_buffer_parse_on_damaged_frames)
{
	uint64_t seed = 0x6d627566ull;
	uint8_t buf[FRAME_CAP];
	unsigned int iter;

	build_corpus();
	for (iter = 0; iter < 20000; iter++) {
		const struct sample *s =
			&samples[xorshift64(&seed) % (uint64_t)n_samples];
		size_t n = s->len, cuts[2];
		unsigned int j, flips = 1 + xorshift64(&seed) % 4;

		memcpy(buf, s->data, n);
		for (j = 0; j < flips; j++) {
			uint64_t r = xorshift64(&seed);

			buf[r % n] ^= (uint8_t)(1u << (r >> 32) % 8);
		}
		if (iter % 4 == 0)
			n = (size_t)(xorshift64(&seed) % (n + 1));
		cuts[0] = (size_t)(xorshift64(&seed) % (n + 1));
		cuts[1] = cuts[0] +
			  (size_t)(xorshift64(&seed) % (n - cuts[0] + 1));
		check_same(buf, n, cuts, 1 + iter % 2,
			   (uint8_t)(iter % 3 == 0));
	}
}
END_TEST

/* A head of head_len bytes in a block of its own: -EAGAIN, or the very
 * result of the whole frame. */
START_TEST(test_head_parse_reads_only_its_head)
{
	struct uet_wire_cfg cfg;
	int i;

	uet_wire_cfg_default(&cfg);
	build_corpus();
	for (i = 0; i < n_samples; i++) {
		const struct sample *s = &samples[i];
		struct uet_frame whole, part;
		int whole_rc, rc;
		size_t h;

		memset(&whole, 0, sizeof(whole));
		whole_rc = uet_frame_parse_head(&cfg, s->data, s->len, s->len,
						&whole, NULL);
		ck_assert_int_ne(whole_rc, -EAGAIN);
		for (h = 0; h <= s->len; h++) {
			uint8_t *head = malloc(h ? h : 1);

			ck_assert_ptr_nonnull(head);
			memcpy(head, s->data, h);
			memset(&part, 0, sizeof(part));
			rc = uet_frame_parse_head(&cfg, head, h, s->len, &part,
						  NULL);
			free(head);
			if (h >= UET_FRAME_HEAD_BYTES)
				ck_assert_int_ne(rc, -EAGAIN);
			if (rc == -EAGAIN)
				continue;
			ck_assert_msg(rc == whole_rc,
				      "sample %d head %zu: rc %d, want %d", i,
				      h, rc, whole_rc);
			ck_assert(memcmp(&part, &whole, sizeof(part)) == 0);
		}
	}
}
END_TEST

/* The NIC's data frame: 102 bytes of headers in the first segment, the
 * 4,096-byte payload in the next. */
static int data_frame(uint8_t *buf, size_t cap, size_t payload)
{
	struct uet_frame_addr a;
	struct uet_pds_hdr pds;
	struct uet_ses_hdr ses;

	test_addr(&a, UET_DSCP_DEFAULT_TRIMMABLE, 0x1234);
	test_data_hdrs(&pds, &ses, (uint32_t)payload);
	memset(buf, 0x5a, cap);
	return uet_frame_build(buf, cap, &a, &pds, &ses, NULL, payload);
}

START_TEST(test_data_frame_headers_are_read_from_the_first_segment)
{
	static uint8_t buf[4096 + 256];
	struct uet_wire_cfg cfg;
	struct uet_frame f;
	int len = data_frame(buf, sizeof(buf), 4096);

	uet_wire_cfg_default(&cfg);
	ck_assert_int_eq(len, UET_DATA_HDR_FRAME_BYTES + 4096);
	/* Exactly the headers: enough; one byte less: not. */
	ck_assert_int_eq(uet_frame_parse_head(&cfg, buf,
					      UET_DATA_HDR_FRAME_BYTES,
					      (size_t)len, &f, NULL),
			 0);
	ck_assert_int_eq(f.kind, UET_FRAME_UET);
	ck_assert(f.has_ses);
	ck_assert_uint_eq(f.payload_offset, UET_DATA_HDR_FRAME_BYTES);
	ck_assert_uint_eq(f.payload_bytes, 4096);
	ck_assert_int_eq(uet_frame_parse_head(&cfg, buf,
					      UET_DATA_HDR_FRAME_BYTES - 1,
					      (size_t)len, &f, NULL),
			 -EAGAIN);
	/* A switch's view needs Ethernet, IPv4 and UDP only. */
	cfg.depth = UET_FRAME_DEPTH_UDP;
	ck_assert_int_eq(uet_frame_parse_head(&cfg, buf, UET_FRAME_PDS_OFFSET,
					      (size_t)len, &f, NULL),
			 0);
	ck_assert_int_eq(f.kind, UET_FRAME_UET);
	ck_assert_uint_eq(f.udp.sport, 0x1234);
	ck_assert_uint_eq(f.payload_offset, UET_FRAME_PDS_OFFSET);
}
END_TEST

START_TEST(test_trailer_is_read_from_the_last_segments)
{
	static uint8_t buf[4096 + 256];
	static const size_t ends[] = {0, 3, 6, 11, 12};
	struct uet_wire_cfg cfg;
	unsigned int i;
	int len = data_frame(buf, sizeof(buf), 4096);

	uet_wire_cfg_default(&cfg);
	len = uet_ls_trailer_append(buf, (size_t)len, sizeof(buf), 84040);
	ck_assert_int_eq(len, UET_DATA_HDR_FRAME_BYTES + 4096 + 12);
	/* Headers, payload and trailer, the trailer's cut anywhere. */
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t cuts[2] = {UET_DATA_HDR_FRAME_BYTES,
				  (size_t)len - ends[i]};
		struct uet_frame f;
		struct chain c;

		chain_make(&c, buf, (size_t)len, cuts, 2);
		ck_assert_int_eq(
			uet_frame_parse_mbuf(&cfg, &c.seg[0], &f, NULL), 0);
		chain_free(&c);
		ck_assert(f.has_trailer);
		ck_assert_uint_eq(f.arrival_ps, 84040);
		ck_assert_uint_eq(f.ip_end, UET_DATA_HDR_FRAME_BYTES + 4096);
		ck_assert_uint_eq(f.payload_bytes, 4096);
	}
}
END_TEST

START_TEST(test_ethertype_of_short_and_chained_frames)
{
	uint8_t buf[64] = {0};
	size_t cut = 13;
	struct chain c;

	buf[12] = 0x88;
	buf[13] = 0xb5;
	chain_make(&c, buf, sizeof(buf), &cut, 1);
	ck_assert_int_eq(uet_frame_mbuf_ethertype(&c.seg[0]),
			 UET_ETHERTYPE_LOCKSTEP);
	chain_free(&c);
	chain_make(&c, buf, 13, NULL, 0);
	ck_assert_int_eq(uet_frame_mbuf_ethertype(&c.seg[0]), -EBADMSG);
	chain_free(&c);
}
END_TEST

static Suite *wire_mbuf_suite(void)
{
	Suite *s = suite_create("wire_mbuf");
	TCase *tc = tcase_create("mbuf");

	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_reader_equals_buffer_parse_at_every_cut);
	tcase_add_test(tc, test_reader_equals_buffer_parse_on_damaged_frames);
	tcase_add_test(tc, test_head_parse_reads_only_its_head);
	tcase_add_test(tc,
		       test_data_frame_headers_are_read_from_the_first_segment);
	tcase_add_test(tc, test_trailer_is_read_from_the_last_segments);
	tcase_add_test(tc, test_ethertype_of_short_and_chained_frames);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		vectors_dir = argv[1];
	return uet_check_run(wire_mbuf_suite());
}
