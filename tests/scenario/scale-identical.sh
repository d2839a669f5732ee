#!/usr/bin/env bash
# At uet-htsim's scale: a permutation of 8,192 hosts (k = 32 fat tree, every
# flow across the core) runs to completion with every message intact, and
# writes byte-identical records on 1, 2 and 3 lcores (all but
# wall-time.csv). Small messages keep it to seconds: the fabric, the NICs and
# the parts are those of the 2 MB benchmark (tests/bench/bench-scale).
# usage: scale-identical.sh UET-EMU
set -euo pipefail
emu=$1
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir scale-identical

for l in 1 2 3; do
	cat >"$dir/s$l.yaml" <<EOS
run: {end: 300us, lcores: $l, progress: false}
topology: {kind: fat-tree, k: 32, link_rate: 100Gbps, link_delay: 1us}
nic: {DataRate: 100Gbps, Delay: 1us}
records: {NDStatsReportInterval: 50us}
workload:
  generate: {pattern: permutation, size: 64KiB, count: 1}
EOS
	run_emu "$emu" "$dir/out-$l" "$dir/s$l.yaml" "$dir/log-$l"
	grep -q "^uet-emu: 8192 of 8192 messages completed" "$dir/log-$l" ||
		{ cat "$dir/log-$l"; fail "$l lcores: not every message completed"; }
	grep -q "payload mismatches 0, in-flight anomalies 0" "$dir/log-$l" ||
		fail "$l lcores: payload mismatches or anomalies"
done
# Expected at 838 MiB, the run puts its pools and heap on transparent huge
# pages where the kernel gives them on request (run_huge_pages.c).
if grep -q '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
	huge=$(sed -n 's/^huge_pages_kib,//p' "$dir/out-1/$WALL_FILE")
	rss=$(sed -n 's/^peak_rss_kib,//p' "$dir/out-1/$WALL_FILE")
	[ -n "$huge" ] && [ "$huge" -ge $((64 * 1024)) ] ||
		fail "huge pages on request, yet the run had ${huge:-no} KiB on them (peak RSS ${rss:-?} KiB)"
	echo "ok: $huge of $rss KiB on transparent huge pages"
fi
[ "$(sed 1d "$dir/out-1/flows.csv" | wc -l)" -eq 8192 ] ||
	fail "flows.csv has not one row per message"
for l in 2 3; do
	diff -r -x "$WALL_FILE" "$dir/out-1" "$dir/out-$l" >/dev/null || {
		diff -rq -x "$WALL_FILE" "$dir/out-1" "$dir/out-$l" || true
		fail "records differ between 1 and $l lcores"; }
done
echo "ok: 8,192 hosts, every message intact, records identical on 1, 2 and 3 lcores ($(find "$dir/out-1" -type f | wc -l) files)"
