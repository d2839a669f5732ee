#!/usr/bin/env bash
# uet-frames sends its frames on a DPDK port (net_pcap here, so the test can
# read what the port put out) and they decode to the fields they were built
# with. usage: port.sh UET-FRAMES LUA COMPARE_FIELDS
set -euo pipefail
frames=$1 lua=$2 compare=$3
dir=$(mktemp -d /tmp/uet-frames-port.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$frames" --no-huge -m 512 --no-pci --no-shconf -l 0 \
	--file-prefix="uetframes$$" --log-level='*:warning' \
	--vdev="net_pcap0,tx_pcap=$dir/port.pcap" \
	-- --port net_pcap0 --expect "$dir/f.txt" --count 2
python3 "$compare" --lua "$lua" "$dir/port.pcap" "$dir/f.txt"
