#!/usr/bin/env bash
# The 8-to-1 incast through one switch with PFC on the data class (TC0)
# and trimming off, checked from the summary, flows.csv and the captures:
#  - every message completes, every PSN retired once, payloads intact;
#  - a second run writes byte-identical records and captures;
#  - the switch drops and trims nothing, and nothing is resent (no
#    retransmission, NACK or timeout in flows.csv);
#  - host 0's capture holds every data packet exactly once (2,048 full
#    RUD_CC_REQ frames: 8 MiB of payload);
#  - tshark's own decoder reads the pause frames as PFC (MAC control
#    opcode 0x0101, class 0 enabled), the project's dissector claims none
#    of them, and no frame is malformed;
#  - every sender's port carries the switch's pauses to its NIC, XOFF
#    (class 0 quanta 65535) and XON (quanta 0) alternating;
#  - switch: the same number on every sender's port (the incast is
#    symmetric), none on host 0's;
#  - nic (nic.LaneCount 8: the receiver's PCIe is slower than its port):
#    host 0's NIC also pauses the switch (pause frames on port 0, from host
#    0's MAC), and still nothing is dropped.
# usage: incast-pfc.sh UET-EMU LUA SCENARIO switch|nic
set -euo pipefail
emu=$1 lua=$2 scenario=$3 mode=$4
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir pfc

run_emu "$emu" "$dir/out" "$scenario" "$dir/log"
cat "$dir/log"
[ "$(summary "$dir/out" messages)" -eq 8 ] || fail "not 8 messages"
summary_intact "$dir/out" 2048
[ "$(summary "$dir/out" switch_drops)" -eq 0 ] &&
	[ "$(summary "$dir/out" switch_trims)" -eq 0 ] ||
	fail "the switch dropped or trimmed"
# flows.csv: bytes column 6, completed_ps 11, retransmits to timeouts 13-16.
read -r rows bytes resent < <(tail -n +2 "$dir/out/flows.csv" |
	awk -F, '$11 != "" {n++; b += $6; r += $13 + $14 + $15 + $16}
		 END {print n + 0, b + 0, r + 0}')
[ "$rows" -eq 8 ] || fail "$rows completed flows, want 8"
[ "$bytes" -eq $((8 * 1048576)) ] || fail "$bytes bytes, want 8 MiB"
[ "$resent" -eq 0 ] || fail "$resent retransmissions, NACKs or timeouts"

# Pauses are events in virtual time: a second run writes the same bytes.
run_emu "$emu" "$dir/again" "$scenario" "$dir/again.log"
same_records "$dir/out" "$dir/again"
echo "ok: two runs wrote byte-identical records and captures"

ts() { tshark -X lua_script:"$lua" -r "$@" 2>>"$dir/tshark.err"; }
data=$(ts "$dir/out/port-0.pcap" -Y 'uet.pds.type == 13 && frame.len == 4198' | wc -l)
[ "$data" -eq 2048 ] || fail "host 0 received $data full data frames, want 2048"
echo "ok: 2048 data frames of 4096 bytes reached host 0, none twice"

xoff_ports=""
for p in "$dir"/out/port-*.pcap; do
	name=$(basename "$p")
	bad=$(ts "$p" -Y '_ws.malformed || _ws.expert.severity == error' | wc -l)
	[ "$bad" -eq 0 ] || fail "$bad malformed frames in $name"
	# The pause frames, one tshark pass: protocols, sender, class-enable
	# vector, class 0's pause time (the checks below read these fields).
	ts "$p" -Y 'macc.opcode == 0x0101' -T fields -E separator=, \
		-e frame.protocols -e eth.src -e macc.cbfc.enbv \
		-e macc.cbfc.pause_time.c0 >"$dir/pfc.csv"
	pfc=$(wc -l <"$dir/pfc.csv")
	# uet.lua must leave them to MAC control: no uet or uetlock layer.
	claimed=$(awk -F, '$1 ~ /:(uet|uetlock)(:|$)/' "$dir/pfc.csv" | wc -l)
	[ "$claimed" -eq 0 ] || fail "$name: uet.lua claimed $claimed pause frames"
	notc0=$(awk -F, '$3 != "0x0001"' "$dir/pfc.csv" | wc -l)
	[ "$notc0" -eq 0 ] || fail "$name: $notc0 pause frames not for class 0 alone"
	xoff=$(awk -F, '$4 == "65535"' "$dir/pfc.csv" | wc -l)
	xon=$(awk -F, '$4 == "0"' "$dir/pfc.csv" | wc -l)
	[ "$xoff" -eq "$xon" ] && [ $((xoff + xon)) -eq "$pfc" ] ||
		fail "$name: $pfc pause frames: $xoff XOFF, $xon XON"
	# In time order they alternate XOFF, XON, ... per sender.
	seq=$(awk -F, '
		{ want = (n[$2]++ % 2 == 0) ? 65535 : 0
		  if ($4 != want) bad++ }
		END { print bad + 0 }' "$dir/pfc.csv")
	[ "$seq" -eq 0 ] || fail "$name: XOFF and XON do not alternate"
	[ "$name" != port-0.pcap ] || cut -d, -f2 "$dir/pfc.csv" | sort -u >"$dir/port0-src"
	echo "ok: $name: $pfc PFC frames ($xoff XOFF, $xon XON), none malformed"
	case $name in
	port-0.pcap) port0=$pfc ;;
	*) xoff_ports="$xoff_ports $xoff" ;;
	esac
done
sed -i '/^Running as user "root"/d' "$dir/tshark.err"
[ ! -s "$dir/tshark.err" ] || { cat "$dir/tshark.err"; fail "tshark complained"; }

for x in $xoff_ports; do
	[ "$x" -gt 0 ] || fail "a sender was never paused:$xoff_ports"
done
case $mode in
switch)
	# Counts per sender differ once ECN marks steer NSCC's windows apart;
	# each sender paused (above) and host 0 never is the rule here.
	[ "$port0" -eq 0 ] || fail "$port0 pause frames on host 0's link" ;;
nic)
	[ "$port0" -gt 0 ] || fail "host 0's NIC paused nothing"
	src=$(cat "$dir/port0-src")
	[ "$src" = "02:00:00:00:00:01" ] ||
		fail "pause frames on port 0 from $src, not host 0's NIC" ;;
*) fail "unknown mode $mode" ;;
esac
echo "ok: $mode: XOFF per sender port:$xoff_ports; port 0 carried $port0 pause frames"
