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
summary_intact "$dir/a" "$(summary "$dir/a" psns_taken)"
[ "$(summary "$dir/a" messages)" -eq "$messages" ] ||
	fail "summary.csv: $(summary "$dir/a" messages) messages, want $messages"

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

# One dissection per capture: the frames that are UET and neither
# malformed nor carrying an error must be all of them (capinfos counts
# them without dissecting). Only on a mismatch is it said which it was.
for p in "$dir"/a/port-*.pcap; do
	total=$(capinfos -Mcr -T "$p" | cut -f2)
	good=$(tshark -X lua_script:"$lua" -r "$p" \
		-Y 'uet.pds.type && !(_ws.malformed || _ws.expert.severity == error)' \
		2>"$dir/tshark.err" | wc -l)
	# tshark warns on every start when run as root; anything else is news.
	sed -i '/^Running as user "root"/d' "$dir/tshark.err"
	if [ -s "$dir/tshark.err" ]; then
		cat "$dir/tshark.err"; echo "FAIL: tshark complained on $p"; exit 1
	fi
	if [ "$total" -eq 0 ] || [ "$good" -ne "$total" ]; then
		bad=$(tshark -X lua_script:"$lua" -r "$p" \
			-Y '_ws.malformed || _ws.expert.severity == error' 2>/dev/null | wc -l)
		uet=$(tshark -X lua_script:"$lua" -r "$p" -Y 'uet.pds.type' 2>/dev/null | wc -l)
		echo "FAIL: $p: $total frames, $uet decoded as UET, $bad malformed or in error"
		exit 1
	fi
	echo "ok: $(basename "$p"): $total frames, all UET, none malformed"
done
