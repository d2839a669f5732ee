#!/usr/bin/env bash
# uet-emu-mpi over 1, 2 and 3 MPI ranks (3 oversubscribed on this 2-CPU
# machine) writes the same files, byte for byte, as uet-emu in one process
# and exits alike: records, captures, summary.csv (all but wall-time.csv
# and the folder's lock, which holds the writer's pid). datapath-8 has
# drops and retransmissions on one switch (its one part on rank 0, the
# NICs spread: the NICs' frames cross ranks both ways); fat-tree-16 is a
# switch in parts (the fed window) with captures, its parts spread over
# the ranks with the NICs of their hosts (frames between parts cross
# ranks, rank 0 writes the captures the others' parts took);
# datapath-8 again on a small pool; cc-fat-tree-degraded, links that
# fail mid-run in a fabric spread over the ranks; leaf-spine-perm-degraded
# samples queues (switch-occupancy.csv), so its switch stays whole on rank
# 0. Each rank runs its share (the stderr lines name them), and the ranks'
# own folders are gone when they end. fat-tree-16 also runs on 4 ranks,
# two of which (1 and 2: pods 1 and 2) have no link between them, so
# exchange no message: what one's NICs must know of the other's (the
# arrivals of their messages, in flows.csv) goes by rank 0. Then every
# program-workload example (generators, connection matrices, the Chakra
# all-reduce), and triggers-shared here, whose triggers count
# completions of hosts on several ranks in one window: every rank runs
# the whole workload engine, and workload.csv and workload-messages.csv
# are the same too. SET picks which: fabrics (the first five) or
# programs (the rest), two tests that meson runs side by side.
# usage: ranks-identical.sh MPIRUN UET-EMU-MPI UET-EMU EXAMPLES-DIR SET
set -euo pipefail
mpirun=$1 emu_mpi=$2 emu=$3 examples=$4 set=$5
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir "mpi-ranks-identical-$set"
# Open MPI refuses root unless told; the ranks' folders go under $dir.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export TMPDIR=$dir

# datapath-8 once more with a pool of 1,500 mbufs, which uet-emu's run
# never outgrows: a rank must not outgrow it either (the frames its copy
# of the switch sends the other ranks' NICs are dropped each window; kept,
# they ran 3 ranks' pools dry).
sed 's/^run:/run:\n  mbufs: 1500/' "$examples/datapath-8.yaml" >"$dir/datapath-8-mbufs.yaml"
grep -q '^  mbufs: 1500$' "$dir/datapath-8-mbufs.yaml" || fail "run.mbufs not set"

here=$(cd "$(dirname "$0")" && pwd)
case $set in
fabrics) list="datapath-8 fat-tree-16 datapath-8-mbufs cc-fat-tree-degraded
	leaf-spine-perm-degraded" ;;
programs) list="generate-incast generate-permutation matrix-triggers
	workloads/all-reduce-8 workloads/fat-tree-one workloads/fat-tree-incast
	workloads/fat-tree-permutation triggers-shared" ;;
