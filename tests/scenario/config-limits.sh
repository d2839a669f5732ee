#!/usr/bin/env bash
# Every limit checked where it is stated (docs/configuration.md):
#  - a message of 4 GiB is refused at load (the most is 4 GiB - 1, which
#    loads): before, 4-64 GiB passed and failed at the first post;
#  - a scenario file larger than 64 MiB is refused at once, and /dev/zero
#    as a device, unread (uet-emu /dev/zero read it until memory ran out);
#  - periodic records that would pass records.MaxFileSize are refused
#    before the run (switch.occupancy_interval 1ps wrote 900 MB for 21.7 us),
#    naming the period and the key;
#  - a file that reaches records.MaxFileSize during the run stops it, named,
#    and no file is larger;
#  - uet-launch refuses a workload program (generator, matrix, Chakra) in
#    realtime (its completions cross the processes in the lockstep's
#    window notes), which runs in uet-emu only, before it sets anything
#    up.
# usage: config-limits.sh UET-EMU SOURCE_ROOT BUILD_ROOT
set -euo pipefail
emu=$1 src=$2 build=$3
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir config-limits

# refused NAME WANT: uet-emu exits 2 on $dir/NAME.yaml, stderr has WANT.
refused() {
	local rc=0
	"$emu" --out "$dir/out-$1" "$dir/$1.yaml" >"$dir/$1.log" 2>&1 || rc=$?
	cat "$dir/$1.log"
	[ "$rc" -eq 2 ] || fail "$1: uet-emu exited $rc, want 2 (bad scenario)"
	grep -qF -- "$2" "$dir/$1.log" || fail "$1: no '$2' in the message"
	[ ! -e "$dir/out-$1" ] || fail "$1: the run started (its folder exists)"
	echo "ok: $1 refused before the run"
}
scen() { # NAME SECTIONS-TEXT [SIZE [END]]: two hosts, one message
	printf 'run: {end: %s}\ntopology: {kind: single-switch, hosts: 2}\n%sworkload:\n  messages:\n    - {src: 0, dst: 1, size: %s}\n' \
		"${4:-10ms}" "$2" "${3:-4KiB}" >"$dir/$1.yaml"
}

scen size-4gib "" 4GiB
refused size-4gib "workload.messages[0].size = 4GiB: out of range: must be between 0 and 4294967295B"
scen size-max "" 4294967295
"$emu" --print-config "$dir/size-max.yaml" >/dev/null ||
	fail "a message of 4 GiB - 1 does not load"
echo "ok: 4 GiB - 1 loads"

rc=0
"$emu" /dev/zero >"$dir/zero.log" 2>&1 || rc=$?
cat "$dir/zero.log"
[ "$rc" -eq 2 ] || fail "/dev/zero: exited $rc, want 2"
grep -q "/dev/zero: cannot open the scenario: a character device, not a regular file" \
	"$dir/zero.log" || fail "/dev/zero: not named a device"
truncate -s 65M "$dir/big.yaml"
rc=0
"$emu" "$dir/big.yaml" >"$dir/big.log" 2>&1 || rc=$?
cat "$dir/big.log"
[ "$rc" -eq 2 ] || fail "big.yaml: exited $rc, want 2"
grep -q "big.yaml: the file is larger than 64 MiB, the most a scenario may be" \
	"$dir/big.log" || fail "big.yaml: no message on the file's size"

scen occupancy 'switch: {occupancy_ports: "host0", occupancy_interval: 1ps}\n'
sed -i 's/\\n/\n/' "$dir/occupancy.yaml"
refused occupancy "switch.occupancy_interval = 1ps: switch-occupancy.csv would take about"
grep -q "more than records.MaxFileSize 16GiB" "$dir/occupancy.log" ||
	fail "occupancy: the limit key is not named"
scen stats 'records: {NDStatsReportInterval: 1ns}\n'
sed -i 's/\\n/\n/' "$dir/stats.yaml"
refused stats "records.NDStatsReportInterval = 1ns: uet-transport-stats.csv would take about"

# A file reaching records.MaxFileSize (1 MiB) mid-run: stopped, named.
scen maxfile 'records: {MaxFileSize: 1MiB, EnableUetMonitor: true}\n' 16MiB 1ms
sed -i 's/\\n/\n/' "$dir/maxfile.yaml"
rc=0
"$emu" --out "$dir/out-maxfile" "$dir/maxfile.yaml" >"$dir/maxfile.log" 2>&1 || rc=$?
cat "$dir/maxfile.log"
[ "$rc" -eq 1 ] || fail "maxfile: uet-emu exited $rc, want 1"
grep -Eq "out-maxfile/[^ ]+ reached records.MaxFileSize \(1048576 bytes\)" \
	"$dir/maxfile.log" || fail "maxfile: the file at the limit is not named"
for f in "$dir/out-maxfile"/*; do
	[ "$(stat -c %s "$f")" -le 1048576 ] || fail "$f is over the limit"
done
echo "ok: no file over records.MaxFileSize"

# uet-launch: a workload program in realtime is refused before anything
# is set up.
launch=$src/scripts/uet-launch
sed 's/^run: {/run: {clock: realtime, /' "$src/examples/generate-incast.yaml" \
	>"$dir/generate-rt.yaml"
rc=0
"$launch" "$dir/generate-rt.yaml" --ports memif --build "$build" --out "$dir/launch" \
	>"$dir/launch.log" 2>&1 || rc=$?
cat "$dir/launch.log"
[ "$rc" -eq 2 ] || fail "uet-launch generate-rt.yaml: exited $rc, want 2"
grep -q "workload.generate with run.clock: realtime runs in uet-emu only" "$dir/launch.log" ||
	fail "uet-launch generate-rt.yaml: no reason given"
if grep -q "^uet-launch: tag \|pid " "$dir/launch.log" || [ -e "$dir/launch" ]; then
	fail "uet-launch generate-rt.yaml: set up before refusing"
fi
echo "ok: uet-launch refuses a generator in realtime up front"
