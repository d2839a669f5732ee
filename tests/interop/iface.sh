#!/usr/bin/env bash
# scripts/uet-conform --iface DEV: the DUT behind an interface, not a
# command. The test makes a veth pair: one end is given as --iface DEV,
# the other sits in a namespace the test makes, where our own uet-nic
# plays the DUT (started with the run's clock, OUT/start-at). Every case
# passes, exit 0, as with --external; DEV is back in our namespace at the
# end. With FAULTS=1 (a build configured with -Dnic_faults=true), the
# same DUT with the no-sack fault fails exactly sack-bitmap, exit 1: the
# verdicts through a port are those through a command. Each run bounded
# by --wall-limit and timeout; the pair and namespace removed on exit.
# usage: iface.sh SOURCE_ROOT BUILD_DIR [FAULTS]
set -euo pipefail
src=$1 build=$2 faults=${3:-0}
ip netns list >/dev/null 2>&1 || { echo "SKIP: no network namespaces here (need root)"; exit 77; }
command -v tshark >/dev/null || { echo "SKIP: no tshark"; exit 77; }
ip link add ucfprobe$$ type bridge 2>/dev/null || { echo "SKIP: no bridge devices here"; exit 77; }
ip link del ucfprobe$$
dir=$(mktemp -d /tmp/uet-conform-iface.XXXXXX)
ns=ucfdut$$ dev=ucfa$$ peer=ucfb$$
dut_pid=''
cleanup() {
	[ -z "$dut_pid" ] || kill -TERM "$dut_pid" 2>/dev/null || true
	[ -z "$dut_pid" ] || wait "$dut_pid" 2>/dev/null || true
	ip netns del "$ns" 2>/dev/null || true
	ip link del "$dev" 2>/dev/null || true
	rm -rf "$dir"
}
trap cleanup EXIT
conform=$src/scripts/uet-conform
fail() { echo "FAIL: $*"; exit 1; }

rc=0; "$conform" --iface no-such-dev0 >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "--iface of a missing interface exited $rc, want 2"
rc=0; "$conform" --iface lo --external true >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "--iface with --external exited $rc, want 2"

ip netns add "$ns"
ip link add "$dev" type veth peer name "$peer"
ip link set "$peer" netns "$ns"
ip -n "$ns" link set "$peer" mtu 9000 up
ip link set "$dev" mtu 9000

stop_dut() {
	[ -z "$dut_pid" ] || kill -TERM "$dut_pid" 2>/dev/null || true
	[ -z "$dut_pid" ] || wait "$dut_pid" 2>/dev/null || true
	dut_pid=''
}

# run NAME FAULT WANT_RC: uet-conform --iface with our uet-nic (with
# UET_NIC_FAULT=FAULT when not empty) as the DUT on the peer end, one
# uet-nic for each battery (the main one in OUT, the cadence one in
# OUT/cadence): started on that battery's clock (its start-at, written
# when its link is up, 5 s before its start) with the DUT's scenario
# uet-conform wrote beside it, the previous battery's stopped first.
run() {
	local name=$1 fault=$2 want=$3 out=$dir/$1 conf_pid bat start='' rc=0
	mkdir -p "$out"
	# At the pace this loaded 2-CPU host keeps, not the default realtime.
	timeout 300 "$conform" --build "$build" --out "$out" --junit "$out.xml" \
		--dilation 1000 --rate 400Gbps --iface "$dev" >"$out.log" 2>&1 &
	conf_pid=$!
	for bat in "$out" "$out/cadence"; do
		for _ in $(seq 600); do
			[ -s "$bat/start-at" ] && break
			kill -0 "$conf_pid" 2>/dev/null || break
			sleep 0.1
		done
		[ -s "$bat/start-at" ] || { wait "$conf_pid" || true; cat "$out.log"; fail "$name: no $bat/start-at"; }
		start=$(cat "$bat/start-at")
		stop_dut
		ip netns exec "$ns" env ${fault:+UET_NIC_FAULT=$fault} timeout 200 \
			"$build/app/uet-nic/uet-nic" --nic 2 \
			--port "net_af_packet2,iface=$peer,framesz=8192,blocksz=8192,framecnt=4096,qpairs=1" \
			--out "$bat/dut" --start-at "$start" --linger-ms 60000 "$bat/dut.yaml" \
			>"$bat/dut.log" 2>&1 &
		dut_pid=$!
	done
	wait "$conf_pid" || rc=$?
	stop_dut
	cat "$out.log"
	[ "$rc" -eq "$want" ] || { cat "$out/dut.log" "$out/cadence/dut.log"; fail "$name: exit $rc, want $want"; }
	ip link show "$dev" >/dev/null 2>&1 || fail "$name: $dev is not back in our namespace"
}

run ok '' 0
n=$(python3 "$conform" --list | wc -l)
grep -q "^uet-conform: $n of $n cases passed; " "$dir/ok.log" || fail "not every case passed"
grep -q "tests=\"$n\" failures=\"0\"" "$dir/ok.xml" || fail "JUnit: failures reported"
echo "ok: the correct DUT behind --iface passes all $n cases"

[ "$faults" = 1 ] || exit 0
run no-sack no-sack 1
failed=$(awk '$1 == "FAIL" { print $2 }' "$dir/no-sack.log" | tr '\n' ' ')
[ "$failed" = "sack-bitmap " ] || fail "no-sack behind --iface: cases failed '$failed', want exactly 'sack-bitmap'"
echo "ok: the no-sack DUT behind --iface fails exactly sack-bitmap"
