#!/usr/bin/env bash
# The 8-rank explicit ring all-reduce (custom_ring_allreduce_8npus_1MB:
# point-to-point messages and 7 COMPs of 7 us written in the trace) and the
# decomposed 1 MB all_reduce on 8 ranks (ring, reduce_chunk 7us: the same
# graph shape, docs/workload.md) must complete within 5% of each other in
# uet-emu.
# usage: ring-vs-decomposed.sh UET-EMU CHAKRA-EXAMPLES-DIR
set -euo pipefail
emu=$1 root=$2
dir=$(mktemp -d /tmp/uet-ring.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# run NAME PREFIX EXTRA: prints the last rank's completion time, ps.
run() {
	cat >"$dir/$1.yaml" <<YAML
run: {end: 10ms, progress: false}
topology: {hosts: 8}
records: {EnablePcap: false}
workload: {chakra: "$2"$3}
YAML
	"$emu" --out "$dir/$1" "$dir/$1.yaml" 2>"$dir/$1.log" || {
		cat "$dir/$1.log" >&2; echo "FAIL: $1: uet-emu exited $?" >&2
		exit 1; }
	sed -n 's/.*trace completed at .* (\([0-9]*\) ps).*/\1/p' \
		"$dir/$1.log" | sort -n | tail -1
}

explicit=$(run explicit \
	"$root/system/custom_collectives/custom_ring_allreduce_8npus_1MB/custom_allreduce" "")
decomposed=$(run decomposed \
	"$root/workload/microbenchmarks/all_reduce/8npus_1MB/all_reduce" \
	", all_reduce: ring, reduce_chunk: 7us")
hi=$((explicit > decomposed ? explicit : decomposed))
diff=$((explicit > decomposed ? explicit - decomposed : decomposed - explicit))
echo "explicit ring: $explicit ps; decomposed all_reduce: $decomposed ps;" \
	"difference $diff ps"
[ $((diff * 100)) -le $((hi * 5)) ] || {
	echo "FAIL: they differ by more than 5%"; exit 1; }
echo "ok: within 5%"
