#!/usr/bin/env bash
# Every message completes, every byte verified, at 50% random drop
# (heavy-loss.yaml), for each seed from 1 to 16: uet-emu exits 0 only when
# every message completed with no payload mismatch, and flows.csv has a
# completion time for each, and switch-stats.csv counts each of the
# switch's drops as random (rx_drop_random_frames). Before receiving sides closed by their linger
# timer answered the retransmissions of their message, 3 of these 16 seeds
# ended with a message "arrived, not acknowledged".
# usage: heavy-loss.sh UET-EMU SCENARIO
set -euo pipefail
emu=$1 scenario=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir heavy-loss

messages=$(grep -c '{src:' "$scenario")
for seed in $(seq 1 16); do
	sed "s/^  seed: 1$/  seed: $seed/" "$scenario" >"$dir/s.yaml"
	grep -q "^  seed: $seed$" "$dir/s.yaml" || fail "no run.seed line to set"
	rm -rf "$dir/out"
	run_emu "$emu" "$dir/out" "$dir/s.yaml" "$dir/log"
	[ "$(summary "$dir/out" payload_mismatches)" -eq 0 ] &&
		[ "$(summary "$dir/out" in_flight_anomalies)" -eq 0 ] ||
		{ cat "$dir/log"; fail "seed $seed: integrity (summary.csv)"; }
	dropped=$(summary "$dir/out" switch_drops)
	[ "${dropped:-0}" -gt 0 ] || fail "seed $seed: the switch dropped nothing"
	# switch-stats.csv has every one by kind: the random ones on each
	# port's class 0 row (rx_drop_random_frames), the rest per class.
	by_kind=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ s += $c["drop_frames"] + $c["down_drop_frames"] + $c["rx_drop_route_frames"]
		  s += $c["rx_drop_control_frames"] + $c["rx_drop_random_frames"]
		  r += $c["rx_drop_random_frames"] }
		END { print s + 0, r + 0 }' "$dir/out/switch-stats.csv")
	[ "$by_kind" = "$dropped $dropped" ] ||
		fail "seed $seed: switch-stats.csv has (all, random) $by_kind, summary.csv $dropped drops, all random"
	rows=$(tail -n +2 "$dir/out/flows.csv" | awk -F, '$11 != ""' | wc -l)
	[ "$rows" -eq "$messages" ] ||
		fail "seed $seed: $rows of $messages messages completed"
	echo "ok: seed $seed: $messages of $messages messages, $dropped frames dropped"
done
