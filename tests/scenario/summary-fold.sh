#!/usr/bin/env bash
# The closing summary of a large run (app/common/run_summary.c,
# run_workload.c): up to 32 uplinks or ranks are listed a line each; more
# get one line of ranges, whose figures must be those of the records
# (summary.csv has every uplink, workload.csv every rank).
# - fat-tree-16 (32 uplinks): 32 uplink lines;
# - fat-tree-128 (256 uplinks): one line, its frame and byte ranges and
#   its peak those of summary.csv's 256 uplinks, and no uplink listed;
# - a generated permutation on 64 hosts: one line for the 64 ranks, its
#   last completion the largest end in workload.csv, and no rank listed.
# usage: summary-fold.sh UET-EMU EXAMPLES_DIR
set -euo pipefail
emu=$1 examples=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir summary-fold

# 1. Few uplinks: each listed.
run_emu "$emu" "$dir/ft16" "$examples/fat-tree-16.yaml" "$dir/ft16.log"
n=$(grep -c '^uet-emu: uplink ' "$dir/ft16.log" || true)
[ "$n" -eq 32 ] || { cat "$dir/ft16.log"; fail "fat-tree-16: $n uplink lines, want 32"; }
echo "ok: fat-tree-16: 32 uplinks listed"

# 2. Many uplinks: one line, the records' ranges.
run_emu "$emu" "$dir/ft128" "$examples/fat-tree-128.yaml" "$dir/ft128.log"
! grep -q '^uet-emu: uplink ' "$dir/ft128.log" ||
	fail "fat-tree-128: uplinks listed one by one"
line=$(grep '^uet-emu: 256 uplinks: ' "$dir/ft128.log") ||
	{ cat "$dir/ft128.log"; fail "fat-tree-128: no line for its 256 uplinks"; }
want=$(awk -F, '
	/^uplink\..*\.frames,/ { n++; f = $2 + 0; if (n == 1 || f < flo) flo = f; if (f > fhi) fhi = f }
	/^uplink\..*\.bytes,/ { m++; b = $2 + 0; if (m == 1 || b < blo) blo = b; if (b > bhi) bhi = b }
	/^uplink\..*\.dropped,/ { d += $2 }
	/^uplink\..*\.trimmed,/ { t += $2 }
	/^uplink\..*\.peak_queue_bytes,/ { if ($2 + 0 > p) p = $2 + 0 }
	END { printf "%d uplinks: %d-%d frames and %d-%d bytes each, %d dropped, %d trimmed, peak queue up to %d bytes",
		n, flo, fhi, blo, bhi, d, t, p }' "$dir/ft128/summary.csv")
[ "$line" = "uet-emu: $want (each uplink in summary.csv)" ] ||
	fail "fat-tree-128: the line says '$line', summary.csv '$want'"
echo "ok: fat-tree-128: $line"

# 3. Many ranks: one line, the records' last completion.
cat >"$dir/perm64.yaml" <<'YAML'
run: {seed: 3, end: 10ms, progress: false}
topology: {hosts: 64}
records: {EnablePcap: false}
workload:
  generate: {pattern: permutation, size: 64KiB, count: 1, start: 1us}
YAML
run_emu "$emu" "$dir/perm64" "$dir/perm64.yaml" "$dir/perm64.log"
! grep -q '^uet-emu: rank [0-9]*: ' "$dir/perm64.log" ||
	fail "64 ranks: ranks listed one by one"
last=$(awk -F, '$2 == "trace" && $8 != "" { n++; if ($8 + 0 > e) e = $8 + 0 }
	END { if (n == 64) print e }' "$dir/perm64/workload.csv")
[ -n "$last" ] || fail "64 ranks: workload.csv does not hold 64 finished traces"
grep -Eq "^uet-emu: 64 of 64 ranks' traces completed, between [0-9.]+[mun]?s and [0-9.]+[mun]?s \($last ps; each rank in workload.csv\)\$" \
	"$dir/perm64.log" || { cat "$dir/perm64.log"; fail "64 ranks: no line ending at $last ps"; }
echo "ok: 64 ranks: $(grep "ranks' traces" "$dir/perm64.log")"

# 4. Many ranks not completed: the first 32 listed with what each waits
# for, then how many more; the run exits 1.
sed 's/end: 10ms/end: 2us/' "$dir/perm64.yaml" >"$dir/short64.yaml"
rc=0
"$emu" --out "$dir/short64" "$dir/short64.yaml" 2>"$dir/short64.log" || rc=$?
[ "$rc" -eq 1 ] || { cat "$dir/short64.log"; fail "64 ranks cut short: exit $rc, want 1"; }
n=$(grep -c '^uet-emu: rank [0-9]*: not completed, ' "$dir/short64.log" || true)
[ "$n" -eq 32 ] || { cat "$dir/short64.log"; fail "64 ranks cut short: $n listed, want 32"; }
grep -q '^uet-emu: and 32 more ranks not completed$' "$dir/short64.log" ||
	{ cat "$dir/short64.log"; fail "64 ranks cut short: no line for the 32 more"; }
! grep -q "ranks' traces completed" "$dir/short64.log" ||
	fail "64 ranks cut short: a line for completed traces, none completed"
echo "ok: 64 ranks cut short at 2 us: 32 listed, 32 more counted"
