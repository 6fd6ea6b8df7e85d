#!/usr/bin/env python3
"""Summarises ab.sh's output (read from the files named, or stdin): for each
build, 2 threads / 1 thread in each rep (a pair run back to back); then each
build against the first, thread count by thread count, rep by rep. Each set
of ratios gets its range, median, geometric mean and the 95% confidence
interval of the geometric mean (Student's t on the logs)."""
import math
import re
import statistics
import sys
from collections import defaultdict

# Two-sided 97.5% quantiles of Student's t, by degrees of freedom.
T975 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31,
        9: 2.26, 10: 2.23, 11: 2.20, 12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13,
        16: 2.12, 17: 2.11, 18: 2.10, 19: 2.09, 20: 2.09, 21: 2.08, 22: 2.07,
        23: 2.07, 24: 2.06, 25: 2.06, 29: 2.05, 39: 2.02, 59: 2.00}


def t975(df):
    return T975[max(k for k in T975 if k <= df)]


def summary(ratios):
    logs = [math.log(r) for r in ratios]
    mean = statistics.fmean(logs)
    line = (f"n {len(ratios)}, {min(ratios):.2f}-{max(ratios):.2f}x, "
            f"median {statistics.median(ratios):.2f}x, geometric mean {math.exp(mean):.2f}x")
    if len(logs) > 1:
        half = t975(len(logs) - 1) * statistics.stdev(logs) / math.sqrt(len(logs))
        line += f" (95% CI {math.exp(mean - half):.2f}-{math.exp(mean + half):.2f})"
    return line


rate = {}  # (rep, build, threads) -> games a second
builds = []
for line in (open(f) for f in sys.argv[1:]) if sys.argv[1:] else [sys.stdin]:
    for text in line:
        m = re.match(r"rep (\S+) (\S+) threads (\d+) .* steady ([\d.]+) games/s", text)
        if m:
            rep, build, threads, r = m.group(1), m.group(2), int(m.group(3)), float(m.group(4))
            rate[(rep, build, threads)] = r
            if build not in builds:
                builds.append(build)

reps = sorted({k[0] for k in rate}, key=lambda r: (len(r), r))
for b in builds:
    ratios = [rate[(r, b, 2)] / rate[(r, b, 1)] for r in reps
              if (r, b, 1) in rate and (r, b, 2) in rate]
    if ratios:
        print(f"{b}: 2 threads / 1: {summary(ratios)}")
        for t in (1, 2):
            rates = [rate[(r, b, t)] for r in reps if (r, b, t) in rate]
            print(f"  {t} thread(s): {min(rates):.1f}-{max(rates):.1f} games/s, median {statistics.median(rates):.1f}")
for b in builds[1:]:
    for t in (1, 2):
        ratios = [rate[(r, b, t)] / rate[(r, builds[0], t)] for r in reps
                  if (r, b, t) in rate and (r, builds[0], t) in rate]
        if ratios:
            print(f"{b} / {builds[0]}, {t} thread(s): {summary(ratios)}")
