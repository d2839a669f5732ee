#!/usr/bin/env bash
# A scenario over real ports is the embedded run: uet-launch runs one
# uet-switch and two uet-nic processes over veth (namespaces of its own;
# af_packet, or AF_XDP with afxdp) or memif, and its merged records and
# captures must equal, byte for byte, those uet-emu writes on the same
# scenario (both in the row order the records' data defines,
# docs/records.md "Row order"; summary.csv merged from the processes'
# by scripts/uet-merge-records), and the folder has a wall-time.csv as the
# embedded run's does (its figures are the host's, not compared).
# Every process must exit 0, and the launcher
# must leave no namespace, process or socket behind.
# With PAUSE_PORT (a PFC scenario): the switch drops nothing, the captures
# hold PFC pause frames (MAC control opcode 0x0101) and, over veth, tshark
# on the switch's veth s<PAUSE_PORT> sees on the wire as many pauses as the
# port's record capture holds, each with the lockstep trailer (decoded by
# scripts/wireshark/uet.lua): they cross af_packet like data frames.
# With LCORES (the environment): both runs with run.lcores LCORES, so each
# uet-nic spreads its NICs over that many lcores (with 4 NICs a process
# and LCORES 4, every NIC has an lcore of its own).
# With SWITCH_LCORES (the environment): uet-launch --switch-lcores, so
# uet-switch runs its fabric's parts on that many lcores (it says so in
# its log), and a run whose switches only trim (no drop) counts as one
# with losses.
# usage: ports-identical.sh SOURCE_ROOT BUILD_DIR SCENARIO veth|afxdp|memif [PAUSE_PORT]
set -euo pipefail
src=$1 build=$2 scenario=$3 mode=$4 pause_port=${5:-}
dir=$(mktemp -d /tmp/uet-ports-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
if [ -n "${LCORES:-}" ]; then
	grep -q '^run:' "$scenario" || { echo "FAIL: $scenario has no run: block"; exit 1; }
	! grep -q '^  lcores:' "$scenario" || { echo "FAIL: $scenario sets lcores"; exit 1; }
	sed "s/^run:.*/run:\n  lcores: $LCORES/" "$scenario" >"$dir/scenario.yaml"
	scenario=$dir/scenario.yaml
fi

if [ "$mode" != memif ] && ! ip netns list >/dev/null 2>&1; then
	echo "SKIP: no network namespaces here (need root)"; exit 77
fi
"$build/app/uet-emu/uet-emu" --out "$dir/emu" "$scenario" 2>"$dir/emu.log" || {
	cat "$dir/emu.log"; echo "FAIL: uet-emu"; exit 1; }

capture=()
# With LCORES, two processes of four NICs each (on two CPUs uet-launch's
# own split puts one NIC beside the switch).
[ -z "${LCORES:-}" ] || capture=(--nics-per-proc 4)
[ -z "${SWITCH_LCORES:-}" ] || capture+=(--switch-lcores "$SWITCH_LCORES")
if [ -n "$pause_port" ]; then
	command -v tshark >/dev/null || { echo "SKIP: no tshark"; exit 77; }
	[ "$mode" != veth ] || capture+=(--capture "$pause_port:$dir/wire.pcapng")
fi
timeout 300 "$src/scripts/uet-launch" "$scenario" --ports "$mode" \
	--build "$build" --out "$dir/ports" --wall-limit 240 ${capture[@]+"${capture[@]}"} \
	>"$dir/launch.log" 2>&1 || {
	cat "$dir/launch.log"; echo "FAIL: uet-launch --ports $mode failed"; exit 1; }
cat "$dir/launch.log"
grep -q "^uet-launch: uet-switch pid" "$dir/launch.log" || { echo "FAIL: no uet-switch"; exit 1; }
[ "$(grep -c '^uet-launch: uet-nic --nic' "$dir/launch.log")" -eq 2 ] || {
	echo "FAIL: want two uet-nic processes"; exit 1; }
if [ -n "${SWITCH_LCORES:-}" ]; then
	grep -q "^uet-switch: the fabric's [0-9]* parts on $SWITCH_LCORES lcores$" \
		"$dir/ports/logs/uet-switch.log" || {
		cat "$dir/ports/logs/uet-switch.log"
		echo "FAIL: uet-switch did not run its parts on $SWITCH_LCORES lcores"; exit 1; }
fi
if [ -n "${LCORES:-}" ]; then
	for log in "$dir"/ports/logs/uet-nic-*.log; do
		grep -q "polled on $LCORES lcores" "$log" || {
			cat "$log"; echo "FAIL: $log: NICs not on $LCORES lcores"; exit 1; }
	done
fi

n=0
for f in "$dir"/emu/*; do
	name=$(basename "$f")
	# wall-time.csv is the host's: there, not compared.
	[ -f "$dir/ports/$name" ] || { echo "FAIL: $name missing over $mode"; exit 1; }
	[ "$name" != wall-time.csv ] || continue
	cmp "$f" "$dir/ports/$name" || { echo "FAIL: $name differs ($mode vs embedded)"; exit 1; }
	n=$((n + 1))
done
grep -q '^wall_ms,[0-9]' "$dir/ports/wall-time.csv" || { echo "FAIL: no wall_ms in the merged wall-time.csv"; exit 1; }
[ "$n" -ge 5 ] || { echo "FAIL: only $n files compared"; exit 1; }
drops=$(awk -F, '$1 == "switch_drops" { print $2 }' "$dir/ports/logs/uet-switch.summary.csv" 2>/dev/null || true)
[ -n "$drops" ] || { echo "FAIL: no uet-switch summary.csv"; exit 1; }
if [ -z "$pause_port" ]; then
	# Drops happened: the comparison covers a run with losses.
	trims=$(awk -F, '$1 == "switch_trims" { print $2 }' "$dir/ports/logs/uet-switch.summary.csv")
	[ -z "${SWITCH_LCORES:-}" ] || [ "$trims" -eq 0 ] || drops=$((drops + trims))
	[ "$drops" -gt 0 ] || { echo "FAIL: no drop in the run"; exit 1; }
else
	# Lossless: the pauses held every frame, and the captures (already
	# equal to the embedded ones) show them.
	[ "$drops" -eq 0 ] || { echo "FAIL: $drops frames dropped under PFC"; exit 1; }
	pauses() { tshark -r "$1" -Y 'macc.opcode == 0x0101' 2>/dev/null | wc -l; }
	total=0
	for p in "$dir"/ports/port-*.pcap; do
		total=$((total + $(pauses "$p")))
	done
	here=$(pauses "$dir/ports/port-$pause_port.pcap")
	echo "pause frames: $total in the captures, $here on port $pause_port"
	[ "$here" -gt 0 ] || { echo "FAIL: no pause frame on port $pause_port"; exit 1; }
	if [ "$mode" = veth ]; then
		wire=$(pauses "$dir/wire.pcapng")
		# Each with the lockstep trailer after it (uet.lua decodes it).
		stamped=$(tshark -r "$dir/wire.pcapng" \
			-X "lua_script:$src/scripts/wireshark/uet.lua" \
			-Y 'macc.opcode == 0x0101 && uetlock.trailer.arrival_ps' \
			2>/dev/null | wc -l)
		echo "pause frames on veth s$pause_port: $wire, $stamped with a trailer"
		[ "$wire" -eq "$here" ] || {
			echo "FAIL: $wire pauses on the wire, $here in port-$pause_port.pcap"; exit 1; }
		[ "$stamped" -eq "$wire" ] || {
			echo "FAIL: $stamped of $wire pauses on the wire carry the trailer"; exit 1; }
	fi
fi
# Nothing left behind: the launcher's namespaces and temporary folder.
tag=$(sed -n 's/^uet-launch: tag \(uet[0-9]*\)$/\1/p' "$dir/launch.log")
[ -n "$tag" ] || { echo "FAIL: no tag line"; exit 1; }
if ip netns list 2>/dev/null | grep -q "^$tag-"; then
	echo "FAIL: namespaces $tag-* left behind"; exit 1
fi
if compgen -G "/tmp/uet-launch.${tag#uet}.*" >/dev/null; then
	echo "FAIL: /tmp/uet-launch.${tag#uet}.* left behind"; exit 1
fi
echo "ok: $n files identical over $mode ($drops frames dropped by the switch)"
