#!/usr/bin/env bash
# records.EnableCcTrace writes uet-cc-trace.csv: one row per event that moved
# a group's window, naming why. On the 7-to-1 incast the trace must show the
# window growing (fair or proportional increase on ACKs) and shrinking on
# loss (timeouts: the switch drops, trimming is off), for each sender.
# usage: cc-trace.sh UET-EMU SCENARIO
set -euo pipefail
emu=$1 scenario=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir cc-trace
sed 's/^records:/records:\n  EnableCcTrace: true/' "$scenario" >"$dir/s.yaml"
run_emu "$emu" "$dir/out" "$dir/s.yaml" "$dir/log"
f=$dir/out/uet-cc-trace.csv
[ -f "$f" ] || { echo "FAIL: no uet-cc-trace.csv"; exit 1; }
head -n 1 "$f" | grep -qx 'time_ps,nic,peer,event,reason,window_bytes,in_flight_bytes,base_rtt_ps,delay_ps' ||
	{ echo "FAIL: header"; head -n 1 "$f"; exit 1; }
for nic in 198.18.0.2 198.18.0.3 198.18.0.8; do
	grep -q "^[0-9]*,$nic,198.18.0.1,ack,\(fair_increase\|proportional_increase\)," "$f" ||
		{ echo "FAIL: no increase row for $nic"; exit 1; }
	grep -q "^[0-9]*,$nic,198.18.0.1,timeout,timeout," "$f" ||
		{ echo "FAIL: no timeout row for $nic"; exit 1; }
done
# Each NIC's rows are in time order (NICs run their lockstep windows one
# after another, so the file interleaves them by window), and every reason
# is one uet_cc names.
awk -F, 'NR > 1 { if ($1 < last[$2]) { print "FAIL: time goes back at row " NR; exit 1 }
	last[$2] = $1 }' "$f"
bad=$(tail -n +2 "$f" | cut -d, -f5 | sort -u | grep -vxE 'fair_increase|proportional_increase|fast_increase|multiplicative_decrease|ecn_low_delay|quick_adapt|quick_adapt_ignore|adjust|eta|receiver_penalty|trim|timeout|max_window' || true)
[ -z "$bad" ] || { echo "FAIL: unknown reasons: $bad"; exit 1; }
echo "ok: $(($(wc -l <"$f") - 1)) trace rows"
