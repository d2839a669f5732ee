#!/usr/bin/env bash
# The closing summary's words say what happened. A run that ends (run.end)
# with a 1 MiB message part sent and another not yet posted, every byte
# delivered intact: exit 1, no "INTEGRITY FAILURE" (packets in flight are
# not one), "posted, not all sent" and "not posted before the run ended"
# for the two. Before, it printed "<- INTEGRITY FAILURE" and "not sent".
# usage: summary-words.sh UET-EMU
set -euo pipefail
emu=$1
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir summary-words

cat >"$dir/s.yaml" <<'YAML'
run:
  end: 3us
topology:
  kind: single-switch
  hosts: 2
workload:
  messages:
    - {src: 0, dst: 1, size: 1MiB, at: 0us}
    - {src: 1, dst: 0, size: 1, at: 0us}
    - {src: 0, dst: 1, size: 4096, at: 1ms}
YAML
rc=0
"$emu" --out "$dir/out" "$dir/s.yaml" 2>"$dir/log" || rc=$?
cat "$dir/log"
[ "$rc" -eq 1 ] || fail "uet-emu exited $rc, want 1 (messages not completed)"
grep -q 'payload mismatches 0, in-flight anomalies 0' "$dir/log" ||
	fail "no integrity line"
if grep -q 'INTEGRITY FAILURE\|ACCOUNTING ERROR' "$dir/log"; then
	fail "an unfinished but intact run is marked as a failure"
fi
grep -q '^uet-emu: message 0 (host 0 -> 1, 1048576 bytes, at 0ps): posted, not all sent$' \
	"$dir/log" || fail "message 0 not said to be part sent"
grep -q '^uet-emu: message 2 (host 0 -> 1, 4096 bytes, at 1ms): not posted before the run ended$' \
	"$dir/log" || fail "message 2 not said to be unposted"
echo "ok: the summary says what happened"
