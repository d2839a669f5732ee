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

# same_records A B: two runs wrote the same files, byte for byte (lockstep
# determinism).
same_records() {
	local f
	for f in "$1"/*; do
		cmp "$f" "$2/$(basename "$f")" ||
			fail "$(basename "$f") differs between two runs"
	done
	[ "$(ls "$1" | wc -l)" -eq "$(ls "$2" | wc -l)" ] ||
		fail "the two runs wrote different files"
}
