#!/usr/bin/env bash
# scripts/uet-conform against our own uet-nic as the device under test,
# over veth in realtime (namespaces and veth pairs made and removed by
# uet-launch; each run bounded by --wall-limit and timeout).
# The correct DUT, attached with --external as a foreign stack would be:
# every case passes, exit 0, and the JUnit file names every case with no
# failure. Then, with FAULTS=1 (a build configured with -Dnic_faults=true),
# the fault x case diagonal: our uet-nic with each fault of its switch
# (UET_NIC_FAULT) fails exactly the case that checks the rule it breaks,
# exit 1, every other case passing. The usage errors exit 2.
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
PY

# The cadence battery: every sender at AckRequestEveryNthPacket 4, two
# 256 KiB messages at 50 us, the run's end 1 ms later.
python3 - "$src" <<'PY'
import sys
from importlib.machinery import SourceFileLoader
m = SourceFileLoader("uc", sys.argv[1] + "/scripts/uet-conform").load_module()
t = m.cadence_text(1000, "/x")
for want in ("AckRequestEveryNthPacket: 4}",
             "{src: 0, dst: 2, size: 256KiB, at: 50000ns}",
             "{src: 2, dst: 0, size: 256KiB, at: 50000ns}",
             "end: 1000000ns"):
    assert want in t, want
PY

# The correct DUT, attached by command: it plays each battery from the
# DUT's scenario uet-conform writes in the battery's folder.
dut="exec '$build/app/uet-nic/uet-nic' --nic 2 --port \"\$UET_EXT_DEV\" --out \"\$UET_CONFORM_DIR/dut\" --start-at \"\$UET_START_AT\" --linger-ms 60000 \"\$UET_CONFORM_DIR/dut.yaml\""
rc=0
timeout 300 "$conform" --build "$build" --out "$dir/ok" --junit "$dir/ok.xml" \
	--external "$dut" >"$dir/ok.log" 2>&1 || rc=$?
cat "$dir/ok.log"
[ "$rc" -eq 0 ] || fail "the correct DUT: exit $rc, want 0"
grep -q '^uet-conform: 14 of 14 cases passed; ' "$dir/ok.log" || fail "not every case passed"
[ "$(grep -c '<testcase ' "$dir/ok.xml")" -eq 14 ] || fail "JUnit: not 14 test cases"
grep -q 'tests="14" failures="0"' "$dir/ok.xml" || fail "JUnit: failures reported"
# The DUT played the cadence battery at N = 4: its scenario says so.
grep -q 'AckRequestEveryNthPacket: 4' "$dir/ok/cadence/dut.yaml" || fail "the cadence battery's DUT scenario is not at N = 4"
# The timeout-backoff case's loss: the switch lost the DUT's first data
# packet exactly three times, and said so.
grep -qx 'switch.lost_frames,3' "$dir/ok/run/summary.csv" || fail "summary.csv: no switch.lost_frames,3"
echo "ok: the correct DUT passes all 14 cases"

[ "$faults" = 1 ] || exit 0
# The diagonal: fault -> the one case that must fail.
table=""
for pair in no-ack:ack-per-request cumulative:cumulative-ack \
	no-sack:sack-bitmap nack-code:nack-trimmed no-retx-flag:retransmit-flag \
	no-ecn-echo:ecn-echo probe-ignored:probe close-ignored:close \
	pdc-zero:pdc-setup dup-no-ack:duplicates malformed-deaf:malformed \
	no-backoff:timeout-backoff ack-unrequested:ack-cadence-n4; do
	fault=${pair%%:*} want=${pair#*:}
	[ "$fault" = cumulative ] && fault=cack-ahead
	rc=0
	timeout 300 "$conform" --build "$build" --out "$dir/$fault" \
		--fault "$fault" >"$dir/$fault.log" 2>&1 || rc=$?
	failed=$(awk '$1 == "FAIL" { print $2 }' "$dir/$fault.log" | tr '\n' ' ')
	table+="$fault: exit $rc, failed: $failed"$'\n'
	[ "$rc" -eq 1 ] && [ "$failed" = "$want " ] || {
		cat "$dir/$fault.log"; fail "fault $fault: exit $rc, cases failed '$failed', want exactly '$want'"; }
done
printf '%s' "$table"
echo "ok: each of 13 faults fails exactly its case"
