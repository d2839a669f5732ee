#!/usr/bin/env bash
# A rank that hangs alive (SIGSTOP to rank 1 of 2 mid-run): rank 0 waits
# for its message of the window no longer than UET_EMU_MPI_TIMEOUT (2 s
# here), names the rank, the window and the cause, closes its files as a
# failed run (every file whole) and ends the job (MPI_Abort), the stopped
# rank with it; exit status non-zero, within seconds; no rank's folder
# left behind.
# usage: ranks-hung.sh MPIRUN UET-EMU-MPI
set -euo pipefail
mpirun=$1 emu_mpi=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir mpi-ranks-hung
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export TMPDIR=$dir UET_EMU_MPI_TIMEOUT=2

# shellcheck source=SCRIPTDIR/long-run.sh
. "$(dirname "$0")/long-run.sh"

rc=0
long_run_start "$mpirun" "$emu_mpi" "$dir"
t0=$(date +%s)
kill -STOP "${ranks[1]}"
wait "$mp" || rc=$?
secs=$(($(date +%s) - t0))
# Gone, or a zombie nobody reaps (mpirun, its parent, has ended).
sleep 1
state=$(ps -o stat= -p "${ranks[1]}" || true)
case $state in "" | Z*) ;; *) kill -KILL "${ranks[1]}"; fail "the stopped rank outlived the job ($state)" ;; esac
[ "$rc" -ne 0 ] || fail "mpirun exited 0 with a rank stopped"
[ "$secs" -le 30 ] || fail "the job took $secs s to end after a rank was stopped"
# Where rank 1 stopped decides which wait notices: its message of the
# window, its taking of rank 0's (the exchange) or its vote (the
# agreement).
late="(the exchange of frames over the ranks failed in window \[[0-9]+, [0-9]+\) ps: (no message from rank 1|rank 1 did not take this rank's message)|the agreement over the ranks failed in window \[[0-9]+, [0-9]+\) ps: MPI_Iallreduce: rank 1 did not join it)"
grep -Eq "rank 0: $late within 2.0 s \(it hangs, or is stopped\)" "$dir/log" ||
	{ cat "$dir/log"; fail "rank 0 did not name the rank, the window and the cause"; }
grep -Eq "uet-emu-mpi: rank 0 of 2: .*rank 1 .*within 2.0 s \(it hangs, or is stopped\): ending every rank" "$dir/log" ||
	{ cat "$dir/log"; fail "rank 0 did not end the job"; }
files_whole "$dir/out"
[ "$(summary "$dir/out" completed)" = 0 ] || fail "summary.csv says the run completed"
left=$(find "$dir" -name 'uet-emu-mpi-rank*' | wc -l)
[ "$left" -eq 0 ] || fail "$left rank folders left behind"
echo "ok: rank 1 stopped: rank 0 named it and ended the job in $secs s (exit $rc), its files whole"
