#!/usr/bin/env bash
# An output folder is owned by one run at a time (issue 34, item 2): a
# second uet-emu into the folder of a run still going stops at once,
# exit 1, naming the process that holds it, and touches none of its
# files; the first run ends whole; once it has, the folder is free.
# Before, both ran, flows.csv had rows out of order and both said the
# files "are not there".
# usage: one-run-per-folder.sh UET-EMU LONG-SCENARIO SHORT-SCENARIO
set -euo pipefail
emu=$1 long=$2 short=$3
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir one-run-per-folder
pid=
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
out=$dir/same

"$emu" --out "$out" "$long" 2>"$dir/first.log" &
pid=$!
for _ in $(seq 600); do
	grep -q ' messages done, ' "$dir/first.log" && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
grep -q ' messages done, ' "$dir/first.log" || { cat "$dir/first.log"; fail "the first run shows no progress"; }
(cd "$out" && ls -A) >"$dir/files.before"

rc=0
"$emu" --out "$out" "$short" 2>"$dir/second.log" || rc=$?
cat "$dir/second.log"
[ "$rc" -eq 1 ] || fail "second run: exit status $rc, want 1"
grep -q "$out is in use by process $pid (uet-emu), a run writing its records there" \
	"$dir/second.log" || fail "second run: the holder (process $pid) not named"
(cd "$out" && ls -A) >"$dir/files.after"
cmp -s "$dir/files.before" "$dir/files.after" ||
	fail "second run: the first run's files changed: $(diff "$dir/files.before" "$dir/files.after" | tr '\n' ' ')"
echo "ok: a second run into the folder stops, naming process $pid"

kill -TERM "$pid"
wait "$pid" || true
pid=
files_whole "$out"
done_msgs=$(summary "$out" completed)
rows=$(tail -n +2 "$out/flows.csv" | wc -l)
[ "$rows" -eq "$done_msgs" ] ||
	fail "the first run's flows.csv has $rows rows, its summary $done_msgs completed"
echo "ok: the first run ended whole, $n files, $rows messages in flows.csv"

run_emu "$emu" "$out" "$short" "$dir/third.log"
echo "ok: once the first run ended, the folder is free"
