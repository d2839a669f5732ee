#!/usr/bin/env bash
# Two-way traffic with an external endpoint, and hostile frames from it,
# over veth in realtime (docs/nic.md, "Frames from external hosts"). Host 2
# is external: a uet-nic of its own plays it, on the scenario without the
# external_hosts line, so that it posts the three messages from host 2 to
# host 0 (0 B, 4 KiB, 256 KiB) that our run expects. Beside it, tests/ports/send-pcap.py puts on host 2's
# veth, once the run is under way, 3,000 SYN packets to host 1 that never
# end their message (tests/ports/craft_frames.c) and 20 one-packet messages
# written with host 1's source address.
# Checks: our messages complete; host 0 took the endpoint's three messages
# whole (acknowledged: the endpoint's own flows complete; matched to the
# three expected; counted as external arrivals; msg_arrived events and
# flows.csv rows naming it, with the scenario's numbers); host 1's receiving
# sides for the external host stayed within their bound of 1,024 with the
# rest refused and counted; the switch dropped the 20 forged frames. Then
# a run that expects a fourth message the endpoint does not send fails,
# naming it.
# usage: external-two-way.sh SOURCE_ROOT BUILD_DIR SCENARIO
set -euo pipefail
src=$1 build=$2 scenario=$3
dir=$(mktemp -d /tmp/uet-ext-2way.XXXXXX)
trap 'rm -rf "$dir"' EXIT
ip netns list >/dev/null 2>&1 || { echo "SKIP: no network namespaces here (need root)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
craft=$build/tests/ports/craft-frames
"$craft" "$dir/syn.pcap" syn 3000 2 1
"$craft" "$dir/spoof.pcap" whole 20 1 0
grep -v 'external_hosts' "$scenario" >"$dir/endpoint.yaml"
endpoint="python3 '$src/tests/ports/send-pcap.py' \"\$UET_EXT_DEV_IF\" '$dir/syn.pcap' '$dir/spoof.pcap' >'$dir/sent.log' 2>&1 &
exec '$build/app/uet-nic/uet-nic' --nic 2 --port \"\$UET_EXT_DEV\" --out '$dir/ext' --linger-ms 60000 '$dir/endpoint.yaml'"
timeout 300 "$src/scripts/uet-launch" "$scenario" --ports veth --build "$build" \
	--out "$dir/run" --wall-limit 240 --rt-lead-ms 5000 \
	--external "2:UET_EXT_DEV_IF=n2; $endpoint" >"$dir/launch.log" 2>&1 || {
	cat "$dir/launch.log" "$dir/run/logs/external-2.log" 2>/dev/null
	echo "FAIL: uet-launch failed"; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }
figure() { awk -F, -v k="$2" '$1 == k { print $2 }' "$1"; }
cat "$dir/sent.log"
grep -q "syn.pcap 3000" "$dir/sent.log" && grep -q "spoof.pcap 20" "$dir/sent.log" ||
	fail "the injector did not send its frames"
# Ours: both messages completed.
done_msgs=$(awk -F, 'NR > 1 && $11 != ""' "$dir/run/flows.csv" | wc -l)
[ "$done_msgs" -eq 2 ] || { cat "$dir/run/flows.csv"; fail "$done_msgs of 2 of our messages completed"; }
# The endpoint's three messages to host 0 completed at the endpoint: host 0
# acknowledged every packet.
ext_done=$(awk -F, 'NR > 1 && $2 == "198.18.0.3" && $11 != ""' "$dir/ext/flows.csv" | wc -l)
[ "$ext_done" -eq 3 ] || { cat "$dir/ext/flows.csv"; fail "$ext_done of the endpoint's 3 messages completed"; }
nic_sum=$(grep -l '^nic.external_msgs_arrived,' "$dir"/run/logs/uet-nic-*.summary.csv)
arrived=0 refused=0 own=0
for f in $nic_sum; do
	arrived=$((arrived + $(figure "$f" nic.external_msgs_arrived)))
	refused=$((refused + $(figure "$f" nic.external_pdcs_refused)))
	own=$((own + $(figure "$f" payload_mismatches)))
done
[ "$arrived" -eq 3 ] || fail "host 0 counted $arrived external arrivals, want 3"
for f in $nic_sum; do
	[ "$(figure "$f" expected)" -eq 0 ] && continue
	[ "$(figure "$f" expected),$(figure "$f" expected_arrived)" = "3,3" ] ||
		fail "$f: expected $(figure "$f" expected), arrived $(figure "$f" expected_arrived)"
done
[ "$own" -eq 0 ] || fail "$own payload mismatches"
# uet-events: three arrivals at host 0 from the endpoint, of 0, 4096 and
# 262144 bytes.
ev=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["event"] == "msg_arrived" && $c["nic"] == "198.18.0.1" && $c["peer"] == "198.18.0.3" { print $c["bytes"] }' \
	"$dir/run/uet-events.csv" | sort -n | tr '\n' ' ')
[ "$ev" = "0 4096 262144 " ] || fail "msg_arrived events at host 0 from the endpoint: '$ev'"
# flows.csv: host 0 wrote a row for each, numbered as the scenario's
# messages 2, 3 and 4, the sender's times empty.
rows=$(awk -F, 'NR > 1 && $2 == "198.18.0.3" && $3 == "198.18.0.1" {
	print $1 ":" $6 ":" $8 $9 $11 $12 $16 ":" ($10 != "") }' "$dir/run/flows.csv" | tr '\n' ' ')
[ "$rows" = "2:0::1 3:4096::1 4:262144::1 " ] || { cat "$dir/run/flows.csv"; fail "flows.csv rows of the endpoint's messages: '$rows'"; }
ev=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["event"] == "msg_arrived" && $c["peer"] == "198.18.0.3" { print $c["msg_id"] }' \
	"$dir/run/uet-events.csv" | sort -n | tr '\n' ' ')
[ "$ev" = "2 3 4 " ] || fail "msg_arrived events of the endpoint's messages carry msg_id '$ev', want 2 3 4"
# The flood: at most 1,024 sides at host 1 (its own sending side beside
# them), the rest refused.
peak=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["nic"] == "198.18.0.2" && $c["pdcs_open"] > m { m = $c["pdcs_open"] } END { print m + 0 }' \
	"$dir/run/uet-transport-stats.csv")
[ "$peak" -ge 1024 ] && [ "$peak" -le 1025 ] || fail "host 1's open PDCs peaked at $peak, want 1,024 or 1,025"
[ "$refused" -ge 1 ] || fail "no SYN refused"
sw=$(figure "$dir/run/logs/uet-switch.summary.csv" switch.spoofed_frames)
[ "$sw" -eq 20 ] || fail "the switch dropped $sw forged frames, want 20"
echo "ok: 2 of ours and 3 of the endpoint's messages whole; host 1's PDCs peaked at $peak, $refused SYNs refused; $sw forged frames dropped"

# A fourth message expected from host 2 that the endpoint never sends: the
# run goes to its end and fails, naming it.
{ cat "$scenario"; echo "    - {src: 2, dst: 0, size: 8KiB, at: 60us}"; } >"$dir/more.yaml"
endpoint="exec '$build/app/uet-nic/uet-nic' --nic 2 --port \"\$UET_EXT_DEV\" --out '$dir/ext2' --linger-ms 60000 '$dir/endpoint.yaml'"
if timeout 300 "$src/scripts/uet-launch" "$dir/more.yaml" --ports veth --build "$build" \
	--out "$dir/run2" --wall-limit 240 --rt-lead-ms 5000 \
	--external "2:$endpoint" >"$dir/launch2.log" 2>&1; then
	cat "$dir/launch2.log"; fail "a run missing an expected message succeeded"
fi
grep -q "message 5 (external host 2 -> 0, 8192 bytes): expected, not arrived" \
	"$dir"/run2/logs/uet-nic-*.log || {
	cat "$dir/launch2.log" "$dir"/run2/logs/uet-nic-*.log; fail "the missing message was not named"; }
grep -qx "expected.5,not_arrived" "$dir"/run2/logs/uet-nic-*.summary.csv ||
	fail "summary.csv does not name the missing message"
echo "ok: the run expecting a message the endpoint did not send failed, naming it"
