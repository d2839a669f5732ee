#!/usr/bin/env bash
# Workload programs over real ports are the embedded run: for each
# scenario (Chakra traces, connection matrices, generators), uet-launch
# runs uet-switch and uet-nic processes of four NICs over the given kind
# of port,
# their completions crossing in the lockstep's window notes
# (docs/workload.md, "Over ports"), and the merged folder must hold every
# file uet-emu writes on the same scenario, byte for byte (wall-time.csv,
# the host's, aside), workload.csv and workload-messages.csv with a row
# per rank and per posted message.
# usage: programs-identical.sh SOURCE_ROOT BUILD_DIR veth|afxdp|memif SCENARIO...
set -euo pipefail
src=$1 build=$2 mode=$3
shift 3
dir=$(mktemp -d /tmp/uet-programs-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT

if [ "$mode" != memif ] && ! ip netns list >/dev/null 2>&1; then
	echo "SKIP: no network namespaces here (need root)"; exit 77
fi
k=0
for scenario in "$@"; do
	k=$((k + 1))
	name=$(basename "$scenario" .yaml)
	"$build/app/uet-emu/uet-emu" --out "$dir/emu$k" "$scenario" 2>"$dir/emu$k.log" || {
		cat "$dir/emu$k.log"; echo "FAIL: $name: uet-emu"; exit 1; }
	# uet-nic processes of four NICs: every host's completions cross a
	# process boundary to some other host.
	timeout 300 "$src/scripts/uet-launch" "$scenario" --ports "$mode" \
		--build "$build" --out "$dir/ports$k" --nics-per-proc 4 \
		--wall-limit 240 >"$dir/launch$k.log" 2>&1 || {
		cat "$dir/launch$k.log"; echo "FAIL: $name: uet-launch --ports $mode failed"; exit 1; }
	procs=$(grep -c '^uet-launch: uet-nic --nic' "$dir/launch$k.log")
	[ "$procs" -ge 2 ] || { echo "FAIL: $name: $procs uet-nic process"; exit 1; }
	n=0
	for f in "$dir/emu$k"/*; do
		file=$(basename "$f")
		[ -f "$dir/ports$k/$file" ] || { echo "FAIL: $name: $file missing over $mode"; exit 1; }
		[ "$file" != wall-time.csv ] || continue
		cmp "$f" "$dir/ports$k/$file" || {
			echo "FAIL: $name: $file differs ($mode vs embedded)"; exit 1; }
		n=$((n + 1))
	done
	ranks=$(awk -F, 'NR > 1 && $2 == "trace"' "$dir/ports$k/workload.csv" | wc -l)
	msgs=$(($(wc -l <"$dir/ports$k/workload-messages.csv") - 1))
	[ "$ranks" -eq "$((procs * 4))" ] || {
		echo "FAIL: $name: $ranks ranks in workload.csv, $procs processes of 4 NICs"; exit 1; }
	[ "$msgs" -gt 0 ] || { echo "FAIL: $name: no message in workload-messages.csv"; exit 1; }
	echo "ok: $name over $mode: $n files identical to uet-emu's ($ranks ranks in $procs uet-nic processes, $msgs messages)"
done
