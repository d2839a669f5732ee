#!/usr/bin/env bash
# tshark on a veth during a run over veth (uet-launch --capture): the
# capture, decoded with scripts/wireshark/uet.lua, holds the lockstep
# control frames (HELLO, WELCOME, GRANT, DONE, BYE) and UET data frames
# carrying the uetlock trailer, and no frame is malformed or raises an
# error-severity expert item.
# usage: tshark-live.sh SOURCE_ROOT BUILD_DIR SCENARIO
set -euo pipefail
src=$1 build=$2 scenario=$3
command -v tshark >/dev/null || { echo "SKIP: no tshark"; exit 77; }
ip netns list >/dev/null 2>&1 || { echo "SKIP: no network namespaces"; exit 77; }
dir=$(mktemp -d /tmp/uet-tshark-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
lua=$src/scripts/wireshark/uet.lua

timeout 300 "$src/scripts/uet-launch" "$scenario" --ports veth --build "$build" \
	--out "$dir/out" --capture "0:$dir/s0.pcapng" --wall-limit 240 \
	>"$dir/launch.log" 2>&1 || { cat "$dir/launch.log"; echo "FAIL: the run failed"; exit 1; }
[ -s "$dir/s0.pcapng" ] || { echo "FAIL: no capture"; exit 1; }

fields() { # FILTER FIELD...
	local f=$1 field fields=()
	shift
	for field in "$@"; do fields+=(-e "$field"); done
	tshark -r "$dir/s0.pcapng" -X "lua_script:$lua" -Y "$f" -T fields \
		"${fields[@]}" 2>>"$dir/tshark.err"
}
total=$(fields 'frame' frame.number | wc -l)
bad=$(fields '_ws.malformed || _ws.expert.severity == error' frame.number | wc -l)
declare -A n
for t in 1 2 3 4 5; do
	n[$t]=$(fields "uetlock.type == $t" frame.number | wc -l)
done
trailer=$(fields 'uetlock.trailer.arrival_ps && uet' frame.number | wc -l)
sed -i '/^Running as user "root"/d' "$dir/tshark.err"
echo "capture of s0: $total frames; HELLO ${n[1]}, WELCOME ${n[2]}, GRANT ${n[3]}," \
	"DONE ${n[4]}, BYE ${n[5]}; UET data frames with a trailer $trailer; bad $bad"
[ ! -s "$dir/tshark.err" ] || { cat "$dir/tshark.err"; echo "FAIL: tshark errors"; exit 1; }
[ "$bad" -eq 0 ] || { echo "FAIL: malformed frames or error expert items"; exit 1; }
for t in 1 2 3 4 5; do
	[ "${n[$t]}" -gt 0 ] || { echo "FAIL: no uetlock type $t frame"; exit 1; }
done
[ "$trailer" -gt 0 ] || { echo "FAIL: no UET frame with uetlock.trailer"; exit 1; }
[ "${n[3]}" -eq "${n[4]}" ] || { echo "FAIL: GRANTs ${n[3]} != DONEs ${n[4]}"; exit 1; }
echo "ok"
