#!/usr/bin/env bash
# Link failures on the leaf-spine permutation with single-path load
# balancing (examples/leaf-spine-perm-degraded.yaml: each flow keeps one
# entropy, so one path). Which flows cross the failed link is worked out
# from the entropies each sender used (uet-monitor.csv) and the fabric's
# own routing (fabric-path), never assumed.
#  - degrade: leaf0-spine2 at 25% (100 Gbps) from the start. The flows
#    that cross it complete no sooner than their bytes take at 100 Gbps
#    (1,075,836 wire bytes: 86,066,880 ps) and at least 3 times later than
#    without the failure; every other flow within 2% of its time without
#    it. The record shows the link at 100 Gbps and its enqueued bytes are
#    the bytes the crossing senders sent.
#  - reroute: leaf0-spine2 goes down at 10 us (on_link_down: reroute).
#    Every message completes, every byte arrives; the frames the link held
#    are lost and counted (switch-stats down_drop_frames > 0): the data
#    frames lost (TC0) are exactly those the flows whose data crosses the
#    link sent and never got, the ACKs lost (TC2) those the flows whose
#    ACKs cross it sent back and never got; no other flow lost anything.
#  - blackhole: the same with on_link_down: blackhole and a 2 ms run. The
#    flows whose data or ACKs cross the link never complete (the
#    entropies, so the paths, stay), the others do; the same accounting.
# usage: link-failure.sh UET-EMU FABRIC-PATH SCENARIO degrade|reroute|blackhole
set -euo pipefail
emu=$1 path=$2 scenario=$3 mode=$4
link=leaf0-spine2
# shellcheck source=SCRIPTDIR/../common/emu.sh
. "$(dirname "$0")/../common/emu.sh"
emu_tmpdir linkfail

# The scenario without its failure (the baseline) and the mode's variant.
sed '/^  failures:/,/^    - {link/d' "$scenario" >"$dir/base.yaml"
case $mode in
degrade) cp "$scenario" "$dir/run.yaml" ;;
reroute | blackhole)
	sed -e "s/^  on_link_down: .*/  on_link_down: $mode/" \
	    -e "s/^    - {link: $link, .*/    - {link: $link, at: 10us, down: true}/" \
	    -e "s/^  end: .*/  end: 2ms/" "$scenario" >"$dir/run.yaml" ;;
*) fail "unknown mode $mode" ;;
esac
grep -q "link: $link" "$dir/run.yaml" || fail "no failure of $link in the scenario"

run() { # yaml out [may-stall]
	local rc=0
	"$emu" --out "$2" "$1" 2>"$2.log" || rc=$?
	[ "$rc" -eq 0 ] || [ -n "${3:-}" ] || { cat "$2.log"; fail "uet-emu exited $rc"; }
}
run "$dir/base.yaml" "$dir/base"
run "$dir/run.yaml" "$dir/run" "$([ "$mode" = blackhole ] && echo stall)"
grep -v uplink "$dir/run.log"
[ "$(summary "$dir/base" completed)" -eq 8 ] || fail "baseline incomplete"

# Host index of a default address (198.18.0.1 is host 0).
host() { awk -F. '{ print ($3 * 256 + $4) - 1 }' <<<"$1"; }

# The one entropy a NIC used for packets of a kind (single-path: one per
# group, and each NIC here talks to one peer).
entropy() { # ip pkt
	local e
	e=$(awk -F, -v ip="$1" -v k="$2" '$2 == ip && $4 == "tx" && $5 == k { print $10 }' \
		"$dir/run/uet-monitor.csv" | sort -u)
	[ "$(echo "$e" | wc -l)" -eq 1 ] && [ -n "$e" ] ||
		fail "$1 sent its $2 packets on entropies '$e', not one"
	echo "$e"
}
crosses() { # src-host dst-host entropy -> 0/1, printing the path
	local links
	links=$(echo "$1 $2 $3" | "$path" "$dir/run.yaml")
	echo "  $links" >&2
	case " $links " in *" $link "*) echo 1 ;; *) echo 0 ;; esac
}
# Each flow: its data path, and the path of its ACKs back.
: >"$dir/flows"
while IFS=, read -r id src dst _; do
	s=$(host "$src") d=$(host "$dst")
	echo "message $id:" >&2
	cd_=$(crosses "$s" "$d" "$(entropy "$src" data)")
	ca=$(crosses "$d" "$s" "$(entropy "$dst" ack)")
	echo "$id $src $dst $cd_ $ca" >>"$dir/flows"
done < <(tail -n +2 "$dir/base/flows.csv" | cut -d, -f1-3)
ncross=$(awk '$4 == 1' "$dir/flows" | wc -l)
[ "$ncross" -ge 1 ] && [ "$ncross" -lt 8 ] || fail "$ncross flows cross $link: need some, not all"

