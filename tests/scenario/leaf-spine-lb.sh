#!/usr/bin/env bash
# The leaf-spine permutation of examples/leaf-spine-perm-*.yaml (hosts 0-7
# on leaves 0 and 1 send 1 MiB each to hosts 8-15 on leaves 2 and 3),
# checked from the closing summary's uplink rows (summary.csv) (leaves 0 and 1 carry
# the data up, nothing else):
#  - every message completes, every PSN retired once, payloads intact;
#  - oblivious: on each of leaves 0 and 1, the bytes each uplink carried
#    are within 10% of the mean of that leaf's four uplinks;
#  - single-path: each flow stays on one uplink, so every uplink of
#    leaves 0 and 1 carried a whole number of flows (a flow is 258 frames,
#    1,075,836 bytes, when nothing is resent), 8 flows in all.
# usage: leaf-spine-lb.sh UET-EMU SCENARIO oblivious|single-path
set -euo pipefail
emu=$1 scenario=$2 mode=$3
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir leafspine

run_emu "$emu" "$dir/out" "$scenario" "$dir/log"
cat "$dir/log"
[ "$(summary "$dir/out" messages)" -eq 8 ] || fail "not 8 messages"
summary_intact "$dir/out" 2048
flow_bytes=1075836
for leaf in 0 1; do
	bytes=$(sed -n "s/^uplink\.leaf$leaf-spine[0-9]*\.bytes,//p" "$dir/out/summary.csv")
	[ "$(echo "$bytes" | wc -l)" -eq 4 ] || fail "leaf $leaf: not 4 uplinks"
	case $mode in
	oblivious)
		echo "$bytes" | awk -v leaf="$leaf" '
			{ b[NR] = $1; s += $1 }
			END { m = s / NR
			      for (i = 1; i <= NR; i++) {
				d = (b[i] - m) / m; if (d < 0) d = -d
				printf "leaf %d uplink %d: %d bytes, %.1f%% from the mean\n",
					leaf, i - 1, b[i], 100 * d
				if (d > 0.10) bad = 1 }
			      exit bad }' || fail "leaf $leaf: an uplink off the mean by more than 10%"
		;;
	single-path)
		for b in $bytes; do
			[ $((b % flow_bytes)) -eq 0 ] ||
				fail "leaf $leaf: an uplink carried $b bytes, not whole flows"
		done
		echo "leaf $leaf uplinks: ${bytes//$'\n'/ }"
		;;
	*) fail "unknown mode $mode" ;;
	esac
done
if [ "$mode" = single-path ]; then
	total=$(sed -n 's/^uplink\.leaf[01]-spine[0-9]*\.bytes,//p' "$dir/out/summary.csv" |
		awk '{ s += $1 } END { print s }')
	[ "$total" -eq $((8 * flow_bytes)) ] || fail "uplinks carried $total bytes, not 8 flows"
fi
echo "ok: $mode"
