#!/usr/bin/env python3
"""Write a pcap of uetemu frames the XDP2 vectors do not cover.

The frames (in this order) are the ones tests/wireshark/expected/frames.txt
describes field by field:

  1  data packet: RUD_CC_REQ (AR, SYN) + SES standard SOM=1 + 64 B payload,
     IPv4 DSCP 1 ECN 01 TTL 255 DF, UDP 0x1234 -> 4793 csum 0, lockstep trailer
  2  trimmed packet: the same PDC, IPv4 total length 44, DSCP 9, trailer
  3  ACK_CC with NSCC state and a SES response, DSCP 8, trailer
  4  NACK code 0x02 (UET_TRIMMED_LASTHOP), M set, DSCP 8, trailer
  5  CP PROBE, DSCP 8, trailer
  6  ACK_CC answering the probe (P set, probe_opaque echoed), trailer
  7  802.1Qbb PFC pause (opcode 0x0101, class 1 paused for 0xffff quanta)
  8-13  lockstep control frames HELLO, WELCOME, GRANT, DONE, BYE, ABORT
  14 RUDI_REQ carrying a small request with a CSWAP extension, no trailer
  15 UUD_REQ cut short by the capture's snap length (a really truncated frame)
  16 PFC pause as lockstep sends it: class 0 XOFF, padded to 60, then the
     trailer
  17 lockstep HELLO with flags bit 0 set (the port takes the window notes)
  18 lockstep NOTES of the window ending at 800000 ps, 11 opaque bytes

Everything is built with struct; the pcap uses the nanosecond magic, as the
emulator's captures do. Usage: make_frames.py [--odd] OUTPUT.pcap

With --odd it writes instead a seeded set of short and nonsensical frames
(every PDS type with random bytes at many lengths, lockstep control frames
with wrong lengths, types and magic, trailers that are not ours, captures
cut by the snap length) that the dissector must decode without one error.
"""

import random
import struct
import sys

MAC_NIC0 = bytes.fromhex("020000000001")
MAC_NIC1 = bytes.fromhex("020000000002")
MAC_SW = bytes.fromhex("0200000000fe")
MAC_PFC = bytes.fromhex("0180c2000001")
IP_NIC0 = bytes([198, 18, 0, 1])
IP_NIC1 = bytes([198, 18, 0, 2])
UET_PORT = 4793

# Timestamps in ns since the epoch: virtual time starts at 0, so a capture
# of the emulator shows 1970-01-01 plus the virtual time.
T0_NS = 1_000_000_123


def ipv4_checksum(hdr):
    s = 0
    for i in range(0, len(hdr), 2):
        s += (hdr[i] << 8) | hdr[i + 1]
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return (~s) & 0xFFFF


def ipv4(payload, dscp, ecn, ttl=255, df=True, proto=17, src=IP_NIC0,
         dst=IP_NIC1, ident=0):
    total = 20 + len(payload)
    hdr = bytearray(struct.pack(">BBHHHBBH4s4s", 0x45, (dscp << 2) | ecn,
                                total, ident, 0x4000 if df else 0, ttl,
                                proto, 0, src, dst))
    struct.pack_into(">H", hdr, 10, ipv4_checksum(hdr))
    return bytes(hdr) + payload


def udp(payload, sport, dport=UET_PORT):
    return struct.pack(">HHHH", sport, dport, 8 + len(payload), 0) + payload


def pad60(frame):
    """Pad to the 60-byte Ethernet minimum (the FCS is not captured)."""
    return frame + bytes(max(0, 60 - len(frame)))


def eth(dst, src, ethertype, payload):
    return pad60(dst + src + struct.pack(">H", ethertype) + payload)


def trailer(arrival_ps):
    return b"UEVT" + struct.pack(">Q", arrival_ps)


def prologue(pds_type, nh, flags):
    return struct.pack(">H", (pds_type << 11) | (nh << 7) | flags)


def rud_cc_req(nh, flags, clear_off, psn, spdcid, dpdcid_or_overlay,
               ccc_id, credit_target):
    return (prologue(13, nh, flags) +
            struct.pack(">hIHH", clear_off, psn, spdcid, dpdcid_or_overlay) +
            struct.pack(">I", (ccc_id << 24) | credit_target))