fct() { # out msg_id -> fct_ps or empty
	awk -F, -v id="$2" 'NR > 1 && $1 == id { print $12 }' "$1/flows.csv"
}
# Packets of a kind a NIC sent or received (retransmissions too).
count() { # ip tx|rx pkt
	awk -F, -v ip="$1" -v d="$2" -v k="$3" '$2 == ip && $4 == d && $5 == k' \
		"$dir/run/uet-monitor.csv" | wc -l
}
# switch-stats.csv column of the port switch:link, one class or all.
stat() { # switch link column-name [tc]
	awk -F, -v sw="$1" -v l="$2" -v c="$3" -v tc="${4:-}" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$2 == sw && $4 == l && (tc == "" || $8 == tc) { s += $col[c] }
		END { print s + 0 }' "$dir/run/switch-stats.csv"
}
spine=${link#*-}

case $mode in
degrade)
	[ "$(summary "$dir/run" messages)" -eq 8 ] || fail "not 8 messages"
	summary_intact "$dir/run" 2048
	rate=$(awk -F, -v l="$link" '$2 == "leaf0" && $4 == l && $8 == 0 { print $7 }' \
		"$dir/run/switch-stats.csv")
	[ "$rate" = 100000000000 ] || fail "$link at $rate bps in the record, not 100 Gbps"
	crossed_bytes=0
	while read -r id src dst cross cross_ack; do
		b=$(fct "$dir/base" "$id") r=$(fct "$dir/run" "$id")
		if [ "$cross" -eq 1 ]; then
			echo "message $id (on $link): $r ps, $(awk -v r="$r" -v b="$b" 'BEGIN { printf "%.2f", r / b }') x $b"
			[ "$r" -ge 86066880 ] || fail "message $id done in $r ps, faster than 100 Gbps allows"
			[ "$r" -ge $((3 * b)) ] || fail "message $id: $r ps, not 3 x $b"
			crossed_bytes=$((crossed_bytes + $(awk -F, -v ip="$src" \
				'$2 == ip && $4 == "tx" { s += $11 } END { print s + 0 }' \
				"$dir/run/uet-monitor.csv")))
		else
			awk -v r="$r" -v b="$b" -v id="$id" 'BEGIN {
				d = (r - b) / b; if (d < 0) d = -d
				printf "message %d: %d ps, %.3f%% from %d\n", id, r, 100 * d, b
				exit d > 0.02 }' || fail "message $id off its undegraded time by more than 2%"
		fi
	done <"$dir/flows"
	enq=$(stat leaf0 "$link" enq_bytes)
	echo "leaf0:$link enqueued $enq bytes; its senders sent $crossed_bytes"
	[ "$enq" -eq "$crossed_bytes" ] || fail "enqueued $enq != sent $crossed_bytes"
	;;
reroute | blackhole)
	# Data is TC0 and ACKs TC2 under the UET policy; a frame is lost at
	# the end it was queued at or arriving over the link.
	lost_data=$(( $(stat leaf0 "$link" down_drop_frames 0) +
		$(stat "$spine" "$link" down_drop_frames 0) ))
	lost_acks=$(( $(stat leaf0 "$link" down_drop_frames 2) +
		$(stat "$spine" "$link" down_drop_frames 2) ))
	echo "lost to $link: $lost_data data frames, $lost_acks ACKs"
	[ $((lost_data + lost_acks)) -gt 0 ] || fail "no frame was lost when $link went down"
	sum_data=0 sum_acks=0
	while read -r id src dst cross cross_ack; do
		r=$(fct "$dir/run" "$id")
		sd=$(count "$src" tx data) gd=$(count "$dst" rx data)
		sa=$(count "$dst" tx ack) ga=$(count "$src" rx ack)
		echo "message $id (data/ACKs cross: $cross/$cross_ack): fct ${r:-never}," \
			"data $sd sent $gd arrived, ACKs $sa sent $ga arrived"
		if [ "$cross" -eq 1 ]; then
			sum_data=$((sum_data + sd - gd))
		else
			[ "$sd" -eq "$gd" ] || fail "message $id lost data off $link"
		fi
		if [ "$cross_ack" -eq 1 ]; then
			sum_acks=$((sum_acks + sa - ga))
		else
			[ "$sa" -eq "$ga" ] || fail "message $id lost ACKs off $link"
		fi
		if [ "$mode" = reroute ] || [ $((cross + cross_ack)) -eq 0 ]; then
			[ -n "$r" ] || fail "message $id did not complete"
		else
			[ -z "$r" ] || fail "message $id completed through a blackhole"
		fi
	done <"$dir/flows"
	[ "$sum_data" -eq "$lost_data" ] || fail "senders lost $sum_data data frames, the record $lost_data"
	[ "$sum_acks" -eq "$lost_acks" ] || fail "receivers lost $sum_acks ACKs, the record $lost_acks"
	if [ "$mode" = reroute ]; then
		[ "$(summary "$dir/run" messages)" -eq 8 ] || fail "not 8 messages"
		summary_intact "$dir/run" 2048
	else
		stalled=$(awk '$4 + $5 > 0' "$dir/flows" | wc -l)
		[ "$(summary "$dir/run" completed)" -eq $((8 - stalled)) ] ||
			fail "$(summary "$dir/run" completed) messages completed, expected $((8 - stalled))"
	fi
	;;
esac
echo "ok: $mode"
