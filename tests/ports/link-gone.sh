#!/usr/bin/env bash
# A veth set down, then one deleted, while uet-launch runs over veth
# (issue 34, item 6): the run stops (exit 1) and uet-switch names the
# port whose link went away and its interface ("port net_af_packet3: the
# link of its interface s3 is down", "... its interface s3 is gone"), as
# does the uet-nic on the other end. Before, the only words were "nic 3
# ... sent no DONE for N ms", which sent the user to the NIC process.
# usage: link-gone.sh SOURCE_ROOT BUILD_DIR
set -euo pipefail
src=$1 build=$2
[ "$(id -u)" -eq 0 ] || { echo "SKIP: veth needs root"; exit 77; }
dir=$(mktemp -d /tmp/uet-link-gone.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# Four hosts in a ring of 64 MiB messages: seconds of wall time over veth.
cat >"$dir/ring.yaml" <<'YAML'
run: {seed: 1, end: 100ms}
topology: {kind: single-switch, hosts: 4}
records: {EnablePcap: false}
workload:
  messages:
    - {src: 0, dst: 1, size: 64MiB, at: 0us}
    - {src: 1, dst: 2, size: 64MiB, at: 0us}
    - {src: 2, dst: 3, size: 64MiB, at: 0us}
    - {src: 3, dst: 0, size: 64MiB, at: 0us}
YAML
for act in down del; do
	out=$dir/$act
	"$src/scripts/uet-launch" "$dir/ring.yaml" --ports veth --build "$build" \
		--out "$out" --timeout-ms 2000 --startup-ms 5000 >"$out.log" 2>&1 &
	lp=$!
	# A second after the processes have started (the launcher writes
	# their pids for its guard then): the run is under way.
	for _ in $(seq 300); do
		[ -n "$(compgen -G "/tmp/uet-launch.$lp.*/pids")" ] && sleep 1 && break
		kill -0 "$lp" 2>/dev/null || break
		sleep 0.1
	done
	if [ "$act" = down ]; then
		ip netns exec "uet$lp-sw" ip link set s3 down
		want="port net_af_packet3: the link of its interface s3 is down"
	else
		ip netns exec "uet$lp-sw" ip link del s3
		want="port net_af_packet3: its interface s3 is gone"
	fi
	rc=0
	wait "$lp" || rc=$?
	[ "$rc" -eq 1 ] || { cat "$out.log"; fail "$act: uet-launch exited $rc, want 1"; }
	grep -q "^uet-switch: $want" "$out/logs/uet-switch.log" ||
		{ cat "$out.log"; fail "$act: uet-switch does not say: $want"; }
	grep -q "^uet-nic: port net_af_packet3: .*its interface n3 is" "$out/logs/uet-nic-"*.log ||
		{ cat "$out.log"; fail "$act: no uet-nic names n3"; }
	echo "ok: s3 $act: $(grep -h "^uet-switch: $want" "$out/logs/uet-switch.log" | cut -c 1-120)"
done
