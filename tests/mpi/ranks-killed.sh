#!/usr/bin/env bash
# A rank killed mid-run (SIGKILL to rank 1 of 2): mpirun ends the job
# within seconds, exit status non-zero; rank 0, told by mpirun's SIGTERM,
# leaves its wait for the dead rank (the collectives are waited for with
# MPI_Test) and closes its files as an interrupted run does: every file
# whole, none left as NAME.partial, summary.csv saying interrupted by
# SIGTERM (docs/lockstep.md, "Over ranks"); the killed rank's folder is
# gone with the job (it is made in the rank's Open MPI session folder).
# usage: ranks-killed.sh MPIRUN UET-EMU-MPI
set -euo pipefail
mpirun=$1 emu_mpi=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir mpi-ranks-killed
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export TMPDIR=$dir

# shellcheck source=SCRIPTDIR/long-run.sh
. "$(dirname "$0")/long-run.sh"

rc=0
long_run_start "$mpirun" "$emu_mpi" "$dir"
t0=$(date +%s)
kill -KILL "${ranks[1]}"
wait "$mp" || rc=$?
secs=$(($(date +%s) - t0))
[ "$rc" -ne 0 ] || fail "mpirun exited 0 with a rank killed"
[ "$secs" -le 30 ] || fail "the job took $secs s to end after a rank was killed"
grep -q "exited on signal 9" "$dir/log" || { cat "$dir/log"; fail "mpirun did not name the killed rank"; }
grep -q "stopped by a signal while waiting for the other ranks" "$dir/log" ||
	{ cat "$dir/log"; fail "rank 0 did not leave its wait"; }
files_whole "$dir/out"
[ "$(summary "$dir/out" interrupted)" = 1 ] && [ "$(summary "$dir/out" interrupted_by)" = SIGTERM ] ||
	fail "summary.csv does not say the run was interrupted by SIGTERM"
left=$(find "$dir" -name 'uet-emu-mpi-rank*' | wc -l)
[ "$left" -eq 0 ] || fail "$left rank folders left behind"
echo "ok: rank 1 killed: the job ended in $secs s (exit $rc), rank 0's $n files whole, interrupted by SIGTERM"
