#!/usr/bin/env bash
# Foreign and broken frames sent into a running launch over veth
# (docs/lockstep.md, "Foreign and broken frames"): once the run is under
# way, tests/ports/inject-foreign.py puts frames without a trailer, cut
# short, of other EtherTypes, control frames of another run and a flood of
# UDP frames on the NIC side of host 0's veth (toward switch port 0) and on
# the switch side of host 1's (toward NIC 1). The run completes, its merged
# records and captures equal the embedded run's byte for byte, and
# uet-ports.csv counts on those two ports exactly what was sent, by kind
# (nothing on the others).
# usage: foreign-frames.sh SOURCE_ROOT BUILD_DIR SCENARIO
set -euo pipefail
src=$1 build=$2 scenario=$3
dir=$(mktemp -d /tmp/u12-foreign-test.XXXXXX)
launcher=
trap '[ -z "$launcher" ] || kill "$launcher" 2>/dev/null || true; rm -rf "$dir"' EXIT

ip netns list >/dev/null 2>&1 || { echo "SKIP: no network namespaces here (need root)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
"$build/app/uet-emu/uet-emu" --out "$dir/emu" "$scenario" 2>"$dir/emu.log" || {
	cat "$dir/emu.log"; echo "FAIL: uet-emu"; exit 1; }
"$src/scripts/uet-merge-records" "$dir/emu-merged" "$dir/emu"

"$src/scripts/uet-launch" "$scenario" --ports veth --build "$build" \
	--out "$dir/ports" --wall-limit 240 >"$dir/launch.log" 2>&1 &
launcher=$!
# shellcheck source=SCRIPTDIR/launch-links.sh
. "$(dirname "$0")/launch-links.sh"
wait_launch_links "$dir/launch.log"
# 200 frames in bursts of 50, 5 ms apart: 20 ms, well inside the run even
# on an idle host (datapath-8 over veth lasts about 90 ms there; 1,000
# frames outlasted it once and the last bursts found no switch).
flood=200
inject=$src/tests/ports/inject-foreign.py
ip netns exec "$tag-n0" python3 "$inject" n0 grant "$flood" >"$dir/to-switch" 2>&1 &
to_sw=$!
ip netns exec "$tag-sw" python3 "$inject" s1 "done" 0 >"$dir/to-nic" 2>&1 &
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

n=0
for f in "$dir"/emu-merged/*; do
	name=$(basename "$f")
	# wall-time.csv is the host's.
	[ "$name" != wall-time.csv ] || continue
	cmp "$f" "$dir/ports/$name" || { echo "FAIL: $name differs (veth with foreign frames vs embedded)"; exit 1; }
	n=$((n + 1))
done
[ "$n" -ge 5 ] || { echo "FAIL: only $n files compared"; exit 1; }

csv=$dir/ports/uet-ports.csv
[ -f "$csv" ] || { echo "FAIL: no uet-ports.csv"; exit 1; }
cat "$csv"
head -n 1 "$csv" | grep -qx 'side,host,port,rx_frames,tx_frames,no_trailer,truncated,ethertype,stale' || {
	echo "FAIL: uet-ports.csv header"; exit 1; }
hosts=$(awk '$1 == "hosts:" {print $2; exit}' <<<"$("$build/app/uet-emu/uet-emu" --print-config "$scenario")")
[ "$(tail -n +2 "$csv" | wc -l)" -eq $((2 * hosts)) ] || { echo "FAIL: want $((2 * hosts)) port rows"; exit 1; }
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
for ((i = 0; i < hosts; i++)); do
	f=; [ "$i" -ne 0 ] || f=$dir/to-switch
	want switch "$i" "$f"
	f=; [ "$i" -ne 1 ] || f=$dir/to-nic
	want nic "$i" "$f"
done
grep -q "port .* dropped $((flood + 8)) frames not of this run" "$dir/launch.log" || {
	echo "FAIL: the switch did not report the drops on stderr"; exit 1; }
echo "ok: $n files identical with $((flood + 8)) and 7 foreign frames injected"
