#!/usr/bin/env python3
"""Put the frames of a pcap file on an interface once a run is under way.

Waits (up to 120 s) until a UDP frame to port 4793 arrives on IFACE, so
that the switch's port is up and the run has started, then sends every
frame of each PCAP in bursts of 50, 5 ms apart (a faster flood overflows
the far port's af_packet ring), and prints "FILE count" for each.

usage: send-pcap.py IFACE PCAP...
"""
import socket
import struct
import sys
import time

ETH_P_ALL = 0x0003
SOL_PACKET = 263
PACKET_QDISC_BYPASS = 20


def frames(path):
    with open(path, "rb") as f:
        data = f.read()
    if struct.unpack("<I", data[:4])[0] != 0xA1B2C3D4:
        sys.exit("send-pcap: %s: not a little-endian pcap file" % path)
    off = 24
    while off + 16 <= len(data):
        incl = struct.unpack("<I", data[off + 8:off + 12])[0]
        yield data[off + 16:off + 16 + incl]
        off += 16 + incl


iface, paths = sys.argv[1], sys.argv[2:]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(ETH_P_ALL))
s.bind((iface, 0))
s.setsockopt(SOL_PACKET, PACKET_QDISC_BYPASS, 1)
s.settimeout(120.0)
deadline = time.monotonic() + 120
while True:
    fr = s.recv(65536)
    if (len(fr) >= 42 and fr[12:14] == b"\x08\x00" and fr[23] == 17
            and struct.unpack("!H", fr[36:38])[0] == 4793):
        break
    if time.monotonic() > deadline:
        sys.exit("send-pcap: no UET frame on %s" % iface)
for path in paths:
    n = 0
    for fr in frames(path):
        s.send(fr)
        n += 1
        if n % 50 == 0:
            time.sleep(0.005)
    print(path, n, flush=True)
