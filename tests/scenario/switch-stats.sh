#!/usr/bin/env bash
# shellcheck disable=SC2016 # col() takes awk conditions, single-quoted for awk
# The switch stats record on the 8-to-1 incast of examples/incast-8-trim.yaml
# (NIC defaults: first transmissions no-trim, retransmissions trimmable),
# with host 0's port sampled every microsecond:
#  - the bottleneck (the port facing host 0): bytes enqueued over every
#    class = the wire bytes of the frames port-0.pcap shows going to host
#    0 (every frame that joined a queue left it), frames likewise;
#  - its drops = the senders' timeouts, its trims = their NACKs (flows.csv);
#  - peak occupancy within 1.5 x queue_limit, the mean below the peak and
#    above zero, paused_ps 0 (no PFC yet), no drop or trim at any other
#    port;
#  - switch-occupancy.csv: one row per microsecond from 0, its largest
#    sample no larger than the record's peak;
#  - a second run gives byte-identical switch-stats.csv and
#    switch-occupancy.csv.
# usage: switch-stats.sh UET-EMU SCENARIO
set -euo pipefail
emu=$1 scenario=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir swstats

sed 's/^switch:/switch:\n  occupancy_ports: "host0"\n  occupancy_interval: 1us/' \
	"$scenario" >"$dir/run.yaml"
for n in 1 2; do
	run_emu "$emu" "$dir/out$n" "$dir/run.yaml" "$dir/log$n"
done
grep -v "^uet-emu: message" "$dir/log1"
[ "$(summary "$dir/out1" completed)" -eq 8 ] || fail "not every message completed"
out=$dir/out1
cmp "$out/switch-stats.csv" "$dir/out2/switch-stats.csv" || fail "switch-stats.csv differs between runs"
cmp "$out/switch-occupancy.csv" "$dir/out2/switch-occupancy.csv" ||
	fail "switch-occupancy.csv differs between runs"

# Sum a column of switch-stats.csv over the rows matching an awk filter.
col() { # column filter
	awk -F, -v c="$1" "
		NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
		$2 { s += \$col[c] }
		END { print s + 0 }" "$out/switch-stats.csv"
}
enq_bytes=$(col enq_bytes '$4 == "host0"')
enq_frames=$(col enq_frames '$4 == "host0"')
drops=$(col drop_frames '$4 == "host0"')
trims=$(col trim_frames '$4 == "host0"')
other=$(col drop_frames '$4 != "host0"')
other_trims=$(col trim_frames '$4 != "host0"')
paused=$(col paused_ps '1')
read -r peak mean < <(awk -F, '$4 == "host0" && $8 == 0 { print $18, $19 }' "$out/switch-stats.csv")
read -r timeouts nacks < <(tail -n +2 "$out/flows.csv" | awk -F, '{ o += $16; n += $15 } END { print o, n }')
# Frames to host 0 in its capture: their wire bytes are the Ethernet and
# IP headers' 14 + IP total length, plus the 4-byte FCS.
read -r cap_frames cap_bytes < <(python3 - "$out/port-0.pcap" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
end = '<' if data[:4] in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1') else '>'
off, frames, total = 24, 0, 0
while off + 16 <= len(data):
    incl = struct.unpack(end + 'I', data[off + 8:off + 12])[0]
    pkt = data[off + 16:off + 16 + incl]
    off += 16 + incl
    if len(pkt) >= 34 and pkt[12:14] == b'\x08\x00' and pkt[30:34] == bytes([198, 18, 0, 1]):
        frames += 1
        total += 14 + struct.unpack('>H', pkt[16:18])[0] + 4
print(frames, total)
PY
)
echo "port host0: $enq_frames frames, $enq_bytes bytes enqueued; capture to host 0: $cap_frames frames, $cap_bytes bytes"
echo "port host0: $drops dropped, $trims trimmed, peak $peak, mean $mean; senders: $timeouts timeouts, $nacks NACKs"
[ "$enq_bytes" -eq "$cap_bytes" ] && [ "$enq_frames" -eq "$cap_frames" ] ||
	fail "enqueued $enq_frames frames / $enq_bytes bytes, the capture shows $cap_frames / $cap_bytes"
[ "$drops" -gt 0 ] && [ "$drops" -eq "$timeouts" ] || fail "drops $drops != timeouts $timeouts"
[ "$trims" -gt 0 ] && [ "$trims" -eq "$nacks" ] || fail "trims $trims != NACKs $nacks"
[ "$other" -eq 0 ] && [ "$other_trims" -eq 0 ] || fail "drops or trims at other ports"
[ "$paused" -eq 0 ] || fail "paused_ps $paused without PFC"
limit=$((256 * 1024))
[ "$peak" -gt 0 ] && [ "$peak" -le $((limit + limit / 2)) ] || fail "peak $peak beyond 1.5 x $limit"
[ "$mean" -gt 0 ] && [ "$mean" -lt "$peak" ] || fail "mean $mean not within (0, peak)"
rows=$(tail -n +2 "$out/switch-occupancy.csv" | wc -l)
last=$(tail -n 1 "$out/switch-occupancy.csv" | cut -d, -f1)
[ "$rows" -eq $((last / 1000000 + 1)) ] || fail "$rows samples up to $last ps, not one per us"
maxocc=$(tail -n +2 "$out/switch-occupancy.csv" | awk -F, '$6 > m { m = $6 } END { print m + 0 }')
echo "occupancy: $rows samples, largest TC0 $maxocc bytes"
[ "$maxocc" -gt 0 ] && [ "$maxocc" -le "$peak" ] || fail "a sample of $maxocc bytes beyond the peak $peak"
echo "ok: switch stats"
