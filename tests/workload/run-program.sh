#!/usr/bin/env bash
# A program workload (workload.matrix or workload.generate) end to end in
# uet-emu: exit 0 (every message completed intact, every host's graph
# finished); workload-messages.csv and flows.csv hold one row per message,
# each arrived (every byte delivered) and completed; a second run writes
# byte-identical records. Then each RELATION must hold between the rows
# of workload-messages.csv, matched by origin (the matrix line):
#   posted:A=sent:B+D     A was posted D ps after B's send completion
#   posted:A=arrived:B+D  A was posted D ps after B arrived
# usage: run-program.sh UET-EMU SCENARIO MESSAGES [RELATION ...]
set -euo pipefail
emu=$1 scenario=$2 messages=$3
shift 3
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir program

for run in a b; do
	run_emu "$emu" "$dir/$run" "$scenario" "$dir/$run.log"
done
cat "$dir/a.log"
[ "$(summary "$dir/a" payload_mismatches)" -eq 0 ] &&
	[ "$(summary "$dir/a" in_flight_anomalies)" -eq 0 ] &&
	[ "$(summary "$dir/a" intact)" -eq 1 ] || fail "integrity (summary.csv)"
same_records "$dir/a" "$dir/b"

wm="$dir/a/workload-messages.csv"
rows=$(tail -n +2 "$wm" | wc -l)
[ "$rows" -eq "$messages" ] || {
	echo "FAIL: workload-messages.csv has $rows rows, want $messages"; exit 1; }
# arrived_ps is column 8: every message arrived.
tail -n +2 "$wm" | awk -F, '$8 == "" {exit 1}' || {
	echo "FAIL: a message never arrived"; exit 1; }
rows=$(tail -n +2 "$dir/a/flows.csv" | awk -F, '$11 != ""' | wc -l)
[ "$rows" -eq "$messages" ] || {
	echo "FAIL: flows.csv has $rows completed rows, want $messages"; exit 1; }
# Every byte: the bytes of flows.csv's rows equal the program's.
want=$(tail -n +2 "$wm" | awk -F, '{s += $4} END {print s}')
got=$(tail -n +2 "$dir/a/flows.csv" | awk -F, '{s += $6} END {print s}')
[ "$want" = "$got" ] || {
	echo "FAIL: flows.csv carries $got bytes, the program $want"; exit 1; }
echo "ok: $messages messages, $want bytes delivered, two runs identical"

col() { # origin, column name -> value
	awk -F, -v o="$1" -v c="$2" 'NR == 1 {for (i = 1; i <= NF; i++)
		if ($i == c) k = i; next} $5 == o {print $k; exit}' "$wm"
}
for rel in "$@"; do
	if [[ ! $rel =~ ^posted:([0-9]+)=(sent|arrived):([0-9]+)\+([0-9]+)$ ]]
	then
		echo "FAIL: bad relation $rel"; exit 1
	fi
	a=${BASH_REMATCH[1]} what=${BASH_REMATCH[2]} b=${BASH_REMATCH[3]}
	d=${BASH_REMATCH[4]}
	posted=$(col "$a" posted_ps) ref=$(col "$b" "${what}_ps")
	[ -n "$posted" ] && [ -n "$ref" ] &&
		[ "$posted" -eq $((ref + d)) ] || {
		echo "FAIL: $rel: line $a posted at $posted, line $b $what at $ref"
		exit 1; }
	echo "ok: $rel ($posted ps)"
done
