#!/usr/bin/env bash
# Every example scenario (examples/ and examples/workloads/) run by uet-emu
# with run.lcores 1, 2, 3 and 4 writes byte-identical records and
# captures, and exits alike: the NICs and the fabric's parts are spread
# over the worker lcores, and nothing a record says may depend on how
# (all but wall-time.csv, the wall-clock figures). The examples include fat trees
# (parts per pod and core group), drops (datapath-8), trims
# (incast-8-trim), PFC and link failures. Three and four lcores on this
# 2-CPU machine share CPUs: the spread must not matter either.
# usage: lcores-identical.sh UET-EMU EXAMPLES-DIR
set -euo pipefail
emu=$1 examples=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir lcores-identical

# A copy of the examples (they name their .cm files relative to
# themselves), each with run.lcores set.
cp -r "$examples" "$dir/ex"
n=0
while IFS= read -r f; do
	name=${f#"$dir/ex/"}
	for l in 1 2 3 4; do
		c=${f%.yaml}.lc$l.yaml
		if grep -q '^run: *{' "$f"; then
			sed "s/^run: *{/run: {lcores: $l, /" "$f" >"$c"
		elif grep -q '^run:' "$f"; then
			sed "s/^run:/run:\n  lcores: $l/" "$f" >"$c"
		else
			{ cat "$f"; printf 'run:\n  lcores: %d\n' "$l"; } >"$c"
		fi
		# Files named relative to the scenario: from the original's folder.
		orig=$examples/${name%/*}
		[ "$name" != "${name%/*}" ] || orig=$examples
		sed -i -E "s#^(  (chakra|matrix): *)([^/ ][^ ]*)#\1$orig/\3#" "$c"
		rc=0
		"$emu" --out "$dir/out-$l" "$c" 2>"$dir/log-$l" || rc=$?
		echo "$rc" >"$dir/rc-$l"
		grep -q "lcores: $l" "$c" || fail "$name: run.lcores not set in $c"
	done
	[ "$(cat "$dir/rc-1")" = 0 ] || {
		cat "$dir/log-1"; fail "$name: exit $(cat "$dir/rc-1") on 1 lcore"; }
	for l in 2 3 4; do
		cmp -s "$dir/rc-1" "$dir/rc-$l" ||
			fail "$name: exit $(cat "$dir/rc-1") with 1 lcore, $(cat "$dir/rc-$l") with $l"
		diff -r -x "$WALL_FILE" "$dir/out-1" "$dir/out-$l" >/dev/null || {
			diff -rq -x "$WALL_FILE" "$dir/out-1" "$dir/out-$l" || true
			fail "$name: records differ between 1 and $l lcores"; }
	done
	# The runs did run: records were written.
	[ -s "$dir/out-1/flows.csv" ] || fail "$name: no flows.csv"
	echo "ok: $name (exit $(cat "$dir/rc-1"), $(ls "$dir/out-1" | wc -l) files) same on 1, 2, 3 and 4 lcores"
	rm -rf "$dir"/out-* "$dir"/rc-* "$dir"/log-*
	n=$((n + 1))
done < <(find "$dir/ex" -name '*.yaml' ! -name '*.lc?.yaml' | sort)
[ "$n" -ge 20 ] || fail "only $n example scenarios found in $examples"
echo "ok: $n example scenarios, records identical on 1, 2, 3 and 4 lcores"