def ses_std_som1(opcode, flags, msg_id, ri_gen, job_id, pid, ri, buf_off,
                 initiator, mkey, header_data, req_len):
    return (struct.pack(">BBHI", opcode, flags, msg_id,
                        (ri_gen << 24) | job_id) +
            struct.pack(">HHQIQQI", pid, ri, buf_off, initiator, mkey,
                        header_data, req_len))


def ses_response(lst, opcode, rc, msg_id, ri_gen, job_id, mod_len):
    return struct.pack(">BBHII", (lst << 6) | opcode, rc, msg_id,
                       (ri_gen << 24) | job_id, mod_len)


def ack_cc_nscc(nh, flags, ack_off, cack, spdcid, dpdcid, cc_flags, mpr,
                sack_off, bitmap, service_time, restore, pend, rcvd, ooo):
    return (prologue(8, nh, flags) +
            struct.pack(">hIHH", ack_off, cack, spdcid, dpdcid) +
            struct.pack(">BBhQ", (0 << 4) | cc_flags, mpr, sack_off, bitmap) +
            struct.pack(">HB", service_time, (restore << 7) | pend) +
            struct.pack(">I", rcvd)[1:] + struct.pack(">H", ooo))


def control_frame(ftype, nic_id, run_id, nonce, seq, body, dst, src):
    hdr = b"UECT" + struct.pack(">BBHQQIHH", 1, ftype, nic_id, run_id, nonce,
                                seq, len(body), 0)
    return eth(dst, src, 0x88B5, hdr + body)


def data_frame(pds_ses, dscp, ecn, sport, arrival_ps, src=IP_NIC0,
               dst=IP_NIC1, smac=MAC_NIC0, dmac=MAC_SW):
    ip = ipv4(udp(pds_ses, sport), dscp, ecn, src=src, dst=dst)
    frame = dmac + smac + struct.pack(">H", 0x0800) + ip
    if arrival_ps is not None:
        frame += trailer(arrival_ps)   # right after the IP datagram
    return pad60(frame)


