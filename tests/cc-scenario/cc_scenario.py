#!/usr/bin/env python3
"""Congestion-control and multipath scenario checks (issue 6).

Runs uet-emu on a scenario of examples/, reads the records it writes and
asserts one number per check against an ideal computed here from the
fabric's shape and the frames the NICs really sent:

  one          one message: its completion time within 5% of
               wire bytes / rate + base RTT
  incast       N-to-1: total wire bytes / (last completion - first post)
               at least 95% of the receiver's link rate, trimming on, no
               timeout; prints the spread of completion times
  permutation  REPS: the slowest message within 15% of the ideal;
               single-path (the same scenario with pds.LoadBalancing
               overridden): the slowest at least 2x REPS's slowest, and
               some core uplink carrying two flows or more
  degraded     a scenario that degrades a link: REPS's slowest within 25%
               of the ideal of the healthy fabric; oblivious spraying's
               figure printed beside it (not registered in meson: REPS is
               at +31%, docs/multipath.md "The degraded-link scenario")
  ack-nth      the scenario with AckRequestEveryNthPacket 4, then 16: no
               timeout, the slowest within 5% of the ideal (one message)
               or 20% (more)

A scenario's messages are its workload.messages, or the flows.csv rows of
a connection matrix (workload.matrix, found from the scenario's folder).

The ideal of a message from host s to host d:

  wire_bytes / rate(s) + base_rtt(s, d)
  base_rtt(s, d) = sum over the links of the data path (s to d) of
                   (delay + ser(data frame, link rate))
                 + sum over the links of the ACK path (d to s) of
                   (delay + ser(ACK frame, link rate))

with wire_bytes the sum of the wire sizes (FCS counted) of the message's
first transmissions in uet-monitor.csv, the data frame its largest frame,
the ACK frame the size of an ACK the receiver sent, ser(b, r) = b x 8 / r
rounded up to the picosecond (as the fabric serializes), rate(s) the
sender's port, min(DataRate, link_rate), and the links the up-down path
through the topology (a fat tree's cross-pod path is 6 links: host, tor,
agg, core, agg, tor, host). Every input comes from `uet-emu
--print-config` and the records; nothing is assumed about the scenario
beyond its topology kind.

Adding a check: a function check_NAME(emu, scenario, out) below and a line
in tests/cc-scenario/meson.build.

usage: cc_scenario.py UET-EMU CHECK SCENARIO.yaml
"""
import csv
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from decimal import Decimal

PS_PER_S = 10**12


class CheckFailed(Exception):
    pass


def require(cond, what):
    if not cond:
        raise CheckFailed(what)


# -- units as uet-emu prints them ------------------------------------------

_RATE = {'bps': 1, 'Kbps': 10**3, 'Mbps': 10**6, 'Gbps': 10**9,
         'Tbps': 10**12}
_TIME = {'ps': 1, 'ns': 10**3, 'us': 10**6, 'ms': 10**9, 's': 10**12}


def _split(value, units, what):
    m = re.fullmatch(r'([0-9.]+)\s*([A-Za-z]*)', value.strip())
    if m is None or m.group(2) not in units:
        raise CheckFailed('cannot read %s %r' % (what, value))
    return int(Decimal(m.group(1)) * units[m.group(2)])


def rate_bps(value):
    return _split(value, _RATE, 'rate')


def time_ps(value):
    return _split(value, _TIME, 'duration')


