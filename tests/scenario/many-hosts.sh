#!/usr/bin/env bash
# uet-emu links more hosts than Debian's DPDK has ethdevs for (32: 16 hosts
# when each link was two net_ring ports): the scenario runs to the end with
# every message completed and intact, one capture per host, and a second
# run writes byte-identical records.
# usage: many-hosts.sh UET-EMU SCENARIO HOSTS MESSAGES
set -euo pipefail
emu=$1 scenario=$2 hosts=$3 messages=$4
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir many-hosts

run_emu "$emu" "$dir/a" "$scenario" "$dir/a.log"
cat "$dir/a.log"
[ "$(summary "$dir/a" messages)" -eq "$messages" ] &&
	[ "$(summary "$dir/a" completed)" -eq "$messages" ] ||
	fail "not every one of the $messages messages completed"
[ "$(summary "$dir/a" payload_mismatches)" -eq 0 ] &&
	[ "$(summary "$dir/a" in_flight_anomalies)" -eq 0 ] &&
	[ "$(summary "$dir/a" intact)" -eq 1 ] || fail "integrity"
rows=$(tail -n +2 "$dir/a/flows.csv" | awk -F, '$11 != ""' | wc -l)
[ "$rows" -eq "$messages" ] || {
	echo "FAIL: $rows completed rows in flows.csv, want $messages"; exit 1; }
pcaps=$(find "$dir/a" -name 'port-*.pcap' | wc -l)
[ "$pcaps" -eq "$hosts" ] || {
	echo "FAIL: $pcaps captures, want one per host ($hosts)"; exit 1; }

run_emu "$emu" "$dir/b" "$scenario" "$dir/b.log"
same_records "$dir/a" "$dir/b"
echo "ok: $hosts hosts, $messages of $messages messages, two runs identical"
