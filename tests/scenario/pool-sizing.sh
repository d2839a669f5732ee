#!/usr/bin/env bash
# The mbuf pool against what the run needs (docs/performance.md, "Sizing"):
# - a pool far larger than the frames in use costs only what is used: the
#   quickstart with run.mbufs = 2,000,000 (1.1 GiB of mbufs) completes
#   intact in a small fraction of that (the pool makes its mbufs a chunk at
#   a time; rte_pktmbuf_pool_create made and kept all of them: 1,154 MiB);
# - a pool too small for the frames in flight stops the run, exit 1, with
#   a message naming the pool, the virtual time and run.mbufs;
# - a pool whose address space passes ulimit -v, or a run whose expected
#   peak passes what its memory cgroup leaves (a 1,024-host all-to-all's
#   million messages in 300 MiB too), is refused before the run, naming
#   the figure, run.mbufs or the cgroup; a cgroup of three times the
#   expected peak holds the run;
# - the lcores asked of the EAL are never more than the NICs.
# usage: pool-sizing.sh UET-EMU EXAMPLES_DIR
set -euo pipefail
emu=$1 examples=$2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir pool-sizing

# with_mbufs SCENARIO N OUT: SCENARIO with run.mbufs = N (its run: block
# starts with "run:" on a line of its own).
with_mbufs() {
	sed "s/^run:\$/run:\n  mbufs: $2/" "$1" >"$3"
	grep -q "^  mbufs: $2\$" "$3" || fail "could not set run.mbufs in $1"
}

# Peak RSS of a command, MiB (python3's getrusage of its child); the
# command's exit status in $rc.
peak_rss_mib() {
	python3 - "$@" <<'EOF'
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL,
                   stderr=open(sys.argv[-1] + ".log", "w"))
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
EOF
}

# 0. The lcores asked of the EAL: run.lcores = 8 on the quickstart's 2
# hosts gives 2 (one NIC each; more would idle), and the run says so.
sed "s/^run:\$/run:\n  lcores: 8/" "$examples/quickstart.yaml" >"$dir/lcores.yaml"
grep -q "^  lcores: 8\$" "$dir/lcores.yaml" || fail "could not set run.lcores"
"$emu" --print-config "$dir/lcores.yaml" 2>&1 | grep -q '^# sizing (uet-emu): 2 lcores;' ||
	fail "run.lcores = 8 on 2 hosts: the sizing line does not say 2 lcores"
"$emu" --out "$dir/lcores" "$dir/lcores.yaml" 2>"$dir/lcores.log" ||
	{ cat "$dir/lcores.log"; fail "run.lcores = 8 on 2 hosts failed"; }
grep -q '^uet-emu: lcore 1 of 2:' "$dir/lcores.log" ||
	{ cat "$dir/lcores.log"; fail "run.lcores = 8 on 2 hosts did not run on 2 lcores"; }
summary_intact "$dir/lcores" 256
echo "ok: run.lcores = 8 on 2 hosts: 2 lcores"
# Without run.lcores a fabric of at most 16 hosts runs on one lcore,
# whatever the CPUs left free (run_sizing.c, SIZING_ONE_LCORE_HOSTS),
# and 128 hosts may take more.
"$emu" --print-config "$examples/datapath-8.yaml" 2>&1 | grep -q '^# sizing (uet-emu): 1 lcores;' ||
	fail "datapath-8 (8 hosts) without run.lcores: the sizing line does not say 1 lcore"
echo "ok: 8 hosts without run.lcores: 1 lcore"

# 1. A large pool, a small run.
big=2000000
with_mbufs "$examples/quickstart.yaml" $big "$dir/big.yaml"
pool_mib=$("$emu" --print-config "$dir/big.yaml" 2>&1 |
	sed -n "s/^# sizing.* $big mbufs of [0-9]* data bytes (\([0-9]*\) MiB at most).*/\1/p")
