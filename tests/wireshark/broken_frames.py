#!/usr/bin/env python3
"""Broken frames of every kind through tshark and scripts/wireshark/uet.lua.

usage: broken_frames.py --lua SCRIPT [--tshark PATH] [--keep PCAP]

From every well-formed frame of make_frames.py (UET data, trimmed, ACK,
NACK, probe, probe ACK, RUDI, PFC pauses with and without the lockstep
trailer, lockstep control frames) it makes:

  - cut frames: the frame ends inside a header, with the IPv4 and UDP
    lengths telling the truth (only the UET dissector sees the cut), at
    every length. Each must be marked malformed (_ws.malformed) with
    "[Malformed Packet]" in the Info column; a request cut after its PDS
    header, inside the SES header, is a trimmed packet instead ("[trimmed]",
    not malformed);
  - snap-length cuts: the capture kept fewer bytes than were on the wire,
    at every length inside the headers: "[Packet size limited during
    capture]" in the Info column, not malformed;
  - random frames: every byte of each frame replaced at random positions,
    and random payloads of random lengths on each EtherType and on UDP port
    4793: anything may be shown, but never a Lua error.

No frame may raise a Lua error. Exit status: 0 all as expected, 1 a frame
was not, 77 tshark not installed (meson's "skipped").
"""

import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_frames as mf  # noqa: E402

MALFORMED = "[Malformed Packet]"
SNAPLEN = "[Packet size limited during capture]"
TRIMMED = "[trimmed]"

# The frames of make_frames.build() (1-based) whose UDP payload is UET, and
# the UET headers each carries: (PDS header, SES header, SES extension),
# and whether a cut inside its SES header reads as a trimmed request.
UET_FRAMES = {
    1: (16, 44, 0, True),    # RUD_CC_REQ + SES standard, 64 B payload
    3: (32, 12, 0, False),   # ACK_CC + SES response
    4: (16, 0, 0, False),    # NACK
    5: (16, 0, 0, False),    # CP PROBE
    6: (32, 0, 0, False),    # ACK_CC answering the probe
    14: (8, 20, 36, True),   # RUDI_REQ + SES small + compare-and-swap
}
PFC_FRAMES = (7,)            # 802.1Qbb pause: opcode, classes, 8 quanta
PFC_LEN = 20
LOCK_FRAMES = range(8, 14)   # lockstep control frames HELLO .. ABORT
LOCK_HDR = 32


def split_ipv4_udp(frame):
    """(dscp, ecn, sport, UDP payload, trailer arrival or None)."""
    tos = frame[15]
    total = struct.unpack(">H", frame[16:18])[0]
    sport = struct.unpack(">H", frame[34:36])[0]
    payload = frame[42:14 + total]
    rest = frame[14 + total:]
    arrival = None
    if rest[:4] == b"UEVT":
        arrival = struct.unpack(">Q", rest[4:12])[0]
    return tos >> 2, tos & 3, sport, payload, arrival


def cut_data_frame(frame, k, trailer):
    """frame's UET bytes cut to k, with lengths that say so."""
    dscp, ecn, sport, uet, arrival = split_ipv4_udp(frame)
    # The data frames from NIC 1 carry its addresses; which does not matter.
    return mf.data_frame(uet[:k], dscp, ecn, sport,
                         arrival if trailer else None)


