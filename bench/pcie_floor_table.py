#!/usr/bin/env python3
"""pcie_floor_table.py DIR - the table of bench/pcie_floor_device.sh: each
host-to-host phase of `gpu sort` and of a rank's local sort in `dist sort`
as a multiple of its floor measured in the same run (DIR/floor.txt:
pinned host<->device at the bytes moved; DIR/sendrecv.txt: MPI_Sendrecv
of the bytes a merge-split layer sent). Markdown on stdout."""
import glob
import os
import re
import sys

d = sys.argv[1]
floor = {}
for line in open(os.path.join(d, "floor.txt")):
    m = re.match(r"floor (\S+) (\d+) (\S+) (\S+)", line)
    if m:
        floor[m.group(1)] = float(m.group(4)) * 1e9  # bytes/s
sendrecv = {}
p = os.path.join(d, "sendrecv.txt")
if os.path.exists(p):
    for line in open(p):
        m = re.match(r"sendrecv (\d+) first (\S+) best (\S+)", line)
        if m:
            sendrecv[int(m.group(1))] = float(m.group(3))


def rate(name, fallback=None):
    return floor.get(name, floor.get(fallback) if fallback else None)


def fmt(x, f="%.3f"):
    return f % x if x is not None else "-"


def ratio(a, b):
    return "%.2f" % (a / b) if a is not None and b else "-"


print("floors (bytes/s): " + ", ".join("%s %.3g" % kv for kv in sorted(floor.items())))
print()
print("| gpu sort run | keys | host to host s | upload s (x floor) | sort s (kernel s) |"
      " download s (x floor) | floor s (up + down + kernel) | host to host / floor | verdict |")
print("|---|---|---|---|---|---|---|---|---|")
up, down = rate("pinned_h2d"), rate("pinned_d2h")
for f in sorted(glob.glob(os.path.join(d, "gpu_*.txt"))):
    t = open(f).read()
    name = os.path.basename(f)[:-4]
    n = re.search(r": (\d+) keys, (\w+),.*?(, with payload)?$", t, re.M)
    k = re.search(r"kernel time (\S+) ms .*host to host (\S+) ms", t)
    ph = re.search(r"host to host: upload (\S+) ms, sort (\S+) ms, download (\S+) ms", t)
    if not (n and k and ph):
        print("| %s | ? | failed: see %s.err | | | | | | |" % (name, name))
        continue
    keys = int(n.group(1))
    by = keys * 4 * (2 if n.group(3) else 1)
    kern, hh = float(k.group(1)) / 1e3, float(k.group(2)) / 1e3
    u, s, dn = (float(x) / 1e3 for x in ph.groups())
    fu = by / up if up else None
    fd = by / down if down else None
    fl = fu + fd + kern if fu and fd else None
    print("| %s | %d %s%s | %.3f | %.3f (%s) | %.3f (%.4f) | %.3f (%s) | %s | %s | %s |" % (
        name, keys, n.group(2), " + payload" if n.group(3) else "", hh, u, ratio(u, fu), s, kern,
        dn, ratio(dn, fd), fmt(fl), ratio(hh, fl),
        "identical" if re.search(r"^identical$", t, re.M) else "NOT identical / failed"))
print()
print("| dist sort run | keys | ranks | local sort s | copies | upload s (x floor) | kernels s |"
      " download s (x floor) | host merge s (runs) | local / (up + down + kernels floors) |"
      " layer s | bytes sent (busiest) | layer / Sendrecv | keys/s | total s | verdict |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for f in sorted(glob.glob(os.path.join(d, "dist_*.txt"))):
    t = open(f).read()
    name = os.path.basename(f)[:-4]
    n = re.search(r"dist sort: (\d+) keys .* on (\d+) rank", t)
    if not n:
        err = open(f[:-4] + ".err").read().strip().splitlines() if os.path.exists(f[:-4] + ".err") else []
        print("| %s | ? | ? | failed: %s |" % (name, err[-1][:160] if err else "no output") + " |" * 12)
        continue
    keys, P = int(n.group(1)), int(n.group(2))
    loc = float(re.search(r"^  local sort\s+(\S+)", t, re.M).group(1))
    g = re.search(r"on the GPU \(([^)]*)\): upload (\S+), kernels (\S+), download ([0-9.]+)"
                  r"(?:, (?:host|device) merge (\S+) \((\d+) runs\))?", t)
    lay = re.findall(r"^  layer \d+\s+(\S+)", t, re.M)
    by = re.search(r"^bytes sent per rank:(.*)$", t, re.M)
    kps = re.search(r"^keys per second[^:]*: (\S+)", t, re.M)
    tot = re.search(r"^  total\s+(\S+)", t, re.M)
    busiest = max(int(x) for x in by.group(1).split()) if by else 0
    block = -(-keys // P) * 4
    if P > 1:
        u_r, d_r = rate("pinned_h2d_%dgpus_each" % P, "pinned_h2d"), rate("pinned_d2h_%dgpus_each" % P, "pinned_d2h")
    else:
        u_r, d_r = up, down
    if g:
        u, kk, dn = float(g.group(2)), float(g.group(3)), float(g.group(4))
        mg = "%s (%s)" % (g.group(5), g.group(6)) if g.group(5) else "-"
        fu = block / u_r if u_r else None
        fd = block / d_r if d_r else None
        fl = fu + fd + kk if fu and fd else None
        gcols = "%s | %.3f (%s) | %.3f | %.3f (%s) | %s | %s" % (
            g.group(1), u, ratio(u, fu), kk, dn, ratio(dn, fd), mg, ratio(loc, fl))
    else:
        gcols = "- | - | - | - | - | -"
    l0 = float(lay[0]) if lay else None
    fl_x = sendrecv.get(busiest)
    print("| %s | %d | %d | %.3f | %s | %s | %d | %s | %s | %s | %s |" % (
        name, keys, P, loc, gcols, fmt(l0), busiest, ratio(l0, fl_x), kps.group(1) if kps else "?",
        tot.group(1) if tot else "?",
        "identical" if re.search(r"^identical$", t, re.M) else "NOT identical / failed"))
