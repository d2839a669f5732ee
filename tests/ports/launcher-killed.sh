#!/usr/bin/env bash
# uet-launch killed outright (kill -9), over veth (issue 34, item 6):
#  1. once its processes have started: its guard waits for them, merges
#     their records into --out (every message in flows.csv), removes the
#     namespaces and the temporary folder, and says so in
#     --out/logs/uet-launch.log;
#  2. with its guard killed too: the next launch reaps what it left, says
#     so, and the killed launch's finished records land in its --out.
# Before, both left the namespaces TAG-sw, -n0, -n1 with their veth pairs
# and /tmp/uet-launch.PID.* holding the finished run's records, while
# --out had only logs/.
# usage: launcher-killed.sh SOURCE_ROOT BUILD_DIR SCENARIO MESSAGES
set -euo pipefail
src=$1 build=$2 scenario=$3 messages=$4
[ "$(id -u)" -eq 0 ] || { echo "SKIP: veth needs root"; exit 77; }
dir=$(mktemp -d /tmp/uet-launcher-killed.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
launch=$src/scripts/uet-launch

# start OUT: a launch in the background, $lp its pid, once its processes
# and its guard have started.
start() {
	"$launch" "$scenario" --ports veth --build "$build" --out "$1" >"$1.log" 2>&1 &
	lp=$!
	for _ in $(seq 300); do
		grep -q '^uet-launch: uet-nic --nic' "$1.log" &&
			compgen -G "/tmp/uet-launch.$lp.*/guard" >/dev/null && return 0
		kill -0 "$lp" 2>/dev/null || break
		sleep 0.1
	done
	cat "$1.log"; fail "the launch did not start its processes"
}
# left PID: what launch PID leaves (namespaces, temporary folders).
left() {
	ip netns list | awk -v t="uet$1-" 'index($1, t) == 1 {print $1}'
	compgen -G "/tmp/uet-launch.$1.*" || true
}
whole() { # OUT: every message in flows.csv, merged
	[ -f "$1/flows.csv" ] && [ "$(tail -n +2 "$1/flows.csv" | wc -l)" -eq "$messages" ] ||
		fail "$1/flows.csv does not hold the $messages messages"
}

# 1. The launcher alone.
start "$dir/a"
kill -KILL "$lp"
for _ in $(seq 600); do [ -z "$(left "$lp")" ] && break; sleep 0.1; done
[ -z "$(left "$lp")" ] || fail "launch $lp killed: still there after 60 s: $(left "$lp" | tr '\n' ' ')"
whole "$dir/a"
grep -qx "uet-launch: launcher $lp is gone (killed): its processes' records go to $dir/a once they finish" "$dir/a/logs/uet-launch.log" &&
	grep -qx "uet-launch: records in $dir/a (merged by the guard of launcher $lp)" "$dir/a/logs/uet-launch.log" &&
	grep -qx "uet-launch: namespaces uet$lp-\* removed" "$dir/a/logs/uet-launch.log" ||
	{ cat "$dir/a/logs/uet-launch.log"; fail "the guard's log does not say what it did"; }
echo "ok: launcher $lp killed: records merged into --out, namespaces and /tmp folder gone"

# 2. The launcher and its guard; its processes finish on their own.
start "$dir/b"
guard=$(cat /tmp/uet-launch."$lp".*/guard)
kill -KILL "$lp" "$guard"
# in_ns PID: the processes still running in launch PID's namespaces.
in_ns() {
	local ns
	for ns in $(ip netns list | awk -v t="uet$1-" 'index($1, t) == 1 {print $1}'); do
		ip netns pids "$ns"
	done
}
for _ in $(seq 600); do [ -z "$(in_ns "$lp")" ] && break; sleep 0.1; done
[ -z "$(in_ns "$lp")" ] || fail "launch $lp's processes still run after 60 s"
[ -n "$(left "$lp")" ] || fail "launch $lp and its guard killed: nothing left to reap (the test proves nothing)"
"$launch" "$scenario" --ports veth --build "$build" --out "$dir/c" >"$dir/c.log" 2>&1 ||
	{ cat "$dir/c.log"; fail "the next launch failed"; }
grep -q "^uet-launch: launch $lp was killed: its records merged into $dir/b\$" "$dir/c.log" &&
	grep -q "^uet-launch: launch $lp was killed: removed its temporary folder /tmp/uet-launch\.$lp\." "$dir/c.log" &&
	grep -q "^uet-launch: launch $lp was killed: removed its namespace uet$lp-sw\$" "$dir/c.log" ||
	{ cat "$dir/c.log"; fail "the next launch does not say what it reaped"; }
[ -z "$(left "$lp")" ] || fail "the next launch left launch $lp's $(left "$lp" | tr '\n' ' ')"
whole "$dir/b"
whole "$dir/c"
echo "ok: launcher $lp and its guard killed: the next launch reaped them, records in --out"