def ser_ps(wire_bytes, bps):
    """Serialization time, rounded up like uet_serialization_ps."""
    return -(-wire_bytes * 8 * PS_PER_S // bps)


# -- the scenario -----------------------------------------------------------

def print_config(emu, scenario):
    """Every effective attribute: {section: {key: value}}, and the
    workload's messages as (src, dst) host pairs in order."""
    text = subprocess.run([emu, '--print-config', scenario], check=True,
                          capture_output=True, text=True).stdout
    conf, msgs, section = {}, [], None
    for line in text.splitlines():
        m = re.match(r'^(\w[\w.]*):\s*$', line)
        if m:
            section = conf.setdefault(m.group(1), {})
            continue
        m = re.match(r'^\s+- \{src: (\d+), dst: (\d+),', line)
        if m:
            msgs.append((int(m.group(1)), int(m.group(2))))
            continue
        m = re.match(r'^  (\w+): (.*?)(\s+#.*)?$', line)
        if m and section is not None:
            value = m.group(2).strip('"')
            # A derived value: 'auto  # VALUE[ bytes] = how'.
            d = re.match(r'^\s+#\s*(\S+)( bytes)? = ', m.group(3) or '')
            if value == 'auto' and d:
                value = d.group(1)
            section[m.group(1)] = value
    return conf, msgs


def with_attrs(text, attrs):
    """The scenario text with section.key set to value for each item of
    attrs (a line replaced in its section, or added under it, or a new
    section at the end). Enough for the flat sections of examples/."""
    lines = text.splitlines()
    for name, value in attrs:
        section, key = name.split('.')
        try:
            at = lines.index(section + ':')
        except ValueError:
            lines += [section + ':', '  %s: %s' % (key, value)]
            continue
        end = at + 1
        while end < len(lines) and (lines[end].startswith(' ') or
                                    not lines[end].strip()):
            end += 1
        for i in range(at + 1, end):
            if re.match(r'^  %s:' % re.escape(key), lines[i]):
                lines[i] = '  %s: %s' % (key, value)
                break
        else:
            lines.insert(at + 1, '  %s: %s' % (key, value))
    return '\n'.join(lines) + '\n'


# Every run records the monitor (the frames' sizes) and the CC trace (the
# timeout rows); no pcap (nothing here reads it, and it is the slow part).
RECORDS = [('records.EnableUetMonitor', 'true'),
           ('records.EnableCcTrace', 'true'),
           ('records.EnableTransportStats', 'true'),
           ('records.EnableFlowSummary', 'true'),
           ('records.EnablePcap', 'false')]


class Run:
    """One uet-emu run of scenario with attrs set, and its records."""

    def __init__(self, emu, scenario, out, name, attrs=()):
        self.name = name
        with open(scenario) as f:
            text = with_attrs(f.read(), RECORDS + list(attrs))
        # A matrix is found from the scenario's folder, not the copy's.
        text = re.sub(r'^(  matrix: *)([^/\s"][^\s"]*)$',
                      lambda m: m.group(1) + os.path.join(
                          os.path.dirname(os.path.abspath(scenario)),
                          m.group(2)), text, flags=re.M)
        self.yaml = os.path.join(out, name + '.yaml')
        self.dir = os.path.join(out, name)
        with open(self.yaml, 'w') as f:
            f.write(text)
        self.conf, self.msgs = print_config(emu, self.yaml)
        p = subprocess.run([emu, '--out', self.dir, self.yaml],
                           capture_output=True, text=True)
        self.log = p.stderr
        if p.returncode != 0:
            sys.stdout.write(self.log)
            raise CheckFailed('%s: uet-emu exited %d' % (name, p.returncode))
        # The run's figures: summary.csv (docs/records.md), not the prose.
        self.summary = {r['figure']: r['value']
                        for r in self._csv('summary.csv')}
        s = self.summary
        require(s['completed'] == s['messages'] and int(s['messages']) > 0,
                '%s: not every message completed' % name)
        if not self.msgs:
            # A connection matrix: its messages are the flows.csv rows.
            self.msgs = [(host(r['src']), host(r['dst'])) for r in sorted(
                self._csv('flows.csv'), key=lambda r: int(r['msg_id']))]
        n = len(self.msgs)
        require(s['payload_mismatches'] == '0' and
                s['in_flight_anomalies'] == '0' and
                s['psns_taken'] == s['psns_retired'] and s['intact'] == '1',
                '%s: integrity (summary.csv)' % name)
        self.flows = self._csv('flows.csv')
        require(len(self.flows) == n, '%s: %d flows.csv rows for %d '
                'messages' % (name, len(self.flows), n))
        self.flows.sort(key=lambda r: int(r['msg_id']))
        self._frames()

    def _csv(self, name):
        with open(os.path.join(self.dir, name)) as f:
            return list(csv.DictReader(f))

    def _frames(self):
        """Per message: wire bytes of its first transmissions and its
        largest frame; the size of an ACK."""
        first = {}
        self.ack_bytes = 0
        with open(os.path.join(self.dir, 'uet-monitor.csv')) as f:
            for r in csv.DictReader(f):
                if r['dir'] != 'tx':
                    continue
                if r['pkt'] == 'ack':
                    self.ack_bytes = max(self.ack_bytes,
                                         int(r['wire_bytes']))
                elif r['pkt'] == 'data' and r['retx'] == '0':
                    w = int(r['wire_bytes'])
                    s = first.setdefault((r['nic'], r['pdc']), [0, 0, 0])
                    s[0] += w
                    s[1] = max(s[1], w)
                    s[2] += 1
        require(self.ack_bytes > 0, '%s: no ACK in the monitor' % self.name)
        self.wire = []
        for r in self.flows:
            s = first.get((r['src'], r['src_pdc']))
            require(s is not None and s[2] == int(r['packets']),
                    '%s: message %s: first transmissions in the monitor '
                    'do not match its %s packets' %
                    (self.name, r['msg_id'], r['packets']))
            self.wire.append(s)

    # -- the fabric's shape ----------------------------------------------

    def _path(self, src, dst):
        """Links from host src to host dst as (rate_bps, delay_ps)."""
        t, nic = self.conf['topology'], self.conf['nic']
        up = (min(rate_bps(nic['DataRate']), rate_bps(t['link_rate'])),
              time_ps(nic['Delay']))
        down = (rate_bps(t['link_rate']), time_ps(t['link_delay']))
        kind = t['kind']
        if kind == 'single-switch':
            return [up, down]
        mid = (rate_bps(t['leaf_spine_rate']), time_ps(t['leaf_spine_delay']))
        if kind == 'leaf-spine':
            per_leaf = int(t['hosts_per_leaf'])
            if src // per_leaf == dst // per_leaf:
                return [up, down]
            return [up, mid, mid, down]
        require(kind == 'fat-tree', 'unknown topology %s' % kind)
        k = int(t['k'])
        core = (rate_bps(t['agg_core_rate']), time_ps(t['agg_core_delay']))
        if src // (k // 2) == dst // (k // 2):
            return [up, down]
        if src // (k * k // 4) == dst // (k * k // 4):
            return [up, mid, mid, down]
        return [up, mid, core, core, mid, down]

    def base_rtt_ps(self, src, dst, data_bytes):
        return (sum(d + ser_ps(data_bytes, r) for r, d in self._path(src, dst))
                + sum(d + ser_ps(self.ack_bytes, r)
                      for r, d in self._path(dst, src)))

    def sender_bps(self):
        return min(rate_bps(self.conf['nic']['DataRate']),
                   rate_bps(self.conf['topology']['link_rate']))

    def ideal_ps(self, i):
        src, dst = self.msgs[i]
        wire, frame, _ = self.wire[i]
        return (ser_ps(wire, self.sender_bps()) +
                self.base_rtt_ps(src, dst, frame))

    def fct_ps(self, i):
        return int(self.flows[i]['fct_ps'])

    # -- loss ---------------------------------------------------------------

    def timeouts(self):
        """Timeouts as flows.csv, the CC trace and the NICs' transport
        stats count them."""
        flows = sum(int(r['timeouts']) for r in self.flows)
        trace = sum(1 for r in self._csv('uet-cc-trace.csv')
                    if r['event'] == 'timeout')
        last = {}
        for r in self._csv('uet-transport-stats.csv'):
            last[r['nic']] = int(r['rto_expiries'])
        return flows, trace, sum(last.values())

    def uplink_bytes(self, lower):
        """Bytes each link from a switch named lower<N> up carried."""
        return {m.group(1): int(v) for k, v in self.summary.items()
                for m in [re.fullmatch(r'uplink\.(%s\d+-\w+)\.bytes' % lower,
                                       k)] if m}


def host(ip):
    """Host index of a default address (198.18.0.1 is host 0)."""
    a = [int(x) for x in ip.split('.')]
    return a[2] * 256 + a[3] - 1


def hops(links, wire_bytes):
    """'n x (delay + serialization)' for each run of equal links."""
    parts = []
    for r, d in links:
        term = '(%s + %s)' % (us(d), us(ser_ps(wire_bytes, r)))
        if parts and parts[-1][1] == term:
            parts[-1][0] += 1
        else:
            parts.append([1, term])
    return ' + '.join('%d x %s' % (n, t) for n, t in parts)


def pct(x, ideal):
    return 100.0 * (x - ideal) / ideal


def us(ps):
    return '%.3f us' % (ps / 1e6)


# -- the checks -------------------------------------------------------------

def check_one(emu, scenario, out):
    run = Run(emu, scenario, out, 'one')
    require(len(run.msgs) == 1, 'one message expected')
    src, dst = run.msgs[0]
    wire, frame, frames = run.wire[0]
    ideal, fct = run.ideal_ps(0), run.fct_ps(0)
    links = run._path(src, dst)
    print('host %d -> %d over %d links: %s bytes in %d frames, %d wire '
          'bytes (largest frame %d, ACK %d)' %
          (src, dst, len(links), run.flows[0]['bytes'], frames, wire, frame,
           run.ack_bytes))
    print('base RTT %s = data path %s + ACK path %s' %
          (us(run.base_rtt_ps(src, dst, frame)), hops(links, frame),
           hops(run._path(dst, src), run.ack_bytes)))
    print('ideal %s = %s of wire bytes at %d bps + base RTT' %
          (us(ideal), us(ser_ps(wire, run.sender_bps())), run.sender_bps()))
    print('completed in %s: %+.2f%% of the ideal (bound: within 5%%)' %
          (us(fct), pct(fct, ideal)))
    require(int(run.flows[0]['retransmits']) == 0, 'retransmissions')
    require(abs(fct - ideal) * 100 <= 5 * ideal,
            'completion %s not within 5%% of %s' % (us(fct), us(ideal)))


def check_incast(emu, scenario, out):
    run = Run(emu, scenario, out, 'incast')
    dsts = {d for _, d in run.msgs}
    require(len(dsts) == 1, 'an incast has one receiver')
    require(run.conf['nic']['TrimmingEnabled'] == 'true' and
            run.conf['switch']['TrimmingEnabled'] == 'true',
            'trimming must be on at the NICs and the switches')
    link = rate_bps(run.conf['topology']['link_rate'])
    first = min(int(r['posted_ps']) for r in run.flows)
    done = sorted(int(r['completed_ps']) - first for r in run.flows)
    wire = sum(w[0] for w in run.wire)
    payload = sum(int(r['bytes']) for r in run.flows)
    span = done[-1]
    achieved = wire * 8 * PS_PER_S / span
    trims = sum(int(r['trims']) for r in run.flows)
    flows_to, trace_to, stats_to = run.timeouts()
    print('%d-to-1 into host %d: %d wire bytes (%d payload) in %s' %
          (len(run.msgs), dsts.pop(), wire, payload, us(span)))
    print('rate %.2f Gbps of wire bytes, %.2f%% of the %.0f Gbps link '
          '(payload %.2f Gbps, %.2f%%); bound: at least 95%%' %
          (achieved / 1e9, 100 * achieved / link, link / 1e9,
           payload * 8 * PS_PER_S / span / 1e9,
           100 * payload * 8 * PS_PER_S / span / link))
    print('completion times from the first post: min %s, median %s, '
          'max %s' % (us(done[0]), us(statistics.median(done)),
                      us(done[-1])))
    print('trims NACKed %d; timeouts: flows.csv %d, CC trace %d, '
          'transport stats %d' % (trims, flows_to, trace_to, stats_to))
    require(trims > 0, 'nothing was trimmed: not an incast with trimming')
    require((flows_to, trace_to, stats_to) == (0, 0, 0), 'timeouts')
    require(achieved * 100 >= 95 * link, 'below 95% of the link rate')


def slowest(run):
    """(fct, ideal, message index) of the message that completed last."""
    return max((run.fct_ps(i), run.ideal_ps(i), i)
               for i in range(len(run.msgs)))


def report(run):
    fct, ideal, i = slowest(run)
    print('%s: slowest message %d (host %d -> %d) %s, ideal %s: %+.2f%%' %
          (run.name, i, run.msgs[i][0], run.msgs[i][1], us(fct), us(ideal),
           pct(fct, ideal)))
    return fct, ideal


def check_permutation(emu, scenario, out):
    reps = Run(emu, scenario, out, 'reps')
    require(reps.conf['pds']['LoadBalancing'] == 'reps',
            'the scenario must use REPS')
    single = Run(emu, scenario, out, 'single-path',
                 [('pds.LoadBalancing', 'single-path')])
    fct, ideal = report(reps)
    sp_fct, _ = report(single)
    flow_bytes = max(w[0] for w in single.wire)
    core = {k: v // flow_bytes
            for k, v in single.uplink_bytes('agg').items()}
    busiest = max(core, key=core.get)
    print('single-path: %.2fx the REPS slowest; busiest core uplink %s '
          'with %d flows' % (sp_fct / fct, busiest, core[busiest]))
    require(fct * 100 <= 115 * ideal, 'REPS: beyond 15% of the ideal')
    require(core[busiest] >= 2, 'single-path: no core uplink collision')
    require(sp_fct >= 2 * fct, 'single-path: not 2x later than REPS')


def check_ack_nth(emu, scenario, out):
    """AckRequestEveryNthPacket 4 and 16 under REPS: packets the last one
    overtook are acknowledged (the receiver answers every packet after a
    message's last), so nothing waits for a timeout."""
    for n in (4, 16):
        run = Run(emu, scenario, out, 'ack-every-%d' % n,
                  [('pds.AckRequestEveryNthPacket', str(n))])
        fct, ideal = report(run)
        timeouts = run.timeouts()
        acks = sum(int(r['acks_sent']) for r in last_stats(run).values())
        print('%s: %d ACKs sent for %d data packets; timeouts: flows.csv '
              '%d, CC trace %d, transport stats %d' %
              (run.name, acks, sum(int(r['packets']) for r in run.flows),
               *timeouts))
        require(timeouts == (0, 0, 0), '%s: timeouts' % run.name)
        bound = 5 if len(run.msgs) == 1 else 20
        require(fct * 100 <= (100 + bound) * ideal,
                '%s: beyond %d%% of the ideal' % (run.name, bound))


def last_stats(run):
    """The last uet-transport-stats row of each NIC."""
    last = {}
    for r in run._csv('uet-transport-stats.csv'):
        last[r['nic']] = r
    return last


def check_degraded(emu, scenario, out):
    reps = Run(emu, scenario, out, 'reps')
    require(reps.conf['pds']['LoadBalancing'] == 'reps',
            'the scenario must use REPS')
    obl = Run(emu, scenario, out, 'oblivious',
              [('pds.LoadBalancing', 'oblivious')])
    fct, ideal = report(reps)
    report(obl)
    # The degraded link must be one the run used, or the check is moot.
    with open(scenario) as f:
        degraded = re.findall(r'\{link: "?([\w-]+)"?,[^}]*rate:', f.read())
    require(degraded, 'the scenario degrades no link')
    up = reps.uplink_bytes('agg')
    for link in degraded:
        print('reps: %s carried %d bytes up' % (link, up.get(link, 0)))
        require(up.get(link, 0) > 0, '%s carried nothing' % link)
    require(fct * 100 <= 125 * ideal, 'REPS: beyond 25% of the ideal')


CHECKS = {'one': check_one, 'incast': check_incast,
          'permutation': check_permutation, 'degraded': check_degraded,
          'ack-nth': check_ack_nth}


def main(argv):
    if len(argv) != 4 or argv[2] not in CHECKS:
        sys.stderr.write('usage: %s UET-EMU %s SCENARIO.yaml\n' %
                         (argv[0], '|'.join(CHECKS)))
        return 2
    out = tempfile.mkdtemp(prefix='uet-cc-scenario.')
    try:
        CHECKS[argv[2]](argv[1], argv[3], out)
    except CheckFailed as e:
        print('FAIL: %s' % e)
        return 1
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print('ok: %s' % argv[2])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
