#!/usr/bin/env bash
# What uet-launch prints says what happened (memif: needs no root).
#  - A run that goes well, into a folder whose name holds a space, where an
#    earlier run left logs of a process this run does not have: exit 0,
#    "records in DIR" with the whole path, the records there, the stale
#    logs gone, and no line a user takes for a failure (the memif PMD's
#    "Failed to connect socket" while the switch makes its sockets, EAL's
#    "Invalid memory", any "error").
#  - Lockstep over memif: the rings it sizes and, on two CPUs or more,
#    where it puts the processes.
#  - A run that fails (its message cannot complete by run.end): non-zero,
#    no "records in DIR", a line that says the run failed.
# Before: the folder was cut at the space, stale logs were printed as this
# run's, and "records in DIR" closed failed runs too.
# usage: launch-words.sh SOURCE_ROOT BUILD_DIR
set -euo pipefail
src=$1 build=$2
dir=$(mktemp -d /tmp/uet-launch-words.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out="$dir/with space/out"
mkdir -p "$out/logs"
echo "uet-nic: an error of an earlier run" >"$out/logs/uet-nic-7.log"
echo "figure,value" >"$out/logs/uet-nic-7.summary.csv"
cat >"$dir/ok.yaml" <<'YAML'
run: {end: 1ms}
topology: {kind: single-switch, hosts: 2}
workload:
  messages:
    - {src: 0, dst: 1, size: 64KiB}
    - {src: 1, dst: 0, size: 4KiB}
YAML
rc=0
"$src/scripts/uet-launch" "$dir/ok.yaml" --ports memif --build "$build" \
	--out "$out" >"$dir/ok.log" 2>&1 || rc=$?
cat "$dir/ok.log"
[ "$rc" -eq 0 ] || fail "the good run exited $rc"
grep -qxF "uet-launch: records in $out" "$dir/ok.log" ||
	fail "no 'records in' line with the whole folder"
[ -s "$out/flows.csv" ] && [ "$(tail -n +2 "$out/flows.csv" | wc -l)" -eq 2 ] ||
	fail "flows.csv in the folder with a space does not have the 2 messages"
[ ! -e "$out/logs/uet-nic-7.log" ] && [ ! -e "$out/logs/uet-nic-7.summary.csv" ] ||
	fail "an earlier run's logs are still there"
if grep -Ei 'Failed to connect|Invalid memory|error' "$dir/ok.log"; then
	fail "a good run printed lines that read as failures"
fi
echo "ok: the good run: records in the folder with a space, nothing alarming"
# Lockstep over memif: rings sized for the windows and, on two CPUs or
# more, the switch on the first CPU; on exactly two, the second uet-nic
# (one NIC of the two hosts) beside it and the first on the other CPU.
grep -qx 'uet-launch: memif rings of 64 slots' "$dir/ok.log" ||
	fail "no line with the memif rings"
mapfile -t cpus < <(awk '/^Cpus_allowed_list:/ {print $2}' /proc/self/status |
	tr ',' '\n' | awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }')
if [ "${#cpus[@]}" -ge 2 ]; then
	grep -qx "uet-launch: uet-switch on CPU ${cpus[0]}" "$dir/ok.log" ||
		fail "uet-switch is not on CPU ${cpus[0]}"
	grep -qx "uet-launch: uet-nic-0 on CPU ${cpus[1]}" "$dir/ok.log" ||
		fail "uet-nic-0 is not on CPU ${cpus[1]}"
	if [ "${#cpus[@]}" -eq 2 ]; then
		grep -qx "uet-launch: uet-nic-1 on CPU ${cpus[0]}" "$dir/ok.log" ||
			fail "uet-nic-1 is not beside the switch on CPU ${cpus[0]}"
	fi
	echo "ok: uet-switch on CPU ${cpus[0]}, the uet-nic processes placed"
fi

sed 's/end: 1ms/end: 2us/' "$dir/ok.yaml" >"$dir/short.yaml"
rc=0
"$src/scripts/uet-launch" "$dir/short.yaml" --ports memif --build "$build" \
	--out "$dir/failed" >"$dir/failed.log" 2>&1 || rc=$?
cat "$dir/failed.log"
[ "$rc" -ne 0 ] || fail "a run whose messages did not complete exited 0"
if grep -q '^uet-launch: records in' "$dir/failed.log"; then
	fail "a failed run closes with 'records in'"
fi
grep -q '^uet-launch: the run failed' "$dir/failed.log" ||
	fail "no line says the run failed"
echo "ok: the failed run says so"
