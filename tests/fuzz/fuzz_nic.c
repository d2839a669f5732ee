/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer target for what lib/wire's mbuf reader feeds: two live NICs
 * (lib/nic) on a one-switch fabric (lib/fabric), each sending a message to
 * the other, while the input puts frames of its own on the links between
 * the valid ones: raw bytes, or copies of recent valid frames with bytes
 * patched, cut or replayed, in mbuf chains of an input-chosen segment size,
 * into a NIC (as if from the switch) or into a switch port (as if from a
 * host). The three run in lockstep windows of the link delay, as lib/sync
 * runs them.
 *
 * What must hold for every input (abort() otherwise):
 *   - no crash, no sanitizer report, no error out of a component;
 *   - a group's in-flight bytes never go negative (in_flight_anomalies);
 *   - no PSN retired twice (retired <= taken), no message completed twice;
 *   - every mbuf back in the pool once the models are destroyed.
 *   - every payload byte a NIC delivers is the pattern's, unless a UET
 *     data frame for that host was injected.
 * When no injected frame parses as UET (garbage and PFC pauses only), the
 * run must end as if nothing had been injected: both messages sent,
 * arrived with their size and completed once, every PSN retired once, the
 * receiver's delivered bytes the messages' bytes, both NICs idle.
 *
 * Input: byte 0 picks the scenario and the segment size, bytes 1-3 the two
 * message sizes and the second's start; then operations, each one byte
 * (windows to run first, target, kind) and its arguments (fuzz_nic_op()).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_nic.h"

/* Input reader: bytes run out as zeros. */
struct fz_in {
	const uint8_t *p;
	size_t n;
};

static uint8_t in_u8(struct fz_in *in)
{
	uint8_t b = 0;

	if (in->n != 0) {
		b = *in->p++;
		in->n--;
	}
	return b;
}

static uint16_t in_u16(struct fz_in *in)
{
	uint16_t hi = in_u8(in);

	return (uint16_t)(hi << 8 | in_u8(in));
}

/*
 * One operation: byte op, then its arguments.
 *   op & 7         windows to run first;
 *   (op >> 3) & 3  target: NIC 0, NIC 1, switch port 0, switch port 1;
 *   op >> 5        0-1: raw frame (u16 length, bytes);
 *                  2: a kept frame (u8 which) with u8 % 9 bytes set
 *                     (u16 offset, u8 value);
 *                  3: the same, xor-ed into the first 128 bytes
 *                     (u8 offset, u8 value);
 *                  4: a kept frame cut to u16 % (length + 1) bytes;
 *                  5: a kept frame again, unchanged;
 *                  6: the segment size of later frames, 1 + u8 * 8;
 *                  7: run u8 more windows.
 */
static void fuzz_nic_op(const struct fz_variant *var, struct fz_in *in)
{
	static uint8_t buf[FZ_FRAME_MAX];
	const uint8_t op = in_u8(in);
	const unsigned int target = (op >> 3) & 3;
	unsigned int i, n;
	uint32_t len;

	for (i = 0; i < (op & 7u); i++)
		fz_run_window(var);
	switch (op >> 5) {
	case 0:
	case 1:
		len = in_u16(in) % (FZ_FRAME_MAX + 1);
		if (len > in->n)
			len = (uint32_t)in->n;
		memcpy(buf, in->p, len);
		in->p += len;
		in->n -= len;
		fz_inject(target, buf, len);
		return;
	case 6:
		fz.seg = (uint16_t)(1 + in_u8(in) * 8);
		return;
	case 7:
		n = in_u8(in);
		for (i = 0; i < n; i++)
			fz_run_window(var);
		return;
	default:
		break;
	}
	if (fz.nkept == 0)
		return;
	{
		const struct fz_kept *k = &fz.kept[in_u8(in) % fz.nkept];

		len = k->len;
		memcpy(buf, k->bytes, len);
	}
	switch (op >> 5) {
	case 2:
		n = in_u8(in) % 9;
		for (i = 0; i < n && len != 0; i++) {
			const uint16_t off = in_u16(in);

			buf[off % len] = in_u8(in);
		}
		break;
	case 3:
		n = in_u8(in) % 9;
		for (i = 0; i < n && len != 0; i++) {
			const uint8_t off = in_u8(in);

			buf[off % (len < 128 ? len : 128)] ^= in_u8(in);
		}
		break;
	case 4:
		len = in_u16(in) % (len + 1);
		break;
	default:
		break;
	}
	fz_inject(target, buf, len);
}

