#!/usr/bin/env bash
# Records are deterministic and wall time has a file of its own: two runs
# of one example give folders that `diff -r` finds identical but for
# wall-time.csv (docs/records.md, "wall-time.csv"); that file has the
# wall-clock figures, and summary.csv none.
# usage: records-deterministic.sh UET-EMU SCENARIO
set -euo pipefail
emu=$1 scenario=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir records-deterministic

run_emu "$emu" "$dir/a" "$scenario" "$dir/a.log"
run_emu "$emu" "$dir/b" "$scenario" "$dir/b.log"
differ=$(diff -rq "$dir/a" "$dir/b" | sed -e "s#$dir/[ab]/##g" || true)
[ -z "$differ" ] || [ "$differ" = "Files wall-time.csv and wall-time.csv differ" ] ||
	fail "files other than wall-time.csv differ between two runs: $differ"
for f in setup_ms wall_ms window.wall_ns; do
	awk -F, -v k="$f" '$1 == k && $2 ~ /^[0-9]+$/ { found = 1 }
		END { exit !found }' "$dir/a/$WALL_FILE" ||
		fail "no figure $f in wall-time.csv"
done
! grep -q '^wall_ms,' "$dir/a/summary.csv" ||
	fail "summary.csv still has a wall-clock figure"
n=$(find "$dir/a" -type f | wc -l)
[ "$n" -ge 5 ] || fail "only $n files written"
echo "ok: two runs of $(basename "$scenario"): $n files, identical but for wall-time.csv"
