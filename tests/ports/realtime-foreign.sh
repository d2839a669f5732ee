#!/usr/bin/env bash
# Frames that are not of the run, sent into a realtime run over veth
# (docs/lockstep.md, "Realtime"; docs/records.md, uet-ports.csv): once
# the run's UET frames flow, tests/ports/inject-realtime.py puts three
# frames cut short, two of other EtherTypes, a lockstep control frame and
# a UDP frame to port 9 of host 1 on the NIC side of host 0's veth
# (toward switch port 0) and on the switch side of host 1's (toward NIC
# 1). The run completes; uet-ports.csv counts on those two ports exactly
# what each injector sent, by kind, and nothing on the other two; the two
# UDP frames pass the ports (sound IPv4) and host 1's NIC drops them, its
# last uet-transport-stats.csv row counting other_frames 2 (the switch
# forwards the first to host 1 by its address), host 0's 0.
# usage: realtime-foreign.sh SOURCE_ROOT BUILD_DIR SCENARIO
set -euo pipefail
src=$1 build=$2 scenario=$3
dir=$(mktemp -d /tmp/uet-rt-foreign.XXXXXX)
launcher=
trap '[ -z "$launcher" ] || kill "$launcher" 2>/dev/null || true; rm -rf "$dir"' EXIT

ip netns list >/dev/null 2>&1 || { echo "SKIP: no network namespaces here (need root)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
grep -q 'clock: realtime' "$scenario" || { echo "FAIL: $scenario is not realtime"; exit 1; }

"$src/scripts/uet-launch" "$scenario" --ports veth --build "$build" \
	--out "$dir/run" --wall-limit 120 --rt-lead-ms 3000 >"$dir/launch.log" 2>&1 &
launcher=$!
# shellcheck source=SCRIPTDIR/launch-links.sh
. "$(dirname "$0")/launch-links.sh"
wait_launch_links "$dir/launch.log"
inject=$src/tests/ports/inject-realtime.py
ip netns exec "$tag-n0" python3 "$inject" n0 198.18.0.2 >"$dir/to-switch" 2>&1 &
to_sw=$!
ip netns exec "$tag-sw" python3 "$inject" s1 198.18.0.2 >"$dir/to-nic" 2>&1 &
to_nic=$!
rc=0; wait "$to_sw" || rc=1
wait "$to_nic" || rc=1
st=0; wait "$launcher" || st=$?
launcher=
cat "$dir/launch.log"
[ "$rc" -eq 0 ] || { cat "$dir/to-switch" "$dir/to-nic"; echo "FAIL: an injector failed"; exit 1; }
[ "$st" -eq 0 ] || { echo "FAIL: uet-launch exited $st"; exit 1; }
echo "sent toward switch port 0: $(paste -sd' ' "$dir/to-switch")"
echo "sent toward nic 1: $(paste -sd' ' "$dir/to-nic")"
[ "$(awk -F, '$1 == "completed" {print $2}' "$dir/run/summary.csv")" = 1 ] || {
	echo "FAIL: the message did not complete"; exit 1; }

csv=$dir/run/uet-ports.csv
[ -f "$csv" ] || { echo "FAIL: no uet-ports.csv"; exit 1; }
cat "$csv"
head -n 1 "$csv" | grep -qx 'side,host,port,rx_frames,tx_frames,no_trailer,truncated,ethertype,stale' || {
	echo "FAIL: uet-ports.csv header"; exit 1; }
[ "$(tail -n +2 "$csv" | wc -l)" -eq 4 ] || { echo "FAIL: want 4 port rows"; exit 1; }
# want SIDE HOST FILE: the row's four counts are the injector's.
want() {
	local row got exp
	row=$(awk -F, -v s="$1" -v h="$2" '$1 == s && $2 == h' "$csv")
	got=$(cut -d, -f6-9 <<<"$row")
	if [ -n "$3" ]; then
		exp=$(awk '{c[$1] = $2} END {printf "%d,%d,%d,%d", c["no_trailer"], c["truncated"], c["ethertype"], c["stale"]}' "$3")
	else
		exp=0,0,0,0
	fi
	[ "$got" = "$exp" ] || { echo "FAIL: $1 port of host $2 counted $got, want $exp"; exit 1; }
}
want switch 0 "$dir/to-switch"
want switch 1 ""
want nic 0 ""
want nic 1 "$dir/to-nic"
grep -q "port .* (switch side of host 0) dropped 6 frames not of this run: no_trailer 0 truncated 3 ethertype 2 stale 1" "$dir/launch.log" || {
	echo "FAIL: the switch did not report its port's drops on stderr"; exit 1; }
# The NICs' last rows: what passed the ports and was no NIC's business.
other() { awk -F, -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["nic"] == n { v = $c["other_frames"] } END { print v + 0 }' "$dir/run/uet-transport-stats.csv"; }
[ "$(other 198.18.0.2)" -eq 2 ] || { echo "FAIL: host 1's NIC counted $(other 198.18.0.2) other frames, want 2"; exit 1; }
[ "$(other 198.18.0.1)" -eq 0 ] || { echo "FAIL: host 0's NIC counted $(other 198.18.0.1) other frames, want 0"; exit 1; }
echo "ok: each port counted what was injected on it, by kind; host 1's NIC the 2 frames of another protocol"
