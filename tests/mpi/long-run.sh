# shellcheck shell=bash
# The run ranks-killed.sh and ranks-hung.sh interrupt, sourced by both
# (after tests/common/emu.sh): 128 hosts, each sends 20 MB, many seconds
# on two ranks; progress on, so that the first progress line says the
# windows are running.
# long_run_start MPIRUN UET-EMU-MPI DIR: writes DIR/long.yaml, starts it
# on two ranks (output in DIR/out, log in DIR/log) and waits for its first
# progress line; sets mp (mpirun's process) and ranks (its two rank
# processes). Fails if the run ends first.
# shellcheck disable=SC2034 # mp and ranks are the caller's
long_run_start() {
	local mpirun=$1 emu_mpi=$2 dir=$3
	{
		printf 'run: {clock: lockstep, seed: 1, end: 2ms, lcores: 1, progress: true}\n'
		printf 'topology: {kind: fat-tree, k: 8, link_rate: 100Gbps, link_delay: 1us}\n'
		printf 'nic: {DataRate: 100Gbps, Delay: 1us}\n'
		printf 'records: {EnablePcap: false}\nworkload:\n  messages:\n'
		awk 'BEGIN { for (i = 0; i < 128; i++)
			printf "    - {src: %d, dst: %d, size: 20000000, at: 0us}\n", i, (i + 64) % 128 }'
	} >"$dir/long.yaml"
	"$mpirun" --oversubscribe -np 2 "$emu_mpi" --out "$dir/out" "$dir/long.yaml" \
		>"$dir/log" 2>&1 &
	mp=$!
	for _ in $(seq 600); do
		grep -q "^uet-emu-mpi: virtual " "$dir/log" 2>/dev/null && break
		kill -0 "$mp" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$mp" 2>/dev/null || { cat "$dir/log"; fail "the run ended before its rank 1 could be interrupted"; }
	mapfile -t ranks < <(pgrep -P "$mp")
	[ "${#ranks[@]}" -eq 2 ] || fail "mpirun has ${#ranks[@]} ranks, not 2"
}
