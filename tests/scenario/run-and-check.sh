#!/usr/bin/env bash
# A scenario run end to end in uet-emu, then checked from its records:
#  - exit 0: every message completed, every delivered byte equal to what was
#    sent, in-flight bytes never negative, every PSN retired exactly once
#    (uet-emu checks these and exits 1 otherwise);
#  - flows.csv has one completed row per message of the workload;
#  - a second run of the same scenario and seed writes byte-identical
#    records and captures (lockstep determinism);
#  - every port-N.pcap decodes in tshark with the project's dissector, with
#    no malformed frame and no error-level expert item.
# usage: run-and-check.sh UET-EMU LUA SCENARIO MESSAGES
set -euo pipefail
emu=$1 lua=$2 scenario=$3 messages=$4
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir scenario

run_emu "$emu" "$dir/a" "$scenario" "$dir/a.log"
cat "$dir/a.log"
grep -q "payload mismatches 0, in-flight anomalies 0" "$dir/a.log" || {
	echo "FAIL: integrity line missing"; exit 1; }

rows=$(tail -n +2 "$dir/a/flows.csv" | wc -l)
[ "$rows" -eq "$messages" ] || {
	echo "FAIL: flows.csv has $rows rows, want $messages"; exit 1; }
# completed_ps is column 11: every message has one.
if tail -n +2 "$dir/a/flows.csv" | awk -F, '$11 == "" {exit 1}'; then :; else
	echo "FAIL: a flows.csv row has no completion time"; exit 1
fi

run_emu "$emu" "$dir/b" "$scenario" "$dir/b.log"
same_records "$dir/a" "$dir/b"
echo "ok: two runs wrote byte-identical records ($(ls "$dir/a" | wc -l) files)"

for p in "$dir"/a/port-*.pcap; do
	total=$(tshark -X lua_script:"$lua" -r "$p" 2>"$dir/tshark.err" | wc -l)
	bad=$(tshark -X lua_script:"$lua" -r "$p" \
		-Y '_ws.malformed || _ws.expert.severity == error' 2>>"$dir/tshark.err" | wc -l)
	uet=$(tshark -X lua_script:"$lua" -r "$p" -Y 'uet.pds.type' 2>>"$dir/tshark.err" | wc -l)
	# tshark warns on every start when run as root; anything else is news.
	sed -i '/^Running as user "root"/d' "$dir/tshark.err"
	if [ -s "$dir/tshark.err" ]; then
		cat "$dir/tshark.err"; echo "FAIL: tshark complained on $p"; exit 1
	fi
	[ "$bad" -eq 0 ] || { echo "FAIL: $bad malformed frames in $p"; exit 1; }
	[ "$total" -gt 0 ] && [ "$uet" -eq "$total" ] || {
		echo "FAIL: $p: $uet of $total frames decoded as UET"; exit 1; }
	echo "ok: $(basename "$p"): $total frames, all UET, none malformed"
done
