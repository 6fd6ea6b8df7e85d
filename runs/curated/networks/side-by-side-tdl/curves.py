#!/usr/bin/env python3
"""Both learners' curves from their logs, side by side: per 1,000 games, the
cumulative seconds and the mean score of the last 1,000 games (curves.csv), and
TDL2048+'s log as a progress file that `tune2048 plot` reads
(tdl2048plus/progress.csv: games, mean_score, seconds of the block).
Usage: curves.py TDL_LOG OURS_PROGRESS_CSV OUT_CSV"""
import csv, os, re, sys
tdl, ours_csv, out = sys.argv[1], sys.argv[2], sys.argv[3]
rows = []
plot_rows = []
secs = 0.0
block = None
for line in open(tdl):
    m = re.match(r'(\d+)/\d+ (\d+)ms ([\d.]+)ops', line)
    if m:
        block = int(m.group(1)); ms = int(m.group(2)); secs += ms / 1000; ops = float(m.group(3))
        continue
    m = re.match(r'local:\s+avg=(\d+) max=(\d+)', line)
    if m and block is not None:
        rows.append(('tdl2048plus', block * 1000, round(secs, 1), int(m.group(1)), int(m.group(2)), round(ops)))
        plot_rows.append((block * 1000, int(m.group(1)), round(ms / 1000, 3)))
        block = None
secs = 0.0
for r in csv.DictReader(open(ours_csv)):
    secs += float(r['seconds'])
    rows.append(('tune2048', int(r['games']), round(secs, 1), round(float(r['mean_score'])), int(r['max_score']), ''))
with open(out, 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['learner', 'games', 'seconds', 'mean_last_1000', 'max_last_1000', 'moves_per_s'])
    w.writerows(rows)
os.makedirs('tdl2048plus', exist_ok=True)
with open('tdl2048plus/progress.csv', 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['games', 'mean_score', 'seconds'])
    w.writerows(plot_rows)
for name in ('tdl2048plus', 'tune2048'):
    mine = [r for r in rows if r[0] == name]
    for t in (300, 600, 900, 1200):
        before = [r for r in mine if r[2] <= t]
        if before:
            r = before[-1]
            print(f'{name:12} at {t:5} s: {r[1]:8,} games, mean of the last 1,000 {r[3]:8,}')
