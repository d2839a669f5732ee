# shellcheck shell=bash
# Shared by the shell tests that run uet-emu; source it after
# `set -euo pipefail`:  . "$(dirname "$0")/../common/emu.sh"

# fail MESSAGE: say why the test failed and stop it.
fail() { echo "FAIL: $*"; exit 1; }

# emu_tmpdir NAME: set $dir to a fresh folder, removed however the test ends.
emu_tmpdir() {
	dir=$(mktemp -d "/tmp/uet-$1.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
}

# run_emu EMU OUT SCENARIO LOG: one run of uet-emu, its messages in LOG; on
# a non-zero exit, print LOG and fail with the exit status.
run_emu() {
	local rc=0
	"$1" --out "$2" "$3" 2>"$4" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$4"; fail "uet-emu exited $rc ($3)"; }
}

# The one file of a run's folder that differs between two identical
# lockstep runs: the wall-clock figures (docs/records.md, "wall-time.csv").
WALL_FILE=wall-time.csv

# same_records A B: two runs wrote the same files, byte for byte (lockstep
# determinism), but for $WALL_FILE, which each must have.
same_records() {
	[ -f "$1/$WALL_FILE" ] && [ -f "$2/$WALL_FILE" ] ||
		fail "no $WALL_FILE in $1 or $2"
	diff -r -x "$WALL_FILE" "$1" "$2" >/dev/null || {
		diff -rq -x "$WALL_FILE" "$1" "$2" || true
		fail "the two runs wrote different records"; }
}

# summary_intact DIR PSNS: every message of DIR's run completed, the data
# path kept its promises and PSNS data PSNs were taken and retired.
summary_intact() {
	[ "$(summary "$1" completed)" -eq "$(summary "$1" messages)" ] ||
		fail "$(summary "$1" completed) of $(summary "$1" messages) messages completed"
	[ "$(summary "$1" payload_mismatches)" -eq 0 ] &&
		[ "$(summary "$1" in_flight_anomalies)" -eq 0 ] &&
		[ "$(summary "$1" psns_taken)" -eq "$2" ] &&
		[ "$(summary "$1" psns_retired)" -eq "$2" ] &&
		[ "$(summary "$1" intact)" -eq 1 ] &&
		[ "$(summary "$1" interrupted)" -eq 0 ] ||
		fail "integrity: $(grep -E '^(payload|in_flight|psns|intact|interrupted)' "$1/summary.csv" | tr '\n' ' ')"
}

# summary DIR FIGURE: print the value of FIGURE in DIR/summary.csv (the
# machine-readable copy of the printed summary, docs/records.md); fail if
# the file or the row is missing.
summary() {
	[ -f "$1/summary.csv" ] || fail "no summary.csv in $1"
	awk -F, -v k="$2" '$1 == k { print $2; found = 1 }
		END { exit !found }' "$1/summary.csv" ||
		fail "no figure $2 in $1/summary.csv"
}

# files_whole OUT: every file a run left in OUT is whole: no NAME.partial,
# every CSV ends with a whole row as wide as its header, every pcap reads
# in tshark to its end. Sets $n to the number of files.
files_whole() {
	local f err
	err=$(mktemp)
	n=0
	for f in "$1"/*; do
		[ -e "$f" ] || continue
		case $f in
		*.partial) fail "$f left behind" ;;
		*.csv)
			[ "$(tail -c 1 "$f" | od -An -c | tr -d ' ')" = '\n' ] ||
				fail "$f does not end with a whole row"
			awk -F, 'NR == 1 {n = NF} NF != n {bad = 1} END {exit bad}' \
				"$f" || fail "$f has a row of the wrong width" ;;
		*.pcap)
			tshark -r "$f" >/dev/null 2>"$err" || true
			sed -i '/^Running as user "root"/d' "$err"
			[ ! -s "$err" ] || { cat "$err"; rm -f "$err"; fail "$f is cut"; } ;;
		esac
		n=$((n + 1))
	done
	rm -f "$err"
}
