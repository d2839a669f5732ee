#!/usr/bin/env bash
# An external UET endpoint in realtime: the scenario names host 2 in
# switch.external_hosts, so uet-launch starts no uet-nic for it and
# uet-switch forwards to and from its port with no lockstep. The endpoint
# here is a uet-nic started on its own (--external) with the scenario
# minus that line and its own clock: to the switch it is just a UET stack
# on the far side of a veth. Every message to it must complete (its ACKs
# came back through the switch), and it must have received the frames.
# usage: realtime-external.sh SOURCE_ROOT BUILD_DIR SCENARIO
set -euo pipefail
src=$1 build=$2 scenario=$3
dir=$(mktemp -d /tmp/uet-rt-ext.XXXXXX)
trap 'rm -rf "$dir"' EXIT
if ! ip netns list >/dev/null 2>&1; then
	echo "SKIP: no network namespaces here (need root)"; exit 77
fi
grep -v 'external_hosts' "$scenario" >"$dir/responder.yaml"
responder="exec '$build/app/uet-nic/uet-nic' --nic 2 --port \"\$UET_EXT_DEV\" --out '$dir/ext' --linger-ms 60000 '$dir/responder.yaml'"
timeout 300 "$src/scripts/uet-launch" "$scenario" --ports veth --build "$build" \
	--out "$dir/run" --wall-limit 240 --rt-lead-ms 5000 \
	--external "2:$responder" >"$dir/launch.log" 2>&1 || {
	cat "$dir/launch.log" "$dir/run/logs/external-2.log" 2>/dev/null
	echo "FAIL: uet-launch failed"; exit 1; }
cat "$dir/launch.log"
grep -q '^uet-launch: external host 2: interface n2 in namespace' "$dir/launch.log" || {
	echo "FAIL: no external host line"; exit 1; }
[ "$(grep -c '^uet-launch: uet-nic --nic' "$dir/launch.log")" -eq 1 ] || {
	echo "FAIL: want one uet-nic process (hosts 0-1)"; exit 1; }
grep -q 'uet-launch: uet-nic --nic 0-1 ' "$dir/launch.log" || { echo "FAIL: hosts 0-1"; exit 1; }
grep -q 'faces host 2, an external UET endpoint' "$dir/launch.log" || {
	echo "FAIL: the switch did not name the external port"; exit 1; }
# Every message completed, the two to the external endpoint included.
done_msgs=$(awk -F, 'NR > 1 && $11 != ""' "$dir/run/flows.csv" | wc -l)
to_ext=$(awk -F, 'NR > 1 && $11 != "" && $3 == "198.18.0.3"' "$dir/run/flows.csv" | wc -l)
[ "$done_msgs" -eq 3 ] && [ "$to_ext" -eq 2 ] || {
	cat "$dir/run/flows.csv"; echo "FAIL: $done_msgs of 3 completed, $to_ext of 2 to the external host"; exit 1; }
# The endpoint received both messages: 2 x 64 data frames at least.
rx=$(awk -F, '$1 == "lateness.198.18.0.3.frames_in" { print $2 }' "$dir/ext/summary.csv" 2>/dev/null || true)
[ "${rx:-0}" -ge 128 ] || { cat "$dir/run/logs/external-2.log"; echo "FAIL: the endpoint received ${rx:-0} frames"; exit 1; }
# Our records: the switch and hosts 0 and 1, not the external one.
[ "$(tail -n +2 "$dir/run/uet-realtime.csv" | cut -d, -f1 | tr '\n' ' ')" = "switch 198.18.0.1 198.18.0.2 " ] || {
	cat "$dir/run/uet-realtime.csv"; echo "FAIL: uet-realtime.csv rows"; exit 1; }
echo "ok: 3 messages completed, 2 of them to the external endpoint ($rx frames in there)"