/* What must hold at the end of every run, and of a clean one. */
static void check_end(void)
{
	uint64_t to_host[FZ_HOSTS] = {0};
	unsigned int h, i;

	for (i = 0; i < 2; i++) {
		const struct fz_msg *m = &fz.msg[i];

		if (!m->posted)
			continue;
		FZ_CHECK(m->sent <= 1 && m->completed <= 1);
		to_host[m->dst] += m->bytes;
		if (fz.tainted)
			continue;
		FZ_CHECK(m->sent == 1 && m->arrived == 1 && m->completed == 1);
		FZ_CHECK(m->arrived_bytes == m->bytes);
	}
	for (h = 0; h < FZ_HOSTS; h++) {
		struct uet_nic_stats s;

		uet_nic_stats(fz.nic[h], &s);
		FZ_CHECK(s.in_flight_anomalies == 0);
		FZ_CHECK(s.psns_retired <= s.psns_taken);
		FZ_CHECK(s.mbuf_failures == 0);
		/* Only a forged data frame brings other payload bytes. */
		FZ_CHECK(fz.data_to[h] || s.payload_mismatches == 0);
		if (fz.tainted)
			continue;
		FZ_CHECK(s.psns_retired == s.psns_taken);
		FZ_CHECK(s.transport.in_flight_bytes == 0);
		FZ_CHECK(s.transport.data_payload_bytes_delivered ==
			 to_host[h]);
		FZ_CHECK(uet_nic_idle(fz.nic[h]));
	}
}

/* The scenario of byte 0: its three low bits, those past the last
 * scenario read as the two lowest. */
static unsigned int fz_variant_of(uint8_t cfg)
{
	const unsigned int v = cfg & 7u;

	return v < FZ_VARIANTS ? v : v & 3u;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool up;
	struct fz_in in = {data, size};
	const struct fz_variant *var;
	unsigned int ops, windows;
	uint8_t cfg;

	if (!up) {
		fz_setup();
		up = true;
	}
	memset(&fz, 0, sizeof(fz));
	cfg = in_u8(&in);
	var = &fz_var[fz_variant_of(cfg)];
	fz.seg = (uint16_t)(cfg & 0x80 ? 128 : 2048);
	fz_start(var);
	fz_post(0, 0, (uint64_t)in_u8(&in) * 131, 0);
	{
		const uint8_t b = in_u8(&in), at = in_u8(&in);

		if (b != 0)
			fz_post(1, 1, (uint64_t)(b - 1) * 97,
				(uet_time_t)at * 100000);
	}
	for (ops = 0; ops < FZ_OPS_MAX && in.n != 0; ops++)
		fuzz_nic_op(var, &in);
	/* The valid traffic runs on to its end (or the cap). */
	for (windows = 0; windows < FZ_WINDOWS_MAX && fz.t < FZ_END_PS;
	     windows++) {
		const uet_time_t t = fz_next_time();

		if (t == UET_TIME_NEVER)
			break;
		if (t > fz.t)
			fz.t = t;
		fz_run_window(var);
	}
	check_end();
	if (fz_trace || getenv("FUZZ_NIC_VERBOSE") != NULL)
		fprintf(stderr,
			"fuzz_nic: scenario %u, %u ops, %s, end %lu ps, "
			"messages completed %u %u, arrived %u %u\n",
			fz_variant_of(cfg), ops,
			fz.tainted ? "UET injected"
			: fz.pfc   ? "PFC injected"
				   : "clean",
			(unsigned long)fz.t, fz.msg[0].completed,
			fz.msg[1].completed, fz.msg[0].arrived,
			fz.msg[1].arrived);
	fz_stop();
	return 0;
}
