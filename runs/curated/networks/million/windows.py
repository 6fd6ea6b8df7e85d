#!/usr/bin/env python3
"""Windows of a learning folder's progress.csv: games, mean of block means, 16384 and
32768 reach (mean of the blocks' rates), best game, seconds (sum of the blocks')."""
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
step = int(sys.argv[2]) if len(sys.argv) > 2 else 50000
print("window,blocks,mean,reach_16384,reach_32768,best,seconds")
win = []
for r in rows:
    win.append(r)
    g = int(r["games"])
    if g % step == 0 or r is rows[-1]:
        n = len(win)
        mean = sum(float(x["mean_score"]) for x in win) / n
        r16 = sum(float(x["reach_16384"]) for x in win) / n
        r32 = sum(float(x["reach_32768"]) for x in win) / n
        best = max(int(x["max_score"]) for x in win)
        secs = sum(float(x["seconds"]) for x in win)
        print(f"{int(win[0]['games'])-1000}..{g},{n},{mean:.0f},{r16:.4f},{r32:.4f},{best},{secs:.0f}")
        win = []
