#!/usr/bin/env bash
# scripts/uet-conform against our own uet-nic as the device under test,
# over veth in realtime (namespaces and veth pairs made and removed by
# uet-launch; each run bounded by --wall-limit and timeout).
# The correct DUT, attached with --external as a foreign stack would be:
# every case passes, exit 0, and the JUnit file names every case with no
# failure. Then, with FAULTS=1 (a build configured with -Dnic_faults=true),
# the fault x case diagonal: our uet-nic with each fault of its switch
# (UET_NIC_FAULT) fails exactly the case that checks the rule it breaks,
# exit 1, every other case passing. The usage errors exit 2. A DUT that
# never answers, judged with a tolerance of 1 ns (our side ran later):
# inconclusive, exit 3, a JUnit error. Every run at a dilation of 1000
# and 400 Gbps, the pace this host keeps (the default is realtime).
# usage: conform.sh SOURCE_ROOT BUILD_DIR [FAULTS]
set -euo pipefail
src=$1 build=$2 faults=${3:-0}
ip netns list >/dev/null 2>&1 || { echo "SKIP: no network namespaces here (need root)"; exit 77; }
command -v tshark >/dev/null || { echo "SKIP: no tshark"; exit 77; }
dir=$(mktemp -d /tmp/uet-conform-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
conform=$src/scripts/uet-conform
fail() { echo "FAIL: $*"; exit 1; }

# Usage: the list, an unknown case, both DUT kinds at once.
n=$("$conform" --list | wc -l)
[ "$n" -eq 14 ] || fail "--list names $n cases, want 14"
rc=0; "$conform" --case no-such-case >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "an unknown --case exited $rc, want 2"
rc=0; "$conform" --external true --fault no-sack >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "--external with --fault exited $rc, want 2"
rc=0; "$conform" --rate 3 >"$dir/rate.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "--rate 3 exited $rc, want 2"
grep -q -- '--rate 3: want a link rate from 10Mbps to 400Gbps' "$dir/rate.log" || fail "--rate 3: no message naming the rule"
# --rate stretches the battery's times: at 1 Gbps, 400 times those at
# 400 Gbps (the lost packet's message at 50 us becomes 20 ms).
python3 - "$src" <<'PY'
import sys
from importlib.machinery import SourceFileLoader
m = SourceFileLoader("uc", sys.argv[1] + "/scripts/uet-conform").load_module()
t = m.scenario_text(1, "/x", rate_mbps=1000)
for want in ("link_rate: 1000Mbps, link_delay: 200000ns",
             "InitialRetransmitTimeout: 8000000ns",
             "{src: 2, dst: 1, size: 0, at: 20000000ns}",
             "end: 1600000000ns"):
    assert want in t, want
# The default pace is realtime at 1 Gbps; a failure there is
# inconclusive once our side ran two retransmission timeouts late (8 ms
# at 1 Gbps), five for timeout-backoff, fifty for delivery.
a = m.parse_args([])
assert (a["dilation"], a["rate"]) == (1, 1000), (a["dilation"], a["rate"])
assert [m.tolerance_ns(a, c) for c in ("sack-bitmap", "timeout-backoff",
                                       "delivery")] == \
    [16000000, 40000000, 400000000]
a = m.parse_args(["--dilation", "1000", "--rate", "400Gbps"])
assert m.tolerance_ns(a, "ack-per-request") == 40000
a = m.parse_args(["--tolerance", "3us"])
assert m.tolerance_ns(a, "delivery") == 3000
PY
rc=0; "$conform" --tolerance 3 >"$dir/tol.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "--tolerance 3 exited $rc, want 2"
grep -q -- '--tolerance 3: want a virtual duration with its unit' "$dir/tol.log" || fail "--tolerance 3: no message naming the rule"

# The cadence battery: every sender at AckRequestEveryNthPacket 4, two
# 256 KiB messages at 50 us, then hosts 0, 1 and 3 each send the DUT
# 256 KiB at 300 us over a leaf-spine of one spine (hosts 0 and 1 share
# leaf 0's uplink: trims on the way), the run's end 1 ms after its start.
# nack-trimmed is judged there, ack-cadence-n4 too, nothing else.
python3 - "$src" <<'PY'
import sys
from importlib.machinery import SourceFileLoader
m = SourceFileLoader("uc", sys.argv[1] + "/scripts/uet-conform").load_module()
t = m.cadence_text(1000, "/x")
for want in ("AckRequestEveryNthPacket: 4}",
             "topology: {kind: leaf-spine, leaves: 2, spines: 1, "
             "hosts_per_leaf: 2, link_rate: 400000Mbps, link_delay: 500ns}",
             "{src: 0, dst: 2, size: 256KiB, at: 50000ns}",
             "{src: 2, dst: 0, size: 256KiB, at: 50000ns}",
             "{src: 0, dst: 2, size: 256KiB, at: 300000ns}",
             "{src: 1, dst: 2, size: 256KiB, at: 300000ns}",
             "{src: 3, dst: 2, size: 256KiB, at: 300000ns}",
             "end: 1000000ns"):
    assert want in t, want
assert t.count("{src: ") == 5, t
assert m.CADENCE_CASES == ("ack-cadence-n4", "nack-trimmed"), m.CADENCE_CASES
PY

# Every run below at the pace this loaded 2-CPU host keeps (not the
# default realtime): a dilation of 1000 at 400 Gbps.
pace=(--dilation 1000 --rate 400Gbps)

# A DUT that never answers, judged with a tolerance of 1 ns: our side
# always runs later than that, so the delivery case's failure is not
# blamed on the DUT: INCONCLUSIVE naming the lateness, exit 3, and a
# JUnit error, not a failure.
rc=0
timeout 300 "$conform" --build "$build" --out "$dir/silent" "${pace[@]}" \
	--case delivery --tolerance 1ns --junit "$dir/silent.xml" \
	--external 'exec sleep 600' >"$dir/silent.log" 2>&1 || rc=$?
cat "$dir/silent.log"
[ "$rc" -eq 3 ] || fail "a silent DUT at --tolerance 1ns: exit $rc, want 3"
grep -Eq '^INCONCLUSIVE delivery ' "$dir/silent.log" || fail "no INCONCLUSIVE delivery line"
grep -Eq '^       inconclusive: the emulator ran [0-9.]+ (ns|us|ms|s) late \((switch|198\.18\.0\.[0-9]+); this case tolerates 1 ns\)' "$dir/silent.log" || fail "the inconclusive verdict does not name the lateness"
grep -q 'not acknowledged' "$dir/silent.log" || fail "the inconclusive verdict hides its evidence"
grep -q '^uet-conform: 0 of 1 cases passed (inconclusive: delivery); ' "$dir/silent.log" || fail "the summary does not say inconclusive"
grep -q 'tests="1" failures="0" errors="1"' "$dir/silent.xml" || fail "JUnit: the inconclusive case is not one error"
grep -q '<error message="inconclusive: the emulator ran ' "$dir/silent.xml" || fail "JUnit: no <error> naming the lateness"

# The correct DUT, attached by command: it plays each battery from the
# DUT's scenario uet-conform writes in the battery's folder.
dut="exec '$build/app/uet-nic/uet-nic' --nic 2 --port \"\$UET_EXT_DEV\" --out \"\$UET_CONFORM_DIR/dut\" --start-at \"\$UET_START_AT\" --linger-ms 60000 \"\$UET_CONFORM_DIR/dut.yaml\""
rc=0
timeout 300 "$conform" --build "$build" --out "$dir/ok" --junit "$dir/ok.xml" \
	"${pace[@]}" --external "$dut" >"$dir/ok.log" 2>&1 || rc=$?
cat "$dir/ok.log"
[ "$rc" -eq 0 ] || fail "the correct DUT: exit $rc, want 0"
grep -q '^uet-conform: 14 of 14 cases passed; ' "$dir/ok.log" || fail "not every case passed"
[ "$(grep -c '<testcase ' "$dir/ok.xml")" -eq 14 ] || fail "JUnit: not 14 test cases"
grep -q 'tests="14" failures="0" errors="0"' "$dir/ok.xml" || fail "JUnit: failures reported"
# The DUT played the cadence battery at N = 4: its scenario says so.
grep -q 'AckRequestEveryNthPacket: 4' "$dir/ok/cadence/dut.yaml" || fail "the cadence battery's DUT scenario is not at N = 4"
# The timeout-backoff case's loss: the switch lost the DUT's first data
# packet exactly three times, and said so.
grep -qx 'switch.lost_frames,3' "$dir/ok/run/summary.csv" || fail "summary.csv: no switch.lost_frames,3"
# nack-trimmed judged packets trimmed on the way (DSCP 9, NACK 0x01) and
# on the last hop (DSCP 10, 0x02), and names frames of each kind.
grep -Eq '^ok   nack-trimmed .*: [0-9]+ checked \([1-9][0-9]* trimmed on the way, DSCP 9, want NACK 0x01 \(frames [0-9]+, .*\); [1-9][0-9]* on the last hop, DSCP 10, want 0x02 \(frames [0-9]+, ' "$dir/ok.log" || fail "nack-trimmed did not judge both kinds of trim"
# On that capture, without the packets of one kind (and their NACKs) the
# case fails, naming the kind: nothing to judge is not a pass.
python3 - "$src" "$dir/ok/cadence/capture.pcapng" <<'PY'
import sys
from importlib.machinery import SourceFileLoader
m = SourceFileLoader("uc", sys.argv[1] + "/scripts/uet-conform").load_module()
frames = m.read_capture(sys.argv[2])
def judge(keep):
    v = m.Verdict()
    m.case_nack_trimmed(m.Link([f for f in frames if keep(f)]), v)
    return v
v = judge(lambda f: True)
assert v.failures == [] and v.checked > 0, v.failures
def of_kind(dscp):
    return lambda f: not (f.ok and f.dscp == dscp)
v = judge(of_kind(m.DSCP_TRIMMED))
assert v.failures == ["no packet to the DUT trimmed on the way (DSCP 9, "
                      "NACK 0x01) in the capture: that code is not "
                      "judged, and a DUT that never sends it would pass"], \
    v.failures
v = judge(of_kind(m.DSCP_TRIMMED_LASTHOP))
assert v.failures == ["no packet to the DUT trimmed on the last hop (DSCP "
                      "10, NACK 0x02) in the capture: that code is not "
                      "judged, and a DUT that never sends it would pass"], \
    v.failures
PY
echo "ok: the correct DUT passes all 14 cases"

[ "$faults" = 1 ] || exit 0
# The diagonal: fault -> the one case that must fail.
table=""
for pair in no-ack:ack-per-request cumulative:cumulative-ack \
	no-sack:sack-bitmap nack-code:nack-trimmed no-retx-flag:retransmit-flag \
	no-ecn-echo:ecn-echo probe-ignored:probe close-ignored:close \
	pdc-zero:pdc-setup dup-no-ack:duplicates malformed-deaf:malformed \
	no-backoff:timeout-backoff ack-unrequested:ack-cadence-n4 \
	nack-lasthop:nack-trimmed; do
	fault=${pair%%:*} want=${pair#*:}
	[ "$fault" = cumulative ] && fault=cack-ahead
	rc=0
	timeout 300 "$conform" --build "$build" --out "$dir/$fault" "${pace[@]}" \
		--fault "$fault" >"$dir/$fault.log" 2>&1 || rc=$?
	failed=$(awk '$1 == "FAIL" { print $2 }' "$dir/$fault.log" | tr '\n' ' ')
	table+="$fault: exit $rc, failed: $failed"$'\n'
	[ "$rc" -eq 1 ] && [ "$failed" = "$want " ] || {
		cat "$dir/$fault.log"; fail "fault $fault: exit $rc, cases failed '$failed', want exactly '$want'"; }
done
printf '%s' "$table"
echo "ok: each of 14 faults fails exactly its case"
