#!/usr/bin/env python3
"""Put frames that are not of the run on a veth while a realtime run is
under way.

Waits until a UET frame (IPv4, UDP to 4793) crosses IFACE, so that the run
has started and the far port is being polled, then sends one batch: three
frames cut short, two of other EtherTypes, one lockstep control frame and
one sound IPv4 frame of another protocol (UDP to port 9) addressed to
OTHER_DST. It prints how many of each kind it sent ("kind count"), under
the names of uet-ports.csv and, for the last, "other_frames" (a port
passes it on; the NIC it is addressed to drops it). The socket bypasses
the qdisc, so the frames reach only the far end of the veth.

usage: inject-realtime.py IFACE OTHER_DST
"""
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_LOCKSTEP = 0x88B5
SOL_PACKET = 263
PACKET_QDISC_BYPASS = 20
UET_PORT = 4793

iface, other_dst = sys.argv[1], socket.inet_aton(sys.argv[2])

s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
s.bind((iface, 0))
s.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
s.settimeout(60.0)

deadline = time.monotonic() + 120
while True:
    frame = s.recv(65536)
    if (len(frame) >= 42 and struct.unpack("!H", frame[12:14])[0] == 0x0800
            and frame[23] == 17
            and struct.unpack("!H", frame[36:38])[0] == UET_PORT):
        break
    if time.monotonic() > deadline:
        sys.exit("inject-realtime: no UET frame on %s" % iface)

dst = b"\x02\x00\x00\x00\xff\xff"
src = b"\x02\x00\x00\x00\x99\x99"


def eth(ethertype, payload):
    f = dst + src + struct.pack("!H", ethertype) + payload
    return f + b"\0" * max(0, 60 - len(f))


def ipv4_udp(dport, to, total_len=None, payload=b"\x00" * 16, good=True):
    udp = struct.pack("!HHHH", 0xC000, dport, 8 + len(payload), 0) + payload
    tl = 20 + len(udp) if total_len is None else total_len
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tl, 0, 0, 64, 17, 0,
                     bytes([198, 18, 0, 9]), to)
    c = sum(struct.unpack("!10H", ip))
    c = (c & 0xFFFF) + (c >> 16)
    c = (c & 0xFFFF) + (c >> 16)
    ip = ip[:10] + struct.pack("!H", (~c if good else ~c + 1) & 0xFFFF) + ip[12:]
    return ip + udp


sent = {"no_trailer": 0, "truncated": 0, "ethertype": 0, "stale": 0,
        "other_frames": 0}


def send(kind, f):
    s.send(f)
    sent[kind] += 1


# Cut short: an Ethernet header alone; an IPv4 total length past the
# frame; a header checksum one off.
send("truncated", dst + src + struct.pack("!H", 0x0800))
send("truncated", eth(0x0800, ipv4_udp(UET_PORT, other_dst, total_len=900)))
send("truncated", eth(0x0800, ipv4_udp(UET_PORT, other_dst, good=False)))
# Other EtherTypes: ARP-typed garbage, an IPv6-typed one.
send("ethertype", eth(0x0806, b"\x00" * 28))
send("ethertype", eth(0x86DD, b"\x60" + b"\x00" * 39))
# A lockstep control frame (a peer in lockstep mode): "UECT", version 1,
# GRANT, nic 0, run id, nonce, seq, no body.
send("stale", eth(ETH_LOCKSTEP, b"UECT" + struct.pack(
    "!BBHQQIHH", 1, 3, 0, 0x5151515151515151, 0x0BADC0DE0BADC0DE, 1, 0, 0)))
# Sound IPv4 of another protocol: the port passes it on.
send("other_frames", eth(0x0800, ipv4_udp(9, other_dst)))
for kind, n in sent.items():
    print(kind, n)
