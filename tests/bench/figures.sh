# shellcheck shell=bash
# Shared by the benches that read a run's figures; source it.

# figure DIR NAME: the value of NAME in DIR/wall-time.csv (the wall-clock
# figures: wall_ms, setup_ms, ...) or DIR/summary.csv (events, frames, ...;
# also wall_ms in builds from before wall-time.csv), docs/records.md.
# Prints nothing when neither has it.
figure() {
	local f
	for f in "$1/wall-time.csv" "$1/summary.csv"; do
		[ -f "$f" ] || continue
		awk -F, -v k="$2" '$1 == k { print $2; found = 1; exit }
			END { exit !found }' "$f" && return 0
	done
	return 0
}
