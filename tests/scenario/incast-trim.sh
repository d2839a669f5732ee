#!/usr/bin/env bash
# The 8-to-1 incast through one switch with trimming on, checked from the
# summary and flows.csv:
#  - every message completes, every PSN retired once, payloads intact;
#  - nic-defaults (first transmissions no-trim, retransmissions trimmable):
#    each frame the switch drops is recovered by a timeout (drops = timeouts
#    > 0), each trim by a NACK (switch trims = NACKs = trims acted on > 0),
#    and nothing else is resent (retransmits = timeouts + trims);
#  - nic-trimming (TrimmingEnabled on the NIC): no drop, trims = NACKs =
#    retransmits > 0, and no timeout.
# usage: incast-trim.sh UET-EMU SCENARIO nic-defaults|nic-trimming
set -euo pipefail
emu=$1 scenario=$2 mode=$3
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir incast

run_emu "$emu" "$dir/out" "$scenario" "$dir/log"
cat "$dir/log"
[ "$(summary "$dir/out" messages)" -eq 8 ] || fail "not 8 messages"
summary_intact "$dir/out" 2048
drops=$(summary "$dir/out" switch_drops)
trims=$(summary "$dir/out" switch_trims)
# flows.csv: retransmits, trims, nacks, timeouts are columns 13 to 16.
read -r retx ftrims nacks timeouts < <(tail -n +2 "$dir/out/flows.csv" |
	awk -F, '{r += $13; t += $14; n += $15; o += $16}
		 END {print r, t, n, o}')
echo "switch: $drops dropped, $trims trimmed; senders: $retx retransmits," \
	"$nacks NACKs, $ftrims trims acted on, $timeouts timeouts"
case $mode in
nic-defaults)
	[ "$drops" -gt 0 ] || fail "no first transmission was dropped"
	[ "$timeouts" -eq "$drops" ] || fail "timeouts $timeouts != drops $drops"
	[ "$trims" -gt 0 ] || fail "no retransmission was trimmed"
	[ "$nacks" -eq "$trims" ] && [ "$ftrims" -eq "$trims" ] ||
		fail "NACKs $nacks, trims acted on $ftrims != switch trims $trims"
	[ "$retx" -eq $((timeouts + trims)) ] ||
		fail "retransmits $retx != timeouts + trims $((timeouts + trims))"
	;;
nic-trimming)
	[ "$drops" -eq 0 ] || fail "$drops frames dropped"
	[ "$trims" -gt 0 ] || fail "nothing was trimmed"
	[ "$nacks" -eq "$trims" ] && [ "$ftrims" -eq "$trims" ] &&
		[ "$retx" -eq "$trims" ] ||
		fail "NACKs $nacks, trims acted on $ftrims, retransmits $retx != switch trims $trims"
	[ "$timeouts" -eq 0 ] || fail "$timeouts timeouts"
	;;
*) fail "unknown mode $mode" ;;
esac
echo "ok: $mode"
