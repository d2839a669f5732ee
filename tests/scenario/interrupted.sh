#!/usr/bin/env bash
# uet-emu stopped by SIGINT, then by SIGTERM, mid-run (once its first
# progress line shows): it stops at the next window, says it was
# interrupted, exits 1, and every record and capture is whole and holds
# the run so far: no NAME.partial left, every CSV ends with a whole row as
# wide as its header, every pcap reads in tshark, flows.csv has one row
# per completed message as the summary counts them, and summary.csv says
# the run was interrupted, by which signal, at the virtual time it reached.
# Before, uet-emu kept no records whole on a signal (flows.csv empty,
# other CSVs cut mid-row), and its summary.csv said only intact 0, which
# read as a broken data path (issue 34, item 5).
# usage: interrupted.sh UET-EMU SCENARIO
set -euo pipefail
emu=$1 scenario=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir interrupted
pid=
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT

for sig in INT TERM; do
	out=$dir/$sig log=$dir/$sig.log
	"$emu" --out "$out" "$scenario" 2>"$log" &
	pid=$!
	for _ in $(seq 600); do
		grep -q ' messages done, ' "$log" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	grep -q ' messages done, ' "$log" || { cat "$log"; fail "$sig: no progress line"; }
	kill -"$sig" "$pid"
	rc=0
	wait "$pid" || rc=$?
	pid=
	grep -v ' messages done, ' "$log" | head -n 5
	[ "$rc" -eq 1 ] || { cat "$log"; fail "$sig: uet-emu exited $rc, want 1"; }
	grep -q "interrupted by SIG$sig at .* of virtual time" "$log" ||
		fail "$sig: no line saying the run was interrupted"
	if grep -q 'INTEGRITY FAILURE' "$log"; then
		fail "$sig: packets in flight taken for an integrity failure"
	fi
	files_whole "$out"
	done_msgs=$(summary "$out" completed)
	rows=$(tail -n +2 "$out/flows.csv" | wc -l)
	[ -n "$done_msgs" ] && [ "$done_msgs" -gt 0 ] ||
		fail "$sig: no message completed before the signal"
	[ "$rows" -eq "$done_msgs" ] ||
		fail "$sig: flows.csv has $rows rows, the summary $done_msgs completed"
	[ "$(summary "$out" interrupted)" = 1 ] &&
		[ "$(summary "$out" interrupted_by)" = "SIG$sig" ] &&
		[ "$(summary "$out" interrupted_at_ps)" = "$(summary "$out" virtual_ps)" ] &&
		[ "$(summary "$out" virtual_ps)" -gt 0 ] ||
		fail "$sig: summary.csv does not say the run was interrupted: $(grep -E '^(interrupted|virtual_ps)' "$out/summary.csv" | tr '\n' ' ')"
	echo "ok: SIG$sig: exit 1, $n files whole, $rows messages in flows.csv, interrupted at $(summary "$out" interrupted_at_ps) ps"
done
