#!/usr/bin/env bash
# A uet-nic process killed (SIGKILL) mid-run: uet-switch stops within its
# wall-clock bound (--timeout-ms 5000) with a message naming a NIC of the
# killed process and its port, the other uet-nic stops on the switch's
# ABORT, no process hangs (the launcher returns, non-zero, within 30 s of
# the kill and leaves no process behind), and the records written so far
# are complete files: every pcap reads to its end in tshark, every CSV ends
# with a whole row of as many fields as its header; with a workload
# program, workload.csv is one of them, a row per rank.
# usage: killed-nic.sh SOURCE_ROOT BUILD_DIR SCENARIO veth|memif
set -euo pipefail
src=$1 build=$2 scenario=$3 mode=$4
dir=$(mktemp -d /tmp/uet-killed-test.XXXXXX)
launcher=
trap '[ -z "$launcher" ] || kill "$launcher" 2>/dev/null || true; rm -rf "$dir"' EXIT

if [ "$mode" = veth ] && ! ip netns list >/dev/null 2>&1; then
	echo "SKIP: no network namespaces here (need root)"; exit 77
fi
# Two uet-nic processes of four NICs (on two CPUs uet-launch would put
# seven in the first): the victim hosts NICs 4-7.
"$src/scripts/uet-launch" "$scenario" --ports "$mode" --build "$build" \
	--nics-per-proc 4 --out "$dir/out" --timeout-ms 5000 --wall-limit 120 \
	>"$dir/launch.log" 2>&1 &
launcher=$!

# The run is under way once the switch has printed a progress line (one a
# second of wall time; "... messages done, ..."; the closing summary says
# "messages completed" instead, and a kill after it finds the run over).
# Follow its log with one tail and bash's read: a grep per poll costs
# ~0.2 s on a loaded host, and the run lasts seconds.
log=$dir/out/logs/uet-switch.log
started=0
for _ in $(seq 200); do [ -f "$log" ] && break; sleep 0.1; done
coproc TAILER { exec tail -F -n +1 "$log" 2>/dev/null; }
tailer=$TAILER_PID
while IFS= read -r -t 60 line <&"${TAILER[0]}"; do
	case $line in *' messages done, '*) started=1; break;; esac
done
kill "$tailer" 2>/dev/null || true
[ "$started" -eq 1 ] || {
	cat "$dir/launch.log"; echo "FAIL: the run never got under way"; exit 1; }
victim=$(sed -n 's/^uet-launch: uet-nic --nic 4-7 pid \([0-9]*\)$/\1/p' "$dir/launch.log")
[ -n "$victim" ] || { echo "FAIL: no pid for uet-nic --nic 4-7"; exit 1; }
kill -KILL "$victim"
killed_at=$SECONDS

rc=0
for _ in $(seq 600); do kill -0 "$launcher" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$launcher" 2>/dev/null; then
	echo "FAIL: processes still running 30 s after the kill"; exit 1
fi
wait "$launcher" || rc=$?
launcher=
# The killed process had no exit to remove its (empty) EAL runtime folder.
rt=/var/run/dpdk
[ "$(id -u)" = 0 ] || rt=${XDG_RUNTIME_DIR:-/tmp}/dpdk
rmdir "$rt/uet-nic-$victim" 2>/dev/null || true
cat "$dir/launch.log"
echo "launcher exited $rc, $((SECONDS - killed_at)) s after the kill"
[ "$rc" -ne 0 ] || { echo "FAIL: the launcher reported success"; exit 1; }
grep -Eq '^uet-switch: the run stopped: nic [4-7] \(198\.18\.0\.[5-8]\) on port [^ ]+ .*(for 5000 ms|aborted)' \
	"$dir/out/logs/uet-switch.log" || {
	echo "FAIL: uet-switch did not name the silent NIC and its port"; exit 1; }
grep -q 'uet-nic: the run stopped' "$dir/out/logs/uet-nic-0.log" || {
	echo "FAIL: the surviving uet-nic did not stop on the ABORT"; exit 1; }
# No process of the run is left (the launcher kills by pid only; check).
while read -r p; do
	if kill -0 "$p" 2>/dev/null; then echo "FAIL: pid $p still running"; exit 1; fi
done < <(sed -n 's/^uet-launch: .* pid \([0-9]*\).*/\1/p' "$dir/launch.log")

n=0
for f in "$dir"/out/*.csv; do
	[ -f "$f" ] || continue
	[ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] || {
		echo "FAIL: $f does not end with a whole row"; exit 1; }
	awk -F, 'NR == 1 {n = NF} NF != n {bad = 1} END {exit bad}' "$f" || {
		echo "FAIL: $f has a row of the wrong width"; exit 1; }
	n=$((n + 1))
done
for p in "$dir"/out/port-*.pcap; do
	tshark -r "$p" >/dev/null 2>"$dir/tshark.err" || true
	sed -i '/^Running as user "root"/d' "$dir/tshark.err"
	[ ! -s "$dir/tshark.err" ] || { cat "$dir/tshark.err"; echo "FAIL: $p is cut"; exit 1; }
	n=$((n + 1))
done
# A program's records are the switch's (its engine heard every
# completion until the kill): there, whole, a row per rank.
if grep -q '^  \(chakra\|matrix\|generate\):' "$scenario"; then
	ranks=$(awk -F, 'NR > 1 && $2 == "trace"' "$dir/out/workload.csv" 2>/dev/null | wc -l)
	[ "$ranks" -eq 8 ] || { echo "FAIL: $ranks ranks in workload.csv, not 8"; exit 1; }
	[ -f "$dir/out/workload-messages.csv" ] || { echo "FAIL: no workload-messages.csv"; exit 1; }
fi
echo "ok: killed uet-nic 4-7; the switch stopped and named it; $n record files complete"
