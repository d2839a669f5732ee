#!/usr/bin/env bash
# Captures at scale (records.PcapHosts, lib/config/uet_config_pcap.c):
#  - auto on a fabric past 1,024 hosts opens the files of hosts 0-15 only,
#    and says so with the key to ask for more;
#  - a list of hosts and ranges opens exactly those, and the destination's
#    file holds the message's frames (it is the link that carried them);
#  - a list past the hosts, backwards or not a list is refused before the
#    run, naming the key, the value and the rule;
#  - captures that need more open files than the process may have are
#    refused before anything is written, naming records.PcapHosts.
# usage: pcap-hosts.sh UET-EMU
set -euo pipefail
emu=$1
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir pcap-hosts

scen() { # NAME RECORDS-LINE: 2,048 hosts on one switch, one 64 KiB message
	printf 'run: {end: 100us}\ntopology: {hosts: 2048}\n%bworkload:\n  messages:\n    - {src: 0, dst: 2000, size: 64KiB}\n' \
		"$2" >"$dir/$1.yaml"
}
captures() { # DIR: its capture files, by host
	local f
	for f in "$1"/port-*.pcap; do basename "$f"; done | sort -t- -k2 -n | tr '\n' ' '
}

scen auto ""
run_emu "$emu" "$dir/auto" "$dir/auto.yaml" "$dir/auto.log"
grep -qF "2048 hosts: capturing the links of hosts 0-15 only (records.PcapHosts: all, or hosts and ranges such as 0-63,4096, for others)" \
	"$dir/auto.log" || { cat "$dir/auto.log"; fail "auto: no note on the captures"; }
want="port-0.pcap port-1.pcap port-2.pcap port-3.pcap port-4.pcap port-5.pcap port-6.pcap port-7.pcap port-8.pcap port-9.pcap port-10.pcap port-11.pcap port-12.pcap port-13.pcap port-14.pcap port-15.pcap "
[ "$(captures "$dir/auto")" = "$want" ] ||
	fail "auto: captures $(captures "$dir/auto"), want $want"
echo "ok: auto past 1,024 hosts captures hosts 0-15 and says so"

scen list 'records: {PcapHosts: "0, 1998-2000"}\n'
run_emu "$emu" "$dir/list" "$dir/list.yaml" "$dir/list.log"
! grep -q "capturing the links" "$dir/list.log" || fail "list: the auto note printed"
want="port-0.pcap port-1998.pcap port-1999.pcap port-2000.pcap "
[ "$(captures "$dir/list")" = "$want" ] ||
	fail "list: captures $(captures "$dir/list"), want $want"
# 64 KiB in 16 packets of 4 KiB: host 0 sends them, host 2000 receives
# them (and each file holds the ACKs going the other way).
frames() { # FILE [FILTER]: frames in a capture (all, or the filter's)
	tshark -r "$1" ${2:+-Y "$2"} 2>/dev/null | wc -l
}
for h in 0 2000; do
	n=$(frames "$dir/list/port-$h.pcap" 'frame.len > 4096')
	[ "$n" -eq 16 ] || fail "port-$h.pcap: $n frames of 4 KiB, want 16"
done
[ "$(frames "$dir/list/port-1999.pcap")" -eq 0 ] ||
	fail "port-1999.pcap: frames on a host that sent nothing"
echo "ok: a list captures exactly its hosts, the message on both ends"

refused() { # NAME RECORDS-LINE WANT
	local rc=0
	scen "$1" "$2"
	"$emu" --out "$dir/out-$1" "$dir/$1.yaml" >"$dir/$1.log" 2>&1 || rc=$?
	[ "$rc" -eq 2 ] || { cat "$dir/$1.log"; fail "$1: exit $rc, want 2"; }
	grep -qF -- "$3" "$dir/$1.log" || { cat "$dir/$1.log"; fail "$1: no '$3'"; }
	[ ! -e "$dir/out-$1" ] || fail "$1: the run wrote its folder"
	echo "ok: $1 refused before the run"
}
refused past 'records: {PcapHosts: "0-2048"}\n' \
	'records.PcapHosts = 0-2048: host 2048 is out of range: topology.hosts is 2048'
refused backwards 'records: {PcapHosts: "9-3"}\n' \
	'records.PcapHosts = 9-3: the range 9-3 runs backwards'
refused words 'records: {PcapHosts: "some"}\n' \
	'records.PcapHosts = some: must be auto, all, or host numbers and ranges such as 0-15,1024'
# 2,048 capture files where the hard limit is 1,024.
scen many 'records: {PcapHosts: all}\n'
rc=0
(ulimit -n 1024 && "$emu" --out "$dir/out-many" "$dir/many.yaml") >"$dir/many.log" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { cat "$dir/many.log"; fail "many: exit $rc, want 2"; }
grep -qF "records.PcapHosts = all: 2048 capture files and the run's other files need 2304 open files, more than this process may have (ulimit -n: 1024)" \
	"$dir/many.log" || { cat "$dir/many.log"; fail "many: no message on open files"; }
[ ! -e "$dir/out-many" ] || fail "many: the run wrote its folder"
echo "ok: captures past the open-file limit refused before the run"
