#!/usr/bin/env bash
# uet-plot draws every picture from small runs: a 3-to-1 incast with every
# record it reads (tests/plot/incast-4.yaml) gives the completion-time CDF,
# per-flow goodput, the queue of the port to host 0, the NSCC windows and
# the incast figure; the leaf-spine permutation run oblivious and single
# path gives the permutation figure (two series), a CDF of two curves, and
# without uet-monitor.csv the goodput per receiving NIC from
# uet-transport-stats.csv; both give the switch ports (switch-stats.csv).
# Each file must be a PNG (signature), of a real size, with content: not
# blank, several colours (tests/plot/check_png.py). A picture whose
# records are missing is skipped and named.
# usage: plot.sh SOURCE_ROOT BUILD_DIR
set -euo pipefail
src=$1 build=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir plot
emu=$build/app/uet-emu/uet-emu
plot=$src/scripts/uet-plot
check=$src/tests/plot/check_png.py

run_emu "$emu" "$dir/incast" "$src/tests/plot/incast-4.yaml" "$dir/incast.log"
"$plot" "$dir/incast" >"$dir/plot.log" || { cat "$dir/plot.log"; fail "uet-plot on the incast"; }
cat "$dir/plot.log"
for p in fct-cdf goodput switch-ports queues cc-window incast; do
	grep -q "^uet-plot: wrote $dir/incast/plots/$p.png$" "$dir/plot.log" || fail "$p.png not written"
done
grep -q "^uet-plot: skipped permutation.png: not a permutation" "$dir/plot.log" ||
	fail "an incast drawn as a permutation"

for m in oblivious single-path; do
	run_emu "$emu" "$dir/$m" "$src/examples/leaf-spine-perm-$m.yaml" "$dir/$m.log"
done
"$plot" --to "$dir/perm" "$dir/oblivious" "$dir/single-path" >"$dir/perm.log" ||
	{ cat "$dir/perm.log"; fail "uet-plot on the permutation"; }
cat "$dir/perm.log"
for p in fct-cdf goodput switch-ports permutation; do
	grep -q "^uet-plot: wrote $dir/perm/$p.png$" "$dir/perm.log" || fail "$p.png not written"
done
[ ! -f "$dir/oblivious/uet-monitor.csv" ] ||
	fail "the permutation has uet-monitor.csv: goodput is not drawn without it"

/usr/bin/python3 "$check" "$dir"/incast/plots/*.png "$dir"/perm/*.png || fail "a picture is not right"
n=$(ls "$dir"/incast/plots/*.png "$dir"/perm/*.png | wc -l)
[ "$n" -eq 10 ] || fail "$n pictures, want 10"
echo "ok: $n pictures drawn and checked"