*) fail "SET is fabrics or programs, not '$set'" ;;
esac
for ex in $list; do
	yaml=$examples/$ex.yaml
	[ -f "$yaml" ] || yaml=$dir/$ex.yaml
	[ -f "$yaml" ] || yaml=$here/$ex.yaml
	rc=0
	"$emu" --out "$dir/ref" "$yaml" 2>"$dir/ref.log" || rc=$?
	[ "$rc" -eq 0 ] || { cat "$dir/ref.log"; fail "$ex: uet-emu exited $rc"; }
	ns="1 2 3"
	[ "$ex" != fat-tree-16 ] || ns="1 2 3 4"
	for n in $ns; do
		rc=0
		"$mpirun" --oversubscribe -np "$n" "$emu_mpi" --out "$dir/np$n" \
			"$yaml" >"$dir/np$n.log" 2>&1 || rc=$?
		[ "$rc" -eq 0 ] || { cat "$dir/np$n.log"; fail "$ex: $n ranks exited $rc"; }
		grep -q "windows, [0-9.]* ms, $n ranks)" "$dir/np$n.log" || {
			cat "$dir/np$n.log"; fail "$ex: no line of a run over $n ranks"; }
		case $ex-$n in
		datapath-8-2) shares=("rank 0 of 2 runs NICs 0-3 and switch parts 0-0"
			"rank 1 of 2 runs NICs 4-7") ;;
		datapath-8-3) shares=("rank 0 of 3 runs NICs 0-1 and switch parts 0-0"
			"rank 1 of 3 runs NICs 2-4" "rank 2 of 3 runs NICs 5-7") ;;
		fat-tree-16-2) shares=("rank 0 of 2 runs NICs 0-7 and switch parts 0-1"
			"rank 1 of 2 runs NICs 8-15 and switch parts 2-5") ;;
		fat-tree-16-3) shares=("rank 0 of 3 runs NICs 0-7 and switch parts 0-1"
			"rank 1 of 3 runs NICs 8-11 and switch parts 2-2"
			"rank 2 of 3 runs NICs 12-15 and switch parts 3-5") ;;
		fat-tree-16-4) shares=("rank 0 of 4 runs NICs 0-3 and switch parts 0-0"
			"rank 1 of 4 runs NICs 4-7 and switch parts 1-1"
			"rank 2 of 4 runs NICs 8-15 and switch parts 2-3"
			"rank 3 of 4 runs no NICs and switch parts 4-5"
			"rank 0 of 4 exchanges messages with ranks 1 2 3"
			"rank 1 of 4 exchanges messages with ranks 0 3"
			"rank 2 of 4 exchanges messages with ranks 0 3"
			"rank 3 of 4 exchanges messages with ranks 0 1 2") ;;
		cc-fat-tree-degraded-3) shares=("rank 0 of 3 runs NICs 0-7 and switch parts 0-1"
			"rank 1 of 3 runs NICs 8-11 and switch parts 2-2"
			"rank 2 of 3 runs NICs 12-15 and switch parts 3-5") ;;
		leaf-spine-perm-degraded-3) shares=("rank 0 of 3 runs NICs 0-4 and switch parts 0-7"
			"rank 1 of 3 runs NICs 5-9" "rank 2 of 3 runs NICs 10-15") ;;
		*) shares=() ;;
		esac
		# Each rank's events (its share of the model's work) add up
		# to the run's, each counted where it ran, once.
		if [ "$n" -gt 1 ]; then
			sum=$(sed -n "s/^uet-emu-mpi: rank [0-9]* of $n ran \([0-9]*\) events, .*/\1/p" \
				"$dir/np$n.log" | awk '{ s += $1; k++ } END { if (k) print s }')
			[ "$sum" = "$(summary "$dir/ref" events)" ] && [ -n "$sum" ] || {
				cat "$dir/np$n.log"; fail "$ex: the ranks' events add up to '$sum', not the run's"; }
		fi
		for s in "${shares[@]}"; do
			grep -qx "uet-emu-mpi: $s" "$dir/np$n.log" || {
				cat "$dir/np$n.log"; fail "$ex: no line '$s'"; }
		done
		diff -r -x "$WALL_FILE" -x .uet-run.lock "$dir/ref" "$dir/np$n" >/dev/null || {
			diff -rq -x "$WALL_FILE" -x .uet-run.lock "$dir/ref" "$dir/np$n" || true
			fail "$ex: the records of $n ranks differ from uet-emu's"; }
		left=$(find "$dir" -maxdepth 1 -name 'uet-emu-mpi-rank*' | wc -l)
		[ "$left" -eq 0 ] || fail "$ex: $left rank folders left behind"
	done
	[ -s "$dir/ref/flows.csv" ] || fail "$ex: no flows.csv"
	case $ex in
	generate-*|matrix-*|workloads/*|triggers-*)
		[ -s "$dir/ref/workload-messages.csv" ] ||
			fail "$ex: no workload-messages.csv" ;;
	esac
	echo "ok: $ex: $(ls "$dir/ref" | wc -l) files identical on ${ns// /, } ranks"
	rm -rf "$dir/ref" "$dir"/np?
done
