#!/usr/bin/env bash
# Row order is defined by the records' data (docs/records.md, "Row order"):
# uet-emu's own files, as it wrote them, equal byte for byte the merged
# files of the same scenario run as uet-switch and three uet-nic processes
# of up to three NICs each (--nics-per-proc 3) over veth or memif, in a run
# with drops, retransmissions and timeouts. Every streamed record must have
# rows of several NICs interleaved in time (else order is not tested).
# usage: ports-order.sh SOURCE_ROOT BUILD_DIR SCENARIO veth|memif
set -euo pipefail
src=$1 build=$2 scenario=$3 mode=$4
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
if [ "$mode" = veth ] && ! ip netns list >/dev/null 2>&1; then
	echo "SKIP: no network namespaces here (need root)"; exit 77
fi
emu_tmpdir ports-order

run_emu "$build/app/uet-emu/uet-emu" "$dir/emu" "$scenario" "$dir/emu.log"
timeout 300 "$src/scripts/uet-launch" "$scenario" --ports "$mode" \
	--nics-per-proc 3 --build "$build" --out "$dir/ports" --wall-limit 240 \
	>"$dir/launch.log" 2>&1 || {
	cat "$dir/launch.log"; fail "uet-launch --ports $mode failed"; }
[ "$(grep -c '^uet-launch: uet-nic --nic' "$dir/launch.log")" -eq 3 ] ||
	fail "want three uet-nic processes"

# The run lost frames and recovered them.
drops=$(summary "$dir/emu" switch_drops)
read -r retx timeouts < <(tail -n +2 "$dir/emu/flows.csv" |
	awk -F, '{ r += $13; t += $16 } END { print r + 0, t + 0 }')
[ "$drops" -gt 0 ] && [ "$retx" -gt 0 ] && [ "$timeouts" -gt 0 ] ||
	fail "drops $drops, retransmits $retx, timeouts $timeouts: want all > 0"
summary_intact "$dir/emu" "$(summary "$dir/emu" psns_taken)"
[ "$(summary "$dir/emu" completed)" -eq "$(summary "$dir/emu" messages)" ] ||
	fail "not every message completed"

n=0
for f in "$dir"/emu/*; do
	name=$(basename "$f")
	[ -f "$dir/ports/$name" ] || fail "$name missing over $mode"
	# wall-time.csv is the host's: there, not compared.
	[ "$name" != wall-time.csv ] || continue
	cmp "$f" "$dir/ports/$name" || fail "$name: rows differ ($mode vs uet-emu)"
	n=$((n + 1))
done
# The streamed records interleave NICs: consecutive rows change NIC many
# times, and some rows of different NICs share a time.
for name in uet-events.csv uet-monitor.csv uet-cc-trace.csv; do
	read -r changes ties < <(tail -n +2 "$dir/emu/$name" | awk -F, '
		NR > 1 && $2 != nic { c++; if ($1 == t) s++ }
		{ t = $1; nic = $2 } END { print c + 0, s + 0 }')
	echo "$name: $(($(wc -l <"$dir/emu/$name") - 1)) rows, NIC changes $changes, at equal times $ties"
	[ "$changes" -ge 16 ] || fail "$name: rows of few NICs ($changes changes)"
done
[ "$n" -ge 12 ] || fail "only $n files compared"
echo "ok: $n files identical, uet-emu vs $mode with 3 uet-nic processes ($drops drops, $retx retransmits, $timeouts timeouts)"
