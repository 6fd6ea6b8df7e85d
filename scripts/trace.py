#!/usr/bin/env python3
"""Summarizes `interact --trace` files (plain or .gz): for each span of moves,
the time the searches spent against what the clock allotted, the mean empty
cells of the boards seen, and how many moves were searched to each depth.
Usage: scripts/trace.py [--span N] TRACE.csv[.gz]..."""
import csv, gzip, sys
from collections import Counter

def rows_of(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="") as f:
        return list(csv.DictReader(f))

def summarize(path, span):
    rows = rows_of(path)
    spent = sum(float(r["spent_ms"]) for r in rows)
    print(f"{path}: {len(rows)} moves, {spent / 1000:.2f} s spent in searches")
    print(f"{'moves':>13} {'tile sum':>9} {'spent ms':>9} {'allotted':>9} {'empty':>6}  depths")
    for lo in range(0, len(rows), span):
        part = rows[lo:lo + span]
        used = sum(float(r["spent_ms"]) for r in part)
        given = [r["allotment_ms"] for r in part if r["allotment_ms"]]
        allotted = f"{sum(map(float, given)):.0f}" if given else "-"
        empty = sum(int(r["empty"]) for r in part) / len(part)
        depths = Counter(int(r["depth"]) for r in part)
        shown = " ".join(f"{d}:{depths[d]}" for d in sorted(depths))
        span_name = f"{lo + 1}-{lo + len(part)}"
        print(f"{span_name:>13} {part[0]['tile_sum']:>9} {used:>9.0f} {allotted:>9} {empty:>6.1f}  {shown}")

def main(argv):
    span = 2000
    if len(argv) >= 2 and argv[0] == "--span":
        try:
            span = int(argv[1])
        except ValueError:
            span = 0
        argv = argv[2:]
    if not argv or span < 1:
        sys.exit(__doc__)
    for path in argv:
        try:
            summarize(path, span)
        except (OSError, KeyError, ValueError) as e:
            sys.exit(f"{path}: not an interact trace ({e})")

if __name__ == "__main__":
    main(sys.argv[1:])