[ -n "$pool_mib" ] || fail "--print-config shows no sizing line for $big mbufs"
read -r rc rss < <(peak_rss_mib "$emu" --out "$dir/big" "$dir/big.yaml")
if [ "$rc" -ne 0 ] && grep -q 'this machine has available' "$dir/big.yaml.log"; then
	echo "SKIP: this machine cannot hold a $pool_mib MiB pool"; exit 77
fi
[ "$rc" -eq 0 ] || { cat "$dir/big.yaml.log"; fail "the quickstart with $big mbufs exited $rc"; }
summary_intact "$dir/big" 256
[ "$rss" -lt $((pool_mib / 8)) ] ||
	fail "peak RSS $rss MiB with a pool of $pool_mib MiB: the pool's unused mbufs were made"
echo "ok: run.mbufs = $big ($pool_mib MiB): completed, peak RSS $rss MiB"

# 2. A pool too small: 100 mbufs for datapath-8's windows (the frames'
# headers and ACKs; payloads take mbufs of their own pool).
with_mbufs "$examples/datapath-8.yaml" 100 "$dir/dry.yaml"
rc=0
"$emu" --out "$dir/dry" "$dir/dry.yaml" 2>"$dir/dry.log" || rc=$?
[ "$rc" -eq 1 ] || { cat "$dir/dry.log"; fail "a dry pool exited $rc, want 1"; }
grep -Eq '^uet-emu: the mbuf pool uet_run_pool \(100 mbufs, run\.mbufs\) ran dry before [0-9.]+[pmun]?s of virtual time: nic [0-7] .*set run\.mbufs above 100' \
	"$dir/dry.log" || { cat "$dir/dry.log"; fail "no message naming the pool, the time and run.mbufs"; }
echo "ok: run.mbufs = 100: $(head -c 90 "$dir/dry.log")..."

# 3. The memory the run may take, checked before it starts, with the
# figures (app/common/run_memlimit.c):
# a. run.mbufs far past RLIMIT_AS (ulimit -v): refused, naming both;
huge=60000000
with_mbufs "$examples/quickstart.yaml" $huge "$dir/huge.yaml"
if grep -qa __asan_init "$emu"; then
	# ASan maps terabytes of shadow memory at start: no ulimit -v holds.
	echo "SKIP (part 3a): AddressSanitizer build, no address-space limit applies"
else
rc=0
(ulimit -v 409600 && "$emu" --out "$dir/huge" "$dir/huge.yaml") 2>"$dir/huge.log" || rc=$?
[ "$rc" -eq 1 ] || { cat "$dir/huge.log"; fail "run.mbufs = $huge under ulimit -v 400 MiB exited $rc, want 1"; }
grep -Eq "^uet-emu: the run reserves about [0-9]+ MiB of address space \(its frame buffers: run\.mbufs = $huge mbufs, EAL -m [0-9]+; its expected peak about [0-9]+ MiB, 1 workload messages about 0 MiB of it\), more than RLIMIT_AS allows \(ulimit -v: 400 MiB\): set run\.mbufs lower" \
	"$dir/huge.log" || { cat "$dir/huge.log"; fail "no message naming the figure, run.mbufs and ulimit -v"; }
[ ! -e "$dir/huge" ] || fail "the refused run wrote its folder"
echo "ok: run.mbufs = $huge under ulimit -v: $(head -c 100 "$dir/huge.log")..."
fi
# b. a memory cgroup that leaves less than the run's expected peak:
# refused, naming the cgroup; one that leaves three times the peak: the
# run completes inside it (the estimate is not a guess above the truth
# by more than that, and the kernel does not kill it).
cg=
for m in /sys/fs/cgroup/memory /sys/fs/cgroup; do
	[ -w "$m" ] || continue
	if [ -e "$m/memory.limit_in_bytes" ] ||
		grep -qsw memory "$m/cgroup.subtree_control"; then
		cg=$m/uet-pool-sizing-$$
		break
	fi
