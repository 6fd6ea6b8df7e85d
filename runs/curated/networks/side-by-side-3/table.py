#!/usr/bin/env python3
"""The side-by-side table and curves from run.sh's logs.

Usage: table.py DIR

Reads DIR/start, DIR/ziap.log, DIR/ours.log (each line stamped with the Unix
time it was read) and DIR/cpu.log; prints, at every 5 minutes, each program's
games and its latest mean (ziap: the `avg:` of its last progress line, the
mean of its last 1,000 games; ours: the mean of the last block), with both
processes' CPU seconds; writes DIR/curve.csv (every progress line of both) and
DIR/ziap/progress.csv (ziap's in the columns `tune2048 plot` reads, as a
learning folder's: `seconds` is each block's own time).
"""
import os
import re
import sys

d = sys.argv[1]
start = float(open(os.path.join(d, "start")).read())

ziap = []  # (seconds, games, mean)
games = None
for line in open(os.path.join(d, "ziap.log")):
    stamp, _, text = line.rstrip("\n").partition(" ")
    m = re.match(r"progress:\s+(\d+)/", text)
    if m:
        games = int(m.group(1))
    m = re.match(r"avg:\s+(\d+)", text)
    if m and games is not None:
        ziap.append((float(stamp) - start, games, int(m.group(1))))

ours = []
for line in open(os.path.join(d, "ours.log")):
    stamp, _, text = line.rstrip("\n").partition(" ")
    m = re.match(r"games\s+(\d+)\s+mean\s+(\d+)", text)
    if m:
        ours.append((float(stamp) - start, int(m.group(1)), int(m.group(2))))

cpu = []
for line in open(os.path.join(d, "cpu.log")):
    f = line.split()
    if len(f) == 5 and f[2] != "NA" and f[4] != "NA":
        cpu.append((float(f[0]) - start, float(f[2]), float(f[4])))


def last(rows, t):
    before = [r for r in rows if r[0] <= t]
    return before[-1] if before else None


print("| minutes | ziap: games | ziap: mean of last 1,000 | tune2048: games | tune2048: mean of last 1,000 | CPU s (ziap / ours) |")
print("|---|---|---|---|---|---|")
for minutes in range(5, 31, 5):
    t = 60 * minutes
    z, o, c = last(ziap, t), last(ours, t), last(cpu, t)
    cell = lambda r, i: f"{r[i]:,}" if r else "–"
    cs = f"{c[1]:.0f} / {c[2]:.0f}" if c else "–"
    print(f"| {minutes} | {cell(z, 1)} | {cell(z, 2)} | {cell(o, 1)} | {cell(o, 2)} | {cs} |")

with open(os.path.join(d, "curve.csv"), "w") as out:
    out.write("program,seconds,games,mean\n")
    for name, rows in (("ziap", ziap), ("tune2048", ours)):
        for s, g, m in rows:
            out.write(f"{name},{s:.1f},{g},{m}\n")
os.makedirs(os.path.join(d, "ziap"), exist_ok=True)
with open(os.path.join(d, "ziap", "progress.csv"), "w") as out:
    out.write("games,mean_score,seconds\n")
    before = 0.0
    for s, g, m in ziap:
        out.write(f"{g},{m},{s - before:.1f}\n")
        before = s
