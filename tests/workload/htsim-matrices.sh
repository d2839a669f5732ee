#!/usr/bin/env bash
# Every connection matrix of uet-htsim's that tests/data holds (its 8,192-node
# permutations and random incasts among them) loads unchanged: uet-emu takes
# it on a fabric of its Nodes (a fat tree of that size where there is one,
# else one switch) and --print-config succeeds. The one file uet-htsim
# itself refuses (a2a.cm: a Connections count its lines do not match) is
# refused with the same fault.

# usage: htsim-matrices.sh UET-EMU MATRIX-DIR
set -euo pipefail
emu=$1
cm_dir=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir htsim-matrices

# topology_of N: the fabric a matrix of N nodes runs on.
topology_of() {
	case $1 in
	16) echo "kind: fat-tree, k: 4" ;;
	128) echo "kind: fat-tree, k: 8" ;;
	1024) echo "kind: fat-tree, k: 16" ;;
	8192) echo "kind: fat-tree, k: 32" ;;
	65536) echo "kind: fat-tree, k: 64" ;;
	*) echo "hosts: $1" ;;
	esac
}

loaded=0 big=0
while IFS= read -r -d '' cm; do
	nodes=$(sed -n 's/^Nodes \([0-9]*\).*/\1/p' "$cm" | head -n 1)
	[ -n "$nodes" ] || fail "$cm has no Nodes line"
	printf 'run: {end: 100us}\ntopology: {%s}\nrecords: {EnablePcap: false, NDStatsReportInterval: 100us}\nworkload: {matrix: "%s"}\n' \
		"$(topology_of "$nodes")" "$cm" >"$dir/s.yaml"
	rc=0
	"$emu" --print-config "$dir/s.yaml" >"$dir/config" 2>"$dir/log" || rc=$?
	if [ "$(basename "$cm")" = a2a.cm ]; then
		[ "$rc" -eq 2 ] || fail "a2a.cm: exit status $rc, want 2"
		grep -q "Connections 3600 in the header, and the file has 240 connection lines" \
			"$dir/log" || { cat "$dir/log"; fail "a2a.cm: not refused for its count"; }
		continue
	fi
	[ "$rc" -eq 0 ] || { cat "$dir/log"; fail "$cm does not load (exit $rc)"; }
	grep -q "hosts: $nodes\b" "$dir/config" ||
		fail "$cm: the printed scenario has not $nodes hosts"
	loaded=$((loaded + 1))
	[ "$nodes" -lt 8192 ] || big=$((big + 1))
done < <(find "$cm_dir" -type f -name '*.cm' -print0 | sort -z)
# The folder's README counts 62 matrices, 48 of them of 8,192 nodes.
[ "$loaded" -eq 61 ] || fail "$loaded matrices loaded, want 61 (62 less a2a.cm)"
[ "$big" -eq 48 ] || fail "$big matrices of 8,192 nodes loaded, want 48"
echo "ok: $loaded matrices loaded ($big of 8,192 nodes); a2a.cm refused for its count"