done
if [ -z "$cg" ] || ! mkdir "$cg" 2>/dev/null; then
	echo "SKIP (part 3b): no memory cgroup this test may make"; exit 0
fi
trap 'rmdir "$cg" 2>/dev/null; rm -rf "$dir"' EXIT
limit_file=$cg/memory.limit_in_bytes
[ -e "$limit_file" ] || limit_file=$cg/memory.max
in_cgroup() { # LIMIT_BYTES OUT SCENARIO: run uet-emu in the cgroup
	echo "$1" >"$limit_file"
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$cg" \
		"$emu" --out "$2" "$3"
}
peak=$("$emu" --print-config "$examples/datapath-8.yaml" |
	sed -n 's/^# sizing.* expected peak about \([0-9]*\) MiB.*/\1/p')
[ -n "$peak" ] || fail "--print-config gives no expected peak"
rc=0
in_cgroup $((peak * 1048576 / 2)) "$dir/small" "$examples/datapath-8.yaml" 2>"$dir/small.log" || rc=$?
[ "$rc" -eq 1 ] || { cat "$dir/small.log"; fail "a cgroup of half the expected $peak MiB: exit $rc, want 1"; }
grep -Eq "^uet-emu: the run needs about $peak MiB .*, more than the [0-9]+ MiB the memory cgroup /[^ ]*uet-pool-sizing-$$'s memory\.(limit_in_bytes|max) of $((peak / 2)) MiB, [0-9]+ MiB of it in use leaves" \
	"$dir/small.log" || { cat "$dir/small.log"; fail "no message naming the figure and the cgroup"; }
[ ! -e "$dir/small" ] || fail "the refused run wrote its folder"
echo "ok: a cgroup of $((peak / 2)) MiB refused: $(head -c 120 "$dir/small.log")..."
# c. A 1,024-host all-to-all (1,047,552 messages) in a cgroup of 300 MiB:
# refused before it starts, naming its messages and the cgroup. Before,
# the sizing built the whole program to count its peers (405 MB) and
# counted no memory per message (1,015 MiB expected, 4.6 GiB taken): the
# kernel killed the run, signal 9, no word (issue 34, item 3).
cat >"$dir/a2a.yaml" <<'YAML'
run: {seed: 1, end: 10ms, progress: false}
topology: {kind: single-switch, hosts: 1024}
records: {EnablePcap: false}
workload:
  generate: {pattern: all-to-all, size: 64KiB, count: 1, start: 1us}
YAML
rc=0
in_cgroup $((300 * 1048576)) "$dir/a2a" "$dir/a2a.yaml" 2>"$dir/a2a.log" || rc=$?
[ "$rc" -eq 1 ] || { cat "$dir/a2a.log"; fail "a 1,024-host all-to-all in 300 MiB: exit $rc, want 1"; }
grep -Eq "^uet-emu: the run needs about [0-9]+ MiB \(.*; 1047552 workload messages about [0-9]+ MiB; .*\), more than the [0-9]+ MiB the memory cgroup /[^ ]*uet-pool-sizing-$$'s memory\.(limit_in_bytes|max) of 300 MiB" \
	"$dir/a2a.log" || { cat "$dir/a2a.log"; fail "no message naming the messages and the cgroup"; }
[ ! -e "$dir/a2a" ] || fail "the refused run wrote its folder"
echo "ok: a 1,024-host all-to-all in 300 MiB refused: $(head -c 120 "$dir/a2a.log")..."
in_cgroup $((peak * 3 * 1048576)) "$dir/fits" "$examples/datapath-8.yaml" 2>"$dir/fits.log" ||
	{ cat "$dir/fits.log"; fail "a cgroup of three times the expected $peak MiB: the run failed"; }
summary_intact "$dir/fits" 2624
echo "ok: a cgroup of $((peak * 3)) MiB: the run completed in it"
