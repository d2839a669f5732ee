#!/usr/bin/env python3
"""Put foreign and broken frames on a veth while a lockstep run is under way.

Waits until a lockstep control frame of the given type (GRANT from the
switch, DONE from a NIC) arrives on IFACE, so that the far port has been
opened and drained, then sends one batch of frames that are not of the run
and a paced flood of UDP frames without a trailer, and prints how many of
each kind it sent ("kind count"). The socket bypasses the qdisc, so the
frames reach only the far end of the veth, not the port on this end.

usage: inject-foreign.py IFACE grant|done FLOOD
"""
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
ETH_LOCKSTEP = 0x88B5
SOL_PACKET = 263
PACKET_QDISC_BYPASS = 20
LS_TYPES = {"hello": 1, "welcome": 2, "grant": 3, "done": 4}

iface, wait_for, flood = sys.argv[1], sys.argv[2], int(sys.argv[3])

s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
s.bind((iface, 0))
s.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
s.settimeout(60.0)

# Lockstep control frames (docs/lockstep-frames.md): EtherType 0x88B5,
# then "UECT", version 1, type, nic id (16), run id (64), nonce (64),
# seq (32), body length (16), reserved (16), the body.
deadline = time.monotonic() + 120
while True:
    frame = s.recv(65536)
    if (len(frame) >= 46 and struct.unpack("!H", frame[12:14])[0] == ETH_LOCKSTEP
            and frame[14 + 5] == LS_TYPES[wait_for]):
        break
    if time.monotonic() > deadline:
        sys.exit("inject-foreign: no %s on %s" % (wait_for, iface))
hdr = frame[14:]

dst = b"\x02\x00\x00\x00\xff\xff"
src = b"\x02\x00\x00\x00\x99\x99"


def eth(ethertype, payload):
    f = dst + src + struct.pack("!H", ethertype) + payload
    return f + b"\0" * max(0, 60 - len(f))


def ipv4_udp(total_len=None, payload=b"\x00" * 16):
    udp = struct.pack("!HHHH", 0xC000, 4793, 8 + len(payload), 0) + payload
    tl = 20 + len(udp) if total_len is None else total_len
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, tl, 0, 0, 64, 17, 0,
                     bytes([198, 18, 0, 9]), bytes([198, 18, 0, 1]))
    # A good header checksum: a bad one makes the frame broken, not
    # merely foreign.
    c = sum(struct.unpack("!10H", ip))
    c = (c & 0xFFFF) + (c >> 16)
    c = (c & 0xFFFF) + (c >> 16)
    ip = ip[:10] + struct.pack("!H", ~c & 0xFFFF) + ip[12:]
    return ip + udp


def ctrl(ls_type, nic_id, run_id, nonce, seq, body):
    return eth(ETH_LOCKSTEP, b"UECT" + struct.pack(
        "!BBHQQIHH", 1, ls_type, nic_id, run_id, nonce, seq, len(body), 0)
        + body)


sent = {"no_trailer": 0, "truncated": 0, "ethertype": 0, "stale": 0}


def send(kind, f):
    s.send(f)
    sent[kind] += 1


# A foreign UET stack's frame: IPv4, UDP to 4793, no trailer.
send("no_trailer", eth(0x0800, ipv4_udp()))
# Cut short: an Ethernet header alone; an IPv4 total length past the
# frame; a lockstep control header cut after 6 bytes.
send("truncated", dst + src + struct.pack("!H", 0x0800))
send("truncated", eth(0x0800, ipv4_udp(total_len=900))[:60])
send("truncated", (dst + src + struct.pack("!H", ETH_LOCKSTEP) + hdr[:6]))
# Other EtherTypes: ARP-typed garbage, and one that ends like a trailer
# ("UEVT" and a time).
send("ethertype", eth(0x0806, b"\x00" * 28))
send("ethertype", eth(0x1234, b"\x00" * 34 + b"UEVT" + struct.pack("!Q", 5000)))
# Control frames of another run: the header of the frame seen, with
# another run id and nonce; and, toward the switch, a HELLO of a NIC of
# another run.
nic_id = struct.unpack("!H", hdr[6:8])[0]
body = frame[14 + 32:14 + 32 + 24]
send("stale", ctrl(4 if wait_for == "grant" else 3, nic_id,
                   0x5151515151515151, 0x0BADC0DE0BADC0DE, 7, body))
if wait_for == "grant":
    hello = struct.pack("!QI6sH", 0x1111, 0xC6120001,
                        b"\x02\x00\x00\x00\x00\x01", 0)
    send("stale", ctrl(1, nic_id, 0, 0, 0, hello))
# The flood: bursts the port drains between them (a faster one overflows
# the af_packet ring and takes the run's own frames with it).
for k in range(flood):
    send("no_trailer", eth(0x0800, ipv4_udp(payload=struct.pack("!I", k) * 4)))
    if k % 50 == 49:
        time.sleep(0.005)
for kind, n in sent.items():
    print(kind, n)
