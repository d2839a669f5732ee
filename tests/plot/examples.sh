#!/usr/bin/env bash
# Every example draws its pictures: uet-plot on the run of each example
# (examples/ and examples/workloads/) as it is, from the records a run
# writes by default, draws at least three (the completion-time CDF,
# goodput, the switch ports) and the figure of its pattern (incast.png for
# an incast, permutation.png for a permutation: examples named so), each
# a real picture (check_png.py). Prints each example's count.
# usage: examples.sh SOURCE_ROOT BUILD_DIR
set -euo pipefail
src=$1 build=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir plot-examples
emu=$build/app/uet-emu/uet-emu
plot=$src/scripts/uet-plot
check=$src/tests/plot/check_png.py

n=0
while IFS= read -r y; do
	name=$(basename "$y" .yaml)
	# Examples name their traces and matrices relative to themselves.
	(cd "$(dirname "$y")" && "$emu" --out "$dir/$name" "$(basename "$y")") \
		>"$dir/$name.log" 2>&1 || { cat "$dir/$name.log"; fail "$name: uet-emu failed"; }
	"$plot" "$dir/$name" >"$dir/$name.plot" 2>&1 ||
		{ cat "$dir/$name.plot"; fail "$name: uet-plot drew nothing"; }
	drawn=$(grep -c '^uet-plot: wrote ' "$dir/$name.plot" || true)
	[ "$drawn" -ge 3 ] || { cat "$dir/$name.plot"; fail "$name: $drawn pictures, want 3 or more"; }
	for p in fct-cdf goodput switch-ports; do
		[ -f "$dir/$name/plots/$p.png" ] || fail "$name: no $p.png"
	done
	case $name in
	*incast*) [ -f "$dir/$name/plots/incast.png" ] || fail "$name: no incast.png" ;;
	*perm*) [ -f "$dir/$name/plots/permutation.png" ] || fail "$name: no permutation.png" ;;
	esac
	/usr/bin/python3 "$check" "$dir/$name"/plots/*.png >"$dir/$name.check" ||
		{ cat "$dir/$name.check"; fail "$name: a picture is not right"; }
	echo "ok: $name: $drawn pictures ($(cd "$dir/$name/plots" && ls | tr '\n' ' '))"
	rm -rf "${dir:?}/$name"
	n=$((n + 1))
done < <(find "$src/examples" -name '*.yaml' | sort)
[ "$n" -ge 20 ] || fail "only $n examples found"
echo "ok: $n examples, each with its pictures"