def build():
    frames = []
    payload = bytes(range(64))
    ses = ses_std_som1(0x05, 0x09, 0x0007, 0x00, 0x000042, 0x001, 0x002,
                       0x0, 0x00000001, 0x0000000000000ABC,
                       0x1122334455667788, 16384)
    # 1: PDS RUD_CC_REQ, AR|SYN, clear_psn_offset -2, SYN overlay psn_offset 5
    pds = rud_cc_req(3, 0x0C, -2, 0x00010005, 0x0011, 0x0005, 0x03, 0x000100)
    frames.append(data_frame(pds + ses + payload, 1, 1, 0x1234,
                             123_456_789_012))
    # 2: trimmed at the switch: only the 16-B PDS header is left (44 B IP)
    pds = rud_cc_req(3, 0x08, 0, 0x00010006, 0x0011, 0x0101, 0x03, 0x000100)
    frames.append(data_frame(pds, 9, 1, 0x1235, 123_456_800_000))
    # 3: ACK_CC, NSCC state, SES DEFAULT_RESPONSE OK
    ack = ack_cc_nscc(4, 0x00, 2, 0x00010005, 0x0101, 0x0011, 0x0, 1, 1,
                      0x0000000000000005, 0x0021, 0, 3, 0x004100, 2)
    rsp = ses_response(0, 0, 0x01, 0x0007, 0x00, 0x000042, 16384)
    frames.append(data_frame(ack + rsp, 8, 0, 0x4321, 123_457_000_000,
                             src=IP_NIC1, dst=IP_NIC0, smac=MAC_NIC1))
    # 4: NACK UET_TRIMMED_LASTHOP, M flag (the trimmed packet was CE-marked)
    nack = (prologue(10, 0, 0x20) +
            struct.pack(">BBIHHI", 0x02, 0x00, 0x00010006, 0x0101, 0x0011,
                        0x00010007))
    frames.append(data_frame(nack, 8, 0, 0x4322, 123_457_100_000,
                             src=IP_NIC1, dst=IP_NIC0, smac=MAC_NIC1))
    # 5: CP PROBE, AR, probe_opaque 0xbeef, payload = SACK base PSN
    cp = (prologue(11, 6, 0x08) +
          struct.pack(">HIHHI", 0xBEEF, 0x00010007, 0x0011, 0x0101,
                      0x00010000))
    frames.append(data_frame(cp, 8, 0, 0x1236, 123_457_200_000))
    # 6: ACK_CC with P set echoing the probe's opaque value
    ack = ack_cc_nscc(0, 0x08, -0x4111, 0x00010007, 0x0101, 0x0011, 0x0, 1,
                      0, 0x0, 0x0003, 1, 0, 0x000000, 0)
    frames.append(data_frame(ack, 8, 0, 0x4323, 123_457_300_000,
                             src=IP_NIC1, dst=IP_NIC0, smac=MAC_NIC1))
    # 7: PFC: opcode 0x0101, class-enable vector 0x0002, quanta for 8 classes
    pfc = struct.pack(">HH8H", 0x0101, 0x0002, 0, 0xFFFF, 0, 0, 0, 0, 0, 0)
    frames.append(eth(MAC_PFC, MAC_SW, 0x8808, pfc))
    # 8-13: lockstep control frames
    run_id = 0x0123456789ABCDEF
    nonce = 0xFEEDFACECAFEBEEF
    scen = 0x5CE7A510AB12CD34
    frames.append(control_frame(
        1, 1, 0, 0, 0,
        struct.pack(">Q4s6sH", scen, IP_NIC0, MAC_NIC0, 0), MAC_SW, MAC_NIC0))
    frames.append(control_frame(
        2, 1, run_id, nonce, 0,
        struct.pack(">QQQ", scen, 800_000, 0), MAC_NIC0, MAC_SW))
    frames.append(control_frame(
        3, 1, run_id, nonce, 1,
        struct.pack(">QQII", 0, 800_000, 3, 0), MAC_NIC0, MAC_SW))
    frames.append(control_frame(
        4, 1, run_id, nonce, 1,
        struct.pack(">QQII", 800_000, 0xFFFFFFFFFFFFFFFF, 2, 0), MAC_SW,
        MAC_NIC0))
    frames.append(control_frame(
        5, 1, run_id, nonce, 2, struct.pack(">Q", 5_000_000_000), MAC_SW,
        MAC_NIC0))
    text = "NIC 1 lost 3 data frames in window 7".encode()
    frames.append(control_frame(
        6, 1, run_id, nonce, 3, struct.pack(">IHH", 4, len(text), 0) + text,
        MAC_NIC0, MAC_SW))
    # 14: RUDI_REQ + SES small request (ATOMIC) + CSWAP extension (36 B)
    rudi = prologue(4, 1, 0x10) + struct.pack(">HI", 0, 0x00C0FFEE)
    small = (struct.pack(">BBHI", 0x03, 0x03, 0x0010, (0x05 << 24) | 0x42) +
             struct.pack(">HHQ", 0x0003, 0x0004, 0x1000))
    cswap = (struct.pack(">BBBB", 0x0D, 0x07, 0x00, 0x00) +
             bytes(range(16)) + bytes(range(16, 32)))
    frames.append(data_frame(rudi + small + cswap, 1, 2, 0x1237, None))
    # 15: UUD_REQ + SES std header, cut by the capture's snap length
    uud = prologue(6, 3, 0) + struct.pack(">H", 0)
    ses = ses_std_som1(0x07, 0x03, 0x0000, 0x00, 0x000042, 0x001, 0x002,
                       0x0, 0x00000001, 0x0, 0x0, 128)
    full = data_frame(uud + ses + bytes(128), 1, 0, 0x1238, None)
    frames.append((full[:70], len(full)))
    # 16: PFC XOFF for class 0 with the lockstep trailer after the padding
    pfc0 = struct.pack(">HH8H", 0x0101, 0x0001, 0xFFFF, 0, 0, 0, 0, 0, 0, 0)
    frames.append(eth(MAC_PFC, MAC_SW, 0x8808, pfc0) +
                  trailer(123_457_400_000))
    # 17: HELLO of NIC 2 asking for the window notes (flags bit 0)
    frames.append(control_frame(
        1, 2, 0, 0, 0,
        struct.pack(">Q4s6sH", scen, IP_NIC1, MAC_NIC1, 0x0001), MAC_SW,
        MAC_NIC1))
    # 18: NOTES of the window ending at 800000 ps: window_end, len,
    # reserved 6, then the bytes (opaque to the protocol)
    notes = b"nic1 w800ns"
    frames.append(control_frame(
        7, 1, run_id, nonce, 2,
        struct.pack(">QH6x", 800_000, len(notes)) + notes, MAC_SW, MAC_NIC0))
    return frames


