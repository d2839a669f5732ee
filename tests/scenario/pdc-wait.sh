#!/usr/bin/env bash
# A NIC with more messages than PDC numbers (pdc-wait.yaml): every one of
# the 70,000 messages completes, none is dropped, and the sender opens
# their PDCs in post order (uet-events.csv: its pdc_created rows name
# messages 0, 1, 2, ...); message 65,535 opens with number 1, at the
# instant message 0's PDC closes and frees it. The records of two runs,
# on 1 and 2 lcores, are byte-identical.
# usage: pdc-wait.sh UET-EMU SCENARIO
set -euo pipefail
emu=$1 scenario=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir pdc-wait

sed 's/^run: {/run: {lcores: 1, /' "$scenario" >"$dir/s1.yaml"
sed 's/^run: {/run: {lcores: 2, /' "$scenario" >"$dir/s2.yaml"
run_emu "$emu" "$dir/a" "$dir/s1.yaml" "$dir/a.log"
summary_intact "$dir/a" 70000
[ "$(summary "$dir/a" messages)" -eq 70000 ] || fail "not 70,000 messages"
! grep -q 'no PDC\|no memory for message' "$dir/a.log" || { cat "$dir/a.log"; fail "a message was dropped"; }
awk -F, '$2 == "198.18.0.2" && $7 == "pdc_created" {
		if ($5 != n) { print "message " $5 " opened where " n " was due"; exit 1 }
		n++ }
	END { if (n != 70000) { print n " PDCs opened"; exit 1 } }' \
	"$dir/a/uet-events.csv" || fail "the sender's PDCs did not open in post order"
opened=$(awk -F, '$2 == "198.18.0.2" && $7 == "pdc_created" && $5 == 65535 {
	print $1 "," $3 }' "$dir/a/uet-events.csv")
closed=$(awk -F, '$2 == "198.18.0.2" && $7 == "pdc_closed" && $5 == 0 {
	print $1 "," $3 }' "$dir/a/uet-events.csv")
if [ "$opened" != "$closed" ] || [ "${opened#*,}" != 1 ]; then
	fail "message 65535 opened at $opened (time, PDC), message 0 closed at $closed"
fi
echo "ok: 70000 messages, PDCs opened in post order, message 65535 with PDC 1 at ${opened%,*} ps"
run_emu "$emu" "$dir/b" "$dir/s2.yaml" "$dir/b.log"
same_records "$dir/a" "$dir/b"
echo "ok: 1 and 2 lcores wrote byte-identical records"
