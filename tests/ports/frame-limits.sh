#!/usr/bin/env bash
# The largest frame each kind of port carries (scripts/uet-launch): for
# memif, veth and afxdp, a 1 MiB message with the largest RdmaDataMSS that
# port carries completes, and one byte more is refused before anything
# starts: exit 2, no namespace, no process, a line naming nic.RdmaDataMSS,
# its value, the frame size, the port kind's limit and the largest value
# that fits. Before, every RdmaDataMSS up to 8,894 was launched and a
# frame the port could not carry stopped the run with FRAME_LOSS ("the host
# lost frames"): 8,013 and up over veth, 8,079 over memif, 3,403 over
# afxdp (issue 34, item 4). Launched anyway (UET_LAUNCH_UNCHECKED_FRAMES,
# memif), the run fails and the processes name the frame size that did
# not fit, the port's limit and the largest RdmaDataMSS. veth and afxdp
# need root (namespaces): skipped without it.
# usage: frame-limits.sh SOURCE_ROOT BUILD_DIR
set -euo pipefail
src=$1 build=$2
dir=$(mktemp -d /tmp/uet-frame-limits.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

with_mss() { # MSS -> a scenario of one 1 MiB message at that MSS
	cat >"$dir/mss-$1.yaml" <<YAML
run: {seed: 1, end: 10ms}
topology: {kind: single-switch, hosts: 2}
nic: {RdmaDataMSS: $1}
workload:
  messages:
    - {src: 0, dst: 1, size: 1MiB, at: 0us}
YAML
	echo "$dir/mss-$1.yaml"
}

kinds=(memif)
if [ "$(id -u)" -eq 0 ]; then kinds+=(veth afxdp); else echo "SKIP (veth, afxdp): not root"; fi
for kind in "${kinds[@]}"; do
	case $kind in
	memif) mss=8078 frame=8192 ;;
	veth) mss=8012 frame=8126 ;;
	afxdp) mss=3402 frame=3516 ;;
	esac
	rc=0
	"$src/scripts/uet-launch" "$(with_mss "$mss")" --ports "$kind" \
		--build "$build" --out "$dir/ok-$kind" >"$dir/ok-$kind.log" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || { cat "$dir/ok-$kind.log"; fail "$kind: RdmaDataMSS $mss exited $rc"; }
	[ "$(tail -n +2 "$dir/ok-$kind/flows.csv" | wc -l)" -eq 1 ] ||
		fail "$kind: RdmaDataMSS $mss: the message is not in flows.csv"
	big=$((mss + 1))
	rc=0
	"$src/scripts/uet-launch" "$(with_mss "$big")" --ports "$kind" \
		--build "$build" --out "$dir/big-$kind" >"$dir/big-$kind.log" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || { cat "$dir/big-$kind.log"; fail "$kind: RdmaDataMSS $big exited $rc, want 2"; }
	grep -q "^uet-launch: .*: nic\.RdmaDataMSS = $big makes data frames of $((frame + 1)) bytes, more than --ports $kind carries: $frame bytes (.*); set nic\.RdmaDataMSS to $mss at most over $kind" \
		"$dir/big-$kind.log" || { cat "$dir/big-$kind.log"; fail "$kind: no line naming the key, the value and the limit"; }
	if grep -q '^uet-launch: tag' "$dir/big-$kind.log" || [ -e "$dir/big-$kind" ]; then
		fail "$kind: the refused scenario started something"
	fi
	echo "ok: $kind: RdmaDataMSS $mss completes, $big refused: $(cut -c 1-150 "$dir/big-$kind.log")..."
done

# The processes' own words, past the launcher's check (memif).
rc=0
UET_LAUNCH_UNCHECKED_FRAMES=1 "$src/scripts/uet-launch" "$(with_mss 8894)" \
	--ports memif --build "$build" --out "$dir/unchecked" --timeout-ms 2000 \
	>"$dir/unchecked.log" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$dir/unchecked.log"; fail "memif, RdmaDataMSS 8894 unchecked: exit $rc, want 1"; }
grep -q '^uet-switch: port net_memif0 carries frames of 8192 bytes at most (bsize=8192); the scenario.s data frames are 9008 (nic.RdmaDataMSS = 8894, and 114 bytes of headers and lockstep trailer): they were lost on the link. Set nic.RdmaDataMSS to 8078 at most' \
	"$dir/unchecked/logs/uet-switch.log" ||
	{ cat "$dir/unchecked.log"; fail "uet-switch does not name the frame size that did not fit"; }
echo "ok: memif, RdmaDataMSS 8894 launched anyway: $(grep -h '^uet-switch: port net_memif0 carries' "$dir/unchecked/logs/uet-switch.log" | cut -c 1-140)..."
