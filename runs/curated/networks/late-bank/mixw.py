#!/usr/bin/env python3
"""The learning bank of run L from bank-w-d2.csv (W2055's depth-2 games, every 25 moves).

Every position holding a 16384 and no 32768 (the stages W's late tables score), with those
within 2,000 moves before a game's first 32768 counted twice, all renamed to stage every:25.

usage: mixw.py bank-w-d2.csv > bank-w-late.csv
"""
import sys

header, rows = [], []
for line in open(sys.argv[1]):
    if line.startswith('#') or line.startswith('stage,'):
        header.append(line)
        continue
    _, board, score, moves, seed = line.rstrip('\n').split(',')
    rows.append((board, score, int(moves), seed))
first32 = {}
for board, _, moves, seed in rows:
    if 'f' in board and moves < first32.get(seed, 1 << 62):
        first32[seed] = moves
late = [r for r in rows if 'e' in r[0] and 'f' not in r[0]]
near = [r for r in late if r[3] in first32 and first32[r[3]] - 2000 <= r[2] < first32[r[3]]]
out = sys.stdout
out.writelines(header)
for r in late + near:
    out.write('every:25,%s,%s,%d,%s\n' % r)
games = len({r[3] for r in rows})
print('%d games, %d made 32768; %d late positions, %d near a first 32768'
      % (games, len(first32), len(late), len(near)), file=sys.stderr)
