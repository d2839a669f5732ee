#!/usr/bin/env python3
"""Decode a pcap with tshark and a Lua dissector; compare fields per frame.

usage: compare_fields.py --lua SCRIPT [--lua SCRIPT...] PCAP EXPECTED
                         [--tshark PATH]

EXPECTED is a text file of blocks, one or more per frame:

    # comment
    count 19                     # the pcap must hold exactly 19 frames
    frame 1-8, 17                # the lines below apply to these frames
    uet.pds.type = 2             # any field tshark knows
    uet.ses.std.opcode = 0x02    # integers compare by value (0x.., decimal)
    uet.pds.flags.syn = 0        # booleans: 0/1 (True/False also accepted)
    uetlock.magic = "UECT"       # quotes optional; compared as text
    uet.pds.dpdcid = <absent>    # the field must not be in the frame
    _ws.expert.message = a|b     # several occurrences, in tshark's order
    malformed                    # these frames end inside a header

Later blocks for the same frame add fields or override earlier values. A
field tshark does not know at all passes as <absent> and fails otherwise.
Every field of every frame is checked; a mismatch is reported as
"frame N: FIELD: expected X, got Y". The pcap must decode with no Lua error,
and with no malformed frame (_ws.malformed) and no error-severity expert
item but on the frames a "malformed" line names, which must have both (a
line "malformed any" before the first "frame" lets any frame be malformed
or not). Exit status: 0 all good, 1 a mismatch, 2 bad usage or input, 77
tshark not installed (meson's "skipped").
"""

import argparse
import csv
import io
import re
import shutil
import subprocess
import sys

ABSENT = "<absent>"
AGGREGATOR = "|"


class ExpectedError(Exception):
    pass


def parse_frames(spec, lineno):
    frames = []
    for part in spec.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if not m:
            raise ExpectedError(f"line {lineno}: bad frame list '{spec}'")
        lo = int(m.group(1))
        hi = int(m.group(2) or lo)
        frames.extend(range(lo, hi + 1))
    return frames


def parse_expected(path):
    """Returns (count or None, {frame: {field: value}}, [fields in order],
    frames that must be malformed, or None when any may be)."""
    count = None
    expect = {}
    fields = []
    malformed = set()
    current = None
    with open(path, encoding="utf-8") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split(" #", 1)[0].strip()
            if not line or line.startswith("#"):
                continue
            m = re.fullmatch(r"count\s+(\d+)", line)
            if m:
                count = int(m.group(1))
                continue
            m = re.fullmatch(r"frames?\s+(.+)", line)
            if m:
                current = parse_frames(m.group(1), lineno)
                continue
            if line == "malformed any" and current is None:
                malformed = None
                continue
            if line == "malformed":
                if current is None or malformed is None:
                    raise ExpectedError(f"{path}:{lineno}: 'malformed' "
                                        "outside a frame block")
                malformed.update(current)
                continue
            m = re.fullmatch(r"([A-Za-z_][\w.\-]*)\s*=\s*(.*)", line)
            if not m:
                raise ExpectedError(f"{path}:{lineno}: cannot parse '{line}'")
            if current is None:
                raise ExpectedError(f"{path}:{lineno}: field before 'frame'")
            name, value = m.group(1), m.group(2).strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            if name not in fields:
                fields.append(name)
            for fr in current:
                expect.setdefault(fr, {})[name] = value
    return count, expect, fields, malformed


def as_number(text):
    t = text.strip()
    if t in ("True", "true"):
        return 1
    if t in ("False", "false"):
        return 0
    try:
        if re.fullmatch(r"-?0[xX][0-9a-fA-F]+", t):
            return int(t, 16)
        if re.fullmatch(r"-?\d+", t):
            return int(t, 10)
    except ValueError:
        pass
    return None


def same(expected, got):
    if expected == got:
        return True
    exp_parts = expected.split(AGGREGATOR)
    got_parts = got.split(AGGREGATOR)
    if len(exp_parts) != len(got_parts):
        return False
    for e, g in zip(exp_parts, got_parts):
        if e == g:
            continue
        en, gn = as_number(e), as_number(g)
        if en is None or gn is None or en != gn:
            return False
    return True


class UnknownFields(Exception):
    def __init__(self, names):
        super().__init__(", ".join(names))
        self.names = names


