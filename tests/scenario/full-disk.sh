#!/usr/bin/env bash
# The output folder's disk fills during a run (a tmpfs this test mounts,
# too small for the scenario's outputs): uet-emu exits 1 and names each file
# it could not write ("writing DIR/NAME failed: No space left on device"),
# and what it leaves in the folder is whole: no NAME.partial, every CSV
# ends with a whole row as wide as its header, every pcap reads in tshark.
# Twice: the captures fill the disk (2 MiB), then, captures off, the
# records do (1 MiB). The same scenario on a large enough folder exits 0.
# Before, the run exited 0 with a flows.csv cut mid-row.
# usage: full-disk.sh UET-EMU SCENARIO
set -euo pipefail
emu=$1 scenario=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
dir=$(mktemp -d /tmp/uet-full-disk.XXXXXX)
mnt=$dir/mnt
mounted=0
trap '[ "$mounted" -eq 0 ] || umount "$mnt"; rm -rf "$dir"' EXIT

mkdir "$mnt"
if ! mount -t tmpfs -o size=2m uet-full-disk "$mnt" 2>/dev/null; then
	echo "SKIP: cannot mount a tmpfs here (need root)"; exit 77
fi
mounted=1

# full CASE SCENARIO: one run onto the full disk.
full() {
	local rc=0
	rm -rf "${mnt:?}"/*
	"$emu" --out "$mnt/out" "$2" >"$dir/$1.log" 2>&1 || rc=$?
	grep -v ' messages done, ' "$dir/$1.log"
	[ "$rc" -eq 1 ] || fail "$1: uet-emu exited $rc on a full disk, want 1"
	grep -Eq "writing $mnt/out/[^ ]+ failed: No space left on device" \
		"$dir/$1.log" || fail "$1: no message names the file not written"
	grep -q "writing the records and captures in $mnt/out failed" \
		"$dir/$1.log" || fail "$1: no closing line on the failed records"
	files_whole "$mnt/out"
	echo "ok: $n files left in the folder, each whole"
}

full captures "$scenario"
grep -Eq "writing $mnt/out/port-[0-9]+\.pcap failed" "$dir/captures.log" ||
	fail "captures: no capture named"

umount "$mnt"
mounted=0
mount -t tmpfs -o size=1m uet-full-disk "$mnt"
mounted=1
sed 's/^  EnableUetMonitor: true$/&\n  EnablePcap: false/' "$scenario" >"$dir/no-pcap.yaml"
grep -q 'EnablePcap: false' "$dir/no-pcap.yaml" || fail "cannot turn captures off"
full records "$dir/no-pcap.yaml"
grep -Eq "writing $mnt/out/uet-monitor\.csv failed" "$dir/records.log" ||
	fail "records: uet-monitor.csv not named"

# The same runs with room: exit 0, the files under their names.
rc=0
"$emu" --out "$dir/roomy" "$scenario" >"$dir/roomy.log" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$dir/roomy.log"; fail "with room uet-emu exited $rc"; }
[ -s "$dir/roomy/flows.csv" ] && [ -s "$dir/roomy/port-0.pcap" ] ||
	fail "with room: flows.csv or port-0.pcap missing"
files_whole "$dir/roomy"
echo "ok: with room, $n files, each whole"
