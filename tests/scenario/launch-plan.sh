#!/usr/bin/env bash
# uet-emu --print-launch-plan gives scripts/uet-launch what it needs, as
# the C code derives it, one key=value a line:
#  - examples/incast-8.yaml (lockstep, 400 Gbps, lookahead 500 ns): 25,000
#    bytes a window, so 390 frames of 64 bytes + 2 = 392 and 5 full frames
#    (4,096 + 106 + the 12-byte trailer = 4,214 bytes) + 2 = 7; the
#    largest window's frames as --print-config's sizing line gives them;
#    its data frames as a port carries them, 4,096 + 102 bytes of headers
#    (no FCS) + the 12-byte trailer = 4,210;
#  - --out with a space and an '=' in it, whole;
#  - realtime, switch.external_hosts 198.18.0.2,198.18.0.4 of 5 hosts:
#    hosts 1 and 3, no lockstep windows, no trailer (4,198 bytes);
#  - a generator: workload.generate runs embedded only.
# usage: launch-plan.sh UET-EMU EXAMPLES
set -euo pipefail
emu=$1 examples=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir launch-plan

# plan_is SCENARIO EXPECTED [ARGS...]: the plan, line for line.
plan_is() {
	local scenario=$1 want=$2 got
	shift 2
	got=$("$emu" --print-launch-plan "$@" "$scenario") ||
		fail "--print-launch-plan $scenario exited non-zero"
	[ "$got" = "$want" ] || {
		diff <(echo "$want") <(echo "$got") || true
		fail "the plan of $scenario (above: - wanted, + got)"
	}
}

frames=$("$emu" --print-config "$examples/incast-8.yaml" |
	sed -n 's/^# sizing.* x \([0-9]*\) frames.*/\1/p')
[ -n "$frames" ] || fail "no sizing line in --print-config"
plan_is "$examples/incast-8.yaml" "hosts=8
clock=lockstep
out=out/incast-8/
external_hosts=
embedded_only=
window_min_frames=392
window_full_frames=7
window_frames=$frames
mss_bytes=4096
mss_max_bytes=8894
data_frame_bytes=4210"
echo "ok: incast-8: 392 small and 7 full frames a window, $frames at most"

plan_is "$examples/incast-8.yaml" "hosts=8
clock=lockstep
out=$dir/a b=c
external_hosts=
embedded_only=
window_min_frames=392
window_full_frames=7
window_frames=$frames
mss_bytes=4096
mss_max_bytes=8894
data_frame_bytes=4210" --out "$dir/a b=c"
echo "ok: --out with a space and an '=' whole"

cat >"$dir/ext.yaml" <<'YAML'
run: {clock: realtime, end: 1ms}
topology: {kind: single-switch, hosts: 5}
switch: {external_hosts: "198.18.0.2,198.18.0.4"}
workload:
  messages:
    - {src: 0, dst: 1, size: 4KiB}
YAML
got=$("$emu" --print-launch-plan "$dir/ext.yaml")
grep -qx 'clock=realtime' <<<"$got" || fail "not realtime: $got"
grep -qx 'external_hosts=1 3' <<<"$got" || fail "external hosts: $got"
if ! grep -qx 'window_min_frames=0' <<<"$got" ||
	! grep -qx 'window_full_frames=0' <<<"$got"; then
	fail "lockstep windows in a realtime plan: $got"
fi
grep -qx 'data_frame_bytes=4198' <<<"$got" || fail "a trailer in realtime: $got"
echo "ok: realtime: external hosts 1 and 3, no lockstep windows, no trailer"

got=$("$emu" --print-launch-plan "$examples/generate-incast.yaml")
grep -qx 'embedded_only=' <<<"$got" ||
	fail "the generator in lockstep is embedded only: $got"
sed 's/^run: {/run: {clock: realtime, /' "$examples/generate-incast.yaml" \
	>"$dir/gen-rt.yaml"
got=$("$emu" --print-launch-plan "$dir/gen-rt.yaml")
grep -qx 'embedded_only=workload.generate' <<<"$got" ||
	fail "the generator in realtime is not embedded only: $got"
echo "ok: the generator runs over ports in lockstep, embedded only in realtime"
