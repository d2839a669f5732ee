#!/usr/bin/env bash
# A folder holds one run (issue 34, item 1):
#  - a scenario refused for a name the fabric does not have
#    (topology.failures' link, switch.occupancy_ports) exits 2 before any
#    output is opened: the last good run's files are all there, byte for
#    byte. Before, it exited 1 and left flows.csv with its header only,
#    24-byte pcaps, and the old summary.csv beside them;
#  - a run clears an earlier run's files as it opens its own: a run
#    without captures leaves no pcap of the run before, and a run killed
#    mid-way leaves no summary.csv of the run before beside its partial
#    records.
# usage: refused-keeps-run.sh UET-EMU LEAF-SPINE-SCENARIO LONG-SCENARIO
set -euo pipefail
emu=$1 scenario=$2 long=$3
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir refused-keeps-run
pid=
trap '[ -z "$pid" ] || kill -KILL "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
out=$dir/over

run_emu "$emu" "$out" "$scenario" "$dir/good.log"
ls "$out"/port-*.pcap >/dev/null 2>&1 || fail "the good run wrote no capture"
(cd "$out" && sha256sum -- * >"$dir/good.sums")

# refused NAME TEXT: the scenario with TEXT after its 'topology:' line (or
# as a section of its own when TEXT starts a line) exits 2 with a message
# naming the key, and leaves $out as the good run left it.
refused() {
	local rc=0
	if [[ $2 == " "* ]]; then
		sed "s/^topology:\$/topology:\n$2/" "$scenario" >"$dir/$1.yaml"
	else
		{ cat "$scenario"; printf '%s\n' "$2"; } >"$dir/$1.yaml"
	fi
	"$emu" --out "$out" "$dir/$1.yaml" 2>"$dir/$1.log" || rc=$?
	cat "$dir/$1.log"
	[ "$rc" -eq 2 ] || fail "$1: exit status $rc, want 2"
	grep -q "$3" "$dir/$1.log" || fail "$1: no message naming $3"
	(cd "$out" && sha256sum --quiet -c "$dir/good.sums") ||
		fail "$1: the last good run's files changed"
	[ "$(ls "$out" | wc -l)" -eq "$(wc -l <"$dir/good.sums")" ] ||
		fail "$1: files added to the last good run's"
	echo "ok: $1: exit 2, the last run's $(wc -l <"$dir/good.sums") files intact"
}
refused failure '  failures: [{link: leaf-1-spine0}]' \
	'topology.failures\[0\].link = leaf-1-spine0: no such link'
refused occupancy 'switch: {occupancy_ports: "host0,bogus:port"}' \
	'switch.occupancy_ports: bogus:port: no such port'

# A run with no captures leaves none of the run before.
sed 's/^run:$/records: {EnablePcap: false}\nrun:/' "$scenario" >"$dir/nopcap.yaml"
run_emu "$emu" "$out" "$dir/nopcap.yaml" "$dir/nopcap.log"
if ls "$out"/port-*.pcap >/dev/null 2>&1; then
	fail "the earlier run's captures left beside this run's records"
fi
echo "ok: a run without captures leaves none of the run before"

# A run killed once its records are open leaves no summary.csv of the run
# before.
[ -f "$out/summary.csv" ] || fail "no summary.csv from the run before"
"$emu" --out "$out" "$long" 2>"$dir/long.log" &
pid=$!
for _ in $(seq 600); do
	ls "$out"/*.partial >/dev/null 2>&1 && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05
done
ls "$out"/*.partial >/dev/null 2>&1 || { cat "$dir/long.log"; fail "no record opened"; }
kill -KILL "$pid"
wait "$pid" || true
pid=
[ ! -e "$out/summary.csv" ] ||
	fail "the run before's summary.csv left beside a killed run's records"
echo "ok: a killed run leaves no summary.csv of the run before"
