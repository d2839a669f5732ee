# shellcheck shell=bash
# Sourced by the ports tests that inject frames: wait_launch_links LOG
# waits (10 s at most each) for uet-launch to print its tag into LOG and
# for the links s1 (switch side) and n0 (host 0's side) to exist in its
# namespaces; sets tag, or fails the test.
wait_launch_links() {
	local log=$1
	tag=
	for _ in $(seq 100); do
		tag=$(sed -n 's/^uet-launch: tag \(uet[0-9]*\)$/\1/p' "$log")
		[ -n "$tag" ] && ip netns list | grep -q "^$tag-n0" && break
		sleep 0.1
	done
	[ -n "$tag" ] || { cat "$log"; echo "FAIL: no tag"; exit 1; }
	for _ in $(seq 100); do
		ip -n "$tag-sw" link show s1 >/dev/null 2>&1 &&
			ip -n "$tag-n0" link show n0 >/dev/null 2>&1 && break
		sleep 0.1
	done
}
