#!/usr/bin/env bash
# The 15-to-1 incast at AckRequestEveryNthPacket 4 (incast-ack-nth.yaml),
# with the fixed 100 us timeout, then with the backed-off one: every
# message completes by 5 ms, every PSN taken is retired once, payloads
# intact. A window of one or two packets never waits for a timeout to
# learn what arrived: the packet that closes it asks for an ACK when no
# request is in flight (docs/nic.md, "Window, pools, prefetch").
# usage: incast-ack-nth.sh UET-EMU SCENARIO
set -euo pipefail
emu=$1 scenario=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir incast-ack-nth

# The copies go in $dir, with the matrix's path made absolute.
matrix=$(sed -n 's/^workload: {matrix: \(.*\)}$/\1/p' "$scenario")
[ -n "$matrix" ] || fail "no workload.matrix line in $scenario"
matrix=$(cd "$(dirname "$scenario")" && realpath "$matrix")
for rto in fixed backoff; do
	s=$dir/$rto.yaml
	sed -e "s|^workload: {matrix: .*}$|workload: {matrix: $matrix}|" \
		"$scenario" >"$s"
	[ $rto = fixed ] ||
		sed -i 's/FixedRexmitTimeEnable: true/FixedRexmitTimeEnable: false/' "$s"
	rm -rf "$dir/out"
	run_emu "$emu" "$dir/out" "$s" "$dir/log"
	done_=$(summary "$dir/out" completed)
	[ "$done_" -eq 15 ] || fail "$rto: $done_ of 15 messages completed by 5 ms"
	taken=$(summary "$dir/out" psns_taken)
	[ "$(summary "$dir/out" psns_retired)" -eq "$taken" ] &&
		[ "$(summary "$dir/out" payload_mismatches)" -eq 0 ] &&
		[ "$(summary "$dir/out" in_flight_anomalies)" -eq 0 ] ||
		fail "$rto: integrity: $(grep -E '^(payload|in_flight|psns)' "$dir/out/summary.csv" | tr '\n' ' ')"
	# flows.csv: fct_ps and timeouts are columns 12 and 16.
	read -r tail_ps timeouts < <(tail -n +2 "$dir/out/flows.csv" |
		awk -F, '{if ($12 > t) t = $12; o += $16} END {print t, o}')
	echo "ok: $rto: 15 of 15, tail completion $tail_ps ps, $timeouts timeouts"
done
