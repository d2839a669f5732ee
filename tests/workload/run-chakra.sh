#!/usr/bin/env bash
# Chakra traces end to end in uet-emu. For every trace set (PREFIX.0.et ..
# PREFIX.<n-1>.et) found under DIR with N ranks: a scenario of N hosts runs
# it; uet-emu must exit 0 (every rank's trace completed, every message
# completed and intact), and a second run must write byte-identical
# records, with one finished trace row per rank in workload.csv. Prints
# each trace's completion time (the last rank's).
# usage: run-chakra.sh UET-EMU DIR RANKS [KEY: VALUE ...]
#   extra workload keys (e.g. "reduce_chunk: 7us") go into every scenario.
set -euo pipefail
emu=$1 root=$2 ranks=$3
shift 3
extra=""
for kv in "$@"; do extra="$extra, $kv"; done
dir=$(mktemp -d /tmp/uet-chakra.XXXXXX)
trap 'rm -rf "$dir"' EXIT

found=0
while IFS= read -r first; do
	prefix=${first%.0.et}
	n=0
	while [ -e "$prefix.$n.et" ]; do n=$((n + 1)); done
	[ "$n" -eq "$ranks" ] || continue
	found=$((found + 1))
	name=${prefix#"$root"/}
	cat >"$dir/s.yaml" <<YAML
run: {end: 10ms, progress: false}
topology: {hosts: $n}
records: {EnablePcap: false}
workload: {chakra: "$prefix"$extra}
YAML
	for run in a b; do
		"$emu" --out "$dir/$run" "$dir/s.yaml" 2>"$dir/$run.log" || {
			cat "$dir/$run.log"
			echo "FAIL: $name: uet-emu exited $? (run $run)"
			exit 1
		}
	done
	# wall-time.csv (wall-clock figures) is the one file that varies
	# between runs.
	diff -r -x wall-time.csv "$dir/a" "$dir/b" >/dev/null || {
		diff -rq -x wall-time.csv "$dir/a" "$dir/b" || true
		echo "FAIL: $name: the records differ between two runs"
		exit 1
	}
	# Ranks whose trace completed: a time in summary.csv's rank.R.end_ps.
	done_ranks=$(grep -c '^rank\.[0-9]*\.end_ps,[0-9]' "$dir/a/summary.csv")
	[ "$done_ranks" -eq "$n" ] || {
		cat "$dir/a.log"; echo "FAIL: $name: $done_ranks of $n ranks"; exit 1; }
	rows=$(awk -F, '$2 == "trace" && $8 != ""' "$dir/a/workload.csv" | wc -l)
	[ "$rows" -eq "$n" ] || {
		echo "FAIL: $name: workload.csv has $rows finished trace rows"
		exit 1; }
	end=$(sed -n 's/.*trace completed at .* (\([0-9]*\) ps).*/\1/p' \
		"$dir/a.log" | sort -n | tail -1)
	echo "ok: $name: $n ranks, completed at $end ps, two runs identical"
	rm -rf "$dir/a" "$dir/b"
done < <(find "$root" -name '*.0.et' | sort)
[ "$found" -gt 0 ] || { echo "FAIL: no $ranks-rank trace under $root"; exit 1; }