def build(rng):
    """[(frame or (bytes, orig_len), expectation, what)]; expectation is
    'malformed', 'trimmed', 'snaplen' or None (only: no Lua error)."""
    base = mf.build()
    out = []
    for n, (pds, ses, ext, trimmable) in UET_FRAMES.items():
        frame = base[n - 1]
        hdr = pds + ses + ext
        for trailer in (False, True):
            for k in range(1, hdr):
                if k < pds or k >= pds + ses or not trimmable:
                    want = "malformed"
                else:
                    want = "trimmed"
                out.append((cut_data_frame(frame, k, trailer), want,
                            f"frame {n} cut to {k} UET bytes"))
        for k in range(1, hdr):
            data = frame[:42 + k]
            out.append(((data, len(frame)), "snaplen",
                        f"frame {n} snap-cut to {k} UET bytes"))
    for n in PFC_FRAMES:
        frame = base[n - 1]
        for k in range(1, PFC_LEN):
            body = frame[14:14 + k]
            out.append((frame[:14] + body, "malformed",
                        f"pause frame {n} cut to {k} bytes"))
            out.append((frame[:14] + body + mf.trailer(5), "malformed",
                        f"pause frame {n} cut to {k} bytes, trailer"))
            out.append(((frame[:14 + k], len(frame)), "snaplen",
                        f"pause frame {n} snap-cut to {k} bytes"))
    for n in LOCK_FRAMES:
        frame = base[n - 1]
        blen = struct.unpack(">H", frame[14 + 28:14 + 30])[0]
        for k in range(1, LOCK_HDR + blen):
            out.append((frame[:14 + k], "malformed",
                        f"lockstep frame {n} cut to {k} bytes"))
            out.append(((frame[:14 + k], len(frame)), "snaplen",
                        f"lockstep frame {n} snap-cut to {k} bytes"))
    for fr in base:
        data, orig = fr if isinstance(fr, tuple) else (fr, len(fr))
        for _ in range(30):
            b = bytearray(data)
            for _ in range(rng.randrange(1, 8)):
                b[rng.randrange(14, len(b))] = rng.randrange(256)
            out.append(((bytes(b), orig), None, "bytes changed"))
    for _ in range(200):
        body = rng.randbytes(rng.randrange(0, 120))
        out.append((mf.data_frame(body, rng.randrange(64), rng.randrange(4),
                                  rng.randrange(65536),
                                  rng.choice((None, 7))), None,
                    "random UET bytes"))
        for et in (0x8808, 0x88B5):
            out.append((mf.MAC_PFC + mf.MAC_SW + struct.pack(">H", et) +
                        body, None, "random bytes"))
    return out


def tshark_lines(tshark, lua, pcap, args):
    cmd = [tshark, "-n", "-X", "lua_script:" + lua, "-r", pcap] + args
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    errors = [l for l in p.stderr.splitlines()
              if l.strip() and not l.startswith("Running as user")]
    if p.returncode != 0 or errors:
        raise RuntimeError("tshark failed: " + " ".join(cmd) + "\n" +
                           "\n".join(errors))
    return p.stdout.splitlines()


def frames_matching(tshark, lua, pcap, flt):
    return {int(l) for l in tshark_lines(tshark, lua, pcap,
                                         ["-Y", flt, "-T", "fields",
                                          "-e", "frame.number"]) if l}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lua", required=True)
    ap.add_argument("--tshark", default="tshark")
    ap.add_argument("--keep", help="also write the pcap here")
    a = ap.parse_args()
    tshark = shutil.which(a.tshark)
    if tshark is None:
        print(f"SKIP: {a.tshark} not found")
        return 77
    cases = build(random.Random(16))
    with tempfile.TemporaryDirectory() as tmp:
        pcap = a.keep or os.path.join(tmp, "broken.pcap")
        mf.write_pcap(pcap, [c[0] for c in cases])
        try:
            info = {}
            for line in tshark_lines(tshark, a.lua, pcap,
                                     ["-T", "fields", "-e", "frame.number",
                                      "-e", "_ws.col.Info"]):
                num, _, text = line.partition("\t")
                info[int(num)] = text
            lua_errors = frames_matching(tshark, a.lua, pcap,
                                         "_ws.lua.error")
            malformed = frames_matching(tshark, a.lua, pcap,
                                        "_ws.malformed")
        except RuntimeError as e:
            print(f"FAIL: {e}")
            return 1
    failures = []
    reasons = {}
    if len(info) != len(cases):
        failures.append(f"tshark decoded {len(info)} of {len(cases)} frames")
    counts = {}
    for i, (_, want, what) in enumerate(cases, 1):
        text = info.get(i, "")
        counts[want] = counts.get(want, 0) + 1
        bad = None
        if i in lua_errors:
            bad = "a Lua error"
        elif want == "malformed" and (i not in malformed or
                                      MALFORMED not in text):
            bad = "no malformed mark"
        elif want == "trimmed" and (i in malformed or TRIMMED not in text):
            bad = "not shown as trimmed"
        elif want == "snaplen" and (i in malformed or SNAPLEN not in text):
            bad = "not shown as cut by the capture"
        if bad:
            reasons[bad] = reasons.get(bad, 0) + 1
            failures.append(f"frame {i} ({what}): {bad}; Info: {text!r}")
    for msg in failures[:40]:
        print("FAIL: " + msg)
    if failures:
        print(f"{len(failures)} of {len(cases)} frames not as expected: " +
              ", ".join(f"{n} {r}" for r, n in sorted(reasons.items())))
        return 1
    print(f"ok: {len(cases)} broken frames, no Lua error; "
          f"{counts.get('malformed', 0)} marked malformed, "
          f"{counts.get('trimmed', 0)} trimmed, "
          f"{counts.get('snaplen', 0)} cut by the capture, "
          f"{counts.get(None, 0)} random")
    return 0


if __name__ == "__main__":
    sys.exit(main())
