#!/usr/bin/env bash
# Frames built by lib/wire (through uet-frames) decode in tshark with the
# project's dissector to exactly the fields they were built with.
# usage: decode.sh UET-FRAMES LUA COMPARE_FIELDS [uet-frames options...]
set -euo pipefail
frames=$1 lua=$2 compare=$3
shift 3
dir=$(mktemp -d /tmp/uet-frames-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
"$frames" --pcap "$dir/f.pcap" --expect "$dir/f.txt" "$@"
python3 "$compare" --lua "$lua" "$dir/f.pcap" "$dir/f.txt"