ODD_LENGTHS = (0, 1, 2, 3, 4, 5, 7, 8, 11, 12, 13, 15, 16, 17, 20, 23, 24,
               31, 32, 33, 39, 40, 44, 47, 56, 60, 64, 80, 100)


def build_odd():
    rng = random.Random(4793)
    frames = []
    for ptype in range(32):
        for n in ODD_LENGTHS:
            body = bytearray(rng.randbytes(n))
            if n >= 1:
                body[0] = (ptype << 3) | (body[0] & 0x07)
            frames.append(data_frame(bytes(body), rng.randrange(64),
                                     rng.randrange(4), 0x1000 + n,
                                     rng.choice((None, rng.getrandbits(64)))))
    for ltype in range(9):
        for blen in (0, 1, 8, 19, 20, 24, 30, 44, 300):
            for cut in (0, 10, 31, 40):
                body = rng.randbytes(max(0, blen - cut))
                hdr = b"UECT" + struct.pack(">BBHQQIHH", 1, ltype, 1, 2, 3, 4,
                                            blen, 0)
                if cut:     # body shorter than body_len, no padding
                    frames.append(MAC_NIC0 + MAC_SW + b"\x88\xb5" + hdr + body)
                else:
                    frames.append(eth(MAC_NIC0, MAC_SW, 0x88B5, hdr + body))
    for n in range(0, 40, 3):   # control frames shorter than the header
        frames.append(eth(MAC_NIC0, MAC_SW, 0x88B5,
                          rng.choice((b"UECT", b"XXXX")) + rng.randbytes(n)))
    abort = (b"UECT" + struct.pack(">BBHQQIHH", 2, 6, 1, 2, 3, 4, 8 + 250, 0) +
             struct.pack(">IHH", 9, 250, 0) + bytes([0xff, 0xfe]) * 125)
    frames.append(eth(MAC_NIC0, MAC_SW, 0x88B5, abort))
    for tr in (b"UEV", b"UEVT", b"UEVT1234", b"UEVX12345678",
               b"UEVT" + bytes(8) + b"xx", bytes(12)):   # trailers not ours
        frames.append(data_frame(bytes(16), 1, 0, 0x2000, None) + tr)
    # snap-length cuts of the well-formed frames at every length
    for fr in build():
        data, orig = (fr if isinstance(fr, tuple) else (fr, len(fr)))
        for cut in range(14, len(data), 5):
            frames.append((data[:cut], orig))
    return frames


def write_pcap(path, frames):
    with open(path, "wb") as f:
        # nanosecond-resolution pcap, snaplen 65535, Ethernet
        f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1))
        for i, fr in enumerate(frames):
            data, orig = (fr if isinstance(fr, tuple) else (fr, len(fr)))
            t = T0_NS + i * 1_000_001
            f.write(struct.pack("<IIII", t // 1_000_000_000,
                                t % 1_000_000_000, len(data), orig))
            f.write(data)


if __name__ == "__main__":
    args = sys.argv[1:]
    odd = args[:1] == ["--odd"]
    if odd:
        args = args[1:]
    if len(args) != 1:
        sys.exit("usage: make_frames.py [--odd] OUTPUT.pcap")
    write_pcap(args[0], build_odd() if odd else build())