def run_tshark(tshark, luas, pcap, args):
    cmd = [tshark, "-n"]
    for lua in luas:    # loaded in this order
        cmd += ["-X", "lua_script:" + lua]
    cmd += ["-r", pcap] + args
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    errors = [l for l in p.stderr.splitlines()
              if l.strip() and not l.startswith("Running as user")]
    if errors and "Some fields aren't valid" in errors[0]:
        raise UnknownFields([l.strip() for l in errors[1:]])
    if p.returncode != 0 or any("Lua" in l or "rror" in l for l in errors):
        raise RuntimeError("tshark failed: " + " ".join(cmd) + "\n" +
                           "\n".join(errors))
    return p.stdout


def count_matching(tshark, luas, pcap, display_filter):
    out = run_tshark(tshark, luas, pcap,
                     ["-Y", display_filter, "-T", "fields", "-e",
                      "frame.number"])
    return [l for l in out.splitlines() if l.strip()]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lua", required=True, action="append",
                    help="Lua script to load (repeat to load several)")
    ap.add_argument("--tshark", default="tshark")
    ap.add_argument("pcap")
    ap.add_argument("expected")
    a = ap.parse_args()

    tshark = shutil.which(a.tshark)
    if tshark is None:
        print(f"SKIP: {a.tshark} not found")
        return 77
    try:
        count, expect, fields, malformed = parse_expected(a.expected)
    except (OSError, ExpectedError) as e:
        print(f"ERROR: {e}")
        return 2

    failures = []
    try:
        # A field tshark does not know (its protocol is not registered) can
        # only be expected <absent>; it is dropped from the command line.
        unknown = set()
        while True:
            args = ["-T", "fields", "-E", "separator=,", "-E", "quote=d",
                    "-E", "occurrence=a", "-E", "aggregator=" + AGGREGATOR,
                    "-e", "frame.number"]
            for name in fields:
                if name not in unknown:
                    args += ["-e", name]
            try:
                out = run_tshark(tshark, a.lua, a.pcap, args)
                break
            except UnknownFields as e:
                new = set(e.names) - unknown
                if not new:
                    raise RuntimeError("tshark rejects fields: " + str(e))
                unknown |= new
        fields = [n for n in fields if n not in unknown]
        for fr in sorted(expect):
            for name in sorted(set(expect[fr]) & unknown):
                if expect[fr][name] != ABSENT:
                    failures.append(f"frame {fr}: {name}: expected "
                                    f"{expect[fr][name]!r}, but tshark does "
                                    f"not know the field")
                del expect[fr][name]
        rows = list(csv.reader(io.StringIO(out)))
        rows = [r for r in rows if r]
        if count is not None and len(rows) != count:
            failures.append(f"{a.pcap}: expected {count} frames, "
                            f"tshark decoded {len(rows)}")
        by_frame = {int(r[0]): r[1:] for r in rows}
        checked = 0
        for fr in sorted(expect):
            if fr not in by_frame:
                failures.append(f"frame {fr}: not in {a.pcap}")
                continue
            row = by_frame[fr]
            for name, value in expect[fr].items():
                got = row[fields.index(name)]
                checked += 1
                if value == ABSENT:
                    if got != "":
                        failures.append(f"frame {fr}: {name}: expected "
                                        f"<absent>, got {got!r}")
                elif got == "":
                    failures.append(f"frame {fr}: {name}: expected "
                                    f"{value!r}, got <absent>")
                elif not same(value, got):
                    failures.append(f"frame {fr}: {name}: expected "
                                    f"{value!r}, got {got!r}")
        hits = count_matching(tshark, a.lua, a.pcap, "_ws.lua.error")
        if hits:
            failures.append(f"frames {','.join(hits)} match '_ws.lua.error'")
        for flt in ("_ws.malformed", "_ws.expert.severity == error"):
            if malformed is None:
                break
            hits = {int(h) for h in count_matching(tshark, a.lua, a.pcap,
                                                   flt)}
            extra = sorted(hits - malformed)
            if extra:
                failures.append(f"frames {','.join(map(str, extra))} match "
                                f"'{flt}'")
            missing = sorted(malformed - hits)
            if missing:
                failures.append(f"frames {','.join(map(str, missing))} "
                                f"(malformed) do not match '{flt}'")
    except (RuntimeError, UnknownFields) as e:
        print(f"FAIL: {e}")
        return 1

    for msg in failures:
        print("FAIL: " + msg)
    if failures:
        print(f"{len(failures)} mismatches in {a.pcap}")
        return 1
    print(f"ok: {a.pcap}: {len(by_frame)} frames, {checked} field values "
          f"as expected, nothing malformed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
