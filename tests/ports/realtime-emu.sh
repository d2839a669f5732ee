#!/usr/bin/env bash
# uet-emu in realtime (ring ports, one process, no root): the message
# completes intact, uet-realtime.csv has a row for the switch and for
# each NIC whose lateness buckets count every event it ran, and
# uet-ports.csv a row for each end of each link, nothing dropped, the
# frames of each end the frames its component took and gave. No timing is
# checked: realtime results depend on the host's load.
# usage: realtime-emu.sh BUILD_DIR SCENARIO
set -euo pipefail
build=$1 scenario=$2
dir=$(mktemp -d /tmp/uet-rt-emu.XXXXXX)
trap 'rm -rf "$dir"' EXIT
timeout 120 "$build/app/uet-emu/uet-emu" --out "$dir/out" "$scenario" 2>"$dir/log" || {
	cat "$dir/log"; echo "FAIL: uet-emu"; exit 1; }
cat "$dir/log"
[ "$(awk -F, '$1 == "completed" { print $2 }' "$dir/out/summary.csv")" = 1 ] || { echo "FAIL: not completed"; exit 1; }
head -n 1 "$dir/out/uet-realtime.csv" | grep -q '^component,events,lateness_mean_ps,lateness_max_ps,lateness_p99_upper_ns,frames_rx,frames_tx,foreign_frames,tx_late_mean_ps,tx_late_max_ps,late_lt_1ns,late_lt_2ns,.*,late_lt_1073741824ns,late_ge_1073741824ns$' || {
	head -n 1 "$dir/out/uet-realtime.csv"; echo "FAIL: header"; exit 1; }
[ "$(tail -n +2 "$dir/out/uet-realtime.csv" | cut -d, -f1 | tr '\n' ' ')" = "switch 198.18.0.1 198.18.0.2 " ] || {
	cat "$dir/out/uet-realtime.csv"; echo "FAIL: rows"; exit 1; }
awk -F, 'NR > 1 { s = 0; for (i = 11; i <= NF; i++) s += $i
	if (NF != 42 || s != $2 || $2 == 0 || $6 == 0 || $7 == 0) { print "bad row: " $0; bad = 1 } }
	END { exit bad }' "$dir/out/uet-realtime.csv" || { echo "FAIL: buckets"; exit 1; }
# 64 data frames and their ACKs went through the switch, both ways.
[ "$(awk -F, '$1 == "switch" {print $6}' "$dir/out/uet-realtime.csv")" -ge 128 ] || {
	echo "FAIL: the switch saw too few frames"; exit 1; }
ports=$dir/out/uet-ports.csv
[ "$(head -n 1 "$ports")" = side,host,port,rx_frames,tx_frames,no_trailer,truncated,ethertype,stale ] || {
	head -n 1 "$ports"; echo "FAIL: uet-ports.csv header"; exit 1; }
[ "$(tail -n +2 "$ports" | cut -d, -f1-3 | tr '\n' ' ')" = "switch,0,ring_l0a switch,1,ring_l1a nic,0,ring_l0b nic,1,ring_l1b " ] || {
	cat "$ports"; echo "FAIL: uet-ports.csv rows"; exit 1; }
[ "$(tail -n +2 "$ports" | cut -d, -f6-9 | sort -u)" = 0,0,0,0 ] || {
	cat "$ports"; echo "FAIL: drops on ring ports"; exit 1; }
# Each component's frames in and out (uet-realtime.csv) are its ports'.
sum_ports() { awk -F, -v s="$1" -v c="$2" '$1 == s {n += $c} END {print n + 0}' "$ports"; }
rt() { awk -F, -v n="$1" -v c="$2" '$1 == n {print $c}' "$dir/out/uet-realtime.csv"; }
[ "$(sum_ports switch 4),$(sum_ports switch 5)" = "$(rt switch 6),$(rt switch 7)" ] || {
	cat "$ports" "$dir/out/uet-realtime.csv"; echo "FAIL: switch frames"; exit 1; }
echo "ok: realtime in uet-emu completed and reported its lateness and its ports"
