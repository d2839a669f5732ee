#!/usr/bin/env bash
# EAL makes a runtime folder per file prefix (/var/run/dpdk/<prefix> as
# root, else under $XDG_RUNTIME_DIR or /tmp) and never removes it; with
# --no-shconf nothing is ever put in it. A run must not leave it behind
# (every run and every forked unit test used to leave one), neither with
# the default EAL arguments nor with the user's.
# usage: runtime-dir.sh UET-EMU EXAMPLES_DIR
set -euo pipefail
emu=$1 examples=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir runtime-dir

if [ "$(id -u)" = 0 ]; then
	base=/var/run/dpdk
else
	base=${XDG_RUNTIME_DIR:-/tmp}/dpdk
fi

# 1. The default EAL arguments: the prefix is uet-emu-<pid>.
"$emu" --out "$dir/default" "$examples/quickstart.yaml" \
	>"$dir/default.log" 2>&1 &
pid=$!
wait "$pid" || fail "uet-emu on the quickstart failed: $(tail -3 "$dir/default.log")"
[ ! -e "$base/uet-emu-$pid" ] || fail "$base/uet-emu-$pid left behind"

# 2. The user's EAL arguments, a prefix of the test's own.
prefix="uet-rtdir-test-$$"
"$emu" --no-huge -m 512 --no-pci --no-shconf --file-prefix="$prefix" \
	--log-level='*:warning' -- --out "$dir/user" \
	"$examples/quickstart.yaml" >"$dir/user.log" 2>&1 ||
	fail "uet-emu with EAL arguments failed: $(tail -3 "$dir/user.log")"
[ ! -e "$base/$prefix" ] || fail "$base/$prefix left behind"
echo "runtime-dir: no runtime folder left by either run"
