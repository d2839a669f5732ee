#!/usr/bin/env bash
# uet-emu-mpi's failures end every rank within seconds, non-zero, with a
# message that names the rank (docs/lockstep.md, "Over ranks"):
#  - a rank whose scenario does not load stops before the ranks' first
#    collective: it names itself and aborts the others (exit status 2,
#    the scenario's own);
#  - ranks that loaded different scenarios: rank 0 names the first that
#    differs, every rank exits 1, and run.out keeps the last run's files.
# usage: ranks-errors.sh MPIRUN UET-EMU-MPI UET-EMU EXAMPLES-DIR
set -euo pipefail
mpirun=$1 emu_mpi=$2 emu=$3 examples=$4
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir mpi-ranks-errors
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export TMPDIR=$dir
ex=$examples/datapath-8.yaml

# run_ranks LOG MPIRUN-ARGS...: mpirun bounded by 60 s; sets rc and secs.
run_ranks() {
	local log=$1 t0; shift
	t0=$(date +%s)
	rc=0
	timeout 60 "$mpirun" --oversubscribe "$@" >"$log" 2>&1 || rc=$?
	secs=$(($(date +%s) - t0))
	[ "$rc" -ne 124 ] || { cat "$log"; fail "mpirun $* hung (killed after 60 s)"; }
}

# 1. Rank 1 of 2 cannot load its scenario.
run_ranks "$dir/setup.log" -np 1 "$emu_mpi" --out "$dir/a" "$ex" \
	: -np 1 "$emu_mpi" --out "$dir/a" "$dir/missing.yaml"
[ "$rc" -eq 2 ] || { cat "$dir/setup.log"; fail "a rank that failed set-up: exit $rc, not 2"; }
grep -q "uet-emu-mpi: rank 1 of 2 failed before the run started (exit status 2, its message above): ending every rank" \
	"$dir/setup.log" || { cat "$dir/setup.log"; fail "no message naming rank 1"; }
grep -q "missing.yaml: cannot open the scenario" "$dir/setup.log" ||
	{ cat "$dir/setup.log"; fail "rank 1's own message is not there"; }
echo "ok: a rank that failed set-up ended every rank in ${secs} s, exit 2"

# 2. Rank 2 of 3 loaded another scenario; run.out holds an earlier run.
"$emu" --out "$dir/b" "$ex" 2>/dev/null
cp -a "$dir/b" "$dir/b.before"
run_ranks "$dir/mismatch.log" -np 2 "$emu_mpi" --out "$dir/b" "$ex" \
	: -np 1 "$emu_mpi" --out "$dir/b" "$examples/incast-8.yaml"
[ "$rc" -eq 1 ] || { cat "$dir/mismatch.log"; fail "mismatched scenarios: exit $rc, not 1"; }
[ "$(grep -c "uet-emu-mpi: rank 2 loaded another scenario than rank 0 (scenario hash [0-9a-f]\{16\} against [0-9a-f]\{16\}): every rank must run the same scenario file and settings" \
	"$dir/mismatch.log")" -eq 1 ] || { cat "$dir/mismatch.log"; fail "not one message naming rank 2"; }
diff -r "$dir/b.before" "$dir/b" >/dev/null ||
	fail "a run refused for mismatched scenarios changed run.out"
echo "ok: mismatched scenarios refused in ${secs} s, rank 2 named, run.out kept"

left=$(find "$dir" -maxdepth 1 -name 'uet-emu-mpi-rank*' | wc -l)
[ "$left" -eq 0 ] || fail "$left rank folders left behind"
