#!/usr/bin/env bash
# meson install into a DESTDIR puts every program, the scripts that run
# them over ports, the Wireshark plugin, the examples and the docs where
# the build's options say; every installed program answers --version (the
# project's) and --help; the installed uet-emu runs an installed example,
# and the installed uet-launch runs it over memif with the installed
# uet-switch and uet-nic (no build folder named).
# usage: install-destdir.sh BUILD_DIR VERSION BINDIR DATADIR LUADIR
set -euo pipefail
build=$1 version=$2 bindir=$3 datadir=$4 luadir=$5
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir install
d=$dir/root

meson install -C "$build" --destdir "$d" --no-rebuild --quiet >"$dir/install.log" 2>&1 || {
	cat "$dir/install.log"; fail "meson install"; }

programs=(uet-emu uet-switch uet-nic uet-frames uet-launch uet-merge-records
	uet-netns uet-plot)
for p in "${programs[@]}"; do
	b=$d$bindir/$p
	[ -x "$b" ] || fail "$p not installed in $bindir"
	v=$("$b" --version) || fail "$p --version exited $?"
	[ "$v" = "$p $version" ] || fail "$p --version says '$v', want '$p $version'"
	"$b" --help >"$dir/help" 2>&1 || fail "$p --help exited non-zero"
	grep -q "$p" "$dir/help" || fail "$p --help does not name it"
done
[ -f "$d$luadir/uet.lua" ] || fail "uet.lua not in $luadir"
for f in examples/quickstart.yaml examples/datapath-8.yaml \
	examples/matrix-triggers.cm doc/uetemu/README.md \
	doc/uetemu/docs/records.md doc/uetemu/docs/wireshark.md; do
	case $f in examples/*) f=uetemu/$f ;; esac
	[ -f "$d$datadir/$f" ] || fail "$datadir/$f not installed"
done
echo "installed: ${#programs[@]} programs, uet.lua in $luadir, examples and docs in $datadir"

ex=$d$datadir/uetemu/examples/datapath-8.yaml
run_emu "$d$bindir/uet-emu" "$dir/emu" "$ex" "$dir/emu.log"
[ "$(summary "$dir/emu" messages)" -gt 0 ] || fail "no messages"
summary_intact "$dir/emu" "$(summary "$dir/emu" psns_taken)"
echo "installed uet-emu: $(summary "$dir/emu" completed) of $(summary "$dir/emu" messages) messages on the installed datapath-8.yaml"

timeout 120 "$d$bindir/uet-launch" "$ex" --ports memif --out "$dir/ports" \
	--wall-limit 100 >"$dir/launch.log" 2>&1 || {
	cat "$dir/launch.log"; fail "installed uet-launch"; }
grep -q "uet-switch pid" "$dir/launch.log" || fail "no uet-switch launched"
cmp "$dir/emu/flows.csv" "$dir/ports/flows.csv" ||
	fail "flows.csv of the installed programs over memif differs from uet-emu's"
echo "ok: installed uet-launch over memif matches the installed uet-emu"
