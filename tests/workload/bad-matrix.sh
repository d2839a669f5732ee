#!/usr/bin/env bash
# A connection matrix with a bad line is a bad scenario: uet-emu stops
# before EAL starts, exit status 2 (as for any bad scenario) and one
# message naming the file, the line and the fault.

# usage: bad-matrix.sh UET-EMU
set -euo pipefail
emu=$1
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir bad-matrix
printf 'Nodes 4\nConnections 2\n0->1 start 0 size 10\n1->2 id 4 trigger 9 size 10\n' \
	>"$dir/m.cm"
printf 'topology: {hosts: 4}\nrecords: {EnablePcap: false}\nworkload: {matrix: m.cm}\n' \
	>"$dir/s.yaml"
rc=0
"$emu" --out "$dir/out" "$dir/s.yaml" 2>"$dir/log" || rc=$?
cat "$dir/log"
[ "$rc" -eq 2 ] || { echo "FAIL: exit status $rc, want 2"; exit 1; }
want="uet-emu: workload.matrix: $dir/m.cm:4: trigger 9: no trigger line defines it"
grep -qxF "$want" "$dir/log" || { echo "FAIL: want the line: $want"; exit 1; }
echo "ok: stopped with the line and the fault"
